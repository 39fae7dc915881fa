import type { Cell, Result } from "../result/model.ts";

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

/** The seeds' table shape: Threads | TPS | QPS | 95% latency (ms) | errors, one per workload. */
export function runReportMarkdown(result: Result): string {
  const spec = result.spec.body as {
    workloads?: {
      name: string;
      sysbench: string;
      duration: number;
      warmup: number;
      percentile: number;
      options: Record<string, unknown>;
    }[];
  };
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

  for (const w of spec.workloads ?? []) {
    const cells = result.cells.filter((c) => c.workload === w.name);
    const opts = Object.entries(w.options).map(([k, v]) => `--${k}=${v}`);
    out.push(`## ${w.name}`, "");
    out.push(
      `\`${w.sysbench}\`, ${w.duration}s per cell${w.warmup ? ` after ${w.warmup}s warmup (not judged)` : ""}${opts.length ? `, ${opts.join(" ")}` : ""}`,
      "",
    );
    if (cells.length === 0) {
      out.push("_not run_", "");
      continue;
    }
    const multi = new Set(cells.map((c) => `${c.variant}/${c.round}`)).size > 1;
    out.push(
      `| ${multi ? "Variant | Round | " : ""}Threads | TPS | QPS | ${w.percentile}% latency (ms) | errors |`,
    );
    out.push(`|${multi ? "---|---:|" : ""}---:|---:|---:|---:|---:|`);
    for (const c of cells) out.push(row(c, w.percentile, multi));
    out.push("");
  }
  const failed = result.cells.filter((c) => c.status === "failed");
  if (failed.length > 0) {
    out.push("## Failed cells", "");
    for (const c of failed) out.push(`- ${c.error} (raw output: \`${c.raw_log}\`)`);
    out.push("");
  }
  out.push(
    "TPS, QPS and latency are the steady window: the 1-second interval samples after the warmup (sysbench's own summary when there is no warmup). Errors are sysbench's ignored errors. Raw output of every step is under `raw/`.",
    "",
  );
  return out.join("\n");
}

function row(c: Cell, percentile: number, multi: boolean): string {
  const lead = multi ? `${c.variant} | ${c.round} | ` : "";
  if (c.status === "failed") return `| ${lead}${c.threads} | failed | | | |`;
  return `| ${lead}${c.threads} | ${fmt(c.metrics.tps)} | ${fmt(c.metrics.qps)} | ${fmt(c.metrics[`p${percentile}_ms`])} | ${c.summary?.errors ?? "–"} |`;
}
