// `tiperf calibrate`'s options, checked once into one request: the spec to calibrate, where the
// A/A's results go, the file compare.noise is written into, an A/A already run. Every refusal at once.

import { checkOutFile } from "../../result/store.ts";
import { type Door, Refusals } from "../door.ts";
import { fileOption } from "../spec-options.ts";

/** A calibration as its door asked for it, checked: what `execCalibrate` runs. */
export interface CalibrateRequest {
  /** The spec whose design is calibrated (its control's target on both sides). */
  spec: string;
  outDir: string;
  /** Where compare.noise is written (the spec itself when not given). */
  into?: string;
  /** An A/A of this design already run (its result.json): read instead of running one. */
  fromResult?: string;
}

/** calibrate's options from a door: checked; every refusal said at once. */
export async function calibrateRequest(d: Door, o: { out: string }): Promise<CalibrateRequest> {
  const r = new Refusals(d.prefix);
  if (d.get("spec") === undefined) r.refuse(d.missing("spec"));
  const spec = r.check(() => fileOption(d, "spec"));
  const into = d.get("write");
  if (into !== undefined) await r.checkAsync(() => checkOutFile(into, d.say("write")));
  const fromResult = r.check(() => fileOption(d, "from-result"));
  r.done();
  return {
    spec: spec as string,
    outDir: d.get("out") ?? o.out,
    ...(into !== undefined ? { into } : {}),
    ...(fromResult !== undefined ? { fromResult } : {}),
  };
}
