import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { describe, test } from "node:test";
import {
  INSTANCE_GAP_SD,
  plannedMde,
  singlePairNote,
  singlePairWarning,
} from "../../action/src/compare/design.ts";
import { judgeShift } from "../../action/src/compare/judge.ts";
import { blockLogShift, mean, rng, variance } from "../../action/src/compare/stats.ts";
import { ROOT } from "../helpers/paths.ts";

/** The between-instance standard deviation of log(head/base) in an A/A bank (restarts per block). */
function instanceGapSd(file: string): number {
  const bank = JSON.parse(readFileSync(join(ROOT, file), "utf8")) as {
    blocks: { base: number; head: number }[][];
  };
  const pairs = bank.blocks.flatMap((b, block) => b.map((x) => ({ block, ...x })));
  const logs = pairs.map((p) => Math.log(p.head / p.base));
  return Math.sqrt(blockLogShift(pairs, null).betweenShare * variance(logs));
}

describe("one instance pair: what it cannot tell apart", () => {
  test("the instance gaps the note quotes are the banks' own (recomputed)", () => {
    assert.equal(Math.round(instanceGapSd(INSTANCE_GAP_SD.lowFrom) * 1000) / 1000, INSTANCE_GAP_SD.low);
    // the high end: the root mean square over every bank the pattern names
    const [dir, pattern] = [dirname(INSTANCE_GAP_SD.highFrom), basename(INSTANCE_GAP_SD.highFrom)];
    const prefix = pattern.replace("*.json", "");
    const banks = readdirSync(join(ROOT, dir)).filter(
      (f) => f.startsWith(prefix) && /(-\d+)?\.json$/.test(f),
    );
    assert.equal(banks.length, 21, banks.join(", "));
    const sds = banks.map((f) => instanceGapSd(join(dir, f)));
    assert.equal(Math.round(Math.sqrt(mean(sds.map((x) => x * x))) * 100) / 100, INSTANCE_GAP_SD.high);
    assert.ok(Math.max(...sds) > INSTANCE_GAP_SD.high, "single banks reach beyond the root mean square");
  });

  test("said for blocks 1 on instances of their own; not with blocks, not on one switched deployment", () => {
    assert.match(
      singlePairNote(1, true) ?? "",
      /^one instance pair \(compare\.blocks 1\): .* cannot be told from a change; .* 0\.9% \(.*\) to 7\.0%/,
    );
    assert.equal(singlePairNote(3, true), undefined);
    assert.equal(singlePairNote(1, false), undefined);
    // the figures are said to be tiperf's own, not measured on the user's machine
    assert.match(singlePairNote(1, true) ?? "", /in tiperf's own A\/A banks on a 2-core runner/);
    assert.doesNotMatch(singlePairNote(1, true) ?? "", /this machine/);
  });

  test("on servers tiperf does not own (endpoints) blocks are not advised: an A/A comparison is", () => {
    const note = singlePairNote(1, true, false) ?? "";
    assert.match(note, /borrowed and tiperf never restarts them/);
    assert.match(note, /an A\/A comparison\) measures their gap/);
    assert.doesNotMatch(note, /compare\.blocks: 3/);
    const sd = { low: INSTANCE_GAP_SD.low, high: INSTANCE_GAP_SD.high };
    const line = singlePairWarning([{ label: "point_select threads=2 tps", change: -0.05 }], sd, false) ?? "";
    assert.match(line, /an A\/A comparison of the two measures their gap/);
    assert.doesNotMatch(line, /compare\.blocks: 3/);
  });

  test("a flagged cell of one pair is warned of in the first lines; nothing flagged, no warning", () => {
    const sd = { low: INSTANCE_GAP_SD.low, high: INSTANCE_GAP_SD.high };
    assert.equal(singlePairWarning([], sd), undefined);
    const line = singlePairWarning([{ label: "point_select threads=8 tps", change: 0.085 }], sd) ?? "";
    assert.match(
      line,
      /^⚠️ One instance pair \(compare\.blocks 1\): point_select threads=8 tps \+8\.5% may be a steady gap/,
    );
    assert.match(line, /standard deviation of 0\.9% to 7\.0%, so ±14\.0% between one pair/);
    assert.match(
      singlePairWarning([{ label: "insert threads=4 tps", change: -0.031 }], sd) ?? "",
      /insert threads=4 tps −3\.1% may be/,
    );
  });
});

describe("plannedMde: the smallest change a design detects, stated before it runs", () => {
  /** Normal deviates from a seeded generator (Box–Muller). */
  function gaussian(seed: number): () => number {
    const u = rng(seed);
    return () => Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
  }

  /** How often judgeShift calls a true change a regression, over simulated runs of the design. */
  function power(
    change: number,
    noise: { rounds: number; instances: number },
    blocks: number,
    perBlock: number,
  ) {
    const g = gaussian(blocks * 1000 + perBlock);
    const alpha = 0.05 / 6;
    const trials = 3000;
    let caught = 0;
    for (let t = 0; t < trials; t++) {
      const pairs: { block: number; base: number; head: number }[] = [];
      for (let b = 0; b < blocks; b++) {
        const gap = noise.instances * g();
        for (let r = 0; r < perBlock; r++)
          pairs.push({
            block: b,
            base: 1000,
            head: 1000 * (1 + change) * Math.exp(gap + noise.rounds * g()),
          });
      }
      const shift = blockLogShift(pairs);
      const rule = { better: "higher" as const, tolerance: 0.02 };
      const j = judgeShift(
        { workload: "w", threads: 4, metric: "tps" },
        rule,
        shift,
        { base: 1, head: 1 },
        alpha,
        "block-t",
      );
      if (j.verdict === "regression") caught++;
    }
    return caught / trials;
  }

  test("a change of the stated size is caught about 90% of the time; a third smaller, far less", () => {
    for (const [noise, blocks, perBlock] of [
      [{ rounds: 0.03, instances: 0.01 }, 8, 2],
      [{ rounds: 0.015, instances: 0.005 }, 6, 3],
    ] as const) {
      const mde = plannedMde(noise, { rounds: blocks * perBlock, blocks }, 0.05 / 6, 0.02);
      assert.ok(mde > 0.02, `beyond the tolerance (${mde})`);
      const p = power(-mde, noise, blocks, perBlock);
      assert.ok(p > 0.86 && p < 0.94, `power at the stated change ${(mde * 100).toFixed(2)}%: ${p}`);
      assert.ok(power(-mde * 0.66, noise, blocks, perBlock) < 0.6);
    }
  });

  test("more blocks, less noise: a smaller change; latency states a rise", () => {
    const noise = { rounds: 0.03, instances: 0.01 };
    const a = plannedMde(noise, { rounds: 16, blocks: 8 }, 0.01, 0.02);
    const b = plannedMde(noise, { rounds: 32, blocks: 16 }, 0.01, 0.02);
    const c = plannedMde({ rounds: 0.015, instances: 0.005 }, { rounds: 16, blocks: 8 }, 0.01, 0.02);
    assert.ok(b < a && c < a);
    assert.ok(plannedMde(noise, { rounds: 16, blocks: 8 }, 0.01, 0.02, "lower") > a);
  });
});
