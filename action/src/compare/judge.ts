import type { MetricRule } from "../specfile/schema.ts";
import { type LogShift, normalQuantile, TRIM, tQuantile } from "./stats.ts";

/**
 * What a cell × metric judgement says: worse or better beyond the tolerance; `within`, a change
 * whose interval excludes zero yet lies within ±tolerance (said with its size, never as no change);
 * `unchanged`, an interval within ±tolerance that includes zero; inconclusive otherwise.
 */
export const CELL_VERDICTS = ["regression", "improvement", "within", "unchanged", "inconclusive"] as const;
export type CellVerdictKind = (typeof CELL_VERDICTS)[number];
export type OverallVerdict = "pass" | "regression" | "inconclusive";

/** The power at which the minimum detectable effect is stated. */
export const MDE_POWER = 0.8;

export interface CellJudgement {
  /** The variant judged against the control (compare runs; absent in diffs of stored results). */
  variant?: string;
  workload: string;
  threads: number;
  metric: string;
  better: "higher" | "lower";
  tolerance: number;
  /** The estimator's centre of each side (geometric means, see samples.ts centres): Δ = head/base − 1. */
  base: number | null;
  head: number | null;
  /** Relative change head/base − 1 (−0.05 = 5% lower), from the mean log ratio. */
  change: number | null;
  /**
   * Inconclusive cells: the samples (rounds; blocks for block-t) that, at this run's noise, would
   * show an unchanged head within ±tolerance and flag a change of twice the tolerance, each with
   * 80% power; absent when more than NEEDED_CAP.
   */
  needed?: number;
  /** Simultaneous confidence interval of `change` (corrected for every cell judged). */
  ci: [number, number] | null;
  /**
   * Minimum detectable effect: the smallest change in the worse direction that this run's noise
   * would flag as a regression with 80% power (includes the tolerance; signed like `change`).
   */
  mde: number | null;
  verdict: CellVerdictKind;
  /** Samples per variant (rounds, or interval batches for stored results; blocks for block-t). */
  n: number;
  method: "paired-t" | "welch-t" | "block-t";
  /** block-t: blocks (server instances) judged, and the share of the variance between them. */
  blocks?: number;
  between_share?: number;
  winsorized?: number;
  /**
   * compare.looks > 1: the look that decided it (1: the design's blocks), or, undecided, the looks
   * it took.
   */
  looks?: number;
  reason?: string;
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * Judges one cell × metric. The interval is a t interval on the log scale at the per-cell level
 * `alphaPerCell` (Bonferroni share of the family's error rate). With tolerance τ:
 * regression when the whole interval lies beyond τ in the worse direction, improvement when it
 * lies beyond τ in the better one, within when it lies within ±τ but excludes zero (a change,
 * smaller than the tolerance), unchanged when it lies within ±τ and includes zero, inconclusive
 * otherwise.
 */
export function judgeShift(
  id: { workload: string; threads: number; metric: string },
  rule: MetricRule,
  shift: LogShift,
  means: { base: number; head: number },
  alphaPerCell: number,
  method: CellJudgement["method"],
): CellJudgement {
  const tol = rule.tolerance;
  const worseSign = rule.better === "higher" ? -1 : 1;
  const common = {
    ...id,
    better: rule.better,
    tolerance: tol,
    base: means.base,
    head: means.head,
    n: shift.n,
    method,
  };
  const change = Math.exp(shift.estimate) - 1;
  if (shift.n < 2 || !Number.isFinite(shift.se) || !Number.isFinite(shift.df) || shift.df <= 0) {
    return {
      ...common,
      change: round6(change),
      ci: null,
      mde: null,
      verdict: "inconclusive",
      reason: "fewer than 2 samples per variant: no estimate of the noise",
    };
  }
  const t = tQuantile(1 - alphaPerCell / 2, shift.df);
  const lo = shift.estimate - t * shift.se;
  const hi = shift.estimate + t * shift.se;
  const down = Math.log(1 - tol);
  const up = Math.log(1 + tol);
  const [worseLo, worseHi] = worseSign < 0 ? [-Infinity, down] : [up, Infinity];
  const [betterLo, betterHi] = worseSign < 0 ? [up, Infinity] : [-Infinity, down];
  let verdict: CellVerdictKind;
  if (lo >= worseLo && hi < worseHi) verdict = "regression";
  else if (lo > betterLo && hi <= betterHi) verdict = "improvement";
  else if (lo >= down && hi <= up) verdict = lo > 0 || hi < 0 ? "within" : "unchanged";
  else verdict = "inconclusive";
  // One-sided detection of a worse shift at the same per-cell level, with MDE_POWER.
  const threshold = worseSign < 0 ? -down : up;
  const mdeLog = threshold + (t + normalQuantile(MDE_POWER)) * shift.se;
  const needed = verdict === "inconclusive" ? samplesNeeded(shift, tol, alphaPerCell, method) : undefined;
  return {
    ...common,
    change: round6(change),
    ci: [round6(Math.exp(lo) - 1), round6(Math.exp(hi) - 1)],
    mde: round6(Math.exp(worseSign * mdeLog) - 1),
    verdict,
    ...(needed !== undefined ? { needed } : {}),
  };
}

/** More samples than this are not suggested: the noise, not the count, is then what to fix. */
export const NEEDED_CAP = 200;

/**
 * How many samples (rounds; blocks for block-t) at this run's noise would make (t + z₈₀)·se no
 * larger than log(1 + tolerance): an unchanged head's interval then lies within ±tolerance, and a
 * change of twice the tolerance is flagged, each 80% of the time. The noise per sample is this
 * run's (se·√n); the degrees of freedom follow the count as the method's do.
 */
export function samplesNeeded(
  shift: LogShift,
  tolerance: number,
  alphaPerCell: number,
  method: CellJudgement["method"],
): number | undefined {
  if (tolerance <= 0 || !Number.isFinite(shift.se) || shift.n < 2) return undefined;
  const perSample = shift.se * Math.sqrt(shift.n);
  const target = Math.log(1 + tolerance);
  const z = normalQuantile(MDE_POWER);
  for (let n = Math.max(2, shift.n); n <= NEEDED_CAP; n++) {
    const df =
      method === "welch-t"
        ? Math.max(1, (shift.df * n) / shift.n)
        : method === "paired-t"
          ? n - 2 * Math.floor(TRIM * n) - 1
          : n - 1;
    if ((tQuantile(1 - alphaPerCell / 2, df) + z) * (perSample / Math.sqrt(n)) <= target) return n;
  }
  return undefined;
}

export function overallVerdict(cells: readonly CellJudgement[]): OverallVerdict {
  if (cells.some((c) => c.verdict === "regression")) return "regression";
  if (cells.length === 0 || cells.some((c) => c.verdict === "inconclusive")) return "inconclusive";
  return "pass";
}
