// compare.noise measured: from the paired rounds of an A/A comparison (two identical variants),
// per cell and metric, the two parts the design's intervals are made of — the round-to-round sd
// of log(head/base) within a pair of instances (a block), and the sd of a pair's steady gap (the
// block means, less what the rounds' own noise puts into them).
import { mean, stddev } from "./stats.ts";

export interface NoiseParts {
  /** sd of log(head/base) of one round within a block. */
  rounds: number;
  /** sd of a block's steady gap (0 where the block means vary no more than their rounds explain). */
  instances: number;
}

/** The noise of one cell's metric from its paired rounds: [base, head, block] each. */
export function noiseOf(pairs: readonly (readonly [number, number, number])[]): NoiseParts | undefined {
  if (pairs.length < 2) return undefined;
  const logs = pairs.map(([b, h]) => Math.log(h / b));
  const byBlock = new Map<number, number[]>();
  pairs.forEach((p, i) => {
    byBlock.set(p[2], [...(byBlock.get(p[2]) ?? []), logs[i] as number]);
  });
  const groups = [...byBlock.values()].filter((g) => g.length > 1);
  const df = groups.reduce((s, g) => s + g.length - 1, 0);
  // one round per block: rounds and instances cannot be told apart; all of it is the rounds'
  if (df === 0) return { rounds: stddev(logs), instances: 0 };
  const within = Math.sqrt(
    groups.reduce((s, g) => s + g.reduce((t, x) => t + (x - mean(g)) ** 2, 0), 0) / df,
  );
  const means = [...byBlock.values()].map(mean);
  const perBlock = pairs.length / byBlock.size;
  const instances =
    means.length > 2 ? Math.sqrt(Math.max(0, stddev(means) ** 2 - within ** 2 / perBlock)) : 0;
  return { rounds: within, instances };
}
