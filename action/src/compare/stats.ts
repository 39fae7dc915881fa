/**
 * Small, dependency-free statistics for paired and unpaired comparisons on the log scale.
 * Benchmark throughput and latency are ratio-scale and right-skewed: differences of logs turn
 * "head is 5% slower" into an additive shift whose mean has a t-distributed estimate.
 */

export const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export function variance(xs: readonly number[]): number {
  if (xs.length < 2) return Number.NaN;
  const m = mean(xs);
  return xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1);
}

export const stddev = (xs: readonly number[]) => Math.sqrt(variance(xs));

export function logGamma(x: number): number {
  // Lanczos approximation (g=7, n=9).
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let a = c[0] as number;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += (c[i] as number) / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Continued fraction for the regularized incomplete beta function (modified Lentz). */
function betaCf(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-14) break;
  }
  return h;
}

export function incompleteBeta(a: number, b: number, x: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? (front * betaCf(a, b, x)) / a : 1 - (front * betaCf(b, a, 1 - x)) / b;
}

/** Student's t cumulative distribution function. */
export function tCdf(t: number, df: number): number {
  const x = df / (df + t * t);
  const tail = 0.5 * incompleteBeta(df / 2, 0.5, x);
  return t >= 0 ? 1 - tail : tail;
}

/** Quantiles already computed, by p and df: judgements and their simulations ask the same ones again and again. */
const T_QUANTILES = new Map<string, number>();
const T_QUANTILES_MAX = 50_000;

/** Student's t quantile, by bisection on the CDF (monotone; 200 steps reach double precision); remembered. */
export function tQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`tQuantile: p must be in (0, 1), got ${p}`);
  if (!Number.isFinite(df)) return normalQuantile(p);
  const key = `${p}/${df}`;
  const known = T_QUANTILES.get(key);
  if (known !== undefined) return known;
  if (T_QUANTILES.size >= T_QUANTILES_MAX) T_QUANTILES.clear();
  const q = bisectT(p, df);
  T_QUANTILES.set(key, q);
  return q;
}

function bisectT(p: number, df: number): number {
  let lo = -1e4;
  let hi = 1e4;
  for (let i = 0; i < 200 && hi - lo > 1e-12; i++) {
    const mid = (lo + hi) / 2;
    if (tCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Standard normal quantile (Acklam's rational approximation, |error| < 1.2e-9). */
export function normalQuantile(p: number): number {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const pl = 0.02425;
  const poly = (k: number[], x: number) => k.reduce((s, v) => s * x + v, 0);
  if (p < pl) {
    const q = Math.sqrt(-2 * Math.log(p));
    return poly(c, q) / (poly(d, q) * q + 1);
  }
  if (p > 1 - pl) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (poly(a, r) * q) / (poly(b, r) * r + 1);
}

/** The standard normal CDF (Abramowitz–Stegun 7.1.26, error below 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) *
      t *
      Math.exp(-x * x);
  return z >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

/** A shift on the log scale with its standard error and degrees of freedom. */
export interface LogShift {
  estimate: number;
  se: number;
  df: number;
  n: number;
}

/**
 * Share trimmed from each end of the paired differences (Yuen–Tukey). 10% keeps the nominal
 * false-alarm rate at every round count measured (6–24 rounds, 4000 seeds each: 4.2–5.3% for a
 * nominal 5%); 20% ran liberal at small counts (5.6–6.4%).
 */
export const TRIM = 0.1;

/**
 * Trimmed mean and its standard error from the winsorized variance (Yuen 1974): a t interval
 * that keeps its coverage when a few rounds were hit by a passing neighbour, as shared machines do.
 * With `trim` 0 it is the ordinary t interval.
 */
export function trimmedShift(xs: readonly number[], trim: number): LogShift {
  const n = xs.length;
  const g = Math.floor(trim * n);
  const sorted = [...xs].sort((a, b) => a - b);
  const kept = sorted.slice(g, n - g);
  const lo = sorted[g] as number;
  const hi = sorted[n - g - 1] as number;
  const winsorized = sorted.map((x) => Math.min(Math.max(x, lo), hi));
  const h = n - 2 * g;
  const se = Math.sqrt(variance(winsorized) / n) / (h / n);
  return { estimate: mean(kept), se, df: h - 1, n };
}

/** The indices trimmedShift keeps: all but the `trim` share at each end of the sorted values. */
export function keptByTrim(xs: readonly number[], trim: number): number[] {
  const n = xs.length;
  const g = Math.floor(trim * n);
  return xs
    .map((x, i) => [x, i] as const)
    .sort((a, b) => a[0] - b[0])
    .slice(g, n - g)
    .map(([, i]) => i);
}

/** Paired: log(head/base) per round (both variants measured side by side or interleaved). */
export function pairedLogShift(base: readonly number[], head: readonly number[], trim = TRIM): LogShift {
  if (base.length !== head.length) throw new Error("paired samples must have equal length");
  return trimmedShift(
    base.map((b, i) => Math.log((head[i] as number) / b)),
    trim,
  );
}

/** Unpaired (Welch): difference of mean logs, with Welch–Satterthwaite degrees of freedom. */
export function welchLogShift(base: readonly number[], head: readonly number[]): LogShift {
  const lb = base.map(Math.log);
  const lh = head.map(Math.log);
  const vb = variance(lb) / lb.length;
  const vh = variance(lh) / lh.length;
  const se = Math.sqrt(vb + vh);
  const df = (vb + vh) ** 2 / (vb ** 2 / (lb.length - 1) + vh ** 2 / (lh.length - 1));
  return { estimate: mean(lh) - mean(lb), se, df, n: Math.min(lb.length, lh.length) };
}

/**
 * Batch means: consecutive, autocorrelated interval samples averaged into `batches` blocks, which
 * are close to independent when the blocks are much longer than the correlation time.
 */
export function batchMeans(xs: readonly number[], batches: number): number[] {
  const k = Math.min(batches, xs.length);
  const out: number[] = [];
  for (let i = 0; i < k; i++) {
    const from = Math.floor((i * xs.length) / k);
    const to = Math.floor(((i + 1) * xs.length) / k);
    out.push(mean(xs.slice(from, to)));
  }
  return out;
}

/** A shift judged over blocks (fresh server instances), with how the noise split between them. */
export interface BlockShift extends LogShift {
  /** Blocks with at least one pair. */
  blocks: number;
  /**
   * Share of the per-round variance of log(head/base) that lies between blocks (one-way random
   * effects, ANOVA estimate, floored at 0): 0 when a restart changes nothing, near 1 when each pair
   * of instances keeps its own steady gap.
   */
  betweenShare: number;
  /** Rounds pulled in to WINSOR_K robust standard deviations of the median before the block means. */
  winsorized: number;
}

/**
 * Instances as the unit: the per-round log ratios averaged within each block, then a t interval
 * over the block means (df = blocks − 1). Rounds inside a block share the same two server
 * processes, so a steady gap between those processes is one draw, not one per round; only the
 * spread of block means measures it. Exact under normal block means, whatever the split between
 * within- and between-instance variance (the simulation in tests/unit/compare.test.ts checks the
 * false-alarm rate against the round-level t interval when instances keep a gap).
 */
/**
 * Rounds further from the median log ratio than this many robust standard deviations (1.4826 ×
 * MAD) are pulled in to that distance before the block means (winsorized). Normal rounds pass
 * untouched but for 0.3%; a round in which one server alone ran a background job for its whole
 * cell (on private tidb-servers: −34% to +49% among rounds of sd 3–9%) no longer moves its block
 * mean by half its size. tests/unit/compare.test.ts checks the A/A error rate and the power.
 */
export const WINSOR_K = 3;

/** Values pulled in to median ± k·1.4826·MAD; how many were. Unchanged with fewer than 6 values or MAD 0. */
export function winsorize(xs: readonly number[], k = WINSOR_K): { values: number[]; pulled: number } {
  if (xs.length < 6) return { values: [...xs], pulled: 0 };
  const med = median(xs);
  const mad = median(xs.map((x) => Math.abs(x - med)));
  if (!(mad > 0)) return { values: [...xs], pulled: 0 };
  const [lo, hi] = [med - k * 1.4826 * mad, med + k * 1.4826 * mad];
  let pulled = 0;
  const values = xs.map((x) => {
    if (x < lo || x > hi) pulled++;
    return Math.min(hi, Math.max(lo, x));
  });
  return { values, pulled };
}

/** The median (the mean of the middle two of an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

export function blockLogShift(
  pairs: readonly { block: number; base: number; head: number }[],
  /** null: the plain block means (no winsorizing). */
  k: number | null = WINSOR_K,
): BlockShift {
  const logs = pairs.map((p) => Math.log(p.head / p.base));
  const { values, pulled } = k === null ? { values: logs, pulled: 0 } : winsorize(logs, k);
  const byBlock = new Map<number, number[]>();
  pairs.forEach((p, i) => {
    const list = byBlock.get(p.block) ?? [];
    list.push(values[i] as number);
    byBlock.set(p.block, list);
  });
  const groups = [...byBlock.values()];
  const means = groups.map(mean);
  const b = groups.length;
  const n = pairs.length;
  const estimate = b ? mean(means) : Number.NaN;
  const se = b > 1 ? Math.sqrt(variance(means) / b) : Number.NaN;
  // ANOVA: mean squares between and within blocks; n0 the effective block size (unbalanced blocks)
  let betweenShare = 0;
  if (b > 1 && n > b) {
    const grand = mean(groups.flat());
    const msb = groups.reduce((s, g) => s + g.length * (mean(g) - grand) ** 2, 0) / (b - 1);
    const msw = groups.reduce((s, g) => s + g.reduce((t, x) => t + (x - mean(g)) ** 2, 0), 0) / (n - b);
    const n0 = (n - groups.reduce((s, g) => s + g.length ** 2, 0) / n) / (b - 1);
    const between = Math.max(0, (msb - msw) / n0);
    betweenShare = between + msw > 0 ? between / (between + msw) : 0;
  }
  return { estimate, se, df: b - 1, n: b, blocks: b, betweenShare, winsorized: pulled };
}

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
