// The range a bisect walks: the repository (the target's source tree or the spec's own), the
// first-parent commits after --good up to --bad, the cells watched and the error budget shared
// out over every measurement the search may take; all read and checked before anything runs.
import { randomBytes } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import { builderOf } from "../../bench/builds.ts";
import { maxMeasurements, stepConfidence } from "../../compare/bisect-budget.ts";
import type { BisectReport } from "../../compare/bisection.ts";
import { InputError } from "../../errors.ts";
import { commitAt, git } from "../../proc/git.ts";
import { type LoadedSpec, loadSpec } from "../../specfile/load.ts";
import type { CellRef, CompareOverrides } from "../../specfile/prepare.ts";
import { parseDuration } from "../../specfile/schema.ts";

/** What the range is read from: bisect's own options. */
export interface RangeOptions {
  spec: string;
  good: string;
  bad: string;
  only?: CellRef[];
  compare?: CompareOverrides;
  confidence?: number;
  remeasure?: number;
  runners?: number;
  outDir: string;
}

export interface Commit {
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

export const cellsOfSpec = (loaded: LoadedSpec): CellRef[] =>
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

/** What a bisection knows before its first step: the range, its error budget, where it writes. */
export interface Range {
  current: LoadedSpec;
  mode: BisectReport["mode"];
  repo: string;
  commits: Commit[];
  only: CellRef[];
  measurements: number;
  perStep: number;
  dir: string;
  /** Seconds one step may take, all its looks together (--budget, else the spec's compare.budget). */
  stepBudget?: number;
}

/** Checks the inputs and reads the range (--good … --bad, --only's cells), before anything runs. */
export async function rangeOf(o: RangeOptions): Promise<Range> {
  const current = await loadSpec(o.spec);
  const { mode, repo } = await repositoryOf(o.spec, current);
  const good = await commitOf(repo, o.good, "--good");
  const bad = await commitOf(repo, o.bad, "--bad");
  const commits = [good, ...(await between(repo, good, bad, ["--good", "--bad"]))];
  const measurements = maxMeasurements(commits.length - 1, o.remeasure ?? 1, o.runners ?? 1);
  const cells = cellsOfSpec(current);
  const only = o.only ?? cells;
  for (const c of only)
    if (!cells.some((x) => x.workload === c.workload && x.threads === c.threads))
      throw new InputError(
        `tiperf bisect: --only ${c.workload}:${c.threads} is not a cell of ${o.spec} (its cells: ${cells.map((x) => `${x.workload}:${x.threads}`).join(", ")})`,
      );
  const given = o.compare?.budget;
  const stepBudget = given !== undefined ? parseDuration(given) : current.spec.compare?.budget;
  const id = `bisect-${new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "")}-${randomBytes(2).toString("hex")}`;
  return {
    current,
    mode,
    repo,
    commits,
    only,
    measurements,
    perStep: stepConfidence(o.confidence ?? 0.95, measurements),
    dir: join(o.outDir, id),
    ...(stepBudget !== undefined ? { stepBudget } : {}),
  };
}

/**
 * Whether the spec looks again until decided (compare.looks > 1): then a step is one comparison
 * taking the spec's further looks (new blocks of fresh pairs for its undecided cells, the step's
 * error rate spent over them) within the step budget, as the PR check's are; otherwise an
 * undecided step is measured again with twice the rounds.
 */
export const looksRule = (r: Range) =>
  (r.current.variants?.compare.looks ?? r.current.spec.compare?.looks ?? 1) > 1;
