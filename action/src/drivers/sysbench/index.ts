import { cpus } from "node:os";
import { z } from "zod";
import { findTool } from "../../proc/env.ts";
import { runTool } from "../../proc/tool.ts";
import type { Connection } from "../../targets/types.ts";
import {
  type Driver,
  type MetricInfo,
  type SpecData,
  StalledRun,
  type Step,
  type StepContext,
  type Workload,
} from "../types.ts";
import { measuredWindow, measurementProblems, stalledSeconds } from "./measure.ts";
import { parseSysbench } from "./parse.ts";

/** sysbench scripts shipped with sysbench 1.0.x that tiperf knows how to drive. */
export const SYSBENCH_SCRIPTS = [
  "oltp_point_select",
  "oltp_read_only",
  "oltp_read_write",
  "oltp_write_only",
  "oltp_update_index",
  "oltp_update_non_index",
  "oltp_insert",
  "oltp_delete",
  "select_random_points",
  "select_random_ranges",
] as const;

/** sysbench flags tiperf sets itself; a spec may not override them through `options`. */
export const RESERVED_SYSBENCH_OPTIONS = [
  "threads",
  "time",
  "report-interval",
  "tables",
  "table-size",
  "db-driver",
  "percentile",
  "events",
] as const;

const OPTION_NAME = /^[a-z][a-z0-9_-]*$/;
const scalar = z.union([z.string(), z.number(), z.boolean()]);

const Keys = z
  .strictObject({
    sysbench: z.enum(SYSBENCH_SCRIPTS, { error: `must be one of ${SYSBENCH_SCRIPTS.join(", ")}` }),
    /** sysbench reports one latency percentile, --percentile=N. */
    percentile: z.number().int().min(1).max(100).default(95),
    options: z
      .record(
        z
          .string()
          .regex(OPTION_NAME, "option names are sysbench flags without the leading --")
          .refine((k) => !(RESERVED_SYSBENCH_OPTIONS as readonly string[]).includes(k), {
            error: (iss) =>
              `--${String(iss.input)} is set by tiperf (use the workload's threads, duration, percentile or the spec's data)`,
          })
          .refine((k) => !/^(mysql|pgsql)-/.test(k), "connection flags are set by the target"),
        scalar,
      )
      .default({}),
  })
  .transform((k) => ({ script: k.sysbench, options: { ...k.options, percentile: k.percentile } }));

export const DATABASE = "sbtest";

/** --db-driver and connection flags; sysbench takes one server. */
export function connectionArgs(c: Connection): string[] {
  const ep = c.endpoints[0];
  if (!ep) throw new Error("the target has no endpoint");
  const p = c.protocol === "mysql" ? "mysql" : "pgsql";
  return [
    `--db-driver=${p}`,
    `--${p}-host=${ep.host}`,
    `--${p}-port=${ep.port}`,
    `--${p}-user=${c.user}`,
    ...(c.password ? [`--${p}-password=${c.password}`] : []),
    `--${p}-db=${c.database ?? DATABASE}`,
    // sysbench 1.0 has no TLS flag for PostgreSQL (an endpoint refuses tls there)
    ...(c.tls && p === "mysql" ? ["--mysql-ssl=on"] : []),
  ];
}

const dataOf = (ctx: StepContext): SpecData => {
  if (!ctx.data) throw new Error("sysbench workloads need the spec's data (tables, table_size)");
  return ctx.data;
};

function commonArgs(ctx: StepContext): string[] {
  const d = dataOf(ctx);
  return [...connectionArgs(ctx.connection), `--tables=${d.tables}`, `--table-size=${d.table_size}`];
}

const userOptions = (w: Workload) => Object.entries(w.options).filter(([k]) => k !== "percentile");

function optionArgs(w: Workload): string[] {
  return userOptions(w).map(([k, v]) => `--${k}=${typeof v === "boolean" ? (v ? "on" : "off") : v}`);
}

/** Seconds a data step may take: generous, since a remote cluster loads far slower than a local server. */
const dataStepLimitS = (d: SpecData) => 120 + Math.ceil((d.tables * d.table_size) / 1000);

const percentileOf = (w: Workload) => Number(w.options.percentile ?? 95);

/** A `run` of the workload's script for `seconds` (the warmup, or the measured window). */
function runStep(ctx: StepContext, phase: "warmup" | "run", seconds: number): Step {
  const w = ctx.workload;
  return {
    phase,
    args: [
      w.script,
      ...commonArgs(ctx),
      `--threads=${ctx.threads}`,
      `--time=${seconds}`,
      "--report-interval=1",
      `--percentile=${percentileOf(w)}`,
      ...optionArgs(w),
      "run",
    ],
  };
}

export const sysbench: Driver = {
  name: "sysbench",
  install: "the Debian package sysbench",
  keys: Keys,
  keyNames: ["sysbench", "percentile", "options"],
  // By name: the raw log's first line is then the command a user would type.
  namedTool: () => ({ command: "sysbench", prefix: [] }),
  findTool: () => (findTool("sysbench") ? { command: "sysbench", prefix: [] } : undefined),
  async version(tool) {
    const r = await runTool(tool.command, [...tool.prefix, "--version"], {
      logFile: "/dev/null",
      limitS: 20,
    });
    return /sysbench (\S+)/.exec(r.output)?.[1];
  },
  metrics(w): Record<string, MetricInfo> {
    const p = percentileOf(w);
    return {
      tps: { unit: "1/s", better: "higher", label: "TPS" },
      qps: { unit: "1/s", better: "higher", label: "QPS" },
      [`p${p}_ms`]: { unit: "ms", better: "lower", label: `p${p}` },
      errors: { unit: "count", better: "lower", label: "errors" },
    };
  },
  defaultMetric: () => "tps",
  operations: () => ({ metric: "tps", perSecond: 1, noun: "transaction" }),
  check: (w, data) => (data ? [] : [`the sysbench workload ${w.name} needs data: {tables, table_size}`]),
  dataKey: (_w, data) => `sysbench:${data?.tables}x${data?.table_size}`,
  database: () => DATABASE,
  tables: (_w, data) => Array.from({ length: data?.tables ?? 0 }, (_, i) => `sbtest${i + 1}`),
  sizedBySpecData: true,
  setup(ctx): Step[] {
    const d = dataOf(ctx);
    const threads = Math.min(d.tables, ctx.cores ?? cpus().length);
    const about = `${d.tables} tables × ${d.table_size} rows`;
    const limitS = dataStepLimitS(d);
    // A fixed seed makes every variant's server hold byte-identical data.
    const steps: Step[] = [
      {
        phase: "prepare",
        args: ["oltp_common", ...commonArgs(ctx), `--threads=${threads}`, "--rand-seed=1", "prepare"],
        limitS,
        about,
      },
    ];
    // prewarm is MySQL-only in sysbench 1.0 (oltp_common.lua says so and fails for pgsql).
    if (ctx.connection.protocol === "mysql")
      steps.push({
        phase: "prewarm",
        args: ["oltp_common", ...commonArgs(ctx), `--threads=${threads}`, "prewarm"],
        limitS,
        about,
      });
    return steps;
  },
  // sysbench 1.0 has no --warmup-time: the warmup runs as its own invocation, so the measured
  // run's summary (its percentile, its rates, its errors) covers the steady window only
  warmup: (ctx) => (ctx.workload.warmup > 0 ? runStep(ctx, "warmup", ctx.workload.warmup) : undefined),
  run: (ctx) => runStep(ctx, "run", ctx.workload.duration),
  cleanup(ctx): Step[] {
    const d = dataOf(ctx);
    return [
      { phase: "cleanup", args: ["oltp_common", ...commonArgs(ctx), "cleanup"], limitS: 60 + 5 * d.tables },
    ];
  },
  failure: () => undefined,
  measure(w, output, req) {
    const report = parseSysbench(output);
    const problems = measurementProblems(report, { ...req, rate_limited: "rate" in w.options });
    if (problems.length > 0) {
      const message = `not the measurement asked for: ${problems.join("; ")}`;
      // a stall alone — seconds without a finished operation, or seconds sysbench never printed (the
      // tool itself got no CPU) — within its time: another attempt may measure (the cell runs again)
      const stalled = "rate" in w.options ? [] : stalledSeconds(report);
      const overran = report.duration_s > req.seconds + req.grace_s;
      throw overran ? new Error(message) : new StalledRun(message, stalled);
    }
    return measuredWindow(report);
  },
  parse: parseSysbench,
  report: (w) => ({ rows: "threads", columns: ["tps", "qps", `p${percentileOf(w)}_ms`, "errors"] }),
};
