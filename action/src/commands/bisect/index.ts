import { mkdirSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { withSourceBuilds } from "../../bench/builds.ts";
import { matrixSeconds } from "../../bench/estimate.ts";
import { planRun } from "../../bench/plan.ts";
import type { RunOptions } from "../../bench/start.ts";
import { looksWithin, maxMeasurements, nextLookFits, stepConfidence } from "../../compare/bisect-budget.ts";
import {
  type BisectReport,
  BisectReportSchema,
  type BisectStep,
  bisectSearch,
  type Slot,
  type StepCell,
  type StepOutcome,
  stepMark,
} from "../../compare/bisection.ts";
import { BuildFailed, EXIT, InputError } from "../../errors.ts";
import { writeAtomic } from "../../proc/files.ts";
import { bisectMarkdown } from "../../report/bisect.ts";
import type { LoadedSpec } from "../../specfile/load.ts";
import type { CellRef, CompareOverrides } from "../../specfile/prepare.ts";
import { compareSpec } from "../compare/index.ts";
import { type Commit, looksRule, type Range, rangeOf } from "./range.ts";
import { settleReport, startReport } from "./report.ts";
import {
  type BisectOutcome,
  checkRecorded,
  pinRounds,
  type Recorded,
  type RoundShare,
  spreadSearch,
} from "./rounds.ts";
import { composeStep, metricOverride, watchOf } from "./step.ts";

export interface BisectOptions extends RunOptions {
  spec: string;
  good: string;
  bad: string;
  /** Only these cells (e.g. the series a change point was found in); default every cell. */
  only?: CellRef[];
  compare?: CompareOverrides;
  tolerance?: Record<string, number>;
  /** The whole search's confidence (default 0.95): each measurement gets its Bonferroni share. */
  confidence?: number;
  /**
   * Re-measures of an inconclusive step, each with twice the rounds of the one before. Default:
   * as many as the step budget (compare.budget, --budget) holds, at most 5; with no budget, 1.
   */
  remeasure?: number;
  /** --profile: the cluster profile of a TiDB target, over target.profile. */
  profile?: string;
  /** --metric: the one metric every step judges (a cost per operation: cpu_ms_per_op), over the spec's. */
  metric?: string;
  /**
   * --runners: candidates measured per search round, one per runner (default 1: halving). Here
   * a round's steps run one after another; on that many runners they would run at once.
   */
  runners?: number;
  /**
   * --parts (with --round/--runner): one leg of a round of a search spread over runners, or the
   * conclusion of every leg's part; without it, the whole search here.
   */
  rounds?: RoundShare;
}

export type { BisectOutcome };

export async function bisectSpec(o: BisectOptions): Promise<BisectOutcome> {
  if (o.rounds) {
    const pinned = pinRounds(o, o.rounds);
    return spreadSearch(await Bisection.open(pinned), pinned.rounds);
  }
  const b = await Bisection.open(o);
  let found: Found;
  try {
    found = await bisectSearch(b.n, (i, j, role, slot) => b.measure(i, j, role, slot), b.width);
  } catch (e) {
    await b.failed(e as Error);
    throw e;
  }
  return b.conclude(found);
}

type Found = Awaited<ReturnType<typeof bisectSearch>>;

/**
 * One bisection as it runs: the range, the report written after every step, and what the check
 * of the bad end found (the cells watched, each one's change there).
 */
class Bisection {
  readonly n: number;
  readonly width: number;
  /** One step at a time on this machine: a round's candidates queue here. */
  private queue: Promise<unknown> = Promise.resolve();
  readonly report: BisectReport;
  readonly jsonPath: string;
  readonly markdownPath: string;
  private watched: StepCell[] | undefined;
  /** Each watched cell's change at the bad end: what later steps ask whether they are like. */
  private readonly badEnd = new Map<string, number>();
  private readonly judgedMetrics: ReturnType<typeof metricOverride> | undefined;
  readonly log: (line: string) => void;

  private constructor(
    private readonly o: BisectOptions,
    readonly r: Range,
  ) {
    this.log = o.log;
    this.n = r.commits.length - 1;
    this.width = o.runners ?? 1;
    this.jsonPath = join(r.dir, "bisect.json");
    this.markdownPath = join(r.dir, "bisect.md");
    this.judgedMetrics = o.metric ? metricOverride(r.current, o.metric, o.tolerance) : undefined;
    this.report = startReport(o, r, this.width);
  }

  static async open(o: BisectOptions): Promise<Bisection> {
    const r = await rangeOf(o);
    mkdirSync(join(r.dir, "steps"), { recursive: true });
    const b = new Bisection(o, r);
    // the check's spec, composed once: it sizes the looks and is planned before any build
    const check = await b.stepSpec(r.commits[b.n] as Commit, r.commits[0] as Commit, 0);
    b.sizeLooks(check);
    await b.planCheck(check);
    const { good, bad, confidence } = b.report;
    const here =
      b.width > 1 && !o.rounds ? `; ${b.width} candidates a round, measured here one after another` : "";
    o.log(
      `bisect ${basename(r.dir)}: ${b.n} commit(s) after ${good.commit.slice(0, 10)} up to ${bad.commit.slice(0, 10)} (${r.mode}: ${r.repo}); at most ${r.measurements} measurements at ${(r.perStep * 100).toFixed(2)}% each for ${Math.round(confidence * 100)}% over the search${here}`,
    );
    await b.save();
    return b;
  }

  /**
   * With a step budget and no --remeasure: how many looks a step may take, sized on the check's
   * benchmark time (its cells × rounds) and counted into the error budget before the first step.
   */
  private sizeLooks(check: LoadedSpec): void {
    const { o, r, report } = this;
    if (r.stepBudget === undefined || o.remeasure !== undefined || looksRule(r)) return;
    report.remeasure = looksWithin(r.stepBudget, matrixSeconds(check)) - 1;
    r.measurements = maxMeasurements(this.n, report.remeasure, this.width);
    r.perStep = stepConfidence(report.confidence, r.measurements);
    report.max_measurements = r.measurements;
    report.step_confidence = r.perStep;
  }

  /**
   * The check's comparison planned before any build or server: what its run would refuse (a duet's
   * swap cycles, a budget) is refused now, not after minutes of builds.
   */
  private async planCheck(check: LoadedSpec): Promise<void> {
    const plan = await planRun(check, { command: "compare" });
    if (plan.refusals.length)
      throw new InputError(`tiperf bisect: each step would be refused:\n${plan.refusals.join("\n")}`);
  }

  /** bisect.json (what a reader is handed is what the schema allows) and bisect.md. */
  async save(): Promise<void> {
    BisectReportSchema.parse(this.report);
    await writeAtomic(this.jsonPath, `${JSON.stringify(this.report, null, 2)}\n`);
    await writeAtomic(this.markdownPath, bisectMarkdown(this.report));
  }

  /** The step's spec: `against` as base, `candidate` as head, narrowed to the watched cells. */
  private stepSpec(candidate: Commit, against: Commit, attempt: number): Promise<LoadedSpec> {
    return composeStep(this.o, this.r, { candidate, against, attempt }, this.watched, this.judgedMetrics);
  }

  /** A step an earlier round's leg measured (perf-bisect.yml), taken as the search's answer there. */
  replay(rec: Recorded, i: number, j: number, role: BisectStep["role"]): StepOutcome {
    const { r, report } = this;
    checkRecorded(rec, (r.commits[i] as Commit).commit, (r.commits[j] as Commit).commit, role);
    const attempts = rec.step.attempts.map((a) => ({
      ...a,
      run_dir: relative(r.dir, join(rec.dir, a.run_dir)),
    }));
    const step = { ...rec.step, attempts };
    report.steps.push(step);
    report.rounds = step.round;
    report.benchmark_seconds += attempts.reduce((sum, a) => sum + a.benchmark_seconds, 0);
    report.build_seconds += step.build_seconds ?? 0;
    if (role === "check" && step.mark === "bad")
      this.watch((attempts.at(-1)?.cells ?? []).filter((c) => c.verdict === "regression"));
    return step.mark;
  }

  /** A step: candidate i against j, measured again (more rounds) while it is undecided. */
  measure(i: number, j: number, role: BisectStep["role"], slot: Slot): Promise<StepOutcome> {
    const next = this.queue.then(() => this.measureNow(i, j, role, slot));
    this.queue = next.catch(() => {});
    return next;
  }

  private async measureNow(i: number, j: number, role: BisectStep["role"], slot: Slot): Promise<StepOutcome> {
    const { o, report } = this;
    const candidate = this.r.commits[i] as Commit;
    const against = this.r.commits[j] as Commit;
    const step: BisectStep = { role, candidate, against, mark: "unknown", attempts: [], ...slot };
    report.rounds = slot.round;
    report.steps.push(step);
    let spent = 0;
    let last = 0;
    for (let attempt = 0; attempt <= report.remeasure; attempt++) {
      if (attempt > 0 && !this.nextLook(step, spent, last)) break;
      const began = Date.now();
      o.log(
        `bisect step ${report.steps.length} (${role}${this.width > 1 ? `, round ${slot.round} runner ${slot.runner}` : ""}${attempt ? `, re-measure ${attempt}` : ""}): ${candidate.commit.slice(0, 10)} ${candidate.subject} against ${against.commit.slice(0, 10)}`,
      );
      const spec = await this.built(await this.stepSpec(candidate, against, attempt), step);
      if (spec === "skip") return "skip";
      const outcome = await compareSpec(spec, {
        outDir: join(this.r.dir, "steps"),
        log: o.log,
        signal: o.signal,
      });
      this.recordAttempt(step, outcome);
      last = (Date.now() - began) / 1000;
      spent += last;
      await this.save();
      o.log(
        `bisect step ${report.steps.length}: ${step.mark} (${outcome.verdict.verdict}, ${outcome.verdict.rounds} rounds)`,
      );
      if (step.mark !== "unknown") break;
    }
    return step.mark;
  }

  /**
   * Whether an undecided step looks again: always without a step budget, else only when the next
   * look (twice the rounds, taken as twice the last look's time) fits what is left of it.
   */
  private nextLook(step: BisectStep, spent: number, last: number): boolean {
    const budget = this.r.stepBudget;
    if (budget === undefined || nextLookFits(budget, spent, last)) return true;
    step.budget_stop = `after ${step.attempts.length} look(s) in ${Math.round(spent)} s: the next (~${Math.round(2 * last)} s) would pass the step budget of ${Math.round(budget)} s`;
    this.o.log(`bisect step ${this.report.steps.length}: undecided, ${step.budget_stop}`);
    return false;
  }

  /**
   * A source step's builds; a candidate that does not build is gone round (git bisect skip), any
   * other failure stops the search.
   */
  private async built(spec: LoadedSpec, step: BisectStep): Promise<LoadedSpec | "skip"> {
    if (this.r.mode !== "source") return spec;
    let done: LoadedSpec;
    try {
      done = await withSourceBuilds(spec, this.o);
    } catch (e) {
      if (!(e instanceof BuildFailed) || e.commit !== step.candidate.commit || step.role === "check") throw e;
      step.mark = "skip";
      step.skip_reason = e.message.split("\n")[0] as string;
      await this.save();
      this.o.log(
        `bisect step ${this.report.steps.length}: skipped, ${step.candidate.commit.slice(0, 10)} does not build`,
      );
      return "skip";
    }
    const seconds = (done.builds ?? []).filter((b) => !b.kept).reduce((s, b) => s + b.seconds, 0);
    step.build_seconds = (step.build_seconds ?? 0) + seconds;
    this.report.build_seconds += seconds;
    return done;
  }

  /** An attempt's comparison, judged as a bisect asks: like the good end, or like the bad end. */
  private recordAttempt(step: BisectStep, outcome: Awaited<ReturnType<typeof compareSpec>>): void {
    const { verdict } = outcome;
    const mark = stepMark(verdict.cells, this.watched, step.role === "check" ? undefined : this.badEnd);
    step.attempts.push({
      mark,
      verdict: verdict.verdict,
      rounds: verdict.rounds,
      benchmark_seconds: verdict.benchmark_seconds,
      run_dir: relative(this.r.dir, dirname(outcome.verdictPath)),
      cells: verdict.cells,
    });
    this.report.benchmark_seconds += verdict.benchmark_seconds;
    step.mark = mark;
    if (step.role === "check" && mark === "bad")
      this.watch(verdict.cells.filter((c) => c.verdict === "regression"));
  }

  /** The bad end's regressed cells: watched by every later step, each one's change its yardstick. */
  private watch(regressed: BisectStep["attempts"][number]["cells"]): void {
    const w = watchOf(regressed);
    this.watched = w.watched;
    for (const [k, v] of w.badEnd) this.badEnd.set(k, v);
    this.report.cells = w.cells;
    this.report.notes.push(w.note);
  }

  /** What was measured stays: the steps so far, and why the next one failed. */
  async failed(e: Error): Promise<void> {
    this.report.outcome = "failed";
    this.report.notes.push(`step ${this.report.steps.length} failed: ${e.message}`);
    await this.save();
  }

  /** The search's answer (or the range it leaves), its notes, the report's last save. */
  async conclude(found: Found, spread = false): Promise<BisectOutcome> {
    const { report, r } = this;
    settleReport(report, r, this.width, found, spread);
    await this.save();
    this.o.log(
      `bisect: ${report.outcome}${report.first_bad ? ` — first bad ${report.first_bad.commit.slice(0, 10)} ${report.first_bad.subject}` : ""}; report: ${this.markdownPath}`,
    );
    return {
      report,
      dir: r.dir,
      jsonPath: this.jsonPath,
      markdownPath: this.markdownPath,
      exitCode: report.outcome === "found" ? EXIT.regression : EXIT.ok,
    };
  }
}
