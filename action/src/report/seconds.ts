// What happened inside each cell, second by second, from the results' own samples: throughput
// and latency as the tool printed them (a line per round, coloured by variant, warmup rounds and
// warmup seconds dashed), and the CPU of each program beside them (the resource sampler's seconds).
import type { TopLevelSpec } from "vega-lite";
import type { Cell, Result } from "../result/model.ts";
import type { Chart } from "./charts.ts";
import { VARIANT_COLORS } from "./mermaid.ts";

const stem = (s: string) => s.replace(/[^\w.-]+/g, "_");

const frame = (values: object[]) => ({
  $schema: "https://vega.github.io/schema/vega-lite/v6.json",
  width: 360,
  height: 200,
  background: "white",
  data: { values },
});

const runOf = (c: Cell) =>
  `${c.variant} ${c.round === 0 ? "warmup" : `r${c.round}`}${c.block !== undefined ? ` b${c.block}` : ""}`;

/** The first metric of the cell's tool that its per-second samples carry, in the given direction. */
function keyOf(c: Cell, better: "higher" | "lower"): string | undefined {
  const per = c.intervals[0]?.values ?? {};
  return Object.entries(c.metrics).find(
    ([name, m]) => m.better === better && per[name] !== undefined && (better === "higher" || m.unit === "ms"),
  )?.[0];
}

function perSecond(cells: Cell[], key: string, title: string, variants: string[]): TopLevelSpec {
  const values = cells.flatMap((c) =>
    c.intervals
      .filter((i) => i.values[key] !== undefined)
      .map((i) => ({
        t: i.t,
        value: i.values[key],
        variant: c.variant,
        run: runOf(c),
        part: c.round === 0 || i.warmup ? "warmup" : "measured",
      })),
  );
  const warm = values.some((v) => v.part === "warmup");
  return {
    ...frame(values),
    mark: { type: "line", strokeWidth: 1.5, opacity: 0.85 },
    encoding: {
      x: { field: "t", type: "quantitative", title: "second of the cell" },
      y: { field: "value", type: "quantitative", title, scale: { zero: false } },
      color: {
        field: "variant",
        type: "nominal",
        title: null,
        scale: { domain: variants, range: VARIANT_COLORS.slice(0, variants.length) },
        legend: { orient: "bottom" },
      },
      ...(warm
        ? {
            strokeDash: {
              field: "part",
              type: "nominal" as const,
              title: null,
              scale: {
                domain: ["measured", "warmup"],
                range: [
                  [1, 0],
                  [4, 3],
                ],
              },
              legend: { orient: "bottom" as const },
            },
          }
        : {}),
      detail: { field: "run", type: "nominal" },
    },
  };
}

function cpuSeconds(cells: Cell[]): TopLevelSpec | undefined {
  const values = cells.flatMap((c) =>
    (c.resources ?? [])
      .filter((r) => r.role !== "machine")
      .flatMap((r) =>
        r.samples.map((s) => ({
          t: s.t,
          cpu: s.cpu_pct,
          program: `${r.component} (${r.role}, ${Number.isInteger(r.cpus) ? r.cpus : r.cpus.toFixed(2)} CPU)`,
          variant: c.variant,
          run: runOf(c),
        })),
      ),
  );
  if (!values.length) return undefined;
  return {
    ...frame(values),
    mark: { type: "line", strokeWidth: 1.5, opacity: 0.85 },
    encoding: {
      x: { field: "t", type: "quantitative", title: "second of the cell" },
      y: {
        field: "cpu",
        type: "quantitative",
        title: "CPU % of the CPUs it may use",
        scale: { domain: [0, 110] },
      },
      color: {
        field: "program",
        type: "nominal",
        title: null,
        legend: { orient: "bottom", columns: 1, labelLimit: 400 },
      },
      strokeDash: { field: "variant", type: "nominal", title: null, legend: { orient: "bottom" } },
      detail: { field: "run", type: "nominal" },
    },
  };
}

/** Per workload × threads of the results: throughput, latency and CPU per second. */
export function secondCharts(results: readonly Result[]): Chart[] {
  const cells = results.flatMap((r) => r.cells).filter((c) => c.status === "ok" && c.intervals.length);
  // the variants in the order the results list their targets (the control first), as elsewhere
  const variants = [
    ...new Set([...results.flatMap((r) => r.targets.map((t) => t.variant)), ...cells.map((c) => c.variant)]),
  ];
  const keys = [...new Set(cells.map((c) => `${c.workload}\u0000${c.threads}`))];
  const out: Chart[] = [];
  for (const key of keys) {
    const [workload, t] = key.split("\u0000") as [string, string];
    const mine = cells.filter((c) => c.workload === workload && c.threads === Number(t));
    const first = mine[0] as Cell;
    const base = `${stem(workload)}-t${t}`;
    const tp = keyOf(first, "higher");
    const lat = keyOf(first, "lower");
    if (tp)
      out.push({
        workload,
        name: `${base}-${stem(tp)}-per-second`,
        title: `${workload} threads=${t}: ${tp} per second (a line per round; dashed: warmup)`,
        spec: perSecond(mine, tp, `${tp} per second`, variants),
      });
    if (lat)
      out.push({
        workload,
        name: `${base}-${stem(lat)}-per-second`,
        title: `${workload} threads=${t}: ${lat} per second`,
        spec: perSecond(mine, lat, `${lat} (ms)`, variants),
      });
    const cpu = cpuSeconds(mine);
    if (cpu)
      out.push({
        workload,
        name: `${base}-cpu-per-second`,
        title: `${workload} threads=${t}: CPU per program per second (line style: variant)`,
        spec: cpu,
      });
  }
  return out;
}
