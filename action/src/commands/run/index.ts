import { dirname } from "node:path";
import { Bench } from "../../bench/bench.ts";
import { variantBuild, withSourceBuilds } from "../../bench/builds.ts";
import { cellLabel, cellSeconds, maxThreads, planCells } from "../../bench/cells.ts";
import type { Shard } from "../../bench/cut.ts";
import { Progress } from "../../bench/progress.ts";
import { runCellStallAware } from "../../bench/rounds.ts";
import {
  benchStart,
  closeDeployment,
  finishResult,
  type RunOptions,
  startResult,
} from "../../bench/start.ts";
import { asJudged, judgeStored } from "../../compare/judge-results.ts";
import type { Verdict } from "../../compare/verdict.ts";
import { EXIT, InputError, RunError, TiperfError } from "../../errors.ts";
import { writeVerdictFiles } from "../../report/verdict-files.ts";
import type { Result } from "../../result/model.ts";
import type { RunDir } from "../../result/store.ts";
import { readResult } from "../../result/store.ts";
import type { LoadedSpec } from "../../specfile/load.ts";
import { exitCodeOf } from "../exit.ts";
import type { RunRequest } from "./options.ts";

/** run --shard K/N: this runner's share of the matrix, every N-th cell from the K-th. */
export interface RunShardOptions extends RunOptions {
  shard?: Shard;
}

/** The cells of shard K of N: every N-th of the matrix in spec order, from the K-th. */
export const shardCells = <T>(cells: T[], shard: Shard | undefined): T[] =>
  shard ? cells.filter((_, i) => i % shard.of === shard.index - 1) : cells;

export interface RunOutcome {
  result: Result;
  runDir: RunDir;
  exitCode: number;
}

/** `tiperf run`: spec → target → driver → result → report, for one variant. */
export async function runSpec(given: LoadedSpec, opts: RunShardOptions): Promise<RunOutcome> {
  // before anything starts: more shards than cells leaves some shard none, and that shard's job
  // would fail where this one passes; every shard of such a split says so alike
  const matrix = planCells(given.spec).length;
  if (opts.shard && matrix < opts.shard.of)
    throw new InputError(
      `--shard ${opts.shard.index}/${opts.shard.of}: the matrix of ${given.path} has ${matrix} cell(s), fewer than ${opts.shard.of} shards: shard ${matrix + 1}${opts.shard.of > matrix + 1 ? `–${opts.shard.of}` : ""} would run none; split it over at most ${matrix} runner(s)`,
    );
  const loaded = await withSourceBuilds(given, opts);
  const { spec } = loaded;
  const { result, runDir, deployment, runPlan } = await startResult(loaded, {
    outDir: opts.outDir,
    command: "run",
    log: opts.log,
    signal: opts.signal,
    ...(opts.shard ? { shard: opts.shard } : {}),
  });
  opts.log(`run ${result.run_id}: results in ${runDir.dir}`);
  const cells = shardCells(planCells(spec), opts.shard);
  if (opts.shard) {
    result.shard = {
      index: opts.shard.index,
      of: opts.shard.of,
      cells: cells.map(cellLabel),
      spec_sha256: given.hash,
      spec: given.raw,
    };
    opts.log(`shard ${opts.shard.index} of ${opts.shard.of}: ${cells.map(cellLabel).join(", ")}`);
  }
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
      ...benchStart(deployment, runPlan, "base", opts.signal),
      ...buildField(loaded, "base"),
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
      const cell = await runCellStallAware(bench, plan, opts.signal, opts.log);
      result.cells.push(cell);
      // Written as soon as the cell finishes: a crash loses at most the running cell.
      await runDir.writeResult(result);
      progress.finish(cellSeconds(plan));
      if (cell.status === "failed") throw new RunError(cell.error ?? `cell ${cellLabel(plan)} failed`);
    }
  } catch (e) {
    error = e;
  } finally {
    await bench
      ?.close(opts.signal, error !== undefined)
      .catch((e) => opts.log(`teardown: ${(e as Error).message}`));
    await closeDeployment(deployment, runDir, opts.log);
    error = await finishResult(result, runDir, error, opts.signal, opts.log);
  }
  if (error) {
    if (error instanceof RunError) throw Object.assign(error, { runDir: runDir.dir });
    throw error;
  }
  return { result, runDir, exitCode: EXIT.ok };
}

/** Bench.open's build option for a variant built from source. */
function buildField(loaded: LoadedSpec, variant: string): { build?: ReturnType<typeof variantBuild> } {
  const build = variantBuild(loaded, variant);
  return build ? { build } : {};
}

export interface BaselineOutcome {
  verdict: Verdict;
  resultPath: string;
  htmlPath: string;
  exitCode: number;
}

/**
 * A run judged against a stored result (the Action's `diff` mode, `tiperf run --baseline`): the
 * spec runs once, then its result is compared with the baseline unpaired (Welch). A run that did
 * not complete is not judged.
 */
export async function runAgainstBaseline(
  loaded: LoadedSpec,
  baselineFile: string,
  opts: RunOptions,
): Promise<BaselineOutcome> {
  // Read first: a bad baseline is found before anything starts.
  const baseline = await readResult(baselineFile);
  const outcome = await runSpec(loaded, opts);
  const resultPath = outcome.runDir.resultPath;
  if (outcome.result.status !== "complete")
    throw new TiperfError(`the run did not complete (${outcome.result.error ?? outcome.result.status})`, 3);
  const sides = [
    { result: baseline, file: baselineFile },
    { result: outcome.result, file: resultPath },
  ] as const;
  const verdict = judgeStored(...sides, { confidence: 0.95, force: false });
  const { htmlPath } = await writeVerdictFiles(verdict, dirname(resultPath), opts.log, asJudged(...sides));
  return {
    verdict,
    resultPath,
    htmlPath,
    exitCode: exitCodeOf(verdict),
  };
}

/** What a run ends with, through either door: its verdict when judged against a baseline, its files, the exit code. */
export interface RunExecuted {
  verdict?: Verdict;
  /** complete | failed | interrupted. */
  status: Result["status"];
  resultPath: string;
  /** report.md of a plain run; the verdict's report.html of a run judged against a baseline. */
  reportPath: string;
  exitCode: number;
}

/** `tiperf run` as either door asked for it (options.ts checked the request). */
export async function execRun(
  request: RunRequest,
  io: { log: (line: string) => void; signal: AbortSignal },
): Promise<RunExecuted> {
  const opts = { outDir: request.outDir, ...io };
  if (request.baseline !== undefined) {
    const checked = await runAgainstBaseline(request.spec, request.baseline, opts);
    return {
      verdict: checked.verdict,
      status: "complete",
      resultPath: checked.resultPath,
      reportPath: checked.htmlPath,
      exitCode: checked.exitCode,
    };
  }
  const outcome = await runSpec(request.spec, {
    ...opts,
    ...(request.shard ? { shard: request.shard } : {}),
  });
  return {
    status: outcome.result.status,
    resultPath: outcome.runDir.resultPath,
    reportPath: outcome.runDir.reportPath,
    exitCode: outcome.exitCode,
  };
}
