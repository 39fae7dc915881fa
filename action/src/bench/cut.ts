// What a run takes of a comparison's one schedule: all of it, a further look's wave (--look-of),
// a shard's share (--shard K/N) of either. Shard K of N runs every N-th block of the schedule the
// whole comparison has (same seed, same block and round numbers, same orders), so that the N
// shards together ran exactly that comparison's blocks; `tiperf merge` judges them as one. The
// command's seed, shard and look reach the bench here only: the plan carries the cut schedule.
import { InputError } from "../errors.ts";
import type { LoadedSpec } from "../specfile/load.ts";
import { planCells } from "./cells.ts";
import { type CompareSchedule, waveSchedule } from "./schedule.ts";

/** A further look to run as a wave: its number (2 = the first after the design's) and its cells. */
export interface Wave {
  look: number;
  cells: { workload: string; threads: number }[];
}

export const cellText = (c: { workload: string; threads: number }) => `${c.workload} threads=${c.threads}`;

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
      `${flag} must be K/N, this runner's share K of N runners, 1 ≤ K ≤ N (like 2/4) (got ${JSON.stringify(text)})`,
    );
  return { index, of };
}

/** The blocks of shard K of N: every N-th block, starting with the K-th. */
export function shardBlocks(blocks: number, shard: Shard): number[] {
  return Array.from({ length: blocks }, (_, i) => i + 1).filter(
    (b) => (b - 1) % shard.of === shard.index - 1,
  );
}

/** How a refusal names the options it is about: the command line's flags, or the Action's inputs. */
export interface ShardWords {
  /** The shard as given: `--shard 2/3`, `'shard' input 2/3`, or `--shards 3` planning every runner's share. */
  said: string;
  seed: string;
  blocks: string;
}

/** The command line's words for the settings a shard needs (plan's, and compare's flags). */
const FLAG_WORDS = { seed: "--seed", blocks: "--blocks" };

/** Why a comparison cannot be cut into these shards (each names the setting). */
export function shardRefusals(
  compare: { rounds: number; max_rounds?: number | undefined; blocks: number; seed?: number | undefined },
  shard: Shard,
  seedGiven: boolean,
  words: ShardWords = { said: `--shard ${shard.index}/${shard.of}`, ...FLAG_WORDS },
): string[] {
  const { said } = words;
  const out: string[] = [];
  if (!seedGiven && compare.seed === undefined)
    out.push(
      `${said} needs ${words.seed} or compare.seed: every shard must run the one schedule the seed fixes (any integer, one for all the shards: a job before them can draw it)`,
    );
  if (compare.blocks < shard.of)
    out.push(
      `${said}: compare.blocks is ${compare.blocks}, fewer than ${shard.of} shards; a shard runs whole blocks (fresh instances), so give compare.blocks (or ${words.blocks}) at least ${shard.of}`,
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

/** How a run cuts the comparison's schedule: the command's seed, shard and look; plan's --shards. */
export interface Cut {
  seed?: number | undefined;
  shard?: Shard | undefined;
  look?: Wave | undefined;
  shards?: number | undefined;
  /** A run's shard is a share of its cells (the run command's shardCells), not of blocks. */
  command?: "run" | "compare" | undefined;
}

/**
 * The share of the design's schedule a run takes (a further look's wave, then a shard's share of
 * it or of the design), the plan's lines on it, and why it cannot be cut so.
 */
export function cutOf(loaded: LoadedSpec, design: CompareSchedule | undefined, cut: Cut, seconds: number) {
  const o = cut.command === "run" ? { ...cut, shard: undefined } : cut;
  const wave = o.look && design ? waveOf(loaded, design, o.look, o.shard) : undefined;
  const whole = wave?.schedule ?? design;
  // (a wave measures its cells only: its share of the estimate)
  const cells = Math.max(1, design?.blocks[0]?.rounds[0]?.turns.length ?? 1);
  const share = wave?.schedule ? wave.schedule.wave.cells.length / cells : 1;
  const runners = o.shards && whole ? runnersOf(loaded, whole, o.shards, seconds) : undefined;
  return { wave, whole, runners, ...shareOf(loaded, whole, o, seconds * share) };
}

/**
 * The whole schedule of wave `wave` (its cells only) for the plan, its line, and why it cannot
 * run: it needs a look the spec allows and the wave's cells among the spec's.
 */
export function waveOf(loaded: LoadedSpec, whole: CompareSchedule, wave: Wave, shard: Shard | undefined) {
  const variants = loaded.variants;
  const refusals: string[] = [];
  if (!variants)
    return { refusals: ["--look-of: a further look is a share of a comparison; this spec has no variants"] };
  const f = whole.further;
  if (!f || wave.look > f.looks + 1)
    refusals.push(
      `--look-of: look ${wave.look} is not one ${loaded.path} may take (compare.looks ${variants.compare.looks}${f ? "" : ", further looks need compare.blocks of 3 or more"})`,
    );
  if (!shard)
    refusals.push(
      "--look-of: a further look as a wave runs on the comparison's runners: give --shard K/N (one runner takes its looks itself, in one tiperf compare)",
    );
  const planned = planCells(variants.base.spec);
  const indices = wave.cells.map((c) =>
    planned.findIndex((p) => p.workload.name === c.workload && p.threads === c.threads),
  );
  const absent = wave.cells.filter((_, i) => (indices[i] as number) < 0);
  if (absent.length)
    refusals.push(
      `--look-of: ${absent.map(cellText).join(", ")} are not cells of ${loaded.path}: give the spec the verdict judged`,
    );
  const names = variants.all.map((v) => v.name);
  const schedule = waveSchedule(
    whole,
    names,
    planned.length,
    wave.look,
    indices.filter((i) => i >= 0),
  );
  const line = `look ${wave.look} of at most ${variants.compare.looks} (compare.looks), as a wave of shards: ${wave.cells.map(cellText).join(", ")} again in block(s) ${schedule.blocks.map((b) => b.block).join(", ")} of fresh server pairs; \`tiperf merge\` of the design's parts and this wave's judges it`;
  return { schedule, line, refusals };
}

/** plan --shards N: each runner's blocks and minutes; the merge judges the same blocks as one run. */
function runnersOf(loaded: LoadedSpec, whole: CompareSchedule, n: number, seconds: number) {
  if (!loaded.variants)
    return { lines: [], refusals: ["--shards: only a comparison (a spec with variants) is cut into shards"] };
  const refusals = loaded.same
    ? []
    : shardRefusals(loaded.variants.compare, { index: 1, of: n }, true, {
        said: `--shards ${n}`,
        ...FLAG_WORDS,
      });
  const shares = Array.from({ length: n }, (_, i) => shardSchedule(whole, { index: i + 1, of: n }));
  const minutes = (s: CompareSchedule) => Math.ceil((seconds * s.blocks.length) / whole.blocks.length / 60);
  const longest = Math.max(...shares.map(minutes));
  return {
    refusals,
    lines: [
      `on ${n} runner(s) (compare --seed ${whole.seed} --shard K/${n}, then tiperf merge): ${shares.map((s) => `shard ${s.shard?.index}: block(s) ${s.blocks.map((b) => b.block).join(", ")}, ~${minutes(s)} min`).join("; ")}; the check waits ~${longest} min instead of ~${Math.ceil(seconds / 60)}, and the merged verdict judges the same ${whole.blocks.length} blocks as one run: the smallest changes it detects are the ones above (more runners with more blocks, --blocks, detect smaller ones in the same time)`,
    ],
  };
}

/** --shard K/N: the share of the whole schedule this run takes, the plan's line on it, refusals. */
function shareOf(loaded: LoadedSpec, whole: CompareSchedule | undefined, o: Cut, seconds: number) {
  const shard = o.shard;
  if (!shard) return { schedule: whole, shardLine: undefined, shardRefused: [] as string[] };
  if (!whole || !loaded.variants)
    return {
      schedule: whole,
      shardLine: undefined,
      shardRefused: ["--shard: a shard is a share of a comparison; this spec has no variants"],
    };
  const schedule = shardSchedule(whole, shard);
  const minutes = Math.ceil((seconds * schedule.blocks.length) / whole.blocks.length / 60);
  return {
    schedule,
    shardLine: `shard ${shard.index} of ${shard.of}: ${schedule.blocks.length} of the comparison's ${whole.blocks.length} blocks (${schedule.blocks.map((b) => b.block).join(", ")}), ~${minutes} min of the estimate above; the verdict is \`tiperf merge\` of every shard's result`,
    // a shard of one target measures nothing and leaves its part (compare's door says the same)
    shardRefused: loaded.same ? [] : shardRefusals(loaded.variants.compare, shard, o.seed !== undefined),
  };
}
