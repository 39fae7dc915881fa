import { dirname } from "node:path";
import { singlePairWarning } from "../compare/design.ts";
import { effectLines, unseenLines } from "../compare/effects.ts";
import { type CellJudgement, type CellVerdictKind, overallVerdict } from "../compare/judge.ts";
import { READ_COST, type Reading, readingLines } from "../compare/reading.ts";
import type { Verdict } from "../compare/verdict.ts";
import { costMetric } from "../observe/cost.ts";
import type { TargetInfo } from "../result/model.ts";
import { evidenceWarnings } from "./evidence.ts";

/** Per-cell markers (CockroachDB's microbench-ci vocabulary) and the overall one. */
export const CELL_MARK: Record<CellVerdictKind, string> = {
  regression: "🔴",
  improvement: "🟢",
  within: "🔹",
  unchanged: "⚪",
  inconclusive: "🟡",
};

/** A verdict in the reports' words: a change within the tolerance is said as one, with its size beside it. */
export const verdictWord = (k: CellVerdictKind): string => (k === "within" ? "changed within tolerance" : k);

/** 🔴 regression, 🟡 inconclusive, 🟢 pass with an improvement, ⚪ pass with nothing changed. */
export function overallMark(v: Verdict): string {
  if (v.verdict === "regression") return CELL_MARK.regression;
  if (v.verdict === "inconclusive") return CELL_MARK.inconclusive;
  return v.cells.some((c) => c.verdict === "improvement") ? CELL_MARK.improvement : CELL_MARK.unchanged;
}

/** A relative change as a signed percentage; beyond +1000% (an interval of two noisy rounds) as ">+1000%". */
export const pct = (x: number | null | undefined, digits = 1) =>
  x === null || x === undefined || !Number.isFinite(x)
    ? "–"
    : x > 10
      ? ">+1000%"
      : `${x >= 0 ? "+" : "−"}${Math.abs(x * 100).toFixed(digits)}%`;

/** A tolerance as the spec wrote it: ±2%, ±1.5%, ±0.01%. */
export const tolText = (t: number) => `±${Number((t * 100).toFixed(2))}%`;

export const num = (x: number | null | undefined) =>
  x === null || x === undefined || !Number.isFinite(x) ? "–" : x >= 100 ? x.toFixed(0) : x.toFixed(2);

export const ciText = (c: { ci: [number, number] | null } | undefined) =>
  c?.ci ? `[${pct(c.ci[0])}, ${pct(c.ci[1])}]` : "–";

/** A row's cost per operation beside its throughput: Δ and interval (judged ones marked with their verdict). */
export function costCellText(r: Row): string {
  const c = r.cost?.cost;
  if (!c) return "–";
  const judged = c.judged ? ` ${CELL_MARK[c.verdict]}` : "";
  return `${pct(c.change)} ${c.ci ? ciText(c) : ""}${judged}`.trim();
}

/** Verdicts from the worst to the best: a row, or a thread count over variants, shows the first present. */
export const SEVERITY: CellVerdictKind[] = [
  "regression",
  "inconclusive",
  "improvement",
  "within",
  "unchanged",
];

/** One row of the seeds' table: a workload at one thread count, every judged metric of it. */
export interface Row {
  workload: string;
  threads: number;
  throughput?: CellJudgement;
  latency?: CellJudgement;
  /** Throughput read with the cost per operation (verdict.readings), where the cells had one. */
  cost?: Reading;
  judgements: CellJudgement[];
  /** The worst verdict over the row's metrics, and which metrics carry it. */
  verdict: CellVerdictKind;
  because: string[];
}

export interface WorkloadRows {
  workload: string;
  /** Display name of the throughput metric ("QPS", "tpmC") and of the latency one ("p95", "READ p99"). */
  throughputName?: string;
  latencyName?: string;
  /** The latency metric's unit: ms, us or s. */
  latencyUnit?: string;
  /** The cost metric read beside throughput ("CPU ms/op"), when any row has a reading. */
  costName?: string;
  rows: Row[];
}

/** Throughput metrics shown first when a workload judges several (sysbench's QPS before TPS). */
export const THROUGHPUT = ["qps", "tps", "tpmc", "ops"];
const LATENCY = /^(?:([a-z_]+)_)?p(\d+(?:\.\d+)?)_(ms|us)$/;
export const isLatency = (metric: string) => LATENCY.test(metric);

/** The unit a metric's name ends in (p95_ms, read_p99_us, q1_s), or "" when none. */
export function unitOfName(metric: string): string {
  return /_(ms|us|s)$/.exec(metric)?.[1] ?? "";
}

/** Groups a verdict's cell × metric judgements into workloads → thread counts, in verdict order. */
export function workloadRows(v: Verdict): WorkloadRows[] {
  const out: WorkloadRows[] = [];
  for (const c of v.cells) {
    let w = out.find((x) => x.workload === c.workload);
    if (!w) {
      w = { workload: c.workload, rows: [] };
      out.push(w);
    }
    let row = w.rows.find((r) => r.threads === c.threads);
    if (!row) {
      row = { workload: c.workload, threads: c.threads, judgements: [], verdict: "unchanged", because: [] };
      w.rows.push(row);
    }
    row.judgements.push(c);
  }
  for (const w of out) {
    const metrics = new Set(w.rows.flatMap((r) => r.judgements.map((j) => j.metric)));
    const judged = w.rows.flatMap((r) => r.judgements);
    const tp = THROUGHPUT.find((m) => metrics.has(m)) ?? judged.find((j) => j.better === "higher")?.metric;
    const lat =
      [...metrics].find(isLatency) ??
      judged.find((j) => j.better === "lower" && !costMetric(j.metric))?.metric;
    w.throughputName = tp && metricName(tp);
    w.latencyName = lat && metricName(lat);
    w.latencyUnit = lat ? unitOfName(lat) || "ms" : undefined;
    for (const r of w.rows) {
      r.throughput = r.judgements.find((j) => j.metric === tp);
      r.latency = r.judgements.find((j) => j.metric === lat);
      const reading = v.readings?.find(
        (x) => x.workload === r.workload && x.threads === r.threads && x.variant === r.throughput?.variant,
      );
      if (reading) {
        r.cost = reading;
        w.costName = metricName(READ_COST);
      }
      r.verdict = SEVERITY.find((s) => r.judgements.some((j) => j.verdict === s)) ?? "unchanged";
      // a judgement decided (or left open) after further looks (compare.looks) says how many
      // (an unchanged row names only those decided after further looks)
      r.because = r.judgements
        .filter((j) => j.verdict === r.verdict && (r.verdict !== "unchanged" || (j.looks ?? 1) > 1))
        .map((j) => `${metricName(j.metric)}${j.looks && j.looks > 1 ? ` after ${j.looks} looks` : ""}`);
    }
  }
  return out;
}

const NAMES: Record<string, string> = {
  tps: "TPS",
  qps: "QPS",
  ops: "OPS",
  tpmc: "tpmC",
  tpm_total: "tpmTotal",
  geomean_s: "geomean",
};

/** How the seeds write a metric: TPS, p95, tpmC, NEW_ORDER p95, READ p99, Q1. */
export function metricName(metric: string): string {
  const lat = LATENCY.exec(metric);
  if (lat) return `${lat[1] ? `${lat[1].toUpperCase()} ` : ""}p${lat[2]}`;
  const cost = costMetric(metric);
  if (cost) return cost.label;
  const query = /^q(\d+)_s$/.exec(metric);
  if (query) return `Q${query[1]}`;
  const perOp = /^([a-z_]+)_(tpm|ops|avg_ms|avg_us)$/.exec(metric);
  if (perOp) return `${perOp[1]?.toUpperCase()} ${perOp[2]?.replace(/_(ms|us)$/, "")}`;
  return NAMES[metric] ?? metric;
}

function configText(t: TargetInfo | undefined): Map<string, string> {
  const m = new Map<string, string>();
  if (!t) return m;
  for (const [k, v] of Object.entries(t.config)) m.set(k, String(v));
  for (const [k, v] of Object.entries(t.resources ?? {})) m.set(k, String(v));
  return m;
}

/**
 * A build as people name it: a source build by its commit (recorded with the target), else the
 * binary's path (details.build).
 */
function buildName(t: TargetInfo | undefined): string | undefined {
  if (t?.build) return `commit ${t.build.commit.slice(0, 10)}`;
  const path = t?.details?.build;
  return typeof path === "string" ? path : undefined;
}

/**
 * What differs between the two sides: version, config keys and resources, as `key: base → head`.
 * Empty when the two targets are the same (an A/A run).
 */
export function targetDiff(v: Verdict): string[] {
  const b = v.base.target;
  const h = v.head.target;
  const out: string[] = [];
  if (b && h && b.kind !== h.kind) out.push(`kind: ${b.kind} → ${h.kind}`);
  if (b && h && b.version !== h.version) out.push(`version: ${b.version} → ${h.version}`);
  const bb = buildName(b);
  const hb = buildName(h);
  if ((bb || hb) && bb !== hb) out.push(`build: ${bb ?? "the release's"} → ${hb ?? "the release's"}`);
  const bc = configText(b);
  const hc = configText(h);
  for (const k of [...new Set([...bc.keys(), ...hc.keys()])].sort()) {
    if (bc.get(k) !== hc.get(k)) out.push(`${k}: ${bc.get(k) ?? "default"} → ${hc.get(k) ?? "default"}`);
  }
  return out;
}

/** `mariadb 10.11.19, cpus=0` — what both sides ran on; what differs is in targetDiff. */
export function targetProfile(v: Verdict): string {
  const b = v.base.target;
  const h = v.head.target;
  if (!b) return "stored result";
  const same = Object.entries(b.resources ?? {})
    .filter(([k, val]) => String(h?.resources?.[k]) === String(val))
    .map(([k, val]) => `${k}=${val}`);
  return [`${b.kind} ${b.version === h?.version ? b.version : ""}`.trim(), ...same].join(", ");
}

export function gib(bytes: number): string {
  return `${(bytes / 2 ** 30).toFixed(1)} GiB`;
}

export function durationText(seconds: number): string {
  return seconds < 90 ? `${Math.round(seconds)} s` : `${Math.round(seconds / 60)} min`;
}

/** The first line of every report: the verdict, what was compared, where, and how long it took. */
export function summaryLine(v: Verdict): { title: string; parts: string[] } {
  const count = (k: string) => v.cells.filter((c) => c.verdict === k).length;
  const counts = [
    count("regression") && `${count("regression")} regressed`,
    count("inconclusive") && `${count("inconclusive")} inconclusive`,
    count("improvement") && `${count("improvement")} improved`,
    count("within") && `${count("within")} changed within tolerance`,
  ].filter(Boolean);
  const against = (x: Verdict) => {
    const diff = targetDiff(x);
    return `${x.head.variant} vs ${x.base.variant}: ${diff.length ? diff.join(", ") : "same target (A/A)"}`;
  };
  const h = v.host;
  return {
    title: `tiperf ${v.spec.name}: ${v.verdict}`,
    parts: [
      counts.length
        ? `${counts.join(", ")} of ${v.cells.length} judgements`
        : `all ${v.cells.length} judgements unchanged`,
      v.variants && v.variants.length > 1
        ? v.variants.map((side) => against(subVerdict(v, side.variant))).join("; ")
        : against(v),
      `target ${targetProfile(v)}`,
      `host ${h.cpu_model} × ${h.cores}, ${gib(h.memory_bytes)}, ${h.os}`,
      `${durationText(v.benchmark_seconds)} benchmark${v.saved_seconds > 0 ? ` (early stop saved ~${durationText(v.saved_seconds)})` : ""}`,
    ],
  };
}

/**
 * The next step after an inconclusive verdict, as warning lines: what this run could detect, how
 * many rounds or blocks (and benchmark durationText) would decide its undecided cells at the measured
 * noise, and any estimate beyond the tolerance in the worse direction (a drop may be hiding).
 * Empty when nothing is undecided or compare.inconclusive is pass.
 */
export function inconclusiveLines(v: Verdict): string[] {
  const open = v.cells.filter((c) => c.verdict === "inconclusive");
  if (!open.length || v.inconclusive === "pass") return [];
  const worstMde = open
    .filter((c) => c.mde !== null)
    .sort((a, b) => Math.abs(b.mde as number) - Math.abs(a.mde as number))[0];
  const blocks = open.some((c) => c.method === "block-t");
  const unit = blocks ? "blocks" : "rounds";
  const needs = open.map((c) => c.needed);
  const most = needs.every((n) => n !== undefined) ? Math.max(...(needs as number[])) : undefined;
  // what the judgement that needs the most has now (a further look's cells have more than the rest)
  const neediest = open.find((c) => c.needed === most) ?? open[0];
  const have = blocks ? (neediest?.n ?? v.blocks ?? 1) : v.rounds;
  const perUnit = have > 0 ? v.benchmark_seconds / have : 0;
  const lines = [
    `${v.inconclusive === "fail" ? "❌" : "⚠️"} ${open.length} judgement(s) inconclusive: this run cannot tell their change from the tolerance.${
      worstMde
        ? ` The smallest ${worstMde.better === "higher" ? "drop" : "rise"} it could detect (80% power) was ${pct(worstMde.mde as number)} (${worstMde.workload} threads=${worstMde.threads} ${worstMde.metric}, tolerance ${tolText(worstMde.tolerance)}).`
        : ""
    } ${
      v.order === "stored"
        ? "Stored results are judged unpaired, each cell's seconds as a few batches: a comparison that measures both sides now, in alternating rounds (`tiperf compare` with the baseline's target as its base variant), longer cells, a quieter runner or a larger tolerance decide it."
        : most !== undefined
          ? `At this noise ~${most} ${unit} (now ${have}; ≈${Math.max(1, Math.round((most * perUnit) / 60))} min of benchmark) would decide ${open.length > 1 ? "them" : "it"}: an unchanged head within the tolerance, a change of twice the tolerance flagged, 80% of the time each.`
          : `More than 200 ${unit} would be needed at this noise: a quieter runner, longer cells or a larger tolerance decide it, not more ${unit}.`
    }${v.inconclusive === "fail" ? " compare.inconclusive is fail: the check fails." : ""}`,
  ];
  for (const c of open) {
    if (c.change === null) continue;
    const worse = c.better === "higher" ? c.change < -c.tolerance : c.change > c.tolerance;
    if (worse)
      lines.push(
        `⚠️ ${c.workload} threads=${c.threads} ${c.metric}: the estimate is ${pct(c.change)}, beyond the ${tolText(c.tolerance)} tolerance in the worse direction; its interval reaches ${c.ci ? pct(c.better === "higher" ? c.ci[1] : c.ci[0]) : "?"}: a real ${c.better === "higher" ? "drop" : "rise"} may be hiding in the noise.`,
      );
  }
  return lines;
}

/**
 * A single-pair comparison's warning when it flagged a cell (regression or improvement): the
 * change may be the steady gap between its two instances. Empty otherwise.
 */
export function singlePairLines(v: Verdict): string[] {
  if (!v.single_pair) return [];
  const flagged = v.cells
    .filter((c) => (c.verdict === "regression" || c.verdict === "improvement") && c.change !== null)
    .map((c) => ({
      label: `${v.variants && v.variants.length > 1 ? `${c.variant} ` : ""}${c.workload} threads=${c.threads} ${c.metric}`,
      change: c.change as number,
    }));
  const line = singlePairWarning(flagged, v.single_pair.instance_gap_sd, v.single_pair.restartable !== false);
  return line ? [line] : [];
}

/**
 * The warnings a verdict opens with, in the comment and report.html alike: differences that did
 * not take effect or are not shown to, undecided cells, a single pair's flagged cells, evidence.
 */
export function warningLines(v: Verdict): string[] {
  return [
    ...effectLines(v.effects),
    ...unseenLines(v.unseen),
    ...inconclusiveLines(v),
    ...readingLines(v.readings),
    ...singlePairLines(v),
    ...evidenceWarnings(v.evidence).map((l) => `⚠️ ${l}`),
  ];
}

/** Blocks: how many fresh instances, and the most of the noise that lay between instances. */
function blocksText(v: Verdict): string {
  if (!v.blocks || v.blocks < 2) return "";
  const shares = v.cells.map((c) => c.between_share).filter((x): x is number => x !== undefined);
  const most = shares.length ? Math.max(...shares) : undefined;
  return ` in ${v.blocks} blocks (servers restarted between blocks; intervals over block means${most !== undefined ? `; up to ${Math.round(most * 100)}% of a cell's round-to-round variance lay between instances` : ""})`;
}

/** What the values beside Δ are, in one line: Δ is exactly head/base − 1 of them. */
export const CENTRES_TEXT =
  "Values are geometric means of the rounds the estimate used (paired rounds kept by the 10% trim; block means with blocks), so Δ% = head/base − 1 of the values shown; each round's value is the tool's own summary of its measured window.";

/** How the verdict was reached, in one line under the headline. */
export function methodText(v: Verdict): string {
  const tolerances = [...new Map(v.cells.map((c) => [c.metric, c])).values()]
    .map((c) => `${metricName(c.metric)} ${tolText(c.tolerance)}`)
    .join(", ");
  const rounds =
    v.order === "stored"
      ? "stored results"
      : `${v.order}, ${v.rounds} round(s)${v.max_rounds > v.rounds ? ` of up to ${v.max_rounds}` : ""}${blocksText(v)}`;
  return `${rounds} · ${Math.round(v.confidence * 100)}% familywise confidence (intervals corrected for ${v.comparisons} judgements) · tolerances ${tolerances} · a cell is a regression only when its whole interval lies beyond the tolerance`;
}

/** Where each side's raw tool output lives: the run directory's raw/ beside its result.json. */
export function rawDirs(v: Verdict): string[] {
  return [...new Set([v.base.result, v.head.result].map((r) => `${dirname(r)}/raw/`))];
}

/** The command that repeats this comparison on a developer's machine. */
export function reproduceCommand(v: Verdict): string {
  if (v.order === "stored") return `node action/dist/cli.js diff ${v.base.result} ${v.head.result}`;
  return `node action/dist/cli.js compare --spec ${v.spec.path}${v.seed !== undefined ? ` --seed ${v.seed}` : ""}`;
}

/** Every variant of a verdict: the control (base) first, then each judged against it. */
export function variantNames(v: Verdict): string[] {
  return [v.base.variant, ...(v.variants ?? [v.head]).map((s) => s.variant)];
}

/** The two-variant verdict of one variant against the control (its cells, its side as head). */
export function subVerdict(v: Verdict, variant: string): Verdict {
  const side = (v.variants ?? [v.head]).find((s) => s.variant === variant) ?? v.head;
  const cells = v.variants ? v.cells.filter((c) => c.variant === variant) : v.cells;
  const { variants: _all, readings, ...rest } = v;
  const own = v.variants ? readings?.filter((r) => r.variant === variant) : readings;
  return {
    ...rest,
    head: side,
    cells,
    verdict: overallVerdict(cells),
    ...(own?.length ? { readings: own } : {}),
  };
}
