// What a cell cost the server per operation: counters the servers keep themselves (CPU seconds,
// Go's heap allocations and GC cycles, MariaDB's handler and InnoDB reads, PostgreSQL's tuples
// and buffer hits), read at the start and the end of the measured window and divided by the
// operations the load tool counted in it. Throughput is the machine's speed times the code's cost
// per operation; on a noisy machine only the first factor is noisy, so a cost per operation sees
// changes that throughput's noise hides.
import { parents, procStat, treeOf } from "../proc/process.ts";
import { clockTicks } from "./procfs.ts";
import { type CounterName, isServerCounter, parseSelector, selectedTotal } from "./server-counters.ts";

/** A target's counters at one moment: counter name → running total (never reset while it runs). */
export interface CounterReading {
  /** performance.now() of the reading, ms. */
  at: number;
  counters: Record<string, number>;
}

/**
 * A cost metric: a counter's growth per operation, scaled to a readable unit. Counters of one
 * component of a cluster are named `<counter>.<component>` (cpu_s.tikv); their metrics
 * `<component>_<metric>` (tikv_cpu_ms_per_op).
 */
export interface CostMetric {
  counter: string;
  scale: number;
  unit: string;
  label: string;
  /**
   * A metric of counters read whole from the servers (observe/server-counters.ts): the sum of the series
   * these selectors name (one per kind of server that has it); `counter` is then its display name.
   */
  selects?: readonly string[];
}

/** Every cost metric tiperf knows, by name: the unit and the divisor are in the name. */
export const COST_METRICS: Record<string, CostMetric> = {
  cpu_ms_per_op: { counter: "cpu_s", scale: 1000, unit: "ms/op", label: "CPU ms/op" },
  alloc_kb_per_op: { counter: "alloc_bytes", scale: 1 / 1024, unit: "KiB/op", label: "alloc KiB/op" },
  mallocs_per_op: { counter: "mallocs", scale: 1, unit: "1/op", label: "mallocs/op" },
  gc_per_kop: { counter: "gc_cycles", scale: 1000, unit: "1/kop", label: "GC/1k ops" },
  handler_reads_per_op: { counter: "handler_reads", scale: 1, unit: "1/op", label: "handler reads/op" },
  bp_reads_per_op: {
    counter: "innodb_buffer_pool_read_requests",
    scale: 1,
    unit: "1/op",
    label: "buffer pool reads/op",
  },
  tup_returned_per_op: { counter: "tup_returned", scale: 1, unit: "1/op", label: "tuples returned/op" },
  tup_fetched_per_op: { counter: "tup_fetched", scale: 1, unit: "1/op", label: "tuples fetched/op" },
  blks_hit_per_op: { counter: "blks_hit", scale: 1, unit: "1/op", label: "blocks hit/op" },
  // short names of server counters, one selector per kind of server that keeps one
  statements_per_op: {
    counter: "statements",
    selects: ["tidb:tidb_executor_statement_total", "mariadb:Questions", "postgres:pg_stat_statements.calls"],
    scale: 1,
    unit: "1/op",
    label: "statements/op",
  },
  // a counting build's Go statements executed (targets/tidb/counting.ts), summed over its files
  go_stmts_per_op: {
    counter: "go_statements",
    selects: ["tidb:go_statements_total"],
    scale: 1,
    unit: "1/op",
    label: "Go statements/op",
  },
  cop_requests_per_op: {
    counter: "cop_requests",
    selects: ['tidb:tidb_distsql_handle_query_duration_seconds_count{sql_type="general"}'],
    scale: 1,
    unit: "1/op",
    label: "coprocessor requests/op",
  },
  plan_cache_misses_per_op: {
    counter: "plan_cache_misses",
    selects: ["tidb:tidb_server_plan_cache_miss_total"],
    scale: 1,
    unit: "1/op",
    label: "plan cache misses/op",
  },
  tiny_allocs_per_op: {
    counter: "tiny_allocs",
    selects: ["tidb:go_gc_heap_tiny_allocs_objects_total"],
    scale: 1,
    unit: "1/op",
    label: "tiny allocs/op",
  },
  sched_events_per_op: {
    counter: "sched_events",
    selects: ["tidb:go_sched_latencies_seconds_count"],
    scale: 1,
    unit: "1/op",
    label: "goroutine schedulings/op",
  },
  rows_read_per_op: {
    counter: "rows_read",
    selects: ["mariadb:Rows_read"],
    scale: 1,
    unit: "1/op",
    label: "rows read/op",
  },
  tmp_tables_per_op: {
    counter: "tmp_tables",
    selects: ["mariadb:Created_tmp_tables"],
    scale: 1,
    unit: "1/op",
    label: "temporary tables/op",
  },
};

/** The suffix that makes a server counter a metric of a spec: `go_memstats_mallocs_total/op`. */
export const PER_OP = "/op";

/**
 * The longest a reading of a server's counters may take: a stopped or stalled server gives none
 * (the cell then has no cost) rather than holding up the watchdog that ends its cell.
 */
export const COUNTERS_TIMEOUT_MS = 5000;

/** Seconds the idle servers' counters are read over after each start and data load (Bench.measureIdle). */
export const IDLE_WINDOW_S = 2;

/**
 * The idle window where a counting build's statements are read (targets/tidb/counting.ts): an
 * idle tidb-server executes ~637,000 Go statements a second of its own, in bursts (internal SQL
 * for statistics, TTL and the like: the parser and planner), ~1.7% of a point_select transaction;
 * over 2 s its rate moved by about 1% of a transaction from one start to the next.
 */
export const CODE_IDLE_WINDOW_S = 10;

/** The idle window for these counters: longer where a counting build's statements are among them. */
export function idleWindowOf(counters: Record<string, number>): number {
  return Object.keys(counters).some((k) => k.includes(":go_statements_total{"))
    ? CODE_IDLE_WINDOW_S
    : IDLE_WINDOW_S;
}

/** The components of a TiDB cluster whose CPU is counted apart (work moving between them shows). */
export const COMPONENTS = ["tidb", "tikv", "pd"] as const;

/**
 * A cost metric by name: the named ones, component ones (tikv_cpu_ms_per_op), and any server
 * counter per operation (`tidb_executor_statement_total{type="Select"}/op`, observe/server-counters.ts
 * parseSelector); undefined when unknown.
 */
export function costMetric(name: string): (CostMetric & { component?: string }) | undefined {
  const own = COST_METRICS[name];
  if (own) return own;
  if (name.endsWith(PER_OP)) {
    const selector = name.slice(0, -PER_OP.length);
    if (!parseSelector(selector)) return undefined;
    return { counter: selector, selects: [selector], scale: 1, unit: "1/op", label: `${selector} /op` };
  }
  for (const c of COMPONENTS) {
    const base = name.startsWith(`${c}_`) ? COST_METRICS[name.slice(c.length + 1)] : undefined;
    if (base) return { ...base, counter: `${base.counter}.${c}`, label: `${c} ${base.label}`, component: c };
  }
  return undefined;
}

/** The metric a counter gives, by the counter's name (cpu_s.tikv → tikv_cpu_ms_per_op). */
function metricOfCounter(counter: string): string | undefined {
  const [base, component] = counter.split(".");
  const name = Object.entries(COST_METRICS).find(([, m]) => m.counter === base && !m.selects)?.[0];
  if (!name) return undefined;
  return component ? `${component}_${name}` : name;
}

/** What the cell records of its cost: the window, the operations, each counter's growth. */
export interface CostRecord {
  /** Seconds between the two readings. */
  window_s: number;
  /** Operations the load tool counted in the measured window (its throughput × the duration). */
  ops: number;
  /**
   * Each counter's growth over the window, before the idle share was taken off; a server counter
   * read whole (observe/server-counters.ts) only where it grew.
   */
  counters: Record<string, number>;
  /** The idle server's growth per second of each counter, taken off (× window_s) before dividing. */
  idle_per_s?: Record<string, number>;
  /** What one reading of the counters itself adds to each (Background.per_reading), taken off once. */
  reading_cost?: Record<string, number>;
}

/**
 * What grows a server's counters besides the operations: its background work per second, and the
 * reading of its counters itself (a tidb-server's /metrics answer allocates ~31,000 objects, more
 * than its whole background does in a second; SHOW GLOBAL STATUS is a statement). A window between
 * two readings holds one reading's cost (the end of one answer and the start of the next).
 */
export interface Background {
  per_s: Record<string, number>;
  per_reading: Record<string, number>;
}

/**
 * One cost metric of a window from the counters' growth: (growth − background × window − one
 * reading's cost) / ops, scaled; undefined where the metric is unknown or its counter was not read.
 * A selector's series that did not grow count 0.
 */
export function netCost(
  name: string,
  counters: Record<string, number>,
  window: number,
  ops: number,
  background?: Partial<Background>,
): number | undefined {
  const info = costMetric(name);
  if (!info || !(ops > 0)) return undefined;
  const perS = background?.per_s ?? {};
  const perReading = background?.per_reading ?? {};
  const selectors = (info.selects ?? []).map(parseSelector).filter((s): s is CounterName => !!s);
  const total = (of: Record<string, number>) =>
    selectors.length ? selectors.reduce((n, s) => n + (selectedTotal(s, of) ?? 0), 0) : of[info.counter];
  const grown = total(counters);
  if (grown === undefined) return undefined;
  const net = grown - (total(perS) ?? 0) * window - (total(perReading) ?? 0);
  return (Math.max(0, net) / ops) * info.scale;
}

/**
 * The cost metrics of one window: (after − before − idle × window) / ops, scaled; counters that
 * went down (a server restarted between the readings, or a level that is no counter) give none.
 * `wanted`: metrics of server counters (statements_per_op, `<selector>/op`) to compute besides
 * the named ones.
 */
export function costOf(
  before: CounterReading,
  after: CounterReading,
  ops: number,
  background?: Background,
  wanted: readonly string[] = [],
): { metrics: Record<string, number>; record: CostRecord } {
  const window = (after.at - before.at) / 1000;
  const counters: Record<string, number> = {};
  const metrics: Record<string, number> = {};
  const components = new Set(Object.keys(before.counters).filter(isServerCounter).map(componentOf));
  for (const [name, end] of Object.entries(after.counters)) {
    if (isServerCounter(name)) {
      // a labelled series is created on its first event: absent before, it counted from zero
      const start = before.counters[name] ?? (components.has(componentOf(name)) ? 0 : undefined);
      if (start !== undefined && end > start) counters[name] = end - start;
      continue;
    }
    const start = before.counters[name];
    if (start === undefined || end < start) continue;
    counters[name] = end - start;
    const metric = metricOfCounter(name);
    const value = metric ? netCost(metric, counters, window, ops, background) : undefined;
    if (metric && value !== undefined) metrics[metric] = value;
  }
  if (ops > 0)
    for (const name of wanted) {
      const info = costMetric(name);
      const selectors = (info?.selects ?? []).map(parseSelector).filter((s): s is CounterName => !!s);
      if (!info || !selectors.length) continue;
      // a series that did not grow counts 0, and so does one never created (a labelled series
      // appears on its first event) where the component's counters were read at all
      const read = selectors.some(
        (s) =>
          selectedTotal(s, after.counters) !== undefined ||
          (s.component !== "" && components.has(s.component)),
      );
      if (!read) continue;
      const value = netCost(name, counters, window, ops, background);
      if (value !== undefined) metrics[name] = value;
    }
  return {
    metrics,
    record: {
      window_s: Math.round(window * 1000) / 1000,
      ops: Math.round(ops * 1000) / 1000,
      counters,
      ...(background && Object.keys(background.per_s).length ? { idle_per_s: background.per_s } : {}),
      ...(background && Object.keys(background.per_reading).length
        ? { reading_cost: background.per_reading }
        : {}),
    },
  };
}

const componentOf = (key: string) => key.slice(0, key.indexOf(":"));

/**
 * An idle server's background (Background), from three readings: two back to back (their gap is
 * one reading's cost and a moment of background) and one IDLE_WINDOW_S later. Per counter:
 * per second b = (d12 − d01) / (t12 − t01), per reading d01 − b·t01, neither below 0. Only
 * counters that grew are kept for a server's counters read whole (hundreds stay still).
 */
export function idleRates(first: CounterReading, next: CounterReading, last: CounterReading): Background {
  const t01 = (next.at - first.at) / 1000;
  const t12 = (last.at - next.at) / 1000;
  const out: Background = { per_s: {}, per_reading: {} };
  if (!(t12 > t01) || t01 < 0) return out;
  for (const [name, end] of Object.entries(last.counters)) {
    const a = first.counters[name];
    const b = next.counters[name] ?? a;
    if (a === undefined || b === undefined || b < a || end < b) continue;
    const d01 = b - a;
    const d12 = end - b;
    const perS = Math.max(0, (d12 - d01) / (t12 - t01));
    const perReading = Math.max(0, d01 - perS * t01);
    if (perS > 0 || !isServerCounter(name)) out.per_s[name] = perS;
    if (perReading > 0) out.per_reading[name] = perReading;
  }
  return out;
}

/**
 * CPU seconds of processes and all their descendants, the exited ones included: a process's own
 * user + system time plus what its reaped children used (cutime + cstime), so a PostgreSQL backend
 * that ends during the window still counts, in its postmaster.
 */
export function treeCpuSeconds(roots: number[]): number | undefined {
  if (!roots.length) return undefined;
  let ticks = 0;
  let seen = 0;
  for (const pid of treeOf(roots, parents())) {
    const f = procStat(pid);
    // gone between the listing and the read: its time is in its parent's cutime
    if (!f) continue;
    ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    seen++;
  }
  return seen ? ticks / clockTicks() : undefined;
}

/**
 * Totals of Prometheus text exposition (a status port's /metrics): each wanted metric summed over
 * its series (labels); metrics absent from the text are left out.
 */
export function promTotals(text: string, wanted: readonly string[]): Record<string, number> {
  const want = new Set(wanted);
  const out: Record<string, number> = {};
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!m || !want.has(m[1] as string)) continue;
    const v = Number(m[3]);
    if (Number.isFinite(v)) out[m[1] as string] = (out[m[1] as string] ?? 0) + v;
  }
  return out;
}

/** A Go server's counters from its /metrics (tidb-server, pd-server; TiKV exports only the CPU). */
export function goServerCounters(text: string): Record<string, number> {
  const t = promTotals(text, [
    "process_cpu_seconds_total",
    "go_memstats_alloc_bytes_total",
    "go_memstats_mallocs_total",
    "go_gc_duration_seconds_count",
  ]);
  const out: Record<string, number> = {};
  if (t.process_cpu_seconds_total !== undefined) out.cpu_s = t.process_cpu_seconds_total;
  if (t.go_memstats_alloc_bytes_total !== undefined) out.alloc_bytes = t.go_memstats_alloc_bytes_total;
  if (t.go_memstats_mallocs_total !== undefined) out.mallocs = t.go_memstats_mallocs_total;
  if (t.go_gc_duration_seconds_count !== undefined) out.gc_cycles = t.go_gc_duration_seconds_count;
  return out;
}
