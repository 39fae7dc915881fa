import { costMetric } from "../observe/cost.ts";
import type { Cell, Result } from "../result/model.ts";
import type { MetricRule } from "../specfile/schema.ts";
import { type CellJudgement, judgeShift } from "./judge.ts";
import {
  batchMeans,
  blockLogShift,
  keptByTrim,
  type LogShift,
  mean,
  pairedLogShift,
  TRIM,
  welchLogShift,
  winsorize,
} from "./stats.ts";

/**
 * A count per operation (coprocessor requests, statements, mallocs …) is judged only where some
 * window counted at least this many events on one side: counts that small move by chance alone
 * (point_select's 0.3 stray coprocessor requests a window, against 30,000 operations, gave an
 * interval of [−100%, +10^28 %]).
 */
export const MIN_EVENTS = 20;

/** Whether a metric is a count of events per operation (its value × the operations is a count). */
function countsEvents(metric: string): boolean {
  const m = costMetric(metric);
  return m?.unit === "1/op" && m.scale === 1 && !/_sum\b/.test(m.counter);
}

/** Interval batches per stored cell when a result has a single round (see batchMeans). */
export const INTERVAL_BATCHES = 5;

export interface CellKey {
  workload: string;
  threads: number;
}

const okCells = (result: Result, variant: string, key: CellKey) =>
  result.cells
    .filter(
      (c) =>
        c.status === "ok" &&
        c.round > 0 &&
        c.variant === variant &&
        c.workload === key.workload &&
        c.threads === key.threads,
    )
    .sort((a, b) => a.round - b.round);

/** One value of `metric` per steady interval sample of a cell (samples are named like metrics). */
function intervalValues(cell: Cell, metric: string): number[] {
  return cell.intervals
    .filter((i) => !i.warmup)
    .map((i) => i.values[metric])
    .filter((v): v is number => typeof v === "number" && v > 0);
}

/**
 * Paired rounds of one compare run: round r of base against round r of head.
 * Rounds where either side is missing or non-positive are left out.
 */
export function pairedSamples(
  result: Result,
  base: string,
  head: string,
  key: CellKey,
  metric: string,
): Samples {
  const b = okCells(result, base, key);
  const h = new Map(okCells(result, head, key).map((c) => [c.round, c]));
  const pairs: [number, number, number][] = [];
  let zeros = 0;
  const events = { base: [] as number[], head: [] as number[] };
  for (const cb of b) {
    const ch = h.get(cb.round);
    const vb = cb.metrics[metric]?.value;
    const vh = ch?.metrics[metric]?.value;
    if (vb !== undefined && vh !== undefined && cb.cost && ch?.cost) {
      events.base.push(vb * cb.cost.ops);
      events.head.push(vh * ch.cost.ops);
    }
    if (vb !== undefined && vh !== undefined && vb > 0 && vh > 0) pairs.push([vb, vh, cb.block ?? 1]);
    else if (vb === 0 && vh === 0) zeros++;
  }
  const rare =
    countsEvents(metric) && events.base.length > 0 && Math.max(...events.base, ...events.head) < MIN_EVENTS;
  // work only one side did, in every round and often enough to count (an on-disk temporary table
  // per query where there was none): no ratio exists, the change is from nothing
  const rounds = events.base.length;
  const onlyOf = (mine: number[], other: number[]) =>
    countsEvents(metric) && rounds > 0 && other.every((x) => x === 0) && mine.every((x) => x >= MIN_EVENTS);
  const only: "base" | "head" | undefined = onlyOf(events.head, events.base)
    ? "head"
    : onlyOf(events.base, events.head)
      ? "base"
      : undefined;
  return {
    base: pairs.map((p) => p[0]),
    head: pairs.map((p) => p[1]),
    blocks: pairs.map((p) => p[2]),
    ...(zeros ? { zeros } : {}),
    ...(only
      ? {
          only: {
            side: only,
            per_op: mean(
              (only === "head" ? [...h.values()] : b)
                .map((c) => c.metrics[metric]?.value)
                .filter((v): v is number => v !== undefined),
            ),
            rounds,
          },
        }
      : {}),
    ...(rare ? { rare: { base: mean(events.base), head: mean(events.head) } } : {}),
  };
}

/**
 * Samples of one variant in a stored result: per-round values when it repeated rounds,
 * otherwise batch means of the steady interval samples.
 */
export function storedSamples(result: Result, variant: string, key: CellKey, metric: string): number[] {
  const cells = okCells(result, variant, key);
  if (cells.length > 1)
    return cells.map((c) => c.metrics[metric]?.value).filter((v): v is number => v !== undefined && v > 0);
  const only = cells[0];
  return only ? batchMeans(intervalValues(only, metric), INTERVAL_BATCHES) : [];
}

/**
 * The base and head values a verdict shows: the estimator's own centres, so that Δ is exactly
 * head/base − 1 of them. Geometric means of the rounds — paired: over the rounds the trimmed
 * mean kept; blocks: of the block means on the log scale (head's rounds at their winsorized ratio
 * to base, stats.ts winsorize); unpaired: of each side's samples.
 */
export function centres(
  base: readonly number[],
  head: readonly number[],
  paired: boolean,
  blocks?: readonly number[],
): { base: number; head: number } {
  const gm = (xs: readonly number[]) => (xs.length ? Math.exp(mean(xs.map(Math.log))) : Number.NaN);
  if (!paired || base.length !== head.length || base.length === 0) return { base: gm(base), head: gm(head) };
  if (blocks) {
    const of = (xs: readonly number[]) => {
      const by = new Map<number, number[]>();
      xs.forEach((x, i) => {
        by.set(blocks[i] as number, [...(by.get(blocks[i] as number) ?? []), Math.log(x)]);
      });
      return Math.exp(mean([...by.values()].map(mean)));
    };
    // head as the estimator sees it: a round whose ratio was winsorized counts at the pulled-in ratio
    const { values } = winsorize(base.map((b, i) => Math.log((head[i] as number) / b)));
    return { base: of(base), head: of(base.map((b, i) => b * Math.exp(values[i] as number))) };
  }
  const kept = keptByTrim(
    base.map((b, i) => Math.log((head[i] as number) / b)),
    TRIM,
  );
  return { base: gm(kept.map((i) => base[i] as number)), head: gm(kept.map((i) => head[i] as number)) };
}

/** One cell's samples of a metric, as a judgement takes them. */
export interface Samples {
  base: number[];
  head: number[];
  blocks?: number[];
  /** Rounds where both sides counted 0. */
  zeros?: number;
  /** A count no window saw MIN_EVENTS times: the mean events a window of each side. */
  rare?: { base: number; head: number };
  /** A count one side did at least MIN_EVENTS times a window, every round, the other never. */
  only?: { side: "base" | "head"; per_op: number; rounds: number };
}

/**
 * A count per operation judged as a count, where a ratio of rounds says nothing: 0 on both sides
 * in every round, work one side alone did, or too few events to judge; undefined otherwise.
 */
function countJudgement(
  id: CellKey & { metric: string },
  rule: MetricRule,
  samples: Samples,
  paired: boolean,
): CellJudgement | undefined {
  const { metric } = id;
  const { base, head } = samples;
  const fixed = {
    ...id,
    better: rule.better,
    tolerance: rule.tolerance,
    mde: null,
    method: paired ? ("paired-t" as const) : ("welch-t" as const),
  };
  // a count per operation that both sides did not do at all, in every round (coprocessor requests
  // of point gets): exactly unchanged
  if (base.length === 0 && head.length === 0 && samples.zeros)
    return {
      ...fixed,
      base: 0,
      head: 0,
      change: 0,
      ci: [0, 0],
      verdict: "unchanged",
      n: samples.zeros,
      reason: `${metric} was 0 on both sides in every round`,
    };
  if (samples.only) {
    const { side, per_op, rounds } = samples.only;
    // more of a lower-is-better count, or less of a higher-is-better one, is worse
    const worse = (side === "head") === (rule.better === "lower");
    return {
      ...fixed,
      base: side === "base" ? per_op : 0,
      head: side === "head" ? per_op : 0,
      change: side === "head" ? null : -1,
      ci: null,
      verdict: worse ? "regression" : "improvement",
      n: rounds,
      reason: `${metric}: ${side === "head" ? "0 in every round of base" : "0 in every round of head"}, ${per_op.toPrecision(3)} an operation in every round of ${side} (${MIN_EVENTS} or more a window)`,
    };
  }
  // a count that no window saw 20 times on either side (a few stray coprocessor requests among
  // thousands of point gets): too rare to judge per operation, and said so
  if (samples.rare)
    return {
      ...fixed,
      base: base.length ? mean(base) : null,
      head: head.length ? mean(head) : null,
      change: null,
      ci: null,
      verdict: "unchanged",
      n: base.length + (samples.zeros ?? 0),
      reason: `${metric}: fewer than ${MIN_EVENTS} in every window on both sides (${samples.rare.base.toFixed(1)} and ${samples.rare.head.toFixed(1)} a window on average): too rare to judge per operation`,
    };
  return undefined;
}

export function judgeCell(
  key: CellKey,
  metric: string,
  rule: MetricRule,
  samples: Samples,
  alphaPerCell: number,
  paired: boolean,
): CellJudgement {
  const id = { ...key, metric };
  const { base, head } = samples;
  const counted = countJudgement(id, rule, samples, paired);
  if (counted) return counted;
  // paired rounds from more than one block: the instances are the unit (stats.ts blockLogShift)
  const blocks = paired && samples.blocks && new Set(samples.blocks).size > 1 ? samples.blocks : undefined;
  const means = centres(base, head, paired, blocks);
  if (base.length === 0 || head.length === 0) {
    const missing = base.length === 0 ? "base" : "head";
    return {
      ...id,
      better: rule.better,
      tolerance: rule.tolerance,
      base: base.length ? means.base : null,
      head: head.length ? means.head : null,
      change: null,
      ci: null,
      mde: null,
      verdict: "inconclusive",
      n: 0,
      method: paired ? "paired-t" : "welch-t",
      reason: `no ${missing} samples of ${metric} (cell failed or metric not measured)`,
    };
  }
  if (blocks) {
    const shift = blockLogShift(
      base.map((b, i) => ({ block: blocks[i] as number, base: b, head: head[i] as number })),
    );
    return {
      ...judgeShift(id, rule, shift, means, alphaPerCell, "block-t"),
      blocks: shift.blocks,
      between_share: Math.round(shift.betweenShare * 1000) / 1000,
      ...(shift.winsorized ? { winsorized: shift.winsorized } : {}),
    };
  }
  const shift: LogShift = paired ? pairedLogShift(base, head) : welchLogShift(base, head);
  return judgeShift(id, rule, shift, means, alphaPerCell, paired ? "paired-t" : "welch-t");
}
