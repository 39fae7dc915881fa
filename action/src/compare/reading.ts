// Throughput and cost read together. Throughput is the machine's speed times the code's cost per
// operation: a drop with the cost up is the code doing more per operation; a drop with the cost flat
// is the same work done slower (waits, the environment, a resource the variants differ in, such
// as a CPU quota); a cost up with throughput flat is a costlier change hidden by spare capacity.
import { z } from "zod";
import { costMetric } from "../observe/cost.ts";
import type { Result } from "../result/model.ts";
import { CELL_VERDICTS, type CellJudgement } from "./judge.ts";
import { judgeCell, pairedSamples } from "./samples.ts";

/** The cost metric read beside throughput: CPU per operation is the one every change moves. */
export const READ_COST = "cpu_ms_per_op";

/** Throughput metrics, the first judged one read (sysbench's QPS before TPS). */
const THROUGHPUT = ["qps", "tps", "tpmc", "tpm_total", "ops"];

const Side = z.strictObject({
  metric: z.string(),
  change: z.number().nullable(),
  ci: z.tuple([z.number(), z.number()]).nullable(),
  verdict: z.enum(CELL_VERDICTS),
  /** Whether the spec judges it (it can fail the check) or it is only read beside throughput. */
  judged: z.boolean(),
  tolerance: z.number(),
});

export const ReadingSchema = z.strictObject({
  variant: z.string().optional(),
  workload: z.string(),
  threads: z.number().int(),
  throughput: Side,
  cost: Side,
  /**
   * costlier: throughput down, cost up; same-work: throughput down, cost within its tolerance;
   * hidden: cost up, throughput not down; cheaper: cost down; none: nothing to say; undecided:
   * the cost cannot tell.
   */
  finding: z.enum(["costlier", "same-work", "hidden", "cheaper", "none", "undecided"]),
  text: z.string(),
});

export type Reading = z.output<typeof ReadingSchema>;

const pct = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(x * 100).toFixed(1)}%`;
const ci = (c: { ci: [number, number] | null }) => (c.ci ? ` [${pct(c.ci[0])}, ${pct(c.ci[1])}]` : "");

const sideOf = (j: CellJudgement, judged: boolean): Reading["cost"] => ({
  metric: j.metric,
  change: j.change,
  ci: j.ci,
  verdict: j.verdict,
  judged,
  tolerance: j.tolerance,
});

/** What a throughput judgement and a cost judgement of one cell say together. */
export function readTogether(
  tp: CellJudgement,
  cost: CellJudgement,
  noun = "operation",
): Pick<Reading, "finding" | "text"> {
  const cell = `${tp.variant ? `${tp.variant} ` : ""}${tp.workload} threads=${tp.threads}`;
  const label = costMetric(cost.metric)?.label ?? cost.metric;
  const tpText = `throughput ${tp.change === null ? "–" : pct(tp.change)}${ci(tp)}`;
  const costText = `${label} ${cost.change === null ? "–" : pct(cost.change)}${ci(cost)}`;
  const down = tp.verdict === "regression";
  if (down && cost.verdict === "regression")
    return {
      finding: "costlier",
      text: `${cell}: each ${noun} costs ${pct(cost.change ?? 0)} more CPU (${costText}) and ${tpText}: the code does more work per ${noun}`,
    };
  if (down && (cost.verdict === "unchanged" || cost.verdict === "within"))
    return {
      finding: "same-work",
      text: `${cell}: ${tpText} while the servers did ${cost.verdict === "within" ? "nearly " : ""}the same work per ${noun} (${costText}, within ±${(cost.tolerance * 100).toFixed(0)}%): the time went elsewhere — waits (locks, I/O, the network), the environment, or a resource the variants differ in (a CPU quota) — not to costlier code; still a regression of throughput`,
    };
  if (!down && cost.verdict === "regression")
    return {
      finding: "hidden",
      text: `${cell}: each ${noun} costs ${pct(cost.change ?? 0)} more CPU (${costText}) while ${tpText}: costlier, hidden by spare capacity at these threads`,
    };
  if (cost.verdict === "improvement")
    return { finding: "cheaper", text: `${cell}: each ${noun} costs less CPU (${costText}); ${tpText}` };
  if (down)
    return {
      finding: "undecided",
      text: `${cell}: ${tpText}; the CPU per ${noun} cannot tell whether the code got costlier (${costText})`,
    };
  return { finding: "none", text: `${cell}: ${tpText}; ${costText}` };
}

/**
 * Every judged throughput cell read with its cost: the spec's own judgement of the cost metric
 * where it judges one, else the cost judged the same way (same pairs, blocks and α) at the
 * throughput's tolerance, shown only — it cannot fail the check. Cells without cost samples
 * (targets that cannot read the counters) are left out.
 */
export function readings(
  result: Result,
  control: string,
  cells: readonly CellJudgement[],
  alpha: number,
): Reading[] {
  const out: Reading[] = [];
  const rows = new Map<string, CellJudgement[]>();
  for (const c of cells) {
    const k = `${c.variant ?? ""}\u0000${c.workload}\u0000${c.threads}`;
    rows.set(k, [...(rows.get(k) ?? []), c]);
  }
  for (const row of rows.values()) {
    const tp =
      THROUGHPUT.map((m) => row.find((c) => c.metric === m)).find((c) => c !== undefined) ??
      row.find((c) => c.better === "higher");
    if (!tp) continue;
    const judged = row.find((c) => c.metric === READ_COST);
    const key = { workload: tp.workload, threads: tp.threads };
    const cost =
      judged ??
      judgeCell(
        key,
        READ_COST,
        { better: "lower", tolerance: tp.tolerance },
        pairedSamples(result, control, tp.variant ?? "", key, READ_COST),
        alpha,
        true,
      );
    if (cost.n === 0) continue;
    const noun =
      result.cells.find((c) => c.workload === tp.workload)?.driver === "go-ycsb"
        ? "operation"
        : "transaction";
    out.push({
      ...(tp.variant ? { variant: tp.variant } : {}),
      workload: tp.workload,
      threads: tp.threads,
      throughput: sideOf(tp, true),
      cost: sideOf({ ...cost, variant: tp.variant }, judged !== undefined),
      ...readTogether(tp, cost, noun),
    });
  }
  return out;
}

/** The lines a report shows of the readings: those that say something about a change. */
export function readingLines(rs: readonly Reading[] | undefined): string[] {
  return (rs ?? []).filter((r) => r.finding !== "none").map((r) => `📐 ${r.text}`);
}
