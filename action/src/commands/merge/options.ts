// `tiperf merge`'s options from either door, checked once into one request: the parts, where the
// merge goes, the stored result a run's shares are judged against, the verdict a comparison's
// parts confirm, who accepted a regression, the looks the waves reach. Every refusal at once.

import type { Verdict } from "../../compare/verdict.ts";
import { checkOutFile } from "../../result/store.ts";
import { readFirstVerdict } from "../compare/confirm.ts";
import { type Asked, type Door, Refusals } from "../door.ts";
import { loginOption } from "../spec-options.ts";

export interface MergeRequest {
  /** Each shard's result.json (or run directory). */
  parts: string[];
  outDir: string;
  /** A run's shares: judged against this stored result. */
  baseline?: string;
  /** A comparison's parts: the confirmation (as shards) of this verdict's regression. */
  confirms?: Verdict;
  /** A comparison's parts: a regression accepted as an expected cost by this login. */
  acceptedBy?: string;
  /** A comparison's parts: the looks the workflow's waves reach (the design's included). */
  maxLooks?: number;
}

/** merge's options from a door, the parts found by the door: checked, every refusal at once. */
export async function mergeRequest(
  d: Door,
  parts: string[],
  o: { out: string },
): Promise<Asked<MergeRequest>> {
  const r = new Refusals(d.prefix);
  const looksText = d.get("max-looks");
  const maxLooks = looksText === undefined ? undefined : Number(looksText);
  if (maxLooks !== undefined && !(Number.isInteger(maxLooks) && maxLooks >= 1 && maxLooks <= 6))
    r.refuse(
      `${d.say("max-looks")} must be a whole number of looks from 1 to 6 (got ${JSON.stringify(looksText)})`,
    );
  const acceptedBy = loginOption(d, r);
  const json = d.get("json");
  if (json !== undefined) await r.checkAsync(() => checkOutFile(json, d.say("json")));
  const confirmsFile = d.get("confirms");
  const confirms =
    confirmsFile === undefined
      ? undefined
      : await r.checkAsync(() => readFirstVerdict(confirmsFile, d.say("confirms")));
  r.done();
  const baseline = d.get("baseline");
  const request: MergeRequest = {
    parts,
    outDir: d.get("out") ?? o.out,
    ...(baseline !== undefined ? { baseline } : {}),
    ...(confirms ? { confirms } : {}),
    ...(acceptedBy ? { acceptedBy } : {}),
    ...(maxLooks !== undefined ? { maxLooks } : {}),
  };
  return { request, ...(json !== undefined ? { json } : {}) };
}
