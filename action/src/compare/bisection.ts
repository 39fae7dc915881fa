// Bisection over the commits between a good and a bad one, each step a judged comparison: the
// search itself (which commit to measure next, what the answers mean) and the report it leaves.
// The measuring is the caller's (pipeline/bisect.ts); here a step is only bad, good or unknown.
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { InputError } from "../errors.ts";
import { formatIssues } from "../specfile/yaml.ts";
import { CellJudgementSchema } from "./verdict.ts";

/** What one step's comparison said of a candidate against the good commit. */
export type StepKind = "bad" | "good" | "unknown";

/** The most measurements a search over `commits` candidates can take (each with its re-measures). */
export function maxMeasurements(commits: number, remeasure: number): number {
  // the check of bad against good, ⌈log2 n⌉ halvings, the confirmation of the adjacent pair
  return (2 + Math.ceil(Math.log2(Math.max(1, commits)))) * (1 + remeasure);
}

/**
 * Each measurement's confidence, so that over the whole search the chance that any decided step is
 * wrong stays within 1 − `familyConfidence` (Bonferroni over every measurement it may take): a
 * wrong step needs its interval to miss the true change.
 */
export function stepConfidence(familyConfidence: number, measurements: number): number {
  return 1 - (1 - familyConfidence) / measurements;
}

export type SearchOutcome =
  | { outcome: "found"; lastGood: number; firstBad: number }
  | { outcome: "no-regression" }
  | { outcome: "not-confirmed"; lastGood: number; firstBad: number }
  | { outcome: "inconclusive"; lastGood: number; firstBad: number; at: number };

/**
 * Binary search over commits 0 (good) … n (bad): `measure(i, j)` judges commit i against commit j.
 * First bad against good (is there a regression at all?), then halvings against good, then the
 * adjacent pair found, bad against its last good, as the confirmation. An unknown step stops the
 * search where it stands: the first bad commit lies in (lastGood, firstBad], not guessed.
 */
export async function bisectSearch(
  n: number,
  measure: (index: number, against: number, role: "check" | "search" | "confirm") => Promise<StepKind>,
): Promise<SearchOutcome> {
  if (n < 1) throw new Error("bisectSearch: no commits between good and bad");
  const check = await measure(n, 0, "check");
  if (check === "good") return { outcome: "no-regression" };
  if (check === "unknown") return { outcome: "inconclusive", lastGood: 0, firstBad: n, at: n };
  let lo = 0;
  let hi = n;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    const kind = await measure(mid, 0, "search");
    if (kind === "unknown") return { outcome: "inconclusive", lastGood: lo, firstBad: hi, at: mid };
    if (kind === "bad") hi = mid;
    else lo = mid;
  }
  const confirm = await measure(hi, lo, "confirm");
  if (confirm === "bad") return { outcome: "found", lastGood: lo, firstBad: hi };
  if (confirm === "good") return { outcome: "not-confirmed", lastGood: lo, firstBad: hi };
  return { outcome: "inconclusive", lastGood: lo, firstBad: hi, at: hi };
}

/** The cells whose judgements decide a step (the ones that regressed between good and bad). */
export interface StepCell {
  workload: string;
  threads: number;
  metric: string;
}

type Judgement = z.output<typeof CellJudgementSchema>;

/**
 * A step's answer from its judgements of the watched cells: bad if one regressed; good if none can
 * have regressed beyond its tolerance (every interval clear of it on the worse side); else unknown.
 */
export function stepKind(cells: Judgement[], watched: StepCell[] | undefined): StepKind {
  const key = (c: StepCell) => `${c.workload}\u0000${c.threads}\u0000${c.metric}`;
  const keys = watched ? new Set(watched.map(key)) : undefined;
  const mine = cells.filter((c) => !keys || keys.has(key(c)));
  if (mine.length === 0) return "unknown";
  if (mine.some((c) => c.verdict === "regression")) return "bad";
  const clear = (c: Judgement) =>
    c.ci !== null && (c.better === "higher" ? c.ci[0] > -c.tolerance : c.ci[1] < c.tolerance);
  return mine.every(clear) ? "good" : "unknown";
}

export const BISECT_FORMAT = "tiperf.bisect";

const CommitSchema = z.strictObject({ commit: z.string(), subject: z.string() });

const AttemptSchema = z.strictObject({
  kind: z.enum(["bad", "good", "unknown"]),
  verdict: z.enum(["pass", "regression", "inconclusive"]),
  rounds: z.number().int(),
  benchmark_seconds: z.number(),
  /** The run directory of the step's comparison (its result, verdict, report and raw logs). */
  run_dir: z.string(),
  cells: z.array(CellJudgementSchema),
});

export const BisectStepSchema = z.strictObject({
  role: z.enum(["check", "search", "confirm"]),
  candidate: CommitSchema,
  against: CommitSchema,
  kind: z.enum(["bad", "good", "unknown"]),
  attempts: z.array(AttemptSchema),
  /** Seconds spent building the two sides' tidb-servers (source bisects; kept builds cost 0). */
  build_seconds: z.number().optional(),
});

export type BisectStep = z.output<typeof BisectStepSchema>;

export const BisectReportSchema = z.strictObject({
  format: z.literal(BISECT_FORMAT),
  version: z.literal(1),
  created_at: z.string(),
  spec: z.strictObject({ name: z.string(), path: z.string() }),
  /** config: the spec's target at each commit of its repository; source: tidb-server built at each. */
  mode: z.enum(["config", "source"]),
  repository: z.string(),
  good: CommitSchema,
  bad: CommitSchema,
  /** Commits after good up to bad (first-parent line): the candidates. */
  commits: z.array(CommitSchema),
  /** running: steps still under way (the file is rewritten after each); failed: a step failed (see notes). */
  outcome: z.enum(["running", "found", "no-regression", "not-confirmed", "inconclusive", "failed"]),
  first_bad: CommitSchema.optional(),
  last_good: CommitSchema.optional(),
  /** The cells that regressed between good and bad, which every later step judged. */
  cells: z.array(z.strictObject({ workload: z.string(), threads: z.number().int(), metric: z.string() })),
  confidence: z.number(),
  step_confidence: z.number(),
  max_measurements: z.number().int(),
  remeasure: z.number().int(),
  steps: z.array(BisectStepSchema),
  benchmark_seconds: z.number(),
  build_seconds: z.number(),
  notes: z.array(z.string()),
});

export type BisectReport = z.output<typeof BisectReportSchema>;

/** A bisect report, validated; undefined when the file is not one (the alarm tries each kind). */
export async function readBisect(file: string): Promise<BisectReport | undefined> {
  let doc: unknown;
  try {
    doc = JSON.parse(await readFile(file, "utf8"));
  } catch {
    return undefined;
  }
  if ((doc as { format?: unknown } | null)?.format !== BISECT_FORMAT) return undefined;
  const parsed = BisectReportSchema.safeParse(doc);
  if (!parsed.success) throw new InputError(formatIssues(file, parsed.error.issues));
  return parsed.data;
}
