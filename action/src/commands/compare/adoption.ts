// The verdict of the pull request that adopts a spec (specfile/adoption.ts): an A/A of its design
// that passes whatever it finds, with the noise it measured on this runner, what the check will
// detect at that noise, and the compare.noise to commit so that `tiperf plan` says it too.

import { detectionOf } from "../../bench/detection.ts";
import { noiseFromResult } from "../../bench/noise-measured.ts";
import { lookRounds } from "../../bench/schedule.ts";
import type { Verdict } from "../../compare/verdict.ts";
import type { Result } from "../../result/model.ts";
import { type LoadedSpec, specOfValue } from "../../specfile/load.ts";

type Obj = Record<string, unknown>;

/**
 * The A/A's verdict as the adoption's: pass, its noise and what that noise lets the check detect;
 * any other comparison's (no `why`) as it is.
 */
export function adoptionVerdict(
  verdict: Verdict,
  result: Result,
  loaded: LoadedSpec,
  adoption: { why: string; spec: string } | undefined,
): Verdict {
  if (adoption === undefined) return verdict;
  const { why, spec } = adoption;
  const noise = noiseFromResult(
    result,
    loaded,
    "the pull request adopting this spec: its target against itself",
  );
  const compare = (loaded.raw.compare ?? {}) as Obj;
  const design = loaded.variants?.compare;
  let detects: string[] = [];
  try {
    const measured = specOfValue({ ...loaded.raw, compare: { ...compare, noise } }, loaded.path);
    const looks = design ? lookRounds(design.rounds, design.max_rounds ?? design.rounds).length : 1;
    detects = detectionOf(measured, looks)?.lines ?? [];
  } catch (e) {
    detects = [`what it detects could not be stated: ${(e as Error).message}`];
  }
  const flagged = verdict.cells.filter((c) => c.verdict === "regression" || c.verdict === "improvement");
  return {
    ...verdict,
    verdict: "pass",
    adoption: { why, spec, noise, detects },
    notes: [
      ...verdict.notes,
      `the spec is new (${why}): the check passes${flagged.length ? `; ${flagged.length} judgement(s) of this A/A flagged a change, which between two servers of one configuration is noise or their steady gap` : ""}`,
    ],
  };
}
