// Which background a cost per operation is judged net of: each server's own idle reading (one 2 s
// window after its start) or the run's (the mean over every server of every variant,
// compare/background.ts). For each result.json of a compare run, draws of a subset of its blocks,
// each judged both ways with the verdict's own intervals at the shipped family's α: how often each
// judged cost metric's interval left out zero (with a real change, the power; in an A/A, false
// changes). Writes OUT.json and prints a line per cell and metric.
//
//   npm run bench:background -- --result RUN/result.json[.gz] [--blocks 6] [--draws 400]
//                               [--comparisons 42] [--metrics mallocs_per_op,alloc_kb_per_op] [--out FILE]
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { gunzipSync } from "node:zlib";
import { withPooledBackground } from "../action/src/compare/background.ts";
import { alphaPerCell } from "../action/src/compare/judge-results.ts";
import { judgeCell, pairedSamples } from "../action/src/compare/samples.ts";
import { rng } from "../action/src/compare/stats.ts";
import type { Result } from "../action/src/result/model.ts";
import { drawBlocks, wilson } from "./bench-common.ts";

const { values } = parseArgs({
  options: {
    result: { type: "string" },
    blocks: { type: "string", default: "6" },
    draws: { type: "string", default: "400" },
    comparisons: { type: "string", default: "42" },
    metrics: { type: "string", default: "mallocs_per_op,alloc_kb_per_op" },
    seed: { type: "string", default: "1" },
    out: { type: "string" },
  },
});
if (!values.result) throw new Error("--result: a compare run's result.json (or .json.gz) is required");

const raw = readFileSync(values.result);
const result = JSON.parse((values.result.endsWith(".gz") ? gunzipSync(raw) : raw).toString("utf8")) as Result;
const blocks = [...new Set(result.cells.map((c) => c.block ?? 1))].sort((a, b) => a - b);
const k = Math.min(Number(values.blocks), blocks.length);
const draws = Number(values.draws);
// the verdict's α per cell: the family's 5% over every judged cell × metric of the shipped design
const alpha = alphaPerCell(0.95, Number(values.comparisons));
const random = rng(Number(values.seed));
const picks = Array.from({ length: draws }, () => drawBlocks(blocks, k, random));
const keys = [
  ...new Map(
    result.cells.map((c) => [
      `${c.workload}\u0000${c.threads}`,
      { workload: c.workload, threads: c.threads },
    ]),
  ).values(),
];
const metrics = (values.metrics as string).split(",");
const counts = new Map<string, { own: number; run: number }>();
const rule = { better: "lower" as const, tolerance: 0.02 };
for (const pick of picks) {
  const sub = { ...result, cells: result.cells.filter((c) => pick.has(c.block ?? 1)) };
  // the run's background over the drawn blocks' servers, taken once a draw
  const ways = [
    ["own", sub],
    ["run", withPooledBackground(sub)],
  ] as const;
  for (const key of keys)
    for (const metric of metrics)
      for (const [name, r] of ways) {
        const j = judgeCell(key, metric, rule, pairedSamples(r, "base", "head", key, metric), alpha, true);
        const id = `${key.workload} threads=${key.threads}\u0000${metric}`;
        const n = counts.get(id) ?? { own: 0, run: 0 };
        if (j.ci && (j.ci[0] > 0 || j.ci[1] < 0)) n[name]++;
        counts.set(id, n);
      }
}
const rows = [...counts.entries()].map(([id, n]) => {
  const [cell, metric] = id.split("\u0000") as [string, string];
  console.log(
    `${cell} ${metric}: interval left out 0 in ${n.own} of ${draws} draws of ${k} blocks with each server's own background, ${n.run} with the run's`,
  );
  return {
    cell,
    metric,
    own_background: { count: n.own, wilson95: wilson(n.own, draws) },
    run_background: { count: n.run, wilson95: wilson(n.run, draws) },
  };
});
if (values.out)
  writeFileSync(
    values.out,
    `${JSON.stringify({ format: "tiperf.background-bench", date: new Date().toISOString().slice(0, 10), result: values.result, blocks: blocks.length, of_blocks: k, draws, alpha_per_cell: alpha, rows }, null, 2)}\n`,
  );
