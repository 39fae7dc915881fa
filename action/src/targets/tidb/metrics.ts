// The monitoring of a `monitoring: true` cluster, kept before the cluster is destroyed: the run
// window's series of the metrics an engineer opens Grafana for — CPU and memory per component,
// TiDB's QPS and query latency, TiKV's thread CPU and gRPC latency, each host's CPU, disk and
// network — as Prometheus answers range queries (its JSON, unchanged), in one file of the run.

/** The queries, by the name the file keys them under. */
export const METRIC_QUERIES: Record<string, string> = {
  cpu_by_component: "sum by (job, instance) (rate(process_cpu_seconds_total[1m]))",
  memory_by_component: "sum by (job, instance) (process_resident_memory_bytes)",
  tidb_qps: "sum by (result) (rate(tidb_server_query_total[1m]))",
  tidb_query_p99_seconds:
    "histogram_quantile(0.99, sum by (le) (rate(tidb_server_handle_query_duration_seconds_bucket[1m])))",
  tikv_thread_cpu: "sum by (instance, name) (rate(tikv_thread_cpu_seconds_total[1m]))",
  tikv_grpc_p99_seconds:
    "histogram_quantile(0.99, sum by (le, type) (rate(tikv_grpc_msg_duration_seconds_bucket[1m])))",
  host_cpu_busy: '1 - avg by (instance) (rate(node_cpu_seconds_total{mode="idle"}[1m]))',
  host_disk_written_bytes: "sum by (instance) (rate(node_disk_written_bytes_total[1m]))",
  host_network_received_bytes: "sum by (instance) (rate(node_network_receive_bytes_total[1m]))",
};

export const METRICS_FORMAT = "tiperf.prometheus-snapshot";

export interface MetricsSnapshot {
  format: typeof METRICS_FORMAT;
  prometheus: string;
  start: string;
  end: string;
  step_s: number;
  /** Per query: the PromQL and Prometheus's answer, or why there is none. */
  series: Record<string, { query: string; data?: unknown; error?: string }>;
}

/**
 * Range queries over [start, end] against a Prometheus at `base` (http://host:port), each answer
 * kept as is; `get` fetches JSON from here or from the load host. A query that fails is recorded,
 * not fatal: what the cluster had is kept either way.
 */
export async function snapshotMetrics(o: {
  base: string;
  start: Date;
  end: Date;
  get: (url: string) => Promise<unknown>;
  stepS?: number;
}): Promise<MetricsSnapshot> {
  const step = o.stepS ?? Math.max(5, Math.ceil((o.end.getTime() - o.start.getTime()) / 1000 / 1000));
  const series: MetricsSnapshot["series"] = {};
  for (const [name, query] of Object.entries(METRIC_QUERIES)) {
    const params = new URLSearchParams({
      query,
      start: (o.start.getTime() / 1000).toFixed(3),
      end: (o.end.getTime() / 1000).toFixed(3),
      step: `${step}s`,
    });
    try {
      const answer = (await o.get(`${o.base}/api/v1/query_range?${params}`)) as {
        status?: string;
        error?: string;
        data?: unknown;
      };
      series[name] =
        answer?.status === "success"
          ? { query, data: answer.data }
          : { query, error: answer?.error ?? "no success status" };
    } catch (e) {
      series[name] = { query, error: (e as Error).message };
    }
  }
  return {
    format: METRICS_FORMAT,
    prometheus: o.base,
    start: o.start.toISOString(),
    end: o.end.toISOString(),
    step_s: step,
    series,
  };
}
