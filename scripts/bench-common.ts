// Helpers shared by the benchmark scripts: the local MariaDB spec they run, and small statistics.
import { mean, normalQuantile, stddev, tQuantile } from "../action/src/compare/stats.ts";

/** Wilson score interval of a proportion k/n, 95%. */
export function wilson(k: number, n: number): [number, number] {
  const z = normalQuantile(0.975);
  const p = k / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return [Math.max(0, c - h), Math.min(1, c + h)];
}

/** A fraction as a percentage with `digits` decimals. */
export const pct = (x: number, digits = 1) => `${(x * 100).toFixed(digits)}%`;

/** The mean of `xs` and the half-width of its 95% t interval (NaN for fewer than two values). */
export function meanInterval(xs: readonly number[]): { mean: number; half: number } {
  const half =
    xs.length > 1 ? tQuantile(0.975, xs.length - 1) * (stddev(xs) / Math.sqrt(xs.length)) : Number.NaN;
  return { mean: mean(xs), half };
}

export const BENCH_DATA = { tables: 2, table_size: 2000 };

/**
 * The spec every benchmark runs: local MariaDB on CPU 0 (optionally under a CPU quota), sysbench
 * oltp_point_select on CPU 1 over BENCH_DATA, throughput judged at `tolerance` percent.
 */
export function benchSpec(o: {
  name: string;
  threads: number;
  cellSeconds: number;
  tolerance: number;
  quotaPercent?: number;
  variants: string;
  compare: string;
  /** duet pins each pair itself: no CPUs of the spec's own. */
  unpinned?: boolean;
}): string {
  const quota = o.quotaPercent ? `cpu_quota: "${o.quotaPercent}%"` : "";
  const resources = o.unpinned
    ? quota
      ? `, resources: {${quota}}`
      : ""
    : `, resources: {cpus: "0"${quota ? `, ${quota}` : ""}}`;
  return `name: ${o.name}
target: {kind: mariadb, config: {innodb_buffer_pool_size: 64M}${resources}}
${o.unpinned ? "" : 'driver: {cpus: "1"}\n'}data: {tables: ${BENCH_DATA.tables}, table_size: ${BENCH_DATA.table_size}}
workloads:
  - {name: point_select, sysbench: oltp_point_select, threads: [${o.threads}], duration: ${o.cellSeconds}s, warmup: 0s, options: {rand-type: uniform}}
metrics:
  tps: {better: higher, tolerance: ${o.tolerance}%}
variants:
${o.variants}
compare: {${o.compare}}
`;
}

/** k of the given blocks drawn without replacement, with `random` (compare/stats.ts rng). */
export function drawBlocks(blocks: readonly number[], k: number, random: () => number): Set<number> {
  const pool = [...blocks];
  const pick = new Set<number>();
  while (pick.size < k) pick.add(pool.splice(Math.floor(random() * pool.length), 1)[0] as number);
  return pick;
}
