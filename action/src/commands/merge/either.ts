// `tiperf merge` of either kind of parts, told apart by the first: a comparison's (compare --shard)
// or a run's matrix (run --shard). Both doors, the CLI and the Action's mode merge, merge through
// here; an option that does not fit the parts is the door's to refuse (`misfit`) or let pass.
import { isRunPart } from "../../bench/parts.ts";
import type { Verdict } from "../../compare/verdict.ts";
import { type MergeOutcome, mergeParts } from "./index.ts";
import { mergeRunParts, type RunMergeOutcome } from "./runs.ts";

export type Merged =
  | { parts: "comparison"; outcome: MergeOutcome }
  | { parts: "run"; outcome: RunMergeOutcome };

export interface MergeEitherOptions {
  outDir: string;
  log: (line: string) => void;
  /** A run's parts: judged against this stored result. */
  baseline?: string;
  /** A comparison's parts: the confirmation (as shards) of this verdict's regression. */
  confirms?: Verdict;
  /** A comparison's parts: a regression accepted as an expected cost by this login. */
  acceptedBy?: string;
  /** A comparison's parts: the looks the workflow's waves reach. */
  maxLooks?: number;
  /** Told of each option given that these parts do not take; the CLI refuses, the Action lets it pass. */
  misfit?: (option: "baseline" | "confirms" | "maxLooks", parts: "run" | "comparison") => void;
}

export async function mergeEither(files: string[], o: MergeEitherOptions): Promise<Merged> {
  if (await isRunPart(files[0] as string)) {
    if (o.confirms) o.misfit?.("confirms", "run");
    if (o.maxLooks) o.misfit?.("maxLooks", "run");
    const outcome = await mergeRunParts(files, {
      outDir: o.outDir,
      log: o.log,
      ...(o.baseline ? { baseline: o.baseline } : {}),
    });
    return { parts: "run", outcome };
  }
  if (o.baseline) o.misfit?.("baseline", "comparison");
  const outcome = await mergeParts(files, {
    outDir: o.outDir,
    log: o.log,
    ...(o.confirms ? { confirms: o.confirms } : {}),
    ...(o.acceptedBy ? { acceptedBy: o.acceptedBy } : {}),
    ...(o.maxLooks ? { maxLooks: o.maxLooks } : {}),
  });
  return { parts: "comparison", outcome };
}
