import type { Workload } from "../drivers/types.ts";
import { evidenceOf } from "../observe/hints.ts";
import type { Cell, Result } from "../result/model.ts";
import { EVIDENCE_TEXT, evidenceMarkdown, evidenceWarnings } from "./evidence.ts";
import { type Layout, layoutOf } from "./layout.ts";

const fmt = (v: number | undefined, digits = 2) =>
  v === undefined || !Number.isFinite(v)
    ? "–"
    : v.toLocaleString("en-US", {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
        useGrouping: false,
      });

function gib(bytes: number): string {
  return `${(bytes / 2 ** 30).toFixed(1)} GiB`;
}

function duration(result: Result): string {
  if (!result.finished_at) return "unfinished";
  const s = (Date.parse(result.finished_at) - Date.parse(result.started_at)) / 1000;
  return `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, "0")}s`;
}

/**
 * The seeds' table shapes, one per workload, as its driver lays them out: sysbench
 * `Threads | TPS | QPS | p95 ms | errors`, TPC-C `Threads | tpmC | tpmTotal | NEW_ORDER p95 | errors`,
 * TPC-H a row per query, YCSB `Threads | OPS | READ p99 | UPDATE p99 …`.
 */
export function runReportMarkdown(result: Result): string {
  const spec = result.spec.body as { workloads?: Workload[] };
  const out: string[] = [];
  out.push(`# tiperf run ${result.run_id}`, "");
  out.push(`- **Status:** ${result.status}${result.error ? ` — ${result.error}` : ""}`);
  out.push(
    `- **Spec:** ${result.spec.name} (\`${result.spec.path}\`, sha256 ${result.spec.hash.slice(0, 12)})`,
  );
  for (const t of result.targets) {
    const cfg = Object.entries(t.effective_config).map(([k, v]) => `${k}=${v}`);
    const res = t.resources ? Object.entries(t.resources).map(([k, v]) => `${k}=${v}`) : [];
    out.push(
      `- **Target${result.targets.length > 1 ? ` (${t.variant})` : ""}:** ${t.kind} ${t.version}${cfg.length + res.length ? ` · ${[...cfg, ...res].join(", ")}` : ""}`,
    );
  }
  const h = result.host;
  out.push(
    `- **Host:** ${h.cpu_model}, ${h.cores} cores, ${gib(h.memory_bytes)}, ${h.os}, kernel ${h.kernel}`,
  );
  out.push(
    `- **Tools:** ${Object.entries(result.tools)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`,
  );
  out.push(`- **Started:** ${result.started_at} · **took** ${duration(result)}`, "");
  if (result.warnings?.length) {
    out.push("## Warnings", "");
    for (const w of result.warnings) out.push(`- ⚠️ ${w}`);
    out.push("");
  }

  for (const w of spec.workloads ?? []) {
    // in the order people read them: per variant and round, thread counts ascending
    const order = [...new Set(result.cells.map((c) => c.variant))];
    const cells = result.cells
      .filter((c) => c.workload === w.name)
      .sort(
        (a, b) =>
          order.indexOf(a.variant) - order.indexOf(b.variant) ||
          (a.block ?? 0) - (b.block ?? 0) ||
          a.round - b.round ||
          a.threads - b.threads,
      );
    const opts = Object.entries(w.options ?? {}).map(([k, v]) => `${k}=${v}`);
    out.push(`## ${w.name}`, "");
    out.push(
      `${w.driver} \`${w.script}\`, ${w.duration}s per cell${w.warmup ? ` after ${w.warmup}s warmup (not judged)` : ""}${opts.length ? `, ${opts.join(" ")}` : ""}`,
      "",
    );
    if (cells.length === 0) {
      out.push("_not run_", "");
      continue;
    }
    out.push(...table(cells, layoutOf(w, cells)), "");
  }
  const variants = [
    ...new Set([...result.targets.map((t) => t.variant), ...result.cells.map((c) => c.variant)]),
  ];
  const evidence = evidenceOf(result.cells, variants);
  if (evidence.length) {
    out.push("## Where the time went", "");
    const warnings = evidenceWarnings(evidence);
    if (warnings.length) out.push(warnings.map((w) => `> ⚠️ ${w}`).join("\n>\n"), "");
    out.push(...evidenceMarkdown(evidence, (s) => s.replace(/\|/g, "\\|")), "", EVIDENCE_TEXT, "");
  }
  const failed = result.cells.filter((c) => c.status === "failed");
  if (failed.length > 0) {
    out.push("## Failed cells", "");
    // the error names the raw log already when the cell got that far
    for (const c of failed)
      out.push(`- ${c.error}${c.error?.includes(c.raw_log) ? "" : ` (raw output: \`${c.raw_log}\`)`}`);
    out.push("");
  }
  out.push(
    "Values are the tool's own summary of the measured window (rates, percentiles and errors alike): the warmup ran as its own invocation right before it (sysbench, go-tpc) or the tool kept it out itself (go-ycsb's warmuptime). Errors are the failed operations the tool counted. Raw output of every step, warmups included, is under `raw/`.",
    "",
  );
  return out.join("\n");
}

/** A round as the table shows it: warmup rounds (0) are marked, never judged; blocks named. */
const roundText = (c: Cell) =>
  `${c.round === 0 ? "warmup (not judged)" : c.round}${c.block !== undefined ? ` (block ${c.block})` : ""}`;

const heading = (c: { label: string; unit: string }) =>
  c.unit && !["1/s", "1/min", "count", "%"].includes(c.unit) ? `${c.label} (${c.unit})` : c.label;

function table(cells: Cell[], layout: Layout): string[] {
  const multi = new Set(cells.map((c) => `${c.variant}/${c.round}`)).size > 1;
  const value = (c: Cell, metric: string) =>
    c.status === "failed"
      ? "failed"
      : fmt(c.metrics[metric]?.value, c.metrics[metric]?.unit === "count" ? 0 : 2);
  if (layout.rows === "metrics") {
    const name = (c: Cell) =>
      `${multi ? `${c.variant} ${c.round === 0 ? "warmup" : `r${c.round}`} ` : ""}${c.threads} thread${c.threads > 1 ? "s" : ""}`;
    return [
      `| Metric | ${cells.map(name).join(" | ")} |`,
      `|---|${cells.map(() => "---:").join("|")}|`,
      ...layout.columns.map(
        (col) => `| ${heading(col)} | ${cells.map((c) => value(c, col.metric)).join(" | ")} |`,
      ),
    ];
  }
  return [
    `| ${multi ? "Variant | Round | " : ""}Threads | ${layout.columns.map(heading).join(" | ")} |`,
    `|${multi ? "---|---:|" : ""}---:|${layout.columns.map(() => "---:").join("|")}|`,
    ...cells.map(
      (c) =>
        `| ${multi ? `${c.variant} | ${roundText(c)} | ` : ""}${c.threads} | ${layout.columns.map((col) => value(c, col.metric)).join(" | ")} |`,
    ),
  ];
}
