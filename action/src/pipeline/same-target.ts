// A comparison whose base and head resolve to one target: nothing the spec measures changed.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { VERDICT_FORMAT, type Verdict } from "../compare/verdict.ts";
import { EXIT } from "../errors.ts";
import { type VerdictFiles, writeVerdictFiles } from "../report/verdict-files.ts";
import { hostFacts } from "../result/host.ts";
import { newRunId } from "../result/store.ts";
import type { LoadedSpec } from "../specfile/load.ts";

/**
 * Base and head resolve to one target (a PR that changes nothing the spec measures): the check
 * says why and passes in seconds, measuring nothing.
 */
export async function nothingToMeasure(
  given: LoadedSpec,
  why: string,
  opts: { outDir: string; log: (line: string) => void },
): Promise<VerdictFiles & { verdict: Verdict; resultPath: string; exitCode: number }> {
  const plan = given.variants as NonNullable<LoadedSpec["variants"]>;
  const runId = newRunId(given.spec.name);
  const dir = join(opts.outDir, runId);
  await mkdir(dir, { recursive: true });
  const side = (variant: string) => ({ variant, run_id: runId, result: "" });
  const verdict: Verdict = {
    format: VERDICT_FORMAT,
    version: 1,
    verdict: "pass",
    created_at: new Date().toISOString(),
    spec: { name: given.spec.name, path: given.path, hash: given.hash },
    base: side(plan.base.name),
    head: side(plan.head.name),
    host: await hostFacts(),
    confidence: plan.compare.confidence,
    alpha_per_cell: 0,
    comparisons: 0,
    order: plan.compare.order === "duet" ? "duet" : "interleaved",
    rounds: 0,
    max_rounds: 0,
    benchmark_seconds: 0,
    saved_seconds: 0,
    cells: [],
    same_target: why,
    notes: [`nothing measured: ${why}`],
  };
  opts.log(`nothing to measure: ${why}`);
  return { verdict, ...(await writeVerdictFiles(verdict, dir, opts.log)), resultPath: "", exitCode: EXIT.ok };
}
