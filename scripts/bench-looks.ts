// compare.looks on real A/A banks: draws of distinct blocks (server instance pairs) of a stored A/A
// comparison's result, judged as compare judges a cell of blocks — the design's blocks first, then,
// while the judgement is undecided, as many further blocks per look (each look at its share of the
// error rate, compare/looks.ts) — and the share of draws that flag a change (false alarms), with
// head's values made P% worse (--inject) the share caught as a regression (power), with the looks
// each took. Writes OUT.json and OUT.md.
//
//   npm run bench:looks -- --from-result R1.json [--from-result R2.json …] [--metrics tps,mallocs_per_op]
//                          [--tolerance tps=2,mallocs_per_op=1] [--design-blocks 6] [--looks 2]
//                          [--family 42] [--trials 4000] [--inject 1.5] [--out bench/looks/looks]
//                          [--derive tiny_allocs_per_op=tidb:go_gc_heap_tiny_allocs_objects_total]
//
// --derive NAME=COUNTER: a metric per operation from a server counter each cell recorded (its
// window's growth less the idle servers' rate over the window, ÷ the operations), lower is better —
// a counter the bank's spec did not judge.
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { lookShares } from "../action/src/compare/looks.ts";
import { judgeCell, pairedSamples } from "../action/src/compare/samples.ts";
import { rng } from "../action/src/compare/stats.ts";
import type { Result } from "../action/src/result/model.ts";
import { readResult } from "../action/src/result/store.ts";
import { pct, wilson } from "./bench-common.ts";

const { values } = parseArgs({
  options: {
    "from-result": { type: "string", multiple: true },
    metrics: { type: "string", default: "tps,alloc_kb_per_op,mallocs_per_op" },
    tolerance: { type: "string", default: "tps=2,alloc_kb_per_op=1,mallocs_per_op=1" },
    "design-blocks": { type: "string", default: "6" },
    looks: { type: "string", default: "2" },
    family: { type: "string", default: "42" },
    confidence: { type: "string", default: "0.95" },
    trials: { type: "string", default: "4000" },
    inject: { type: "string", default: "0" },
    out: { type: "string", default: "bench/looks/looks" },
    derive: { type: "string", multiple: true },
  },
});

type Pair = [number, number, number];
const LOWER = /_per_op$|_ms$/;
const size = Number(values["design-blocks"]);
const maxLooks = Number(values.looks);
const inject = Number(values.inject) / 100;
const trials = Number(values.trials);
const shares = lookShares(1, maxLooks);
const perLook = (1 - Number(values.confidence)) / Number(values.family);
const tolerances = Object.fromEntries(
  (values.tolerance as string)
    .split(",")
    .map((kv) => [kv.split("=")[0] as string, Number(kv.split("=")[1]) / 100]),
);

/** Each cell's pairs of one metric (base, head, block), by round, as compare pairs them. */
function bankOf(result: Result, metric: string): Map<string, Pair[]> {
  const out = new Map<string, Pair[]>();
  const cells = new Map(
    result.cells.filter((c) => c.round > 0).map((c) => [`${c.workload} threads=${c.threads}`, c]),
  );
  for (const [key, c] of cells) {
    const s = pairedSamples(result, "base", "head", { workload: c.workload, threads: c.threads }, metric);
    if (s.base.length)
      out.set(
        key,
        s.base.map((v, i) => [v, s.head[i] as number, s.blocks?.[i] ?? 1]),
      );
  }
  return out;
}

/** Draws of `size` × looks distinct blocks: judged at each look until decided. */
function draws(pairs: Pair[], metric: string) {
  const better = LOWER.test(metric) ? "lower" : "higher";
  const tolerance = tolerances[metric] ?? 0.02;
  // head made `inject` worse: throughput down, a cost up
  const worse = better === "higher" ? 1 - inject : 1 + inject;
  const byBlock = new Map<number, Pair[]>();
  for (const [b, h, k] of pairs) byBlock.set(k, [...(byBlock.get(k) ?? []), [b, h * worse, k]]);
  const ids = [...byBlock.keys()];
  if (ids.length < size * maxLooks) return undefined;
  const draw = rng(20261206);
  const counts = {
    flagged: 0,
    regression: 0,
    undecided: 0,
    byLook: Array.from({ length: maxLooks }, () => 0),
  };
  for (let i = 0; i < trials; i++) {
    const order = [...ids];
    for (let k = order.length - 1; k > 0; k--) {
      const j = Math.floor(draw() * (k + 1));
      [order[k], order[j]] = [order[j] as number, order[k] as number];
    }
    let verdict = "inconclusive";
    for (let look = 1; look <= maxLooks && verdict === "inconclusive"; look++) {
      const part = order.slice(0, look * size).flatMap((b) => byBlock.get(b) ?? []);
      verdict = judgeCell(
        { workload: "aa", threads: 0 },
        metric,
        { better, tolerance },
        { base: part.map((p) => p[0]), head: part.map((p) => p[1]), blocks: part.map((p) => p[2]) },
        perLook * (shares[look - 1] as number),
        true,
      ).verdict;
      if (verdict !== "inconclusive") counts.byLook[look - 1] = (counts.byLook[look - 1] as number) + 1;
    }
    if (verdict === "regression" || verdict === "improvement") counts.flagged++;
    if (verdict === "regression") counts.regression++;
    if (verdict === "inconclusive") counts.undecided++;
  }
  return { tolerance, bank_blocks: ids.length, ...counts, wilson95: wilson(counts.flagged, trials) };
}

/** --derive: NAME per operation from COUNTER in each cell's cost (its window's growth, less the idle rate). */
function derive(result: Result, spec: string): void {
  const [name, counter] = spec.split("=") as [string, string];
  for (const c of result.cells) {
    const cost = c.cost;
    const grew = cost?.counters?.[counter];
    if (!cost || grew === undefined || !(cost.ops > 0)) continue;
    const idle = (cost.idle_per_s?.[counter] ?? 0) * cost.window_s;
    c.metrics[name] = { value: (grew - idle) / cost.ops, unit: "1/op", better: "lower" };
  }
}

const rows: Record<string, unknown>[] = [];
for (const file of values["from-result"] ?? []) {
  const result = await readResult(file);
  for (const spec of values.derive ?? []) derive(result, spec);
  for (const metric of (values.metrics as string).split(",")) {
    for (const [cell, pairs] of bankOf(result, metric)) {
      const d = draws(pairs, metric);
      if (d) rows.push({ bank: file, target: result.targets[0]?.kind, cell, metric, ...d });
    }
  }
}
const what = inject > 0 ? `head made ${pct(inject, 1)} worse` : "A/A";
const head = `# compare.looks on A/A banks: ${what}\n\n${trials} draws per cell and metric of ${size} distinct blocks, then ${size} more per look while undecided (up to ${maxLooks} looks), each look at its share of a ${Number(values.confidence) * 100}% family of ${values.family} judgements per look (α per cell: ${shares.map((s) => (perLook * s).toPrecision(2)).join(", ")}). Written by \`npm run bench:looks -- ${process.argv.slice(2).join(" ")}\` on ${new Date().toISOString().slice(0, 10)}.\n\n| bank | cell | metric | tolerance | ${inject > 0 ? "caught (regression)" : "flagged (false alarms)"} | 95% Wilson | decided at look 1, 2, … | undecided |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n`;
const lines = rows.map((r) => {
  const n = trials;
  const shown = inject > 0 ? (r.regression as number) : (r.flagged as number);
  const w = inject > 0 ? wilson(shown, n) : (r.wilson95 as [number, number]);
  return `| ${String(r.bank).split("/").pop()} (${r.target}, ${r.bank_blocks} blocks) | ${r.cell} | ${r.metric} | ±${Number(((r.tolerance as number) * 100).toFixed(2))}% | ${shown} of ${n} (${pct(shown / n, 2)}) | ${pct(w[0], 2)}–${pct(w[1], 2)} | ${(r.byLook as number[]).join(", ")} | ${r.undecided} |`;
});
writeFileSync(
  `${values.out}.json`,
  `${JSON.stringify({ trials, size, looks: maxLooks, inject, rows }, null, 2)}\n`,
);
writeFileSync(`${values.out}.md`, `${head}${lines.join("\n")}\n`);
process.stdout.write(`${head}${lines.join("\n")}\n`);
