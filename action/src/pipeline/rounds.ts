// Round runners: how one turn of a round's cell runs its variants. Interleaved runs them one after
// another in the schedule's order; duet (pipeline/duet.ts) runs them at once on swapped CPU sets.
// compareSpec walks the schedule and hands each turn to the comparison's runner.
import type { Cell } from "../result/model.ts";
import type { CellPlan } from "./cells.ts";

/** What a runner needs of a variant's bench: its servers' processes and a cell run. */
export interface CellRunner {
  target: { pids: number[] };
  runCell(
    plan: CellPlan,
    signal: AbortSignal,
    o?: { onMeasure?: (seconds: number) => void; cpus?: string; onLoad?: (pid: number) => void },
  ): Promise<Cell>;
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
}

export interface RoundRunner {
  order: "interleaved" | "duet";
  run(t: Turn): Promise<void>;
  /** What the verdict says of how the rounds ran. */
  notes(cells: Cell[]): string[];
}

/** One variant at a time, in the turn's order, each cell written as it ends. */
export const interleavedRunner: RoundRunner = {
  order: "interleaved",
  async run(t) {
    for (const n of t.turn) await t.record([await t.benchOf(n).runCell(t.cellOf(n), t.signal)]);
  },
  notes: () => [],
};
