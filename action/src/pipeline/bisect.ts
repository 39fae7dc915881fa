// `tiperf bisect`: from "regressed" to "this commit". Each step is a comparison (compareSpec) of a
// candidate commit against the good one on the same machine — the spec's target as of that commit
// of its repository (config), or tidb-server built at that commit of a TiDB tree (source) — and
// the search (compare/bisection.ts) halves the commits between good and bad until the first bad
// one is found and confirmed against its last good neighbour.
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { parse } from "yaml";
import {
  BISECT_FORMAT,
  BISECT_VERSION,
  type BisectReport,
  BisectReportSchema,
  type BisectStep,
  bisectSearch,
  type Measured,
  maxMeasurements,
  midpoint,
  type StepCell,
  stepCellKey,
  stepConfidence,
  stepKind,
} from "../compare/bisection.ts";
import { driverOf } from "../drivers/registry.ts";
import { BuildFailed, EXIT, InputError } from "../errors.ts";
import { commitAt, git } from "../proc/git.ts";
import { bisectMarkdown } from "../report/bisect.ts";
import { pct } from "../report/rows.ts";
import { writeAtomic } from "../result/store.ts";
import { type LoadedSpec, loadSpec } from "../specfile/load.ts";
import {
  type CellRef,
  type CompareOverrides,
  composedSpec,
  narrowSpec,
  prepareSpec,
} from "../specfile/prepare.ts";
import { DEFAULT_TOLERANCE } from "../specfile/schema.ts";
import { kindOf } from "../targets/registry.ts";
import { builderOf, withSourceBuilds } from "./builds.ts";
import { compareSpec } from "./compare.ts";
import type { RunOptions } from "./run.ts";

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
  /** Re-measures of an inconclusive step, each with twice the rounds of the one before (default 1). */
  remeasure?: number;
  /** --profile: the cluster profile of a TiDB target, over target.profile. */
  profile?: string;
  /** --metric: the one metric every step judges (a cost per operation: cpu_ms_per_op), over the spec's. */
  metric?: string;
}

export interface BisectOutcome {
  report: BisectReport;
  dir: string;
  jsonPath: string;
  markdownPath: string;
  exitCode: number;
}

interface Commit {
  commit: string;
  subject: string;
}

async function commitOf(repo: string, ref: string, flag: string): Promise<Commit> {
  const c = await commitAt(repo, ref);
  if ("error" in c)
    throw new InputError(`tiperf bisect: ${flag} ${ref} is not a commit of ${repo} (${c.error})`);
  return c;
}

/** The commits after good up to bad on the first-parent line (a merged PR is one step). */
async function between(repo: string, good: Commit, bad: Commit, flags: [string, string]): Promise<Commit[]> {
  const anc = await git(repo, ["merge-base", "--is-ancestor", good.commit, bad.commit]);
  if (anc.code !== 0)
    throw new InputError(
      `tiperf bisect: ${flags[0]} ${good.commit.slice(0, 10)} is not an ancestor of ${flags[1]} ${bad.commit.slice(0, 10)} in ${repo}: the good commit must come before the bad one`,
    );
  const r = await git(repo, [
    "log",
    "--reverse",
    "--first-parent",
    "--format=%H%x00%s",
    `${good.commit}..${bad.commit}`,
  ]);
  const list = r.out
    .split("\n")
    .filter(Boolean)
    .map((l) => {
      const [commit = "", subject = ""] = l.split("\u0000");
      return { commit, subject };
    });
  if (list.length === 0)
    throw new InputError(
      `tiperf bisect: ${flags[0]} and ${flags[1]} are the same commit: nothing between them`,
    );
  return list;
}

const cellsOfSpec = (loaded: LoadedSpec): CellRef[] =>
  loaded.spec.workloads.flatMap((w) => w.threads.map((threads) => ({ workload: w.name, threads })));

/** The repository a bisect of this spec walks: its target's source tree, or the spec's own. */
async function repositoryOf(
  specFile: string,
  current: LoadedSpec,
): Promise<{ mode: BisectReport["mode"]; repo: string }> {
  const tree = builderOf(current.spec.target)?.treeOf(current.spec.target);
  if (tree) return { mode: "source", repo: resolve(tree.path) };
  const top = await git(dirname(resolve(specFile)), ["rev-parse", "--show-toplevel"]);
  if (top.code !== 0)
    throw new InputError(
      `tiperf bisect: ${specFile} is not in a git repository, and its target has no source: (nothing to bisect)`,
    );
  return { mode: "config", repo: top.out };
}

/** How many commits a bisect of this spec from good to bad would walk (first-parent line). */
/**
 * A bisect step's compare overrides: as given, then per re-measure twice the rounds (and blocks:
 * the same rounds per instance) of the one before, with max_rounds raised beside them (a spec's
 * own max_rounds below the new rounds would refuse the step).
 */
export function remeasureCompare(
  given: CompareOverrides,
  spec: { rounds?: number; blocks?: number; max_rounds?: number | undefined } | undefined,
  attempt: number,
): CompareOverrides {
  if (attempt === 0) return given;
  const rounds = (given.rounds ?? spec?.rounds ?? 6) * 2 ** attempt;
  const blocks = given.blocks ?? spec?.blocks ?? 1;
  const maxRounds = spec?.max_rounds ? Math.max(spec.max_rounds * 2 ** attempt, rounds) : undefined;
  return {
    ...given,
    rounds,
    ...(blocks > 1 ? { blocks: blocks * 2 ** attempt } : {}),
    ...(maxRounds ? { max_rounds: maxRounds } : {}),
  };
}

export async function commitsBetween(
  specFile: string,
  current: LoadedSpec,
  good: string,
  bad: string,
): Promise<number> {
  const { repo } = await repositoryOf(specFile, current);
  const g = await commitOf(repo, good, "--good");
  const b = await commitOf(repo, bad, "--bad");
  return (await between(repo, g, b, ["--good", "--bad"])).length;
}

export async function bisectSpec(o: BisectOptions): Promise<BisectOutcome> {
  const current = await loadSpec(o.spec);
  const { mode, repo } = await repositoryOf(o.spec, current);
  const flags: [string, string] = ["--good", "--bad"];
  const good = await commitOf(repo, o.good, "--good");
  const bad = await commitOf(repo, o.bad, "--bad");
  const commits = [good, ...(await between(repo, good, bad, flags))];
  const n = commits.length - 1;
  const remeasure = o.remeasure ?? 1;
  const confidence = o.confidence ?? 0.95;
  const measurements = maxMeasurements(n, remeasure);
  const perStep = stepConfidence(confidence, measurements);
  const only = o.only ?? cellsOfSpec(current);
  for (const c of only)
    if (!cellsOfSpec(current).some((x) => x.workload === c.workload && x.threads === c.threads))
      throw new InputError(
        `tiperf bisect: --only ${c.workload}:${c.threads} is not a cell of ${o.spec} (its cells: ${cellsOfSpec(
          current,
        )
          .map((x) => `${x.workload}:${x.threads}`)
          .join(", ")})`,
      );
  const id = `bisect-${new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "")}-${randomBytes(2).toString("hex")}`;
  const dir = join(o.outDir, id);
  mkdirSync(join(dir, "steps"), { recursive: true });
  const jsonPath = join(dir, "bisect.json");
  const markdownPath = join(dir, "bisect.md");
  o.log(
    `bisect ${id}: ${n} commit(s) after ${good.commit.slice(0, 10)} up to ${bad.commit.slice(0, 10)} (${mode}: ${repo}); at most ${measurements} measurements at ${(perStep * 100).toFixed(2)}% each for ${Math.round(confidence * 100)}% over the search`,
  );
  const report: BisectReport = {
    format: BISECT_FORMAT,
    version: BISECT_VERSION,
    created_at: new Date().toISOString(),
    spec: { name: current.spec.name, path: o.spec },
    mode,
    repository: repo,
    good,
    bad,
    commits: commits.slice(1),
    outcome: "running",
    cells: [],
    confidence,
    step_confidence: perStep,
    max_measurements: measurements,
    remeasure,
    steps: [],
    benchmark_seconds: 0,
    build_seconds: 0,
    notes: [],
  };
  const save = async () => {
    // what a reader will be handed is what the schema allows (first_bad only when found)
    BisectReportSchema.parse(report);
    await writeAtomic(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
    await writeAtomic(markdownPath, bisectMarkdown(report));
  };
  await save();
  let watched: StepCell[] | undefined;
  // each watched cell's change at the bad end: what later steps ask whether they are like
  const badEnd = new Map<string, number>();
  const judgedMetrics = o.metric ? metricOverride(current, o.metric, o.tolerance) : undefined;
  if (o.metric) {
    report.metric = o.metric;
    report.notes.push(`every step judged ${o.metric} (--metric), not the spec's own metrics`);
  }
  const specRel = relative(repo, resolve(o.spec));
  const compareOf = (attempt: number) =>
    remeasureCompare({ ...o.compare, confidence: perStep }, current.spec.compare, attempt);
  /** The step's spec: `against` as base, `candidate` as head. */
  const stepSpec = async (candidate: Commit, against: Commit, attempt: number): Promise<LoadedSpec> => {
    // max_rounds with the rounds: a re-measure's rounds may pass the spec's own max_rounds
    const known = compareOf(attempt);
    let composed: LoadedSpec;
    if (mode === "config") {
      composed = await prepareSpec({
        spec: specRel,
        cwd: repo,
        baseRef: against.commit,
        headRef: candidate.commit,
        compare: known,
        ...(o.tolerance ? { tolerance: o.tolerance, toleranceFrom: "--tolerance" } : {}),
      });
    } else {
      const plain = await prepareSpec({
        spec: o.spec,
        compare: known,
        ...(o.tolerance ? { tolerance: o.tolerance, toleranceFrom: "--tolerance" } : {}),
      });
      const raw = parse(plain.composed as string) as Record<string, unknown>;
      raw.variants = {
        base: { target: { source: { ref: against.commit } } },
        head: { target: { source: { ref: candidate.commit } } },
      };
      raw.compare = { ...(raw.compare as object), base: "base", head: "head" };
      composed = composedSpec(
        raw,
        `${o.spec} (${against.commit.slice(0, 10)} vs ${candidate.commit.slice(0, 10)})`,
        o.spec,
      );
    }
    const cells = watched
      ? [...new Map(watched.map((c) => [`${c.workload}\u0000${c.threads}`, c])).values()]
      : only;
    const step = await narrowSpec(composed, cells, { confirm: 0, profiles: 0 }, judgedMetrics);
    return o.profile ? { ...step, profile: o.profile } : step;
  };

  const measure = async (i: number, j: number, role: BisectStep["role"]): Promise<Measured> => {
    const candidate = commits[i] as Commit;
    const against = commits[j] as Commit;
    const step: BisectStep = { role, candidate, against, kind: "unknown", attempts: [] };
    report.steps.push(step);
    for (let attempt = 0; attempt <= remeasure; attempt++) {
      o.log(
        `bisect step ${report.steps.length} (${role}${attempt ? `, re-measure ${attempt}` : ""}): ${candidate.commit.slice(0, 10)} ${candidate.subject} against ${against.commit.slice(0, 10)}`,
      );
      let spec = await stepSpec(candidate, against, attempt);
      if (mode === "source") {
        try {
          spec = await withSourceBuilds(spec, o);
        } catch (e) {
          // a candidate that does not build is gone round (git bisect skip); any other failure stops the search
          if (!(e instanceof BuildFailed) || e.commit !== candidate.commit || role === "check") throw e;
          step.kind = "skip";
          step.skip_reason = e.message.split("\n")[0] as string;
          await save();
          o.log(
            `bisect step ${report.steps.length}: skipped, ${candidate.commit.slice(0, 10)} does not build`,
          );
          return "skip";
        }
        const built = (spec.builds ?? []).filter((b) => !b.kept).reduce((s, b) => s + b.seconds, 0);
        step.build_seconds = (step.build_seconds ?? 0) + built;
        report.build_seconds += built;
      }
      const outcome = await compareSpec(spec, { outDir: join(dir, "steps"), log: o.log, signal: o.signal });
      const kind = stepKind(outcome.verdict.cells, watched, role === "check" ? undefined : badEnd);
      step.attempts.push({
        kind,
        verdict: outcome.verdict.verdict,
        rounds: outcome.verdict.rounds,
        benchmark_seconds: outcome.verdict.benchmark_seconds,
        run_dir: relative(dir, dirname(outcome.verdictPath)),
        cells: outcome.verdict.cells,
      });
      report.benchmark_seconds += outcome.verdict.benchmark_seconds;
      step.kind = kind;
      if (role === "check" && kind === "bad") {
        const regressed = outcome.verdict.cells.filter((c) => c.verdict === "regression");
        watched = regressed.map((c) => ({ workload: c.workload, threads: c.threads, metric: c.metric }));
        for (const c of regressed) if (c.change !== null) badEnd.set(stepCellKey(c), c.change);
        report.cells = regressed.map((c) => ({
          workload: c.workload,
          threads: c.threads,
          metric: c.metric,
          ...(c.change !== null ? { bad_change: c.change } : {}),
        }));
        report.notes.push(
          `each later step asks whether its commit is like the good end or the bad end: bad when its interval lies wholly past halfway (log scale) to the bad end's change (${regressed
            .filter((c) => c.change !== null)
            .map(
              (c) =>
                `${c.workload} threads=${c.threads} ${c.metric} ${pct(c.change as number)}: halfway ${pct(midpoint(c.change as number))}`,
            )
            .join("; ")}), good when it lies wholly short of it, else measured again`,
        );
      }
      await save();
      o.log(
        `bisect step ${report.steps.length}: ${kind} (${outcome.verdict.verdict}, ${outcome.verdict.rounds} rounds)`,
      );
      if (kind !== "unknown") break;
    }
    return step.kind;
  };

  let found: Awaited<ReturnType<typeof bisectSearch>>;
  try {
    found = await bisectSearch(n, measure);
  } catch (e) {
    // what was measured stays: the steps so far, and why the next one failed
    report.outcome = "failed";
    report.notes.push(`step ${report.steps.length} failed: ${(e as Error).message}`);
    await save();
    throw e;
  }
  report.outcome = found.outcome;
  if (found.skipped.length) {
    report.skipped = found.skipped.map((i) => commits[i] as Commit);
    report.notes.push(
      `${found.skipped.length} commit(s) did not build and were gone round (their neighbours measured instead): ${report.skipped.map((c) => c.commit.slice(0, 10)).join(", ")}; each step's skip_reason names its build log`,
    );
  }
  if (found.outcome === "found") {
    report.first_bad = commits[found.firstBad] as Commit;
    report.last_good = commits[found.lastGood] as Commit;
  } else if (found.outcome !== "no-regression") {
    // not an answer: the range the first bad commit lies in, under names that say so
    report.open_range = {
      after: commits[found.lastGood] as Commit,
      through: commits[found.firstBad] as Commit,
      candidates: found.firstBad - found.lastGood,
    };
    if (found.outcome === "not-confirmed")
      report.unconfirmed_candidate = {
        candidate: commits[found.firstBad] as Commit,
        against: commits[found.lastGood] as Commit,
      };
  }
  report.notes.push(
    `error rate: at most ${measurements} measurements ((2 + ⌈log2 ${n}⌉) steps × (1 + ${remeasure} re-measure)), each judged at ${(perStep * 100).toFixed(2)}% confidence, so the chance that any decided step is wrong is at most ${((1 - confidence) * 100).toFixed(0)}% (Bonferroni; a step decides "bad" only when a regression beyond the tolerance is shown, "good" only when its interval rules one out)`,
    `every step compares the candidate against the good commit on this machine, both sides prepared alike; the last step compares the first bad commit against its last good neighbour directly (the confirmation)`,
  );
  if (found.outcome === "inconclusive" && found.onlySkipped)
    report.notes.push(
      `only commits that do not build lie between ${(commits[found.lastGood] as Commit).commit.slice(0, 10)} (good) and ${(commits[found.firstBad] as Commit).commit.slice(0, 10)} (bad): the first bad commit is one of those ${found.firstBad - found.lastGood}, as git bisect says when only skipped commits are left`,
    );
  else if (found.outcome === "inconclusive")
    report.notes.push(
      `stopped undecided at ${(commits[found.at] as Commit).commit.slice(0, 10)} after ${1 + remeasure} measurement(s): the first bad commit is one of the ${found.firstBad - found.lastGood} after ${(commits[found.lastGood] as Commit).commit.slice(0, 10)} up to ${(commits[found.firstBad] as Commit).commit.slice(0, 10)}; more rounds (--rounds) or a larger tolerance would decide it`,
    );
  if (found.outcome === "not-confirmed")
    report.notes.push(
      `the first bad commit the search found did not regress against its last good neighbour: the change may be spread over several commits, or one of the earlier steps erred`,
    );
  await save();
  o.log(
    `bisect: ${report.outcome}${report.first_bad ? ` — first bad ${report.first_bad.commit.slice(0, 10)} ${report.first_bad.subject}` : ""}; report: ${markdownPath}`,
  );
  return {
    report,
    dir,
    jsonPath,
    markdownPath,
    exitCode: report.outcome === "found" ? EXIT.regression : EXIT.ok,
  };
}

/**
 * bisect --metric: the one metric every step judges, at --tolerance's value for it, else the spec's
 * own, else the default; refused naming --metric when no workload of the spec provides it.
 */
function metricOverride(
  current: LoadedSpec,
  metric: string,
  tolerance: Record<string, number> | undefined,
): Record<string, unknown> {
  const own = current.spec.workloads.map((w) => w.judge[metric]?.tolerance).find((t) => t !== undefined);
  const t = tolerance?.[metric] ?? tolerance?.["*"] ?? own ?? DEFAULT_TOLERANCE;
  const costs = kindOf(current.spec.target.kind).costMetrics ?? [];
  const provided = new Set(
    current.spec.workloads.flatMap((w) => {
      const d = driverOf(w.driver);
      return [...Object.keys(d.metrics(w)), ...(d.operations(w) ? costs : [])];
    }),
  );
  if (!provided.has(metric))
    throw new InputError(
      `tiperf bisect: --metric ${metric} is not a metric of ${current.path}'s workloads on target kind ${current.spec.target.kind} (its metrics: ${[...provided].join(", ")})`,
    );
  return { [metric]: { tolerance: `${Number((t * 100).toFixed(4))}%` } };
}
