// A comparison spread over runners: shard K of N runs every N-th block of the one schedule the
// whole comparison has (same seed, same block and round numbers, same orders), so that the N
// shards together ran exactly that comparison's blocks; `tiperf merge` judges them as one.
import { InputError } from "../errors.ts";
import type { CompareSchedule } from "./schedule.ts";

/** Which share of a comparison's blocks this run measures: K of N, 1-based. */
export interface Shard {
  index: number;
  of: number;
}

/** `--shard K/N`, checked: whole numbers, 1 ≤ K ≤ N. */
export function parseShard(text: string, flag = "--shard"): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(m?.[1]);
  const of = Number(m?.[2]);
  if (!m || of < 1 || index < 1 || index > of)
    throw new InputError(
      `${flag} must be K/N, this runner's share K of N runners, 1 ≤ K ≤ N (like 2/4); got ${JSON.stringify(text)}`,
    );
  return { index, of };
}

/** The blocks of shard K of N: every N-th block, starting with the K-th. */
export function shardBlocks(blocks: number, shard: Shard): number[] {
  return Array.from({ length: blocks }, (_, i) => i + 1).filter(
    (b) => (b - 1) % shard.of === shard.index - 1,
  );
}

/** Why a comparison cannot be cut into these shards (each names the setting). */
export function shardRefusals(
  compare: { rounds: number; max_rounds?: number | undefined; blocks: number; seed?: number | undefined },
  shard: Shard,
  seedGiven: boolean,
  /** The flag as given: `--shard 2/3`, or `--shards 3` planning every runner's share. */
  said = `--shard ${shard.index}/${shard.of}`,
): string[] {
  const out: string[] = [];
  if (!seedGiven && compare.seed === undefined)
    out.push(
      `${said} needs --seed N or compare.seed: every shard must run the one schedule the seed fixes (tiperf plan prints one)`,
    );
  if (compare.blocks < shard.of)
    out.push(
      `${said}: compare.blocks is ${compare.blocks}, fewer than ${shard.of} shards; a shard runs whole blocks (fresh instances), so give compare.blocks (or --blocks) at least ${shard.of}`,
    );
  if ((compare.max_rounds ?? compare.rounds) > compare.rounds)
    out.push(
      `${said}: compare.max_rounds (${compare.max_rounds}) stops a comparison early by looking at all its rounds so far; shards cannot: leave compare.max_rounds out`,
    );
  return out;
}

/**
 * The share of `schedule` that shard K runs: its blocks with their own numbers, rounds and turns;
 * its first block starts on the servers the run starts (no restart before it).
 */
export function shardSchedule(schedule: CompareSchedule, shard: Shard): CompareSchedule {
  // every N-th block by its place (a further look's blocks number on from the design's)
  const blocks = schedule.blocks
    .filter((_, i) => i % shard.of === shard.index - 1)
    .map((b, i) => (i === 0 ? { ...b, restarts: [], reload: undefined } : b))
    .map(({ reload, ...b }) => (reload ? { ...b, reload } : b));
  // a shard runs its share of the design; further looks are the merge's (merged parts judged once)
  const { further: _further, ...whole } = schedule;
  return { ...whole, blocks, shard };
}

/** What a shard's result records of its share: K/N, the seed, order and blocks, its wave, the spec as given. */
export function partOf(
  shard: Shard,
  schedule: CompareSchedule,
  given: { hash: string; raw: Record<string, unknown> },
) {
  return {
    ...shard,
    seed: schedule.seed,
    order: schedule.order,
    blocks: schedule.blocks.map((b) => b.block),
    ...(schedule.wave ? { look: schedule.wave.look } : {}),
    spec_sha256: given.hash,
    spec: given.raw,
  };
}
