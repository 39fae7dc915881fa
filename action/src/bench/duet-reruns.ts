// A duet round judged before it counts: rerun when an outside load took an uneven share of the
// pairs' CPUs, when one side stalled, or when a side was starved; the notes a result keeps of it.
import type { Cell } from "../result/model.ts";
import { STALLED_RUN_RERUNS } from "./rounds.ts";

/**
 * A round whose pairs met outside CPU use this unevenly (percentage points of their CPUs' time) ran
 * unfairly. Measured here: a busy loop that follows one pair through the swaps (the scheduler keeps
 * moving it to whichever CPU idles) took 25–30% of that pair's CPUs against 0–2% of the other's and
 * cut its throughput by as much; on a quiet machine the 120 rounds of bench/aa-banks/duet-bank.json stayed
 * within 5 points (at most 4.9).
 */
export const OUTSIDE_GAP_PCT = 5;

/** How often a round whose outside CPU use was uneven runs again before it is kept as it is. */
export const UNEVEN_RERUNS = 4;

/**
 * A second of a measured run below this share of the run's median second is a stall. On private
 * tidb-servers a background job of one server (auto-analyze re-analyzing every table: seconds of
 * its CPU) took one side's seconds to 12–50% of its median while the other ran on, and turned
 * rounds of a −21% change into +26% or −54%.
 */
export const STALL_SHARE = 0.5;

/** How often a round in which one pair stalled alone runs again before it is kept as it is. */
export const STALL_RERUNS = 2;

/**
 * A measured run that stalled while processes of neither pair took at least this share of its
 * pair's CPUs (percent of their time) was starved by them, not stalled by its server: sysbench
 * printed no sample for a second because a busy loop beside it held most of its CPU (CI beside a
 * CPU hog: 76–84% of one pair's CPUs, 11–19% of the other's, three stalls in one round). Such a
 * round runs again on its own budget (STARVED_RERUNS) and never counts toward a stall's.
 */
export const STARVED_PCT = 50;

/** How often a round whose measured run was starved runs again before its stall counts as the server's. */
export const STARVED_RERUNS = 4;

/** Re-runs a duet round has spent, by reason. */
export interface RoundReruns {
  /** A measured run stalled outright (no number), its server's doing. */
  stalled: number;
  /** A measured run stalled while others held most of its pair's CPUs. */
  starved: number;
  /** Outside CPU use met the pairs unevenly. */
  uneven: number;
  /** One pair stalled alone (a second far below its median). */
  solo: number;
}

/** What a duet round does after an attempt: keep it (as measured, or failed), or run again, and why. */
export type RoundNext =
  | { next: "keep" }
  | { next: "starved"; failed: Cell[] }
  | { next: "stalled"; failed: Cell[] }
  | { next: "uneven" }
  | { next: "solo"; stall: NonNullable<ReturnType<typeof soloStall>> };

/**
 * The duet's rule after one attempt of a round (`names`: the pairs in the order `outside` gives
 * their shares): a measured run that failed other than by a stall ends the round (failed); a stall
 * under others' CPU use runs again as starved, else as the server's stall; an even, clean attempt,
 * or one whose budget is spent, is kept.
 */
export function nextAttempt(
  cells: readonly Cell[],
  outside: readonly number[] | undefined,
  names: readonly string[],
  spent: RoundReruns,
): RoundNext {
  const failed = cells.filter((c) => c.status !== "ok");
  if (failed.length > 0) {
    if (!failed.every((c) => c.failure === "stalled")) return { next: "keep" };
    const share = (c: Cell) => (outside ? (outside[names.indexOf(c.variant)] ?? 0) : 0);
    if (failed.every((c) => share(c) >= STARVED_PCT) && spent.starved < STARVED_RERUNS)
      return { next: "starved", failed };
    return spent.stalled < STALLED_RUN_RERUNS ? { next: "stalled", failed } : { next: "keep" };
  }
  const gap = outside ? Math.max(...outside) - Math.min(...outside) : 0;
  if (gap > OUTSIDE_GAP_PCT && spent.uneven < UNEVEN_RERUNS) return { next: "uneven" };
  const stall = soloStall(cells);
  return stall && spent.solo < STALL_RERUNS ? { next: "solo", stall } : { next: "keep" };
}

/** The per-second throughput of a cell's measured run (its first higher-is-better metric the intervals carry). */
export function perSecond(c: Cell): number[] {
  const measured = c.intervals.filter((i) => !i.warmup);
  const metric = Object.keys(measured[0]?.values ?? {}).find((m) => c.metrics[m]?.better === "higher");
  return metric ? measured.map((i) => i.values[metric] as number) : [];
}

/**
 * The pair that stalled alone in a duet round, if one did: a second of its measured run below
 * STALL_SHARE of its median while every other pair's same second was not. A stall of every pair
 * at once (the machine paused) is shared and fair; one pair's alone is a background job of one
 * server, not the change, and the round runs again (bounded by STALL_RERUNS).
 */
export function soloStall(
  cells: readonly Cell[],
): { variant: string; second: number; share: number } | undefined {
  const series = cells.map((c) => {
    const xs = perSecond(c);
    const sorted = [...xs].sort((a, b) => a - b);
    const median = sorted.length ? (sorted[Math.floor((sorted.length - 1) / 2)] as number) : 0;
    return { c, xs, median };
  });
  if (series.some((s) => s.xs.length < 3 || s.median <= 0)) return undefined;
  const low = (s: (typeof series)[number], t: number) => (s.xs[t] ?? s.median) < STALL_SHARE * s.median;
  for (const s of series)
    for (let t = 0; t < s.xs.length; t++)
      if (low(s, t) && series.every((o) => o === s || !low(o, t)))
        return { variant: s.c.variant, second: t + 1, share: (s.xs[t] as number) / s.median };
  return undefined;
}

/** The stalled rounds' story for a verdict's notes. */
export function stallNotes(cells: Cell[]): string[] {
  const rounds = new Map<string, number>();
  for (const c of cells)
    if (c.stall_reruns)
      rounds.set(`${c.workload}\u0000${c.threads}\u0000${c.round}\u0000${c.block ?? 0}`, c.stall_reruns);
  if (!rounds.size) return [];
  const all = [...rounds.values()];
  return [
    `duet: in ${all.length} round(s) one pair stalled alone (a second below ${STALL_SHARE * 100}% of its median while the other ran on: a background job of one server, not the change) and the round ran again (${all.reduce((s, n) => s + n, 0)} re-run(s) in all; a round still stalled after ${STALL_RERUNS} was kept as measured)`,
  ];
}

/** The uneven rounds' story for a verdict's notes, from the duet cells of a result. */
export function outsideNotes(cells: Cell[]): string[] {
  // a round's cells (both pairs), by workload, threads, round and block
  const byRound = new Map<string, Cell[]>();
  for (const c of cells) {
    if (c.outside_cpu_pct === undefined) continue;
    const key = `${c.workload}\u0000${c.threads}\u0000${c.round}\u0000${c.block ?? 0}`;
    byRound.set(key, [...(byRound.get(key) ?? []), c]);
  }
  const rounds = [...byRound.values()].map((round) => {
    const shares = round.map((c) => c.outside_cpu_pct as number);
    return {
      gap: Math.max(...shares) - Math.min(...shares),
      reruns: Math.max(...round.map((c) => c.reruns ?? 0)),
    };
  });
  const rerun = rounds.filter((r) => r.reruns > 0);
  const kept = rounds.filter((r) => r.gap > OUTSIDE_GAP_PCT);
  if (!rerun.length && !kept.length) return [];
  return [
    `duet: processes of neither pair used the pairs' CPUs unevenly (by more than ${OUTSIDE_GAP_PCT} points of their time) in ${rerun.length} round(s), run again (${rerun.reduce((s, r) => s + r.reruns, 0)} re-run(s) in all)${kept.length ? `; ${kept.length} round(s) still uneven after ${UNEVEN_RERUNS} re-runs were kept as measured (the largest gap ${Math.max(...kept.map((r) => r.gap)).toFixed(0)} points): something else ran on this machine, and the interval may be off by as much` : ""}`,
  ];
}
