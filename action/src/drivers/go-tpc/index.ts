import { cpus } from "node:os";
import { z } from "zod";
import { findTool } from "../../proc/env.ts";
import type { Connection } from "../../targets/types.ts";
import { durationSchema, forwardIssues } from "../../yaml/keys.ts";
import type {
  Driver,
  Measured,
  MetricInfo,
  Scalar,
  Step,
  StepContext,
  ToolCommand,
  Workload,
} from "../types.ts";
import { type GoTpcOperation, goTpcFailure, parseTpcc, parseTpch, type TpccReport } from "./parse.ts";

/**
 * go-tpc: TPC-C (`go-tpc: tpcc`, tpmC) and TPC-H (`go-tpc: tpch`, seconds per query). Traps its
 * source shows: it exits 0 when every worker failed and panics (exit 2) when nothing listens, so
 * the text decides; its percentiles are coarse histogram buckets (Sum/Count gives the mean).
 */

/** TPC-C transaction types, in go-tpc's order. */
export const TPCC_TRANSACTIONS = ["NEW_ORDER", "PAYMENT", "ORDER_STATUS", "DELIVERY", "STOCK_LEVEL"] as const;
const ALL_QUERIES = Array.from({ length: 22 }, (_, i) => `q${i + 1}`);

const TpccOptions = z.strictObject({
  warehouses: z.number().int().min(1).default(1),
  /** Seconds between go-tpc's [Current] reports: the interval samples. */
  interval: durationSchema(1).default(2),
  /** Let prepare run go-tpc's consistency check of the loaded data (slow: off by default). */
  check: z.boolean().default(false),
  isolation: z.number().int().min(0).max(7).optional(),
  wait: z.boolean().optional(),
  weight: z
    .string()
    .regex(/^\d+(,\d+){4}$/, "five weights like 45,43,4,4,4")
    .optional(),
  parts: z.number().int().min(1).optional(),
  "partition-type": z.number().int().min(1).max(4).optional(),
  "conn-params": z.string().optional(),
});

const TpchOptions = z.strictObject({
  /** Scale factor: go-tpc takes a whole number ≥ 1. */
  sf: z.number().int().min(1).default(1),
  queries: z
    .string()
    .regex(/^q\d+(,q\d+)*$/, "a comma-separated list like q1,q3,q6")
    .refine((q) => q.split(",").every((x) => ALL_QUERIES.includes(x)), "queries are q1 … q22")
    .default(ALL_QUERIES.join(",")),
  /** Times each query runs in a cell. */
  count: z.number().int().min(1).default(1),
  "conn-params": z.string().optional(),
});

const Keys = z
  .strictObject({
    "go-tpc": z.enum(["tpcc", "tpch"], { error: "must be tpcc or tpch" }),
    options: z.record(z.string(), z.unknown()).default({}),
  })
  .transform((k, ctx) => {
    const schema = k["go-tpc"] === "tpcc" ? TpccOptions : TpchOptions;
    const parsed = schema.safeParse(k.options);
    if (!parsed.success) {
      const allowed = Object.keys(schema.shape).join(", ");
      forwardIssues(
        ctx,
        parsed.error.issues,
        ["options"],
        (key) =>
          `unknown go-tpc ${k["go-tpc"]} option ${key} (allowed: ${allowed}; threads, duration and connections are set by tiperf)`,
      );
      return z.NEVER;
    }
    const options = Object.fromEntries(
      Object.entries(parsed.data).filter(([, v]) => v !== undefined),
    ) as Record<string, Scalar>;
    return { script: k["go-tpc"], options };
  });

/** -d, -H, -P, -U, -p, -D: go-tpc spreads its threads over every host:port given. */
export function connectionArgs(c: Connection, database: string): string[] {
  return [
    "-d",
    c.protocol === "mysql" ? "mysql" : "postgres",
    "-H",
    c.endpoints.map((e) => e.host).join(","),
    "-P",
    c.endpoints.map((e) => e.port).join(","),
    "-U",
    c.user,
    ...(c.password ? ["-p", c.password] : []),
    "-D",
    c.database ?? database,
    // go-sql-driver/mysql's DSN parameter; go-tpc appends --conn-params to its DSN
    ...(c.tls && c.protocol === "mysql" ? ["--conn-params", "tls=true"] : []),
  ];
}

const opt = (w: Workload, k: string) => w.options[k];
const passThrough = (w: Workload, keys: string[]) =>
  keys.flatMap((k) => {
    const v = opt(w, k);
    if (v === undefined) return [];
    return typeof v === "boolean" ? (v ? [`--${k}`] : []) : [`--${k}`, String(v)];
  });

const lower = (op: string) => op.toLowerCase();

function tpccMetrics(): Record<string, MetricInfo> {
  const m: Record<string, MetricInfo> = {
    tpmc: { unit: "1/min", better: "higher", label: "tpmC" },
    tpm_total: { unit: "1/min", better: "higher", label: "tpmTotal" },
    efficiency: { unit: "%", better: "higher", label: "efficiency %" },
    errors: { unit: "count", better: "lower", label: "errors" },
  };
  for (const op of TPCC_TRANSACTIONS) {
    const o = lower(op);
    m[`${o}_tpm`] = { unit: "1/min", better: "higher", label: `${op} TPM` };
    m[`${o}_avg_ms`] = { unit: "ms", better: "lower", label: `${op} avg` };
    m[`${o}_p95_ms`] = { unit: "ms", better: "lower", label: `${op} p95` };
    m[`${o}_p99_ms`] = { unit: "ms", better: "lower", label: `${op} p99` };
  }
  return m;
}

const queriesOf = (w: Workload) => String(opt(w, "queries") ?? ALL_QUERIES.join(",")).split(",");

function tpchMetrics(w: Workload): Record<string, MetricInfo> {
  const m: Record<string, MetricInfo> = {};
  for (const q of queriesOf(w)) m[`${q}_s`] = { unit: "s", better: "lower", label: q.toUpperCase() };
  m.geomean_s = { unit: "s", better: "lower", label: "geomean" };
  return m;
}

/** The values of one [Summary] or [Current] group, named like the metrics. */
function tpccValues(ops: Record<string, GoTpcOperation>): Record<string, number> {
  const v: Record<string, number> = {};
  let total = 0;
  for (const [op, row] of Object.entries(ops)) {
    const o = lower(op);
    v[`${o}_tpm`] = row.tpm;
    v[`${o}_avg_ms`] = row.avg_ms;
    v[`${o}_p95_ms`] = row.p95_ms;
    v[`${o}_p99_ms`] = row.p99_ms;
    total += row.tpm;
  }
  if (ops.NEW_ORDER) v.tpmc = ops.NEW_ORDER.tpm;
  v.tpm_total = total;
  return v;
}

const fields = (op: GoTpcOperation): Record<string, number> => ({ ...op });

/** tpcc: the steady [Current] reports after the warmup, or go-tpc's [Summary] without one. */
export function measureTpcc(
  w: Workload,
  report: TpccReport,
  req: { seconds: number; grace_s: number },
): Measured {
  const problems: string[] = [];
  if (report.worker_errors.length > 0)
    problems.push(
      `${report.worker_errors.length} worker(s) stopped early, so fewer threads ran than asked: ${report.worker_errors[0]}`,
    );
  const longest = Math.max(...Object.values(report.operations).map((o) => o.takes_s));
  if (longest > req.seconds + req.grace_s)
    problems.push(
      `go-tpc ran ${longest}s for a ${req.seconds}s cell (allowed: ${req.seconds}s + ${req.grace_s}s grace)`,
    );
  if (problems.length > 0) throw new Error(`not the measurement asked for: ${problems.join("; ")}`);
  const interval = Number(opt(w, "interval") ?? 10);
  const groups = new Map<number, Record<string, GoTpcOperation>>();
  for (const iv of report.intervals) {
    if (iv.operation.endsWith("_ERR")) continue;
    const g = groups.get(iv.n) ?? {};
    g[iv.operation] = iv;
    groups.set(iv.n, g);
  }
  const intervals = [...groups].map(([n, ops]) => ({
    t: n * interval,
    warmup: false,
    values: tpccValues(ops),
  }));
  const errors = Object.fromEntries(Object.entries(report.errors).map(([k, v]) => [k, fields(v)]));
  const errorCount = Object.values(report.errors).reduce((s, e) => s + e.count, 0);
  const { intervals: _i, operations, errors: _e, ...rest } = report;
  const base = {
    intervals,
    summary: { ...rest },
    operations: Object.fromEntries(Object.entries(operations).map(([k, v]) => [k, fields(v)])),
    ...(Object.keys(errors).length ? { errors } : {}),
  };
  // the warmup ran as its own invocation: go-tpc's [Summary] covers the measured window only
  return {
    ...base,
    metrics: {
      ...tpccValues(operations),
      tpmc: report.tpmc,
      tpm_total: report.tpm_total,
      efficiency: report.efficiency,
      errors: errorCount,
    },
    source: "summary",
  };
}

export function measureTpch(w: Workload, text: string): Measured {
  const { queries } = parseTpch(text);
  const wanted = queriesOf(w);
  const missing = wanted.filter((q) => queries[q.toUpperCase()] === undefined);
  if (missing.length > 0)
    throw new Error(
      `not the measurement asked for: go-tpc printed no time for ${missing.map((q) => q.toUpperCase()).join(", ")}`,
    );
  const metrics: Record<string, number> = {};
  for (const q of wanted) metrics[`${q}_s`] = queries[q.toUpperCase()] as number;
  const times = wanted.map((q) => metrics[`${q}_s`] as number).filter((x) => x > 0);
  if (times.length > 0)
    metrics.geomean_s = Math.exp(times.reduce((sum, t) => sum + Math.log(t), 0) / times.length);
  return { metrics, intervals: [], summary: { queries }, source: "summary" };
}

/** Whether go-tpc's output reached its result lines (then failures in it are per-transaction errors). */
const hasResult = (text: string) => /^tpmC: |"tpmC"|^\[Summary\] Q\d+:/m.test(text);

/** `go-tpc tpcc run` for `seconds` (the warmup, or the measured window). */
function tpccRun(ctx: StepContext, phase: "warmup" | "run", seconds: number): Step {
  const w = ctx.workload;
  return {
    phase,
    args: [
      ...connectionArgs(ctx.connection, w.script),
      "--warehouses",
      String(opt(w, "warehouses")),
      "-T",
      String(ctx.threads),
      "--time",
      `${seconds}s`,
      "--interval",
      `${opt(w, "interval")}s`,
      ...passThrough(w, ["isolation", "wait", "weight", "parts", "partition-type", "conn-params"]),
      "run",
    ],
  };
}

export const goTpc: Driver = {
  name: "go-tpc",
  install: "go-tpc (github.com/pingcap/go-tpc) on PATH, or tiup with its bench component",
  keys: Keys,
  keyNames: ["go-tpc", "options"],
  namedTool: (script) => ({ command: "go-tpc", prefix: [script] }),
  findTool(script): ToolCommand | undefined {
    const own = findTool("go-tpc");
    if (own) return { command: own, prefix: [script] };
    const tiup = findTool("tiup");
    return tiup ? { command: tiup, prefix: ["bench", script] } : undefined;
  },
  metrics: (w) => (w.script === "tpcc" ? tpccMetrics() : tpchMetrics(w)),
  defaultMetric: (w) => (w.script === "tpcc" ? "tpmc" : "geomean_s"),
  operations: (w) =>
    w.script === "tpcc" ? { metric: "tpm_total", perSecond: 1 / 60, noun: "transaction" } : undefined,
  dataKey: (w) =>
    w.script === "tpcc" ? `go-tpc:tpcc:w${opt(w, "warehouses")}` : `go-tpc:tpch:sf${opt(w, "sf")}`,
  database: (w) => w.script,
  // the tables of go-tpc's tpcc/ddl.go and tpch/ddl.go
  tables: (w) =>
    w.script === "tpcc"
      ? ["warehouse", "district", "customer", "history", "new_order", "orders", "order_line", "stock", "item"]
      : ["nation", "region", "part", "supplier", "partsupp", "customer", "orders", "lineitem"],
  setup(ctx): Step[] {
    const w = ctx.workload;
    const conn = connectionArgs(ctx.connection, w.script);
    if (w.script === "tpch") {
      const sf = Number(opt(w, "sf"));
      return [
        {
          phase: "prepare",
          args: [
            ...conn,
            "--sf",
            String(sf),
            "-T",
            String(Math.min(4, ctx.cores ?? cpus().length)),
            "prepare",
          ],
          limitS: 600 + 1200 * sf,
          about: `scale factor ${sf}`,
        },
      ];
    }
    const wh = Number(opt(w, "warehouses"));
    const threads = String(Math.max(1, Math.min(wh, ctx.cores ?? cpus().length)));
    // go-tpc loads about a warehouse in 2 minutes on a small machine; a cluster can be slower.
    const limitS = 600 + 300 * wh;
    const steps: Step[] = [
      {
        phase: "prepare",
        args: [...conn, "--warehouses", String(wh), "-T", threads, "prepare"],
        limitS,
        about: `${wh} warehouse(s)`,
      },
    ];
    if (opt(w, "check") === true)
      steps.push({
        phase: "check",
        args: [...conn, "--warehouses", String(wh), "-T", threads, "check"],
        limitS,
        about: `${wh} warehouse(s)`,
      });
    return steps;
  },
  run(ctx): Step {
    const w = ctx.workload;
    const conn = connectionArgs(ctx.connection, w.script);
    if (w.script === "tpch") {
      return {
        phase: "run",
        args: [
          ...conn,
          "--sf",
          String(opt(w, "sf")),
          "--queries",
          queriesOf(w).join(","),
          "--count",
          String(opt(w, "count")),
          "-T",
          String(ctx.threads),
          ...passThrough(w, ["conn-params"]),
          "run",
        ],
      };
    }
    return tpccRun(ctx, "run", w.duration);
  },
  // go-tpc has no warmup of its own: TPC-C warms up in its own run, so [Summary] is the steady window's
  warmup: (ctx) =>
    ctx.workload.script === "tpcc" && ctx.workload.warmup > 0
      ? tpccRun(ctx, "warmup", ctx.workload.warmup)
      : undefined,
  cleanup(ctx): Step[] {
    const w = ctx.workload;
    const size =
      w.script === "tpcc" ? ["--warehouses", String(opt(w, "warehouses"))] : ["--sf", String(opt(w, "sf"))];
    return [
      {
        phase: "cleanup",
        args: [...connectionArgs(ctx.connection, w.script), ...size, "cleanup"],
        limitS: 300,
      },
    ];
  },
  failure: (output) => (hasResult(output) ? undefined : goTpcFailure(output)),
  measure(w, output, req) {
    return w.script === "tpcc" ? measureTpcc(w, parseTpcc(output), req) : measureTpch(w, output);
  },
  // tpch prints "[Summary] Q1: 7.62s" lines, tpcc a "tpmC: …" total
  parse: (text) => (/^\[Summary\] Q\d+:/m.test(text) ? parseTpch(text) : parseTpcc(text)),
  report: (w) =>
    w.script === "tpcc"
      ? { rows: "threads", columns: ["tpmc", "tpm_total", "new_order_p95_ms", "new_order_p99_ms", "errors"] }
      : { rows: "metrics", columns: [...queriesOf(w).map((q) => `${q}_s`), "geomean_s"] },
};
