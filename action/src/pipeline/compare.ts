import { randomInt } from "node:crypto";
import { join } from "node:path";
import { singlePairNote } from "../compare/design.ts";
import { cpuQuotaOf, quotaEffects, withEffects } from "../compare/effects.ts";
import { overallVerdict } from "../compare/judge.ts";
import { judgeFamily } from "../compare/judge-results.ts";
import type { Verdict } from "../compare/verdict.ts";
import { EXIT, InputError, RunError } from "../errors.ts";
import { evidenceField, evidenceOf } from "../observe/hints.ts";
import { type VerdictFiles, writeVerdictFiles } from "../report/verdict-files.ts";
import type { Cell } from "../result/model.ts";
import type { LoadedSpec } from "../specfile/load.ts";
import { narrowSpec } from "../specfile/prepare.ts";
import { Bench } from "./bench.ts";
import { variantBuild, withSourceBuilds } from "./builds.ts";
import { cellLabel, cellSeconds, maxThreads, planCells } from "./cells.ts";
import {
  CpuSwapper,
  cpuSets,
  type DuetPair,
  duetRefusals,
  OUTSIDE_GAP_PCT,
  outsideNotes,
  resolveOrder,
  UNEVEN_RERUNS,
  usableCpus,
} from "./duet.ts";
import { profileRegressions } from "./profile.ts";
import { Progress } from "./progress.ts";
import { benchStart, closeDeployment, finishResult, type RunOptions, startResult } from "./run.ts";
import { balancedOrders, interleavedOrder, lookRounds, rng } from "./schedule.ts";
import { recordRestarts, timingKey } from "./timings.ts";

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
  const looksAt = lookRounds(compare.rounds, maxRounds);
  const looks = looksAt.length;
  const seed = opts.seed ?? compare.seed ?? randomInt(2 ** 31);
  const names = plan.all.map((v) => v.name);
  const control = plan.base.name;
  const others = names.slice(1);
  const specOf = new Map(plan.all.map((v) => [v.name, v.spec]));
  const cellsOf = (variant: string, round: number) =>
    planCells(specOf.get(variant) as (typeof plan.all)[number]["spec"], variant, round);
  const perRound = planCells(plan.base.spec).length;
  // two variants: AB/BA pairs per cell; more: per cell the rows of a Williams design, relabelled at
  // random (each variant once in each position, each ordered pair of neighbours equally often)
  const pairOrder = interleavedOrder(maxRounds, perRound, seed);
  const balanced = names.length > 2 ? balancedOrders(names.length, perRound, seed) : [];
  const runOrder = (round: number, cell: number): string[] => {
    if (round === 0) return names;
    if (names.length === 2)
      return (pairOrder[round - 1]?.[cell] ?? "base-first") === "base-first" ? names : [...names].reverse();
    const rows = balanced[cell] as number[][];
    return (rows[(round - 1) % rows.length] as number[]).map((i) => names[i] as string);
  };

  const {
    result,
    runDir,
    deployment,
    plan: targetPlan,
  } = await startResult(loaded, {
    outDir: opts.outDir,
    command: "compare",
    log: opts.log,
    signal: opts.signal,
  });
  // compare.order: auto → duet where a fair duet can run here, else interleaved
  const order: "interleaved" | "duet" =
    (resolveOrder(loaded, targetPlan).variants ?? plan).compare.order === "duet" ? "duet" : "interleaved";
  compare = { ...compare, order };
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
    const unfair = duetRefusals({ ...loaded, variants: { ...plan, compare } }, targetPlan);
    if (unfair.length) throw new InputError(`${loaded.path}: ${unfair.join("; ")}`);
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
    // duet: a CPU set per pair, passed round every compare.swap seconds (pipeline/duet.ts)
    const pairs: DuetPair[] = benches.map((b) => ({
      serverPids: () => b.target.pids,
      loads: new Set<number>(),
    }));
    const sets = cpuSets(usableCpus(), names.length);
    const swapper = compare.order === "duet" ? new CpuSwapper(sets, pairs, compare.swap) : undefined;
    if (swapper)
      opts.log(
        `duet: ${names.map((n, i) => `${n} on CPU ${sets[i]}`).join(", ")} (server and load generator), the sets passed round every ${compare.swap}s`,
      );
    const benchOf = (n: string) => byName.get(n) as Bench;
    const secondsPerRound =
      cellsOf(control, 1).reduce((s, c) => s + cellSeconds(c), 0) *
      (compare.order === "duet" ? 1 : names.length);
    // warmup rounds run again after every restart (compare.blocks)
    const blockCount = compare.blocks > 1 ? maxRounds / (compare.rounds / compare.blocks) : 1;
    const totalRounds = maxRounds + compare.warmup_rounds * blockCount;
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

    // Instances as the unit (compare.blocks): rounds come in blocks of `perBlock`; before each
    // block after the first, every variant's server restarts (random order) and the warmup rounds
    // run again on the fresh instances. Warmup rounds (round 0 in the result) are never judged.
    const blocks = compare.blocks;
    const perBlock = blocks > 1 ? compare.rounds / blocks : maxRounds;
    if (blocks > 1)
      for (const b of benches)
        if (!b.canRestart())
          throw new RunError(
            `compare.blocks is ${blocks}, but ${b.variant}'s target (${b.target.kind}) cannot restart its servers without losing its data: use compare.blocks: 1`,
          );
    const restartOrder = rng(seed ^ 0x5bd1e995);
    /** How long each restart took: the next plan's estimate of this target's restarts (timings.ts). */
    const restartSeconds: number[] = [];
    /** One round of every cell; `only`: of one variant (a group). */
    const runRound = async (round: number, block: number | undefined, only?: string) => {
      const tag = (cells: Cell[]) => (block === undefined ? cells : cells.map((c) => ({ ...c, block })));
      const planned = new Map(names.map((n) => [n, cellsOf(n, round)]));
      for (let i = 0; i < perRound; i++) {
        const turn = only ? [only] : runOrder(round, i);
        const cellOf = (n: string) =>
          (planned.get(n) as ReturnType<typeof cellsOf>)[i] as ReturnType<typeof cellsOf>[number];
        const first = cellOf(control);
        progress.start(
          `${cellLabel({ ...first, variant: compare.order === "duet" ? (names.length === 2 ? "both" : "all") : turn.join("→") })}${block === undefined ? "" : ` block ${block}`}`,
        );
        if (compare.order === "duet" && swapper) {
          // every pair pinned to its set of phase 0; phases from the measured runs' start. A round
          // whose pairs met outside CPU use unevenly runs again (bounded; pipeline/duet.ts)
          const duetOnce = async () => {
            for (const p of pairs) p.loads.clear();
            // the pairs' starting sets alternate round by round (a block's rounds hold both)
            await swapper.begin(round);
            let measuring = false;
            const cells = await Promise.all(
              turn.map((n) => {
                const i = names.indexOf(n);
                const pair = pairs[i] as DuetPair;
                return benchOf(n).runCell(cellOf(n), opts.signal, {
                  cpus: swapper.setOf(i),
                  onLoad: (pid) => pair.loads.add(pid),
                  onMeasure: (seconds) => {
                    if (measuring) return;
                    measuring = true;
                    swapper.restart(seconds);
                  },
                });
              }),
            );
            swapper.stop();
            await swapper.settled();
            return { cells, outside: swapper.outside() };
          };
          let { cells, outside } = await duetOnce();
          let reruns = 0;
          const gapOf = (o: number[]) => Math.max(...o) - Math.min(...o);
          while (
            outside &&
            gapOf(outside) > OUTSIDE_GAP_PCT &&
            reruns < UNEVEN_RERUNS &&
            cells.every((c) => c.status === "ok")
          ) {
            reruns++;
            const o = outside;
            opts.log(
              `duet: processes of neither pair took ${turn.map((n) => `${(o[names.indexOf(n)] as number).toFixed(0)}% of ${n}'s CPUs`).join(" and ")}: running the round again (${reruns} of ${UNEVEN_RERUNS})`,
            );
            ({ cells, outside } = await duetOnce());
          }
          const o = outside;
          cells = cells.map((c) => ({
            ...c,
            ...(o ? { outside_cpu_pct: Math.round((o[names.indexOf(c.variant)] as number) * 10) / 10 } : {}),
            ...(reruns ? { reruns } : {}),
          }));
          await record(tag(cells));
        } else {
          for (const n of turn) await record(tag([await benchOf(n).runCell(cellOf(n), opts.signal)]));
        }
        progress.finish(cellSeconds(first) * (compare.order === "duet" || only ? 1 : names.length));
      }
    };
    const lastBlock = Math.ceil(maxRounds / perBlock);
    // grouped: the variants' order per block, balanced over blocks (AB BA … for two; Williams rows for more)
    const groupPairs = names.length === 2 ? interleavedOrder(lastBlock, 1, seed ^ 0x9e3779b9) : [];
    const groupRows =
      names.length > 2
        ? (balancedOrders(names.length, 1, seed ^ 0x9e3779b9)[0] as number[][]).map((row) =>
            row.map((i) => names[i] as string),
          )
        : [];
    const groupOrder = (block: number): string[] =>
      names.length === 2
        ? (groupPairs[block - 1]?.[0] ?? "base-first") === "base-first"
          ? names
          : [...names].reverse()
        : (groupRows[(block - 1) % groupRows.length] as string[]);
    blockLoop: for (let block = 1; block <= lastBlock; block++) {
      const tag = blocks > 1 ? block : undefined;
      if (grouped) {
        const from = (block - 1) * perBlock + 1;
        const to = Math.min(block * perBlock, maxRounds);
        for (const n of groupOrder(block)) {
          opts.log(
            `block ${block}: ${n}: ${(await benchOf(n).enterGroup(opts.signal)) ?? "in already"}; its cells as a group, rounds ${from}–${to}`,
          );
          for (let w = 0; w < compare.warmup_rounds; w++) await runRound(0, tag, n);
          for (let round = from; round <= to; round++) await runRound(round, tag, n);
        }
        roundsDone = to;
        if (looksAt.includes(to) && to < maxRounds) {
          const open = judge().cells.filter((c) => c.verdict === "inconclusive").length;
          if (open === 0) {
            opts.log(`every cell decided after ${to} rounds: stopping early (max ${maxRounds})`);
            break;
          }
        }
        continue;
      }
      if (block > 1) {
        // fresh instances, same data, in random order
        const turn = [...benches];
        for (let i = turn.length - 1; i > 0; i--) {
          const j = Math.floor(restartOrder() * (i + 1));
          [turn[i], turn[j]] = [turn[j] as Bench, turn[i] as Bench];
        }
        for (const b of turn) {
          const began = Date.now();
          opts.log(`block ${block}: ${b.variant}: ${await b.restart(opts.signal)}`);
          restartSeconds.push((Date.now() - began) / 1000);
        }
      }
      for (let w = 0; w < compare.warmup_rounds; w++) await runRound(0, tag);
      for (let round = (block - 1) * perBlock + 1; round <= Math.min(block * perBlock, maxRounds); round++) {
        await runRound(round, tag);
        roundsDone = round;
        if (looksAt.includes(round) && round < maxRounds) {
          const look = judge();
          const open = look.cells.filter((c) => c.verdict === "inconclusive").length;
          if (open === 0) {
            opts.log(`every cell decided after ${round} rounds: stopping early (max ${maxRounds})`);
            break blockLoop;
          }
          opts.log(`after ${round} rounds: ${open} of ${look.cells.length} judgements still inconclusive`);
        }
      }
    }
    await recordRestarts(timingKey(targetPlan), restartSeconds);
    const judged = judge();
    // what the variants differ in, shown to take effect over the measured runs (or not)
    const effects = quotaEffects(
      result.cells,
      plan.all.map((v) => {
        const q = cpuQuotaOf(v.spec.target);
        return { name: v.name, ...(q !== undefined ? { cpu_quota: q } : {}) };
      }),
      control,
    );
    const judgedCells = withEffects(judged.cells, effects);
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
    verdict = {
      format: "tiperf.verdict",
      version: 1,
      verdict: overallVerdict(judgedCells),
      created_at: new Date().toISOString(),
      spec: { name: loaded.spec.name, path: loaded.path, hash: loaded.hash },
      base: {
        variant: plan.base.name,
        run_id: result.run_id,
        result: runDir.resultPath,
        target: benchOf(control).info(),
      },
      head: {
        variant: plan.head.name,
        run_id: result.run_id,
        result: runDir.resultPath,
        target: benchOf(plan.head.name).info(),
      },
      ...(names.length > 2
        ? {
            variants: others.map((n) => ({
              variant: n,
              run_id: result.run_id,
              result: runDir.resultPath,
              target: benchOf(n).info(),
            })),
          }
        : {}),
      host: result.host,
      confidence: compare.confidence,
      alpha_per_cell: judged.alpha,
      comparisons: judged.comparisons,
      order,
      rounds: roundsDone,
      max_rounds: maxRounds,
      ...(compare.blocks > 1 ? { blocks: Math.ceil(roundsDone / (compare.rounds / compare.blocks)) } : {}),
      seed,
      benchmark_seconds: Math.round(benchmarkSeconds),
      saved_seconds: Math.round((maxRounds - roundsDone) * (benchmarkSeconds / Math.max(1, roundsDone))),
      cells: judgedCells,
      inconclusive: compare.inconclusive,
      ...(effects.length ? { effects } : {}),
      ...evidenceField(evidenceOf(result.cells, names)),
      ...(profiles.length ? { profiles } : {}),
      notes: [
        ...(profiles.length
          ? [
              `${new Set(profiles.map((p) => `${p.workload}\u0000${p.threads}`)).size} regressed cell(s) ran once more per side with CPU profiles of the servers (compare.profiles; not judged): under profiles/`,
            ]
          : []),
        ...(grouped
          ? [
              `variants took turns in groups: a switch restarts servers (${targetPlan.about.find((l) => l.startsWith("variants take turns by:"))?.slice(24) ?? "see the plan"}), so in each block every variant ran its cells together on a freshly switched instance, variants in a balanced order over blocks`,
            ]
          : []),
        ...(swapper
          ? [
              `duet: both variants at once, each pair (server processes and load generator) pinned to CPU set ${sets.join(" or ")} and the sets passed round every ${compare.swap}s from the start of each measured run, so over its whole number of cycles every pair held every set equally long; a round's sample is the ratio of the two throughputs of the same seconds`,
              ...outsideNotes(result.cells),
            ]
          : []),
        ...[singlePairNote(compare.blocks, targetPlan.switching === "none")].filter(
          (n): n is string => n !== undefined,
        ),
        compare.blocks > 1
          ? `instances as the unit: ${compare.rounds / compare.blocks} rounds per block, every variant's server restarted (fresh process, same data, random order) before each block after the first, warmup rounds again; per cell the mean of log(variant/${control}) in each block, a t interval over the block means (df = blocks − 1); between_share: the part of the round-to-round variance that lay between instances (one-way random effects)`
          : `paired by round: one server instance per variant, rounds as the unit`,
        ...(loaded.builds ?? []).map(
          (b) =>
            `${b.variant === "all" ? "every variant" : b.variant}: tidb-server built from ${b.path} at ${b.commit.slice(0, 10)} (${b.subject})${b.kept ? ", kept from an earlier build" : `, built in ${b.seconds} s`}`,
        ),
        `paired by round: mean of log(variant/${control}) with a t interval; Bonferroni over ${judged.comparisons} judgements (${others.length > 1 ? `${others.length} variants against ${control} × ` : ""}cells × metrics × ${looks} look(s) at rounds ${looksAt.join(", ")}) for ${Math.round(compare.confidence * 100)}% familywise confidence`,
      ],
    };
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
