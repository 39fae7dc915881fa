import { rng } from "../compare/stats.ts";
import type { LoadedSpec } from "../specfile/load.ts";
import { planCells } from "./cells.ts";
export type Order = "base-first" | "head-first";

/**
 * Balanced, randomized order per cell across rounds: every two consecutive rounds of a cell run
 * once base-first and once head-first (AB BA or BA AB, chosen at random), so a linear drift over
 * time hits both variants alike and no variant always enjoys the warmer cache.
 * Returns order[round][cell].
 */
export function interleavedOrder(rounds: number, cells: number, seed: number): Order[][] {
  const random = rng(seed);
  const perCell: Order[][] = [];
  for (let c = 0; c < cells; c++) {
    const seq: Order[] = [];
    while (seq.length < rounds) {
      const pair: Order[] = random() < 0.5 ? ["base-first", "head-first"] : ["head-first", "base-first"];
      seq.push(...pair);
    }
    perCell.push(seq.slice(0, rounds));
  }
  return Array.from({ length: rounds }, (_, r) => perCell.map((seq) => seq[r] as Order));
}

/**
 * Rounds after which a comparison looks at its verdicts: rounds, 2×rounds, 4×rounds, … and
 * max_rounds. Few looks keep the Bonferroni share per look large (every look spends error rate).
 */
export function lookRounds(rounds: number, maxRounds: number): number[] {
  const looks: number[] = [];
  for (let r = rounds; r < maxRounds; r *= 2) looks.push(r);
  looks.push(maxRounds);
  return looks;
}

/**
 * The rows of a Williams design for n treatments: every treatment once in each position, and every
 * ordered pair of neighbours (a just before b) equally often, so what one variant leaves behind
 * (a warm cache, a busy disk) falls on each other variant alike. Even n: n rows; odd n: 2n (the
 * square and its mirror).
 */
export function williamsRows(n: number): number[][] {
  // first row 0, 1, n−1, 2, n−2, …; row i adds i to each entry
  const first: number[] = [];
  for (let k = 0, lo = 0, hi = n - 1; k < n; k++) first.push(k % 2 === 0 ? lo++ : hi--);
  const square = Array.from({ length: n }, (_, i) => first.map((x) => (x + i) % n));
  return n % 2 === 0 ? square : [...square, ...square.map((row) => [...row].reverse())];
}

/**
 * More than two variants: per cell, the rows of a Williams design with the variants relabelled by
 * a seeded random permutation; round r runs row (r − 1) mod rows. Over every cycle of rows each
 * variant runs once in each position and follows each other variant equally often, so drift over
 * time and carry-over from one variant to the next hit every variant alike.
 */
export function balancedOrders(variants: number, cells: number, seed: number): number[][][] {
  const random = rng(seed);
  const rows = williamsRows(variants);
  return Array.from({ length: cells }, () => {
    const perm = Array.from({ length: variants }, (_, i) => i);
    for (let i = perm.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [perm[i], perm[j]] = [perm[j] as number, perm[i] as number];
    }
    return rows.map((row) => row.map((x) => perm[x] as number));
  });
}

/** One round of a comparison: each cell's turn (the order its variants run in; duet: at once). */
export interface ScheduledRound {
  /** 0: a warmup round (run again on fresh instances, never judged). */
  round: number;
  /** Per cell of the round, the variants in the order they run. */
  turns: string[][];
}

/** One block: the instances it runs on (fresh after a restart) and its rounds. */
export interface ScheduledBlock {
  block: number;
  /** Variants restarted before the block, in this order (none before the first). */
  restarts: string[];
  /** Each restarted variant's data loaded again after its restart (compare.reload_data). */
  reload?: boolean;
  /** Grouped (a switch restarts servers): the variants in the order their groups run. */
  groups?: string[];
  rounds: ScheduledRound[];
}

/**
 * What a comparison runs, and in which order, decided from its seed before anything starts:
 * seed → blocks → rounds → turns. `tiperf plan` prints it; compareSpec walks it. Looks (early
 * stops) may end it before its last block.
 */
export interface CompareSchedule {
  seed: number;
  order: "interleaved" | "duet";
  /** Rounds after which the verdicts are looked at (compare.max_rounds: early stop). */
  looks: number[];
  blocks: ScheduledBlock[];
  /** A share of the comparison (bench/cut.ts): its blocks only, numbered as in the whole. */
  shard?: { index: number; of: number };
  /** compare.looks > 1: the looks that may follow the design's blocks, for undecided cells only. */
  further?: FurtherLooks;
  /**
   * A further look run as a wave of shards (compare --look-of): its number (2 = the first after
   * the design's) and the cells it measures (their indices in a round), the undecided ones only.
   */
  wave?: { look: number; cells: number[] };
}

/**
 * The looks that may follow a comparison's design (compare.looks − 1 of them): each runs `blocks`
 * more blocks of fresh server pairs (every variant restarted, in a seeded random order; the data
 * loaded again with compare.reload_data), warmup rounds and `roundsPerBlock` rounds each, of the
 * cells still undecided only, while compare.budget lasts. Their blocks are numbered after the
 * design's, their rounds after its last round (furtherBlocks).
 */
export interface FurtherLooks {
  looks: number;
  blocks: number;
  roundsPerBlock: number;
  warmupRounds: number;
  reload: boolean;
}

/**
 * The blocks of further look `look` (2 = the first after the design's): numbered on from the
 * design's last block, rounds on from its last round; each cell's turns balanced as the design's
 * (AB/BA pairs, or Williams rows for more variants), drawn from the seed and the look. Every cell
 * has a turn in every round: the run measures only the undecided ones.
 */
export function furtherBlocks(
  s: CompareSchedule,
  names: string[],
  cells: number,
  look: number,
): ScheduledBlock[] {
  const f = s.further;
  if (!f || look < 2 || look > f.looks + 1) return [];
  const designBlocks = s.blocks.at(-1)?.block ?? 0;
  const designRounds = Math.max(0, ...s.blocks.flatMap((b) => b.rounds.map((r) => r.round)));
  const seed = (s.seed ^ Math.imul(look, 0x27d4eb2d)) >>> 0;
  const per = f.blocks * f.roundsPerBlock;
  const turnOf = drawnTurns(names, cells, per, seed);
  const restartOrder = restarted(names, seed);
  const firstRound = designRounds + (look - 2) * per + 1;
  return Array.from({ length: f.blocks }, (_, b) => {
    const restarts = restartOrder();
    const rounds: ScheduledRound[] = [
      ...Array.from({ length: f.warmupRounds }, () => ({
        round: 0,
        turns: Array.from({ length: cells }, () => names),
      })),
      ...Array.from({ length: f.roundsPerBlock }, (_, r) => {
        const i = b * f.roundsPerBlock + r;
        return { round: firstRound + i, turns: Array.from({ length: cells }, (_, c) => turnOf(i, c)) };
      }),
    ];
    return {
      block: designBlocks + (look - 2) * f.blocks + b + 1,
      restarts,
      ...(f.reload ? { reload: true } : {}),
      rounds,
    };
  });
}

/**
 * Further look `look` as a schedule of its own (a wave of shards: compare --look-of): its blocks
 * (furtherBlocks), of the cells `open` only, no look after it; sharded like the design's.
 */
export function waveSchedule(
  s: CompareSchedule,
  names: string[],
  cells: number,
  look: number,
  open: number[],
) {
  const { further: _further, ...rest } = s;
  return { ...rest, blocks: furtherBlocks(s, names, cells, look), wave: { look, cells: open } };
}

/** The last round of look `look` (1: the design's blocks; rounds of further looks number on). */
export function lastRoundOf(s: CompareSchedule, look: number): number {
  const design = Math.max(0, ...s.blocks.flatMap((b) => b.rounds.map((r) => r.round)));
  const f = s.further;
  return look <= 1 || !f ? design : design + (look - 1) * f.blocks * f.roundsPerBlock;
}

/** A seed from a text (a run id): the order of a run is fixed by its id unless compare.seed says. */
export function seedOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h % 2 ** 31;
}

/** Each next block's restart order: the variants shuffled, seeded (the same draws as ever for a seed). */
function restarted(names: string[], seed: number): () => string[] {
  const random = rng(seed ^ 0x5bd1e995);
  return () => {
    const order = [...names];
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j] as string, order[i] as string];
    }
    return order;
  };
}

/** What a comparison's schedule is drawn from: its spec's design, its cells and its seed. */
export interface ScheduleOptions {
  names: string[];
  cells: number;
  rounds: number;
  maxRounds: number;
  blocks: number;
  warmupRounds: number;
  seed: number;
  order: "interleaved" | "duet";
  grouped: boolean;
  /** compare.reload_data: the data loaded again with every restart. */
  reloadData?: boolean;
  /** compare.looks: looks in all, the design's included (further ones need blocks, not grouped). */
  looks?: number;
}

/**
 * Each cell's turn in the i-th measured round (0-based) of a series of `rounds` drawn from `seed`.
 * Two variants: AB/BA pairs per cell; more: per cell the rows of a Williams design, relabelled at
 * random (each variant once in each position, each ordered pair of neighbours equally often).
 * Duet: the order the pairs' load tools are started in, balanced as interleaved's turns are.
 */
function drawnTurns(names: string[], cells: number, rounds: number, seed: number) {
  const pairOrder = interleavedOrder(rounds, cells, seed);
  const balanced = names.length > 2 ? balancedOrders(names.length, cells, seed) : [];
  return (i: number, cell: number): string[] => {
    if (names.length === 2)
      return (pairOrder[i]?.[cell] ?? "base-first") === "base-first" ? names : [...names].reverse();
    const rows = balanced[cell] as number[][];
    return (rows[i % rows.length] as number[]).map((x) => names[x] as string);
  };
}

export function compareSchedule(o: ScheduleOptions): CompareSchedule {
  const { names, seed } = o;
  const drawn = drawnTurns(names, o.cells, o.maxRounds, seed);
  // round 0 (warmup): every variant in its declared order
  const turnOf = (round: number, cell: number): string[] => (round === 0 ? names : drawn(round - 1, cell));
  const perBlock = o.blocks > 1 ? o.rounds / o.blocks : o.maxRounds;
  const lastBlock = Math.ceil(o.maxRounds / perBlock);
  // grouped: the variants' order per block, balanced over blocks (AB BA … for two; Williams rows for more)
  const groupPairs = names.length === 2 ? interleavedOrder(lastBlock, 1, seed ^ 0x9e3779b9) : [];
  const groupRows =
    names.length > 2
      ? (balancedOrders(names.length, 1, seed ^ 0x9e3779b9)[0] as number[][]).map((row) =>
          row.map((i) => names[i] as string),
        )
      : [];
  const groupOrder = (block: number): string[] =>
    names.length === 2
      ? (groupPairs[block - 1]?.[0] ?? "base-first") === "base-first"
        ? names
        : [...names].reverse()
      : (groupRows[(block - 1) % groupRows.length] as string[]);
  // fresh instances before each block after the first, in random order
  const restartOrder = restarted(names, seed);
  const blocks: ScheduledBlock[] = [];
  for (let block = 1; block <= lastBlock; block++) {
    const restarts: string[] = block > 1 && !o.grouped ? restartOrder() : [];
    const round = (r: number): ScheduledRound => ({
      round: r,
      turns: Array.from({ length: o.cells }, (_, c) => turnOf(r, c)),
    });
    const rounds = [
      ...Array.from({ length: o.warmupRounds }, () => round(0)),
      ...Array.from({ length: Math.min(block * perBlock, o.maxRounds) - (block - 1) * perBlock }, (_, i) =>
        round((block - 1) * perBlock + 1 + i),
      ),
    ];
    blocks.push({
      block,
      restarts,
      ...(o.reloadData && restarts.length ? { reload: true } : {}),
      ...(o.grouped ? { groups: groupOrder(block) } : {}),
      rounds,
    });
  }
  const further = furtherOf(o, perBlock);
  return {
    seed,
    order: o.order,
    looks: lookRounds(o.rounds, o.maxRounds),
    blocks,
    ...(further ? { further } : {}),
  };
}

/** compare.looks > 1 with blocks (not grouped turns): the further looks a schedule may take. */
function furtherOf(o: ScheduleOptions, roundsPerBlock: number): FurtherLooks | undefined {
  if ((o.looks ?? 1) <= 1 || o.blocks <= 1 || o.grouped) return undefined;
  const looks = (o.looks as number) - 1;
  return {
    looks,
    blocks: o.blocks,
    roundsPerBlock,
    warmupRounds: o.warmupRounds,
    reload: o.reloadData === true,
  };
}

/** The schedule as the plan prints it: a line per block (restarts, rounds, each round's turns). */
export function scheduleLines(s: CompareSchedule): string[] {
  const turnText = (t: string[]) => (s.order === "duet" ? "at once" : t.join("→"));
  const out = [
    s.shard
      ? `schedule (seed ${s.seed}), shard ${s.shard.index} of ${s.shard.of}: block(s) ${s.blocks.map((b) => b.block).join(", ")} of the comparison; judged when \`tiperf merge\` has every shard's result`
      : `schedule (seed ${s.seed}): ${s.blocks.length} block(s); verdicts looked at after round(s) ${s.looks.join(", ")}`,
  ];
  for (const b of s.blocks) {
    const measured = b.rounds.filter((r) => r.round > 0);
    const warm = b.rounds.length - measured.length;
    const first = measured[0]?.round;
    const last = measured.at(-1)?.round;
    const turns = measured.map((r) => `${r.round}: ${r.turns.map(turnText).join(" ")}`).join("; ");
    out.push(
      `  block ${b.block}${b.restarts.length ? ` (restart ${b.restarts.join(", ")}${b.reload ? ", each with its data loaded again" : ""})` : ""}${b.groups ? ` (groups ${b.groups.join(", ")})` : ""}: ${warm ? `${warm} warmup round(s), ` : ""}rounds ${first}–${last}${s.order === "duet" ? "" : ` — ${turns}`}`,
    );
  }
  const f = s.further;
  if (f)
    out.push(
      `  then, while a judgement is undecided and compare.budget lasts, up to ${f.looks} further look(s) (compare.looks ${f.looks + 1}): each ${f.blocks} more blocks of fresh server pairs (every variant restarted${f.reload ? ", its data loaded again" : ""}), ${f.warmupRounds ? `${f.warmupRounds} warmup round(s) and ` : ""}${f.roundsPerBlock} round(s) each, of the undecided cells only; their order drawn from the seed and the look`,
    );
  return out;
}

/** A comparison's order, fixed by its seed (compare.seed, --seed, else one drawn from the run id). */
export function scheduleOf(loaded: LoadedSpec, grouped: boolean, seed: number): CompareSchedule | undefined {
  const variants = loaded.variants;
  if (!variants) return undefined;
  const compare = variants.compare;
  return compareSchedule({
    names: variants.all.map((v) => v.name),
    cells: planCells(variants.base.spec).length,
    rounds: compare.rounds,
    maxRounds: compare.max_rounds ?? compare.rounds,
    blocks: compare.blocks,
    warmupRounds: compare.warmup_rounds,
    seed,
    order: compare.order === "duet" ? "duet" : "interleaved",
    grouped,
    reloadData: compare.reload_data,
    looks: compare.looks,
  });
}
