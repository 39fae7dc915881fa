// What the plan says a comparison's design can see: from the spec's compare.noise (an A/A run of
// that design, `tiperf calibrate`), the smallest change each cell and metric detects at PLAN_POWER
// with its rounds, blocks, per-cell error rate and tolerance; without it, how to measure it.
import { PLAN_POWER, plannedMde } from "../compare/design.ts";
import { familyOf } from "../compare/judge-results.ts";
import { lookShares } from "../compare/looks.ts";
import { costMetric } from "../observe/cost.ts";
import { tiperfCommand } from "../proc/env.ts";
import type { LoadedSpec } from "../specfile/load.ts";

type Noise = NonNullable<NonNullable<LoadedSpec["variants"]>["compare"]["noise"]>;

/**
 * A metric's noise in compare.noise: a cost metric's is its own (throughput's would overstate what
 * it detects); another's its own or else the workload's (throughput's). Undefined where none is given.
 */
export function metricNoise(noise: Noise, workload: string, metric: string) {
  const w = noise.workloads[workload];
  const own = w?.metrics?.[metric];
  if (costMetric(metric) || own) return own;
  return w?.rounds !== undefined && w.instances !== undefined
    ? { rounds: w.rounds, instances: w.instances }
    : undefined;
}

/** The smallest change each cell detects at PLAN_POWER from compare.noise; refused: noise of a workload the spec lacks. */
export function detectionOf(
  loaded: LoadedSpec,
  looks: number,
): { lines: string[]; refusals: string[] } | undefined {
  const compare = loaded.variants?.compare;
  const noise = compare?.noise;
  if (!compare || !loaded.variants) return undefined;
  if (!noise)
    return {
      lines: [
        `smallest change detected: unknown — ${loaded.path} has no compare.noise; run \`${tiperfCommand()} calibrate --spec ${loaded.path}\` on this runner (an A/A of this design) to measure it`,
      ],
      refusals: [],
    };
  const spec = loaded.variants.base.spec;
  const names = spec.workloads.map((w) => w.name);
  const refusals = Object.keys(noise.workloads)
    .filter((n) => !names.includes(n))
    .map(
      (n) =>
        `${loaded.path}: compare.noise.workloads.${n}: no workload of that name (the spec has ${names.join(", ")})`,
    );
  // compare.looks: the design's share of the error rate (its first look)
  const shares = lookShares(looks, compare.looks);
  const { keys, alpha } = familyOf(
    spec,
    compare.confidence,
    shares.length,
    loaded.variants.all.length - 1,
    shares[0],
  );
  const rounds = compare.max_rounds ?? compare.rounds;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const cells = keys.flatMap((k) =>
    Object.entries(k.rules).map(([metric, rule]) => {
      const n = metricNoise(noise, k.workload, metric);
      if (!n)
        return `${k.workload} threads=${k.threads} ${metric}: no noise given (compare.noise.workloads.${k.workload}${costMetric(metric) ? `.metrics.${metric}` : ""})`;
      const mde = plannedMde(n, { rounds, blocks: compare.blocks }, alpha, rule.tolerance, rule.better);
      // a rise past ten times is out of this design's reach, not a figure to read
      const text =
        rule.better !== "higher" && mde > 9
          ? "beyond ×10"
          : `${rule.better === "higher" ? "−" : "+"}${pct(mde)}`;
      return `${k.workload} threads=${k.threads} ${metric} ${text}`;
    }),
  );
  return {
    lines: [
      `smallest change detected at ${Math.round(PLAN_POWER * 100)}% power (a regression beyond the tolerance, per cell at α = ${alpha.toPrecision(2)}; ${compare.blocks > 1 ? `${compare.blocks} blocks × ${rounds / compare.blocks} rounds` : `${rounds} rounds`}; from compare.noise, ${noise.measured}): ${cells.join(", ")}`,
    ],
    refusals,
  };
}
