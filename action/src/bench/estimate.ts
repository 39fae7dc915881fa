// How long a run takes, decided before it starts: every cell of every variant and round, the
// switches between variants and the restarts between blocks, the deployment's setup; and the
// refusal of a comparison that does not fit its compare.budget.
import type { LoadedSpec } from "../specfile/load.ts";
import type { TargetPlan } from "../targets/types.ts";
import { cellSeconds, planCells } from "./cells.ts";
import { measuredRestart, timingKey } from "./timings.ts";

/** Seconds of every cell the run measures: all variants, rounds and warmup rounds, as they run. */
export function matrixSeconds(loaded: LoadedSpec): number {
  const once = planCells(loaded.spec).reduce((sum, c) => sum + cellSeconds(c), 0);
  const compare = loaded.variants?.compare;
  if (!compare) return once;
  const maxRounds = compare.max_rounds ?? compare.rounds;
  const blocks = compare.blocks > 1 ? maxRounds / (compare.rounds / compare.blocks) : 1;
  const variants = compare.order === "duet" ? 1 : (loaded.variants?.all.length ?? 1);
  return once * (maxRounds + compare.warmup_rounds * blocks) * variants;
}

export const planDuration = (s: number) =>
  s >= 3600
    ? `${Math.floor(s / 3600)}h${String(Math.round((s % 3600) / 60)).padStart(2, "0")}m`
    : `${Math.max(1, Math.round(s / 60))} min`;

/** How long the run takes: every cell of every variant and round, switches, restarts, setup. */
export function estimate(loaded: LoadedSpec, target: TargetPlan): { seconds: number; text: string } {
  const cells = planCells(loaded.spec).length;
  const compare = loaded.variants?.compare;
  const variants = loaded.variants?.all.length ?? 1;
  const rounds = compare
    ? (compare.max_rounds ?? compare.rounds) + compare.warmup_rounds * Math.max(1, compare.blocks)
    : 1;
  const matrix = matrixSeconds(loaded);
  // interleaved variants on shared hardware switch before nearly every cell; grouped ones before
  // each variant's group of every block (the switch is the fresh instance: no restarts besides)
  const blocks = compare ? Math.max(1, compare.blocks) : 1;
  const switches = !compare
    ? 0
    : target.switching === "per-cell"
      ? cells * rounds * variants
      : target.switching === "grouped"
        ? blocks * variants
        : 0;
  const restarts =
    compare && compare.blocks > 1 && target.switching !== "grouped"
      ? (compare.blocks - 1) * (target.overhead.restartsPerBlock ?? variants)
      : 0;
  // a restart as long as the last ones measured here for this kind and profile, else the kind's guess
  const measured = restarts ? measuredRestart(timingKey(target)) : undefined;
  const restartS = measured?.seconds ?? target.overhead.restartS;
  const seconds = matrix + target.overhead.setupS + switches * target.overhead.switchS + restarts * restartS;
  const parts = [
    `${planDuration(matrix)} of cells (${cells} cell${cells > 1 ? "s" : ""} × ${variants} variant${variants > 1 ? "s" : ""}${compare?.order === "duet" ? " at once" : ""} × ${rounds} round${rounds > 1 ? "s" : ""}${compare?.warmup_rounds ? `, warmup rounds included` : ""})`,
    `${planDuration(target.overhead.setupS)} to start or deploy`,
    ...(switches ? [`${switches} switches × ${target.overhead.switchS}s`] : []),
    ...(restarts
      ? [
          `${restarts} restarts × ${restartS}s${measured ? ` (the median of ${measured.n} measured here)` : ""}`,
        ]
      : []),
  ];
  return {
    seconds,
    text: `estimated duration: ~${planDuration(seconds)} (${parts.join(" + ")}; data loading not included${restarts && compare?.reload_data ? `, ${restarts + variants} times here with compare.reload_data` : ""}${compare?.max_rounds ? "; at most max_rounds" : ""})`,
  };
}

/**
 * compare.confirm: a regression re-runs its regressed cells on fresh instances before it alarms —
 * at most the whole run again per confirmation (every cell regressed), and only within
 * compare.budget (`compare` skips it, saying so, where it would not fit).
 */
export function confirmation(
  loaded: LoadedSpec,
  seconds: number,
): { runs: number; seconds_at_most: number; text: string } | undefined {
  const compare = loaded.variants?.compare;
  if (!compare || compare.confirm === 0) return undefined;
  const most = compare.confirm * seconds;
  return {
    runs: compare.confirm,
    seconds_at_most: most,
    text: `on a regression (compare.confirm ${compare.confirm}): the regressed cells again on fresh instances before the verdict alarms, ${compare.confirm > 1 ? `up to ${compare.confirm} times, ` : ""}~${planDuration(most)} more at most (every cell regressed)${compare.budget !== undefined ? ", only where it fits compare.budget" : ""}; compare.confirm: 0 lets the first verdict stand alone`,
  };
}

/**
 * compare.budget: a comparison estimated past it is refused before anything starts, with the
 * numbers and the most rounds that would fit.
 */
export function budgetRefusal(loaded: LoadedSpec, seconds: number): string[] {
  const compare = loaded.variants?.compare;
  const budget = compare?.budget;
  if (!compare || budget === undefined || seconds <= budget) return [];
  const variants = compare.order === "duet" ? 1 : (loaded.variants?.all.length ?? 1);
  const perRound = planCells(loaded.spec).reduce((s, c) => s + cellSeconds(c), 0) * variants;
  const blocks = Math.max(1, compare.blocks);
  const rest = seconds - perRound * ((compare.max_rounds ?? compare.rounds) + compare.warmup_rounds * blocks);
  const fit = Math.floor((budget - rest) / perRound) - compare.warmup_rounds * blocks;
  return [
    `${loaded.path}: compare.budget is ${planDuration(budget)} but this comparison is estimated at ~${planDuration(seconds)} (${planDuration(perRound)} per round of ${planCells(loaded.spec).length} cells × ${compare.order === "duet" ? `${loaded.variants?.all.length ?? 2} variants at once` : `${variants} variant(s)`}, ${(compare.max_rounds ?? compare.rounds) + compare.warmup_rounds * blocks} rounds with warmups): ${
      fit < 2
        ? "not even 2 rounds fit"
        : blocks > 1 && fit < blocks
          ? `at most ${fit} rounds fit, fewer than one per block (compare.blocks ${blocks}): lower compare.blocks, which detects less`
          : blocks > 1
            ? `at most ${fit - (fit % blocks)} rounds fit (compare.rounds: ${fit - (fit % blocks)}, a multiple of compare.blocks ${blocks}), which detects less`
            : `at most ${fit} rounds fit (compare.rounds: ${fit}), which detects less`
    }; or shorten durations, drop thread counts or workloads, or raise compare.budget`,
  ];
}
