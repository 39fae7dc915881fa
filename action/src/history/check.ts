// `tiperf history check`: change points per series (workload × threads × metric) of each history
// file, each with the run where the new level starts, the levels before and after, the relative
// change and the permutation test's p-value; "new" when it starts after a given run.
import { InputError } from "../errors.ts";
import { pct } from "../report/rows.ts";
import { readReport } from "../result/store.ts";
import { type ChangePoint, eDivisive, segmentsOf } from "./changepoints.ts";
import { type HistoryEntry, historyFiles, readHistory } from "./store.ts";

export const CHANGEPOINTS_FORMAT = "tiperf.changepoints";

/** What a change point records of the merged pull request's acceptance that covers it (history/accepted.ts). */
export interface PointAcceptance {
  by: string;
  pr: number;
  commit: string;
  /** The accepted judgement's relative change (head against base in the PR's check). */
  change: number;
}

export interface SeriesPoint {
  index: number;
  run_id: string;
  started_at: string;
  commit?: string;
  /** The run before it (the last of the old level): the commits between the two are suspects. */
  previous_run_id: string;
  previous_commit?: string;
  before: number;
  after: number;
  /** after / before − 1 */
  change: number;
  /** In the worse direction for the metric. */
  worse: boolean;
  p: number;
  /** Not found when the history ended at --since (what an earlier check reported is not new). */
  new: boolean;
  /** A merged pull request accepted it as an expected cost (history/accepted.ts): not raised again. */
  accepted?: PointAcceptance;
}

export interface SeriesReport {
  workload: string;
  threads: number;
  metric: string;
  better: "higher" | "lower";
  values: number[];
  run_ids: string[];
  points: SeriesPoint[];
}

export interface ChangePointReport {
  format: typeof CHANGEPOINTS_FORMAT;
  version: 1;
  created_at: string;
  pvalue: number;
  permutations: number;
  /** The fewest runs a level had to have to count. */
  min_segment: number;
  files: { file: string; profile: string; spec: string; runs: number; series: SeriesReport[] }[];
}

/** Fewer runs than this and a series is not tested: E-divisive needs a level on each side. */
export const MIN_RUNS = 6;
/**
 * The fewest runs of a level (`--min-segment`): a split leaving fewer on a side is no candidate,
 * so one weekly run off its level (a spike, a noisy week) is not a change point.
 */
export const MIN_SEGMENT = 3;
/** The fewest runs a series needs to be tested: a level of at least `minSegment` on each side. */
const leastRuns = (minSegment: number) => Math.max(MIN_RUNS, 2 * minSegment);

export function seriesReports(entries: HistoryEntry[]): SeriesReport[] {
  const map = new Map<string, SeriesReport>();
  for (const e of entries)
    for (const v of e.values) {
      const key = `${v.workload}\u0000${v.threads}\u0000${v.metric}`;
      const s = map.get(key) ?? {
        workload: v.workload,
        threads: v.threads,
        metric: v.metric,
        better: v.better,
        values: [],
        run_ids: [],
        points: [],
      };
      s.values.push(v.value);
      s.run_ids.push(e.run_id);
      map.set(key, s);
    }
  return [...map.values()];
}

export async function checkHistory(
  dir: string,
  o: { pvalue: number; permutations: number; since?: string; seed?: number; minSegment?: number },
): Promise<ChangePointReport> {
  const report: ChangePointReport = {
    format: CHANGEPOINTS_FORMAT,
    version: 1,
    created_at: new Date().toISOString(),
    pvalue: o.pvalue,
    permutations: o.permutations,
    min_segment: o.minSegment ?? MIN_SEGMENT,
    files: [],
  };
  let sinceFound = false;
  for (const file of await historyFiles(dir)) {
    const entries = await readHistory(file);
    const byRun = new Map(entries.map((e) => [e.run_id, e]));
    const sinceAt = o.since !== undefined ? entries.findIndex((e) => e.run_id === o.since) : -1;
    if (sinceAt >= 0) sinceFound = true;
    const series = seriesReports(entries);
    for (const s of series) {
      if (s.values.length < leastRuns(report.min_segment)) continue;
      const detect = (values: number[]): ChangePoint[] =>
        eDivisive(values, {
          pvalue: o.pvalue,
          permutations: o.permutations,
          seed: o.seed ?? 1,
          minSegment: report.min_segment,
        });
      const points = detect(s.values);
      // new: not found when the history ended at --since (a step is often significant only some
      // runs after it starts, so "starts after --since" would miss it)
      const known = new Set<string>();
      if (o.since !== undefined) {
        const upto = s.run_ids.indexOf(o.since);
        // a history without that run did not grow since: everything found in it was seen before
        const seen =
          sinceAt < 0
            ? points
            : upto + 1 >= leastRuns(report.min_segment)
              ? detect(s.values.slice(0, upto + 1))
              : [];
        for (const p of seen) known.add(s.run_ids[p.index] as string);
      }
      const segments = segmentsOf(s.values, points);
      s.points = points.map((p, i) => {
        const run = byRun.get(s.run_ids[p.index] as string) as HistoryEntry;
        const prev = byRun.get(s.run_ids[p.index - 1] as string) as HistoryEntry;
        const before = (segments[i] as { mean: number }).mean;
        const after = (segments[i + 1] as { mean: number }).mean;
        const change = after / before - 1;
        return {
          index: p.index,
          run_id: run.run_id,
          started_at: run.started_at,
          ...(run.commit ? { commit: run.commit } : {}),
          previous_run_id: prev.run_id,
          ...(prev.commit ? { previous_commit: prev.commit } : {}),
          before,
          after,
          change,
          worse: s.better === "higher" ? change < 0 : change > 0,
          p: p.p,
          new: o.since !== undefined && !known.has(run.run_id),
        };
      });
    }
    const first = entries[0];
    report.files.push({
      file,
      profile: first?.profile ?? "",
      spec: first?.spec.name ?? "",
      runs: entries.length,
      series,
    });
  }
  if (o.since !== undefined && !sinceFound)
    throw new InputError(`--since ${o.since}: no run of that id in any history under ${dir}`);
  return report;
}

const short = (sha?: string) => (sha ? sha.slice(0, 12) : "?");

/** A change point that is raised: new, for the worse, and not accepted by a merged pull request. */
export const raised = (p: SeriesPoint) => p.new && p.worse && !p.accepted;

export function changePointText(r: ChangePointReport): string {
  const lines: string[] = [];
  for (const f of r.files) {
    const least = leastRuns(r.min_segment ?? 1);
    const tested = f.series.filter((s) => s.values.length >= least).length;
    lines.push(
      `${f.file}: ${f.runs} runs, ${f.series.length} series${tested < f.series.length ? ` (${f.series.length - tested} with fewer than ${least} runs not tested)` : ""}`,
    );
    for (const s of f.series)
      for (const p of s.points)
        lines.push(
          `  ${s.workload} threads=${s.threads} ${s.metric}: change point at run ${p.run_id} (#${p.index + 1} of ${s.values.length}${p.commit ? `, commit ${short(p.commit)}` : ""}): ${p.before.toPrecision(5)} → ${p.after.toPrecision(5)} (${pct(p.change)}${p.worse ? ", worse" : ", better"}), p = ${p.p.toFixed(3)}${p.new ? " [new]" : ""}${p.accepted ? ` [accepted by ${p.accepted.by} in #${p.accepted.pr} at ${pct(p.accepted.change)}]` : ""}`,
        );
  }
  const n = r.files.reduce((s, f) => s + f.series.reduce((t, x) => t + x.points.length, 0), 0);
  lines.push(
    `${n} change point(s); E-divisive means, permutation test (${r.permutations} permutations, p ≤ ${r.pvalue}), levels of at least ${r.min_segment ?? 1} runs`,
  );
  return `${lines.join("\n")}\n`;
}

/** The alarm's issue: each new change point for the worse, its first bad run and the commits between. */
export function changePointIssue(
  r: ChangePointReport,
  repo: string,
): { title: string; body: string } | undefined {
  const bad = r.files.flatMap((f) =>
    f.series.flatMap((s) => s.points.filter(raised).map((p) => ({ f, s, p }))),
  );
  if (bad.length === 0) return undefined;
  const first = bad.reduce((a, b) => (a.p.started_at <= b.p.started_at ? a : b));
  const title = `tiperf history: ${bad.length} new change point(s) for the worse in ${first.f.spec} on ${first.f.profile} (from run ${first.p.run_id})`;
  const body = [
    `**${bad.length} new change point(s) for the worse** (E-divisive means, ${r.permutations} permutations, p ≤ ${r.pvalue}).`,
    "",
    "| series | first bad run | level before → after | change | p | commits between |",
    "|---|---|---|---|---|---|",
    ...bad.map(({ s, p }) => {
      const commits =
        p.commit && p.previous_commit
          ? `[${short(p.previous_commit)}…${short(p.commit)}](https://github.com/${repo}/compare/${p.previous_commit}...${p.commit})`
          : "(commits not recorded)";
      return `| ${s.workload} threads=${s.threads} ${s.metric} | ${p.run_id} | ${p.before.toPrecision(5)} → ${p.after.toPrecision(5)} | ${pct(p.change)} | ${p.p.toFixed(3)} | ${commits} |`;
    }),
    "",
    "<!-- tiperf:changepoints -->",
  ].join("\n");
  return { title, body };
}

/** A change-point report (`history check --json`), or undefined when the file is something else. */
export function readChangePoints(file: string): Promise<ChangePointReport | undefined> {
  return readReport<ChangePointReport>(file, CHANGEPOINTS_FORMAT, (r) =>
    Array.isArray(r.files) && typeof r.pvalue === "number" ? undefined : "files and pvalue",
  );
}

/**
 * What a bisect takes from a change-point report: the first new change point for the worse of the
 * spec whose runs recorded their commits — the run before it (good), its run (bad) — and its cell.
 */
export function bisectRange(
  r: ChangePointReport,
  spec: string,
): { good: string; bad: string; workload: string; threads: number } | undefined {
  for (const f of r.files) {
    if (f.spec !== spec) continue;
    for (const s of f.series)
      for (const p of s.points)
        if (raised(p) && p.commit && p.previous_commit && p.commit !== p.previous_commit)
          return { good: p.previous_commit, bad: p.commit, workload: s.workload, threads: s.threads };
  }
  return undefined;
}
