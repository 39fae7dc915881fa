import { parse, View } from "vega";
import { compile, type TopLevelSpec } from "vega-lite";
import type { Verdict } from "../compare/verdict.ts";
import { VARIANT_COLORS } from "./mermaid.ts";
import { subVerdict, type WorkloadRows, workloadRows } from "./rows.ts";

export interface Chart {
  workload: string;
  /** File-name stem: `<workload>-<qps|p95|change>`. */
  name: string;
  title: string;
  spec: TopLevelSpec;
  /** A chart of one cell's seconds (report.html's per-second section), not of the verdict's table. */
  perSecond?: boolean;
}

const VERDICT_COLORS = {
  domain: ["regression", "improvement", "within", "unchanged", "inconclusive"],
  range: ["#d62728", "#2ca02c", "#1f77b4", "#7f7f7f", "#e6a700"],
};

const LEGEND = { orient: "bottom" as const, title: null };

/** What every chart shares: size, background, the data; x is always the thread count. */
const frame = (values: object[]) => ({
  $schema: "https://vega.github.io/schema/vega-lite/v6.json",
  width: 360,
  height: 220,
  background: "white",
  data: { values },
});
const THREADS_X = { field: "threads", type: "ordinal" as const, title: "threads", axis: { labelAngle: 0 } };

const stem = (s: string) => s.replace(/[^\w.-]+/g, "_");

/** One metric against threads, a line per variant: the control's values, then each variant's. */
function lines(
  parts: { side: Verdict; rows: WorkloadRows }[],
  pick: "throughput" | "latency",
  yTitle: string,
  fromZero: boolean,
): TopLevelSpec {
  const first = parts[0] as { side: Verdict; rows: WorkloadRows };
  const names = [first.side.base.variant, ...parts.map((p) => p.side.head.variant)];
  const values = [
    ...first.rows.rows.flatMap((r) => {
      const j = r[pick];
      return j && j.base !== null ? [{ threads: r.threads, variant: names[0], value: j.base }] : [];
    }),
    ...parts.flatMap((p) =>
      p.rows.rows.flatMap((r) => {
        const j = r[pick];
        return j && j.head !== null && j.base !== null
          ? [{ threads: r.threads, variant: p.side.head.variant, value: j.head }]
          : [];
      }),
    ),
  ];
  return {
    ...frame(values),
    mark: { type: "line", point: { size: 50 }, strokeWidth: 2.5 },
    encoding: {
      x: THREADS_X,
      y: { field: "value", type: "quantitative", title: yTitle, scale: { zero: fromZero } },
      color: {
        field: "variant",
        type: "nominal",
        title: null,
        scale: { domain: names, range: VARIANT_COLORS.slice(0, names.length) },
        legend: { orient: "bottom" },
      },
    },
  };
}

/** Δ% with its confidence interval per thread count, inside the ±tolerance band. */
function change(w: WorkloadRows): TopLevelSpec | null {
  const values = w.rows.flatMap((r) => {
    const j = r.throughput ?? r.judgements[0];
    if (!j || j.change === null) return [];
    return [
      {
        threads: r.threads,
        change: j.change * 100,
        lo: (j.ci?.[0] ?? j.change) * 100,
        hi: (j.ci?.[1] ?? j.change) * 100,
        tol: j.tolerance * 100,
        ntol: -j.tolerance * 100,
        verdict: j.verdict,
      },
    ];
  });
  if (values.length === 0) return null;
  const x = THREADS_X;
  return {
    ...frame(values),
    layer: [
      {
        mark: { type: "bar", color: "#e8e8e8", width: { band: 1 } },
        encoding: { x, y: { field: "ntol", type: "quantitative" }, y2: { field: "tol" } },
      },
      { mark: { type: "rule", color: "#999" }, encoding: { y: { datum: 0 } } },
      {
        mark: { type: "rule", strokeWidth: 2 },
        encoding: {
          x,
          y: { field: "lo", type: "quantitative", title: "change % (with CI)" },
          y2: { field: "hi" },
          color: { field: "verdict", type: "nominal", scale: VERDICT_COLORS, legend: LEGEND },
        },
      },
      {
        mark: { type: "point", filled: true, size: 60 },
        encoding: {
          x,
          y: { field: "change", type: "quantitative" },
          color: {
            field: "verdict",
            type: "nominal",
            scale: VERDICT_COLORS,
            legend: LEGEND,
          },
        },
      },
    ],
  };
}

/**
 * Per workload: throughput and latency against threads (a line per variant), and the change with
 * CI (per variant against the control when there are more than two).
 */
export function verdictCharts(v: Verdict): Chart[] {
  const out: Chart[] = [];
  const sides = v.variants && v.variants.length > 1 ? v.variants.map((s) => subVerdict(v, s.variant)) : [v];
  const perSide = sides.map((side) => ({ side, workloads: workloadRows(side) }));
  for (const w of perSide[0]?.workloads ?? []) {
    const parts = perSide.flatMap((p) => {
      const rows = p.workloads.find((x) => x.workload === w.workload);
      return rows ? [{ side: p.side, rows }] : [];
    });
    if (w.throughputName && w.rows.some((r) => r.throughput)) {
      out.push({
        workload: w.workload,
        name: `${stem(w.workload)}-${w.throughputName.toLowerCase()}`,
        title: `${w.workload}: ${w.throughputName} vs threads`,
        spec: lines(parts, "throughput", w.throughputName, true),
      });
    }
    if (w.latencyName && w.rows.some((r) => r.latency)) {
      out.push({
        workload: w.workload,
        name: `${stem(w.workload)}-${w.latencyName}`,
        title: `${w.workload}: ${w.latencyName} latency (${w.latencyUnit ?? "ms"}) vs threads`,
        spec: lines(parts, "latency", `${w.latencyName} latency (${w.latencyUnit ?? "ms"})`, true),
      });
    }
    for (const p of parts) {
      const c = change(p.rows);
      if (!c) continue;
      const suffix = parts.length > 1 ? `-${stem(p.side.head.variant)}` : "";
      out.push({
        workload: w.workload,
        name: `${stem(w.workload)}-change${suffix}`,
        title: `${w.workload}: ${w.throughputName ?? "change"} Δ% with ${Math.round(v.confidence * 100)}% CI (grey: tolerance)${parts.length > 1 ? `, ${p.side.head.variant} against ${p.side.base.variant}` : ""}`,
        spec: c,
      });
    }
  }
  return out;
}

// vega-lite logs warnings straight to the console, into the CLI's output; errors still throw.
const quiet = {
  level: () => quiet,
  error: (...m: unknown[]) => {
    throw new Error(`vega-lite: ${m.join(" ")}`);
  },
  warn: () => quiet,
  info: () => quiet,
  debug: () => quiet,
};

/** vega-lite → vega → SVG in Node, no browser and no canvas (text widths are estimated). */
export async function chartSvg(spec: TopLevelSpec): Promise<string> {
  const view = new View(parse(compile(spec, { logger: quiet }).spec), { renderer: "none" });
  view.logLevel(0);
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** SVG → PNG with resvg (native, loaded on first use so a platform without it still gets SVGs). */
export async function svgPng(svg: string, scale = 2): Promise<Buffer> {
  // resvg is CommonJS: the bundle (action/dist) sees it as a default export, the sources as named ones.
  const mod = (await import("@resvg/resvg-js")) as typeof import("@resvg/resvg-js") & {
    default?: typeof import("@resvg/resvg-js");
  };
  const Resvg = mod.Resvg ?? mod.default?.Resvg;
  if (typeof Resvg !== "function") throw new Error("@resvg/resvg-js has no Resvg class here");
  return new Resvg(svg, { background: "white", fitTo: { mode: "zoom", value: scale } }).render().asPng();
}
