import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import type { Spec, Workload } from "../spec/schema.ts";
import { onTeardown } from "../teardown.ts";

export interface StepResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
  /** Set when the step was stopped from outside (server died, SIGTERM). */
  aborted?: string;
}

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

/**
 * Runs sysbench with an argument array (no shell), teeing everything it prints into `logFile`
 * as it arrives, so a crash keeps the raw output up to that moment.
 */
export function runSysbench(
  args: string[],
  logFile: string,
  signal?: AbortSignal,
  cpus?: string,
): Promise<StepResult> {
  return new Promise((resolve) => {
    const log = createWriteStream(logFile, { flags: "a" });
    const [command, argv] = cpus ? ["taskset", ["-c", cpus, "sysbench", ...args]] : ["sysbench", args];
    log.write(`$ ${command} ${argv.join(" ")}\n`);
    const child = spawn(command, argv, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let aborted: string | undefined;
    const onData = (d: Buffer) => {
      output += d.toString();
      log.write(d);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    };
    const unregister = onTeardown(`stop sysbench (pid ${child.pid})`, kill);
    const onAbort = () => {
      aborted = signal?.reason instanceof Error ? signal.reason.message : String(signal?.reason ?? "aborted");
      kill();
    };
    if (signal?.aborted) onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    const finish = (code: number | null, sig: NodeJS.Signals | null) => {
      unregister();
      signal?.removeEventListener("abort", onAbort);
      log.end(() => resolve({ code, signal: sig, output, ...(aborted ? { aborted } : {}) }));
    };
    child.once("error", (e) => {
      output += `\n${e.message}`;
      finish(127, null);
    });
    child.once("close", finish);
  });
}

export async function sysbenchVersion(): Promise<string | undefined> {
  const r = await runSysbench(["--version"], "/dev/null");
  return /sysbench (\S+)/.exec(r.output)?.[1];
}
