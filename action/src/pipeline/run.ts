import { sysbenchVersion } from "../driver/sysbench.ts";
import { EXIT, RunError } from "../errors.ts";
import { runReportMarkdown } from "../report/run-report.ts";
import { hostFacts } from "../result/host.ts";
import type { Result } from "../result/model.ts";
import { newRunId, RunDir, writeAtomic } from "../result/store.ts";
import type { LoadedSpec } from "../spec/load.ts";
import { Bench } from "./bench.ts";
import { cellLabel, cellSeconds, maxThreads, planCells } from "./cells.ts";
import { Progress } from "./progress.ts";

export const TIPERF_VERSION = "0.1.0";

export interface RunOptions {
  outDir: string;
  log: (line: string) => void;
  signal: AbortSignal;
}

export interface RunOutcome {
  result: Result;
  runDir: RunDir;
  exitCode: number;
}

/** A new result, written at once, so even a run that dies in startup leaves a record. */
export async function startResult(
  loaded: LoadedSpec,
  outDir: string,
): Promise<{ result: Result; runDir: RunDir }> {
  const runId = newRunId(loaded.spec.name);
  const runDir = await RunDir.create(outDir, runId);
  const result: Result = {
    format: "tiperf.result",
    version: 1,
    run_id: runId,
    status: "running",
    started_at: new Date().toISOString(),
    spec: { name: loaded.spec.name, path: loaded.path, hash: loaded.hash, body: loaded.spec },
    targets: [],
    host: await hostFacts(),
    tools: { tiperf: TIPERF_VERSION, sysbench: (await sysbenchVersion()) ?? "not found" },
    cells: [],
  };
  await runDir.writeResult(result);
  return { result, runDir };
}

/** Marks the result finished and writes result.json and report.md. */
export async function finishResult(
  result: Result,
  runDir: RunDir,
  error: unknown,
  signal: AbortSignal,
): Promise<void> {
  result.finished_at = new Date().toISOString();
  if (error) {
    result.status = signal.aborted ? "interrupted" : "failed";
    result.error = (error as Error).message;
  } else {
    result.status = "complete";
  }
  await runDir.writeResult(result);
  await writeAtomic(runDir.reportPath, runReportMarkdown(result));
}

/** `tiperf run`: spec → target → driver → result → report, for one variant. */
export async function runSpec(loaded: LoadedSpec, opts: RunOptions): Promise<RunOutcome> {
  const { spec } = loaded;
  const { result, runDir } = await startResult(loaded, opts.outDir);
  opts.log(`run ${result.run_id}: results in ${runDir.dir}`);
  const cells = planCells(spec);
  let error: unknown;
  let bench: Bench | undefined;
  try {
    bench = await Bench.open({
      variant: "base",
      spec,
      targetSpec: spec.target,
      runDir,
      maxConnections: maxThreads(spec),
      log: opts.log,
      signal: opts.signal,
    });
    result.targets.push(bench.info());
    await runDir.writeResult(result);
    const progress = new Progress(
      cells.length,
      cells.reduce((s, c) => s + cellSeconds(c), 0),
      opts.log,
    );
    for (const plan of cells) {
      progress.start(cellLabel(plan));
      const cell = await bench.runCell(plan, opts.signal);
      result.cells.push(cell);
      // Written as soon as the cell finishes: a crash loses at most the running cell.
      await runDir.writeResult(result);
      progress.finish(cellSeconds(plan));
      if (cell.status === "failed") throw new RunError(cell.error ?? `cell ${cellLabel(plan)} failed`);
    }
  } catch (e) {
    error = e;
  } finally {
    await bench?.close(opts.signal).catch((e) => opts.log(`teardown: ${(e as Error).message}`));
    await finishResult(result, runDir, error, opts.signal);
  }
  if (error) {
    if (error instanceof RunError) throw Object.assign(error, { runDir: runDir.dir });
    throw error;
  }
  return { result, runDir, exitCode: EXIT.ok };
}
