// A search's report as it goes: started with its range and the confidence each step gets,
// settled at the end with the answer (or the range left open) and its closing notes.
import {
  BISECT_FORMAT,
  BISECT_VERSION,
  type BisectReport,
  type bisectSearch,
  searchRounds,
} from "../../compare/bisection.ts";
import { closingNotes } from "./notes.ts";
import { type Commit, looksRule, type Range } from "./range.ts";

type Found = Awaited<ReturnType<typeof bisectSearch>>;

/** What of a search's options its report names. */
export interface ReportOptions {
  spec: string;
  confidence?: number;
  remeasure?: number;
  metric?: string;
}

/** A new search's report: its range, the confidence each step gets, no step yet. */
export function startReport(o: ReportOptions, r: Range, width: number): BisectReport {
  const n = r.commits.length - 1;
  return {
    format: BISECT_FORMAT,
    version: BISECT_VERSION,
    created_at: new Date().toISOString(),
    spec: { name: r.current.spec.name, path: o.spec },
    mode: r.mode,
    repository: r.repo,
    good: r.commits[0] as Commit,
    bad: r.commits[n] as Commit,
    commits: r.commits.slice(1),
    outcome: "running",
    cells: [],
    confidence: o.confidence ?? 0.95,
    step_confidence: r.perStep,
    max_measurements: r.measurements,
    // a spec that looks again (compare.looks) decides each step by its looks: no re-measure
    remeasure: o.remeasure ?? (looksRule(r) ? 0 : 1),
    ...(r.stepBudget !== undefined ? { step_budget_seconds: r.stepBudget } : {}),
    ...(width > 1 ? { runners: width } : {}),
    halving_rounds: 2 + searchRounds(n),
    steps: [],
    benchmark_seconds: 0,
    build_seconds: 0,
    notes: o.metric ? [`every step judged ${o.metric} (--metric), not the spec's own metrics`] : [],
    ...(o.metric ? { metric: o.metric } : {}),
  };
}

/** The search's answer in its report (or the range it leaves, under names that say so), and its notes. */
export function settleReport(
  report: BisectReport,
  r: Range,
  width: number,
  found: Found,
  spread: boolean,
): void {
  const at = (i: number) => r.commits[i] as Commit;
  report.outcome = found.outcome;
  report.rounds = found.rounds;
  if (found.skipped.length) {
    report.skipped = found.skipped.map(at);
    report.notes.push(
      `${found.skipped.length} commit(s) did not build and were gone round (their neighbours measured instead): ${report.skipped.map((c) => c.commit.slice(0, 10)).join(", ")}; each step's skip_reason names its build log`,
    );
  }
  if (found.outcome === "found") {
    report.first_bad = at(found.firstBad);
    report.last_good = at(found.lastGood);
  } else if (found.outcome !== "no-regression") {
    // not an answer: the range the first bad commit lies in, under names that say so
    report.open_range = {
      after: at(found.lastGood),
      through: at(found.firstBad),
      candidates: found.firstBad - found.lastGood,
    };
    if (found.outcome === "not-confirmed")
      report.unconfirmed_candidate = { candidate: at(found.firstBad), against: at(found.lastGood) };
  }
  report.notes.push(...closingNotes(report, r, width, found, spread));
}
