// A bisect spread over runners (perf-bisect.yml): each round is a job of K legs, one per runner.
// A leg replays the search from the steps earlier rounds' legs recorded (their parts), measures the
// one candidate the search gives its runner in its round, and leaves a part with that step; the
// last job replays every part and concludes. The search is a pure function of its steps'
// outcomes (bisectSearch), so every leg replaying the same parts asks the same questions.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { parseBisect } from "../../compare/bisect-read.ts";
import {
  type BisectReport,
  type BisectStep,
  bisectSearch,
  type Measure,
  type Slot,
  type StepOutcome,
} from "../../compare/bisection.ts";
import { EXIT, InputError } from "../../errors.ts";
import type { Commit, Range } from "./range.ts";

/** --round R --runner K: the leg of a round this process is; absent round: the concluding job. */
export interface RoundShare {
  /** The folder the earlier rounds' parts were downloaded to (searched for bisect.json files). */
  parts: string;
  round?: number;
  runner?: number;
  /** --max-rounds: the round jobs the workflow has (the conclusion tells a lost round from rounds run out). */
  maxRounds?: number;
  /** --good and --bad as given: a part records them, so later legs take its commits for the same refs. */
  refs?: { good: string; bad: string };
}

/**
 * The commits the first round's legs resolved --good and --bad to, when the parts recorded the
 * same refs: a branch that moves during the search (bad: main) stays the commit the search began on.
 */
function pinnedRefs(dir: string, good: string, bad: string): { good: string; bad: string } | undefined {
  let files: string[];
  try {
    files = reportFiles(dir);
  } catch {
    return undefined;
  }
  for (const file of files) {
    const parsed = parseBisect(JSON.parse(readFileSync(file, "utf8")));
    const refs = parsed.success ? parsed.data.part?.refs : undefined;
    if (parsed.success && refs?.good === good && refs.bad === bad)
      return { good: parsed.data.good.commit, bad: parsed.data.bad.commit };
  }
  return undefined;
}

/** A recorded step and the folder of the part that holds it (its run_dir is relative to that). */
export interface Recorded {
  step: BisectStep;
  dir: string;
}

/** Thrown when the search needs a step this process does not measure: the round (or the parts) end here. */
export class RoundDone extends Error {
  constructor(
    readonly slot: Slot,
    readonly role: BisectStep["role"],
  ) {
    super(`round ${slot.round} runner ${slot.runner} (${role}) is not measured here`);
  }
}

const key = (s: Slot) => `${s.round}/${s.runner}`;

function reportFiles(dir: string, depth = 0): string[] {
  if (depth > 6) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return reportFiles(p, depth + 1);
    return name === "bisect.json" ? [p] : [];
  });
}

/** What the parts under `dir` hold: each leg's steps by round/runner, and the rounds whose legs left a part. */
export function readParts(
  dir: string,
  expect: Pick<BisectReport, "good" | "bad" | "spec" | "runners" | "metric">,
  before = Number.POSITIVE_INFINITY,
): { steps: Map<string, Recorded>; legs: Set<string>; later: number } {
  const steps = new Map<string, Recorded>();
  const legs = new Set<string>();
  let later = 0;
  let files: string[];
  try {
    files = reportFiles(dir);
  } catch (e) {
    throw new InputError(`tiperf bisect: --parts ${dir}: ${(e as Error).message}`);
  }
  for (const file of files) {
    const parsed = parseBisect(JSON.parse(readFileSync(file, "utf8")));
    if (!parsed.success || !parsed.data.part) continue; // a concluded report, not a leg's part
    const p = parsed.data;
    const part = p.part as NonNullable<BisectReport["part"]>;
    const same =
      p.good.commit === expect.good.commit &&
      p.bad.commit === expect.bad.commit &&
      p.spec.name === expect.spec.name &&
      (p.runners ?? 1) === (expect.runners ?? 1) &&
      (p.metric ?? "") === (expect.metric ?? "");
    const what = (r: typeof expect) =>
      `${r.spec.name}, ${r.good.commit.slice(0, 10)}..${r.bad.commit.slice(0, 10)}, ${r.runners ?? 1} runner(s)${r.metric ? `, --metric ${r.metric}` : ""}`;
    if (!same)
      throw new InputError(
        `tiperf bisect: --parts: ${file} is a part of another search (${what(p)}); this one is ${what(expect)} (--runners defaults to 1: give every leg and the conclusion the same --runners, --metric and refs)`,
      );
    // a leg replays earlier rounds only (a re-run of a round finds that round's earlier parts)
    if (part.round >= before) {
      later++;
      continue;
    }
    legs.add(key(part));
    for (const step of p.steps) {
      const k = key({ round: step.round ?? 0, runner: step.runner ?? 0 });
      const had = steps.get(k);
      if (had && had.step.candidate.commit !== step.candidate.commit)
        throw new InputError(
          `tiperf bisect: --parts: round ${step.round} runner ${step.runner} recorded twice, on ${had.step.candidate.commit.slice(0, 10)} and ${step.candidate.commit.slice(0, 10)}`,
        );
      steps.set(k, { step, dir: join(file, "..") });
    }
  }
  return { steps, legs, later };
}

/** What the search does with a step: replay one recorded, measure one, or stop the round there. */
export interface Steps {
  replay(rec: Recorded, i: number, j: number, role: BisectStep["role"]): StepOutcome;
  measure: Measure;
}

/**
 * The search's measure for a leg or the concluding job: recorded steps replayed (each checked to be
 * the step the search asks for), this leg's own slot measured, and any other slot ending the round
 * — after this leg's own step, when the round has one, so that its part is complete.
 */
export function roundMeasure(share: RoundShare, recorded: Map<string, Recorded>, steps: Steps): Measure {
  let own: Promise<StepOutcome> | undefined;
  return async (i, j, role, slot) => {
    const rec = recorded.get(key(slot));
    if (rec) return steps.replay(rec, i, j, role);
    if (slot.round === share.round && slot.runner === share.runner) {
      own = steps.measure(i, j, role, slot);
      return own;
    }
    // every slot of a round is asked for at once: by the next turn this leg knows whether it has one
    await Promise.resolve();
    if (own) await own.catch(() => {});
    throw new RoundDone(slot, role);
  };
}

/** A recorded step is the step the search asks for at that slot, or the parts are of another search. */
export function checkRecorded(
  rec: Recorded,
  candidate: string,
  against: string,
  role: BisectStep["role"],
): void {
  const s = rec.step;
  if (s.candidate.commit !== candidate || s.against.commit !== against || s.role !== role)
    throw new InputError(
      `tiperf bisect: --parts: round ${s.round} runner ${s.runner} measured ${s.candidate.commit.slice(0, 10)} against ${s.against.commit.slice(0, 10)} (${s.role}); the search asks for ${candidate.slice(0, 10)} against ${against.slice(0, 10)} (${role}) there: parts of another range, spec or runner count`,
    );
}

export interface BisectOutcome {
  report: BisectReport;
  dir: string;
  jsonPath: string;
  markdownPath: string;
  exitCode: number;
  /** A leg of a round (--round): whether it measured a step, and whether the search has ended. */
  leg?: { measured?: BisectStep; ended: boolean };
}

/** The search as far as the parts and this process took it. */
export interface SearchSoFar {
  readonly report: BisectReport;
  readonly r: Range;
  readonly jsonPath: string;
  readonly markdownPath: string;
  save(): Promise<void>;
}

const seconds = (steps: BisectStep[]) => ({
  benchmark_seconds: steps.reduce((t, s) => t + s.attempts.reduce((u, a) => u + a.benchmark_seconds, 0), 0),
  build_seconds: steps.reduce((t, s) => t + (s.build_seconds ?? 0), 0),
});

/**
 * A leg's part: only the step it measured (or none, said why), the round and runner it was. A slot
 * of an earlier round that no part records stops it: that round's leg failed or was cancelled.
 */
export async function legOutcome(
  b: SearchSoFar,
  share: RoundShare & { round: number; runner: number },
  stop: RoundDone | undefined,
  log: (line: string) => void,
): Promise<BisectOutcome> {
  const { report, r } = b;
  if (stop && stop.slot.round < share.round)
    throw new InputError(
      `tiperf bisect --round ${share.round}: no part under --parts ${share.parts} records round ${stop.slot.round} runner ${stop.slot.runner} (${stop.role}): its job failed or was cancelled, and the search cannot go on without it`,
    );
  const mine = report.steps.filter((s) => s.round === share.round && s.runner === share.runner);
  const measured = mine[0];
  // the confirmation is the search's last step: its round ends the search whatever it says, so
  // every leg of that round can say so (not only the one that measured it)
  const ended = !stop || (stop.role === "confirm" && stop.slot.round === share.round);
  const where = `round ${share.round}, runner ${share.runner} of ${report.runners ?? 1}`;
  report.notes.push(
    measured
      ? `${where}: measured ${measured.candidate.commit.slice(0, 10)} against ${measured.against.commit.slice(0, 10)} (${measured.role}): ${measured.mark}`
      : stop
        ? `${where}: the search gives this runner no candidate in this round`
        : `${where}: the search had ended before this round: nothing to measure`,
  );
  Object.assign(report, {
    steps: mine,
    part: { round: share.round, runner: share.runner, ...(share.refs ? { refs: share.refs } : {}) },
    outcome: "running",
  });
  Object.assign(report, seconds(mine));
  await b.save();
  log(`bisect ${basename(r.dir)}: ${report.notes.at(-1)}${ended ? "; the search ends with this round" : ""}`);
  return {
    report,
    dir: r.dir,
    jsonPath: b.jsonPath,
    markdownPath: b.markdownPath,
    exitCode: EXIT.ok,
    leg: { ...(measured ? { measured } : {}), ended },
  };
}

/**
 * The conclusion when the parts end before the search does: a round whose legs left parts but not
 * the step the search needs failed (exit 3); after the last round the workflow has, the range the
 * first bad commit lies in, to dispatch again.
 */
export async function unfinishedOutcome(
  b: SearchSoFar,
  stop: RoundDone,
  legs: Set<string>,
  maxRounds: number | undefined,
  log: (line: string) => void,
): Promise<BisectOutcome> {
  const { report, r } = b;
  // the rounds the workflow has (--max-rounds); without it, the rounds whose legs left parts
  const ran = maxRounds ?? Math.max(0, ...[...legs].map((k) => Number(k.split("/")[0])));
  const at = (i: number) => r.commits[i] as Commit;
  const done = async (exitCode: number) => {
    await b.save();
    log(`bisect: ${report.outcome} — ${report.notes.at(-1)}; report: ${b.markdownPath}`);
    return { report, dir: r.dir, jsonPath: b.jsonPath, markdownPath: b.markdownPath, exitCode };
  };
  if (stop.slot.round <= ran) {
    report.outcome = "failed";
    report.notes.push(
      `round ${stop.slot.round} runner ${stop.slot.runner} left no step (${stop.role}): its job failed or was cancelled (its log says why); the search stopped there after ${report.steps.length} step(s)`,
    );
    return done(EXIT.runFailed);
  }
  const index = (s: BisectStep) => r.commits.findIndex((c) => c.commit === s.candidate.commit);
  const search = report.steps.filter((s) => s.role !== "confirm");
  const lo = Math.max(0, ...search.filter((s) => s.mark === "good").map(index));
  const hi = Math.min(r.commits.length - 1, ...search.filter((s) => s.mark === "bad").map(index));
  report.outcome = "inconclusive";
  report.open_range = { after: at(lo), through: at(hi), candidates: hi - lo };
  report.notes.push(
    `the workflow's ${ran} round job(s) ended before the search did: the first bad commit is one of the ${hi - lo} after ${at(lo).commit.slice(0, 10)} up to ${at(hi).commit.slice(0, 10)}; run the bisect again with those as good and bad`,
  );
  return done(EXIT.ok);
}

type Found = Awaited<ReturnType<typeof bisectSearch>>;

/** What a spread search asks of the bisection it replays into. */
export interface SpreadSearch extends SearchSoFar, Steps {
  readonly n: number;
  readonly width: number;
  log(line: string): void;
  conclude(found: Found, spread: boolean): Promise<BisectOutcome>;
  failed(e: Error): Promise<void>;
}

/**
 * A search spread over runners: earlier rounds' parts replayed, then this leg's own step (with
 * --round) and its part, or (without) the conclusion of every part the workflow's rounds left.
 */
export async function spreadSearch(b: SpreadSearch, share: RoundShare): Promise<BisectOutcome> {
  const { steps, legs, later } = readParts(share.parts, b.report, share.round);
  if (later)
    b.log(
      `bisect: ${later} part(s) of round ${share.round} or later under ${share.parts} left out: a leg replays the rounds before its own`,
    );
  if (share.round === undefined && legs.size === 0)
    throw new InputError(
      `tiperf bisect --parts ${share.parts}: no round's part there (bisect.json files of --round legs)`,
    );
  const measure = roundMeasure(share, steps, b);
  let found: Found | undefined;
  let stop: RoundDone | undefined;
  try {
    found = await bisectSearch(b.n, measure, b.width);
  } catch (e) {
    if (!(e instanceof RoundDone)) {
      if (share.round === undefined) await b.failed(e as Error);
      throw e;
    }
    stop = e;
  }
  if (share.round !== undefined && share.runner !== undefined)
    return legOutcome(b, { ...share, round: share.round, runner: share.runner }, stop, (l) => b.log(l));
  return stop
    ? unfinishedOutcome(b, stop, legs, share.maxRounds, (l) => b.log(l))
    : b.conclude(found as Found, true);
}

/**
 * A leg's or the conclusion's options: --good and --bad as the first round resolved them, when the
 * parts recorded the same refs, and the refs as given kept for its own part.
 */
export function pinRounds<O extends { good: string; bad: string; log: (line: string) => void }>(
  o: O,
  share: RoundShare,
): O & { rounds: RoundShare } {
  const pinned = pinnedRefs(share.parts, o.good, o.bad);
  if (pinned && (pinned.good !== o.good || pinned.bad !== o.bad))
    o.log(
      `bisect: --good ${o.good} --bad ${o.bad} as the first round resolved them: ${pinned.good.slice(0, 10)}..${pinned.bad.slice(0, 10)}`,
    );
  return { ...o, ...pinned, rounds: { ...share, refs: { good: o.good, bad: o.bad } } };
}
