import { join } from "node:path";
import { Bench } from "../../bench/bench.ts";
import { variantBuild, withSourceBuilds } from "../../bench/builds.ts";
import { maxThreads, planCells } from "../../bench/cells.ts";
import type { Wave } from "../../bench/cut.ts";
import { partOf, type Shard } from "../../bench/cut.ts";
import { DuetRunner } from "../../bench/duet.ts";
import { cpuSets, usableCpus } from "../../bench/duet-cpus.ts";
import { interleavedRunner, type RoundRunner } from "../../bench/rounds.ts";
import type { CompareSchedule } from "../../bench/schedule.ts";
import {
  benchStart,
  closeDeployment,
  finishResult,
  type RunOptions,
  startResult,
} from "../../bench/start.ts";
import { withPooledBackground } from "../../compare/background.ts";
import { judgeFamily } from "../../compare/judge-results.ts";
import { lookedJudgement, lookShares } from "../../compare/looks.ts";
import type { Verdict } from "../../compare/verdict.ts";
import { EXIT, InputError, RunError } from "../../errors.ts";
import { type VerdictFiles, writeVerdictFiles } from "../../report/verdict-files.ts";
import type { LoadedSpec } from "../../specfile/load.ts";
import type { TargetPlan } from "../../targets/types.ts";
import { exitCodeOf } from "../exit.ts";
import { adoptionVerdict } from "./adoption.ts";
import { confirmRegression } from "./confirm.ts";
import type { CompareRequest } from "./options.ts";
import { profileDiffs, profileRegressions } from "./profiles.ts";
import { ScheduleRun } from "./rounds.ts";
import { nothingToMeasure } from "./same-target.ts";
import { acceptedVerdict, buildVerdict } from "./verdict.ts";

export interface CompareOutcome extends VerdictFiles {
  verdict: Verdict;
  resultPath: string;
  exitCode: number;
}

export interface CompareOptions extends RunOptions {
  /** Overrides compare.seed: the round order of an earlier run, to reproduce it. */
  seed?: number;
  /** --shard K/N: this runner's share of the comparison's blocks; `tiperf merge` judges the parts. */
  shard?: Shard;
  /** --accepted-by: a regression of this commit accepted as an expected cost by this login. */
  acceptedBy?: string;
  /** --look-of: a further look of a comparison run as shards, this shard's share of its wave. */
  look?: Wave;
}

/**
 * `tiperf compare` as either door asked for it (options.ts checked the request): the comparison
 * run; its verdict, files and exit code.
 */
export function execCompare(
  request: CompareRequest,
  io: { log: (line: string) => void; signal: AbortSignal },
): Promise<CompareOutcome> {
  const { spec, ...rest } = request;
  return compareSpec(spec, { ...rest, ...io });
}

/**
 * `tiperf compare`: both variants' private servers, prepared with identical data, measured in
 * rounds — interleaved (one at a time, balanced random order) or duet (both at once) — then
 * head judged against base cell by cell. Stops early once every cell is decided. In named steps:
 * the plan (startResult) → benches → the schedule's blocks and rounds → verdict → teardown →
 * confirmation of a regression.
 */
export async function compareSpec(given: LoadedSpec, opts: CompareOptions): Promise<CompareOutcome> {
  if (given.same && given.variants) return nothingToMeasure(given, given.same, opts);
  const startedAt = Date.now();
  const built = await withSourceBuilds(given, { log: opts.log, signal: opts.signal });
  if (!built.variants)
    throw new InputError(
      `${built.path}: variants: tiperf compare needs variants, e.g. variants: {base: {}, head: {target: {config: {…}}}}`,
    );
  const started = await startResult(built, {
    outDir: opts.outDir,
    command: "compare",
    log: opts.log,
    signal: opts.signal,
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
    ...(opts.shard ? { shard: opts.shard } : {}),
    ...(opts.look ? { look: opts.look } : {}),
  });
  const schedule = started.runPlan.schedule;
  if (opts.shard && schedule) started.result.shard = partOf(opts.shard, schedule, given);
  if (given.adoption) started.result.adoption = given.adoption;
  const c = new Comparison(started, opts, startedAt);
  let error: unknown;
  let verdict: Verdict | undefined;
  try {
    await c.openBenches();
    const rounds = new ScheduleRun(c);
    await rounds.run();
    verdict = await c.verdict(rounds);
  } catch (e) {
    error = e;
  }
  error = await c.close(error, verdict);
  if (error || !verdict) throw error;
  // a shard's verdict is of its own blocks: the merge of every shard decides and confirms
  if (opts.shard) {
    opts.log(
      `shard ${opts.shard.index} of ${opts.shard.of}: its blocks judged alone in verdict.json (not the check's verdict); \`tiperf merge\` every shard's result.json for that`,
    );
    return {
      verdict,
      ...(await writeVerdictFiles(verdict, c.runDir.dir, opts.log, [c.result])),
      resultPath: c.runDir.resultPath,
      exitCode: EXIT.ok,
    };
  }
  // each confirmation a comparison of its own, of the regressed cells only, in a new round order
  const spent = { elapsedS: (Date.now() - startedAt) / 1000, cells: c.perRound };
  const confirming = confirmRegression(verdict, c.loaded, c.compare, spent, opts.log);
  const confirmDir = join(c.runDir.dir, "confirm");
  let step = await confirming.next();
  while (!step.done)
    step = await confirming.next(
      await compareSpec(step.value, { ...opts, outDir: confirmDir, seed: undefined }),
    );
  verdict = acceptedVerdict(adoptionVerdict(step.value, c.result, c.loaded, given.adoption), opts.acceptedBy);
  return {
    verdict,
    ...(await writeVerdictFiles(verdict, c.runDir.dir, opts.log, [c.result])),
    resultPath: c.runDir.resultPath,
    exitCode: exitCodeOf(verdict, c.compare.inconclusive),
  };
}

type Started = Awaited<ReturnType<typeof startResult>>;
type Variants = NonNullable<LoadedSpec["variants"]>;
/**
 * One comparison as it runs: the spec as its plan resolved it (one copy: compare.order auto made
 * duet or interleaved, a duet's blocks), the plan's schedule, the variants' benches, and what the
 * rounds have measured so far.
 */
class Comparison {
  /** The spec as the plan resolved it: every setting and variant read from here. */
  readonly loaded: LoadedSpec;
  readonly plan: Variants;
  readonly compare: Variants["compare"];
  readonly schedule: CompareSchedule;
  readonly names: string[];
  readonly control: string;
  readonly perRound: number;
  readonly result: Started["result"];
  readonly runDir: Started["runDir"];
  private readonly benches: Bench[] = [];
  runner: RoundRunner = interleavedRunner;
  readonly startedMeasuring = Date.now();
  /** Where a switch restarts servers: each variant runs a block's cells as a group (fresh instance). */
  readonly grouped: boolean;
  /** Each look's share of the family's error rate: the design's looks, then compare.looks' further ones. */
  private readonly shares: number[];

  constructor(
    private readonly started: Started,
    readonly opts: CompareOptions,
    /** When compareSpec began (builds and deployment included): compare.budget counts from here. */
    readonly startedAt = Date.now(),
  ) {
    this.loaded = started.runPlan.loaded;
    this.plan = this.loaded.variants as Variants;
    this.compare = this.plan.compare;
    // the plan's schedule (seed → blocks → rounds → turns) is what runs
    this.schedule = started.runPlan.schedule as CompareSchedule;
    this.names = this.plan.all.map((v) => v.name);
    this.control = this.plan.base.name;
    this.perRound = planCells(this.plan.base.spec).length;
    this.result = started.result;
    this.runDir = started.runDir;
    this.grouped = started.plan.switching === "grouped";
    this.shares = lookShares(this.schedule.looks.length, 1 + (this.schedule.further?.looks ?? 0));
    const maxRounds = this.compare.max_rounds ?? this.compare.rounds;
    opts.log(
      `compare ${this.result.run_id}: ${this.names.slice(1).join(", ")} against ${this.control}, ${this.compare.order}, ${this.compare.rounds}${maxRounds > this.compare.rounds ? `–${maxRounds}` : ""} rounds, seed ${this.schedule.seed}; results in ${this.runDir.dir}`,
    );
  }

  /** The target's plan: how its variants take turns, what its restarts are keyed by. */
  get target(): TargetPlan {
    return this.started.plan;
  }

  cellsOf(variant: string, round: number) {
    const v = this.plan.all.find((x) => x.name === variant) as Variants["all"][number];
    return planCells(v.spec, variant, round);
  }

  benchOf(name: string): Bench {
    const b = this.benches.find((x) => x.variant === name);
    if (!b) throw new Error(`no bench of variant ${name} in this comparison`);
    return b;
  }

  /** Every cell judged at look `look` (0-based over the design's looks, then the further ones). */
  judge(look = this.schedule.looks.length - 1) {
    const { result, plan, control, names, compare, shares } = this;
    return judgeFamily(
      result,
      plan.base.spec,
      control,
      names.slice(1),
      compare.confidence,
      shares.length,
      shares[Math.min(look, shares.length - 1)],
    );
  }

  /** Each variant's bench on its target; the round runner (duet: a CPU set per pair). */
  async openBenches(): Promise<void> {
    const { opts, plan, started } = this;
    const maxConnections = Math.max(...plan.all.map((v) => maxThreads(v.spec)));
    const configKeys = (t: unknown) => Object.keys((t as { config?: Record<string, unknown> }).config ?? {});
    const allKeys = new Set(plan.all.flatMap((v) => configKeys(v.spec.target)));
    for (const v of plan.all) {
      const build = variantBuild(this.loaded, v.name);
      const own = new Set(configKeys(v.spec.target));
      const bench = await Bench.open({
        variant: v.name,
        spec: v.spec,
        targetSpec: v.spec.target,
        runDir: this.runDir,
        maxConnections,
        readBack: [...allKeys].filter((k) => !own.has(k)),
        log: opts.log,
        signal: opts.signal,
        ...benchStart(started.deployment, started.runPlan, v.name, opts.signal),
        ...(build ? { build } : {}),
      });
      this.benches.push(bench);
      this.result.targets.push(bench.info());
    }
    await this.runDir.writeResult(this.result);
    if (this.compare.blocks > 1)
      for (const b of this.benches)
        if (!b.canRestart())
          throw new RunError(
            `compare.blocks is ${this.compare.blocks}, but ${b.variant}'s target (${b.target.kind}) cannot restart its servers without losing its data: use compare.blocks: 1`,
          );
    this.runner = this.roundRunner();
  }

  /** duet: a CPU set per pair, passed round every compare.swap seconds (bench/duet.ts). */
  private roundRunner(): RoundRunner {
    const { names, compare, opts } = this;
    if (compare.order !== "duet") return interleavedRunner;
    const duet = new DuetRunner(
      names,
      this.benches,
      cpuSets(usableCpus(), names.length),
      compare.swap,
      opts.log,
    );
    opts.log(
      `duet: ${names.map((n, i) => `${n} on CPU ${duet.sets[i]}`).join(", ")} (server and load generator), the sets passed round every ${compare.swap}s`,
    );
    return duet;
  }

  /** The judgement of every cell, a regressed cell's profiles and their diff, read together. */
  async verdict(rounds: ScheduleRun): Promise<Verdict> {
    const { opts, control, compare, started } = this;
    const { looked, roundsDone } = rounds;
    // the run's background taken off every cell once, here, and stored: result.json holds the cost
    // figures the judge reads, and the verdict and report show
    this.result.cells = withPooledBackground(this.result).cells;
    await this.runDir.writeResult(this.result);
    const judged = looked ? lookedJudgement(looked) : this.judge();
    const benchmarkSeconds = (Date.now() - this.startedMeasuring) / 1000;
    const profiles = await profileRegressions({
      cells: judged.cells,
      control,
      benchOf: (n) => this.benchOf(n),
      grouped: this.grouped,
      planOf: (variant, workload, threads) =>
        this.cellsOf(variant, 1).find((c) => c.workload.name === workload && c.threads === threads),
      max: compare.profiles,
      runDir: this.runDir,
      log: opts.log,
      signal: opts.signal,
    });
    return buildVerdict({
      loaded: this.loaded,
      result: this.result,
      resultPath: this.runDir.resultPath,
      infoOf: (n) => this.benchOf(n).info(),
      compare,
      judged,
      schedule: this.schedule,
      roundsDone,
      benchmarkSeconds,
      profiles,
      profileDiffs: await profileDiffs(profiles, control, this.runDir, opts.log),
      runnerNotes: this.runner.notes(this.result.cells),
      ...(this.grouped ? { groupedBy: started.plan.takesTurnsBy ?? "see the plan" } : {}),
      ownInstances: started.plan.switching === "none",
      restartable: this.benches.every((b) => b.canRestart()),
      ...(looked
        ? {
            looks: {
              taken: looked.taken,
              max: looked.max,
              design: this.schedule.looks.length,
              ...(looked.stopped ? { stopped: looked.stopped } : {}),
            },
          }
        : {}),
    });
  }

  /**
   * Teardown, on success and failure alike: the benches (their data), the deployment, an
   * ephemeral cluster's measured cost into the verdict, and the result's final state.
   */
  async close(error: unknown, verdict: Verdict | undefined): Promise<unknown> {
    const { opts } = this;
    for (const b of [...this.benches].reverse())
      await b
        .close(opts.signal, error !== undefined)
        .catch((e) => opts.log(`teardown: ${(e as Error).message}`));
    await closeDeployment(this.started.deployment, this.runDir, opts.log);
    // an ephemeral cluster's cost, measured from `up` to the end of destroy
    const cost = this.started.deployment.cost?.();
    if (verdict && cost) verdict.cost = cost;
    return finishResult(this.result, this.runDir, error, opts.signal, opts.log);
  }
}
