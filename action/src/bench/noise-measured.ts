// compare.noise as an A/A run measured it: per workload and metric, the standard deviation of
// log(head/base) of one round within an instance pair and of a pair's steady gap (calibrate, and
// the pull request that adopts a spec).
import { withCounterMetrics, withPooledBackground } from "../compare/background.ts";
import { familyOf } from "../compare/judge-results.ts";
import { noiseOf } from "../compare/noise.ts";
import { pairedSamples } from "../compare/samples.ts";
import { costMetric } from "../observe/cost.ts";
import type { Result } from "../result/model.ts";
import type { LoadedSpec } from "../specfile/load.ts";

type Obj = Record<string, unknown>;

/** Up to the next 0.1%, as compare.noise writes percentages. */
const pctUp = (x: number) => `${(Math.ceil(x * 1000) / 10).toFixed(1)}%`;

/**
 * compare.noise from an A/A result: per workload, the larger noise of its thread counts; the
 * workload's own figures from its first non-cost metric (throughput), the others under metrics.
 */
export function noiseFromResult(
  recorded: Result,
  loaded: LoadedSpec,
  source = "tiperf calibrate: this spec against itself",
  /** Told of each judged metric of a workload the result gives no noise of. */
  unmeasured?: (workload: string, metric: string) => void,
): Obj {
  const spec = loaded.variants?.base.spec ?? loaded.spec;
  const { keys } = familyOf(spec, 0.95, 1, 1);
  // a server counter per operation the spec judges that the A/A did not (named after it ran):
  // from each cell's recorded counters, as the judge would take it (the run's background)
  const judged = [...new Set(keys.flatMap((k) => Object.keys(k.rules)))];
  const result = withPooledBackground(withCounterMetrics(recorded, judged));
  const measured = result.cells.filter((c) => c.round > 0);
  const blocks = new Set(measured.map((c) => c.block ?? 1)).size;
  const rounds = Math.max(0, ...measured.map((c) => c.round));
  const workloads: Obj = {};
  for (const w of spec.workloads) {
    const cells = keys.filter((k) => k.workload === w.name);
    const rules = [...new Set(cells.flatMap((k) => Object.keys(k.rules)))];
    const byMetric: Record<string, { rounds: number; instances: number }> = {};
    for (const metric of rules)
      for (const { threads } of cells) {
        const s = pairedSamples(result, "base", "head", { workload: w.name, threads }, metric);
        const n = noiseOf(s.base.map((b, i) => [b, s.head[i] as number, s.blocks?.[i] ?? 1] as const));
        if (!n) continue;
        const was = byMetric[metric];
        byMetric[metric] = {
          rounds: Math.max(was?.rounds ?? 0, n.rounds),
          instances: Math.max(was?.instances ?? 0, n.instances),
        };
      }
    for (const m of rules) if (!byMetric[m]) unmeasured?.(w.name, m);
    const primary = rules.find((m) => !costMetric(m) && byMetric[m]);
    const figures = (n: { rounds: number; instances: number }) => ({
      rounds: pctUp(n.rounds),
      instances: n.instances > 0 ? pctUp(n.instances) : "0%",
    });
    const metrics = Object.fromEntries(
      Object.entries(byMetric)
        .filter(([m]) => m !== primary)
        .map(([m, n]) => [m, figures(n)]),
    );
    if (!primary && Object.keys(metrics).length === 0) continue;
    workloads[w.name] = {
      ...(primary ? figures(byMetric[primary] as { rounds: number; instances: number }) : {}),
      ...(Object.keys(metrics).length ? { metrics } : {}),
    };
  }
  const h = result.host;
  return {
    measured: `${result.started_at.slice(0, 10)}, ${h.cpu_model} × ${h.cores} (${h.hostname}), ${source}, ${rounds} rounds in ${blocks} block(s), run ${result.run_id}`,
    workloads,
  };
}
