import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { compareSchedule, scheduleLines, seedOf } from "../../action/src/bench/schedule.ts";

const base = {
  names: ["base", "head"],
  cells: 3,
  rounds: 8,
  maxRounds: 8,
  blocks: 4,
  warmupRounds: 1,
  seed: 42,
  order: "interleaved" as const,
  grouped: false,
};

describe("a comparison's schedule: seed → blocks → rounds → turns", () => {
  test("blocks of rounds, warmups again on every fresh pair, restarts before every block but the first", () => {
    const s = compareSchedule(base);
    assert.equal(s.blocks.length, 4);
    assert.deepEqual(
      s.blocks.map((b) => b.rounds.map((r) => r.round)),
      [
        [0, 1, 2],
        [0, 3, 4],
        [0, 5, 6],
        [0, 7, 8],
      ],
    );
    assert.deepEqual(s.blocks[0]?.restarts, []);
    for (const b of s.blocks.slice(1)) assert.deepEqual([...b.restarts].sort(), ["base", "head"]);
  });

  test("every two rounds of a cell start base first once and head first once (interleaved and duet)", () => {
    const s = compareSchedule(base);
    const rounds = s.blocks.flatMap((b) => b.rounds.filter((r) => r.round > 0));
    for (let cell = 0; cell < 3; cell++)
      for (let r = 0; r < rounds.length; r += 2) {
        const firsts = [rounds[r], rounds[r + 1]].map((x) => x?.turns[cell]?.[0]);
        assert.deepEqual([...firsts].sort(), ["base", "head"], `cell ${cell}, rounds ${r + 1}-${r + 2}`);
      }
    // duet: the same balance decides which pair's load tool is started first
    const duet = compareSchedule({ ...base, order: "duet" });
    assert.deepEqual(
      duet.blocks.map((b) => b.rounds.map((r) => r.turns)),
      s.blocks.map((b) => b.rounds.map((r) => r.turns)),
    );
  });

  test("the same seed gives the same schedule; another seed another order", () => {
    assert.deepEqual(compareSchedule(base), compareSchedule(base));
    const other = compareSchedule({ ...base, seed: 43 });
    assert.notDeepEqual(
      other.blocks.map((b) => b.rounds.map((r) => r.turns)),
      compareSchedule(base).blocks.map((b) => b.rounds.map((r) => r.turns)),
    );
    assert.equal(seedOf("20261125T080000Z-pr-1a2b"), seedOf("20261125T080000Z-pr-1a2b"));
    assert.notEqual(seedOf("20261125T080000Z-pr-1a2b"), seedOf("20261125T080000Z-pr-1a2c"));
  });

  test("grouped: no restarts (the switch is the fresh instance), the groups' order balanced over blocks", () => {
    const s = compareSchedule({ ...base, grouped: true });
    assert.ok(s.blocks.every((b) => b.restarts.length === 0));
    const firsts = s.blocks.map((b) => b.groups?.[0]);
    assert.deepEqual(firsts.filter((f) => f === "base").length, 2);
  });

  test("max_rounds: looks at rounds, twice rounds … and the blocks go on to max_rounds", () => {
    const s = compareSchedule({ ...base, blocks: 1, rounds: 4, maxRounds: 16 });
    assert.deepEqual(s.looks, [4, 8, 16]);
    assert.equal(s.blocks[0]?.rounds.at(-1)?.round, 16);
  });

  test("printed a line per block, with the seed", () => {
    const lines = scheduleLines(compareSchedule(base));
    assert.match(
      lines[0] ?? "",
      /^schedule \(seed 42\): 4 block\(s\); verdicts looked at after round\(s\) 8$/,
    );
    assert.match(
      lines[2] ?? "",
      /^ {2}block 2 \(restart (base, head|head, base)\): 1 warmup round\(s\), rounds 3–4 — 3: /,
    );
  });
});

describe("compare.reload_data: the data is part of the instance a block samples", () => {
  test("every block after the first reloads each restarted variant's data; the plan's lines say so", () => {
    const s = compareSchedule({ ...base, reloadData: true });
    assert.equal(s.blocks[0]?.reload, undefined, "the first block runs on the data loaded at start");
    for (const b of s.blocks.slice(1)) assert.equal(b.reload, true);
    assert.match(
      scheduleLines(s).join("\n"),
      /block 2 \(restart (base, head|head, base), each with its data loaded again\)/,
    );
    const plain = compareSchedule(base);
    assert.ok(plain.blocks.every((b) => b.reload === undefined));
    assert.doesNotMatch(scheduleLines(plain).join("\n"), /loaded again/);
  });
});
