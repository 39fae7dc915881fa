import assert from "node:assert/strict";
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import type { Range } from "../../action/src/commands/bisect/range.ts";
import {
  type BisectOutcome,
  checkRecorded,
  pinRounds,
  type RoundShare,
  type SpreadSearch,
  spreadSearch,
} from "../../action/src/commands/bisect/rounds.ts";
import {
  BISECT_VERSION,
  type BisectReport,
  BisectReportSchema,
  type BisectStep,
  bisectSearch,
  type StepMark,
} from "../../action/src/compare/bisection.ts";
import { InputError } from "../../action/src/errors.ts";
import { tempDir } from "../helpers/real.ts";

const sha = (i: number) => i.toString(16).padStart(40, "0");

/**
 * A bisection as spreadSearch sees it, over `n` commits whose first bad one is `firstBad`: its
 * measure answers from that truth (no servers), its report is saved where a leg's part would be.
 */
function bisection(dir: string, n: number, firstBad: number, runners: number) {
  const commits = Array.from({ length: n + 1 }, (_, i) => ({ commit: sha(i + 1), subject: `change ${i}` }));
  mkdirSync(dir, { recursive: true });
  const report: BisectReport = {
    format: "tiperf.bisect",
    version: BISECT_VERSION,
    created_at: "2026-12-06T00:00:00Z",
    spec: { name: "rounds", path: "spec.yaml" },
    mode: "config",
    repository: "/repo",
    good: commits[0] as BisectReport["good"],
    bad: commits[n] as BisectReport["bad"],
    commits: commits.slice(1),
    outcome: "running",
    cells: [],
    confidence: 0.95,
    step_confidence: 0.99,
    max_measurements: 20,
    remeasure: 0,
    runners,
    steps: [],
    benchmark_seconds: 0,
    build_seconds: 0,
    notes: [],
  };
  const kindAt = (i: number): StepMark => (i >= firstBad ? "bad" : "good");
  let measured = 0;
  let found: Awaited<ReturnType<typeof bisectSearch>> | undefined;
  const b: SpreadSearch & { measured: () => number; found: () => typeof found } = {
    report,
    r: { commits, dir } as unknown as Range,
    jsonPath: join(dir, "bisect.json"),
    markdownPath: join(dir, "bisect.md"),
    n,
    width: runners,
    log: () => {},
    async save() {
      writeFileSync(join(dir, "bisect.json"), JSON.stringify(BisectReportSchema.parse(report)));
    },
    replay(rec, i, j, role) {
      checkRecorded(
        rec,
        (commits[i] as { commit: string }).commit,
        (commits[j] as { commit: string }).commit,
        role,
      );
      report.steps.push(rec.step);
      return rec.step.mark;
    },
    async measure(i, j, role, slot) {
      measured++;
      // a step takes a while: the legs of a round overlap as on runners
      await new Promise((r) => setTimeout(r, 1));
      const kind =
        role === "confirm" ? (kindAt(i) === "bad" && kindAt(j) === "good" ? "bad" : "good") : kindAt(i);
      const step: BisectStep = {
        role,
        candidate: commits[i] as BisectStep["candidate"],
        against: commits[j] as BisectStep["against"],
        mark: kind,
        attempts: [
          { mark: kind, verdict: "pass", rounds: 1, benchmark_seconds: 10, run_dir: "steps/x", cells: [] },
        ],
        ...slot,
      };
      report.steps.push(step);
      return kind;
    },
    async conclude(f) {
      found = f;
      report.outcome = "no-regression";
      return { report, dir, jsonPath: "", markdownPath: "", exitCode: f.outcome === "found" ? 1 : 0 };
    },
    async failed() {},
    measured: () => measured,
    found: () => found,
  };
  return b;
}

/**
 * perf-bisect.yml's rounds, played here: each round's legs see the parts of the rounds before
 * (not each other's), their parts land in `parts` after the round, until a leg says the search
 * ended or `maxRounds` rounds ran; then the concluding job over every part.
 */
async function workflow(n: number, firstBad: number, runners: number, maxRounds = 12, drop?: string) {
  const root = tempDir("tiperf-rounds-");
  const parts = join(root, "parts");
  mkdirSync(parts);
  const legs: { round: number; runner: number; outcome: BisectOutcome; measured: number }[] = [];
  let ended = false;
  for (let round = 1; round <= maxRounds && !ended; round++) {
    const staged = join(root, `round-${round}`);
    const running = Array.from({ length: runners }, async (_, k) => {
      const b = bisection(join(staged, `runner-${k + 1}`), n, firstBad, runners);
      const share: RoundShare = { parts, round, runner: k + 1 };
      const outcome = await spreadSearch(b, share);
      legs.push({ round, runner: k + 1, outcome, measured: b.measured() });
      return outcome;
    });
    const outcomes = await Promise.all(running);
    ended = outcomes.some((o) => o.leg?.ended);
    for (let k = 1; k <= runners; k++)
      if (drop !== `${round}/${k}`)
        cpSync(join(staged, `runner-${k}`), join(parts, `round-${round}-runner-${k}`), { recursive: true });
  }
  const last = bisection(join(root, "conclusion"), n, firstBad, runners);
  const conclusion = await spreadSearch(last, { parts });
  return { legs, conclusion, last, root, parts };
}

describe("bisect spread over runners: rounds as jobs, each leg replaying the parts before it", () => {
  test("every first bad among 31 with 3 runners: found, the same steps and rounds as the search in one process, one step per leg", async () => {
    for (let firstBad = 1; firstBad <= 31; firstBad++) {
      const { legs, last } = await workflow(31, firstBad, 3);
      const found = last.found();
      assert.equal(found?.outcome, "found", `first bad ${firstBad}`);
      assert.equal(found?.firstBad, firstBad);
      // the search in one process over the same truth
      const alone = bisection(tempDir(), 31, firstBad, 3);
      const direct = await bisectSearch(31, (i, j, role, slot) => alone.measure(i, j, role, slot), 3);
      assert.equal(found?.rounds, direct.rounds, `rounds for first bad ${firstBad}`);
      assert.deepEqual(
        last.report.steps.map((s) => [s.round, s.runner, s.candidate.commit, s.mark]),
        alone.report.steps.map((s) => [s.round, s.runner, s.candidate.commit, s.mark]),
      );
      // no candidate measured twice; every leg measured at most one step, idle legs said so
      assert.equal(
        legs.reduce((t, l) => t + l.measured, 0),
        alone.report.steps.length,
      );
      for (const l of legs) {
        assert.ok(l.measured <= 1);
        assert.equal(l.outcome.report.part?.round, l.round);
        assert.equal(Boolean(l.outcome.leg?.measured), l.measured === 1);
      }
      assert.ok(found.rounds <= 5, `${found.rounds} rounds`);
    }
  });

  test("a leg whose part is missing stops the next round by name, and the conclusion fails naming it (exit 3)", async () => {
    // first bad 20 of 31: round 2's runner 2 measures commit 16; its part is lost
    await assert.rejects(
      () => workflow(31, 20, 3, 12, "2/2"),
      (e: Error) =>
        e instanceof InputError &&
        /records round 2 runner 2 \(search\): its job failed or was cancelled/.test(e.message),
    );
    const root = tempDir("tiperf-rounds-");
    const parts = join(root, "parts");
    mkdirSync(parts);
    for (let k = 1; k <= 3; k++) {
      const b = bisection(join(root, `r1-${k}`), 31, 20, 3);
      await spreadSearch(b, { parts, round: 1, runner: k });
    }
    for (let k = 1; k <= 3; k++) cpSync(join(root, `r1-${k}`), join(parts, `r1-${k}`), { recursive: true });
    for (let k = 1; k <= 3; k++) {
      const b = bisection(join(root, `r2-${k}`), 31, 20, 3);
      await spreadSearch(b, { parts, round: 2, runner: k });
      if (k !== 2) cpSync(join(root, `r2-${k}`), join(parts, `r2-${k}`), { recursive: true });
    }
    const last = bisection(join(root, "end"), 31, 20, 3);
    const end = await spreadSearch(last, { parts });
    assert.equal(end.exitCode, 3);
    assert.equal(end.report.outcome, "failed");
    assert.match(end.report.notes.at(-1) ?? "", /^round 2 runner 2 left no step \(search\)/);
  });

  test("every leg of the confirmation's round says the search ended, the idle ones too; none before it", async () => {
    const { legs } = await workflow(31, 20, 3);
    const last = Math.max(...legs.map((l) => l.round));
    for (const l of legs)
      assert.equal(l.outcome.leg?.ended, l.round === last, `round ${l.round} runner ${l.runner}`);
    assert.equal(legs.filter((l) => l.round === last).length, 3);
  });

  test("with --max-rounds, a round that left no part at all is a failure, not rounds run out", async () => {
    const root = tempDir("tiperf-rounds-");
    const parts = join(root, "parts");
    mkdirSync(parts);
    // one runner: round 1's part is there, round 2's leg died before uploading anything
    const one = bisection(join(root, "r1"), 31, 20, 1);
    await spreadSearch(one, { parts, round: 1, runner: 1 });
    cpSync(join(root, "r1"), join(parts, "r1"), { recursive: true });
    const lost = await spreadSearch(bisection(join(root, "end"), 31, 20, 1), { parts, maxRounds: 10 });
    assert.equal(lost.report.outcome, "failed");
    assert.equal(lost.exitCode, 3);
    assert.match(lost.report.notes.at(-1) ?? "", /^round 2 runner 1 left no step \(search\)/);
    // the same parts with a workflow of one round: that round was the last, the range is left open
    const out = await spreadSearch(bisection(join(root, "end1"), 31, 20, 1), { parts, maxRounds: 1 });
    assert.equal(out.report.outcome, "inconclusive");
  });

  test("a leg replays only the rounds before its own: a re-run finds its round's earlier part and leaves it out", async () => {
    const root = tempDir("tiperf-rounds-");
    const parts = join(root, "parts");
    mkdirSync(parts);
    const first = bisection(join(parts, "r1-first-try"), 31, 20, 1);
    await spreadSearch(first, { parts, round: 1, runner: 1 });
    const again = bisection(join(root, "r1-again"), 31, 20, 1);
    const out = await spreadSearch(again, { parts, round: 1, runner: 1 });
    assert.equal(again.measured(), 1, "the re-run measures its step again");
    assert.equal(out.leg?.measured?.role, "check");
  });

  test("the workflow's rounds end before the search: the conclusion names the open range to bisect again", async () => {
    const { conclusion, last } = await workflow(31, 20, 3, 2);
    assert.equal(last.found(), undefined);
    assert.equal(conclusion.report.outcome, "inconclusive");
    const range = conclusion.report.open_range;
    assert.ok(range);
    // after round 2 (the check and one search round of 3): commit 20 lies in what is left, a quarter of 31
    const at = (c: { commit: string }) => Number.parseInt(c.commit, 16) - 1;
    assert.ok(at(range.after) < 20 && at(range.through) >= 20, `${at(range.after)}..${at(range.through)}`);
    assert.equal(range.candidates, at(range.through) - at(range.after));
    assert.ok(range.candidates <= 8, `${range.candidates} left`);
    assert.match(conclusion.report.notes.at(-1) ?? "", /round job\(s\) ended before the search did/);
  });

  test("refs as given are pinned to the commits the first round resolved: bad: main stays put while the branch moves", async () => {
    const root = tempDir("tiperf-rounds-");
    const parts = join(root, "parts");
    mkdirSync(parts);
    const one = bisection(join(parts, "r1"), 31, 20, 3);
    await spreadSearch(one, { parts, round: 1, runner: 1, refs: { good: "v1.0", bad: "main" } });
    const logged: string[] = [];
    const o = { good: "v1.0", bad: "main", log: (l: string) => logged.push(l) };
    const pinned = pinRounds(o, { parts, round: 2, runner: 1 });
    assert.equal(pinned.good, sha(1));
    assert.equal(pinned.bad, sha(32));
    assert.deepEqual(pinned.rounds.refs, { good: "v1.0", bad: "main" });
    assert.match(logged[0] ?? "", /as the first round resolved them/);
    // other refs: nothing pinned, the refs resolve as given (and a part of another range is refused)
    const other = pinRounds({ ...o, bad: "release" }, { parts, round: 2, runner: 1 });
    assert.equal(other.bad, "release");
  });

  test("parts of another search are refused, named; a leg of round 1 needs no part", async () => {
    const root = tempDir("tiperf-rounds-");
    const parts = join(root, "parts");
    mkdirSync(parts);
    const one = bisection(join(parts, "a"), 31, 20, 3);
    const first = await spreadSearch(one, { parts, round: 1, runner: 1 });
    assert.equal(first.leg?.measured?.role, "check");
    const other = bisection(join(root, "other"), 15, 4, 3);
    await assert.rejects(
      () => spreadSearch(other, { parts, round: 2, runner: 1 }),
      (e: Error) => e instanceof InputError && /is a part of another search/.test(e.message),
    );
    rmSync(root, { recursive: true, force: true });
  });
});
