import type { MetricRule } from "../specfile/schema.ts";
import { type LogShift, normalQuantile, tQuantile } from "./stats.ts";

export type CellVerdictKind = "regression" | "improvement" | "unchanged" | "inconclusive";
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
  /** Mean of the samples, in the metric's unit. */
  base: number | null;
  head: number | null;
  /** Relative change head/base − 1 (−0.05 = 5% lower), from the mean log ratio. */
  change: number | null;
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
  reason?: string;
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * Judges one cell × metric. The interval is a t interval on the log scale at the per-cell level
 * `alphaPerCell` (Bonferroni share of the family's error rate). With tolerance τ:
 * regression when the whole interval lies beyond τ in the worse direction, improvement when it
 * lies beyond τ in the better one, unchanged when it lies within ±τ, inconclusive otherwise.
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
  else if (lo >= down && hi <= up) verdict = "unchanged";
  else verdict = "inconclusive";
  // One-sided detection of a worse shift at the same per-cell level, with MDE_POWER.
  const threshold = worseSign < 0 ? -down : up;
  const mdeLog = threshold + (t + normalQuantile(MDE_POWER)) * shift.se;
  return {
    ...common,
    change: round6(change),
    ci: [round6(Math.exp(lo) - 1), round6(Math.exp(hi) - 1)],
    mde: round6(Math.exp(worseSign * mdeLog) - 1),
    verdict,
  };
}

export function overallVerdict(cells: readonly CellJudgement[]): OverallVerdict {
  if (cells.some((c) => c.verdict === "regression")) return "regression";
  if (cells.length === 0 || cells.some((c) => c.verdict === "inconclusive")) return "inconclusive";
  return "pass";
}
