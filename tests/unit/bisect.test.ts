import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { bisectSpec } from "../../action/src/commands/bisect/index.ts";
import { remeasureCompare, sourceStep } from "../../action/src/commands/bisect/step.ts";
import {
  looksWithin,
  maxMeasurements,
  nextLookFits,
  stepConfidence,
} from "../../action/src/compare/bisect-budget.ts";
import { readBisect } from "../../action/src/compare/bisect-read.ts";
import {
  BISECT_VERSION,
  type BisectReport,
  BisectReportSchema,
  bisectSearch,
  midpoint,
  nextCandidate,
  nextCandidates,
  type Slot,
  type StepCell,
  type StepMark,
  searchRounds,
  stepCellKey,
  stepMark,
} from "../../action/src/compare/bisection.ts";
import { bisectRange } from "../../action/src/history/check.ts";
import { bisectIssue, bisectMarkdown, bisectTitle, prOf } from "../../action/src/report/bisect.ts";
import { loadSpec } from "../../action/src/specfile/load.ts";
import { narrowSpec, prepareSpec } from "../../action/src/specfile/prepare.ts";
import { oneDrop } from "../helpers/changes.ts";
import { ROOT } from "../helpers/paths.ts";
import { tempDir } from "../helpers/real.ts";

type Cell = Parameters<typeof stepMark>[0][number];
const cell = (over: Partial<Cell>): Cell => ({
  workload: "point_select",
  threads: 8,
  metric: "tps",
  better: "higher",
  tolerance: 0.05,
  base: 100,
  head: 100,
  change: 0,
  ci: [-0.02, 0.02],
  mde: -0.03,
  verdict: "unchanged",
  n: 4,
  method: "paired-t",
  ...over,
});

/** The search's outcome without its round count (the tests of one candidate a round). */
const search = async (...args: Parameters<typeof bisectSearch>) => {
  const { rounds: _rounds, ...outcome } = await bisectSearch(...args);
  return outcome;
};

describe("bisection: the search", () => {
  test("every first bad commit among 1–20 is found in at most ⌈log2 n⌉ + 2 measurements, the last its confirmation", async () => {
    for (let n = 1; n <= 20; n++)
      for (let k = 1; k <= n; k++) {
        const asked: [number, number, string][] = [];
        const out = await search(n, async (i, j, role) => {
          asked.push([i, j, role]);
          return i >= k ? "bad" : "good";
        });
        assert.deepEqual(
          out,
          { outcome: "found", lastGood: k - 1, firstBad: k, skipped: [] },
          `n=${n} k=${k}`,
        );
        assert.ok(asked.length <= Math.ceil(Math.log2(n)) + 2, `n=${n} k=${k}: ${asked.length} steps`);
        assert.deepEqual(asked[0], [n, 0, "check"]);
        assert.deepEqual(asked.at(-1), [k, k - 1, "confirm"], "the confirmation compares the adjacent pair");
        for (const [, j, role] of asked.slice(1, -1)) assert.equal(j, 0, `${role}: against the good commit`);
      }
  });

  test("no regression at bad: one check and done", async () => {
    let calls = 0;
    const out = await search(16, async () => {
      calls++;
      return "good";
    });
    assert.deepEqual(out, { outcome: "no-regression", skipped: [] });
    assert.equal(calls, 1);
  });

  test("an undecided step stops the search where it stands, naming the range left", async () => {
    const answers: StepMark[] = ["bad", "good", "unknown"];
    const out = await search(16, async () => answers.shift() as StepMark);
    // check 16 bad; 8 good; 12 unknown → the first bad is in (8, 16]
    assert.deepEqual(out, { outcome: "inconclusive", lastGood: 8, firstBad: 16, at: 12, skipped: [] });
  });

  test("a candidate its neighbour does not confirm is reported as not confirmed", async () => {
    const out = await search(4, async (i, _j, role) =>
      role === "confirm" ? "good" : i >= 3 ? "bad" : "good",
    );
    assert.deepEqual(out, { outcome: "not-confirmed", lastGood: 2, firstBad: 3, skipped: [] });
  });

  test("a commit that does not build is gone round (git bisect skip): its neighbours are measured instead", async () => {
    // first bad 9 of 16; commit 8 (the first middle) does not build
    const asked: number[] = [];
    const found = await search(16, async (i) => {
      asked.push(i);
      if (i === 5) return "skip";
      return i >= 9 ? "bad" : "good";
    });
    assert.deepEqual(found, { outcome: "found", lastGood: 8, firstBad: 9, skipped: [] });
    const skips = new Set([8]);
    const out = await search(16, async (i) => (skips.has(i) ? "skip" : i >= 9 ? "bad" : "good"));
    // 16 bad; 8 skipped → 9 bad; 4, 6, 7 good; only the skipped 8 lies between 7 and 9
    assert.deepEqual(out, {
      outcome: "inconclusive",
      lastGood: 7,
      firstBad: 9,
      at: 9,
      onlySkipped: true,
      skipped: [8],
    });
    // a skipped middle whose neighbour decides: first bad 12, 8 skipped → 9 good, …, found
    const far = await search(16, async (i) => (i === 8 ? "skip" : i >= 12 ? "bad" : "good"));
    assert.deepEqual(far, { outcome: "found", lastGood: 11, firstBad: 12, skipped: [8] });
    await assert.rejects(
      search(4, async () => "skip"),
      /the bad commit itself/,
    );
  });

  test("several candidates a round (one per runner): every first bad among 31 found in 3 search rounds with 3 runners, 5 halving", async () => {
    assert.equal(searchRounds(31), 5);
    assert.equal(searchRounds(31, 3), 3);
    assert.equal(searchRounds(31, 7), 2);
    for (const width of [1, 2, 3, 4, 7])
      for (let k = 1; k <= 31; k++) {
        const asked: [number, number, string, Slot][] = [];
        let inFlight = 0;
        let most = 0;
        const out = await bisectSearch(
          31,
          async (i, j, role, slot) => {
            asked.push([i, j, role, slot]);
            most = Math.max(most, ++inFlight);
            await new Promise((r) => setImmediate(r)); // a round's steps are asked for at once
            inFlight--;
            return i >= k ? "bad" : "good";
          },
          width,
        );
        const at = `width ${width}, first bad ${k}`;
        assert.deepEqual(
          out,
          { outcome: "found", lastGood: k - 1, firstBad: k, skipped: [], rounds: out.rounds },
          at,
        );
        // the check, the search rounds, the confirmation
        assert.ok(out.rounds <= 2 + searchRounds(31, width), `${at}: ${out.rounds} rounds`);
        assert.ok(most <= width, `${at}: at most one step per runner at once`);
        const rounds = new Map<number, number[]>();
        for (const [i, j, role, slot] of asked) {
          if (role === "search") assert.equal(j, 0, `${at}: against the good commit`);
          rounds.set(slot.round, [...(rounds.get(slot.round) ?? []), slot.runner]);
          assert.ok(slot.runner >= 1 && slot.runner <= width);
          assert.ok(i >= 0 && i <= 31);
        }
        for (const [round, runners] of rounds)
          assert.deepEqual(
            runners,
            runners.map((_, x) => x + 1),
            `${at}: round ${round}'s runners 1…`,
          );
        assert.equal(Math.max(...rounds.keys()), out.rounds);
      }
    // over 31 commits with 3 runners: 5 rounds of measurement where halving takes 7
    const halving = await bisectSearch(31, async (i) => (i >= 19 ? "bad" : "good"));
    const three = await bisectSearch(31, async (i) => (i >= 19 ? "bad" : "good"), 3);
    assert.deepEqual([halving.rounds, three.rounds], [7, 5]);
    assert.equal(maxMeasurements(31, 0, 3), 11); // 2 + 3 rounds × 3
    assert.equal(maxMeasurements(31, 0), 7);
  });

  test("several candidates a round: an unknown inside what is left stops the search with the narrowed range; outside it, it does not matter", async () => {
    // 31 commits, width 3: 7 good, 15 unknown, 23 bad → first bad in (7, 23], stopped at 15
    const stopped = await bisectSearch(31, async (i) => (i === 15 ? "unknown" : i >= 20 ? "bad" : "good"), 3);
    assert.deepEqual(stopped, {
      outcome: "inconclusive",
      lastGood: 7,
      firstBad: 23,
      at: 15,
      skipped: [],
      rounds: 2,
    });
    // an unknown beyond the first bad candidate of its round is not in the range left
    const past = await bisectSearch(31, async (i) => (i === 23 ? "unknown" : i >= 12 ? "bad" : "good"), 3);
    assert.deepEqual(past, {
      outcome: "found",
      lastGood: 11,
      firstBad: 12,
      skipped: [],
      rounds: past.rounds,
    });
    // a skipped candidate (7 of 7, 15, 23): its neighbour taken in the next round (3, 8, 11)
    const skipped = await bisectSearch(31, async (i) => (i === 7 ? "skip" : i >= 10 ? "bad" : "good"), 3);
    assert.deepEqual(skipped, {
      outcome: "found",
      lastGood: 9,
      firstBad: 10,
      skipped: [7],
      rounds: skipped.rounds,
    });
  });

  test("nextCandidates: the range split into width + 1 parts, each the nearest commit not skipped", () => {
    assert.deepEqual(nextCandidates(0, 32, new Set(), 3), [8, 16, 24]);
    assert.deepEqual(nextCandidates(0, 32, new Set(), 1), [16]);
    assert.deepEqual(nextCandidates(0, 32, new Set([16]), 3), [8, 17, 24]);
    assert.deepEqual(nextCandidates(0, 3, new Set(), 3), [1, 2]);
    assert.deepEqual(nextCandidates(7, 9, new Set([8]), 3), []);
    for (let lo = 0; lo < 12; lo++)
      for (let hi = lo + 2; hi < 14; hi++)
        assert.deepEqual(nextCandidates(lo, hi, new Set(), 1), [nextCandidate(lo, hi, new Set())]);
  });

  test("nextCandidate: the middle, else the nearest not skipped, alternating after and before", () => {
    assert.equal(nextCandidate(0, 16, new Set()), 8);
    assert.equal(nextCandidate(0, 16, new Set([8])), 9);
    assert.equal(nextCandidate(0, 16, new Set([8, 9])), 7);
    assert.equal(nextCandidate(7, 9, new Set([8])), undefined);
    assert.equal(nextCandidate(3, 4, new Set()), undefined);
  });

  test("the error budget: Bonferroni over the most measurements the search can take", () => {
    assert.equal(maxMeasurements(16, 1), 12); // (2 + 4) × 2
    assert.equal(maxMeasurements(16, 0), 6);
    assert.equal(maxMeasurements(1, 0), 2);
    assert.ok(Math.abs(stepConfidence(0.95, 12) - (1 - 0.05 / 12)) < 1e-12);
    // the union bound: 12 measurements each at that level stay within 5% together
    assert.ok(12 * (1 - stepConfidence(0.95, 12)) <= 0.05 + 1e-12);
  });

  test("a step budget: as many looks as fit (1 + 2 + 4 … times the first), counted before the search", () => {
    // a first look of 64 s: 1 look in 100 s, 2 in 192 s, 3 in 448 s, 4 in 960 s; at most 6
    assert.equal(looksWithin(100, 64), 1);
    assert.equal(looksWithin(192, 64), 2);
    assert.equal(looksWithin(447, 64), 2);
    assert.equal(looksWithin(448, 64), 3);
    assert.equal(looksWithin(960, 64), 4);
    assert.equal(looksWithin(1e6, 64), 6);
    assert.equal(looksWithin(30, 64), 1); // never none: the check itself is one look
    assert.equal(looksWithin(100, 0), 1);
    // 31 commits, 3 looks a step: every look is one more measurement in the union bound
    assert.equal(maxMeasurements(31, looksWithin(448, 64) - 1), 21);
    // at run time the next look (twice the rounds) is taken to last twice the last one
    assert.equal(nextLookFits(448, 64 + 128, 128), true); // 192 + 256 = 448: fits exactly
    assert.equal(nextLookFits(447, 64 + 128, 128), false);
    assert.equal(nextLookFits(1800, 70, 70), true);
    assert.equal(nextLookFits(1800, 70 + 140 + 280, 280), true);
    assert.equal(nextLookFits(1800, 70 + 140 + 280 + 560, 560), false);
  });
});

describe("bisection: what one step says", () => {
  test("bad on a regression, good when the interval rules one out, else unknown", () => {
    assert.equal(
      stepMark([cell({ verdict: "regression", change: -0.3, ci: [-0.35, -0.25] })], undefined),
      "bad",
    );
    assert.equal(stepMark([cell({ ci: [-0.04, 0.06], verdict: "inconclusive" })], undefined), "good");
    assert.equal(stepMark([cell({ ci: [-0.08, 0.01], verdict: "inconclusive" })], undefined), "unknown");
    assert.equal(stepMark([cell({ ci: null, verdict: "inconclusive" })], undefined), "unknown");
    // latency: lower is better, the worse side is up
    const lat = { metric: "p95_ms", better: "lower" as const };
    assert.equal(stepMark([cell({ ...lat, ci: [-0.2, 0.04] })], undefined), "good");
    assert.equal(stepMark([cell({ ...lat, ci: [-0.01, 0.09] })], undefined), "unknown");
  });

  test("once the bad end is known: like the good end or like the bad end, at the midpoint on the log scale", () => {
    const watched = [{ workload: "point_select", threads: 8, metric: "tps" }];
    const badEnd = new Map([[stepCellKey(watched[0] as StepCell), -0.698]]);
    // halfway to −69.8% on the log scale: −45.0%
    assert.ok(Math.abs(midpoint(-0.698) - -0.4505) < 1e-3);
    // seen: an unchanged middle commit at −2.0% [−35.8%, +49.6%] was "unknown" against the
    // tolerance; its interval already rules out being like the bad end
    const middle = cell({ verdict: "inconclusive", change: -0.02, ci: [-0.358, 0.496] });
    assert.equal(stepMark([middle], watched), "unknown", "the tolerance's question cannot decide it");
    assert.equal(stepMark([middle], watched, badEnd), "good");
    assert.equal(
      stepMark([cell({ verdict: "regression", change: -0.7, ci: [-0.75, -0.6] })], watched, badEnd),
      "bad",
    );
    // past the tolerance but nowhere near the bad end: good, not bad
    assert.equal(
      stepMark([cell({ verdict: "regression", change: -0.1, ci: [-0.15, -0.06] })], watched, badEnd),
      "good",
    );
    assert.equal(
      stepMark([cell({ verdict: "inconclusive", change: -0.4, ci: [-0.6, -0.2] })], watched, badEnd),
      "unknown",
    );
    // a cost per operation: lower is better, the bad end is up
    const cost = [{ workload: "point_select", threads: 8, metric: "cpu_ms_per_op" }];
    const up = new Map([[stepCellKey(cost[0] as StepCell), 0.25]]);
    const c = (ci: [number, number]) =>
      cell({ metric: "cpu_ms_per_op", better: "lower", verdict: "inconclusive", ci });
    assert.equal(stepMark([c([0.15, 0.3])], cost, up), "bad");
    assert.equal(stepMark([c([-0.02, 0.08])], cost, up), "good");
  });

  test("only the watched cells decide: another cell's regression does not make a step bad", () => {
    const watched = [{ workload: "point_select", threads: 8, metric: "tps" }];
    const other = cell({ workload: "read_write", verdict: "regression", ci: [-0.4, -0.3] });
    assert.equal(stepMark([cell({}), other], watched), "good");
    assert.equal(stepMark([other], watched), "unknown", "nothing judged of the watched cells");
  });
});

const report = (over: Partial<BisectReport> = {}): BisectReport => {
  const c = (commit: string, subject: string) => ({ commit: commit.repeat(40).slice(0, 40), subject });
  const good = c("a", "start");
  const bad = c("f", "end");
  const firstBad = c("c", "server: check the packet budget in dispatch");
  const attempt = (change: number, verdict: "pass" | "regression", mark: StepMark) => ({
    mark,
    verdict,
    rounds: 4,
    benchmark_seconds: 60,
    run_dir: "steps/x",
    cells: [
      cell({
        change,
        ci: [change - 0.03, change + 0.03],
        verdict: verdict === "regression" ? "regression" : "unchanged",
      }),
    ],
  });
  return {
    format: "tiperf.bisect",
    version: BISECT_VERSION,
    created_at: "2026-11-24T00:00:00Z",
    spec: { name: "s", path: "s.yaml" },
    mode: "source",
    repository: "/src/tidb",
    good,
    bad,
    commits: [c("b", "one"), firstBad, c("d", "two"), bad],
    outcome: "found",
    first_bad: firstBad,
    last_good: c("b", "one"),
    cells: [{ workload: "point_select", threads: 8, metric: "tps" }],
    confidence: 0.95,
    step_confidence: 1 - 0.05 / 8,
    max_measurements: 8,
    remeasure: 1,
    steps: [
      {
        role: "check",
        candidate: bad,
        against: good,
        mark: "bad",
        attempts: [attempt(-0.31, "regression", "bad")],
        build_seconds: 312,
      },
      {
        role: "search",
        candidate: c("d", "two"),
        against: good,
        mark: "bad",
        attempts: [attempt(-0.3, "regression", "bad")],
      },
      {
        role: "confirm",
        candidate: firstBad,
        against: c("b", "one"),
        mark: "bad",
        attempts: [attempt(-0.284, "regression", "bad")],
      },
    ],
    benchmark_seconds: 180,
    build_seconds: 312,
    notes: ["error rate: …"],
    ...over,
  };
};

describe("bisection: a step measured again", () => {
  test("each re-measure doubles rounds and blocks, and raises max_rounds with them: the spec's own never refuses it", async () => {
    const spec = { rounds: 4, max_rounds: 8 };
    assert.deepEqual(remeasureCompare({ confidence: 0.99 }, spec, 0), { confidence: 0.99 });
    assert.deepEqual(remeasureCompare({ confidence: 0.99 }, spec, 1), {
      confidence: 0.99,
      rounds: 8,
      max_rounds: 16,
    });
    assert.deepEqual(remeasureCompare({ confidence: 0.99 }, spec, 2), {
      confidence: 0.99,
      rounds: 16,
      max_rounds: 32,
    });
    assert.deepEqual(remeasureCompare({}, { rounds: 6, blocks: 3 }, 1), { rounds: 12, blocks: 6 });
    // the second re-measure of a spec with max_rounds 8 loads (it was refused: max_rounds 8 < rounds 16)
    const dir = tempDir();
    writeFileSync(
      join(dir, "s.yaml"),
      "name: s\ntarget: {kind: mariadb}\ndata: {tables: 1, table_size: 100}\nworkloads:\n  - {name: ps, sysbench: oltp_point_select, threads: [2], duration: 1s}\nvariants: {base: {}, head: {}}\ncompare: {rounds: 4, max_rounds: 8}\n",
    );
    const loaded = await prepareSpec({ spec: join(dir, "s.yaml"), compare: remeasureCompare({}, spec, 2) });
    assert.equal(loaded.variants?.compare.rounds, 16);
    assert.equal(loaded.variants?.compare.max_rounds, 32);
  });
});

describe("bisection: refused before anything builds or starts", () => {
  test("a step spec its run would refuse (a duet duration off the swap cycle) is refused at once, no step taken", async () => {
    const repo = tempDir();
    const git = (...args: string[]) =>
      execFileSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.invalid", ...args]);
    git("init", "-q", "-b", "main");
    const spec = (i: number) => `name: b
description: change ${i}
target: {kind: mariadb}
data: {tables: 1, table_size: 100}
workloads:
  - {name: point_select, sysbench: oltp_point_select, threads: [1], duration: 5s}
compare: {order: duet, swap: 1s}
`;
    for (const i of [0, 1, 2]) {
      writeFileSync(join(repo, "spec.yaml"), spec(i));
      git("add", "-A");
      git("commit", "-qm", `change ${i}`);
    }
    const out = tempDir();
    const lines: string[] = [];
    await assert.rejects(
      bisectSpec({
        spec: join(repo, "spec.yaml"),
        good: "HEAD~2",
        bad: "HEAD",
        outDir: out,
        log: (l) => lines.push(l),
        signal: new AbortController().signal,
      }),
      // (on a machine that gives tiperf one CPU the duet itself is refused first)
      /tiperf bisect: each step would be refused:\n.*(workloads point_select: duration 5s is not a whole number of swap cycles|this machine gives tiperf \d CPU)/,
    );
    assert.ok(!lines.some((l) => /^bisect step \d/.test(l)), lines.join("\n"));
  });
});

describe("bisection: the report and the issue", () => {
  test("the issue's title is the bot's: the confirmed drop, the cell, the commit and its subject", () => {
    assert.equal(
      bisectTitle(report()),
      "28.4% regression in point_select threads=8 after cccccccccc server: check the packet budget in dispatch",
    );
    const md = bisectMarkdown(report());
    assert.match(md, /\*\*First bad commit: `cccccccccc` server: check the packet budget in dispatch\*\*/);
    assert.match(
      md,
      /\| 1 \| check \| `ffffffffff` end \| `aaaaaaaaaa` \| −31\.0% \| \[−34\.0%, −28\.0%\] \| 4 \| regression \| bad \| 312 \|/,
    );
    assert.match(md, /180 s of benchmark, 312 s of builds/);
  });

  test("found: the bot's table (each watched cell on the last good and the first bad commit) and the PR the subject names", () => {
    const r = report();
    r.first_bad = { commit: "c".repeat(40), subject: "executor: enable parallel sort (#53537)" };
    const md = bisectMarkdown(r);
    assert.match(
      md,
      /\*\*First bad commit: `cccccccccc` executor: enable parallel sort \(#53537\)\*\* \(PR #53537\)/,
    );
    assert.match(
      md,
      /\| cell \| metric \| last good `bbbbbbbbbb` \| first bad `cccccccccc` \| change \| interval \|/,
    );
    assert.match(md, /\| point_select threads=8 \| tps \| 100 \| 100 \| −28\.4% \| \[−31\.4%, −25\.4%\] \|/);
    assert.equal(prOf('Revert "x (#1)" (#2)'), 2);
    assert.equal(prOf("docs: fix typo"), undefined);
    // not found: no table
    assert.doesNotMatch(bisectMarkdown(undecided("inconclusive")), /\| cell \| metric \| last good/);
  });

  test("a skipped step is a row that says the commit did not build; the schema takes it", () => {
    const r = report();
    r.steps.splice(1, 0, {
      role: "search",
      candidate: { commit: "d".repeat(40), subject: "two" },
      against: r.good,
      mark: "skip",
      skip_reason: "build of dddddddddd (two) failed: make server exited 2; its log: /x/build.log",
      attempts: [],
    });
    r.skipped = [{ commit: "d".repeat(40), subject: "two" }];
    BisectReportSchema.parse(r);
    assert.match(
      bisectMarkdown(r),
      /\| 2 \| search \| `dddddddddd` two \| `aaaaaaaaaa` \| \| \| \| did not build \| skip \| \|/,
    );
  });

  test("nothing found, nothing filed", () => {
    assert.equal(
      bisectIssue(report({ outcome: "no-regression", first_bad: undefined, last_good: undefined })),
      undefined,
    );
    assert.equal(bisectIssue(undecided("inconclusive")), undefined);
    assert.ok(bisectIssue(report()));
  });
});

/** A report whose search ended without an answer: the open range (b, d], no first_bad. */
const undecided = (outcome: "inconclusive" | "not-confirmed"): BisectReport => {
  const r = report({ outcome, first_bad: undefined, last_good: undefined });
  const [b, , d] = r.commits as [BisectReport["good"], BisectReport["good"], BisectReport["good"]];
  r.open_range = { after: b, through: d, candidates: 2 };
  if (outcome === "not-confirmed") r.unconfirmed_candidate = { candidate: d, against: b };
  return r;
};

describe("bisection: bisect.json cannot be misread", () => {
  const sha = (c: { commit: string } | undefined) => c?.commit.slice(0, 1);

  test("found: first_bad and last_good, no open range; the markdown names it and the alarm files it", () => {
    const r = BisectReportSchema.parse(report());
    assert.equal(sha(r.first_bad), "c");
    assert.equal(sha(r.last_good), "b");
    assert.equal(r.open_range, undefined);
    assert.match(bisectMarkdown(r), /First bad commit: `cccccccccc`/);
    assert.ok(bisectIssue(r));
  });

  test("no regression: neither a commit nor a range", () => {
    const r = BisectReportSchema.parse(
      report({ outcome: "no-regression", first_bad: undefined, last_good: undefined }),
    );
    assert.equal(r.first_bad, undefined);
    assert.equal(r.open_range, undefined);
    assert.doesNotMatch(bisectMarkdown(r), /First bad commit|No first bad commit named/);
    assert.equal(bisectIssue(r), undefined);
  });

  for (const outcome of ["inconclusive", "not-confirmed"] as const)
    test(`${outcome}: the open range under its own name, never in first_bad; no issue`, () => {
      const r = BisectReportSchema.parse(undecided(outcome));
      assert.equal(r.first_bad, undefined, "first_bad would name the bad end of the range as the answer");
      assert.equal(r.last_good, undefined);
      assert.equal(sha(r.open_range?.after), "b");
      assert.equal(sha(r.open_range?.through), "d");
      const text = bisectMarkdown(r);
      assert.match(
        text,
        /No first bad commit named\.\*\* It is one of the 2 commit\(s\) after `bbbbbbbbbb` up to `dddddddddd`/,
      );
      assert.doesNotMatch(text, /First bad commit:/);
      assert.equal(bisectIssue(r), undefined, "the alarm files only a found commit");
      assert.equal(sha(r.unconfirmed_candidate?.candidate), outcome === "not-confirmed" ? "d" : undefined);
      if (outcome === "not-confirmed") assert.match(text, /not a first bad commit/);
    });

  test("the schema refuses a range dressed as an answer, and an answer without its commit", () => {
    const dressed = { ...undecided("inconclusive"), first_bad: report().first_bad };
    assert.throws(() => BisectReportSchema.parse(dressed), /first_bad is set exactly when outcome is found/);
    const bare = report({ first_bad: undefined });
    assert.throws(() => BisectReportSchema.parse(bare), /first_bad is set exactly when outcome is found/);
    const noRange = report({ outcome: "inconclusive", first_bad: undefined, last_good: undefined });
    assert.throws(() => BisectReportSchema.parse(noRange), /open_range is set exactly when/);
  });

  /** A report as an older tiperf wrote it: each step's and attempt's mark under `kind`. */
  const kindWords = (r: BisectReport) => ({
    ...r,
    steps: r.steps.map(({ mark, attempts, ...st }) => ({
      ...st,
      kind: mark,
      attempts: attempts.map(({ mark: m, ...a }) => ({ ...a, kind: m })),
    })),
  });

  test("a version 2 report is read with each step's and attempt's kind as its mark", async () => {
    const file = join(tempDir(), "bisect.json");
    const now = report();
    writeFileSync(file, JSON.stringify({ ...kindWords(now), version: 2 }));
    const read = await readBisect(file);
    assert.equal(read?.version, BISECT_VERSION);
    assert.deepEqual(read, now);
  });

  test("a version 1 report is read with its range moved out of first_bad/last_good", async () => {
    const v2 = undecided("inconclusive");
    const { open_range, ...rest } = kindWords(v2) as ReturnType<typeof kindWords> & {
      open_range?: typeof v2.open_range;
    };
    const v1 = { ...rest, version: 1, first_bad: open_range?.through, last_good: open_range?.after };
    const file = join(tempDir(), "bisect.json");
    writeFileSync(file, JSON.stringify(v1));
    const read = await readBisect(file);
    assert.equal(read?.version, BISECT_VERSION);
    assert.deepEqual(
      read?.steps.map((st) => st.mark),
      v2.steps.map((st) => st.mark),
    );
    assert.equal(read?.first_bad, undefined);
    assert.deepEqual(read?.open_range, {
      after: open_range?.after,
      through: open_range?.through,
      candidates: 2,
    });
    // a v1 found report keeps its commit
    writeFileSync(file, JSON.stringify({ ...kindWords(report()), version: 1 }));
    assert.equal(sha((await readBisect(file))?.first_bad), "c");
  });
});

describe("bisection: where its range and cells come from", () => {
  const changes = (spec: string, [good, bad]: [string?, string?]) =>
    oneDrop(spec, { workload: "read_write", threads: 16 }, good, bad);

  test("a change point's run before and run at it, and its cell", () => {
    assert.deepEqual(bisectRange(changes("weekly", ["aaa1111", "bbb2222"]), "weekly"), {
      good: "aaa1111",
      bad: "bbb2222",
      workload: "read_write",
      threads: 16,
    });
    assert.equal(
      bisectRange(changes("other", ["aaa1111", "bbb2222"]), "weekly"),
      undefined,
      "another spec's",
    );
    assert.equal(
      bisectRange(changes("weekly", ["aaa1111", undefined]), "weekly"),
      undefined,
      "commits not recorded",
    );
    assert.equal(
      bisectRange(changes("weekly", ["aaa1111", "aaa1111"]), "weekly"),
      undefined,
      "one commit, two runs",
    );
  });

  test("narrowSpec keeps only the cells asked for, and says which were not there", async () => {
    const dir = tempDir();
    const file = join(dir, "s.yaml");
    writeFileSync(
      file,
      `name: s
target: {kind: mariadb}
data: {tables: 1, table_size: 100}
workloads:
  - {name: point_select, sysbench: oltp_point_select, threads: [1, 8, 32], duration: 10s}
  - {name: read_write, sysbench: oltp_read_write, threads: [8], duration: 10s}
compare: {rounds: 6}
`,
    );
    const narrowed = await narrowSpec(await loadSpec(file), [{ workload: "point_select", threads: 32 }], {
      confirm: 0,
    });
    assert.deepEqual(
      narrowed.spec.workloads.map((w) => [w.name, w.threads]),
      [["point_select", [32]]],
    );
    assert.equal(narrowed.spec.compare?.confirm, 0);
    assert.equal(narrowed.spec.compare?.rounds, 6, "its own compare keys kept");
    await assert.rejects(
      narrowSpec(await loadSpec(file), [{ workload: "nope", threads: 1 }]),
      /none of nope threads=1 is a cell/,
    );
  });

  test("a step's spec is a new value made from the spec's mapping: the given spec unchanged, nothing read back from text", async () => {
    const given = await loadSpec(join(ROOT, "workloads/tidb-source-pr.yaml"));
    const before = JSON.stringify(given.raw);
    const step = sourceStep(
      "workloads/tidb-source-pr.yaml",
      given,
      { commit: "a".repeat(40), subject: "good" },
      { commit: "b".repeat(40), subject: "bad" },
    );
    const refs = step.variants?.all.map((v) => [
      v.name,
      (v.spec.target as { source?: { ref?: string } }).source?.ref,
    ]);
    assert.deepEqual(refs, [
      ["base", "a".repeat(40)],
      ["head", "b".repeat(40)],
    ]);
    const narrowed = await narrowSpec(step, [{ workload: "read_only", threads: 4 }], { confirm: 0 });
    assert.deepEqual(
      narrowed.variants?.all.map((v) => v.spec.workloads.map((w) => w.name)),
      [["read_only"], ["read_only"]],
      "both variants narrowed",
    );
    assert.equal(JSON.stringify(given.raw), before, "the given spec's mapping is not changed by either");
    assert.equal(given.variants, undefined);
    assert.equal(given.spec.workloads.length > 1, true);
    // the YAML kept for the record says the same
    assert.match(step.composed ?? "", /ref: b{40}/);
  });

  test("narrowSpec drops compare.noise of the workloads it leaves out (a confirmation of one cell of the source check)", async () => {
    const narrowed = await narrowSpec(
      await loadSpec(join(ROOT, "workloads/tidb-source-pr.yaml")),
      [{ workload: "read_only", threads: 4 }],
      { confirm: 0 },
    );
    assert.deepEqual(
      narrowed.spec.workloads.map((w) => w.name),
      ["read_only"],
    );
    const noise = narrowed.spec.compare?.noise?.workloads ?? {};
    assert.deepEqual(Object.keys(noise), ["read_only"], "the noise of read_only kept, no other");
    assert.ok(noise.read_only?.rounds !== undefined && noise.read_only.rounds > 0);
  });
});

describe("confirm before alarming: the comment shows both runs", () => {
  test("confirmed and not confirmed, each with the first run's numbers beside the re-run's", async () => {
    const { confirmationText } = await import("../../action/src/report/comment.ts");
    const first = cell({ verdict: "regression", change: -0.12, ci: [-0.16, -0.08] });
    const v = { cells: [first], confidence: 0.95 } as Parameters<typeof confirmationText>[0];
    const run = (c: Cell) => ({
      run_id: "r2",
      result: "x",
      verdict: c.verdict === "regression" ? ("regression" as const) : ("pass" as const),
      cells: [c],
    });
    const yes = confirmationText(v, {
      confirmed: true,
      first: "regression",
      runs: [run(cell({ verdict: "regression", change: -0.1, ci: [-0.13, -0.07] }))],
      false_alarm: 0.0025,
    });
    assert.match(
      yes,
      /^🔁 \*\*Confirmed\*\* on fresh instances: point_select threads=8 tps −10\.0% \[−13\.0%, −7\.0%\] regression \(first run: point_select threads=8 tps −12\.0% \[−16\.0%, −8\.0%\]\)\. .*0\.25% if the runs are independent/,
    );
    const no = confirmationText(v, {
      confirmed: false,
      first: "regression",
      runs: [run(cell({ verdict: "unchanged", change: -0.01, ci: [-0.03, 0.01] }))],
      false_alarm: 0.0025,
    });
    assert.match(
      no,
      /^🔁 \*\*Not confirmed\*\*: the first run found point_select threads=8 tps −12\.0% .*did not recur on fresh instances \(point_select threads=8 tps −1\.0% \[−3\.0%, \+1\.0%\] unchanged\): the check does not fail on it/,
    );
  });
});
