import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { INSTANCE_GAP_SD, plannedMde, singlePairNote } from "../../action/src/compare/design.ts";
import { judgeShift } from "../../action/src/compare/judge.ts";
import { blockLogShift, mean, variance } from "../../action/src/compare/stats.ts";
import { rng } from "../../action/src/pipeline/schedule.ts";
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
    const [low, high] = INSTANCE_GAP_SD.from.split(", ") as [string, string];
    assert.equal(Math.round(instanceGapSd(low) * 1000) / 1000, INSTANCE_GAP_SD.low);
    assert.equal(Math.round(instanceGapSd(high) * 1000) / 1000, INSTANCE_GAP_SD.high);
    assert.ok(mean([INSTANCE_GAP_SD.low, INSTANCE_GAP_SD.high]) > 0);
  });

  test("said for blocks 1 on instances of their own; not with blocks, not on one switched deployment", () => {
    assert.match(
      singlePairNote(1, true) ?? "",
      /^one instance pair \(compare\.blocks 1\): .* cannot be told from a change; .* 0\.9% to 3\.9%/,
    );
    assert.equal(singlePairNote(3, true), undefined);
    assert.equal(singlePairNote(1, false), undefined);
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
