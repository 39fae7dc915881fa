import { rng } from "../compare/stats.ts";
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
  /** A share of the comparison (pipeline/shard.ts): its blocks only, numbered as in the whole. */
  shard?: { index: number; of: number };
}

/** A seed from a text (a run id): the order of a run is fixed by its id unless compare.seed says. */
export function seedOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h % 2 ** 31;
}

export function compareSchedule(o: {
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
}): CompareSchedule {
  const { names, seed } = o;
  // two variants: AB/BA pairs per cell; more: per cell the rows of a Williams design, relabelled at
  // random (each variant once in each position, each ordered pair of neighbours equally often)
  const pairOrder = interleavedOrder(o.maxRounds, o.cells, seed);
  const balanced = names.length > 2 ? balancedOrders(names.length, o.cells, seed) : [];
  const turnOf = (round: number, cell: number): string[] => {
    // duet: the order the pairs' load tools are started in, balanced as interleaved's turns are
    if (round === 0) return names;
    if (names.length === 2)
      return (pairOrder[round - 1]?.[cell] ?? "base-first") === "base-first" ? names : [...names].reverse();
    const rows = balanced[cell] as number[][];
    return (rows[(round - 1) % rows.length] as number[]).map((i) => names[i] as string);
  };
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
  const restartOrder = rng(seed ^ 0x5bd1e995);
  const blocks: ScheduledBlock[] = [];
  for (let block = 1; block <= lastBlock; block++) {
    let restarts: string[] = [];
    if (block > 1 && !o.grouped) {
      restarts = [...names];
      for (let i = restarts.length - 1; i > 0; i--) {
        const j = Math.floor(restartOrder() * (i + 1));
        [restarts[i], restarts[j]] = [restarts[j] as string, restarts[i] as string];
      }
    }
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
  return { seed, order: o.order, looks: lookRounds(o.rounds, o.maxRounds), blocks };
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
  return out;
}
