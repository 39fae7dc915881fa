// What the server did differently: every counter the servers keep (observe/server-counters.ts), per
// operation where it follows the operations and per second where it follows the clock, judged
// variant against control with the verdict's own intervals (paired rounds, or blocks of fresh
// instances) at a familywise confidence over every counter tested; the ones that moved, grouped
// by what they count, largest first. A list that explains, never one that fails a check: a
// counter judged by the spec (metrics: { "<counter>/op": … }) is a metric like any other, and is
// listed with its verdict's interval when that leaves out zero. Costs per operation are net of
// each variant's background (compare/background.ts).
import { z } from "zod";
import { costMetric } from "../observe/cost.ts";
import {
  counterGroup,
  isServerCounter,
  isTime,
  parseSelector,
  sameSeries,
  selects,
} from "../observe/server-counters.ts";
import type { Cell, Result } from "../result/model.ts";
import { withPooledBackground } from "./background.ts";
import { type CellJudgement, judgeShift } from "./judge.ts";
import { type CellKey, MIN_EVENTS } from "./samples.ts";
import { blockLogShift, mean, pairedLogShift } from "./stats.ts";

/**
 * The least familywise confidence the list is held at (the verdict's when higher): hundreds of
 * counters are tested per comparison, and an A/A must list none in 99 runs of 100.
 */
export const COUNTER_CONFIDENCE = 0.99;

/** A moved counter's change smaller than this is not listed, however sure (1 in 100 operations): in an A/A of tidb-server the bytes received from the store per operation differed +0.84% in every block (the two variants' data, loaded and analyzed once, kept a steady gap no restart samples). */
export const COUNTER_FLOOR = 0.01;

/**
 * A counter follows the clock, not the operations, where idle servers grew it by at least this
 * share of a measured window's growth, or where across rounds its rate rose by less than this
 * share of the operations' rate (log-log slope within each instance).
 */
export const CLOCK_SHARE = 0.5;

/** Spread of the operations' rate within instances (sd of log) below which the slope says nothing. */
const SLOPE_SPREAD = 0.02;

export const CounterChangeSchema = z.strictObject({
  /** The variant judged against the control. */
  variant: z.string().optional(),
  workload: z.string(),
  threads: z.number().int(),
  /** The counter's key: `<component>:<series>` (tidb:go_memstats_mallocs_total). */
  counter: z.string(),
  /** What it counts (observe/server-counters.ts COUNTER_GROUPS). */
  group: z.string(),
  /** op: it follows the operations, judged per operation; s: it follows the clock (background), per second. */
  per: z.enum(["op", "s"]),
  /** The estimator's centres of each side, per operation or per second. */
  base: z.number(),
  head: z.number(),
  /** head/base − 1 and its interval; null where only one side counted any (`only`). */
  change: z.number().nullable(),
  ci: z.tuple([z.number(), z.number()]).nullable(),
  /** Only this side counted it, in every round. */
  only: z.enum(["base", "head"]).optional(),
  /**
   * A cost metric the spec judges (mallocs_per_op, `<counter>/op`): its verdict's own interval, at
   * the verdict's confidence per cell; listed whenever that interval leaves out zero.
   */
  judged: z.literal(true).optional(),
});

export type CounterChange = z.output<typeof CounterChangeSchema>;

export const CounterReportSchema = z.strictObject({
  /** Counters tested, over cells and variants: the family the confidence is held over. */
  tested: z.number().int().nonnegative(),
  /** The familywise confidence of the list (COUNTER_CONFIDENCE, or the verdict's when higher). */
  confidence: z.number(),
  /** Per-test error rate: (1 − confidence) / tested. */
  alpha_per_test: z.number(),
  /** Changes smaller than this are not listed (COUNTER_FLOOR). */
  floor: z.number(),
  /** Counters per operation that moved beyond their noise, largest first. */
  moved: z.array(CounterChangeSchema),
  /** Counters that follow the clock (background work) whose rate per second moved: shown, never read per operation. */
  background: z.array(CounterChangeSchema),
  /** What the counters could not be read from (an endpoint reads only what its user may). */
  note: z.string().optional(),
});

export type CounterReport = z.output<typeof CounterReportSchema>;

/** One round of a cell pair: control's and variant's cells, both with their counters. */
interface PairedRound {
  base: Cell & { cost: NonNullable<Cell["cost"]> };
  head: Cell & { cost: NonNullable<Cell["cost"]> };
  block: number;
}

const hasCost = (c: Cell | undefined): c is Cell & { cost: NonNullable<Cell["cost"]> } =>
  !!c && c.status === "ok" && c.round > 0 && !!c.cost && c.cost.ops > 0 && c.cost.window_s > 0;

/** Rounds of one cell key in which both variants read their counters, paired by round. */
function pairedRounds(result: Result, control: string, variant: string, key: CellKey): PairedRound[] {
  const of = (v: string) =>
    result.cells.filter((c) => c.variant === v && c.workload === key.workload && c.threads === key.threads);
  const heads = new Map(of(variant).map((c) => [c.round, c]));
  const out: PairedRound[] = [];
  for (const b of of(control)) {
    const h = heads.get(b.round);
    if (hasCost(b) && hasCost(h)) out.push({ base: keyed(b), head: keyed(h), block: b.block ?? 1 });
  }
  return out;
}

/** A cell whose counters are keyed as they are read now (observe/server-counters.ts sameSeries). */
const keyed = <C extends Cell & { cost: NonNullable<Cell["cost"]> }>(c: C): C => ({
  ...c,
  cost: {
    ...c.cost,
    counters: sameSeries(c.cost.counters),
    ...(c.cost.idle_per_s ? { idle_per_s: sameSeries(c.cost.idle_per_s) } : {}),
    ...(c.cost.reading_cost ? { reading_cost: sameSeries(c.cost.reading_cost) } : {}),
  },
});

const growth = (c: { cost: NonNullable<Cell["cost"]> }, counter: string) => c.cost.counters[counter] ?? 0;

/**
 * Whether a counter follows the clock on one side: idle servers grew it by CLOCK_SHARE of the
 * windows' growth, or its rate rose by less than CLOCK_SHARE of the operations' rate across rounds
 * (a log-log slope within each block, where the operations' rate varied enough to tell).
 */
export function followsClock(
  cells: readonly (Cell & { cost: NonNullable<Cell["cost"]> })[],
  counter: string,
): boolean {
  const grown = cells.map((c) => growth(c, counter));
  const idle = cells.map((c) => (c.cost.idle_per_s?.[counter] ?? 0) * c.cost.window_s);
  // a side that never counted it says nothing of what it follows
  if (!(mean(grown) > 0)) return false;
  if (mean(idle) >= CLOCK_SHARE * mean(grown)) return true;
  const byBlock = new Map<number, { x: number; y: number }[]>();
  cells.forEach((c, i) => {
    const g = grown[i] as number;
    if (!(g > 0)) return;
    const list = byBlock.get(c.block ?? 1) ?? [];
    list.push({ x: Math.log(c.cost.ops / c.cost.window_s), y: Math.log(g / c.cost.window_s) });
    byBlock.set(c.block ?? 1, list);
  });
  let sxx = 0;
  let sxy = 0;
  let n = 0;
  for (const pts of byBlock.values()) {
    if (pts.length < 2) continue;
    const mx = mean(pts.map((p) => p.x));
    const my = mean(pts.map((p) => p.y));
    for (const p of pts) {
      sxx += (p.x - mx) ** 2;
      sxy += (p.x - mx) * (p.y - my);
    }
    n += pts.length - 1;
  }
  if (n < 2 || Math.sqrt(sxx / n) < SLOPE_SPREAD) return false;
  return sxy / sxx < CLOCK_SHARE;
}

/** One counter of one cell, ready to judge: its samples per operation or per second. */
interface Candidate {
  key: CellKey;
  variant: string;
  counter: string;
  per: "op" | "s";
  rounds: PairedRound[];
  only?: "base" | "head";
}

/** The counters of one cell pair worth testing, each with what it follows. */
function candidatesOf(key: CellKey, variant: string, rounds: PairedRound[]): Candidate[] {
  const names = new Set<string>();
  for (const r of rounds)
    for (const c of [r.base, r.head])
      for (const k of Object.keys(c.cost.counters)) if (isServerCounter(k) && !isTime(k)) names.add(k);
  const out: Candidate[] = [];
  for (const counter of names) {
    const b = rounds.map((r) => growth(r.base, counter));
    const h = rounds.map((r) => growth(r.head, counter));
    // fewer events than that a window on both sides (mean over the rounds) move by chance alone
    if (Math.max(mean(b), mean(h)) < MIN_EVENTS) continue;
    const only = b.every((x) => x === 0) ? "head" : h.every((x) => x === 0) ? "base" : undefined;
    // counted in some rounds only: too sparse to say per round
    if (!only && (b.some((x) => x === 0) || h.some((x) => x === 0))) continue;
    if (only && (only === "head" ? h : b).some((x) => x === 0)) continue;
    const clock =
      followsClock(
        rounds.map((r) => r.base),
        counter,
      ) ||
      followsClock(
        rounds.map((r) => r.head),
        counter,
      );
    // work one side alone did (an on-disk temporary table per query, or a job of its own) is read
    // per operation or per second by the side that did it
    out.push({ key, variant, counter, per: clock ? "s" : "op", rounds, ...(only ? { only } : {}) });
  }
  return out;
}

/**
 * Per second: the whole growth (background is what it shows). Per operation: the growth less the
 * background and one reading's cost (compare/background.ts), 0 where nothing is left.
 */
const perUnit = (c: Cell & { cost: NonNullable<Cell["cost"]> }, counter: string, per: "op" | "s") => {
  if (per === "s") return growth(c, counter) / c.cost.window_s;
  const net =
    growth(c, counter) -
    (c.cost.idle_per_s?.[counter] ?? 0) * c.cost.window_s -
    (c.cost.reading_cost?.[counter] ?? 0);
  return Math.max(0, net) / c.cost.ops;
};

/**
 * Judges one candidate at the family's per-test level with the verdict's intervals (blocks of
 * fresh instances, or paired rounds); undefined when it did not move.
 */
function judged(c: Candidate, alpha: number): CounterChange | undefined {
  const base = c.rounds.map((r) => perUnit(r.base, c.counter, c.per));
  const head = c.rounds.map((r) => perUnit(r.head, c.counter, c.per));
  const id = { variant: c.variant, ...c.key, counter: c.counter, group: counterGroup(c.counter), per: c.per };
  // all of it the background's or the readings' in some round: nothing the operations did
  const nothing = (xs: number[]) => xs.some((x) => !(x > 0));
  if (c.only ? nothing(c.only === "base" ? base : head) : nothing(base) || nothing(head)) return undefined;
  if (c.only) {
    const side = c.only === "base" ? base : head;
    return {
      ...id,
      base: c.only === "base" ? mean(side) : 0,
      head: c.only === "head" ? mean(side) : 0,
      change: null,
      ci: null,
      only: c.only,
    };
  }
  // the plain block means (or rounds), neither winsorized nor trimmed: counters are often
  // discrete per instance (a server that started 5 TTL workers, another 2), and pulling the
  // minority of blocks in to the majority would read an instance gap as a change
  const blocks = c.rounds.map((r) => r.block);
  const byBlocks = new Set(blocks).size > 1;
  const shift = byBlocks
    ? blockLogShift(
        base.map((b, i) => ({ block: blocks[i] as number, base: b, head: head[i] as number })),
        null,
      )
    : pairedLogShift(base, head, 0);
  const centre = Math.exp(mean(base.map(Math.log)));
  const j = judgeShift(
    { ...c.key, metric: c.counter },
    { better: "lower", tolerance: 0 },
    shift,
    { base: centre, head: centre * Math.exp(shift.estimate) },
    alpha,
    byBlocks ? "block-t" : "paired-t",
  );
  if (!j.ci || j.change === null || j.base === null || j.head === null) return undefined;
  const [lo, hi] = j.ci;
  if (lo <= 0 && hi >= 0) return undefined;
  if (Math.abs(j.change) < COUNTER_FLOOR) return undefined;
  return { ...id, base: j.base, head: j.head, change: j.change, ci: j.ci };
}

const sameCell = (a: { workload: string; threads: number; variant?: string }, b: Candidate) =>
  a.workload === b.key.workload && a.threads === b.key.threads && a.variant === b.variant;

/** Whether a judged metric reads this series (a `<selector>/op` one, or statements_per_op's). */
function judgedSeries(metric: string, counter: string): boolean {
  const selectors = (costMetric(metric)?.selects ?? []).map(parseSelector);
  return selectors.some((s) => !!s && selects(s, counter));
}

/**
 * The verdict's cost metrics whose interval left out zero, as list entries: a hypothesis the spec
 * named is held at the verdict's confidence per cell, not the family's of every counter read (at
 * 99% over 220 counters a +0.7% in mallocs per point_select, interval [+0.35%, +1.05%] at the
 * verdict's, is out of reach).
 */
function judgedChanges(verdicts: readonly CellJudgement[], control: string): CounterChange[] {
  const out: CounterChange[] = [];
  for (const j of verdicts) {
    if (!costMetric(j.metric) || !j.ci || j.change === null || j.base === null || j.head === null) continue;
    if (j.ci[0] <= 0 && j.ci[1] >= 0) continue;
    out.push({
      variant: j.variant ?? control,
      workload: j.workload,
      threads: j.threads,
      counter: j.metric,
      group: counterGroup(j.metric),
      per: "op",
      base: j.base,
      head: j.head,
      change: j.change,
      ci: j.ci,
      judged: true,
    });
  }
  return out;
}

const size = (c: CounterChange) =>
  c.change === null ? Number.POSITIVE_INFINITY : Math.abs(Math.log1p(c.change));

/**
 * Every variant's counters against the control's, cell by cell: those whose value per operation
 * (or per second, for background work) moved beyond their round-to-round noise at `confidence`
 * (at least COUNTER_CONFIDENCE) over all the counters tested, largest first within each cell.
 * undefined when no cell read any.
 */
export function whatMoved(
  result: Result,
  control: string,
  variants: readonly string[],
  keys: readonly CellKey[],
  confidence: number,
  verdicts: readonly CellJudgement[] = [],
): CounterReport | undefined {
  const pooled = withPooledBackground(result);
  const own = judgedChanges(verdicts, control);
  const candidates = variants
    .flatMap((v) => keys.flatMap((k) => candidatesOf(k, v, pairedRounds(pooled, control, v, k))))
    .filter((c) => !own.some((j) => sameCell(j, c) && judgedSeries(j.counter, c.counter)));
  if (!candidates.length && !own.length) return undefined;
  const level = Math.max(confidence, COUNTER_CONFIDENCE);
  const alpha = (1 - level) / Math.max(1, candidates.length);
  const changes = [...own, ...candidates.map((c) => judged(c, alpha)).filter((c): c is CounterChange => !!c)];
  const order = (xs: CounterChange[]) =>
    xs.sort(
      (a, b) =>
        keys.findIndex((k) => k.workload === a.workload && k.threads === a.threads) -
          keys.findIndex((k) => k.workload === b.workload && k.threads === b.threads) ||
        variants.indexOf(a.variant ?? "") - variants.indexOf(b.variant ?? "") ||
        size(b) - size(a),
    );
  return {
    tested: candidates.length,
    confidence: level,
    alpha_per_test: alpha,
    floor: COUNTER_FLOOR,
    moved: order(changes.filter((c) => c.per === "op")),
    background: order(changes.filter((c) => c.per === "s")),
  };
}
