// `tiperf merge` of a run's matrix spread over runners (run --shard K/N): the parts checked to
// belong together (one spec, one N, each shard and each cell once) and joined into one result in
// the matrix's order; with a baseline, judged against it as `run --baseline` judges one run. A
// shard that did not arrive is named, and never lets the check pass.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { cellLabel, planCells } from "../../bench/cells.ts";
import { missingShards, type RunShard, recordedSpec } from "../../bench/parts.ts";
import { asJudged, judgeStored } from "../../compare/judge-results.ts";
import type { Verdict } from "../../compare/verdict.ts";
import { EXIT, InputError } from "../../errors.ts";
import { writeAtomic } from "../../proc/files.ts";
import { writeVerdictFiles } from "../../report/verdict-files.ts";
import type { Result } from "../../result/model.ts";
import { readResult, resultFileOf } from "../../result/store.ts";
import { exitCodeOf } from "../exit.ts";

type RunPart = { file: string; result: Result; shard: RunShard };

async function readRunPart(given: string): Promise<RunPart> {
  const file = resultFileOf(given);
  const result = await readResult(file);
  if (!result.shard || !("cells" in result.shard))
    throw new InputError(
      `${file}: not a share of a run's matrix (run --shard K/N): merge the parts of one run, or of one comparison`,
    );
  return { file, result, shard: result.shard };
}

/** Parts of one run: one spec, one N, each shard and each cell once. */
function checkRunParts(parts: RunPart[]): void {
  const [first, ...rest] = parts as [RunPart, ...RunPart[]];
  const problems: string[] = [];
  for (const p of rest) {
    if (p.shard.spec_sha256 !== first.shard.spec_sha256)
      problems.push(
        `${p.file}: its spec (sha256 ${p.shard.spec_sha256.slice(0, 12)}) is not ${first.file}'s (${first.shard.spec_sha256.slice(0, 12)}): parts of two spec versions`,
      );
    if (p.shard.of !== first.shard.of)
      problems.push(`${p.file}: a shard of ${p.shard.of}, but ${first.file} is a shard of ${first.shard.of}`);
  }
  const byIndex = new Map<number, string>();
  const byCell = new Map<string, string>();
  for (const p of parts) {
    const twice = byIndex.get(p.shard.index);
    if (twice) problems.push(`shard ${p.shard.index} of ${p.shard.of} twice: ${twice} and ${p.file}`);
    byIndex.set(p.shard.index, p.file);
    for (const c of p.shard.cells) {
      const other = byCell.get(c);
      if (other) problems.push(`cell ${c} in both ${other} and ${p.file}`);
      byCell.set(c, p.file);
    }
  }
  if (problems.length)
    throw new InputError(`tiperf merge: these parts do not belong together:\n- ${problems.join("\n- ")}`);
}

export interface RunMergeOutcome {
  result: Result;
  resultPath: string;
  /** Shards that did not arrive or did not complete. */
  missing: number[];
  /** With a baseline: the merged run judged against it. */
  verdict?: Verdict;
  htmlPath?: string;
  exitCode: number;
}

/** What the merged run says of its shards: which arrived, on which runner, and which did not. */
function shardNote(parts: RunPart[], of: number, missing: number[]): string {
  const arrived = [...parts]
    .sort((a, b) => a.shard.index - b.shard.index)
    .map(
      (p) =>
        `shard ${p.shard.index}: ${p.shard.cells.join(", ")} on ${p.result.host.hostname} (${p.result.host.cpu_model}, ${p.result.host.cores} cores)${p.result.status === "complete" ? "" : `, ${p.result.status}`}`,
    )
    .join("; ");
  return `${of - missing.length} of ${of} shards merged (${arrived})${missing.length ? `; missing: ${missing.map((k) => `shard ${k}`).join(", ")} — their cells are not in this run, and the check cannot pass without them` : ""}`;
}

/**
 * The parts joined as the one run they are shares of, its cells in the matrix's order; with
 * `baseline`, judged against it. Missing or unfinished shards are named; a verdict that would
 * pass without them is inconclusive, and the exit is that of a run that did not finish (3).
 */
export async function mergeRunParts(
  files: string[],
  opts: { outDir: string; log: (line: string) => void; baseline?: string },
): Promise<RunMergeOutcome> {
  const baseline = opts.baseline ? await readResult(opts.baseline) : undefined;
  const parts = await Promise.all(files.map(readRunPart));
  checkRunParts(parts);
  const first = parts[0] as RunPart;
  const loaded = recordedSpec(first);
  const of = first.shard.of;
  const missing = missingShards(parts, of);
  const order = planCells(loaded.spec).map(cellLabel);
  const at = (c: Result["cells"][number]) => order.indexOf(`${c.workload} threads=${c.threads}`);
  const { shard: _s, ...rest } = first.result;
  const result: Result = {
    ...rest,
    run_id: `merge-${first.result.run_id}`,
    status: missing.length ? "failed" : "complete",
    ...(missing.length ? { error: "a shard did not complete" } : {}),
    cells: parts.flatMap((p) => p.result.cells).sort((a, b) => at(a) - at(b)),
  };
  await mkdir(opts.outDir, { recursive: true });
  const resultPath = join(opts.outDir, "result.json");
  await writeAtomic(resultPath, `${JSON.stringify(result, null, 2)}\n`);
  const note = shardNote(parts, of, missing);
  opts.log(`merge: ${note}`);
  if (!baseline || !opts.baseline)
    return { result, resultPath, missing, exitCode: missing.length ? EXIT.runFailed : EXIT.ok };
  const sides = [
    { result: baseline, file: opts.baseline },
    { result, file: resultPath },
  ] as const;
  const judged = judgeStored(...sides, { confidence: 0.95, force: false });
  const verdict: Verdict = {
    ...judged,
    verdict: missing.length && judged.verdict === "pass" ? "inconclusive" : judged.verdict,
    notes: [note, ...judged.notes],
  };
  const { htmlPath } = await writeVerdictFiles(verdict, opts.outDir, opts.log, asJudged(...sides));
  return {
    result,
    resultPath,
    missing,
    verdict,
    htmlPath,
    exitCode: exitCodeOf(verdict) || (missing.length ? EXIT.runFailed : EXIT.ok),
  };
}
