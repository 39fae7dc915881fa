// Where the time went, as report.md, the PR comment and report.html show it: per variant ×
// workload × threads, each program's CPU (window mean, busiest second) as a share of the CPUs it
// may use, its memory, and the bottleneck hint; a saturated load generator is a warning.
import type { CellProfile, ProfileDiffEntry } from "../compare/verdict.ts";
import type { Evidence } from "../observe/hints.ts";
import { cpusText } from "../observe/hints.ts";
import type { ResourceUse } from "../result/model.ts";

/** "mariadbd 27% of 2 CPUs (max 31%), 118 MiB". */
export function useText(r: ResourceUse): string {
  const what = r.role === "machine" ? "machine" : r.component;
  const where = r.host === "local" ? what : `${what}@${r.host}`;
  const mem = r.rss_mib ? `, ${Math.round(r.rss_mib.mean)} MiB` : "";
  const disk =
    (r.read_mib_s?.mean ?? 0) + (r.write_mib_s?.mean ?? 0) >= 0.1
      ? `, disk ${(r.read_mib_s?.mean ?? 0).toFixed(1)}/${(r.write_mib_s?.mean ?? 0).toFixed(1)} MiB/s r/w`
      : "";
  return `${where} ${Math.round(r.cpu_pct.mean)}% of ${cpusText(r.cpus)} (max ${Math.round(r.cpu_pct.max)}%)${mem}${disk}`;
}

export const HINT_MARK = { load: "⚠️", server: "🔥", machine: "🔥", none: "·" } as const;

/** Warnings the verdict of a cell carries: its load generator was saturated on some variant. */
export function evidenceWarnings(evidence: readonly Evidence[] | undefined): string[] {
  return (evidence ?? [])
    .filter((e) => e.hint.bound === "load")
    .map(
      (e) =>
        `${e.workload} threads=${e.threads} (${e.variant}): ${e.hint.text}; its numbers are not the server's`,
    );
}

/** A Markdown table, one row per variant × workload × threads; `esc` escapes cell text. */
export function evidenceMarkdown(
  evidence: readonly Evidence[] | undefined,
  esc: (s: string) => string,
): string[] {
  if (!evidence?.length) return [];
  const multi = new Set(evidence.map((e) => e.variant)).size > 1;
  return [
    `| ${multi ? "Variant | " : ""}Workload | Threads | Bottleneck | CPU, memory (mean over the measured window; max = busiest second) |`,
    `|${multi ? "---|" : ""}---|---:|---|---|`,
    ...evidence.map(
      (e) =>
        `| ${multi ? `${esc(e.variant)} | ` : ""}${esc(e.workload)} | ${e.threads} | ${HINT_MARK[e.hint.bound]} ${esc(e.hint.text)} | ${e.resources.map((r) => esc(useText(r))).join("<br>")} |`,
    ),
  ];
}

export const EVIDENCE_TEXT =
  "CPU is user + system time from /proc, sampled once a second over each cell's measured run, as a share of the CPUs the program may use (its affinity, capped by its cgroup's CPU quota); a program at 90% or more of them is saturated. Pooled over the judged rounds of a variant.";

/**
 * The CPU profiles of the regressed cells, per cell a row per side and server: the file (in the
 * run's directory and artifact) and its busiest functions; `esc` escapes text, `where` says where
 * the files are (the run's directory, the workflow run's artifact).
 */
export function profileMarkdown(
  profiles: readonly CellProfile[] | undefined,
  esc: (s: string) => string,
  where: string,
): string[] {
  if (!profiles?.length) return [];
  const out = [
    `CPU profiles of the regressed cells, each side run once more and profiled over its measured run (not judged; files in ${where}; \`go tool pprof -http=: FILE\` opens one):`,
    "",
    "| Cell | Variant | Server | Profile | Busiest functions (flat %) |",
    "|---|---|---|---|---|",
  ];
  for (const p of profiles) {
    const top = (p.top ?? [])
      .slice(0, 3)
      .map((f) => `${esc(f.name.length > 60 ? `…${f.name.slice(-59)}` : f.name)} ${f.flat_pct.toFixed(1)}%`)
      .join("<br>");
    const measured = p.measured
      ? Object.entries(p.measured).map(([k, v]) => ` (${k} ${Math.round(v)})`)[0]
      : "";
    out.push(
      `| ${esc(p.workload)} threads=${p.threads} | ${esc(p.variant)}${measured} | ${esc(p.component)} ${esc(p.address)}${p.measures === "alloc" ? " (allocations)" : p.measures === "stmts" ? " (statements executed)" : ""} | ${p.file ? `\`${esc(p.file)}\`${p.flame ? `, flame graph \`${esc(p.flame)}\`` : ""}` : `not taken: ${esc(p.error ?? "unknown")}`} | ${top || "–"} |`,
    );
  }
  return out;
}

/** A profile diff's value in its unit (ms/op to 3 decimals, KiB/op to 1, shares to 1). */
const diffValue = (x: number, unit: string) =>
  `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(unit === "ms/op" ? 3 : 1)}${unit === "%" ? " pts" : ` ${unit}`}`;

/** What a profile of each kind measures, as the diff table says it. */
const PROFILE_NAME = { cpu: "CPU", alloc: "allocations", stmts: "statements executed (counted)" } as const;

/** A function name as a table shows it: the package path cut, the tail kept. */
const shortFn = (name: string) => {
  const cut = name.slice(name.lastIndexOf("/", name.indexOf("(") < 0 ? undefined : name.indexOf("(")) + 1);
  return cut.length > 70 ? `…${cut.slice(-69)}` : cut;
};

/**
 * Which functions got costlier: per regressed cell and server, the functions whose cumulative
 * cost per operation (CPU, allocations) grew most from the control's profile to the variant's.
 */
export function profileDiffMarkdown(
  diffs: readonly ProfileDiffEntry[] | undefined,
  esc: (s: string) => string,
): string[] {
  if (!diffs?.length) return [];
  const out = [
    `**Which functions got costlier** (each regressed cell's profiles, base against head; a function's cost with what it calls, per operation the load tool counted while profiling, and the change of its share of the profile, which the lists rank by${diffs.some((d) => d.measures === "stmts") ? "; statements executed: a counting build's own statements per function, the idle server's taken off, ranked by their change per operation" : ""}):`,
    "",
    "| Cell | Server | Profile | Whole profile | Grew most | Shrank most | Differential flame graph |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const d of diffs) {
    const list = (gs: ProfileDiffEntry["growers"]) =>
      gs
        .slice(0, 5)
        .map(
          (g) =>
            `${esc(shortFn(g.name))} ${diffValue(g.delta, d.unit)}${d.unit === "%" ? "" : ` (${g.share_delta >= 0 ? "+" : "−"}${Math.abs(g.share_delta).toFixed(1)} pts)`}`,
        )
        .join("<br>") || "–";
    out.push(
      `| ${esc(d.workload)} threads=${d.threads}${d.variant !== "head" ? ` (${esc(d.variant)})` : ""} | ${esc(d.component)} | ${PROFILE_NAME[d.measures]} | ${diffValue(d.total.head - d.total.base, d.unit)} (${d.total.base.toFixed(d.unit === "ms/op" ? 3 : 1)} → ${d.total.head.toFixed(d.unit === "ms/op" ? 3 : 1)}) | ${list(d.growers)} | ${list(d.shrinkers)} | ${d.flame ? `\`${esc(d.flame)}\`` : "–"} |`,
    );
  }
  return out;
}
