// Bisection over the commits between a good and a bad one, each step a judged comparison: the
// search itself (which commit to measure next, what the answers mean) and the report it leaves.
// The measuring is the caller's (commands/bisect/index.ts); here a step is only bad, good or unknown.
import { z } from "zod";
import { CellJudgementSchema } from "./verdict.ts";

/** What one step's comparison said of a candidate against the good commit. */
export type StepMark = "bad" | "good" | "unknown";

/**
 * The search rounds over `commits` candidates with `width` of them measured at once (one per
 * runner): each round leaves at most ⌈range / (width + 1)⌉ of the range (halving: width 1).
 */
export function searchRounds(commits: number, width = 1): number {
  let range = Math.max(1, commits);
  let rounds = 0;
  while (range > 1) {
    range = Math.ceil(range / (width + 1));
    rounds++;
  }
  return rounds;
}

export type SearchOutcome =
  | { outcome: "found"; lastGood: number; firstBad: number }
  | { outcome: "no-regression" }
  | { outcome: "not-confirmed"; lastGood: number; firstBad: number }
  | { outcome: "inconclusive"; lastGood: number; firstBad: number; at: number; onlySkipped?: boolean };

/** A commit that could not be measured (it does not build): the search goes round it, as `git bisect skip`. */
export type StepOutcome = StepMark | "skip";

/**
 * The commit to measure between lo and hi (exclusive): the middle, else the nearest to it that was
 * not skipped (one after, one before, two after, …); none when every commit between was skipped.
 */
export function nextCandidate(lo: number, hi: number, skipped: ReadonlySet<number>): number | undefined {
  return nearest(Math.floor((lo + hi) / 2), lo, hi, skipped);
}

function nearest(at: number, lo: number, hi: number, taken: ReadonlySet<number>): number | undefined {
  for (let d = 0; d < hi - lo; d++)
    for (const i of d === 0 ? [at] : [at + d, at - d]) if (i > lo && i < hi && !taken.has(i)) return i;
  return undefined;
}

/**
 * The `width` commits to measure at once between lo and hi (exclusive), splitting the range into
 * width + 1 near-equal parts, each the nearest commit not skipped; every commit between when
 * there are no more than `width` (width 1: nextCandidate's middle).
 */
export function nextCandidates(
  lo: number,
  hi: number,
  skipped: ReadonlySet<number>,
  width: number,
): number[] {
  const taken = new Set(skipped);
  const out: number[] = [];
  for (let k = 1; k <= width; k++) {
    const i = nearest(lo + Math.floor((k * (hi - lo)) / (width + 1)), lo, hi, taken);
    if (i === undefined) break;
    taken.add(i);
    out.push(i);
  }
  return out.sort((a, b) => a - b);
}

/** Where a step stands in the search: its round, and which of the round's runners measured it (1…width). */
export interface Slot {
  round: number;
  runner: number;
}

export type Measure = (
  index: number,
  against: number,
  role: "check" | "search" | "confirm",
  slot: Slot,
) => Promise<StepOutcome>;

/**
 * What a round's answers leave: the first bad candidate is the new bad end, the last good one
 * before it the new good end; an unknown between them stops the search there.
 */
function narrowed(
  lo: number,
  hi: number,
  answers: [number, StepOutcome][],
): { lo: number; hi: number; unknown?: number } {
  const bad = answers.find(([, k]) => k === "bad")?.[0] ?? hi;
  const good = answers.filter(([i, k]) => k === "good" && i < bad).at(-1)?.[0] ?? lo;
  const unknown = answers.find(([i, k]) => k === "unknown" && i > good && i < bad)?.[0];
  return { lo: good, hi: bad, ...(unknown !== undefined ? { unknown } : {}) };
}

/**
 * Search over commits 0 (good) … n (bad): `measure(i, j)` judges commit i against commit j.
 * First bad against good (is there a regression at all?), then rounds of `width` candidates
 * against good (width 1: halvings; more: one per runner, all of a round at once), then the
 * adjacent pair found, bad against its last good, as the confirmation. An unknown step inside
 * the range stops the search where it stands: the first bad commit lies in (lastGood, firstBad],
 * not guessed. A skipped commit (it does not build) is gone round; when only skipped commits lie
 * between the last good and the first bad one measured, the range is reported open (any of them
 * may be the first bad).
 */
export async function bisectSearch(
  n: number,
  measure: Measure,
  width = 1,
): Promise<SearchOutcome & { skipped: number[]; rounds: number }> {
  if (n < 1) throw new Error("bisectSearch: no commits between good and bad");
  if (!Number.isInteger(width) || width < 1) throw new Error(`bisectSearch: width ${width} is not 1 or more`);
  const skipped = new Set<number>();
  let round = 1;
  const done = (o: SearchOutcome) => ({ ...o, skipped: [...skipped].sort((a, b) => a - b), rounds: round });
  const check = await measure(n, 0, "check", { round, runner: 1 });
  if (check === "skip") throw new Error("bisectSearch: the bad commit itself could not be measured");
  if (check === "good") return done({ outcome: "no-regression" });
  if (check === "unknown") return done({ outcome: "inconclusive", lastGood: 0, firstBad: n, at: n });
  let lo = 0;
  let hi = n;
  while (hi - lo > 1) {
    const candidates = nextCandidates(lo, hi, skipped, width);
    if (candidates.length === 0)
      return done({ outcome: "inconclusive", lastGood: lo, firstBad: hi, at: hi, onlySkipped: true });
    round++;
    const marks = await Promise.all(
      candidates.map((i, k) => measure(i, 0, "search", { round, runner: k + 1 })),
    );
    const answers = candidates.map((i, k) => [i, marks[k]] as [number, StepOutcome]);
    for (const [i, mark] of answers) if (mark === "skip") skipped.add(i);
    const next = narrowed(lo, hi, answers);
    if (next.unknown !== undefined)
      return done({ outcome: "inconclusive", lastGood: next.lo, firstBad: next.hi, at: next.unknown });
    ({ lo, hi } = next);
  }
  round++;
  const confirm = await measure(hi, lo, "confirm", { round, runner: 1 });
  if (confirm === "bad") return done({ outcome: "found", lastGood: lo, firstBad: hi });
  if (confirm === "good") return done({ outcome: "not-confirmed", lastGood: lo, firstBad: hi });
  return done({ outcome: "inconclusive", lastGood: lo, firstBad: hi, at: hi });
}

/** The cells whose judgements decide a step (the ones that regressed between good and bad). */
export interface StepCell {
  workload: string;
  threads: number;
  metric: string;
}

type Judgement = z.output<typeof CellJudgementSchema>;

/**
 * A step's answer from its judgements of the watched cells. Once the bad end's change of each
 * watched cell is known (`badEnd`, from the check of bad against good), the question is the one a
 * bisect needs — is this commit like the good end or like the bad end — answered at the midpoint
 * of the two on the log scale: bad when an interval lies wholly past it towards the bad end, good
 * when every interval lies wholly short of it, else unknown. Without it (the check itself): bad if
 * one regressed; good if none can have regressed beyond its tolerance; else unknown.
 */
export function stepMark(
  cells: Judgement[],
  watched: StepCell[] | undefined,
  badEnd?: ReadonlyMap<string, number>,
): StepMark {
  const keys = watched ? new Set(watched.map(stepCellKey)) : undefined;
  const mine = cells.filter((c) => !keys || keys.has(stepCellKey(c)));
  if (mine.length === 0) return "unknown";
  if (badEnd && mine.every((c) => badEnd.has(stepCellKey(c)))) {
    const sides = mine.map((c) => {
      const mid = midpoint(badEnd.get(stepCellKey(c)) as number);
      if (!c.ci) return "unknown";
      // towards the bad end: down for higher-is-better metrics, up for lower-is-better ones
      const [past, short] =
        c.better === "higher" ? [c.ci[1] < mid, c.ci[0] > mid] : [c.ci[0] > mid, c.ci[1] < mid];
      return past ? "bad" : short ? "good" : "unknown";
    });
    if (sides.includes("bad")) return "bad";
    return sides.every((s) => s === "good") ? "good" : "unknown";
  }
  if (mine.some((c) => c.verdict === "regression")) return "bad";
  const clear = (c: Judgement) =>
    c.ci !== null && (c.better === "higher" ? c.ci[0] > -c.tolerance : c.ci[1] < c.tolerance);
  return mine.every(clear) ? "good" : "unknown";
}

/** Halfway between no change and `change` on the log scale (−69.8% → −45.0%). */
export const midpoint = (change: number) => Math.sqrt(1 + change) - 1;

/** The key stepKind's badEnd uses for a cell and metric. */
export const stepCellKey = (c: StepCell) => `${c.workload}\u0000${c.threads}\u0000${c.metric}`;

export const BISECT_FORMAT = "tiperf.bisect";

const CommitSchema = z.strictObject({ commit: z.string(), subject: z.string() });

const AttemptSchema = z.strictObject({
  mark: z.enum(["bad", "good", "unknown"]),
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
  /** skip: the candidate did not build (no attempts; `skip_reason` says why), gone round as git bisect skip does. */
  mark: z.enum(["bad", "good", "unknown", "skip"]),
  skip_reason: z.string().optional(),
  attempts: z.array(AttemptSchema),
  /** Seconds spent building the two sides' tidb-servers (source bisects; kept builds cost 0). */
  build_seconds: z.number().optional(),
  /** The search round it belongs to (1: the check), and which of the round's runners measured it. */
  round: z.number().int().positive().optional(),
  runner: z.number().int().positive().optional(),
  /** Set when the step stopped undecided because its next look would not fit the step's budget. */
  budget_stop: z.string().optional(),
});

export type BisectStep = z.output<typeof BisectStepSchema>;

/**
 * Where the first bad commit lies when the search could not name it: some commit after `after`
 * up to and including `through` (`candidates` of them). Never read as an answer: only a found and
 * confirmed search has `first_bad`/`last_good`.
 */
const OpenRangeSchema = z.strictObject({
  after: CommitSchema,
  through: CommitSchema,
  candidates: z.number().int(),
});

export const BISECT_VERSION = 3;

export const BisectReportSchema = z
  .strictObject({
    format: z.literal(BISECT_FORMAT),
    /**
     * 2: first_bad/last_good only when found; an undecided or unconfirmed search has open_range.
     * 3: a step's and an attempt's `kind` is its `mark` (bad, good, unknown, skip).
     */
    version: z.literal(BISECT_VERSION),
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
    /** Only with outcome found: the first bad commit, confirmed against its last good neighbour. */
    first_bad: CommitSchema.optional(),
    last_good: CommitSchema.optional(),
    /** Only with outcome inconclusive or not-confirmed: the range the first bad commit lies in. */
    open_range: OpenRangeSchema.optional(),
    /** Only with outcome not-confirmed: the adjacent pair the halvings ended on, which its confirmation did not bear out. */
    unconfirmed_candidate: z.strictObject({ candidate: CommitSchema, against: CommitSchema }).optional(),
    /**
     * The cells that regressed between good and bad, which every later step judged, with the bad
     * end's change (each later step asks whether its commit is nearer it or no change).
     */
    cells: z.array(
      z.strictObject({
        workload: z.string(),
        threads: z.number().int(),
        metric: z.string(),
        bad_change: z.number().optional(),
      }),
    ),
    /** The metric the steps judged when bisect --metric named one (a cost per operation: cpu_ms_per_op). */
    metric: z.string().optional(),
    confidence: z.number(),
    step_confidence: z.number(),
    max_measurements: z.number().int(),
    remeasure: z.number().int(),
    /**
     * The time one step may take (compare.budget or --budget), all its looks together: an
     * undecided step measures again with twice the rounds while the next look fits it, up to
     * 1 + remeasure looks (the number the error budget counted before the search began).
     */
    step_budget_seconds: z.number().optional(),
    /** Candidates measured at once per search round, one per runner (1: halving). */
    runners: z.number().int().positive().optional(),
    /**
     * Set on one leg's part of a bisect spread over runners (perf-bisect.yml): the round and runner
     * it was, its steps only the ones it measured (none: the search gave its runner nothing that
     * round); `tiperf bisect --parts` replays every part and concludes.
     */
    part: z
      .strictObject({
        round: z.number().int().positive(),
        runner: z.number().int().positive(),
        /** --good and --bad as the leg was given them (its good and bad: the commits they named then). */
        refs: z.strictObject({ good: z.string(), bad: z.string() }).optional(),
      })
      .optional(),
    /** Rounds of measurement the search took (each round's steps at once on `runners` runners), and a halving search's most. */
    rounds: z.number().int().optional(),
    halving_rounds: z.number().int().optional(),
    steps: z.array(BisectStepSchema),
    /** Candidates that did not build, gone round (the search measured their neighbours). */
    skipped: z.array(CommitSchema).optional(),
    benchmark_seconds: z.number(),
    build_seconds: z.number(),
    notes: z.array(z.string()),
  })
  .superRefine((r, ctx) => {
    // the fields say what the search found and nothing more: a tool reading first_bad is never
    // handed the bad end of a range
    const found = r.outcome === "found";
    const open = r.outcome === "inconclusive" || r.outcome === "not-confirmed";
    const wrong = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (found !== (r.first_bad !== undefined))
      wrong("first_bad", `first_bad is set exactly when outcome is found (outcome ${r.outcome})`);
    if (found !== (r.last_good !== undefined))
      wrong("last_good", `last_good is set exactly when outcome is found (outcome ${r.outcome})`);
    if (open !== (r.open_range !== undefined))
      wrong(
        "open_range",
        `open_range is set exactly when outcome is inconclusive or not-confirmed (outcome ${r.outcome})`,
      );
    if ((r.outcome === "not-confirmed") !== (r.unconfirmed_candidate !== undefined))
      wrong(
        "unconfirmed_candidate",
        `unconfirmed_candidate is set exactly when outcome is not-confirmed (outcome ${r.outcome})`,
      );
  });

export type BisectReport = z.output<typeof BisectReportSchema>;

/**
 * The seconds a bisect's steps took (builds and benchmark): one after another, and with each
 * round's steps at once on its runners (each round as long as its longest step).
 */
export function roundWaits(steps: BisectStep[]): { alone: number; atOnce: number } {
  const seconds = (s: BisectStep) =>
    (s.build_seconds ?? 0) + s.attempts.reduce((sum, a) => sum + a.benchmark_seconds, 0);
  const longest = new Map<number, number>();
  for (const s of steps) longest.set(s.round ?? 0, Math.max(longest.get(s.round ?? 0) ?? 0, seconds(s)));
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return { alone: sum(steps.map(seconds)), atOnce: sum([...longest.values()]) };
}
