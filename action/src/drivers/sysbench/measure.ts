import type { CellRequest, Measured } from "../types.ts";
import type { SysbenchInterval, SysbenchReport } from "./parse.ts";

/** One interval line as named metric values (tps, qps, p<N>_ms, and the rest of the line). */
function intervalValues(iv: SysbenchInterval, p: number | null): Record<string, number> {
  const v: Record<string, number> = {
    tps: iv.tps,
    qps: iv.qps,
    reads: iv.reads,
    writes: iv.writes,
    other: iv.other,
    errors_per_s: iv.errors_per_s,
    reconnects_per_s: iv.reconnects_per_s,
  };
  if (p !== null && iv.lat_ms !== undefined) v[`p${p}_ms`] = iv.lat_ms;
  if (iv.queue_length !== undefined) v.queue_length = iv.queue_length;
  if (iv.concurrency !== undefined) v.concurrency = iv.concurrency;
  return v;
}

/**
 * The judged metrics of a measured run: sysbench's own summary (transactions and queries per
 * second, errors, the latency percentile), which is the steady window's because the warmup ran as
 * its own invocation before it. The one-second samples are kept as samples, never averaged into
 * a headline: a mean of per-second p95s is not a p95.
 */
export function measuredWindow(report: SysbenchReport): Measured {
  const p = report.percentile;
  const intervals = report.intervals.map((iv) => ({ t: iv.t, warmup: false, values: intervalValues(iv, p) }));
  const { intervals: _omit, ...summary } = report;
  const metrics: Record<string, number> = { tps: report.tps, qps: report.qps, errors: report.errors };
  const lat = p !== null ? report.latency_ms[`p${p}`] : undefined;
  if (p !== null && lat !== undefined) metrics[`p${p}_ms`] = lat;
  return { intervals, summary, metrics, source: "summary" };
}

/** The one-second samples without a finished query or transaction (a stalled server). */
export const stalledSeconds = (report: SysbenchReport): number[] =>
  report.intervals.filter((iv) => iv.qps === 0 && iv.tps === 0).map((iv) => iv.t);

/**
 * Why a finished sysbench run is not the measurement the cell asked for, or [] when it is. A
 * stalled server (SIGSTOP, a hung disk) lets sysbench run long past --time printing seconds of
 * zero throughput, then finish "successfully" with a summary averaged over the whole stall.
 */
export function measurementProblems(
  report: SysbenchReport,
  req: CellRequest & {
    /** With --rate, a second without a finished query can be the schedule. */ rate_limited: boolean;
  },
): string[] {
  const problems: string[] = [];
  if (report.duration_s > req.seconds + req.grace_s) {
    problems.push(
      `sysbench ran ${report.duration_s.toFixed(1)}s for a ${req.seconds}s cell (allowed: ${req.seconds}s + ${req.grace_s}s grace)`,
    );
  }
  if (!req.rate_limited) {
    const stalled = stalledSeconds(report);
    if (stalled.length > 0) {
      const shown = stalled.slice(0, 5).map((t) => `${t}s`);
      problems.push(
        `${stalled.length} one-second sample(s) with zero throughput (at ${shown.join(", ")}${stalled.length > 5 ? ", …" : ""}): the server stalled`,
      );
    }
  }
  // sysbench may drop the last interval line when the run ends on a second boundary.
  const expected = Math.floor(req.seconds);
  if (report.intervals.length < expected - 1) {
    problems.push(
      `sysbench printed ${report.intervals.length} one-second samples for a ${req.seconds}s cell (expected ${expected})`,
    );
  } else {
    // a second with no line of its own (the next one then printed twice): sysbench itself got no CPU
    const seen = new Set(report.intervals.map((i) => Math.round(i.t)));
    const missing: number[] = [];
    for (let t = 1; t < expected; t++) if (!seen.has(t)) missing.push(t);
    if (missing.length > 0)
      problems.push(
        `sysbench printed no sample for second(s) ${missing
          .slice(0, 5)
          .map((t) => `${t}s`)
          .join(", ")}${missing.length > 5 ? ", …" : ""} of a ${req.seconds}s cell: it got no CPU itself`,
      );
  }
  return problems;
}
