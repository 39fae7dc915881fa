/** mulberry32: a small seeded PRNG, so an interleaving order can be replayed from its seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
