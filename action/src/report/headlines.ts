// What a verdict says before its table: what fails the check, in one line, and for the pull request
// that adopts a spec, why it passes and the noise it measured.
import { stringify } from "yaml";
import type { CellJudgement } from "../compare/judge.ts";
import type { Verdict } from "../compare/verdict.ts";
import { ciText, metricName, pct, tolText } from "./rows.ts";

/**
 * What fails the check, in one line: each regressed judgement with its change, interval and
 * tolerance (and the looks it took); an inconclusive one where compare.inconclusive is fail. None
 * when the check passes.
 */
export function failLine(v: Verdict): string | undefined {
  const failing = v.cells.filter(
    (c) => c.verdict === "regression" || (c.verdict === "inconclusive" && v.inconclusive === "fail"),
  );
  if (v.verdict === "pass" || failing.length === 0 || v.accepted) return undefined;
  if (v.verdict === "inconclusive" && v.inconclusive !== "fail") return undefined;
  const multi = v.variants && v.variants.length > 1;
  const one = (c: CellJudgement) =>
    `${multi ? `${c.variant} ` : ""}${c.workload} threads=${c.threads} ${metricName(c.metric)} ${pct(c.change)} ${ciText(c)} ${c.verdict === "regression" ? "beyond" : "undecided at"} ${tolText(c.tolerance)}${c.looks && c.looks > 1 ? ` after ${c.looks} looks` : ""}`;
  return `❌ Fails the check: ${failing.map(one).join("; ")}.`;
}

/**
 * The pull request that adopts a spec: why it passes, what the check detects at the noise this A/A
 * measured, and that noise as YAML to commit under compare: (empty for any other verdict).
 */
export function adoptionLines(v: Verdict): { text: string[]; yaml: string } | undefined {
  const a = v.adoption;
  if (!a) return undefined;
  return {
    text: [
      `🆕 ${a.why}.`,
      ...a.detects.map((l) => `At this noise, ${l}.`),
      `To have \`tiperf plan\` state it, merge this into ${a.spec} (its \`compare:\` mapping gets \`noise:\`), or run \`tiperf calibrate --spec ${a.spec}\` on this runner:`,
      ...(Object.values((a.noise.workloads ?? {}) as Record<string, { instances?: string }>).some(
        (w) => w.instances === "0%",
      )
        ? [
            "`instances: 0%`: no steady gap between server instances showed beyond the rounds' noise; with one round per block none can (more rounds per block measure it).",
          ]
        : []),
    ],
    yaml: stringify({ compare: { noise: a.noise } }),
  };
}

/** A regression accepted as an expected cost: by whom, which judgements at what size; the check passes. */
export function acceptedLine(v: Verdict): string | undefined {
  const a = v.accepted;
  if (!a) return undefined;
  return `✅ Accepted by @${a.by} as an expected cost of this commit (perf-regression-expected): ${a.cells.join("; ")}. The check passes; a later push is judged again and needs the label again.`;
}
