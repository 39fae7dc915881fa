// Round runners: how one turn of a round's cell runs its variants. Interleaved runs them one after
// another in the schedule's order; duet (bench/duet.ts) runs them at once on swapped CPU sets.
// compareSpec walks the schedule and hands each turn to the comparison's runner.
import type { Cell, StalledAttempt } from "../result/model.ts";
import type { CellPlan } from "./cells.ts";

/** What a runner needs of a variant's bench: its servers' processes and a cell run. */
export interface CellRunner {
  target: { pids: number[] };
  runCell(
    plan: CellPlan,
    signal: AbortSignal,
    o?: { onMeasure?: (seconds: number) => void; cpus?: string; onLoad?: (pid: number) => void },
  ): Promise<Cell>;
  /** A cell's measured run set aside before it runs again (its raw output kept under another name). */
  setAside(cell: Cell, as?: "stalled" | "rerun"): Promise<StalledAttempt>;
}

/** One turn: a cell of one round, its variants in `turn` order. */
export interface Turn {
  round: number;
  turn: string[];
  cellOf(variant: string): CellPlan;
  benchOf(variant: string): CellRunner;
  /** Writes finished cells at once (a crash loses at most the running cell); throws on a failed one. */
  record(cells: Cell[]): Promise<void>;
  signal: AbortSignal;
  log(line: string): void;
}

export interface RoundRunner {
  order: "interleaved" | "duet";
  run(t: Turn): Promise<void>;
  /** What the verdict says of how the rounds ran. */
  notes(cells: Cell[]): string[];
}

/**
 * How often a cell (duet: its round) whose measured run stalled — seconds without a finished
 * operation, nothing else wrong — runs again before its failure stands. One second of a paused
 * server (a background job, the machine busy elsewhere) must not end a whole comparison; the
 * stalled attempt is kept, and a change that stalls every time still fails. Two: beside a CPU hog
 * and another tiperf run on a 2-core runner about 1 attempt in 30 stalled (2 of 61 in one e2e
 * check), and a duet round run again for uneven outside CPU takes several attempts, so one
 * re-run let a round of ~6 attempts fail on two chance stalls.
 */
export const STALLED_RUN_RERUNS = 2;

/** The log line that sets a stalled attempt aside (the attempt's error names its kept raw output). */
export const stalledLine = (kept: StalledAttempt, what: "cell" | "round", again: number) =>
  `${kept.error}; running the ${what} again (${again} of ${STALLED_RUN_RERUNS})`;

/**
 * One cell, run again when its measured run stalled (at most STALLED_RUN_RERUNS times); the
 * attempts set aside are recorded in the cell that stands.
 */
export async function runCellStallAware(
  bench: CellRunner,
  plan: CellPlan,
  signal: AbortSignal,
  log: (line: string) => void,
): Promise<Cell> {
  const attempts: StalledAttempt[] = [];
  let cell = await bench.runCell(plan, signal);
  while (cell.failure === "stalled" && attempts.length < STALLED_RUN_RERUNS && !signal.aborted) {
    const kept = await bench.setAside(cell);
    attempts.push(kept);
    log(stalledLine(kept, "cell", attempts.length));
    cell = await bench.runCell(plan, signal);
  }
  return attempts.length ? { ...cell, stalled_attempts: attempts } : cell;
}

/** What the verdict says of measured runs set aside because a server stalled. */
export function stalledNotes(cells: Cell[]): string[] {
  const byVariant = new Map<string, number>();
  const logs: string[] = [];
  for (const c of cells)
    for (const a of c.stalled_attempts ?? []) {
      byVariant.set(c.variant, (byVariant.get(c.variant) ?? 0) + 1);
      if (a.raw_log) logs.push(a.raw_log);
    }
  const total = [...byVariant.values()].reduce((s, n) => s + n, 0);
  if (total === 0) return [];
  const [top] = [...byVariant].sort((a, b) => b[1] - a[1]);
  return [
    `${total} measured run(s) stalled (seconds without a finished operation, or not reported at all: ${[...byVariant].map(([v, n]) => `${v} ${n}`).join(", ")}) and ran again; the numbers are the re-runs', the stalled runs' raw output is kept${logs.length ? ` (${logs.slice(0, 3).join(", ")}${logs.length > 3 ? ", …" : ""})` : ""}`,
    // a pause of the machine strikes either variant; a change that stalls strikes its own
    ...(top &&
    total >= 2 &&
    top[1] === total &&
    byVariant.size === 1 &&
    cells.some((c) => c.variant !== top[0])
      ? [
          `⚠️ every stalled run was ${top[0]}'s: that may be the change itself (a lock, a background job), which the re-runs would hide; its raw logs show the seconds`,
        ]
      : []),
  ];
}

/** One variant at a time, in the turn's order, each cell written as it ends. */
export const interleavedRunner: RoundRunner = {
  order: "interleaved",
  async run(t) {
    for (const n of t.turn)
      await t.record([await runCellStallAware(t.benchOf(n), t.cellOf(n), t.signal, t.log)]);
  },
  notes: stalledNotes,
};
