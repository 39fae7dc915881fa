// What a comparison's design can and cannot tell apart. With one server instance per variant
// (compare.blocks 1) every round compares the same two processes: a steady gap between two
// instances of one configuration (memory placement, a data file's layout, a lucky start) is
// indistinguishable from the change under test, however many rounds run.

/**
 * The standard deviation of the steady gap between two instances of one configuration, measured
 * on this machine's A/A banks (instances restarted before every block; the between-block part of
 * the variance of log(head/base), one-way random effects): duet 0.9% (private tidb-server, 40% CPU
 * quota, bench/duet-bank-tidb.json) to interleaved 3.9% (MariaDB, 40% CPU quota, 8 threads,
 * bench/aa-bank-cpu-bound.json). tests/unit/design.test.ts recomputes both from the banks.
 */
export const INSTANCE_GAP_SD = {
  low: 0.009,
  high: 0.039,
  from: "bench/duet-bank-tidb.json, bench/aa-bank-cpu-bound.json",
};

/**
 * The verdict's line for a comparison of one instance pair whose variants run on instances of
 * their own (not one deployment switched between them); none otherwise.
 */
export function singlePairNote(blocks: number, ownInstances: boolean): string | undefined {
  if (blocks > 1 || !ownInstances) return undefined;
  const p = (x: number) => `${(x * 100).toFixed(1)}%`;
  return `one instance pair (compare.blocks 1): every round compared the same two server processes, so a steady gap between two instances of one configuration cannot be told from a change; on this machine such gaps had a standard deviation of ${p(INSTANCE_GAP_SD.low)} to ${p(INSTANCE_GAP_SD.high)} (A/A banks with restarts). compare.blocks: 3 or more restarts the servers between blocks and counts that gap in the interval`;
}
