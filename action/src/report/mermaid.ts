import type { CellJudgement } from "../compare/judge.ts";
import type { WorkloadRows } from "./rows.ts";

/** Base and head line colours, the same in Mermaid, the SVG charts and the HTML legend. */
export const BASE_COLOR = "#4c78a8";
export const HEAD_COLOR = "#f58518";

// Mermaid's xychart has no legend, so the colours are fixed here and named under the chart.
const INIT = `%%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "${BASE_COLOR}, ${HEAD_COLOR}"}}}}%%`;

const quoted = (s: string) => `"${s.replace(/["<>\n\r]/g, "'")}"`;

function rounded(x: number | null): number {
  if (x === null || !Number.isFinite(x)) return 0;
  return x >= 100 ? Math.round(x) : Math.round(x * 100) / 100;
}

/**
 * A GitHub-rendered `xychart-beta` of one metric against threads, base and head as two lines.
 * Throughput axes start at zero so a small dip does not look like a cliff.
 */
export function xyChart(title: string, yLabel: string, rows: (CellJudgement | undefined)[]): string | null {
  const cells = rows.filter((c): c is CellJudgement => c !== undefined && c.base !== null && c.head !== null);
  if (cells.length === 0) return null;
  const base = cells.map((c) => rounded(c.base));
  const head = cells.map((c) => rounded(c.head));
  const top = Math.max(...base, ...head);
  const axisTop = top > 0 ? Number((top * 1.1).toPrecision(2)) : 1;
  return [
    "```mermaid",
    INIT,
    "xychart-beta",
    `  title ${quoted(title)}`,
    `  x-axis "threads" [${cells.map((c) => c.threads).join(", ")}]`,
    `  y-axis ${quoted(yLabel)} 0 --> ${axisTop}`,
    `  line [${base.join(", ")}]`,
    `  line [${head.join(", ")}]`,
    "```",
  ].join("\n");
}

/** The workload's charts (throughput, then latency), each with the colour key under it. */
export function workloadCharts(w: WorkloadRows, base: string, head: string): string[] {
  const key = `<sub>🟦 ${base} · 🟧 ${head}</sub>`;
  const out: string[] = [];
  const tp = xyChart(
    `${w.workload}: ${w.throughputName ?? ""} vs threads`,
    w.throughputName ?? "",
    w.rows.map((r) => r.throughput),
  );
  if (tp && w.throughputName) out.push(tp, key);
  const lat = xyChart(
    `${w.workload}: ${w.latencyName ?? ""} latency (${w.latencyUnit ?? "ms"}) vs threads`,
    `${w.latencyName} ${w.latencyUnit ?? "ms"}`,
    w.rows.map((r) => r.latency),
  );
  if (lat && w.latencyName) out.push(lat, key);
  return out;
}

/** Line colours of more than two variants (the control first), as the key under a chart names them. */
export const VARIANT_COLORS = [
  BASE_COLOR,
  HEAD_COLOR,
  "#54a24b",
  "#e45756",
  "#72b7b2",
  "#b279a2",
  "#ff9da6",
  "#9d755d",
];
const COLOR_SQUARES = ["🟦", "🟧", "🟩", "🟥", "⬛", "🟪", "🟫", "⬜"];

/** One metric against threads, one line per variant (`series[i]` is variant i's values per thread count). */
export function xyChartN(
  title: string,
  yLabel: string,
  threads: number[],
  series: { name: string; values: (number | null)[] }[],
): string[] | null {
  if (threads.length === 0 || series.every((s) => s.values.every((x) => x === null))) return null;
  const rows = series.map((s) => s.values.map(rounded));
  const top = Math.max(...rows.flat());
  const axisTop = top > 0 ? Number((top * 1.1).toPrecision(2)) : 1;
  const palette = VARIANT_COLORS.slice(0, series.length).join(", ");
  return [
    [
      "```mermaid",
      `%%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "${palette}"}}}}%%`,
      "xychart-beta",
      `  title ${quoted(title)}`,
      `  x-axis "threads" [${threads.join(", ")}]`,
      `  y-axis ${quoted(yLabel)} 0 --> ${axisTop}`,
      ...rows.map((r) => `  line [${r.join(", ")}]`),
      "```",
    ].join("\n"),
    `<sub>${series.map((s, i) => `${COLOR_SQUARES[i % COLOR_SQUARES.length]} ${s.name}`).join(" · ")}</sub>`,
  ];
}
