import { join } from "node:path";
import { judgeFamily } from "../compare/judge-results.ts";
import type { Verdict } from "../compare/verdict.ts";
import { EXIT, InputError, RunError } from "../errors.ts";
import { type VerdictFiles, writeVerdictFiles } from "../report/verdict-files.ts";
import type { Cell } from "../result/model.ts";
import type { LoadedSpec } from "../specfile/load.ts";
import { narrowSpec } from "../specfile/prepare.ts";
import { Bench } from "./bench.ts";
import { variantBuild, withSourceBuilds } from "./builds.ts";
import { cellLabel, cellSeconds, maxThreads, planCells } from "./cells.ts";
import { cpuSets, DuetRunner, usableCpus } from "./duet.ts";
import { profileDiffs, profileRegressions } from "./profile.ts";
import { Progress } from "./progress.ts";
import { interleavedRunner, type RoundRunner } from "./rounds.ts";
import { benchStart, closeDeployment, finishResult, type RunOptions, startResult } from "./run.ts";
import type { CompareSchedule, ScheduledRound } from "./schedule.ts";
import { recordRestarts, timingKey } from "./timings.ts";
import { buildVerdict } from "./verdict.ts";

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
export async function compareSpec(given: LoadedSpec, opts: CompareOptions): Promise<CompareOutcome> {
  const startedAt = Date.now();
  const loaded = await withSourceBuilds(given, opts);
  const plan = loaded.variants;
  if (!plan) {
    throw new InputError(
      `${loaded.path}: variants: tiperf compare needs variants, e.g. variants: {base: {}, head: {target: {config: {…}}}}`,
    );
  }
  let { compare } = plan;
  const maxRounds = compare.max_rounds ?? compare.rounds;

  const names = plan.all.map((v) => v.name);
  const control = plan.base.name;
  const others = names.slice(1);
  const specOf = new Map(plan.all.map((v) => [v.name, v.spec]));
  const cellsOf = (variant: string, round: number) =>
    planCells(specOf.get(variant) as (typeof plan.all)[number]["spec"], variant, round);
  const perRound = planCells(plan.base.spec).length;

  const {
    result,
    runDir,
    deployment,
    plan: targetPlan,
    runPlan,
  } = await startResult(loaded, {
    outDir: opts.outDir,
    command: "compare",
    log: opts.log,
    signal: opts.signal,
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
  });
  // the plan's schedule (seed → blocks → rounds → turns) is what runs
  const schedule = runPlan.schedule as CompareSchedule;
  const { seed } = schedule;
  const looksAt = schedule.looks;
  const looks = looksAt.length;
  // compare.* as the plan resolved it: the order (auto → duet where a fair duet can run here,
  // refusals of an unfair duet made there) and a duet's blocks where the spec left them out
  const order: "interleaved" | "duet" =
    runPlan.loaded.variants?.compare.order === "duet" ? "duet" : "interleaved";
  compare = { ...(runPlan.loaded.variants?.compare ?? compare), order };
  opts.log(
    `compare ${result.run_id}: ${others.join(", ")} against ${control}, ${compare.order}, ${compare.rounds}${maxRounds > compare.rounds ? `–${maxRounds}` : ""} rounds, seed ${seed}; results in ${runDir.dir}`,
  );
  let error: unknown;
  const benches: Bench[] = [];
  let verdict: Verdict | undefined;
  const startedMeasuring = Date.now();
  const judge = () => judgeFamily(result, plan.base.spec, control, others, compare.confidence, looks);
  let roundsDone = 0;
  // where a switch restarts servers, each variant runs a block's cells as a group (fresh instance)
  const grouped = targetPlan.switching === "grouped";
  try {
    const maxConn = Math.max(...plan.all.map((v) => maxThreads(v.spec)));
    for (const v of plan.all) {
      const bench = await Bench.open({
        variant: v.name,
        spec: v.spec,
        targetSpec: v.spec.target,
        runDir,
        maxConnections: maxConn,
        log: opts.log,
        signal: opts.signal,
        ...benchStart(deployment, v.name, opts.signal),
        ...buildField(loaded, v.name),
      });
      benches.push(bench);
      result.targets.push(bench.info());
    }
    await runDir.writeResult(result);
    const byName = new Map(benches.map((b) => [b.variant, b]));
    const benchOf = (n: string) => byName.get(n) as Bench;
    // duet: a CPU set per pair, passed round every compare.swap seconds (pipeline/duet.ts)
    const runner: RoundRunner =
      compare.order === "duet"
        ? new DuetRunner(names, benches, cpuSets(usableCpus(), names.length), compare.swap, opts.log)
        : interleavedRunner;
    if (runner instanceof DuetRunner)
      opts.log(
        `duet: ${names.map((n, i) => `${n} on CPU ${runner.sets[i]}`).join(", ")} (server and load generator), the sets passed round every ${compare.swap}s`,
      );
    const secondsPerRound =
      cellsOf(control, 1).reduce((s, c) => s + cellSeconds(c), 0) *
      (compare.order === "duet" ? 1 : names.length);
    const totalRounds = schedule.blocks.reduce((s, b) => s + b.rounds.length, 0);
    const progress = new Progress(
      perRound * totalRounds * (grouped ? names.length : 1),
      secondsPerRound * totalRounds,
      opts.log,
    );
    const record = async (cells: Cell[]) => {
      result.cells.push(...cells);
      await runDir.writeResult(result);
      const failed = cells.find((c) => c.status === "failed");
      if (failed) throw new RunError(failed.error ?? "a cell failed");
    };

    // Instances as the unit (compare.blocks): rounds come in blocks; before each block after the
    // first, every variant's server restarts (the schedule's random order) and the warmup rounds
    // run again on the fresh instances. Warmup rounds (round 0 in the result) are never judged.
    const blocks = compare.blocks;
    if (blocks > 1)
      for (const b of benches)
        if (!b.canRestart())
          throw new RunError(
            `compare.blocks is ${blocks}, but ${b.variant}'s target (${b.target.kind}) cannot restart its servers without losing its data: use compare.blocks: 1`,
          );
    /** How long each restart took: the next plan's estimate of this target's restarts (timings.ts). */
    const restartSeconds: number[] = [];
    /** One round of every cell, each cell a turn of the runner; `only`: of one variant (a group). */
    const runRound = async (r: ScheduledRound, block: number | undefined, only?: string) => {
      const tag = (cells: Cell[]) => (block === undefined ? cells : cells.map((c) => ({ ...c, block })));
      const planned = new Map(names.map((n) => [n, cellsOf(n, r.round)]));
      for (let i = 0; i < perRound; i++) {
        const turn = only ? [only] : (r.turns[i] as string[]);
        const cellOf = (n: string) =>
          (planned.get(n) as ReturnType<typeof cellsOf>)[i] as ReturnType<typeof cellsOf>[number];
        const first = cellOf(control);
        progress.start(
          `${cellLabel({ ...first, variant: compare.order === "duet" ? (names.length === 2 ? "both" : "all") : turn.join("→") })}${block === undefined ? "" : ` block ${block}`}`,
        );
        await (only ? interleavedRunner : runner).run({
          round: r.round,
          turn,
          cellOf,
          benchOf,
          record: (cells) => record(tag(cells)),
          signal: opts.signal,
          log: opts.log,
        });
        progress.finish(cellSeconds(first) * (compare.order === "duet" || only ? 1 : names.length));
      }
    };
    /** At a look (compare.max_rounds): every judgement decided ends the comparison early. */
    const decidedAt = (round: number): boolean => {
      if (!schedule.looks.includes(round) || round >= maxRounds) return false;
      const open = judge().cells.filter((c) => c.verdict === "inconclusive").length;
      if (open === 0) {
        opts.log(`every cell decided after ${round} rounds: stopping early (max ${maxRounds})`);
        return true;
      }
      opts.log(`after ${round} rounds: ${open} judgement(s) still inconclusive`);
      return false;
    };
    blockLoop: for (const sb of schedule.blocks) {
      const tag = blocks > 1 ? sb.block : undefined;
      const measured = sb.rounds.filter((r) => r.round > 0);
      if (sb.groups) {
        for (const n of sb.groups) {
          opts.log(
            `block ${sb.block}: ${n}: ${(await benchOf(n).enterGroup(opts.signal)) ?? "in already"}; its cells as a group, rounds ${measured[0]?.round}–${measured.at(-1)?.round}`,
          );
          for (const r of sb.rounds) await runRound(r, tag, n);
        }
        roundsDone = measured.at(-1)?.round ?? roundsDone;
        if (decidedAt(roundsDone)) break;
        continue;
      }
      for (const n of sb.restarts) {
        const began = Date.now();
        opts.log(`block ${sb.block}: ${n}: ${await benchOf(n).restart(opts.signal)}`);
        restartSeconds.push((Date.now() - began) / 1000);
        if (sb.reload) {
          await benchOf(n).reloadData(opts.signal);
          opts.log(`block ${sb.block}: ${n}: data loaded again (compare.reload_data)`);
        }
      }
      for (const r of sb.rounds) {
        await runRound(r, tag);
        if (r.round === 0) continue;
        roundsDone = r.round;
        if (decidedAt(r.round)) break blockLoop;
      }
    }
    await recordRestarts(timingKey(targetPlan), restartSeconds);
    const judged = judge();
    const benchmarkSeconds = (Date.now() - startedMeasuring) / 1000;
    const profiles = await profileRegressions({
      cells: judged.cells,
      control,
      benchOf,
      grouped,
      planOf: (variant, workload, threads) =>
        cellsOf(variant, 1).find((c) => c.workload.name === workload && c.threads === threads),
      max: compare.profiles,
      runDir,
      log: opts.log,
      signal: opts.signal,
    });
    const diffs = await profileDiffs(profiles, control, runDir, opts.log);
    verdict = buildVerdict({
      loaded,
      result,
      resultPath: runDir.resultPath,
      infoOf: (n) => benchOf(n).info(),
      compare,
      judged,
      schedule,
      roundsDone,
      benchmarkSeconds,
      profiles,
      profileDiffs: diffs,
      runnerNotes: runner.notes(result.cells),
      ...(grouped
        ? {
            groupedBy: targetPlan.takesTurnsBy ?? "see the plan",
          }
        : {}),
      ownInstances: targetPlan.switching === "none",
      restartable: benches.every((b) => b.canRestart()),
    });
  } catch (e) {
    error = e;
  } finally {
    for (const b of benches.reverse())
      await b
        .close(opts.signal, error !== undefined)
        .catch((e) => opts.log(`teardown: ${(e as Error).message}`));
    await closeDeployment(deployment, runDir, opts.log);
    // an ephemeral cluster's cost, measured from `up` to the end of destroy
    const cost = deployment.cost?.();
    if (verdict && cost) verdict.cost = cost;
    error = await finishResult(result, runDir, error, opts.signal, opts.log);
  }
  if (error || !verdict) throw error;
  verdict = await confirmRegression(verdict, loaded, compare, runDir.dir, opts, {
    elapsedS: (Date.now() - startedAt) / 1000,
    cells: perRound,
  });
  return {
    verdict,
    ...(await writeVerdictFiles(verdict, runDir.dir, opts.log, [result])),
    resultPath: runDir.resultPath,
    // compare.inconclusive: fail makes an undecided cell fail the check as a regression would
    exitCode:
      verdict.verdict === "regression" ||
      (verdict.verdict === "inconclusive" && compare.inconclusive === "fail")
        ? EXIT.regression
        : EXIT.ok,
  };
}

const cellKey = (c: { workload: string; threads: number; metric: string }) =>
  `${c.workload} threads=${c.threads} ${c.metric}`;

/**
 * compare.confirm: a regression is re-measured before it alarms. The regressed cells run again on
 * fresh instances (a new comparison: new servers, its own round order); the verdict stays a
 * regression only if every re-run finds one of the same cells regressed, else it is inconclusive.
 * A false alarm then needs every run to err the same way: α^(1+N) if the runs are independent.
 */
async function confirmRegression(
  verdict: Verdict,
  loaded: LoadedSpec,
  compare: { confirm: number; budget?: number | undefined },
  dir: string,
  opts: CompareOptions,
  spent: { elapsedS: number; cells: number },
): Promise<Verdict> {
  const confirm = compare.confirm;
  if (verdict.verdict !== "regression" || confirm === 0) return verdict;
  const regressed = verdict.cells.filter((c) => c.verdict === "regression");
  const keys = new Set(regressed.map(cellKey));
  const cells = [...new Map(regressed.map((c) => [`${c.workload}\u0000${c.threads}`, c])).values()].map(
    (c) => ({
      workload: c.workload,
      threads: c.threads,
    }),
  );
  // within compare.budget: a re-run of these cells costs about their share of what the first run took
  const needS = (spent.elapsedS * confirm * cells.length) / Math.max(1, spent.cells);
  if (compare.budget !== undefined && spent.elapsedS + needS > compare.budget) {
    const t = (x: number) => (x < 120 ? `${Math.round(x)} s` : `${Math.round(x / 60)} min`);
    opts.log(
      `not confirming the regression: ~${t(needS)} more would pass compare.budget (${t(compare.budget)}, ${t(spent.elapsedS)} spent)`,
    );
    return {
      ...verdict,
      notes: [
        ...verdict.notes,
        `not confirmed on fresh instances: the re-run of the regressed cells (~${t(needS)}) would not fit compare.budget (${t(compare.budget)}, ${t(spent.elapsedS)} spent); the first run's verdict stands alone`,
      ],
    };
  }
  const runs: NonNullable<Verdict["confirmation"]>["runs"] = [];
  let confirmed = true;
  for (let i = 1; i <= confirm && confirmed; i++) {
    opts.log(
      `confirming the regression (${i} of ${confirm}): ${[...keys].join(", ")} again on fresh instances`,
    );
    const narrowed = await narrowSpec(loaded, cells, { confirm: 0, profiles: 0, seed: null });
    const again = await compareSpec(narrowed, { ...opts, outDir: join(dir, "confirm"), seed: undefined });
    runs.push({
      run_id: again.verdict.head.run_id,
      result: again.resultPath,
      verdict: again.verdict.verdict,
      cells: again.verdict.cells,
    });
    confirmed = again.verdict.cells.some((c) => c.verdict === "regression" && keys.has(cellKey(c)));
  }
  const alpha = 1 - verdict.confidence;
  const falseAlarm = alpha ** (1 + runs.length);
  const first = verdict.verdict;
  const shown = runs
    .flatMap((r) => r.cells.filter((c) => keys.has(cellKey(c))))
    .map(
      (c) => `${cellKey(c)} ${c.change === null ? "n/a" : `${(c.change * 100).toFixed(1)}%`} (${c.verdict})`,
    )
    .join("; ");
  return {
    ...verdict,
    verdict: confirmed ? "regression" : "inconclusive",
    confirmation: { confirmed, first, runs, false_alarm: falseAlarm },
    notes: [
      ...verdict.notes,
      confirmed
        ? `confirmed on fresh instances (compare.confirm: ${confirm}): ${shown}; a false alarm needs the first run and ${runs.length === 1 ? "the confirmation" : `all ${runs.length} confirmations`} to err alike: ${(falseAlarm * 100).toPrecision(2)}% if the runs are independent (α = ${(alpha * 100).toPrecision(2)}% each)`
        : `not confirmed: the regression the first run found did not recur on fresh instances (${shown || "no cell judged"}); the check does not fail on it`,
    ],
  };
}

/** Bench.open's build option for a variant built from source. */
function buildField(loaded: LoadedSpec, variant: string): { build?: ReturnType<typeof variantBuild> } {
  const build = variantBuild(loaded, variant);
  return build ? { build } : {};
}
