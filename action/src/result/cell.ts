import type { SysbenchReport } from "../driver/sysbench-parse.ts";
import type { Interval } from "./model.ts";

export interface SteadyState {
  intervals: Interval[];
  metrics: Record<string, number>;
  source: "summary" | "intervals";
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * Marks the warmup window and derives the judged metrics. Intervals whose end time lies
 * inside the warmup are kept but marked. Throws when nothing is left to judge.
 */
export function steadyState(report: SysbenchReport, warmupS: number): SteadyState {
  const intervals = report.intervals.map((iv) => ({ ...iv, warmup: iv.t <= warmupS }));
  const p = report.percentile;
  if (warmupS === 0) {
    const metrics: Record<string, number> = { tps: report.tps, qps: report.qps };
    const lat = p !== null ? report.latency_ms[`p${p}`] : undefined;
    if (p !== null && lat !== undefined) metrics[`p${p}_ms`] = lat;
    return { intervals, metrics, source: "summary" };
  }
  const steady = intervals.filter((iv) => !iv.warmup);
  if (steady.length === 0) {
    throw new Error(
      `no interval samples after the ${warmupS}s warmup (sysbench printed ${intervals.length}); lengthen the duration`,
    );
  }
  const metrics: Record<string, number> = {
    tps: mean(steady.map((i) => i.tps)),
    qps: mean(steady.map((i) => i.qps)),
  };
  const lats = steady.map((i) => i.lat_ms).filter((v): v is number => v !== undefined);
  if (p !== null && lats.length > 0) metrics[`p${p}_ms`] = mean(lats);
  return { intervals, metrics, source: "intervals" };
}
