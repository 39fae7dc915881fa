// A comparison's schedule as it runs: its blocks (restarts first), their rounds and each round's
// turns, the early stop at a look where every judgement is decided, and compare.looks' further
// looks. What it measures it writes as it arrives; the comparison (commands/compare/index.ts) holds the
// benches, the plan and the verdict.

import type { Bench } from "../../bench/bench.ts";
import { cellLabel, cellSeconds, type planCells } from "../../bench/cells.ts";
import { lookAgain } from "../../bench/looks-run.ts";
import { Progress } from "../../bench/progress.ts";
import { interleavedRunner, type RoundRunner } from "../../bench/rounds.ts";
import type { CompareSchedule, ScheduledRound } from "../../bench/schedule.ts";
import { recordRestarts, timingKey } from "../../bench/timings.ts";
import type { judgeFamily } from "../../compare/judge-results.ts";
import { cellKeyOf, type LookedJudgements } from "../../compare/looks.ts";
import { RunError } from "../../errors.ts";
import type { Cell, Result } from "../../result/model.ts";
import type { RunDir } from "../../result/store.ts";
import type { LoadedSpec } from "../../specfile/load.ts";
import type { TargetPlan } from "../../targets/types.ts";

type Variants = NonNullable<LoadedSpec["variants"]>;

/** What the rounds take from the comparison: its plan, benches, runner and judge. */
export interface Measured {
  readonly compare: Variants["compare"];
  readonly schedule: CompareSchedule;
  readonly names: string[];
  readonly control: string;
  readonly perRound: number;
  readonly result: Result;
  readonly runDir: RunDir;
  readonly runner: RoundRunner;
  /** Where a switch restarts servers: each variant runs a block's cells as a group (fresh instance). */
  readonly grouped: boolean;
  readonly target: TargetPlan;
  /** When compareSpec began (builds and deployment included): compare.budget counts from here. */
  readonly startedAt: number;
  /** When the benches began to open: the verdict's benchmark seconds count from here. */
  readonly startedMeasuring: number;
  readonly opts: { log: (line: string) => void; signal: AbortSignal };
  cellsOf(variant: string, round: number): ReturnType<typeof planCells>;
  benchOf(name: string): Bench;
  /** Every cell judged at look `look` (0-based over the design's looks, then the further ones). */
  judge(look?: number): ReturnType<typeof judgeFamily>;
}

/** The schedule's blocks and rounds of one comparison, and what they measured so far. */
export class ScheduleRun {
  progress: Progress | undefined;
  roundsDone = 0;
  readonly restartSeconds: number[] = [];
  /** compare.looks: the judgements as the looks left them (undefined: the design's look alone). */
  looked: LookedJudgements | undefined;

  constructor(private readonly c: Measured) {}

  /**
   * The schedule's blocks (compare.blocks: instances as the unit): before each block after the
   * first, every variant's server restarts (the schedule's order) and the warmup rounds run again
   * on the fresh instances; warmup rounds (round 0 in the result) are never judged. Grouped
   * switching runs each variant's rounds of a block as a group. Stops at a look where every
   * judgement is decided.
   */
  async run(): Promise<void> {
    const { schedule, names, compare } = this.c;
    const secondsPerRound =
      this.c.cellsOf(this.c.control, 1).reduce((s, c) => s + cellSeconds(c), 0) *
      (compare.order === "duet" ? 1 : names.length);
    const totalRounds = schedule.blocks.reduce((s, b) => s + b.rounds.length, 0);
    this.progress = new Progress(
      this.c.perRound * totalRounds * (this.c.grouped ? names.length : 1),
      secondsPerRound * totalRounds,
      this.c.opts.log,
    );
    let decided = false;
    for (const sb of schedule.blocks) {
      decided = await this.runBlock(sb);
      if (decided) break;
    }
    if (!decided && schedule.further) await this.lookAgain(secondsPerRound);
    await recordRestarts(timingKey(this.c.target), this.restartSeconds);
  }

  /** compare.looks: the further looks, for the cells still undecided (bench/looks-run.ts). */
  private async lookAgain(secondsPerRound: number): Promise<void> {
    const { opts } = this.c;
    const keys = this.c
      .cellsOf(this.c.control, 1)
      .map((c) => cellKeyOf({ workload: c.workload.name, threads: c.threads }));
    this.looked = await lookAgain({
      schedule: this.c.schedule,
      names: this.c.names,
      budget: this.c.compare.budget,
      log: opts.log,
      judge: (look) => this.c.judge(look),
      keys,
      secondsPerCellRound: () => {
        const rounds = this.roundsDone + this.c.schedule.blocks.length * this.c.compare.warmup_rounds;
        const measured = (Date.now() - this.c.startedMeasuring) / 1000;
        return (rounds > 0 ? measured / rounds : secondsPerRound) / this.c.perRound;
      },
      spentSeconds: () => (Date.now() - this.c.startedAt) / 1000,
      runBlock: async (sb, only) => {
        const rounds = sb.rounds.length * only.size;
        this.progress = new Progress(rounds, (secondsPerRound / this.c.perRound) * rounds, opts.log);
        await this.restartFor(sb);
        for (const r of sb.rounds) {
          await this.runRound(r, sb.block, undefined, only);
          if (r.round > 0) this.roundsDone = r.round;
        }
      },
    });
  }

  /** Before a block after the first: every variant restarted in the schedule's order (its data again). */
  private async restartFor(sb: CompareSchedule["blocks"][number]): Promise<void> {
    const { opts } = this.c;
    for (const n of sb.restarts) {
      const began = Date.now();
      opts.log(`block ${sb.block}: ${n}: ${await this.c.benchOf(n).restart(opts.signal)}`);
      this.restartSeconds.push((Date.now() - began) / 1000);
      if (sb.reload) {
        await this.c.benchOf(n).reloadData(opts.signal);
        opts.log(`block ${sb.block}: ${n}: data loaded again (compare.reload_data)`);
      }
    }
  }

  /** One block of the schedule; true when the comparison is decided and stops. */
  private async runBlock(sb: CompareSchedule["blocks"][number]): Promise<boolean> {
    const { opts } = this.c;
    const tag = this.c.compare.blocks > 1 ? sb.block : undefined;
    const measured = sb.rounds.filter((r) => r.round > 0);
    if (sb.groups) {
      for (const n of sb.groups) {
        const entered = (await this.c.benchOf(n).enterGroup(opts.signal)) ?? "in already";
        opts.log(
          `block ${sb.block}: ${n}: ${entered}; its cells as a group, rounds ${measured[0]?.round}–${measured.at(-1)?.round}`,
        );
        for (const r of sb.rounds) await this.runRound(r, tag, n);
      }
      this.roundsDone = measured.at(-1)?.round ?? this.roundsDone;
      return this.decidedAt(this.roundsDone);
    }
    await this.restartFor(sb);
    // a further look's wave (compare --look-of): its undecided cells only
    const wave = this.c.schedule.wave ? new Set(this.c.schedule.wave.cells) : undefined;
    for (const r of sb.rounds) {
      await this.runRound(r, tag, undefined, wave);
      if (r.round === 0) continue;
      this.roundsDone = r.round;
      if (this.decidedAt(r.round)) return true;
    }
    return false;
  }

  /**
   * One round of every cell, each cell a turn of the runner; `only`: of one variant (a group);
   * `cells`: only these cells (by their index in the round: a further look's undecided ones).
   */
  private async runRound(
    r: ScheduledRound,
    block: number | undefined,
    only?: string,
    cells?: ReadonlySet<number>,
  ): Promise<void> {
    const { names, compare, opts } = this.c;
    const progress = this.progress as Progress;
    const tag = (cells: Cell[]) => (block === undefined ? cells : cells.map((c) => ({ ...c, block })));
    const planned = new Map(names.map((n) => [n, this.c.cellsOf(n, r.round)]));
    type Planned = ReturnType<Measured["cellsOf"]>;
    for (let i = 0; i < this.c.perRound; i++) {
      if (cells && !cells.has(i)) continue;
      const turn = only ? [only] : (r.turns[i] as string[]);
      const cellOf = (n: string) => (planned.get(n) as Planned)[i] as Planned[number];
      const first = cellOf(this.c.control);
      const who = compare.order === "duet" ? (names.length === 2 ? "both" : "all") : turn.join("→");
      progress.start(
        `${cellLabel({ ...first, variant: who })}${block === undefined ? "" : ` block ${block}`}`,
      );
      await (only ? interleavedRunner : this.c.runner).run({
        round: r.round,
        turn,
        cellOf,
        benchOf: (n) => this.c.benchOf(n),
        record: (cells) => this.record(tag(cells)),
        signal: opts.signal,
        log: opts.log,
      });
      progress.finish(cellSeconds(first) * (compare.order === "duet" || only ? 1 : names.length));
    }
  }

  /** Finished cells, written as they arrive; a failed one ends the comparison. */
  private async record(cells: Cell[]): Promise<void> {
    this.c.result.cells.push(...cells);
    await this.c.runDir.writeResult(this.c.result);
    const failed = cells.find((c) => c.status === "failed");
    if (failed) throw new RunError(failed.error ?? "a cell failed");
  }

  /** At a look (compare.max_rounds): every judgement decided ends the comparison early. */
  private decidedAt(round: number): boolean {
    const maxRounds = this.c.compare.max_rounds ?? this.c.compare.rounds;
    const look = this.c.schedule.looks.indexOf(round);
    if (look < 0 || round >= maxRounds) return false;
    const open = this.c.judge(look).cells.filter((c) => c.verdict === "inconclusive").length;
    if (open === 0) {
      this.c.opts.log(`every cell decided after ${round} rounds: stopping early (max ${maxRounds})`);
      return true;
    }
    this.c.opts.log(`after ${round} rounds: ${open} judgement(s) still inconclusive`);
    return false;
  }
}
