// `tiperf run`'s options from either door, checked once into one type: the spec composed, this
// runner's share of the matrix, the stored result a run is judged against, where results and the
// verdict go. Every refused option is said at once, in the door's words.

import type { Shard } from "../../bench/cut.ts";
import { checkOutFile } from "../../result/store.ts";
import type { LoadedSpec } from "../../specfile/load.ts";
import { type Asked, type Door, Refusals } from "../door.ts";
import { fileOption, loadWords, type SpecWords, shardOption, specWords } from "../spec-options.ts";

/** A run as its door asked for it, checked: what `execRun` runs. */
export interface RunRequest {
  spec: LoadedSpec;
  outDir: string;
  /** This runner's share of the matrix: every N-th cell from the K-th. */
  shard?: Shard;
  /** A stored result the run is judged against (the Action's mode diff). */
  baseline?: string;
}

/** run's options from a door: checked, the spec loaded; every refusal said at once. */
export async function runRequest(d: Door, o: { out: string }): Promise<Asked<RunRequest>> {
  const r = new Refusals(d.prefix);
  const words = specWords(d, r);
  const shard = shardOption(d, r);
  const baseline = d.get("baseline");
  if (d.get("shard") !== undefined && baseline !== undefined)
    r.refuse(
      `${d.say("shard")} runs a share of the matrix, which a baseline cannot judge alone: run each shard without ${d.say("baseline")}, then tiperf merge --baseline RESULT PART...`,
    );
  const json = d.get("json");
  if (json !== undefined && baseline === undefined)
    r.refuse(`${d.say("json")} is the verdict of ${d.say("baseline")}; give ${d.say("baseline")} RESULT too`);
  else if (json !== undefined) await r.checkAsync(() => checkOutFile(json, d.say("json")));
  // the stored result, named by its flag when it is not there (read, and judged, at the run)
  const stored = baseline === undefined ? undefined : r.check(() => fileOption(d, "baseline"));
  r.done();
  const w = words as SpecWords;
  const request: RunRequest = {
    spec: await loadWords(w),
    outDir: d.get("out") ?? o.out,
    ...(shard ? { shard } : {}),
    ...(stored !== undefined ? { baseline: stored } : {}),
  };
  return { request, ...(json !== undefined ? { json } : {}) };
}
