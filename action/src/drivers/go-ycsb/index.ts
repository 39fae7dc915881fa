import { existsSync } from "node:fs";
import { z } from "zod";
import { InputError } from "../../errors.ts";
import { findTool } from "../../proc/env.ts";
import type { Connection } from "../../targets/types.ts";
import type { Driver, Measured, MetricInfo, Scalar, Step, ToolCommand, Workload } from "../types.ts";
import { parseYcsb, type YcsbOperation, type YcsbReport, ycsbFailure } from "./parse.ts";

/**
 * go-ycsb: `load` then `run` of a YCSB core workload (a–f) or a properties file. It has no time
 * limit (a run ends after `operationcount` operations), so a cell gives it an operation count it
 * cannot reach and ends it with SIGINT after warmup + duration; go-ycsb then prints its final
 * report. Its own `warmuptime` keeps the warmup out of that report.
 */

/** YCSB's core workloads, as the workload files shipped with YCSB and go-ycsb define them. */
export const CORE_WORKLOADS: Record<string, Record<string, string>> = {
  workloada: {
    readproportion: "0.5",
    updateproportion: "0.5",
    scanproportion: "0",
    insertproportion: "0",
    requestdistribution: "uniform",
  },
  workloadb: {
    readproportion: "0.95",
    updateproportion: "0.05",
    scanproportion: "0",
    insertproportion: "0",
    requestdistribution: "uniform",
  },
  workloadc: {
    readproportion: "1",
    updateproportion: "0",
    scanproportion: "0",
    insertproportion: "0",
    requestdistribution: "uniform",
  },
  workloadd: {
    readproportion: "0.95",
    updateproportion: "0",
    scanproportion: "0",
    insertproportion: "0.05",
    requestdistribution: "latest",
  },
  workloade: {
    readproportion: "0",
    updateproportion: "0",
    scanproportion: "0.95",
    insertproportion: "0.05",
    requestdistribution: "uniform",
    maxscanlength: "1",
    scanlengthdistribution: "uniform",
  },
  workloadf: {
    readproportion: "0.5",
    updateproportion: "0",
    scanproportion: "0",
    insertproportion: "0",
    readmodifywriteproportion: "0.5",
    requestdistribution: "uniform",
  },
};

/** Operations a core workload can issue, as go-ycsb names them. */
export const OPERATIONS = ["READ", "UPDATE", "INSERT", "SCAN", "READ_MODIFY_WRITE"] as const;

/** Properties tiperf sets itself: connection, threads, counts, timing and output. */
const RESERVED =
  /^(mysql\.|pg\.|tidb\.instances$|threadcount$|operationcount$|measurement\.interval$|warmuptime$|outputstyle$|dotransactions$|command$|workload$)/;

const Keys = z
  .strictObject({
    "go-ycsb": z
      .string()
      .refine(
        (s) => s in CORE_WORKLOADS || ((s.includes("/") || s.endsWith(".properties")) && existsSync(s)),
        {
          error: (iss) =>
            `must be a core workload (${Object.keys(CORE_WORKLOADS).join(", ")}) or an existing properties file (got ${JSON.stringify(iss.input)})`,
        },
      ),
    options: z
      .record(
        z
          .string()
          .regex(
            /^[a-z][a-zA-Z0-9_.]*$/,
            "option names are go-ycsb properties (-p name=value), like recordcount",
          )
          .refine((k) => !RESERVED.test(k), {
            error: (iss) =>
              `${String(iss.input)} is set by tiperf (threads, duration, warmup and the target's connection decide it)`,
          }),
        z.union([z.string(), z.number(), z.boolean()]),
      )
      .default({}),
  })
  .transform((k, ctx) => {
    const recordcount = k.options.recordcount ?? 10000;
    if (typeof recordcount !== "number" || !Number.isInteger(recordcount) || recordcount < 1) {
      ctx.addIssue({
        code: "custom",
        path: ["options", "recordcount"],
        message: "must be a whole number ≥ 1",
      });
      return z.NEVER;
    }
    const interval = k.options.interval ?? 2;
    if (typeof interval !== "number" || !Number.isInteger(interval) || interval < 1) {
      ctx.addIssue({
        code: "custom",
        path: ["options", "interval"],
        message: "seconds between periodic reports, a whole number ≥ 1",
      });
      return z.NEVER;
    }
    return {
      script: k["go-ycsb"],
      options: { ...k.options, recordcount, interval } as Record<string, Scalar>,
    };
  });

/** `-p` properties for the target: one server by host and port, several as tidb.instances. */
export function connectionProps(c: Connection, database: string): string[] {
  const [first, ...more] = c.endpoints;
  if (!first) throw new Error("the target has no endpoint");
  const p = c.protocol === "mysql" ? "mysql" : "pg";
  const props =
    c.protocol === "mysql" && more.length > 0
      ? [`tidb.instances=${c.endpoints.map((e) => `${e.host}:${e.port}`).join(",")}`]
      : [`${p}.host=${first.host}`, `${p}.port=${first.port}`];
  if (c.tls && c.protocol === "mysql")
    throw new InputError(
      "go-ycsb: tiperf passes no TLS setting to go-ycsb's MySQL driver; an endpoint with tls: true takes sysbench or go-tpc workloads",
    );
  props.push(`${p}.user=${c.user}`, `${p}.db=${c.database ?? database}`);
  if (c.password) props.push(`${p}.password=${c.password}`);
  if (c.protocol === "postgres") props.push(`pg.sslmode=${c.tls ? "require" : "disable"}`);
  return props.flatMap((x) => ["-p", x]);
}

const dbName = (c: Connection) => (c.protocol === "mysql" ? "mysql" : "pg");

function workloadArgs(w: Workload): string[] {
  const file = CORE_WORKLOADS[w.script];
  const base = file
    ? [
        "-p",
        "workload=core",
        "-p",
        "readallfields=true",
        ...Object.entries(file).flatMap(([k, v]) => ["-p", `${k}=${v}`]),
      ]
    : ["-P", w.script];
  const own = Object.entries(w.options)
    .filter(([k]) => k !== "interval")
    .flatMap(([k, v]) => ["-p", `${k}=${v}`]);
  return [...base, ...own];
}

/** Operations this workload issues (the non-zero proportions of a core workload). */
function operationsOf(w: Workload): string[] {
  const props = {
    ...(CORE_WORKLOADS[w.script] ?? {}),
    ...Object.fromEntries(Object.entries(w.options).map(([k, v]) => [k, String(v)])),
  };
  const ops = OPERATIONS.filter(
    (op) => Number(props[`${op.toLowerCase().replace(/_/g, "")}proportion`] ?? 0) > 0,
  );
  return ops.length > 0 ? ops : [...OPERATIONS];
}

function metricsOf(w: Workload): Record<string, MetricInfo> {
  const m: Record<string, MetricInfo> = {
    ops: { unit: "1/s", better: "higher", label: "OPS" },
    avg_us: { unit: "us", better: "lower", label: "avg" },
    p99_us: { unit: "us", better: "lower", label: "p99" },
    errors: { unit: "count", better: "lower", label: "errors" },
  };
  for (const op of operationsOf(w)) {
    const o = op.toLowerCase();
    m[`${o}_ops`] = { unit: "1/s", better: "higher", label: `${op} OPS` };
    m[`${o}_avg_us`] = { unit: "us", better: "lower", label: `${op} avg` };
    m[`${o}_p95_us`] = { unit: "us", better: "lower", label: `${op} p95` };
    m[`${o}_p99_us`] = { unit: "us", better: "lower", label: `${op} p99` };
  }
  return m;
}

const fields = (op: YcsbOperation): Record<string, number> => ({ ...op });

/** The final report as judged values, and per-interval throughput from the cumulative blocks. */
export function measureYcsb(
  w: Workload,
  report: YcsbReport,
  req: { seconds: number; grace_s: number },
): Measured {
  const problems: string[] = [];
  if (report.run_s > req.seconds + req.grace_s)
    problems.push(
      `go-ycsb ran ${report.run_s.toFixed(1)}s for a ${req.seconds}s cell (allowed: ${req.seconds}s + ${req.grace_s}s grace)`,
    );
  if (!report.signal && report.run_s < req.seconds * 0.9)
    problems.push(
      `go-ycsb finished after ${report.run_s.toFixed(1)}s, before the ${req.seconds}s the cell asked for`,
    );
  if (problems.length > 0) throw new Error(`not the measurement asked for: ${problems.join("; ")}`);
  const total = report.operations.TOTAL as YcsbOperation;
  const metrics: Record<string, number> = {
    ops: total.ops,
    avg_us: total.avg_us,
    p99_us: total.p99_us,
    errors: Object.values(report.errors).reduce((s, e) => s + e.count, 0),
  };
  for (const [op, row] of Object.entries(report.operations)) {
    if (op === "TOTAL") continue;
    const o = op.toLowerCase();
    metrics[`${o}_ops`] = row.ops;
    metrics[`${o}_avg_us`] = row.avg_us;
    metrics[`${o}_p95_us`] = row.p95_us;
    metrics[`${o}_p99_us`] = row.p99_us;
  }
  // Periodic TOTAL rows are cumulative: the throughput of an interval is Δcount / Δseconds.
  const totals = report.intervals.filter((i) => i.operation === "TOTAL");
  const intervals: Measured["intervals"] = [];
  let prev = { takes_s: 0, count: 0 };
  for (const t of totals) {
    const dt = t.takes_s - prev.takes_s;
    if (dt > 0)
      intervals.push({
        t: w.warmup + t.takes_s,
        warmup: false,
        values: { ops: (t.count - prev.count) / dt },
      });
    prev = t;
  }
  const { intervals: _i, operations, errors, ...summary } = report;
  return {
    metrics,
    intervals,
    summary,
    operations: Object.fromEntries(Object.entries(operations).map(([k, v]) => [k, fields(v)])),
    ...(Object.keys(errors).length
      ? { errors: Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, fields(v)])) }
      : {}),
    source: "summary",
  };
}

export const goYcsb: Driver = {
  name: "go-ycsb",
  install: "go-ycsb (github.com/pingcap/go-ycsb) on PATH, or tiup with its bench component",
  keys: Keys,
  keyNames: ["go-ycsb", "options"],
  namedTool: () => ({ command: "go-ycsb", prefix: [] }),
  findTool(): ToolCommand | undefined {
    const own = findTool("go-ycsb");
    if (own) return { command: own, prefix: [] };
    const tiup = findTool("tiup");
    return tiup ? { command: tiup, prefix: ["bench", "ycsb"] } : undefined;
  },
  metrics: metricsOf,
  defaultMetric: () => "ops",
  operations: () => ({ metric: "ops", perSecond: 1, noun: "operation" }),
  dataKey: (w) =>
    `go-ycsb:${w.options.recordcount}:${w.options.fieldcount ?? ""}:${w.options.fieldlength ?? ""}`,
  database: () => "ycsb",
  // go-ycsb's `table` property, usertable by default
  tables: (w) => [String(w.options.table ?? "usertable")],
  setup(ctx): Step[] {
    const w = ctx.workload;
    const n = Number(w.options.recordcount);
    return [
      {
        phase: "load",
        args: [
          "load",
          dbName(ctx.connection),
          ...workloadArgs(w),
          ...connectionProps(ctx.connection, "ycsb"),
          "--threads",
          String(Math.min(4, ctx.threads)),
        ],
        limitS: 120 + Math.ceil(n / 200),
        about: `${n} records`,
      },
    ];
  },
  run(ctx): Step {
    const w = ctx.workload;
    return {
      phase: "run",
      args: [
        "run",
        dbName(ctx.connection),
        ...workloadArgs(w),
        ...connectionProps(ctx.connection, "ycsb"),
        // more operations than any cell can do: SIGINT ends the run at its time
        "-p",
        "operationcount=1000000000000",
        ...(w.warmup > 0 ? ["-p", `warmuptime=${w.warmup}`] : []),
        "--threads",
        String(ctx.threads),
        "--interval",
        String(w.options.interval),
      ],
      stopAfterS: w.warmup + w.duration,
    };
  },
  // go-ycsb has no cleanup command; the data goes with the target's database.
  cleanup: () => [],
  failure: (output) => (/^Run finished, takes /m.test(output) ? undefined : ycsbFailure(output)),
  measure: (w, output, req) => measureYcsb(w, parseYcsb(output), req),
  parse: parseYcsb,
  report: (w) => ({
    rows: "threads",
    columns: ["ops", ...operationsOf(w).map((op) => `${op.toLowerCase()}_p99_us`), "errors"],
  }),
};
