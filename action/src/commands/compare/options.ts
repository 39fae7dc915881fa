// `tiperf compare`'s options from either door, checked once into one type: the spec composed (and,
// for a confirmation, narrowed to the first run's regressed cells), the seed, this runner's shard,
// a further look's wave, who accepted a regression, where results and the verdict go. Every
// refused option is said at once, in the door's words.

import { type Shard, shardRefusals, type Wave } from "../../bench/cut.ts";
import { waveFor } from "../../bench/waves.ts";
import { checkOutFile } from "../../result/store.ts";
import type { LoadedSpec } from "../../specfile/load.ts";
import { type Asked, type Door, Refusals } from "../door.ts";
import {
  fileOption,
  loadWords,
  loginOption,
  type SpecWords,
  shardOption,
  specWords,
} from "../spec-options.ts";
import { confirmationSpec, readFirstVerdict } from "./confirm.ts";

/** A comparison as its door asked for it, checked: what `exec` runs. */
export interface CompareRequest {
  spec: LoadedSpec;
  outDir: string;
  /** Overrides compare.seed: the round order of an earlier run, to reproduce it. */
  seed?: number;
  /** This runner's share of the comparison's blocks; `tiperf merge` judges the parts. */
  shard?: Shard;
  /** A further look of a comparison run as shards: this shard's share of its wave. */
  look?: Wave;
  /** A regression of this commit accepted as an expected cost by this login. */
  acceptedBy?: string;
}

/** The checks that read no spec: every one made, every refusal kept. */
function compareWords(d: Door, r: Refusals) {
  const words = specWords(d, r);
  // the seed is compare.seed's override, checked with the other compare.* words (specWords)
  const seed = words?.compare?.seed;
  const shard = shardOption(d, r);
  const acceptedBy = loginOption(d, r);
  const lookOf = r.check(() => fileOption(d, "look-of"));
  const confirms = r.check(() => fileOption(d, "confirms"));
  if (d.get("look-of") && d.get("confirms"))
    r.refuse(`${d.say("look-of")} and ${d.say("confirms")}: give one (a further look, or a confirmation)`);
  return { words, seed, shard, acceptedBy, lookOf, confirms };
}

/** compare's options from a door: checked, the spec loaded; every refusal said at once. */
export async function compareRequest(d: Door, o: { out: string }): Promise<Asked<CompareRequest>> {
  const r = new Refusals(d.prefix);
  const w = compareWords(d, r);
  const json = d.get("json");
  if (json !== undefined) await r.checkAsync(() => checkOutFile(json, d.say("json")));
  r.done();
  const words = w.words as SpecWords;
  const given = await loadWords(words);
  // a further look of this comparison's shards (its spec and seed, its runners)
  const look = w.lookOf
    ? await waveFor(w.lookOf, d.say("look-of"), { spec: given, shard: w.shard })
    : undefined;
  // the first run's regressed cells again, on fresh instances (its own seed and shards)
  const spec = w.confirms
    ? await confirmationSpec(given, await readFirstVerdict(w.confirms, d.say("confirms")))
    : given;
  // a shard of this spec's comparison, refused in the door's words (plan says the same of its
  // flags); one that measures nothing (base and head one target) leaves its part whatever the design
  if (w.shard && spec.variants && !spec.same) {
    const cut = new Refusals(d.prefix);
    for (const line of shardRefusals(spec.variants.compare, w.shard, w.seed !== undefined, {
      said: `${d.say("shard")} ${w.shard.index}/${w.shard.of}`,
      seed: d.say("seed"),
      blocks: d.say("blocks"),
    }))
      cut.refuse(line);
    cut.done();
  }
  const request: CompareRequest = {
    spec,
    outDir: d.get("out") ?? o.out,
    ...(w.seed !== undefined ? { seed: w.seed } : {}),
    ...(w.shard ? { shard: w.shard } : {}),
    ...(look ? { look } : {}),
    ...(w.acceptedBy ? { acceptedBy: w.acceptedBy } : {}),
  };
  return { request, ...(json ? { json } : {}) };
}
