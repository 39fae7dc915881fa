// What one bisect step compares: the candidate against the good commit (a config step's spec at
// two refs, or a source step's two builds), with the rounds of each look and the one metric a
// bisect --metric judges.

import { relative, resolve } from "node:path";
import {
  type BisectReport,
  type BisectStep,
  midpoint,
  type StepCell,
  stepCellKey,
} from "../../compare/bisection.ts";
import { driverOf } from "../../drivers/registry.ts";
import { InputError } from "../../errors.ts";
import { pct } from "../../report/rows.ts";
import type { LoadedSpec } from "../../specfile/load.ts";
import { type CompareOverrides, composedSpec, narrowSpec, prepareSpec } from "../../specfile/prepare.ts";
import { DEFAULT_TOLERANCE } from "../../specfile/schema.ts";
import { kindOf } from "../../targets/registry.ts";
import { type Commit, looksRule, type Range } from "./range.ts";

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

/** A source bisect's step spec: the spec as given, its variants the two commits' builds (a new value). */
export function sourceStep(
  specFile: string,
  plain: LoadedSpec,
  against: { commit: string; subject?: string },
  candidate: { commit: string; subject?: string },
): LoadedSpec {
  const raw = structuredClone(plain.raw);
  raw.variants = {
    base: { target: { source: { ref: against.commit } } },
    head: { target: { source: { ref: candidate.commit } } },
  };
  raw.compare = { ...(raw.compare as object), base: "base", head: "head" };
  return composedSpec(
    raw,
    `${specFile} (${against.commit.slice(0, 10)} vs ${candidate.commit.slice(0, 10)})`,
    specFile,
  );
}

/**
 * bisect --metric: the one metric every step judges, at --tolerance's value for it, else the spec's
 * own, else the default; refused naming --metric when no workload of the spec provides it.
 */
export function metricOverride(
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

type Regressed = BisectStep["attempts"][number]["cells"];

/**
 * What the check's regressed cells make of the search: the cells every later step judges, each
 * one's change at the bad end (its yardstick), the report's cells and the note saying how a step
 * is answered.
 */
export function watchOf(regressed: Regressed): {
  watched: StepCell[];
  badEnd: Map<string, number>;
  cells: BisectReport["cells"];
  note: string;
} {
  const watched = regressed.map((c) => ({ workload: c.workload, threads: c.threads, metric: c.metric }));
  const badEnd = new Map<string, number>();
  for (const c of regressed) if (c.change !== null) badEnd.set(stepCellKey(c), c.change);
  const cells = regressed.map((c) => ({
    workload: c.workload,
    threads: c.threads,
    metric: c.metric,
    ...(c.change !== null ? { bad_change: c.change } : {}),
  }));
  const halfway = regressed
    .filter((c) => c.change !== null)
    .map(
      (c) =>
        `${c.workload} threads=${c.threads} ${c.metric} ${pct(c.change as number)}: halfway ${pct(midpoint(c.change as number))}`,
    )
    .join("; ");
  const note = `each later step asks whether its commit is like the good end or the bad end: bad when its interval lies wholly past halfway (log scale) to the bad end's change (${halfway}), good when it lies wholly short of it, else measured again`;
  return { watched, badEnd, cells, note };
}

/** What of a search's options a step's spec takes. */
export interface StepOptions {
  spec: string;
  compare?: CompareOverrides;
  tolerance?: Record<string, number>;
  profile?: string;
}

/** A step's spec: `against` as base, `candidate` as head, narrowed to the watched cells. */
export async function composeStep(
  o: StepOptions,
  r: Range,
  { candidate, against, attempt }: { candidate: Commit; against: Commit; attempt: number },
  watched: StepCell[] | undefined,
  judgedMetrics: ReturnType<typeof metricOverride> | undefined,
): Promise<LoadedSpec> {
  // max_rounds with the rounds: a re-measure's rounds may pass the spec's own max_rounds
  // compare.looks: the step's own looks stop where the step budget would be passed
  const budget = looksRule(r) && r.stepBudget !== undefined ? { budget: `${Math.floor(r.stepBudget)}s` } : {};
  const known = remeasureCompare(
    { ...o.compare, ...budget, confidence: r.perStep },
    r.current.spec.compare,
    attempt,
  );
  const tolerance = o.tolerance ? { tolerance: o.tolerance, toleranceFrom: "--tolerance" } : {};
  const composed =
    r.mode === "config"
      ? await prepareSpec({
          spec: relative(r.repo, resolve(o.spec)),
          cwd: r.repo,
          baseRef: against.commit,
          headRef: candidate.commit,
          compare: known,
          ...tolerance,
        })
      : sourceStep(
          o.spec,
          await prepareSpec({ spec: o.spec, compare: known, ...tolerance }),
          against,
          candidate,
        );
  const cells = watched
    ? [...new Map(watched.map((c) => [`${c.workload}\u0000${c.threads}`, c])).values()]
    : r.only;
  const step = await narrowSpec(composed, cells, { confirm: 0, profiles: 0 }, judgedMetrics);
  return o.profile ? { ...step, profile: o.profile } : step;
}
