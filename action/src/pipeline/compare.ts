import { randomInt } from "node:crypto";
import { overallVerdict } from "../compare/judge.ts";
import { judgeRounds } from "../compare/judge-results.ts";
import type { Verdict } from "../compare/verdict.ts";
import { EXIT, InputError, RunError } from "../errors.ts";
import { type VerdictFiles, writeVerdictFiles } from "../report/verdict-files.ts";
import type { Cell } from "../result/model.ts";
import type { LoadedSpec } from "../specfile/load.ts";
import { Bench } from "./bench.ts";
import { cellLabel, cellSeconds, maxThreads, planCells } from "./cells.ts";
import { Progress } from "./progress.ts";
import { finishResult, type RunOptions, startResult, tidbBench } from "./run.ts";
import { interleavedOrder, lookRounds } from "./schedule.ts";

export interface CompareOutcome extends VerdictFiles {
  verdict: Verdict;
  resultPath: string;
  exitCode: number;
}

export interface CompareOptions extends RunOptions {
  /** Overrides compare.seed: the round order of an earlier run, to reproduce it. */
  seed?: number;
}

/**
 * `tiperf compare`: both variants' private servers, prepared with identical data, measured in
 * rounds — interleaved (one at a time, balanced random order) or duet (both at once) — then
 * head judged against base cell by cell. Stops early once every cell is decided.
 */
export async function compareSpec(loaded: LoadedSpec, opts: CompareOptions): Promise<CompareOutcome> {
  const plan = loaded.variants;
  if (!plan) {
    throw new InputError(
      `${loaded.path}: variants: tiperf compare needs variants, e.g. variants: {base: {}, head: {target: {config: {…}}}}`,
    );
  }
  const { compare } = plan;
  const maxRounds = compare.max_rounds ?? compare.rounds;
  const looksAt = lookRounds(compare.rounds, maxRounds);
  const looks = looksAt.length;
  const seed = opts.seed ?? compare.seed ?? randomInt(2 ** 31);
  const cellsOf = (variant: string, round: number) =>
    planCells(variant === plan.base.name ? plan.base.spec : plan.head.spec, variant, round);
  const perRound = planCells(plan.base.spec).length;
  const order = interleavedOrder(maxRounds, perRound, seed);

  const { result, runDir, tidb } = await startResult(loaded, {
    outDir: opts.outDir,
    command: "compare",
    log: opts.log,
    signal: opts.signal,
  });
  opts.log(
    `compare ${result.run_id}: ${plan.head.name} against ${plan.base.name}, ${compare.order}, ${compare.rounds}${maxRounds > compare.rounds ? `–${maxRounds}` : ""} rounds, seed ${seed}; results in ${runDir.dir}`,
  );
  let error: unknown;
  const benches: Bench[] = [];
  let verdict: Verdict | undefined;
  const startedMeasuring = Date.now();
  const judge = () =>
    judgeRounds(
      result,
      plan.base.spec,
      { base: plan.base.name, head: plan.head.name },
      compare.confidence,
      looks,
    );
  let roundsDone = 0;
  try {
    const maxConn = Math.max(maxThreads(plan.base.spec), maxThreads(plan.head.spec));
    for (const v of [plan.base, plan.head]) {
      const bench = await Bench.open({
        variant: v.name,
        spec: v.spec,
        targetSpec: v.spec.target,
        runDir,
        maxConnections: maxConn,
        log: opts.log,
        signal: opts.signal,
        ...tidbBench(tidb, v.name, opts.signal),
      });
      benches.push(bench);
      result.targets.push(bench.info());
    }
    await runDir.writeResult(result);
    const [base, head] = benches as [Bench, Bench];
    const secondsPerRound =
      cellsOf(plan.base.name, 1).reduce((s, c) => s + cellSeconds(c), 0) * (compare.order === "duet" ? 1 : 2);
    const totalRounds = maxRounds + compare.warmup_rounds;
    const progress = new Progress(perRound * totalRounds, secondsPerRound * totalRounds, opts.log);
    const record = async (cells: Cell[]) => {
      result.cells.push(...cells);
      await runDir.writeResult(result);
      const failed = cells.find((c) => c.status === "failed");
      if (failed) throw new RunError(failed.error ?? "a cell failed");
    };

    // Warmup rounds (round 0 in the result) run first and are never judged.
    for (let step = 1 - compare.warmup_rounds; step <= maxRounds; step++) {
      const round = Math.max(0, step);
      const baseCells = cellsOf(plan.base.name, round);
      const headCells = cellsOf(plan.head.name, round);
      for (let i = 0; i < baseCells.length; i++) {
        const b = baseCells[i] as (typeof baseCells)[number];
        const h = headCells[i] as (typeof headCells)[number];
        const first = round === 0 ? "base-first" : (order[round - 1]?.[i] ?? "base-first");
        progress.start(
          `${cellLabel({ ...b, variant: compare.order === "duet" ? "both" : first === "base-first" ? `${plan.base.name}→${plan.head.name}` : `${plan.head.name}→${plan.base.name}` })}`,
        );
        if (compare.order === "duet") {
          await record(await Promise.all([base.runCell(b, opts.signal), head.runCell(h, opts.signal)]));
        } else if (first === "base-first") {
          await record([await base.runCell(b, opts.signal)]);
          await record([await head.runCell(h, opts.signal)]);
        } else {
          await record([await head.runCell(h, opts.signal)]);
          await record([await base.runCell(b, opts.signal)]);
        }
        progress.finish(cellSeconds(b) * (compare.order === "duet" ? 1 : 2));
      }
      if (round === 0) continue;
      roundsDone = round;
      if (looksAt.includes(round) && round < maxRounds) {
        const look = judge();
        const open = look.cells.filter((c) => c.verdict === "inconclusive").length;
        if (open === 0) {
          opts.log(`every cell decided after ${round} rounds: stopping early (max ${maxRounds})`);
          break;
        }
        opts.log(`after ${round} rounds: ${open} of ${look.cells.length} judgements still inconclusive`);
      }
    }
    const judged = judge();
    const benchmarkSeconds = (Date.now() - startedMeasuring) / 1000;
    verdict = {
      format: "tiperf.verdict",
      version: 1,
      verdict: overallVerdict(judged.cells),
      created_at: new Date().toISOString(),
      spec: { name: loaded.spec.name, path: loaded.path, hash: loaded.hash },
      base: {
        variant: plan.base.name,
        run_id: result.run_id,
        result: runDir.resultPath,
        target: base.info(),
      },
      head: {
        variant: plan.head.name,
        run_id: result.run_id,
        result: runDir.resultPath,
        target: head.info(),
      },
      host: result.host,
      confidence: compare.confidence,
      alpha_per_cell: judged.alpha,
      comparisons: judged.comparisons,
      order: compare.order,
      rounds: roundsDone,
      max_rounds: maxRounds,
      seed,
      benchmark_seconds: Math.round(benchmarkSeconds),
      saved_seconds: Math.round((maxRounds - roundsDone) * (benchmarkSeconds / Math.max(1, roundsDone))),
      cells: judged.cells,
      notes: [
        `paired by round: mean of log(${plan.head.name}/${plan.base.name}) with a t interval; Bonferroni over ${judged.comparisons} judgements (cells × metrics × ${looks} look(s) at rounds ${looksAt.join(", ")}) for ${Math.round(compare.confidence * 100)}% familywise confidence`,
      ],
    };
  } catch (e) {
    error = e;
  } finally {
    for (const b of benches.reverse())
      await b
        .close(opts.signal, error !== undefined)
        .catch((e) => opts.log(`teardown: ${(e as Error).message}`));
    await tidb?.stop();
    // an ephemeral cluster's cost, measured from `up` to the end of destroy
    const cost = tidb?.cost();
    if (verdict && cost) verdict.cost = cost;
    error = await finishResult(result, runDir, error, opts.signal, opts.log);
  }
  if (error || !verdict) throw error;
  return {
    verdict,
    ...(await writeVerdictFiles(verdict, runDir.dir, opts.log)),
    resultPath: runDir.resultPath,
    exitCode: verdict.verdict === "regression" ? EXIT.regression : EXIT.ok,
  };
}
