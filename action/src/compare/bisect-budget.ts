// A bisect's budgets: its error rate shared out over every measurement the search may take
// (Bonferroni), and the time one step may spend looking again until it decides.
import { searchRounds } from "./bisection.ts";

/** The most measurements a search over `commits` candidates can take (each with its re-measures). */
export function maxMeasurements(commits: number, remeasure: number, width = 1): number {
  // the check of bad against good, the search rounds of `width` candidates, the confirmation
  return (2 + searchRounds(commits, width) * width) * (1 + remeasure);
}

/**
 * How many looks a step may take within its budget: each look measures afresh with twice the
 * rounds of the one before, so k looks cost (2^k − 1) × the first's `first` seconds; at least one,
 * at most `most` (each look is one more measurement the error budget shares out).
 */
export function looksWithin(budget: number, first: number, most = 6): number {
  if (!(first > 0) || !(budget > 0)) return 1;
  return Math.max(1, Math.min(most, Math.floor(Math.log2(budget / first + 1))));
}

/**
 * Whether a step's next look fits what its budget has left: the next look has twice the rounds of
 * the last, so it is taken to last twice as long as the last did (setup included).
 */
export function nextLookFits(budget: number, spent: number, lastSeconds: number): boolean {
  return spent + 2 * lastSeconds <= budget;
}

/**
 * Each measurement's confidence, so that over the whole search the chance that any decided step is
 * wrong stays within 1 − `familyConfidence` (Bonferroni over every measurement it may take): a
 * wrong step needs its interval to miss the true change.
 */
export function stepConfidence(familyConfidence: number, measurements: number): number {
  return 1 - (1 - familyConfidence) / measurements;
}
