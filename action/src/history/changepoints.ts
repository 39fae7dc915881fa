// Change points in a series of weekly results: E-divisive means (Matteson & James 2014) with a
// permutation test, as MongoDB's CI uses it (signal-processing-algorithms) and Apache Otava after
// it. The statistic is the reference's exactly (its V-statistic form: within-sample sums divided
// by n², not n(n−1)), so both find the same points; tests/integration/history.test.ts checks that
// against the Python package on the same series.
import { rng } from "../compare/stats.ts";

/**
 * q(τ) for every split τ of the window: X = x[0..τ), Y = x[τ..n),
 * q = n·m/(n+m) · (2·mean|X−Y| − mean|X−X'| − mean|Y−Y'|).
 */
export function tStatistics(x: readonly number[]): number[] {
  const n = x.length;
  const d = (i: number, j: number) => Math.abs((x[i] as number) - (x[j] as number));
  const out = new Array<number>(n).fill(0);
  // sums over unordered pairs: within X, within Y, and across
  let within = 0;
  let acrossXY = 0;
  let withinY = 0;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) withinY += d(i, j);
  for (let tau = 0; tau < n; tau++) {
    const m = n - tau;
    const xy = tau > 0 && m > 0 ? acrossXY / (tau * m) : 0;
    const xx = tau > 0 ? (2 * within) / (tau * tau) : 0;
    const yy = m > 0 ? (2 * withinY) / (m * m) : 0;
    out[tau] = ((tau * m) / (tau + m)) * (2 * xy - xx - yy);
    // move element tau from Y to X
    let toX = 0;
    for (let i = 0; i < tau; i++) toX += d(i, tau);
    let toY = 0;
    for (let j = tau + 1; j < n; j++) toY += d(tau, j);
    acrossXY += toY - toX;
    within += toX;
    withinY -= toY;
  }
  return out;
}

export interface ChangePoint {
  /** Index of the first value of the new level. */
  index: number;
  /** The permutation test's p-value: (permutations at least as extreme) / (permutations + 1). */
  p: number;
  /** The statistic q at the split. */
  q: number;
}

export interface EDivisiveOptions {
  /** Significance of each new change point (default 0.05). */
  pvalue?: number;
  /** Permutations per test (default 199: p-values in steps of 0.005). */
  permutations?: number;
  /** Seed of the permutations: the same series gives the same answer every time. */
  seed?: number;
  /**
   * The fewest values a level may have (default 1, the reference's behaviour): a split leaving
   * fewer on either side is not a candidate, in the series and in its permutations alike (the
   * minimum segment length of the change-point literature), so one run off its level at the end
   * of a series is not a new level.
   */
  minSegment?: number;
}

/** The largest statistic over the splits leaving at least `min` values on each side. */
function bestSplit(stats: number[], min: number): { i: number; q: number } | undefined {
  let best: { i: number; q: number } | undefined;
  for (let i = min; i <= stats.length - min; i++)
    if (!best || (stats[i] as number) > best.q) best = { i, q: stats[i] as number };
  return best;
}

/**
 * Hierarchical E-divisive: the best split of the window holding the largest statistic becomes a
 * change point when the permutation test says so (the maximum over every window's shuffled values
 * reaches it in at most `pvalue` of the permutations); repeated until none is significant.
 */
export function eDivisive(series: readonly number[], o: EDivisiveOptions = {}): ChangePoint[] {
  const pvalue = o.pvalue ?? 0.05;
  const permutations = o.permutations ?? 199;
  const min = Math.max(1, Math.floor(o.minSegment ?? 1));
  const random = rng(o.seed ?? 1);
  const found: ChangePoint[] = [];
  const memo = new Map<string, { index: number; q: number }>();
  // bounded: each pass adds a point or stops, and there are at most n − 1 points
  for (let pass = 0; pass < series.length; pass++) {
    const cuts = [0, ...found.map((c) => c.index).sort((a, b) => a - b), series.length];
    let best: { index: number; q: number } | undefined;
    for (let w = 0; w + 1 < cuts.length; w++) {
      const a = cuts[w] as number;
      const b = cuts[w + 1] as number;
      const key = `${a}:${b}`;
      let cand = memo.get(key);
      if (!cand) {
        const split = bestSplit(tStatistics(series.slice(a, b)), min);
        cand = split ? { index: a + split.i, q: split.q } : { index: -1, q: Number.NEGATIVE_INFINITY };
        memo.set(key, cand);
      }
      if (cand.index >= 0 && (!best || cand.q > best.q)) best = cand;
    }
    if (!best || best.q <= 0) break;
    let atLeast = 0;
    for (let p = 0; p < permutations; p++) {
      let max = Number.NEGATIVE_INFINITY;
      for (let w = 0; w + 1 < cuts.length; w++) {
        const part = series.slice(cuts[w] as number, cuts[w + 1] as number);
        // Fisher–Yates with the seeded generator
        for (let i = part.length - 1; i > 0; i--) {
          const j = Math.floor(random() * (i + 1));
          [part[i], part[j]] = [part[j] as number, part[i] as number];
        }
        max = Math.max(max, bestSplit(tStatistics(part), min)?.q ?? Number.NEGATIVE_INFINITY);
      }
      if (max >= best.q) atLeast++;
    }
    const p = atLeast / (permutations + 1);
    if (p > pvalue) break;
    found.push({ index: best.index, p, q: best.q });
  }
  return found.sort((a, b) => a.index - b.index);
}

export interface Segment {
  from: number;
  to: number;
  mean: number;
}

/** The levels between change points. */
export function segmentsOf(series: readonly number[], points: readonly ChangePoint[]): Segment[] {
  const cuts = [0, ...points.map((p) => p.index), series.length];
  const out: Segment[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const part = series.slice(cuts[i] as number, cuts[i + 1] as number);
    out.push({
      from: cuts[i] as number,
      to: cuts[i + 1] as number,
      mean: part.reduce((s, v) => s + v, 0) / part.length,
    });
  }
  return out;
}
