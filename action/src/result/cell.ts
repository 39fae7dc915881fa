import type { SysbenchReport } from "../drivers/sysbench/parse.ts";
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

/** What a cell asked sysbench for, to check what it measured against. */
export interface CellRequest {
  /** warmup + duration, the --time sysbench was given. */
  seconds: number;
  /** Seconds sysbench may overrun before the cell is not what was asked for. */
  grace_s: number;
  /** With --rate, a second without a finished query can be the schedule, not a stall. */
  rate_limited: boolean;
}

/**
 * Why a finished sysbench run is not the measurement the cell asked for, or [] when it is. A
 * stalled server (SIGSTOP, a hung disk) lets sysbench run long past --time printing seconds of
 * zero throughput, then finish "successfully" with a summary averaged over the whole stall.
 */
export function measurementProblems(report: SysbenchReport, req: CellRequest): string[] {
  const problems: string[] = [];
  if (report.duration_s > req.seconds + req.grace_s) {
    problems.push(
      `sysbench ran ${report.duration_s.toFixed(1)}s for a ${req.seconds}s cell (allowed: ${req.seconds}s + ${req.grace_s}s grace)`,
    );
  }
  if (!req.rate_limited) {
    const stalled = report.intervals.filter((iv) => iv.qps === 0 && iv.tps === 0).map((iv) => iv.t);
    if (stalled.length > 0) {
      const shown = stalled.slice(0, 5).map((t) => `${t}s`);
      problems.push(
        `${stalled.length} one-second sample(s) with zero throughput (at ${shown.join(", ")}${stalled.length > 5 ? ", …" : ""}): the server stalled`,
      );
    }
  }
  // sysbench may drop the last interval line when the run ends on a second boundary.
  const expected = Math.floor(req.seconds);
  if (report.intervals.length < expected - 1) {
    problems.push(
      `sysbench printed ${report.intervals.length} one-second samples for a ${req.seconds}s cell (expected ${expected})`,
    );
  }
  return problems;
}
