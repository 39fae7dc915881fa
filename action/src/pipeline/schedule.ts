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
 * More than two variants: per cell a seeded random permutation of the variants; round r runs it
 * rotated by r, so every N consecutive rounds put each variant once in each position (a Latin
 * square) and drift over time hits every variant alike. Returns, per cell, the permutation.
 */
export function rotatedOrders(variants: number, cells: number, seed: number): number[][] {
  const random = rng(seed);
  return Array.from({ length: cells }, () => {
    const perm = Array.from({ length: variants }, (_, i) => i);
    for (let i = perm.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [perm[i], perm[j]] = [perm[j] as number, perm[i] as number];
    }
    return perm;
  });
}
