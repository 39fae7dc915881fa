import { runTool, type ToolOptions, type ToolRun } from "../../proc/tool.ts";
import type { Spec, Workload } from "../../specfile/schema.ts";

/** Flags shared by every step: the target's connection and the spec's data set. */
export function commonArgs(spec: Spec, connection: string[]): string[] {
  return [...connection, `--tables=${spec.data.tables}`, `--table-size=${spec.data.table_size}`];
}

function optionArgs(options: Workload["options"]): string[] {
  return Object.entries(options).map(([k, v]) => `--${k}=${typeof v === "boolean" ? (v ? "on" : "off") : v}`);
}

export function prepareArgs(spec: Spec, connection: string[], threads: number): string[] {
  // A fixed seed makes every variant's server hold byte-identical data.
  return ["oltp_common", ...commonArgs(spec, connection), `--threads=${threads}`, "--rand-seed=1", "prepare"];
}

export function prewarmArgs(spec: Spec, connection: string[], threads: number): string[] {
  return ["oltp_common", ...commonArgs(spec, connection), `--threads=${threads}`, "prewarm"];
}

export function cleanupArgs(spec: Spec, connection: string[]): string[] {
  return ["oltp_common", ...commonArgs(spec, connection), "cleanup"];
}

/** One cell: the workload at one thread count, warmup included in the run and marked later. */
export function runArgs(spec: Spec, workload: Workload, threads: number, connection: string[]): string[] {
  return [
    workload.sysbench,
    ...commonArgs(spec, connection),
    `--threads=${threads}`,
    `--time=${workload.duration + workload.warmup}`,
    "--report-interval=1",
    `--percentile=${workload.percentile}`,
    ...optionArgs(workload.options),
    "run",
  ];
}

/** prewarm is MySQL-only in sysbench 1.0 (oltp_common.lua says so and fails for pgsql). */
export function supportsPrewarm(connection: string[]): boolean {
  return connection.includes("--db-driver=mysql");
}

/** Runs sysbench (see proc/tool.ts: argument array, clean environment, raw log, watchdog). */
export function runSysbench(args: string[], opts: ToolOptions): Promise<ToolRun> {
  return runTool("sysbench", args, opts);
}

export async function sysbenchVersion(): Promise<string | undefined> {
  const r = await runTool("sysbench", ["--version"], { logFile: "/dev/null", limitS: 20 });
  return /sysbench (\S+)/.exec(r.output)?.[1];
}
