// What a plan says of compare.looks: how many further looks may follow the design, and how long
// the comparison takes at the shortest (every judgement decided at the design's look), as expected
// where nothing changed (from compare.noise) and at the longest (every look taken, or as far as
// compare.budget lets it).
import { familyOf } from "../compare/judge-results.ts";
import { lookShares, undecidedChance } from "../compare/looks.ts";
import type { LoadedSpec } from "../specfile/load.ts";
import { metricNoise } from "./detection.ts";
import { planDuration } from "./estimate.ts";
import type { CompareSchedule } from "./schedule.ts";

/**
 * The plan's line on further looks (none with compare.looks 1). `seconds`: the design's estimate,
 * of which the target's setup is not repeated by a look.
 */
export function looksLine(
  loaded: LoadedSpec,
  schedule: CompareSchedule | undefined,
  seconds: number,
  target: { overhead: { setupS: number } },
): string[] {
  const variants = loaded.variants;
  const compare = variants?.compare;
  if (!variants || !compare || !schedule || compare.looks <= 1) return [];
  const designLooks = schedule.looks.length;
  if (compare.blocks < 3)
    return [
      `compare.looks ${compare.looks}: no further look — a look runs new blocks of fresh server pairs, and this comparison runs ${compare.blocks} block(s) (compare.blocks of 3 or more)`,
    ];
  const further = compare.looks - 1;
  const perLook = Math.max(0, seconds - target.overhead.setupS);
  const longest = seconds + further * perLook;
  const capped = compare.budget !== undefined && compare.budget < longest;
  const expected = expectedSeconds(loaded, designLooks, seconds, perLook);
  return [
    `looks: up to ${compare.looks} (compare.looks): a judgement still undecided after the design's blocks gets ${compare.blocks} more blocks of fresh server pairs per look, its cell only; ~${planDuration(seconds)} when every judgement is decided at the first look${expected !== undefined ? `, ~${planDuration(expected)} expected where nothing changed (compare.noise)` : ""}, ~${planDuration(capped ? (compare.budget as number) : longest)} at the longest (${capped ? `compare.budget: a look that would pass it is not taken; every look of every cell would take ~${planDuration(longest)}` : "every look of every cell"})`,
  ];
}

/**
 * The expected time where nothing changed: the design, then per further look each cell's share
 * of a look's time times the chance one of its judgements is still undecided (undecidedChance at
 * that look's blocks and error rate, the judgements taken as independent). Undefined without
 * compare.noise for every judged metric.
 */
function expectedSeconds(
  loaded: LoadedSpec,
  designLooks: number,
  seconds: number,
  perLook: number,
): number | undefined {
  const variants = loaded.variants;
  const compare = variants?.compare;
  const noise = compare?.noise;
  if (!variants || !compare || !noise) return undefined;
  const spec = variants.base.spec;
  const shares = lookShares(designLooks, compare.looks);
  const perBlock = compare.rounds / compare.blocks;
  const family = (look: number) =>
    familyOf(spec, compare.confidence, shares.length, variants.all.length - 1, shares[look]);
  const { keys } = family(0);
  let total = seconds;
  for (let look = 1; look < compare.looks; look++) {
    // the chance each cell is undecided after `look` looks (the design's last at index designLooks − 1)
    const alpha = family(designLooks - 2 + look).alpha;
    let open = 0;
    for (const k of keys) {
      let decided = 1;
      for (const [metric, rule] of Object.entries(k.rules)) {
        const n = metricNoise(noise, k.workload, metric);
        if (!n) return undefined;
        decided *= 1 - undecidedChance(n, { blocks: look * compare.blocks, perBlock }, alpha, rule.tolerance);
      }
      open += 1 - decided;
    }
    total += (perLook * open) / Math.max(1, keys.length);
  }
  return total;
}
