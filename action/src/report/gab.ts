import { mean, stddev } from "../compare/stats.ts";
import { InputError } from "../errors.ts";
import type { Cell, Result } from "../result/model.ts";
import { isLatency, metricName } from "./rows.ts";

/** One entry of github-action-benchmark's `customBiggerIsBetter` / `customSmallerIsBetter` input. */
export interface GabEntry {
  name: string;
  unit: string;
  value: number;
  range?: string;
  extra?: string;
}

import type { Better } from "../drivers/types.ts";

/** The measured metrics of one direction (error counts left out: they are no benchmark series). */
function metricsOf(better: Better, cells: Cell[]): string[] {
  const all = cells.flatMap((c) => Object.entries(c.metrics));
  return [...new Set(all.filter(([, m]) => m.better === better && m.unit !== "count").map(([n]) => n))];
}

const UNITS: Record<string, string> = {
  tps: "transactions/s",
  qps: "queries/s",
  ops: "operations/s",
  tpmc: "transactions/min",
  tpm_total: "transactions/min",
};
const unitOf = (metric: string, cells: Cell[]) =>
  UNITS[metric] ?? cells.find((c) => c.metrics[metric])?.metrics[metric]?.unit ?? "";

const label = (metric: string) => `${metricName(metric)}${isLatency(metric) ? " latency" : ""}`;

const sd = (xs: number[]) => (xs.length < 2 ? 0 : stddev(xs));

const round = (x: number) => Number(x.toPrecision(6));

/**
 * github-action-benchmark entries for one variant of a result: one per workload × threads ×
 * metric (throughput for `higher`, latency for `lower`). The value is the mean over rounds; the
 * range is ± one standard deviation over rounds, or over the steady 1-second samples when the
 * cell ran once.
 */
export function gabEntries(result: Result, better: Better, variant?: string): GabEntry[] {
  const variants = [...new Set(result.cells.map((c) => c.variant))];
  const chosen = variant ?? (variants.includes("head") ? "head" : variants[variants.length - 1]);
  if (chosen === undefined || !variants.includes(chosen)) {
    throw new InputError(
      `--variant ${variant ?? ""}: the result has ${variants.length ? `variants ${variants.join(", ")}` : "no cells"}`,
    );
  }
  const cells = result.cells.filter((c) => c.variant === chosen && c.status === "ok" && c.round > 0);
  const out: GabEntry[] = [];
  const keys = [...new Map(cells.map((c) => [`${c.workload}\0${c.threads}`, c])).values()];
  for (const metric of metricsOf(better, cells)) {
    for (const k of keys) {
      const same = cells.filter((c) => c.workload === k.workload && c.threads === k.threads);
      const values = same
        .map((c) => c.metrics[metric]?.value)
        .filter((x): x is number => x !== undefined && Number.isFinite(x));
      if (values.length === 0) continue;
      const spread =
        values.length > 1
          ? sd(values)
          : better === "higher"
            ? sd(
                (same[0]?.intervals ?? [])
                  .filter((i) => !i.warmup)
                  .map((i) => i.values[metric])
                  .filter((x): x is number => x !== undefined),
              )
            : 0;
      out.push({
        name: `${result.spec.name}/${k.workload}/threads=${k.threads}/${label(metric)}`,
        unit: unitOf(metric, same),
        value: round(mean(values)),
        ...(spread > 0 ? { range: `± ${round(spread)}` } : {}),
        extra: [
          `${values.length} round(s) of ${k.script}, ${k.duration_s}s each`,
          values.length > 1 ? "range: sd over rounds" : spread > 0 ? "range: sd of the interval samples" : "",
          `run ${result.run_id}, variant ${chosen}`,
          `raw: ${same.map((c) => c.raw_log).join(", ")}`,
        ]
          .filter(Boolean)
          .join("\n"),
      });
    }
  }
  return out;
}
