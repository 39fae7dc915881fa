// A bisect's report (bisect.md) and its issue, in the shape of a regression bot's: the culprit
// commit in the title, each step's Δ and interval below.
import type { BisectReport, BisectStep } from "../compare/bisection.ts";
import { md } from "./comment.ts";
import { ciText, pct } from "./rows.ts";

const short = (c: { commit: string }) => c.commit.slice(0, 10);

type Cell = BisectStep["attempts"][number]["cells"][number];

/** The watched cells' judgements of a step's last attempt (every cell's, before any was watched). */
function judged(r: BisectReport, step: BisectStep): Cell[] {
  const last = step.attempts.at(-1);
  if (!last) return [];
  const keys = new Set(r.cells.map((c) => `${c.workload}\u0000${c.threads}\u0000${c.metric}`));
  const mine = last.cells.filter(
    (c) => keys.size === 0 || keys.has(`${c.workload}\u0000${c.threads}\u0000${c.metric}`),
  );
  return mine.length ? mine : last.cells;
}

/** The largest drop the confirmation (else the check) measured: the issue's headline number. */
function headlineCell(r: BisectReport): Cell | undefined {
  const step = [...r.steps].reverse().find((s) => s.role === "confirm" && s.mark === "bad") ?? r.steps[0];
  if (!step) return undefined;
  const worse = (c: Cell) => (c.change === null ? 0 : c.better === "higher" ? -c.change : c.change);
  return judged(r, step)
    .filter((c) => c.verdict === "regression")
    .sort((a, b) => worse(b) - worse(a))[0];
}

export function bisectTitle(r: BisectReport): string {
  const c = headlineCell(r);
  if (r.outcome !== "found" || !r.first_bad || !c) return `tiperf bisect ${r.spec.name}: ${r.outcome}`;
  const size = c.change === null ? "a" : `${Math.abs(c.change * 100).toFixed(1)}%`;
  return `${size} regression in ${c.workload} threads=${c.threads} after ${short(r.first_bad)} ${r.first_bad.subject}`;
}

const OUTCOME: Record<BisectReport["outcome"], string> = {
  found: "🔴 first bad commit found",
  "no-regression": "🟢 no regression found between good and bad",
  "not-confirmed": "🟡 a candidate was found but not confirmed against its neighbour",
  inconclusive: "🟡 inconclusive: stopped at an undecided step",
  running: "⏳ running",
  failed: "❌ failed: a step could not be measured (see the notes)",
};

/** The PR a commit subject names, as merge subjects do ("… (#53537)"): the last (#N). */
export function prOf(subject: string): number | undefined {
  const all = [...subject.matchAll(/\(#(\d+)\)/g)];
  const n = all.at(-1)?.[1];
  return n ? Number(n) : undefined;
}

/**
 * A regression bot's table: each watched cell's value on the last good and the first bad commit,
 * as the confirmation (the first bad against its neighbour) measured them, with the change.
 */
function botTable(r: BisectReport, good: { commit: string }, bad: { commit: string }): string[] {
  const confirm = [...r.steps].reverse().find((s) => s.role === "confirm" && s.mark === "bad");
  if (!confirm) return [];
  const cells = judged(r, confirm);
  if (!cells.length) return [];
  const num = (x: number | null) =>
    x === null ? "–" : x.toLocaleString("en-US", { maximumFractionDigits: 2 });
  return [
    `| cell | metric | last good \`${short(good)}\` | first bad \`${short(bad)}\` | change | interval |`,
    "|---|---|---:|---:|---:|---|",
    ...cells.map(
      (c) =>
        `| ${md(c.workload)} threads=${c.threads} | ${md(c.metric)} | ${num(c.base)} | ${num(c.head)} | ${pct(c.change)} | ${ciText(c)} |`,
    ),
    "",
  ];
}

export function bisectMarkdown(r: BisectReport): string {
  const out = [
    `### tiperf bisect ${md(r.spec.name)}: ${OUTCOME[r.outcome]}`,
    "",
    `${r.mode === "source" ? "tidb-server built at each commit of" : "the spec's target at each commit of"} \`${md(r.repository)}\`: good \`${short(r.good)}\` ${md(r.good.subject)} … bad \`${short(r.bad)}\` ${md(r.bad.subject)} (${r.commits.length} commit(s) after good)`,
    "",
  ];
  if (r.outcome === "found" && r.first_bad && r.last_good) {
    const pr = prOf(r.first_bad.subject);
    out.push(
      `**First bad commit: \`${short(r.first_bad)}\` ${md(r.first_bad.subject)}**${pr ? ` (PR #${pr})` : ""} (last good: \`${short(r.last_good)}\` ${md(r.last_good.subject)})`,
      "",
      ...botTable(r, r.last_good, r.first_bad),
    );
  }
  if (r.open_range)
    out.push(
      `**No first bad commit named.** It is one of the ${r.open_range.candidates} commit(s) after \`${short(r.open_range.after)}\` up to \`${short(r.open_range.through)}\` (bisect.json: open_range).`,
      "",
    );
  if (r.unconfirmed_candidate)
    out.push(
      `The halvings ended on \`${short(r.unconfirmed_candidate.candidate)}\` ${md(r.unconfirmed_candidate.candidate.subject)}, but it did not regress against its neighbour \`${short(r.unconfirmed_candidate.against)}\` (bisect.json: unconfirmed_candidate): not a first bad commit.`,
      "",
    );
  if (r.cells.length)
    out.push(
      `Judged cells: ${r.cells.map((c) => md(`${c.workload} threads=${c.threads} ${c.metric}${c.bad_change !== undefined ? ` (bad end ${pct(c.bad_change)})` : ""}`)).join(", ")}${r.metric ? ` · every step judged on ${md(r.metric)} (--metric)` : ""}`,
      "",
    );
  out.push(
    "| step | role | candidate | against | Δ% | interval | rounds | verdict | step says | build s |",
    "|---:|---|---|---|---:|---|---:|---|---|---:|",
  );
  // several candidates a round: which round and runner each step was
  const where = (s: BisectReport["steps"][number]) =>
    r.runners && s.round ? ` · round ${s.round}, runner ${s.runner}` : "";
  r.steps.forEach((s, i) => {
    if (s.mark === "skip")
      out.push(
        `| ${i + 1} | ${s.role}${where(s)} | \`${short(s.candidate)}\` ${md(s.candidate.subject)} | \`${short(s.against)}\` | | | | did not build | skip | |`,
      );
    s.attempts.forEach((a, k) => {
      const cells = judged(r, { ...s, attempts: [a] });
      const delta = cells.map((c) => pct(c.change)).join(" / ");
      const ci = cells.map((c) => ciText(c)).join(" / ");
      out.push(
        `| ${i + 1}${k ? `.${k + 1}` : ""} | ${s.role}${where(s)}${k ? " (re-measure)" : ""} | \`${short(s.candidate)}\` ${md(s.candidate.subject)} | \`${short(s.against)}\` | ${delta} | ${ci} | ${a.rounds} | ${a.verdict} | ${a.mark} | ${k === 0 && s.build_seconds !== undefined ? s.build_seconds.toFixed(0) : ""} |`,
      );
    });
  });
  out.push(
    "",
    `<sub>${r.steps.reduce((s, x) => s + x.attempts.length, 0)} measurement(s), ${Math.round(r.benchmark_seconds)} s of benchmark${r.mode === "source" ? `, ${Math.round(r.build_seconds)} s of builds` : ""}; confidence ${Math.round(r.confidence * 100)}% over the search (${(r.step_confidence * 100).toFixed(2)}% per measurement, at most ${r.max_measurements})</sub>`,
    "",
  );
  for (const n of r.notes) out.push(`<sub>${md(n)}</sub>`, "");
  out.push(
    "<sub>Each step's comparison (result, verdict, report, raw logs) is under steps/ beside bisect.json.</sub>",
    "",
  );
  return `${out.join("\n")}\n`;
}

/** The alarm's issue: only a found (and confirmed) first bad commit raises one. */
export function bisectIssue(r: BisectReport): { title: string; body: string } | undefined {
  if (r.outcome !== "found") return undefined;
  return { title: bisectTitle(r), body: bisectMarkdown(r) };
}
