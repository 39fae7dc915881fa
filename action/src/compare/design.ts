// What a comparison's design can and cannot tell apart. With one server instance per variant
// (compare.blocks 1) every round compares the same two processes: a steady gap between two
// instances of one configuration (memory placement, a data file's layout, a lucky start) is
// indistinguishable from the change under test, however many rounds run.
import { logGamma, normalCdf, TRIM, tQuantile } from "./stats.ts";

/**
 * The standard deviation of the steady gap between two instances of one configuration, measured
 * in tiperf's own A/A banks on a 2-core runner (bench/; not the user's machine) (instances restarted before every block; the between-block part of
 * the variance of log(head/base), one-way random effects): 0.9% for a private tidb-server duet at
 * 40% of a CPU (`lowFrom`) to 7.0% for MariaDB duets at 40% of a CPU and 8 threads with the data
 * loaded again per block (`highFrom`: the root mean square over its 21 banks, one bank each from
 * 0% to 12.7%). tests/unit/design.test.ts recomputes both from the banks.
 */
export const INSTANCE_GAP_SD = {
  low: 0.009,
  lowFrom: "bench/aa-banks/duet-bank-tidb.json",
  high: 0.07,
  highFrom: "bench/duet/duet-aa-quota-reload*.json",
};

const gapPct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** Where the instance-gap figures come from, as a verdict says it (not measured on the user's machine). */
const GAP_SOURCE = "in tiperf's own A/A banks on a 2-core runner (bench/)";

/**
 * The verdict's line for a comparison of one instance pair whose variants run on instances of
 * their own (not one deployment switched between them); none otherwise. `restartable`: whether
 * tiperf may restart the servers (an endpoint's are borrowed: blocks are no remedy there).
 */
export function singlePairNote(
  blocks: number,
  ownInstances: boolean,
  restartable = true,
): string | undefined {
  if (blocks > 1 || !ownInstances) return undefined;
  const gap = `a steady gap between two instances of one configuration cannot be told from a change; ${GAP_SOURCE} such gaps had a standard deviation of ${gapPct(INSTANCE_GAP_SD.low)} (a private tidb-server at 40% of a CPU) to ${gapPct(INSTANCE_GAP_SD.high)} (MariaDB at 40% of a CPU, 8 threads)`;
  if (!restartable)
    return `one instance pair: every round compared the same two servers, so ${gap}. These servers are borrowed and tiperf never restarts them, so compare.blocks cannot separate the two: a run of one variant against both servers (an A/A comparison) measures their gap`;
  return `one instance pair (compare.blocks 1): every round compared the same two server processes, so ${gap} in A/A banks with restarts. compare.blocks: 3 or more restarts the servers between blocks and counts that gap in the interval`;
}

/**
 * The first line a single-pair verdict (`single_pair`) carries when it flags a cell: the flagged
 * change may be the two instances' steady gap, as large as twice the largest standard deviation
 * measured here. None when no cell is flagged (the note above says it among the notes).
 */
export function singlePairWarning(
  flagged: { label: string; change: number }[],
  sd: { low: number; high: number },
  restartable = true,
): string | undefined {
  if (flagged.length === 0) return undefined;
  const shown = flagged
    .map((f) => `${f.label} ${f.change > 0 ? "+" : f.change < 0 ? "−" : ""}${gapPct(Math.abs(f.change))}`)
    .join(", ");
  return `⚠️ One instance pair (compare.blocks 1): ${shown} may be a steady gap between the two server instances rather than a change — two instances of one configuration differed ${GAP_SOURCE} with a standard deviation of ${gapPct(sd.low)} to ${gapPct(sd.high)}, so ±${gapPct(2 * sd.high)} between one pair is no surprise. ${restartable ? "compare.blocks: 3 or more restarts the servers between blocks and tells the two apart." : "These servers are borrowed (never restarted): an A/A comparison of the two measures their gap."}`;
}

/**
 * A duet's blocks when its spec leaves compare.blocks out: one instance pair cannot tell a steady
 * instance gap from a change (singlePairNote), and this machine's A/A duet banks came out centred
 * only with fresh servers and freshly loaded data per block (README, "Duet against interleaved"). The
 * fewest blocks, 3 or more, that split compare.rounds evenly (and whose rounds per block divide
 * max_rounds): 6 rounds → 3 blocks of 2, 4 → 4 of 1, 16 → 4 of 4. None where no such split exists
 * (2 rounds; max_rounds not a multiple of any): the comparison stays one pair, and says so.
 */
export function duetBlocks(rounds: number, maxRounds = rounds): number | undefined {
  for (let b = 3; b <= rounds; b++) if (rounds % b === 0 && maxRounds % (rounds / b) === 0) return b;
  return undefined;
}

/** The power at which a plan states the smallest change it detects. */
export const PLAN_POWER = 0.9;

/**
 * The chance that a t interval (estimate ± t·ŝe, ŝe from df degrees of freedom) lies wholly below
 * `limit` when the estimate is normal around `shift` with standard error `se`: the average over
 * ŝe/se = √(χ²/df) of Φ((limit − t·se·s − shift)/se), integrated numerically (x = u², midpoints).
 */
export function powerBelow(limit: number, shift: number, se: number, t: number, df: number): number {
  const half = df / 2;
  const logNorm = half * Math.log(2) + logGamma(half);
  const top = Math.sqrt(df + 12 * Math.sqrt(2 * df) + 20);
  const steps = 600;
  let sum = 0;
  for (let k = 0; k < steps; k++) {
    const u = ((k + 0.5) / steps) * top;
    const x = u * u;
    const density = Math.exp((half - 1) * Math.log(x) - x / 2 - logNorm) * 2 * u;
    const s = Math.sqrt(x / df);
    sum += normalCdf((limit - t * se * s - shift) / se) * density;
  }
  return (sum * top) / steps;
}

/**
 * The smallest change in the worse direction (a fraction: 0.05 = 5%) that a comparison judges a
 * regression with probability `power`, given the noise of its cells (standard deviations of
 * log(head/base): one round within an instance pair, and a pair's steady gap), its design and its
 * per-cell error rate; as judge.ts judges: a t interval at 1 − α/2 wholly beyond the tolerance.
 * Blocks: over block means (df = blocks − 1); one block: over rounds, trimmed as paired-t is.
 */
export function plannedMde(
  noise: { rounds: number; instances: number },
  design: { rounds: number; blocks: number },
  alpha: number,
  tolerance: number,
  better: "higher" | "lower" = "higher",
  power = PLAN_POWER,
): number {
  const perBlock = design.rounds / design.blocks;
  const blocked = design.blocks > 1;
  const se = blocked
    ? Math.sqrt(noise.instances ** 2 + noise.rounds ** 2 / perBlock) / Math.sqrt(design.blocks)
    : Math.sqrt(noise.instances ** 2 + noise.rounds ** 2 / design.rounds);
  const df = Math.max(
    1,
    blocked ? design.blocks - 1 : design.rounds - 2 * Math.floor(TRIM * design.rounds) - 1,
  );
  const t = tQuantile(1 - alpha / 2, df);
  // the shift (log) caught with `power`: exact for normal block means (the t interval's own
  // randomness included), found by bisection between the tolerance and 60 standard errors past it
  const limit = Math.log(1 - tolerance);
  let [lo, hi] = [limit - 60 * se, limit];
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (powerBelow(limit, mid, se, t, df) >= power) lo = mid;
    else hi = mid;
  }
  const margin = limit - lo;
  // throughput: a drop (1 − e^−x); latency: a rise (e^x − 1), the same distance past the tolerance
  return better === "higher" ? 1 - Math.exp(limit - margin) : Math.exp(Math.log(1 + tolerance) + margin) - 1;
}
