// Every counter a server keeps, read whole at the edges of a measured window: a Prometheus
// endpoint's counters and histograms' _count/_sum (TiDB, TiKV, PD), MariaDB's SHOW GLOBAL STATUS,
// PostgreSQL's pg_stat_* views. Each counter is kept under one key, `<component>:<series>`
// (`tidb:tidb_executor_statement_total{db="",type="Select"}`, `mariadb:Handler_read_key`), beside
// the few named counters the cost metrics divide (cpu_s, alloc_bytes …, keys without a colon).
// compare/what-moved.ts then asks which of them the two sides did differently per operation.

/** The key of one counter of one component: `<component>:<series>`. */
export function counterKey(component: string, series: string): string {
  return `${component}:${series}`;
}

/** A counter key read whole from a server (has a component), not one of the named cost counters. */
export const isServerCounter = (key: string): boolean => key.includes(":");

/** A counter key's parts: component, metric name, labels. */
export interface CounterName {
  component: string;
  name: string;
  labels: Record<string, string>;
}

const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*,?/y;

/** Labels of a Prometheus series as written between braces (values unescaped), or undefined when malformed. */
export function parseLabels(body: string): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < body.length) {
    const at = LABEL.lastIndex;
    const m = LABEL.exec(body);
    if (!m) return body.slice(at).trim() === "" ? out : undefined;
    out[m[1] as string] = (m[2] as string).replace(/\\(["\\n])/g, (_, c) => (c === "n" ? "\n" : c));
  }
  return out;
}

/** A series written back from its name and labels, the labels sorted (one key per series). */
export function seriesKey(name: string, labels: Record<string, string>): string {
  const keys = Object.keys(labels).sort();
  if (!keys.length) return name;
  const esc = (v: string) => v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
  return `${name}{${keys.map((k) => `${k}="${esc(labels[k] as string)}"`).join(",")}}`;
}

/** A counter key split into component, name and labels (undefined for the named cost counters). */
export function parseCounterKey(key: string): CounterName | undefined {
  const colon = key.indexOf(":");
  if (colon < 0) return undefined;
  const component = key.slice(0, colon);
  const series = key.slice(colon + 1);
  const brace = series.indexOf("{");
  if (brace < 0) return { component, name: series, labels: {} };
  const labels = series.endsWith("}") ? parseLabels(series.slice(brace + 1, -1)) : undefined;
  return { component, name: series.slice(0, brace), labels: labels ?? {} };
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\S+)?$/;

/**
 * Every monotonic series of Prometheus text exposition, keyed `<component>:<series>`: the samples
 * of each `counter`, and the `_count` and `_sum` of each `histogram` and `summary` (buckets and
 * quantiles are left out: a histogram's growth is in its count and sum). Gauges and untyped
 * metrics are left out; labels are kept, sorted.
 */
export function promCounters(text: string, component: string): Record<string, number> {
  const types = new Map<string, string>();
  const out: Record<string, number> = {};
  for (const line of text.split("\n")) {
    if (line.startsWith("# TYPE ")) {
      const [, , name, type] = line.split(/\s+/);
      if (name && type) types.set(name, type);
      continue;
    }
    if (!line || line.startsWith("#")) continue;
    const m = SAMPLE.exec(line.trim());
    if (!m) continue;
    const name = m[1] as string;
    if (!isMonotonic(name, types)) continue;
    const v = Number(m[3]);
    const labels = m[2] ? parseLabels(m[2]) : {};
    if (!Number.isFinite(v) || !labels) continue;
    const key = counterKey(component, seriesKey(name, withoutPaths(labels)));
    out[key] = (out[key] ?? 0) + v;
  }
  return out;
}

/**
 * Labels without those naming a file (unistore's data directory, each instance's own), so that the
 * same series of two servers has one key; the series such a label split are summed.
 */
function withoutPaths(labels: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(labels).filter(([, v]) => !v.startsWith("/")));
}

/** A cell's counters keyed as promCounters keys them now (results recorded before kept file labels). */
export function sameSeries(counters: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, v] of Object.entries(counters)) {
    const k = parseCounterKey(key);
    const paths = k && Object.values(k.labels).some((l) => l.startsWith("/"));
    const same = k && paths ? counterKey(k.component, seriesKey(k.name, withoutPaths(k.labels))) : key;
    out[same] = (out[same] ?? 0) + v;
  }
  return out;
}

/** Whether a sample belongs to a counter, or is a histogram's or summary's _count or _sum. */
function isMonotonic(sample: string, types: Map<string, string>): boolean {
  if (types.get(sample) === "counter") return true;
  // OpenMetrics names the family without _total
  if (sample.endsWith("_total") && types.get(sample.slice(0, -6)) === "counter") return true;
  const suffix = /_(count|sum)$/.exec(sample);
  if (!suffix) return false;
  const family = types.get(sample.slice(0, -suffix[0].length));
  return family === "histogram" || family === "summary";
}

/**
 * A counter selector of a spec (`go_memstats_mallocs_total`, `tidb:tidb_executor_statement_total`,
 * `tidb_executor_statement_total{type="Select"}`): the component (any when left out), the metric
 * name, and labels every matching series must carry. undefined when it is not one.
 */
export function parseSelector(selector: string): CounterName | undefined {
  const m = /^(?:([a-z][a-z0-9_-]*):)?([a-zA-Z_][a-zA-Z0-9_.]*)(?:\{(.*)\})?$/.exec(selector);
  if (!m) return undefined;
  const labels = m[3] !== undefined ? parseLabels(m[3]) : {};
  if (!labels) return undefined;
  return { component: m[1] ?? "", name: m[2] as string, labels };
}

/** Whether a counter key is one of the series a selector names. */
export function selects(selector: CounterName, key: string): boolean {
  const k = parseCounterKey(key);
  if (!k || k.name !== selector.name) return false;
  if (selector.component && selector.component !== k.component) return false;
  return Object.entries(selector.labels).every(([l, v]) => k.labels[l] === v);
}

/** The sum of the counters a selector names, or undefined when none of them is there. */
export function selectedTotal(selector: CounterName, counters: Record<string, number>): number | undefined {
  let total: number | undefined;
  for (const [key, v] of Object.entries(counters)) if (selects(selector, key)) total = (total ?? 0) + v;
  return total;
}

/**
 * A counter of time rather than of work: seconds spent (a duration histogram's _sum, a phase's
 * time, MariaDB's Query_time, PostgreSQL's active_time). How long is the machine's speed, which
 * throughput and CPU per operation already judge; a counter of time is kept in the result, not
 * listed among what the server did (a duration histogram's _count, the events, is).
 */
export function isTime(key: string): boolean {
  const name = parseCounterKey(key)?.name ?? key;
  if (/_count$/.test(name)) return false;
  return /seconds|_time(_|$|\.)|[._]time$|duration|latency|millis|nanoseconds|_us$|_ms$|^Query_time$|^Busy_time$|^Cpu_time$/i.test(
    name,
  );
}

/**
 * What a counter counts, for the list of the counters that moved: checked in this order, the
 * first whose pattern matches the counter's name.
 */
export const COUNTER_GROUPS: readonly { group: string; pattern: RegExp }[] = [
  // a counting build's statements executed, one series per source file (targets/tidb/counting.ts)
  { group: "code executed", pattern: /^go_statements_total$|^go_stmts_per_op$/ },
  { group: "allocations", pattern: /alloc|malloc|frees|memstats|heap/i },
  { group: "GC", pattern: /(^|_)gc(_|$)|pauses/i },
  { group: "goroutine scheduling", pattern: /go_sched|goroutine/i },
  { group: "plan cache", pattern: /plan_cache|binding_cache|^Qcache/i },
  { group: "handler reads", pattern: /^Handler_/ },
  { group: "sorts", pattern: /sort/i },
  { group: "temporary tables", pattern: /tmp|temp_/i },
  {
    group: "statements",
    pattern:
      /statement|query_total|server_handle_query|compile|parse_dur|execute_dur|^Com_|^Questions$|^Queries$|\.calls$|xact_|transaction|^Select_/i,
  },
  { group: "coprocessor and KV requests", pattern: /cop|distsql|tikvclient|tikv_|kv_|rpc|raft|grpc|region/i },
  { group: "rows and keys", pattern: /rows|keys|tup_|seq_scan|idx_scan|idx_tup|_scan/i },
  {
    group: "storage reads and writes",
    pattern: /buffer_pool|blks|^Innodb_|^Aria_|^Key_(read|write)|badger|rocksdb|bytes_read|bytes_written/i,
  },
  { group: "network", pattern: /network|packet|^Bytes_|bytes_sent|received/i },
  { group: "CPU", pattern: /cpu_seconds/i },
];

/** The group a counter key falls in ("other" when none matches). */
export function counterGroup(key: string): string {
  const name = parseCounterKey(key)?.name ?? key;
  return COUNTER_GROUPS.find((g) => g.pattern.test(name))?.group ?? "other";
}
