// A comparison whose base and head resolve to one target: nothing the spec measures changed.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Shard } from "../../bench/cut.ts";
import { VERDICT_FORMAT, VERDICT_VERSION, type Verdict } from "../../compare/verdict.ts";
import { EXIT } from "../../errors.ts";
import { type VerdictFiles, writeVerdictFiles } from "../../report/verdict-files.ts";
import { hostFacts } from "../../result/host.ts";
import { RESULT_FORMAT, RESULT_VERSION } from "../../result/model.ts";
import { newRunId, writeResult } from "../../result/store.ts";
import type { LoadedSpec } from "../../specfile/load.ts";

/**
 * Base and head resolve to one target (a PR that changes nothing the spec measures): the check
 * says why and passes in seconds, measuring nothing.
 */
export async function nothingToMeasure(
  given: LoadedSpec,
  why: string,
  opts: { outDir: string; log: (line: string) => void; shard?: Shard; seed?: number },
): Promise<VerdictFiles & { verdict: Verdict; resultPath: string; exitCode: number }> {
  const _plan = given.variants as NonNullable<LoadedSpec["variants"]>;
  const runId = newRunId(given.spec.name);
  const dir = join(opts.outDir, runId);
  await mkdir(dir, { recursive: true });
  // a shard leaves a part that says why it measured nothing: the merge of the parts answers alike
  const resultPath = opts.shard ? await writePart(given, why, dir, runId, opts.shard, opts.seed) : "";
  const verdict = sameTargetVerdict(given, why, runId, resultPath, await hostFacts());
  if (opts.shard)
    opts.log(
      `shard ${opts.shard.index} of ${opts.shard.of}: nothing to measure, its part says so: ${resultPath}`,
    );
  opts.log(`nothing to measure: ${why}`);
  return { verdict, ...(await writeVerdictFiles(verdict, dir, opts.log)), resultPath, exitCode: EXIT.ok };
}

/** The verdict of a comparison whose base and head are one target: pass, measuring nothing. */
export function sameTargetVerdict(
  given: LoadedSpec,
  why: string,
  runId: string,
  resultPath: string,
  host: Verdict["host"],
  notes: string[] = [],
): Verdict {
  const plan = given.variants as NonNullable<LoadedSpec["variants"]>;
  const side = (variant: string) => ({ variant, run_id: runId, result: resultPath });
  return {
    format: VERDICT_FORMAT,
    version: VERDICT_VERSION,
    verdict: "pass",
    created_at: new Date().toISOString(),
    spec: { name: given.spec.name, path: given.path, hash: given.hash },
    base: side(plan.base.name),
    head: side(plan.head.name),
    host,
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
    notes: [`nothing measured: ${why}`, ...notes],
  };
}

/** A shard's part that measured nothing: no cells, its share and seed, and why. */
async function writePart(
  given: LoadedSpec,
  why: string,
  dir: string,
  runId: string,
  shard: Shard,
  seed: number | undefined,
): Promise<string> {
  const compare = (given.variants as NonNullable<LoadedSpec["variants"]>).compare;
  const now = new Date().toISOString();
  const file = join(dir, "result.json");
  await writeResult(file, {
    format: RESULT_FORMAT,
    version: RESULT_VERSION,
    run_id: runId,
    status: "complete",
    started_at: now,
    finished_at: now,
    spec: { name: given.spec.name, path: given.path, hash: given.hash, body: given.spec },
    targets: [],
    host: await hostFacts(),
    tools: {},
    cells: [],
    nothing_measured: why,
    shard: {
      ...shard,
      seed: seed ?? compare.seed ?? 0,
      order: compare.order === "duet" ? "duet" : "interleaved",
      blocks: [],
      spec_sha256: given.hash,
      spec: given.raw,
    },
  });
  return file;
}
