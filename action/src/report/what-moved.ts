// "What the server did differently": the counters that moved (compare/what-moved.ts) as the comment
// shows them (a few lines per cell, regressed cells first) and as report.html shows them (all).

import type { Verdict } from "../compare/verdict.ts";
import type { CounterChange, CounterReport } from "../compare/what-moved.ts";
import { ciText, pct } from "./rows.ts";

/** Counters shown per cell in the comment; the rest are in report.html. */
export const COMMENT_COUNTERS = 6;

/** A value per operation or per second, to four significant figures. */
export const perValue = (x: number, per: "op" | "s") =>
  `${x === 0 ? "0" : Math.abs(x) >= 1000 ? x.toFixed(0) : x.toPrecision(4)}/${per}`;

/** A counter's change in words: its size and interval, or which side alone counted it. */
export const changeText = (c: CounterChange) =>
  c.only ? `only ${c.only} counted it` : `${pct(c.change)} ${ciText(c)}${c.judged ? ", judged" : ""}`;

const cellKey = (c: { variant?: string; workload: string; threads: number }) =>
  `${c.variant ?? ""}\u0000${c.workload}\u0000${c.threads}`;

const cellName = (c: CounterChange, multi: boolean) =>
  `${multi && c.variant ? `${c.variant}: ` : ""}${c.workload} threads=${c.threads}`;

/** The report's changes grouped by cell, the verdict's regressed cells first, then in matrix order. */
export function byCell(v: Verdict, changes: readonly CounterChange[]): CounterChange[][] {
  const groups = new Map<string, CounterChange[]>();
  for (const c of changes) groups.set(cellKey(c), [...(groups.get(cellKey(c)) ?? []), c]);
  const regressed = new Set(v.cells.filter((c) => c.verdict === "regression").map(cellKey));
  return [...groups.entries()]
    .sort(([a], [b]) => Number(regressed.has(b)) - Number(regressed.has(a)))
    .map(([, cs]) => cs);
}

/** The method line both reports carry under the list. */
export function countersMethod(r: CounterReport): string {
  return `Every counter the servers keep, read at the edges of each measured window: per operation the load tool counted where it follows the operations, per second where it follows the clock (idle servers grew it, or it did not rise with the operations' rate across rounds). Listed: a change of at least ${(r.floor * 100).toFixed(1)}% whose interval, paired like the verdict's, excludes zero at ${Math.round(r.confidence * 100)}% familywise confidence over all ${r.tested} counters tested; per operation net of each variant's background (its idle servers' rate, and a reading's own cost). Marked "judged": a cost metric the spec judges, listed whenever the verdict's interval at its confidence per cell leaves out zero. The rest are not judged: a spec judges a counter by naming it under metrics ("<counter>/op").`;
}

/** The comment's section: per cell with moved counters, a short table (at most ten lines). */
export function countersMarkdown(v: Verdict, r: CounterReport, md: (s: string) => string): string[] {
  if (!r.moved.length && !r.background.length) return [];
  const multi = Boolean(v.variants && v.variants.length > 1);
  const out = ["#### 🔬 What the server did differently", ""];
  for (const cell of byCell(v, r.moved)) {
    const first = cell[0] as CounterChange;
    out.push(
      `**${md(cellName(first, multi))}**: ${cell.length} counter(s) per operation moved`,
      "",
      `| counter | counts | ${md(v.base.variant)} | ${md(v.head.variant)} | Δ% (interval) |`,
      "|---|---|---:|---:|---|",
    );
    for (const c of cell.slice(0, COMMENT_COUNTERS))
      out.push(
        `| \`${md(c.counter)}\` | ${md(c.group)} | ${perValue(c.base, c.per)} | ${perValue(c.head, c.per)} | ${md(changeText(c))} |`,
      );
    if (cell.length > COMMENT_COUNTERS)
      out.push("", `<sub>${cell.length - COMMENT_COUNTERS} more in report.html</sub>`);
    out.push("");
  }
  if (r.background.length) {
    const shown = r.background.slice(0, 3).map((c) => `\`${md(c.counter)}\` ${md(changeText(c))}`);
    out.push(
      `⏱️ Background work (follows the clock, shown per second, never read per operation): ${r.background.length} counter(s) moved, e.g. ${shown.join("; ")}`,
      "",
    );
  }
  out.push(`<sub>${md(countersMethod(r))}</sub>`, "");
  return out;
}

/** report.html's section: every counter that moved, per operation and per second. */
export function countersHtml(v: Verdict, r: CounterReport, esc: (s: string | number) => string): string[] {
  const multi = Boolean(v.variants && v.variants.length > 1);
  const table = (title: string, id: string, changes: CounterChange[]) => [
    `<h3 id="${id}">${esc(title)}</h3>`,
    changes.length
      ? '<table class="evidence"><thead><tr><th class="l">cell</th><th class="l">counts</th><th class="l">counter</th><th>base</th><th>head</th><th class="l">Δ% (interval)</th></tr></thead><tbody>'
      : "<p>None.</p>",
    ...byCell(v, changes)
      .flat()
      .map(
        (c) =>
          `<tr><td class="l">${esc(cellName(c, multi))}</td><td class="l">${esc(c.group)}</td><td class="l"><code>${esc(c.counter)}</code></td><td>${esc(perValue(c.base, c.per))}</td><td>${esc(perValue(c.head, c.per))}</td><td class="l">${esc(changeText(c))}</td></tr>`,
      ),
    ...(changes.length ? ["</tbody></table>"] : []),
  ];
  return [
    '<h2 id="counters">What the server did differently</h2>',
    `<p class="method">${esc(countersMethod(r))}</p>`,
    ...table("Per operation", "counters-per-op", r.moved),
    ...table("Background work, per second (never read per operation)", "counters-per-s", r.background),
  ];
}
