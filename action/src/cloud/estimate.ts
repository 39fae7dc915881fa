// How long a run on an ephemeral cluster keeps its machines: the matrix (every cell's warmup and
// duration, per variant and round, as the pipeline runs them) plus a fixed allowance for
// provisioning, deploying, loading data and teardown.
import { cellSeconds, planCells } from "../pipeline/cells.ts";
import type { LoadedSpec } from "../specfile/load.ts";
import type { RunHours } from "./aws/resources.ts";

/** `up` (~5 min), tiup deploy and start (~10 min), data loading and prewarm (~10 min), destroy (~5 min). */
export const SETUP_HOURS = 0.5;

export function runHours(loaded: LoadedSpec): RunHours {
  const spec = loaded.spec;
  const once = planCells(spec).reduce((sum, c) => sum + cellSeconds(c), 0);
  const compare = loaded.variants?.compare;
  const rounds = compare ? (compare.max_rounds ?? compare.rounds) + compare.warmup_rounds : 1;
  const variants = loaded.variants ? loaded.variants.all.length : 1;
  return { setup: SETUP_HOURS, matrix: (once * rounds * variants) / 3600 };
}
