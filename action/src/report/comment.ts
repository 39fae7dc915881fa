import type { Verdict } from "../compare/verdict.ts";
import { acceptedMarker } from "./accepted-marker.ts";
import { EVIDENCE_TEXT, evidenceMarkdown, profileDiffMarkdown, profileMarkdown } from "./evidence.ts";
import { acceptedLine, adoptionLines, failLine } from "./headlines.ts";
import { matrixCharts, matrixTable, variantWorkloads } from "./matrix.ts";
import { workloadCharts } from "./mermaid.ts";
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
  type Row,
  rawDirs,
  reproduceCommand,
  subVerdict,
  summaryLine,
  verdictWord,
  type WorkloadRows,
  warningLines,
  workloadRows,
} from "./rows.ts";
import { countersMarkdown } from "./what-moved.ts";

/** GitHub refuses issue comments longer than this many characters. */
export const COMMENT_LIMIT = 65_536;

const MARKER_PREFIX = "<!-- tiperf:comment";

/** The hidden marker that finds the comment again: one per PR and matrix. */
export function commentMarker(matrix: string): string {
  return `${MARKER_PREFIX} matrix=${matrix.replace(/[^\w.-]/g, "_")} -->`;
}

/** Text that goes into a table cell or a line as is: no pipes, no HTML, no newlines. */
export const md = (s: string) =>
  s
    .replace(/[|\\]/g, (c) => `\\${c}`)
    .replace(/</g, "&lt;")
    .replace(/[\r\n]+/g, " ");

interface Detail {
  /** Raw-log file pattern per cell in the details (else only the raw directories). */
  rawPerCell: boolean;
  details: "all" | "notable" | "none";
  charts: boolean;
  rows: "all" | "notable" | "regressions";
  /** The resource table (where the time went); its warnings stay regardless. */
  evidence: boolean;
}

/** What is dropped, in this order, until the comment fits; the least useful goes first. */
const TRIM_STEPS: [Partial<Detail>, string][] = [
  [{ rawPerCell: false }, "per-cell raw-log paths"],
  [{ evidence: false }, "the resource table"],
  [{ details: "notable" }, "details of unchanged cells"],
  [{ details: "none" }, "per-cell details"],
  [{ charts: false }, "charts"],
  [{ rows: "notable" }, "table rows of unchanged and improved cells"],
  [{ rows: "regressions" }, "table rows of inconclusive cells"],
];

export interface CommentOptions {
  /** Which matrix this comment reports (several may report on one PR); default the spec name. */
  matrix?: string;
  limit?: number;
  /** Where the full report is (an artifact name or URL), named when something had to be trimmed. */
  fullReport?: string;
}

const notable = (r: Row) => r.verdict !== "unchanged";

function headline(v: Verdict): string {
  const { title, parts } = summaryLine(v);
  return [`${overallMark(v)} **${md(title)}**`, ...parts.map(md)].join(" · ");
}

function method(v: Verdict): string {
  return `<sub>${md(methodText(v))}</sub>`;
}

/** The commits compared and the workflow run with its artifacts, when the Action knew them. */
export function provenanceLine(v: Verdict): string | undefined {
  const p = v.provenance;
  if (!p) return undefined;
  const parts = [
    ...(p.base_sha ? [`base \`${md(p.base_sha.slice(0, 12))}\``] : []),
    ...(p.head_sha ? [`head \`${md(p.head_sha.slice(0, 12))}\``] : []),
    ...(p.run_url ? [`[workflow run](${p.run_url})`] : []),
    ...(p.artifacts_url ? [`[report and raw logs (artifacts)](${p.artifacts_url})`] : []),
  ];
  return parts.length ? parts.join(" · ") : undefined;
}

/** The cluster's cost: what it came to (or was estimated at) and its rate. */
export function costLine(c: NonNullable<Verdict["cost"]>): string {
  const head = `💲 Cluster cost${c.basis === "estimate" ? " (estimate)" : ""}: **$${c.dollars.toFixed(2)}**`;
  const prices = `profile ${md(c.profile)}, on-demand prices as of ${md(c.prices_as_of)}`;
  if (c.shards?.length)
    return `${head} over ${c.shards.length} clusters, one per shard (${c.shards.map((s) => `shard ${s.index}: $${s.dollars.toFixed(2)}, ${s.hours.toFixed(2)} h`).join("; ")}; ${prices})`;
  return `${head} (${c.hours.toFixed(2)} h × $${c.per_hour.toFixed(2)}/h, ${prices})`;
}

/** compare.confirm: the first run's regressed cells beside what the re-runs on fresh instances found. */
export function confirmationText(v: Verdict, c: NonNullable<Verdict["confirmation"]>): string {
  const key = (j: { workload: string; threads: number; metric: string }) =>
    `${j.workload} threads=${j.threads} ${j.metric}`;
  const firstCells = v.cells.filter((j) => j.verdict === "regression");
  const keys = new Set(firstCells.map(key));
  const one = (j: Verdict["cells"][number]) => `${key(j)} ${pct(j.change)} ${ciText(j)}`;
  const first = firstCells.map(one).join("; ");
  const again = c.runs
    .map(
      (r, i) =>
        `${c.runs.length > 1 ? `re-run ${i + 1}: ` : ""}${
          r.cells
            .filter((j) => keys.has(key(j)))
            .map((j) => `${one(j)} ${j.verdict}`)
            .join("; ") || "nothing judged"
        }`,
    )
    .join("; ");
  return c.confirmed
    ? `🔁 **Confirmed** on fresh instances: ${again} (first run: ${first}). A false alarm needs every run to err alike: ${(c.false_alarm * 100).toPrecision(2)}% if the runs are independent.`
    : `🔁 **Not confirmed**: the first run found ${first}, which did not recur on fresh instances (${again}): the check does not fail on it.`;
}

function rowVerdict(r: Row): string {
  const why = r.because.length ? ` (${r.because.join(", ")})` : "";
  return `${CELL_MARK[r.verdict]} ${verdictWord(r.verdict)}${why}`;
}

function table(w: WorkloadRows, v: Verdict, rows: Row[]): string[] {
  const tp = w.throughputName ?? "value";
  const lat = w.latencyName;
  const conf = `${Math.round(v.confidence * 100)}% CI`;
  const b = md(v.base.variant);
  const h = md(v.head.variant);
  // seed 002's ranking: throughput per dollar-hour of the cluster, base / head
  const perHour = v.cost && w.throughputName ? v.cost.per_hour : undefined;
  const cost = w.costName;
  const out = [
    `| Threads | ${b} ${tp} | ${h} ${tp} | Δ% | ${conf} |${lat ? ` ${b} ${lat} (${w.latencyUnit ?? "ms"}) | ${h} ${lat} (${w.latencyUnit ?? "ms"}) |` : ""}${cost ? ` ${cost} Δ% (${conf}) |` : ""}${perHour ? ` ${tp} per $/h (${b} / ${h}) |` : ""} verdict |`,
    `|---:|---:|---:|---:|---|${lat ? "---:|---:|" : ""}${cost ? "---|" : ""}${perHour ? "---:|" : ""}---|`,
  ];
  for (const r of rows) {
    const main = r.throughput ?? r.judgements[0];
    const latency = lat ? ` ${num(r.latency?.base)} | ${num(r.latency?.head)} |` : "";
    const costCell = cost ? ` ${costCellText(r)} |` : "";
    const perDollar = perHour
      ? ` ${num(r.throughput?.base == null ? null : r.throughput.base / perHour)} / ${num(r.throughput?.head == null ? null : r.throughput.head / perHour)} |`
      : "";
    out.push(
      `| ${r.threads} | ${num(main?.base)} | ${num(main?.head)} | ${pct(main?.change)} | ${ciText(main)} |${latency}${costCell}${perDollar} ${rowVerdict(r)} |`,
    );
  }
  return out;
}

function details(w: WorkloadRows, v: Verdict, rows: Row[], rawPerCell: boolean): string[] {
  const out = [
    `<details><summary>${md(w.workload)}: minimum detectable effect, rounds${rawPerCell ? ", raw logs" : ""}</summary>`,
    "",
    `| Threads | metric | ${md(v.base.variant)} | ${md(v.head.variant)} | Δ% | CI | MDE | n | method | verdict |${rawPerCell ? " raw logs |" : ""}`,
    `|---:|---|---:|---:|---:|---|---:|---:|---|---|${rawPerCell ? "---|" : ""}`,
  ];
  for (const r of rows) {
    for (const j of r.judgements) {
      out.push(
        `| ${r.threads} | ${metricName(j.metric)} | ${num(j.base)} | ${num(j.head)} | ${pct(j.change)} | ${ciText(j)} | ${pct(j.mde)} | ${j.n} | ${j.method}${j.between_share !== undefined ? ` (${Math.round(j.between_share * 100)}% between instances${j.winsorized ? `; ${j.winsorized} round(s) winsorized` : ""})` : ""} | ${CELL_MARK[j.verdict]} ${j.verdict}${j.reason ? ` — ${md(j.reason)}` : ""} |${rawPerCell ? ` \`raw/${md(w.workload)}-t${r.threads}*.log\` |` : ""}`,
      );
    }
  }
  out.push("", "</details>");
  return out;
}

function render(
  v: Verdict,
  workloads: WorkloadRows[],
  d: Detail,
  trimmed: string[],
  opts: CommentOptions,
): string {
  const out: string[] = [headline(v), ""];
  const fails = failLine(v);
  if (fails) out.push(`**${md(fails)}**`, "");
  const accepted = acceptedLine(v);
  if (accepted) out.push(`**${md(accepted)}**`, "");
  const adoption = adoptionLines(v);
  if (adoption) out.push(...adoption.text.map(md), "", "```yaml", adoption.yaml.trimEnd(), "```", "");
  if (trimmed.length) {
    out.push(
      `> ✂️ Trimmed to fit GitHub's ${COMMENT_LIMIT.toLocaleString("en-US")}-character limit: ${trimmed.join(", ")} left out.${opts.fullReport ? ` Everything is in ${md(opts.fullReport)}.` : ""}`,
      "",
    );
  }
  const warnings = warningLines(v);
  if (warnings.length) out.push(warnings.map((l) => `> ${md(l)}`).join("\n>\n"), "");
  if (v.confirmation) out.push(md(confirmationText(v, v.confirmation)), "");
  out.push(method(v), "");
  out.push(`<sub>${md(CENTRES_TEXT)}</sub>`, "");
  const where = provenanceLine(v);
  if (where) out.push(`<sub>${where}</sub>`, "");
  if (v.cost) out.push(costLine(v.cost), "");
  if (v.variants && v.variants.length > 1) {
    // more than two variants: a column and a chart line per variant, details per variant
    const keep = (rows: (Row | undefined)[]) =>
      d.rows === "all"
        ? true
        : d.rows === "notable"
          ? rows.some((r) => r !== undefined && notable(r))
          : rows.some((r) => r?.verdict === "regression");
    for (const w of variantWorkloads(v)) {
      const { lines, hidden } = matrixTable(w, v, keep, md);
      if (lines.length === 2 && d.rows !== "all") continue;
      out.push(`#### ${md(w.workload)}`, "", ...lines);
      if (hidden > 0) out.push("", `<sub>${hidden} more row(s) not shown</sub>`);
      out.push("");
      if (d.charts) for (const block of matrixCharts(w, md)) out.push(block, "");
      if (d.details !== "none")
        for (const p of w.per) {
          if (!p.rows) continue;
          const sub = subVerdict(v, p.variant);
          const drows = d.details === "all" ? p.rows.rows : p.rows.rows.filter(notable);
          const named = { ...p.rows, workload: `${w.workload}, ${p.variant} against ${w.names[0]}` };
          if (drows.length) out.push(...details(named, sub, drows, d.rawPerCell), "");
        }
    }
  }
  for (const w of v.variants && v.variants.length > 1 ? [] : workloads) {
    const rows = w.rows.filter((r) =>
      d.rows === "all" ? true : d.rows === "notable" ? notable(r) : r.verdict === "regression",
    );
    const hidden = w.rows.length - rows.length;
    if (rows.length === 0 && d.rows !== "all") continue;
    out.push(`#### ${md(w.workload)}`, "");
    out.push(...table(w, v, rows));
    if (hidden > 0) out.push("", `<sub>${hidden} more row(s) not shown</sub>`);
    out.push("");
    if (d.charts) {
      for (const block of workloadCharts(w, md(v.base.variant), md(v.head.variant))) out.push(block, "");
    }
    if (d.details !== "none") {
      const drows = d.details === "all" ? rows : rows.filter(notable);
      if (drows.length) out.push(...details(w, v, drows, d.rawPerCell), "");
    }
  }
  out.push(...afterTables(v, d));
  for (const n of v.notes) out.push(`<sub>${md(n)}</sub>`, "");
  const record = acceptedMarker(v);
  if (record) out.push(record);
  out.push(commentMarker(opts.matrix ?? v.spec.name));
  return `${out.join("\n")}\n`;
}

/** What follows the tables: profiles and their diffs, the counters that moved, evidence, how to reproduce. */
function afterTables(v: Verdict, d: Detail): string[] {
  const out: string[] = [];
  if (v.profiles?.length)
    out.push(
      ...profileMarkdown(
        v.profiles,
        md,
        v.provenance?.artifacts_url
          ? `[the run's artifact](${v.provenance.artifacts_url})`
          : "the run directory",
      ),
      "",
    );
  if (v.profile_diffs?.length) out.push(...profileDiffMarkdown(v.profile_diffs, md), "");
  if (v.counters) out.push(...countersMarkdown(v, v.counters, md));
  if (d.evidence && v.evidence?.length)
    out.push(
      "<details><summary>Where the time went: CPU and memory of the servers, the load generator and the machine</summary>",
      "",
      ...evidenceMarkdown(v.evidence, md),
      "",
      `<sub>${md(EVIDENCE_TEXT)}</sub>`,
      "",
      "</details>",
      "",
    );
  out.push(
    "<details><summary>Reproduce locally</summary>",
    "",
    `Raw tool output: ${rawDirs(v)
      .map((r) => `\`${md(r)}\``)
      .join(", ")}. From a checkout of the head commit, after \`scripts/setup.sh\`:`,
    "",
    "```sh",
    reproduceCommand(v),
    "```",
    "",
    "</details>",
    "",
  );
  return out;
}

/**
 * The sticky PR comment: verdict line, a seed-shaped table and Mermaid charts per workload,
 * details, reproduce section and the hidden marker. Never longer than the limit: details go
 * first, then charts, then unremarkable rows; the regressions stay.
 */
export function commentMarkdown(v: Verdict, opts: CommentOptions = {}): string {
  // base and head were one target: the reason is the whole comment
  if (v.same_target !== undefined) return nothingText(v, opts);
  const limit = opts.limit ?? COMMENT_LIMIT;
  let detail: Detail = { rawPerCell: true, details: "all", charts: true, rows: "all", evidence: true };
  const trimmed: string[] = [];
  const workloads = workloadRows(v);
  let text = render(v, workloads, detail, trimmed, opts);
  for (const [change, what] of TRIM_STEPS) {
    if (text.length <= limit) return text;
    // nothing to drop: not named among what was left out
    if (change.evidence === false && !v.evidence?.length) continue;
    detail = { ...detail, ...change };
    trimmed.push(what);
    text = render(v, workloads, detail, trimmed, opts);
  }
  if (text.length <= limit) return text;
  // Only regressions are left and they still do not fit: cut the table, keep the marker.
  const marker = commentMarker(opts.matrix ?? v.spec.name);
  const tail = `\n\n> ✂️ Cut at ${limit.toLocaleString("en-US")} characters: the full list of regressions is in the report.\n${marker}\n`;
  const body = text.slice(0, limit - tail.length);
  return `${body.slice(0, body.lastIndexOf("\n"))}${tail}`;
}

export function isTiperfComment(body: string | undefined | null, matrix: string): boolean {
  return typeof body === "string" && body.includes(commentMarker(matrix));
}

/**
 * Base and head were one target: the reason is the whole comment. Merged from shards with one
 * missing, the check does not pass: the missing shards are named.
 */
function nothingText(v: Verdict, opts: CommentOptions): string {
  const marker = commentMarker(opts.matrix ?? v.spec.name);
  const missing = v.shards?.missing ?? [];
  if (missing.length === 0)
    return `⚪ **tiperf ${md(v.spec.name)}: pass** · nothing to measure: ${md(v.same_target ?? "")}\n\n<sub>No server was started; the check passes because base and head would run the same thing.</sub>\n\n${marker}\n`;
  return `🟡 **tiperf ${md(v.spec.name)}: ${v.verdict}** · nothing to measure: ${md(v.same_target ?? "")}\n\n> ⚠️ ${(v.shards?.of ?? 0) - missing.length} of ${v.shards?.of} shards said so; ${missing.map((k) => `shard ${k}`).join(", ")} left no part (failed, cancelled or not uploaded): the check cannot pass without ${missing.length === 1 ? "it" : "them"}.\n\n${marker}\n`;
}
