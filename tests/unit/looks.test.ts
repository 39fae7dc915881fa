import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { lookAgain } from "../../action/src/bench/looks-run.ts";
import { compareSchedule, furtherBlocks, scheduleLines } from "../../action/src/bench/schedule.ts";
import type { CellJudgement } from "../../action/src/compare/judge.ts";
import { familyOf } from "../../action/src/compare/judge-results.ts";
import {
  cellKeyOf,
  lookedJudgement,
  lookShares,
  lookSpendingText,
  undecidedChance,
} from "../../action/src/compare/looks.ts";
import { parseSpec } from "../../action/src/specfile/load.ts";

const design = {
  names: ["base", "head"],
  cells: 3,
  rounds: 6,
  maxRounds: 6,
  blocks: 3,
  warmupRounds: 1,
  seed: 7,
  order: "duet" as const,
  grouped: false,
  reloadData: true,
  looks: 3,
};

const judgement = (
  workload: string,
  verdict: CellJudgement["verdict"],
  blocks = 3,
  needed = 9,
): CellJudgement => ({
  variant: "head",
  workload,
  threads: 4,
  metric: "tps",
  better: "higher",
  tolerance: 0.02,
  base: 100,
  head: 98,
  change: -0.02,
  ci: verdict === "inconclusive" ? [-0.05, 0.01] : [-0.015, 0.012],
  mde: -0.06,
  verdict,
  n: blocks,
  method: "block-t",
  ...(verdict === "inconclusive" ? { needed } : {}),
});

describe("compare.looks: the error rate spent over every look", () => {
  test("one look: the design's looks share it equally, as before; further looks: half, then equal shares", () => {
    assert.deepEqual(lookShares(1, 1), [1]);
    assert.deepEqual(lookShares(3, 1), [1 / 3, 1 / 3, 1 / 3]);
    assert.deepEqual(lookShares(1, 3), [0.5, 0.25, 0.25]);
    const shares = lookShares(2, 4);
    assert.equal(shares.length, 5);
    assert.ok(Math.abs(shares.reduce((a, b) => a + b, 0) - 1) < 1e-12);
  });

  test("a look's α is its share of the family's: the union bound over looks stays at 1 − confidence", () => {
    const spec = parseSpec(
      `name: s
target: {kind: mariadb}
data: {tables: 1, table_size: 100}
workloads:
  - {name: ps, sysbench: oltp_point_select, threads: [1, 4], duration: 2s}
metrics: {tps: {tolerance: 2%}, p95_ms: {tolerance: 5%}}
variants: {base: {}, head: {}}
compare: {rounds: 6, blocks: 3, looks: 3}
`,
      "s.yaml",
    ).variants?.base.spec;
    assert.ok(spec);
    const shares = lookShares(1, 3);
    const alphas = shares.map((s) => familyOf(spec, 0.95, shares.length, 1, s));
    // 2 cells × 2 metrics judged at each look: 4 per look, 12 over the three looks
    assert.equal(alphas[0]?.comparisons, 12);
    const spent = alphas.reduce((sum, a) => sum + a.alpha * 4, 0);
    assert.ok(Math.abs(spent - 0.05) < 1e-12, `spent ${spent}`);
    assert.ok(Math.abs((alphas[0]?.alpha ?? 0) - 0.05 / 8) < 1e-15);
    // an equal share is exactly the old Bonferroni share over every look's judgements
    assert.equal(familyOf(spec, 0.95, 3, 1).alpha, (1 - 0.95) / 12);
  });

  test("the footnote names the looks taken, the most allowed and the spending", () => {
    assert.equal(lookSpendingText(1, 1, 1), "");
    const text = lookSpendingText(1, 3, 2);
    assert.match(text, /looks: 2 of at most 3/);
    assert.match(text, /Bonferroni alpha spending/);
    assert.match(text, /50% at the design's look/);
  });

  test("an unchanged cell is undecided less often the more blocks it has, never where t·se exceeds the tolerance", () => {
    const noise = { rounds: 0.03, instances: 0.01 };
    const at = (blocks: number) => undecidedChance(noise, { blocks, perBlock: 2 }, 0.001, 0.02);
    assert.equal(at(3), 1, "3 blocks at 3% noise cannot fit ±2%");
    assert.ok(at(24) < 1 && at(48) < at(24) && at(96) < 0.01, `${at(24)}, ${at(48)}, ${at(96)}`);
    assert.equal(undecidedChance({ rounds: 0, instances: 0 }, { blocks: 3, perBlock: 2 }, 0.001, 0.02), 0);
  });
});

describe("compare.looks in the schedule", () => {
  test("further blocks follow the design's: numbered on, rounds on, every variant restarted, data loaded again", () => {
    const s = compareSchedule(design);
    assert.deepEqual(s.further, { looks: 2, blocks: 3, roundsPerBlock: 2, warmupRounds: 1, reload: true });
    const second = furtherBlocks(s, design.names, design.cells, 2);
    const third = furtherBlocks(s, design.names, design.cells, 3);
    assert.deepEqual(
      second.map((b) => b.block),
      [4, 5, 6],
    );
    assert.deepEqual(
      third.map((b) => b.block),
      [7, 8, 9],
    );
    assert.deepEqual(
      second.map((b) => b.rounds.map((r) => r.round)),
      [
        [0, 7, 8],
        [0, 9, 10],
        [0, 11, 12],
      ],
    );
    assert.deepEqual(
      third[0]?.rounds.map((r) => r.round),
      [0, 13, 14],
    );
    for (const b of [...second, ...third]) {
      assert.deepEqual([...b.restarts].sort(), ["base", "head"]);
      assert.equal(b.reload, true);
      for (const r of b.rounds) assert.equal(r.turns.length, design.cells);
    }
    assert.deepEqual(
      furtherBlocks(s, design.names, design.cells, 4),
      [],
      "compare.looks 3: two further looks",
    );
    assert.deepEqual(furtherBlocks(s, design.names, design.cells, 1), []);
  });

  test("no further looks: compare.looks 1, one block, or grouped turns", () => {
    assert.equal(compareSchedule({ ...design, looks: 1 }).further, undefined);
    assert.equal(compareSchedule({ ...design, blocks: 1 }).further, undefined);
    assert.equal(compareSchedule({ ...design, grouped: true }).further, undefined);
  });

  test("the plan's schedule says what may follow", () => {
    const lines = scheduleLines(compareSchedule(design));
    assert.match(lines.at(-1) ?? "", /up to 2 further look\(s\) \(compare\.looks 3\): each 3 more blocks/);
    assert.match(lines.at(-1) ?? "", /of the undecided cells only/);
  });

  test("a spec with compare.looks and blocks under 3 is refused, naming both keys", () => {
    assert.throws(
      () =>
        parseSpec(
          `name: s
target: {kind: mariadb}
data: {tables: 1, table_size: 100}
workloads: [{name: ps, sysbench: oltp_point_select, threads: [1], duration: 2s}]
variants: {base: {}, head: {}}
compare: {rounds: 6, blocks: 1, looks: 2}
`,
          "s.yaml",
        ),
      /s\.yaml: compare\.looks \(2\).*compare\.blocks of 3 or more \(it is 1\)/,
    );
  });
});

describe("looking again until decided", () => {
  const runner = (verdicts: Record<string, CellJudgement["verdict"][]>, budget?: number, needed = 9) => {
    const ran: { look: number; block: number; cells: number[] }[] = [];
    let look = 0;
    let clock = 100;
    const schedule = compareSchedule(design);
    return {
      ran,
      run: lookAgain({
        schedule,
        names: design.names,
        budget,
        log: () => {},
        keys: ["a", "b", "c"].map((w) => cellKeyOf({ workload: w, threads: 4 })),
        judge: (at) => {
          look = at;
          const cells = Object.entries(verdicts).map(([w, vs]) =>
            // 3 blocks per look: the design's, then 3 more at each further look
            judgement(w, vs[Math.min(at, vs.length - 1)] ?? "unchanged", 3 * (at + 1), needed),
          );
          return { cells, comparisons: 9, alpha: 0.001 };
        },
        secondsPerCellRound: () => 10,
        spentSeconds: () => clock,
        runBlock: async (b, only) => {
          clock += 30;
          ran.push({ look, block: b.block, cells: [...only].sort() });
        },
      }),
    };
  };

  test("only the undecided cells run again; a judgement is final at the look that decided it", async () => {
    // a decided at the design's look; b decided at look 2; c undecided throughout
    const r = runner({
      a: ["unchanged", "regression", "regression"],
      b: ["inconclusive", "regression", "unchanged"],
      c: ["inconclusive", "inconclusive", "inconclusive"],
    });
    const looked = await r.run;
    assert.deepEqual(
      r.ran.map((x) => x.cells),
      [[1, 2], [1, 2], [1, 2], [2], [2], [2]],
    );
    assert.deepEqual(
      r.ran.map((x) => x.block),
      [4, 5, 6, 7, 8, 9],
    );
    assert.equal(looked.taken, 3);
    const cells = lookedJudgement(looked).cells;
    const of = (w: string) => cells.find((c) => c.workload === w) as CellJudgement;
    assert.equal(of("a").verdict, "unchanged", "a later look never overturns a decided judgement");
    assert.equal(of("a").looks, 1);
    assert.equal(of("b").verdict, "regression");
    assert.equal(of("b").looks, 2);
    assert.equal(of("c").verdict, "inconclusive");
    assert.equal(of("c").looks, 3);
    assert.match(
      of("c").reason ?? "",
      /inconclusive after 3 look\(s\), compare\.looks \(3\) reached: ~9 blocks in all/,
    );
  });

  test("a judgement whose blocks needed lie beyond the looks left gets no further look, and says so", async () => {
    // 50 blocks needed at this noise; the design's 3 and two looks of 3 give 9
    const r = runner({ a: ["unchanged"], b: ["inconclusive"], c: ["unchanged"] }, undefined, 50);
    const looked = await r.run;
    assert.equal(r.ran.length, 0);
    const b = lookedJudgement(looked).cells.find((x) => x.workload === "b");
    assert.equal(b?.verdict, "inconclusive");
    assert.match(
      b?.reason ?? "",
      /~50 blocks in all would decide it at this noise, more than the looks left could give/,
    );
    assert.match(
      looked.stopped ?? "",
      /the 1 judgement\(s\) left undecided need more blocks at their noise than the looks left could give/,
    );
  });

  test("nothing undecided: no further look", async () => {
    const r = runner({ a: ["unchanged"], b: ["regression"], c: ["within"] });
    const looked = await r.run;
    assert.equal(r.ran.length, 0);
    assert.equal(looked.taken, 1);
  });

  test("a look that would pass compare.budget is not taken, and the reason says so", async () => {
    // 100 s spent; a look of one cell: 10 s × 3 blocks × (2 rounds + 1 warmup) = 90 s
    const r = runner({ a: ["unchanged"], b: ["unchanged"], c: ["inconclusive"] }, 110);
    const looked = await r.run;
    assert.equal(r.ran.length, 0);
    assert.match(
      looked.stopped ?? "",
      /the next look \(~90 s\) would pass compare\.budget \(110 s, 100 s spent\)/,
    );
    const c = lookedJudgement(looked).cells.find((x) => x.workload === "c");
    assert.match(c?.reason ?? "", /inconclusive after 1 look\(s\), the next look/);
    const fits = runner({ a: ["unchanged"], b: ["unchanged"], c: ["inconclusive"] }, 200);
    await fits.run;
    assert.equal(fits.ran.length, 3, "one look fits (190 s); the next would reach 280 s");
  });
});
