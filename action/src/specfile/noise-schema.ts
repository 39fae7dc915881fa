// compare.noise: what the cells showed in A/A runs of real servers (tiperf calibrate writes it),
// from which `tiperf plan` states the smallest change each cell detects.
import { z } from "zod";
import { parsePercent } from "../targets/local/schema.ts";

/** A share as a percentage ("5%" → 0.05), within (min, max]. */
export const percent = (what: string, min: number, max: number) =>
  z.string({ error: `${what} must be a percentage like 5% (a number followed by %)` }).transform((v, ctx) => {
    const f = parsePercent(v);
    if (f === undefined || f <= min || f > max) {
      ctx.addIssue({
        code: "custom",
        message: `${what} must be a percentage like "5%" in (${min * 100}%, ${max * 100}%] (got ${JSON.stringify(v)})`,
      });
      return z.NEVER;
    }
    return f;
  });

/** A pair's steady gap in A/A runs: a percentage, or 0% where instances showed none. */
const noiseInstances = z
  .union([z.literal("0%"), percent("compare.noise.workloads.*.instances", 0, 1)])
  .transform((v) => (v === "0%" ? 0 : v));

/**
 * The noise these cells showed on this kind of runner in A/A runs of real servers, per workload:
 * the standard deviation of log(head/base) of one round within an instance pair (`rounds`) and
 * of a pair's steady gap (`instances`), and where it was measured. `tiperf plan` states from it
 * the smallest change each cell detects at 90% power with this design; a run measures its own.
 */
export const NoiseSchema = z.strictObject({
  measured: z.string().min(1, "must say where and how the noise was measured"),
  workloads: z.record(
    z.string(),
    z
      .strictObject({
        // throughput's (absent where the spec judges only costs per operation)
        rounds: percent("compare.noise.workloads.*.rounds", 0, 1).optional(),
        instances: noiseInstances.optional(),
        /** The same of other metrics (a cost per operation: cpu_ms_per_op), by name; rounds/instances above are throughput's. */
        metrics: z
          .record(
            z.string(),
            z.strictObject({
              rounds: percent("compare.noise.workloads.*.metrics.*.rounds", 0, 1),
              instances: noiseInstances,
            }),
          )
          .optional(),
      })
      .superRefine((w, ctx) => {
        if ((w.rounds === undefined) !== (w.instances === undefined))
          ctx.addIssue({
            code: "custom",
            path: [w.rounds === undefined ? "rounds" : "instances"],
            message: "rounds and instances go together (throughput's noise)",
          });
        else if (w.rounds === undefined && !w.metrics)
          ctx.addIssue({
            code: "custom",
            path: ["rounds"],
            message: "required, but missing (or metrics:)",
          });
      }),
  ),
});
