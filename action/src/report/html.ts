import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Verdict } from "../compare/verdict.ts";
import { WriteError } from "../errors.ts";
import { writeAtomic } from "../proc/files.ts";
import type { Result } from "../result/model.ts";
import { type Chart, chartSvg, svgPng, verdictCharts } from "./charts.ts";
import { EVIDENCE_TEXT, HINT_MARK, useText } from "./evidence.ts";
import {
  CELL_MARK,
  CENTRES_TEXT,
  ciText,
  costCellText,
  methodText,
  metricName,
  num,
  overallMark,
  pct,
  rawDirs,
  reproduceCommand,
  subVerdict,
  summaryLine,
  verdictWord,
  warningLines,
  workloadRows,
} from "./rows.ts";
import { secondCharts } from "./seconds.ts";
import { countersHtml } from "./what-moved.ts";

/** Text as HTML: &, <, >, " and ' escaped. */
export const esc = (s: string | number) =>
  String(s).replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  );

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Liberation Sans",sans-serif;margin:24px auto;max-width:1200px;color:#1f2328;padding:0 16px}
h1{font-size:20px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #d0d7de;padding-bottom:4px}
.facts{color:#57606a;margin:4px 0}.method{color:#57606a;font-size:12px}.warning{background:#fff8c5;border-left:4px solid #d4a72c;padding:6px 10px}
table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #d0d7de;padding:3px 8px;text-align:right;white-space:nowrap}
th{background:#f6f8fa}td.l,th.l{text-align:left}
.charts{display:flex;flex-wrap:wrap;gap:16px}.charts figure{margin:0}.charts figcaption{font-size:12px;color:#57606a}
tr.regression td{background:#ffebe9}tr.improvement td{background:#dafbe1}tr.inconclusive td{background:#fff8c5}
table.evidence td{white-space:normal;text-align:left}table.evidence td:nth-child(3){text-align:right}
code,pre{font:12px ui-monospace,SFMono-Regular,Menlo,monospace}pre{background:#f6f8fa;padding:8px;overflow:auto}
`;

export interface RenderedChart {
  chart: Chart;
  svg: string;
}

export async function renderCharts(v: Verdict, results: readonly Result[] = []): Promise<RenderedChart[]> {
  const out: RenderedChart[] = [];
  for (const chart of verdictCharts(v)) out.push({ chart, svg: await chartSvg(chart.spec) });
  for (const chart of secondCharts(results))
    out.push({ chart: { ...chart, perSecond: true }, svg: await chartSvg(chart.spec) });
  return out;
}

/**
 * What else report.html shows: the spec's weekly history with its change points (rendered HTML),
 * and the results the verdict judged (their per-second samples and resource use, as charts).
 */
export interface HtmlExtras {
  history?: string;
  results?: readonly Result[];
}

/** A self-contained report.html: inline CSS and inline SVG charts, nothing fetched when opened. */
export function verdictHtml(v: Verdict, charts: RenderedChart[], extra: HtmlExtras = {}): string {
  const { title, parts } = summaryLine(v);
  const out: string[] = [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(title)}</title><style>${CSS}</style></head><body>`,
    `<h1 id="verdict" data-verdict="${esc(v.verdict)}">${overallMark(v)} ${esc(title)}</h1>`,
    ...parts.map((p) => `<div class="facts">${esc(p)}</div>`),
    ...warningLines(v).map((l) => `<p class="warning">${esc(l)}</p>`),
    `<p class="method">${esc(methodText(v))}</p>`,
    `<p class="method">${esc(CENTRES_TEXT)}</p>`,
  ];
  const conf = `${Math.round(v.confidence * 100)}% CI`;
  // more than two variants: a section per variant against the control, the charts once
  const multi = Boolean(v.variants && v.variants.length > 1);
  const sections = multi ? (v.variants ?? []).map((s) => subVerdict(v, s.variant)) : [v];
  const shown = new Set<string>();
  for (const side of sections) {
    if (multi)
      out.push(
        `<h2 class="variant">${esc(side.head.variant)} against ${esc(side.base.variant)}: ${overallMark(side)} ${esc(side.verdict)}</h2>`,
      );
    out.push(...workloadSections(side, charts, conf, shown));
  }
  if (v.evidence?.length) out.push(...evidenceHtml(v.evidence));
  if (v.profiles?.length) out.push(...profilesHtml(v.profiles));
  if (v.profile_diffs?.length) out.push(...profileDiffsHtml(v.profile_diffs));
  if (v.counters) out.push(...countersHtml(v, v.counters, esc));
  const seconds = charts.filter((c) => c.chart.perSecond);
  if (seconds.length) {
    out.push(
      '<h2 id="per-second">Per second</h2>',
      '<p class="method">Each cell as the load tool printed it, second by second (a line per round, coloured by variant; dashed: warmup rounds and warmup seconds), and the CPU of each program over its measured run.</p>',
    );
    for (const w of [...new Set(seconds.map((c) => c.chart.workload))]) {
      out.push(`<h3>${esc(w)}</h3>`, '<div class="charts">');
      for (const c of seconds.filter((x) => x.chart.workload === w))
        out.push(
          `<figure class="chart" data-chart="${esc(c.chart.name)}">${c.svg}<figcaption>${esc(c.chart.title)}</figcaption></figure>`,
        );
      out.push("</div>");
    }
  }
  if (extra.history) out.push('<h2 id="history">History and change points</h2>', extra.history);
  out.push(
    "<h2>Reproduce locally</h2>",
    `<p>Raw tool output: ${rawDirs(v)
      .map((d) => `<code>${esc(d)}</code>`)
      .join(", ")}. From a checkout of the head commit, after <code>scripts/setup.sh</code>:</p>`,
    `<pre>${esc(reproduceCommand(v))}</pre>`,
    ...v.notes.map((n) => `<p class="method">${esc(n)}</p>`),
    `<p class="method">spec ${esc(v.spec.path)} (sha256 ${esc(v.spec.hash.slice(0, 12))}) · verdict written ${esc(v.created_at)}</p>`,
    "</body></html>",
    "",
  );
  return out.join("\n");
}

/**
 * report.html plus every chart as SVG and PNG under charts/ beside it (for artifacts and for
 * people who want a picture without opening the page). Returns the files written.
 */
export async function writeHtmlReport(
  v: Verdict,
  file: string,
  log: (line: string) => void = () => {},
  extra: HtmlExtras = {},
): Promise<string[]> {
  const charts = await renderCharts(v, extra.results);
  await writeAtomic(file, verdictHtml(v, charts, extra));
  const dir = join(dirname(file), "charts");
  const put = async (path: string, data: string | Buffer) => {
    try {
      await mkdir(dir, { recursive: true });
      await writeFile(path, data);
    } catch (e) {
      throw new WriteError(path, e);
    }
  };
  const written = [file];
  let png = true;
  for (const c of charts) {
    const svgFile = join(dir, `${c.chart.name}.svg`);
    await put(svgFile, c.svg);
    written.push(svgFile);
    if (!png) continue;
    let data: Buffer;
    try {
      data = await svgPng(c.svg);
    } catch (e) {
      png = false;
      log(`report: PNG charts skipped, SVGs written (resvg: ${(e as Error).message.split("\n")[0]})`);
      continue;
    }
    const pngFile = join(dir, `${c.chart.name}.png`);
    await put(pngFile, data);
    written.push(pngFile);
  }
  return written;
}

/** The tables, charts and judgements of each workload of a two-variant verdict. */
function workloadSections(v: Verdict, charts: RenderedChart[], conf: string, shown: Set<string>): string[] {
  const out: string[] = [];
  for (const w of workloadRows(v)) {
    const tp = w.throughputName ?? "value";
    // Latency columns only when a latency metric was judged, as in the comment.
    const lat = w.latencyName;
    out.push(`<h2>${esc(w.workload)}</h2>`, "<table><thead><tr>");
    for (const h of [
      "Threads",
      `${v.base.variant} ${tp}`,
      `${v.head.variant} ${tp}`,
      "Δ%",
      conf,
      ...(lat
        ? [
            `${v.base.variant} ${lat} (${w.latencyUnit ?? "ms"})`,
            `${v.head.variant} ${lat} (${w.latencyUnit ?? "ms"})`,
          ]
        : []),
      ...(w.costName ? [`${w.costName} Δ% (${conf})`] : []),
    ])
      out.push(`<th>${esc(h)}</th>`);
    out.push('<th class="l">verdict</th></tr></thead><tbody>');
    for (const r of w.rows) {
      const main = r.throughput ?? r.judgements[0];
      const cells = [
        r.threads,
        num(main?.base),
        num(main?.head),
        pct(main?.change),
        ciText(main),
        ...(lat ? [num(r.latency?.base), num(r.latency?.head)] : []),
        ...(w.costName ? [costCellText(r)] : []),
      ];
      out.push(
        `<tr class="${r.verdict}">${cells.map((c) => `<td>${esc(c)}</td>`).join("")}<td class="l">${CELL_MARK[r.verdict]} ${esc(verdictWord(r.verdict))}${r.because.length ? ` (${esc(r.because.join(", "))})` : ""}</td></tr>`,
      );
    }
    out.push("</tbody></table>", '<div class="charts">');
    const mine = charts.filter(
      (c) => c.chart.workload === w.workload && !c.chart.perSecond && !shown.has(c.chart.name),
    );
    for (const c of mine) shown.add(c.chart.name);
    for (const c of mine)
      out.push(
        `<figure class="chart" data-chart="${esc(c.chart.name)}">${c.svg}<figcaption>${esc(c.chart.title)}</figcaption></figure>`,
      );
    out.push("</div>", `<details><summary>${esc(w.workload)}: every judgement</summary><table><thead><tr>`);
    for (const h of ["Threads", "metric", v.base.variant, v.head.variant, "Δ%", "CI", "MDE", "n", "method"])
      out.push(`<th>${esc(h)}</th>`);
    out.push('<th class="l">verdict</th><th class="l">raw logs</th></tr></thead><tbody>');
    for (const r of w.rows) {
      for (const j of r.judgements) {
        const cells = [
          r.threads,
          metricName(j.metric),
          num(j.base),
          num(j.head),
          pct(j.change),
          ciText(j),
          pct(j.mde),
          j.n,
          j.method,
        ];
        out.push(
          `<tr class="${j.verdict}">${cells.map((c) => `<td>${esc(c)}</td>`).join("")}<td class="l">${CELL_MARK[j.verdict]} ${esc(j.verdict)}${j.reason ? ` — ${esc(j.reason)}` : ""}</td><td class="l"><code>raw/${esc(w.workload)}-t${r.threads}*.log</code></td></tr>`,
        );
      }
    }
    out.push("</tbody></table></details>");
  }
  return out;
}

/** Where the time went: a row per variant × workload × threads with its hint and each program's use. */
function evidenceHtml(evidence: NonNullable<Verdict["evidence"]>): string[] {
  const out = [
    '<h2 id="evidence">Where the time went</h2>',
    '<table class="evidence"><thead><tr><th class="l">variant</th><th class="l">workload</th><th>threads</th><th class="l">bottleneck</th><th class="l">CPU, memory</th></tr></thead><tbody>',
  ];
  for (const e of evidence)
    out.push(
      `<tr data-hint="${esc(e.hint.bound)}"><td class="l">${esc(e.variant)}</td><td class="l">${esc(e.workload)}</td><td>${e.threads}</td><td class="l">${HINT_MARK[e.hint.bound]} ${esc(e.hint.text)}</td><td class="l">${e.resources.map((r) => esc(useText(r))).join("<br>")}</td></tr>`,
    );
  out.push("</tbody></table>", `<p class="method">${esc(EVIDENCE_TEXT)}</p>`);
  return out;
}

/** The regressed cells' CPU profiles: per side and server the file (linked, beside report.html) and the busiest functions. */
function profilesHtml(profiles: NonNullable<Verdict["profiles"]>): string[] {
  const out = [
    '<h2 id="profiles">CPU profiles of the regressed cells</h2>',
    '<p class="method">Each side of a regressed cell ran once more, profiled over its measured run (not judged). <code>go tool pprof -http=: FILE</code> opens a profile.</p>',
    '<table class="evidence"><thead><tr><th class="l">cell</th><th class="l">variant</th><th class="l">server</th><th class="l">profile</th><th class="l">busiest functions (flat %)</th></tr></thead><tbody>',
  ];
  for (const p of profiles)
    out.push(
      `<tr><td class="l">${esc(p.workload)} threads=${p.threads}</td><td class="l">${esc(p.variant)}</td><td class="l">${esc(p.component)} ${esc(p.address)}</td><td class="l">${p.file ? `<a href="${esc(p.file)}">${esc(p.file)}</a>${p.flame ? ` · <a href="${esc(p.flame)}">flame graph</a>` : ""}` : `not taken: ${esc(p.error ?? "")}`}</td><td class="l">${(
        p.top ?? []
      )
        .slice(0, 5)
        .map((f) => `${esc(f.name)} ${f.flat_pct.toFixed(1)}%`)
        .join("<br>")}</td></tr>`,
    );
  out.push("</tbody></table>");
  return out;
}

/** Which functions got costlier: each regressed cell's profiles, base against head, with the differential flame graph. */
function profileDiffsHtml(diffs: NonNullable<Verdict["profile_diffs"]>): string[] {
  const out = [
    '<h2 id="profile-diffs">Which functions got costlier</h2>',
    "<p class=\"method\">Each regressed cell's profiles, base against head: a function's cost with what it calls, per operation the load tool counted while profiling (as a share of each profile where the operations are unknown). The differential flame graph draws head's stacks, red where they grew and blue where they shrank.</p>",
    '<table class="evidence"><thead><tr><th class="l">cell</th><th class="l">server</th><th class="l">profile</th><th class="l">grew most</th><th class="l">shrank most</th><th class="l">flame graph</th></tr></thead><tbody>',
  ];
  const list = (d: (typeof diffs)[number], gs: (typeof diffs)[number]["growers"]) =>
    gs
      .slice(0, 8)
      .map(
        (g) =>
          `${esc(g.name)} ${g.delta >= 0 ? "+" : "−"}${Math.abs(g.delta).toFixed(d.unit === "ms/op" ? 3 : 1)} ${esc(d.unit)}`,
      )
      .join("<br>");
  for (const d of diffs)
    out.push(
      `<tr><td class="l">${esc(d.workload)} threads=${d.threads} (${esc(d.variant)})</td><td class="l">${esc(d.component)}</td><td class="l">${d.measures === "cpu" ? "CPU" : "allocations"}</td><td class="l">${list(d, d.growers)}</td><td class="l">${list(d, d.shrinkers)}</td><td class="l">${d.flame ? `<a href="${esc(d.flame)}">differential flame graph</a>` : "–"}</td></tr>`,
    );
  out.push("</tbody></table>");
  return out;
}
