import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { INSTANCE_GAP_SD, singlePairNote } from "../../action/src/compare/design.ts";
import { blockLogShift, mean, variance } from "../../action/src/compare/stats.ts";
import { ROOT } from "../helpers/paths.ts";

/** The between-instance standard deviation of log(head/base) in an A/A bank (restarts per block). */
function instanceGapSd(file: string): number {
  const bank = JSON.parse(readFileSync(join(ROOT, file), "utf8")) as {
    blocks: { base: number; head: number }[][];
  };
  const pairs = bank.blocks.flatMap((b, block) => b.map((x) => ({ block, ...x })));
  const logs = pairs.map((p) => Math.log(p.head / p.base));
  return Math.sqrt(blockLogShift(pairs).betweenShare * variance(logs));
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
