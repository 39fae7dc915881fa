// How a comparison spends its error rate over the looks it takes at its verdicts. The design's own
// looks (its rounds, and with compare.max_rounds the early-stop looks) come first; compare.looks > 1
// adds further looks, each a new set of blocks (fresh server pairs) for the cells still undecided.
// A judgement is final at the first look that decides it, so a false decision anywhere needs one at
// some look: with each look's per-cell level a share of α, the union bound holds the familywise
// rate over every look, whatever the dependence between looks (Bonferroni alpha spending).
import type { CellJudgement } from "./judge.ts";
import { normalCdf, tQuantile } from "./stats.ts";

/** The share of the family's error rate spent at the design's looks when further looks follow. */
export const DESIGN_SHARE = 0.5;

/**
 * The share of α each look spends: the design's looks share it equally when no further look may
 * follow (as before further looks existed); with further looks, the design's looks share
 * DESIGN_SHARE and the further looks the rest, equally. The shares sum to 1.
 */
export function lookShares(designLooks: number, looks: number): number[] {
  const design = Math.max(1, designLooks);
  const further = Math.max(0, looks - 1);
  if (further === 0) return Array.from({ length: design }, () => 1 / design);
  return [
    ...Array.from({ length: design }, () => DESIGN_SHARE / design),
    ...Array.from({ length: further }, () => (1 - DESIGN_SHARE) / further),
  ];
}

/** The verdict's footnote: how many looks were taken of how many, and how α was spent. */
export function lookSpendingText(designLooks: number, looks: number, taken: number): string {
  const further = Math.max(0, looks - 1);
  if (further === 0) return "";
  const half = `${Math.round(DESIGN_SHARE * 100)}%`;
  return `looks: ${taken} of at most ${looks} (${designLooks > 1 ? `the design's ${designLooks} early-stop looks` : "the design's blocks"}, then up to ${further} further look(s), each a new set of blocks of fresh server pairs for the cells still undecided); the familywise error rate is spent over all of them (Bonferroni alpha spending): ${half} at the design's look(s), the rest shared equally by the further looks, so a judgement decided at any look holds the stated confidence`;
}

/** A cell's key within one comparison: the variant judged and the workload × threads cell. */
export const cellKeyOf = (c: { variant?: string | undefined; workload: string; threads: number }): string =>
  `${c.variant ?? ""}\u0000${c.workload}\u0000${c.threads}`;

/**
 * The chance that an unchanged cell × metric is still undecided after a look over `blocks` blocks
 * of `perBlock` rounds: its interval (estimate ± t·se on the log scale) does not lie within
 * ±tolerance. Normal estimate around 0 with the standard error the noise gives, ŝe taken as se.
 */
export function undecidedChance(
  noise: { rounds: number; instances: number },
  design: { blocks: number; perBlock: number },
  alpha: number,
  tolerance: number,
): number {
  const se = Math.sqrt(noise.instances ** 2 + noise.rounds ** 2 / design.perBlock) / Math.sqrt(design.blocks);
  if (se === 0) return 0;
  const t = tQuantile(1 - alpha / 2, Math.max(1, design.blocks - 1));
  const room = Math.log(1 + tolerance) - t * se;
  if (room <= 0) return 1;
  return Math.min(1, Math.max(0, 2 * (1 - normalCdf(room / se))));
}

type Judged = { cells: CellJudgement[]; comparisons: number; alpha: number };

/** What compare.looks' looks left: judgements final at the look that decided them, and the last look. */
export interface LookedJudgements {
  final: Map<string, CellJudgement>;
  last: Judged;
  /** Looks taken (1: the design's blocks alone) and the most compare.looks allows. */
  taken: number;
  max: number;
  /** Why no further look was taken while a judgement was undecided (compare.budget). */
  stopped?: string;
  /**
   * Judgements (judgementKey) whose blocks needed at their noise lie beyond what the looks left
   * give, each with the looks it took before it was left there.
   */
  beyond: Map<string, number>;
}

/** A judgement's key: its cell's (cellKeyOf) and its metric. */
export const judgementKey = (c: CellJudgement): string => `${cellKeyOf(c)}\u0000${c.metric}`;

/**
 * The judgements after every look: a decided one as the look that decided it judged it; an
 * undecided one as the last look left it, with the looks it took and why it stopped there.
 */
export function lookedJudgement(l: LookedJudgements): Judged {
  const why = l.stopped ?? (l.taken >= l.max ? `compare.looks (${l.max}) reached` : "budget spent");
  const cells = l.last.cells.map((c) => {
    const settled = l.final.get(judgementKey(c));
    if (settled) return settled;
    const needs =
      c.needed !== undefined
        ? `~${c.needed} blocks in all would decide it`
        : "more than 200 blocks would be needed";
    const left = l.beyond.get(judgementKey(c));
    const reason =
      left !== undefined
        ? `inconclusive after ${left} look(s): ${needs} at this noise, more than the looks left could give, so it got no further look`
        : `inconclusive after ${l.taken} look(s), ${why}${c.needed !== undefined ? `: ${needs} at this noise` : ""}`;
    return { ...c, looks: left ?? l.taken, reason };
  });
  return { ...l.last, cells };
}
