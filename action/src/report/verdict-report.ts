import type { CellJudgement } from "../compare/judge.ts";
import type { Verdict } from "../compare/verdict.ts";

const MARK = { pass: "🟢", regression: "🔴", inconclusive: "🟡" } as const;
const CELL_MARK = { regression: "🔴", improvement: "🟢", unchanged: "⚪", inconclusive: "🟡" } as const;

export const pct = (x: number | null | undefined, digits = 1) =>
  x === null || x === undefined || !Number.isFinite(x)
    ? "–"
    : `${x >= 0 ? "+" : ""}${(x * 100).toFixed(digits)}%`;
export const num = (x: number | null | undefined) =>
  x === null || x === undefined || !Number.isFinite(x) ? "–" : x >= 100 ? x.toFixed(0) : x.toFixed(2);

export function ciText(c: CellJudgement): string {
  return c.ci ? `[${pct(c.ci[0])}, ${pct(c.ci[1])}]` : "–";
}

/** A plain verdict summary (report.md of a comparison); PR comments build on the same pieces. */
export function verdictMarkdown(v: Verdict): string {
  const out: string[] = [];
  const regressions = v.cells.filter((c) => c.verdict === "regression").length;
  out.push(
    `# ${MARK[v.verdict]} tiperf: ${v.verdict} — ${v.head.variant} vs ${v.base.variant} (${v.spec.name})`,
    "",
  );
  out.push(
    `${regressions} regression(s) in ${v.cells.length} judgements · ${v.order}, ${v.rounds} round(s)${v.max_rounds > v.rounds ? ` of up to ${v.max_rounds}` : ""} · ${Math.round(v.confidence * 100)}% familywise confidence · benchmark ${Math.round(v.benchmark_seconds / 60)} min${v.saved_seconds > 0 ? ` (early stop saved ~${Math.round(v.saved_seconds / 60)} min)` : ""}`,
    "",
  );
  const workloads = [...new Set(v.cells.map((c) => c.workload))];
  for (const w of workloads) {
    out.push(`## ${w}`, "");
    out.push(
      "| Threads | metric | base | head | Δ | CI | MDE | verdict |",
      "|---:|---|---:|---:|---:|---|---:|---|",
    );
    for (const c of v.cells.filter((x) => x.workload === w)) {
      out.push(
        `| ${c.threads} | ${c.metric} | ${num(c.base)} | ${num(c.head)} | ${pct(c.change)} | ${ciText(c)} | ${pct(c.mde)} | ${CELL_MARK[c.verdict]} ${c.verdict}${c.reason ? ` (${c.reason})` : ""} |`,
      );
    }
    out.push("");
  }
  out.push(
    "Tolerances: " +
      [...new Map(v.cells.map((c) => [c.metric, c])).values()]
        .map((c) => `${c.metric} ±${(c.tolerance * 100).toFixed(0)}% (${c.better} is better)`)
        .join(", "),
    "",
  );
  for (const n of v.notes) out.push(`- ${n}`);
  out.push("");
  return out.join("\n");
}
