// The history as a page: one chart per series, each run a point, each level a horizontal segment,
// each change point a vertical marker at its first run with the change and p-value beside it.

import { esc } from "../report/html.ts";
import { segmentsOf } from "./changepoints.ts";
import type { ChangePointReport, SeriesReport } from "./check.ts";

function chart(s: SeriesReport): string {
  const W = 640;
  const H = 200;
  const pad = { l: 60, r: 10, t: 10, b: 24 };
  const n = s.values.length;
  const lo = Math.min(...s.values);
  const hi = Math.max(...s.values);
  const span = hi - lo || Math.abs(hi) || 1;
  const x = (i: number) => pad.l + (n > 1 ? (i / (n - 1)) * (W - pad.l - pad.r) : (W - pad.l - pad.r) / 2);
  const y = (v: number) => pad.t + (1 - (v - (lo - span * 0.1)) / (span * 1.2)) * (H - pad.t - pad.b);
  const dots = s.values
    .map(
      (v, i) =>
        `<circle cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3" fill="#0969da"><title>${esc(s.run_ids[i] as string)}: ${v.toPrecision(5)}</title></circle>`,
    )
    .join("");
  const line = `<polyline fill="none" stroke="#0969da" stroke-opacity="0.4" points="${s.values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ")}"/>`;
  const levels = segmentsOf(
    s.values,
    s.points.map((p) => ({ index: p.index, p: p.p, q: 0 })),
  )
    .map(
      (g) =>
        `<line x1="${x(g.from).toFixed(1)}" x2="${x(g.to - 1).toFixed(1)}" y1="${y(g.mean).toFixed(1)}" y2="${y(g.mean).toFixed(1)}" stroke="#57606a" stroke-dasharray="4 3"/>`,
    )
    .join("");
  const marks = s.points
    .map((p) => {
      const cx = (x(p.index - 1) + x(p.index)) / 2;
      const color = p.worse ? "#cf222e" : "#1a7f37";
      return `<line class="change-point" data-run="${esc(p.run_id)}" x1="${cx.toFixed(1)}" x2="${cx.toFixed(1)}" y1="${pad.t}" y2="${H - pad.b}" stroke="${color}" stroke-width="2"/><text x="${(cx + 4).toFixed(1)}" y="${pad.t + 12}" font-size="11" fill="${color}">${(p.change * 100).toFixed(1)}% (p ${p.p.toFixed(3)})</text>`;
    })
    .join("");
  const axis = `<text x="4" y="${y(hi).toFixed(1)}" font-size="11">${hi.toPrecision(4)}</text><text x="4" y="${y(lo).toFixed(1)}" font-size="11">${lo.toPrecision(4)}</text><text x="${pad.l}" y="${H - 6}" font-size="11">${esc(s.run_ids[0] ?? "")}</text><text x="${W - pad.r}" y="${H - 6}" font-size="11" text-anchor="end">${esc(s.run_ids.at(-1) ?? "")}</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" role="img" aria-label="${esc(`${s.workload} threads=${s.threads} ${s.metric}`)}">${axis}${line}${levels}${dots}${marks}</svg>`;
}

/** The method in one sentence, for the page and for report.html's history section. */
const methodLine = (r: ChangePointReport) =>
  `Change points: E-divisive means, permutation test (${r.permutations} permutations, p ≤ ${r.pvalue}); red: worse, green: better; dashed: the levels between them.`;

/** One section per series of the report's histories (only those of spec `spec` when given). */
export function historySections(r: ChangePointReport, heading: "h2" | "h3", spec?: string): string {
  const sub = heading === "h2" ? "h3" : "h4";
  const parts: string[] = [];
  for (const f of r.files) {
    if (spec !== undefined && f.spec !== spec) continue;
    parts.push(
      `<${heading}>${esc(f.spec)} on ${esc(f.profile)} <small>(${f.runs} runs)</small></${heading}>`,
    );
    for (const s of f.series)
      parts.push(
        `<section data-series="${esc(`${s.workload}/${s.threads}/${s.metric}`)}" data-change-points="${s.points.length}"><${sub}>${esc(s.workload)} threads=${s.threads} ${esc(s.metric)} (${s.better} is better)</${sub}>${chart(s)}</section>`,
      );
  }
  return parts.length > 0 ? `<p class="method">${esc(methodLine(r))}</p>\n${parts.join("\n")}` : "";
}

export function historyHtml(r: ChangePointReport): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>tiperf history</title><style>body{font-family:system-ui,sans-serif;margin:16px;color:#1f2328}small{color:#57606a}section{margin:8px 0 16px}</style></head><body><h1>tiperf history</h1>${historySections(r, "h2")}</body></html>\n`;
}
