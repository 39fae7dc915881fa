// More than two variants in the PR comment, in the seeds' shape: per workload one table with a
// column per variant (its value, change against the control and interval), one chart with a line
// per variant, and per variant the details of its judgements.
import type { Verdict } from "../compare/verdict.ts";
import { xyChartN } from "./mermaid.ts";
import {
  CELL_MARK,
  ciText,
  num,
  pct,
  type Row,
  SEVERITY,
  subVerdict,
  variantNames,
  verdictWord,
  type WorkloadRows,
  workloadRows,
} from "./rows.ts";

export interface VariantWorkload {
  workload: string;
  /** The control's rows (its values are every sub-verdict's base). */
  names: string[];
  /** Per variant after the control: its rows against the control. */
  per: { variant: string; rows: WorkloadRows }[];
  threads: number[];
}

/** Each workload with every variant's rows against the control. */
export function variantWorkloads(v: Verdict): VariantWorkload[] {
  const names = variantNames(v);
  const subs = names.slice(1).map((n) => ({ variant: n, workloads: workloadRows(subVerdict(v, n)) }));
  const order = subs[0]?.workloads.map((w) => w.workload) ?? [];
  return order.map((workload) => {
    const per = subs.map((s) => ({
      variant: s.variant,
      rows: s.workloads.find((w) => w.workload === workload) as WorkloadRows,
    }));
    const threads = [...new Set(per.flatMap((p) => p.rows?.rows.map((r) => r.threads) ?? []))];
    return { workload, names, per, threads };
  });
}

/** The worst verdict of a thread count over the variants, with the variants that carry it. */
export function matrixVerdict(
  rows: (Row | undefined)[],
  names: string[],
): { verdict: Row["verdict"]; who: string[] } {
  const verdict = SEVERITY.find((s) => rows.some((r) => r?.verdict === s)) ?? "unchanged";
  return { verdict, who: names.filter((_, i) => rows[i]?.verdict === verdict) };
}

export function matrixTable(
  w: VariantWorkload,
  v: Verdict,
  keep: (rows: (Row | undefined)[]) => boolean,
  md: (s: string) => string,
): { lines: string[]; hidden: number } {
  const first = w.per[0]?.rows;
  const tp = first?.throughputName ?? "value";
  const control = md(w.names[0] as string);
  const conf = `${Math.round(v.confidence * 100)}% CI`;
  const lines = [
    `| Threads | ${control} ${tp} | ${w.per.map((p) => `${md(p.variant)} ${tp} | Δ% (${conf})`).join(" | ")} | verdict |`,
    `|---:|---:|${w.per.map(() => "---:|---|").join("")}---|`,
  ];
  let hidden = 0;
  for (const t of w.threads) {
    const rows = w.per.map((p) => p.rows?.rows.find((r) => r.threads === t));
    if (!keep(rows)) {
      hidden++;
      continue;
    }
    const main = (r: Row | undefined) => r?.throughput ?? r?.judgements[0];
    const base = main(rows.find((r) => r !== undefined))?.base;
    const cols = rows.map((r) => {
      const m = main(r);
      return `${num(m?.head)} | ${pct(m?.change)} ${ciText(m)} ${r ? CELL_MARK[r.verdict] : ""}`;
    });
    const { verdict, who } = matrixVerdict(
      rows,
      w.per.map((p) => p.variant),
    );
    lines.push(
      `| ${t} | ${num(base)} | ${cols.join(" | ")} | ${CELL_MARK[verdict]} ${verdictWord(verdict)}${verdict !== "unchanged" && who.length ? ` (${who.map(md).join(", ")})` : ""} |`,
    );
  }
  return { lines, hidden };
}

/** Throughput (then latency) against threads, a line per variant, the control first. */
export function matrixCharts(w: VariantWorkload, md: (s: string) => string): string[] {
  const out: string[] = [];
  const first = w.per[0]?.rows;
  for (const kind of ["throughput", "latency"] as const) {
    const name = kind === "throughput" ? first?.throughputName : first?.latencyName;
    if (!name || !first) continue;
    const at = (rows: WorkloadRows | undefined, t: number) => rows?.rows.find((r) => r.threads === t)?.[kind];
    const series = [
      { name: md(w.names[0] as string), values: w.threads.map((t) => at(first, t)?.base ?? null) },
      ...w.per.map((p) => ({
        name: md(p.variant),
        values: w.threads.map((t) => at(p.rows, t)?.head ?? null),
      })),
    ];
    const title =
      kind === "throughput"
        ? `${w.workload}: ${name} vs threads`
        : `${w.workload}: ${name} latency (${first.latencyUnit ?? "ms"}) vs threads`;
    const chart = xyChartN(
      title,
      kind === "throughput" ? name : `${name} ${first.latencyUnit ?? "ms"}`,
      w.threads,
      series,
    );
    if (chart) out.push(...chart);
  }
  return out;
}
