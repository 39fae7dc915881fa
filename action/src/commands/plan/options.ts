// `tiperf plan`'s options, checked once into one request: the spec as a run of it would compose it
// (a source target's builds named, not made), the run id, and a comparison's cut — one runner's
// share (--shard, --seed, --look-of) or every runner's (--shards). Every refused option is said
// at once; a flag that sizes a comparison for a spec that plans none is refused by name.
import { withSourceBuilds } from "../../bench/builds.ts";
import type { Shard, Wave } from "../../bench/cut.ts";
import { readWave } from "../../bench/waves.ts";
import type { LoadedSpec } from "../../specfile/load.ts";
import { type Door, Refusals, Refused } from "../door.ts";
import { loadWords, type SpecWords, shardOption, specWords } from "../spec-options.ts";

export interface PlanRequest {
  spec: LoadedSpec;
  words: SpecWords;
  /** Where plan.txt, plan.json and the kind's files are written too. */
  out?: string;
  runId?: string;
  /** Every runner's share of N. */
  shards?: number;
  /** One runner's share, as `tiperf compare` reads it. */
  seed?: number;
  shard?: Shard;
  look?: Wave;
}

/** The flags that size a comparison: refused for a spec that plans none. */
const SIZING = ["shards", "shard", "seed", "look-of", "rounds", "blocks", "confidence", "budget"];

/** plan's options from a door: checked, the spec loaded (its builds named), every refusal at once. */
export async function planRequest(d: Door, log: (line: string) => void): Promise<PlanRequest> {
  const r = new Refusals(d.prefix);
  const words = specWords(d, r);
  const runId = d.get("run-id");
  if (runId !== undefined && !/^[A-Za-z0-9._-]{1,200}$/.test(runId))
    r.refuse(
      `${d.say("run-id")} must be a run id like 20261125T080000Z-pr-1a2b (letters, digits, . _ -) (got ${JSON.stringify(runId)})`,
    );
  const shardsText = d.get("shards");
  const shards = shardsText === undefined ? undefined : Number(shardsText);
  if (shards !== undefined && !(Number.isInteger(shards) && shards >= 1 && shards <= 64))
    r.refuse(
      `${d.say("shards")} must be a whole number of runners from 1 to 64 (got ${JSON.stringify(shardsText)})`,
    );
  const shardText = d.get("shard");
  const shard = shardOption(d, r);
  if (shardText !== undefined && shardsText !== undefined)
    r.refuse(`${d.say("shard")} K/N plans one runner's share, ${d.say("shards")} N every runner's: give one`);
  const lookOf = d.get("look-of");
  const look =
    lookOf === undefined ? undefined : await r.checkAsync(() => readWave(lookOf, d.say("look-of")));
  r.done();
  const w = words as SpecWords;
  // a target built from source: the plan names each commit's binary (kept, or to be built)
  const spec = await withSourceBuilds(await loadWords(w), { log, dryRun: true });
  const sizing = SIZING.filter((k) => d.get(k) !== undefined);
  if (!spec.variants && sizing.length)
    throw new Refused([
      `${d.prefix}${d.sayAll(sizing, sizing.length === 2 ? " and " : ", ")} size${sizing.length === 1 ? "s" : ""} a comparison, and ${spec.path} plans none (no variants): add --base-ref REF --head-ref REF to plan the PR check's comparison of two commits, or variants: to the spec`,
    ]);
  const seed = w.compare?.seed;
  return {
    spec,
    words: w,
    ...(d.get("out") !== undefined ? { out: d.get("out") } : {}),
    ...(runId !== undefined ? { runId } : {}),
    ...(shards !== undefined ? { shards } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(shard ? { shard } : {}),
    ...(look ? { look } : {}),
  };
}
