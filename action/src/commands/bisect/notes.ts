// The closing notes of a bisect: its error rate, how its steps compared and looked again, and
// why the search stopped where it did.
import { type BisectReport, type bisectSearch, roundWaits, searchRounds } from "../../compare/bisection.ts";
import { type Commit, looksRule, type Range } from "./range.ts";

type Found = Awaited<ReturnType<typeof bisectSearch>>;

/** Rounds against a halving search's, and the wait on `width` runners against this machine's. */
function roundsNote(report: BisectReport, width: number, rounds: number, spread: boolean): string {
  const { alone, atOnce } = roundWaits(report.steps);
  if (spread)
    return `${width} candidates a round, one per runner: ${rounds} rounds of measurement where a halving search takes up to ${report.halving_rounds}; each round's steps ran at once, each on its own runner (perf-bisect.yml's round jobs): ${Math.round(atOnce)} s of build and benchmark, the longest step of each round, where one runner would have taken ${Math.round(alone)} s`;
  return `${width} candidates a round, one per runner: ${rounds} rounds of measurement where a halving search takes up to ${report.halving_rounds}; here a round's steps ran one after another (${Math.round(alone)} s of build and benchmark), on ${width} runners each round lasts as long as its longest step (${Math.round(atOnce)} s)`;
}

/** How many looks the last step at commit i took, and why it took no more. */
function looksAt(report: BisectReport, r: Range, i: number): string {
  const commit = (r.commits[i] as Commit).commit;
  const step = report.steps.findLast((s) => s.candidate.commit === commit);
  const n = step?.attempts.length ?? 0;
  const open = step?.attempts
    .at(-1)
    ?.cells.find((c) => c.verdict === "inconclusive" && c.looks !== undefined);
  if (report.remeasure === 0 && open)
    return `its comparison's looks (${open.reason ?? `${open.looks} look(s)`})`;
  const rounds = step?.attempts.map((a) => a.rounds).join(", ");
  const why = step?.budget_stop ?? `the most the error budget counted (${1 + report.remeasure})`;
  return `${n} look(s) of ${rounds} rounds (${why})`;
}

/** The error rate, how steps compare, and why the search stopped where it did. */
export function closingNotes(
  report: BisectReport,
  r: Range,
  width: number,
  found: Found,
  spread = false,
): string[] {
  const n = r.commits.length - 1;
  const short = (i: number) => (r.commits[i] as Commit).commit.slice(0, 10);
  const notes = [
    `error rate: at most ${r.measurements} measurements ((2 + ${searchRounds(n, width)} rounds × ${width} candidate(s)) steps × (1 + ${report.remeasure} re-measure)), each judged at ${(r.perStep * 100).toFixed(2)}% confidence, so the chance that any decided step is wrong is at most ${((1 - report.confidence) * 100).toFixed(0)}% (Bonferroni; a step decides "bad" or "good" only when its interval lies wholly on one side of what it is asked: beyond the tolerance for the check, past or short of halfway to the bad end's change for every later step)`,
    `every step compares the candidate against the good commit on this machine, both sides prepared alike; the last step compares the first bad commit against its last good neighbour directly (the confirmation)`,
  ];
  if (width > 1) notes.push(roundsNote(report, width, found.rounds, spread));
  const looks = r.current.variants?.compare.looks ?? r.current.spec.compare?.looks ?? 1;
  if (looksRule(r) && report.remeasure === 0)
    notes.push(
      `each step looked again by the check's rule (compare.looks ${looks}): an undecided cell got new blocks of fresh server pairs${report.step_budget_seconds !== undefined ? ` while the step budget (${Math.round(report.step_budget_seconds)} s) lasted` : ""}, each step's error rate spent over its looks`,
    );
  else if (report.step_budget_seconds !== undefined)
    notes.push(
      `each step had ${Math.round(report.step_budget_seconds)} s (its budget): an undecided step measured again with twice the rounds while the next look fit, up to ${1 + report.remeasure} look(s), every one counted in the error rate above`,
    );
  if (found.outcome === "inconclusive" && found.onlySkipped)
    notes.push(
      `only commits that do not build lie between ${short(found.lastGood)} (good) and ${short(found.firstBad)} (bad): the first bad commit is one of those ${found.firstBad - found.lastGood}, as git bisect says when only skipped commits are left`,
    );
  else if (found.outcome === "inconclusive")
    notes.push(
      `stopped undecided at ${short(found.at)} after ${looksAt(report, r, found.at)}: the first bad commit is one of the ${found.firstBad - found.lastGood} after ${short(found.lastGood)} up to ${short(found.firstBad)}; ${report.step_budget_seconds === undefined ? "a step budget (--budget, each step's looks within it), more rounds (--rounds)" : "a larger step budget (--budget), more rounds (--rounds)"} or a larger tolerance would decide it`,
    );
  if (found.outcome === "not-confirmed")
    notes.push(
      `the first bad commit the search found did not regress against its last good neighbour: the change may be spread over several commits, or one of the earlier steps erred`,
    );
  return notes;
}
