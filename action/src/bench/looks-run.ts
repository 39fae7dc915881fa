// compare.looks as a comparison runs it: after the design's blocks, the cells with a judgement
// still undecided run further blocks of fresh server pairs (schedule.ts furtherBlocks) and are
// judged again over every block so far, each look at its own share of the error rate
// (compare/looks.ts); a judgement is final at the look that decides it.

import type { CellJudgement } from "../compare/judge.ts";
import type { judgeFamily } from "../compare/judge-results.ts";
import { cellKeyOf, judgementKey, type LookedJudgements } from "../compare/looks.ts";
import { type CompareSchedule, furtherBlocks, type ScheduledBlock } from "./schedule.ts";

/** What the looks need of the comparison that runs them. */
export interface LookRunner {
  schedule: CompareSchedule;
  names: string[];
  budget: number | undefined;
  log(line: string): void;
  /** Every cell judged at look index `look` (0-based: the design's looks, then the further ones). */
  judge(look: number): ReturnType<typeof judgeFamily>;
  /** Each cell's key (cellKeyOf) by its index in a round. */
  keys: string[];
  /** What one round of one cell took so far (one variant's, or a duet's), restarts and loads included. */
  secondsPerCellRound(): number;
  /** Seconds since the comparison began (what compare.budget counts). */
  spentSeconds(): number;
  /** One block of fresh server pairs, of these cells (their indices) only. */
  runBlock(block: ScheduledBlock, only: ReadonlySet<number>): Promise<void>;
  /**
   * A merge of waves (bench/waves.ts): whether look `look` was measured already (its wave's
   * parts merged). One not measured is not run here: it is named as the next wave (`next`).
   */
  measured?(look: number): boolean;
  /** The runners a look's blocks spread over (a wave of shards): its time is theirs at once. */
  runners?: number;
}

/** A merge of waves: the further look due next and its cells (indices in a round). */
export interface NextLook {
  look: number;
  cells: Set<number>;
}

const minutes = (s: number) => (s < 120 ? `${Math.round(s)} s` : `${Math.round(s / 60)} min`);

/**
 * The further looks: stops when nothing is undecided that the looks left could decide, at
 * compare.looks, or where the next look would pass compare.budget (said in the log and the
 * judgements' reasons).
 */
export async function lookAgain(r: LookRunner): Promise<LookedJudgements & { next?: NextLook }> {
  const f = r.schedule.further as NonNullable<CompareSchedule["further"]>;
  const design = r.schedule.looks.length;
  const looked: LookedJudgements & { next?: NextLook } = {
    final: new Map(),
    last: r.judge(design - 1),
    taken: 1,
    max: f.looks + 1,
    beyond: new Map(),
  };
  const settle = (cells: CellJudgement[], look: number) => {
    for (const c of cells)
      if (c.verdict !== "inconclusive" && !looked.final.has(judgementKey(c)))
        looked.final.set(judgementKey(c), { ...c, looks: look });
  };
  settle(looked.last.cells, 1);
  for (let look = 2; look <= f.looks + 1; look++) {
    // a cell runs again, every variant of it, while a judgement of it is undecided and the looks
    // left can still decide it (at this noise the blocks it needs are within their reach)
    const reach = (f.looks + 2 - look) * f.blocks;
    const undecided = looked.last.cells.filter((c) => !looked.final.has(judgementKey(c)));
    for (const c of undecided)
      if (c.needed === undefined || c.needed > c.n + reach) {
        // the looks it took: the ones before this one, unless it was left behind earlier
        if (!looked.beyond.has(judgementKey(c))) looked.beyond.set(judgementKey(c), look - 1);
      } else looked.beyond.delete(judgementKey(c));
    const open = new Set(
      undecided.filter((c) => !looked.beyond.has(judgementKey(c))).map((c) => cellKeyOf(cellOf(c))),
    );
    if (open.size === 0) {
      if (looked.beyond.size) {
        looked.stopped = `the ${looked.beyond.size} judgement(s) left undecided need more blocks at their noise than the looks left could give`;
        r.log(`not looking again: ${looked.stopped}`);
      }
      break;
    }
    const only = new Set(r.keys.flatMap((k, i) => (open.has(k) ? [i] : [])));
    // (over runners, a look's blocks run at once: its time is the most blocks one runner takes)
    const perRunner = Math.ceil(f.blocks / Math.max(1, r.runners ?? 1));
    const needS = r.secondsPerCellRound() * only.size * perRunner * (f.roundsPerBlock + f.warmupRounds);
    const spent = r.spentSeconds();
    const present = r.measured?.(look) === true;
    if (!present && r.budget !== undefined && spent + needS > r.budget) {
      looked.stopped = `the next look (~${minutes(needS)}) would pass compare.budget (${minutes(r.budget)}, ${minutes(spent)} spent)`;
      r.log(`not looking again: ${looked.stopped}`);
      break;
    }
    if (r.measured && !present) {
      looked.next = { look, cells: only };
      break;
    }
    if (present)
      r.log(
        `look ${look} of at most ${f.looks + 1}: ${only.size} cell(s) judged again with its wave's parts`,
      );
    else
      r.log(
        `look ${look} of at most ${f.looks + 1}: ${only.size} cell(s) with a judgement undecided (${[...only].map((i) => (r.keys[i] as string).split("\u0000").slice(1).join(" threads=")).join(", ")}) again in ${f.blocks} blocks of fresh server pairs, ~${minutes(needS)}`,
      );
    for (const sb of furtherBlocks(r.schedule, r.names, r.keys.length, look)) await r.runBlock(sb, only);
    looked.last = r.judge(design + look - 2);
    looked.taken = look;
    settle(
      looked.last.cells.filter((c) => open.has(cellKeyOf(cellOf(c)))),
      look,
    );
  }
  // every look taken and judgements still open: the looks' end is why
  const open = looked.last.cells.some(
    (c) => !looked.final.has(judgementKey(c)) && !looked.beyond.has(judgementKey(c)),
  );
  if (!looked.stopped && !looked.next && looked.taken >= looked.max && open)
    looked.stopped = `compare.looks (${looked.max}) reached`;
  return looked;
}

/** A judgement's cell, whichever variant it judged. */
const cellOf = (c: CellJudgement) => ({ workload: c.workload, threads: c.threads });
