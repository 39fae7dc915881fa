// The exit code of every command that ends with a verdict: one rule for compare, merge, a run
// judged against a baseline and their doors.

import type { Verdict } from "../compare/verdict.ts";
import { EXIT } from "../errors.ts";

/**
 * The check's exit code from its verdict: 1 on a regression not accepted, and on an undecided cell
 * where compare.inconclusive is fail (it fails the check as a regression would); else 0.
 */
export function exitCodeOf(
  v: Verdict,
  inconclusive: "fail" | "warn" | "pass" = v.inconclusive ?? "warn",
): number {
  if (v.accepted) return EXIT.ok;
  return v.verdict === "regression" || (v.verdict === "inconclusive" && inconclusive === "fail")
    ? EXIT.regression
    : EXIT.ok;
}
