// The parts of a comparison or run spread over runners (`--shard K/N`): each shard's result.json,
// read and checked to belong together (one spec, one seed, one N, each shard and block once),
// and the spec they recorded.
import { InputError } from "../errors.ts";
import type { Result } from "../result/model.ts";
import { readResult, resultFileOf } from "../result/store.ts";
import { specOfValue } from "../specfile/load.ts";

/** A share of a comparison (compare --shard), and a share of a run's matrix (run --shard). */
export type CompareShard = Extract<NonNullable<Result["shard"]>, { blocks: number[] }>;
export type RunShard = Extract<NonNullable<Result["shard"]>, { cells: string[] }>;

export type Part = { file: string; result: Result; shard: CompareShard };

/** A part named by its result.json or the run directory holding it. */
async function readPart(given: string): Promise<Part> {
  const file = resultFileOf(given);
  const result = await readResult(file);
  if (!result.shard)
    throw new InputError(
      `${file}: not a shard's result (no shard in it): tiperf merge takes the results of \`tiperf compare --shard K/N\` or \`tiperf run --shard K/N\``,
    );
  if (!("blocks" in result.shard))
    throw new InputError(
      `${file}: a share of a run's matrix (run --shard), given with shares of a comparison: merge the parts of one of them`,
    );
  return { file, result, shard: result.shard };
}

/** Whether the first part is a share of a run's matrix (run --shard), not of a comparison. */
export async function isRunPart(given: string): Promise<boolean> {
  const result = await readResult(given);
  return result.shard !== undefined && "cells" in result.shard;
}

/** Parts of one comparison: one spec, one seed, one N, each shard and each block once. */
export function checkParts(parts: Part[]): void {
  const [first, ...rest] = parts as [Part, ...Part[]];
  const problems: string[] = [];
  for (const p of rest) {
    const { shard: s } = p;
    if (s.spec_sha256 !== first.shard.spec_sha256)
      problems.push(
        `${p.file}: its spec (sha256 ${s.spec_sha256.slice(0, 12)}) is not ${first.file}'s (${first.shard.spec_sha256.slice(0, 12)}): parts of two spec versions`,
      );
    if (s.seed !== first.shard.seed)
      problems.push(
        `${p.file}: seed ${s.seed}, but ${first.file} has seed ${first.shard.seed}: parts of two comparisons (give every shard the plan's --seed)`,
      );
    if (s.of !== first.shard.of)
      problems.push(`${p.file}: a shard of ${s.of}, but ${first.file} is a shard of ${first.shard.of}`);
    if ((p.result.nothing_measured === undefined) !== (first.result.nothing_measured === undefined))
      problems.push(
        `${(p.result.nothing_measured === undefined ? first : p).file} measured nothing (${first.result.nothing_measured ?? p.result.nothing_measured}) where ${(p.result.nothing_measured === undefined ? p : first).file} measured: parts of two different comparisons`,
      );
  }
  const byIndex = new Map<string, string>();
  const byBlock = new Map<number, string>();
  for (const p of parts) {
    // a shard once per look: the design's parts, then each further look's wave (compare --look-of)
    const at = `${p.shard.index} of ${p.shard.of}${p.shard.look ? ` in look ${p.shard.look}` : ""}`;
    const twice = byIndex.get(at);
    if (twice) problems.push(`shard ${at} twice: ${twice} and ${p.file}`);
    byIndex.set(at, p.file);
    const blocks = new Set(p.result.cells.map((c) => c.block ?? 1));
    for (const b of blocks) {
      const other = byBlock.get(b);
      if (other && other !== p.file) problems.push(`block ${b} in both ${other} and ${p.file}`);
      byBlock.set(b, p.file);
    }
  }
  if (problems.length)
    throw new InputError(`tiperf merge: these parts do not belong together:\n- ${problems.join("\n- ")}`);
}

/** The spec a part records (as given, before builds), checked against its sha256. */
export function recordedSpec(part: {
  file: string;
  result: Result;
  shard: { spec: Record<string, unknown>; spec_sha256: string };
}) {
  const loaded = specOfValue(part.shard.spec, part.result.spec.path);
  if (loaded.hash !== part.shard.spec_sha256)
    throw new InputError(
      `${part.file}: the spec it records does not hash to its spec_sha256: the part was edited`,
    );
  return loaded;
}

/** The shards of N that did not arrive, or did not complete (of the design's parts, or of look `look`'s wave). */
export function missingShards(
  parts: { result: Result; shard: { index: number; look?: number | undefined } }[],
  of: number,
  look = 1,
): number[] {
  const arrived = new Set(
    parts
      .filter((p) => (p.shard.look ?? 1) === look && p.result.status === "complete")
      .map((p) => p.shard.index),
  );
  return Array.from({ length: of }, (_, i) => i + 1).filter((k) => !arrived.has(k));
}

/** The parts read and checked to belong together, and the spec they record (unedited). */
export async function partsOfOne(files: string[]) {
  if (files.length === 0)
    throw new InputError("tiperf merge: give the parts: PART... (result.json files or run directories)");
  const parts = await Promise.all(files.map(readPart));
  checkParts(parts);
  const first = parts[0] as Part;
  const loaded = recordedSpec(first);
  const plan = loaded.variants;
  if (!plan) throw new InputError(`${first.file}: its spec has no variants: not a comparison`);
  return { parts, first, loaded, plan };
}
