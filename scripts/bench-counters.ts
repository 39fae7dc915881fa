// What the counter list says on real comparisons, and how often it would list something by chance:
// for each result.json of a compare run (kept from a real run of tiperf compare), the counters that
// moved (compare/what-moved.ts) over all its blocks, then the same judged on draws of a subset of the
// blocks: how many draws listed anything (in an A/A, every listing is a false one), and, with
// --inject COUNTER=PCT, how many listed that counter after its head growth was raised by PCT (the
// power at that change). Per cell, the per-round noise (sd of log(head/base)) of the counters the
// shipped specs judge. And the verdict's own judgement of each cost metric the run's spec judges
// (mallocs_per_op …) on the same draws: how often its interval left out zero (in an A/A a false
// alarm, with --inject or a real change the power). Writes OUT.json and prints a summary.
//
//   npm run bench:counters -- --result RUN/result.json[.gz] [--result …] [--draws 1000] [--blocks 4]
//                             [--inject go_memstats_mallocs_total=1] [--out bench/counters/NAME]
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { gunzipSync } from "node:zlib";
import { judgeFamily, storedSpec } from "../action/src/compare/judge-results.ts";
import { mean, rng, stddev } from "../action/src/compare/stats.ts";
import { type CounterReport, whatMoved } from "../action/src/compare/what-moved.ts";
import { costMetric } from "../action/src/observe/cost.ts";
import { parseSelector, selects } from "../action/src/observe/server-counters.ts";
import type { Cell, Result } from "../action/src/result/model.ts";
import { drawBlocks, wilson } from "./bench-common.ts";

const { values } = parseArgs({
  options: {
    result: { type: "string", multiple: true, default: [] },
    draws: { type: "string", default: "1000" },
    blocks: { type: "string", default: "4" },
    inject: { type: "string" },
    seed: { type: "string", default: "1" },
    confidence: { type: "string", default: "0.95" },
    noise: { type: "string", default: "" },
    out: { type: "string" },
  },
});

const confidence = Number(values.confidence);
const inject = values.inject ? /^(.+)=(-?\d+(?:\.\d+)?)$/.exec(values.inject) : undefined;
if (values.inject && !inject) throw new Error(`--inject: COUNTER=PCT, got ${values.inject}`);
const injected = inject
  ? { selector: parseSelector(inject[1] as string), factor: 1 + Number(inject[2]) / 100 }
  : undefined;
if (inject && !injected?.selector) throw new Error(`--inject: ${inject[1]} is not a counter selector`);

const keysOf = (r: Result) => [
  ...new Map(
    r.cells.map((c) => [`${c.workload}\u0000${c.threads}`, { workload: c.workload, threads: c.threads }]),
  ).values(),
];

/** Head's growth of the injected counters raised by the factor (a known change per operation). */
function withInjection(r: Result): Result {
  if (!injected?.selector) return r;
  const sel = injected.selector;
  const cells = r.cells.map((c): Cell => {
    if (c.variant === "base" || !c.cost) return c;
    const counters = Object.fromEntries(
      Object.entries(c.cost.counters).map(([k, v]) => [k, selects(sel, k) ? v * injected.factor : v]),
    );
    return { ...c, cost: { ...c.cost, counters } };
  });
  return { ...r, cells };
}

/** The result with only the given blocks' rounds. */
const onlyBlocks = (r: Result, blocks: Set<number>): Result => ({
  ...r,
  cells: r.cells.filter((c) => blocks.has(c.block ?? 1)),
});

/** Per cell, the sd of log(head/base) per round of the named counters per operation. */
function noiseOf(r: Result, names: string[]) {
  const out: Record<string, Record<string, number>> = {};
  for (const key of keysOf(r)) {
    const of = (v: string) =>
      r.cells.filter(
        (c) =>
          c.variant === v &&
          c.workload === key.workload &&
          c.threads === key.threads &&
          c.round > 0 &&
          c.cost,
      );
    const heads = new Map(of("head").map((c) => [c.round, c]));
    for (const name of names) {
      const sel = parseSelector(name);
      if (!sel) continue;
      const logs: number[] = [];
      for (const b of of("base")) {
        const h = heads.get(b.round);
        if (!h?.cost || !b.cost) continue;
        const sum = (c: Cell) =>
          Object.entries(c.cost?.counters ?? {}).reduce((s, [k, v]) => s + (selects(sel, k) ? v : 0), 0) /
          (c.cost?.ops ?? 1);
        const [vb, vh] = [sum(b), sum(h)];
        if (vb > 0 && vh > 0) logs.push(Math.log(vh / vb));
      }
      if (logs.length < 3) continue;
      const cell = out[key.workload] ?? {};
      cell[name] = Math.round(stddev(logs) * 1e5) / 1e5;
      out[key.workload] = cell;
    }
  }
  return out;
}

/** The verdict's judgement of the spec's cost metrics (their interval left out zero, or not). */
function judgedCosts(r: Result, file: string, variants: string[]) {
  const spec = storedSpec(r, file);
  const costOnly = {
    ...spec,
    workloads: spec.workloads.map((w) => ({
      ...w,
      judge: Object.fromEntries(Object.entries(w.judge).filter(([m]) => costMetric(m))),
    })),
  };
  const judged = judgeFamily(r, costOnly as never, "base", variants, Number(values.confidence), 1);
  return judged.cells.map((c) => ({
    cell: `${c.workload} ${c.metric}`,
    moved: !!c.ci && (c.ci[0] > 0 || c.ci[1] < 0),
    verdict: c.verdict,
    change: c.change,
    ci: c.ci,
  }));
}

const summary = (r: CounterReport | undefined) =>
  r
    ? {
        tested: r.tested,
        moved: r.moved.map((c) => ({
          cell: c.workload,
          counter: c.counter,
          group: c.group,
          change: c.change,
          ci: c.ci,
        })),
        background: r.background.map((c) => ({
          cell: c.workload,
          counter: c.counter,
          change: c.change,
          only: c.only,
        })),
      }
    : undefined;

const out: unknown[] = [];
for (const file of values.result as string[]) {
  const raw = readFileSync(file);
  const text = file.endsWith(".gz") ? gunzipSync(raw).toString("utf8") : raw.toString("utf8");
  const result = withInjection(JSON.parse(text) as Result);
  const keys = keysOf(result);
  const variants = [...new Set(result.cells.map((c) => c.variant))].filter((v) => v !== "base");
  const all = whatMoved(result, "base", variants, keys, confidence);
  const blocks = [...new Set(result.cells.map((c) => c.block ?? 1))].sort((a, b) => a - b);
  const k = Math.min(Number(values.blocks), blocks.length);
  const draws = Number(values.draws);
  const random = rng(Number(values.seed));
  let listed = 0;
  let found = 0;
  const judgedAll = judgedCosts(result, file, variants);
  const caught = new Map<string, number>(judgedAll.map((j) => [j.cell, 0]));
  const flagged = new Map<string, number>(judgedAll.map((j) => [j.cell, 0]));
  const byCounter = new Map<string, number>();
  for (let d = 0; d < draws; d++) {
    const pick = drawBlocks(blocks, k, random);
    const r = whatMoved(onlyBlocks(result, pick), "base", variants, keys, confidence);
    for (const j of judgedCosts(onlyBlocks(result, pick), file, variants)) {
      if (j.moved) caught.set(j.cell, (caught.get(j.cell) ?? 0) + 1);
      if (j.verdict === "regression") flagged.set(j.cell, (flagged.get(j.cell) ?? 0) + 1);
    }
    const changes = [...(r?.moved ?? []), ...(r?.background ?? [])];
    if (changes.length) listed++;
    for (const c of changes)
      byCounter.set(`${c.workload} ${c.counter}`, (byCounter.get(`${c.workload} ${c.counter}`) ?? 0) + 1);
    const sel = injected?.selector;
    if (sel && r?.moved.some((c) => selects(sel, c.counter))) found++;
  }
  const names = (values.noise as string).split(",").filter(Boolean);
  const entry = {
    result: file,
    run_id: result.run_id,
    host: result.host,
    blocks: blocks.length,
    rounds: Math.max(...result.cells.map((c) => c.round)),
    counters_per_cell: Math.round(
      mean(result.cells.filter((c) => c.cost).map((c) => Object.keys(c.cost?.counters ?? {}).length)),
    ),
    ...(inject ? { injected: { counter: inject[1], percent: Number(inject[2]) } } : {}),
    all_blocks: summary(all),
    judged_all_blocks: judgedAll,
    draws: {
      of_blocks: k,
      draws,
      listed_anything: { count: listed, wilson95: wilson(listed, draws) },
      listed: Object.fromEntries([...byCounter.entries()].sort((x, y) => y[1] - x[1])),
      ...(inject ? { listed_the_injected: { count: found, wilson95: wilson(found, draws) } } : {}),
      judged_flagged: Object.fromEntries(
        [...flagged.entries()].map(([c, n]) => [c, { count: n, wilson95: wilson(n, draws) }]),
      ),
      judged_left_out_zero: Object.fromEntries(
        [...caught.entries()].map(([c, n]) => [c, { count: n, wilson95: wilson(n, draws) }]),
      ),
    },
    ...(names.length ? { noise_per_round: noiseOf(result, names) } : {}),
  };
  out.push(entry);
  console.log(
    `${file}: ${entry.counters_per_cell} counters a cell, ${all?.tested ?? 0} tested; all ${blocks.length} blocks: ${all?.moved.length ?? 0} moved per operation, ${all?.background.length ?? 0} per second; ${draws} draws of ${k} blocks: ${listed} listed anything${inject ? `, ${found} listed ${inject[1]} (+${inject[2]}%)` : ""}`,
  );
  for (const c of all?.moved.slice(0, 12) ?? [])
    console.log(
      `  ${c.workload}: ${c.counter} (${c.group}) ${c.only ? `only ${c.only}: ${c.base.toPrecision(4)} → ${c.head.toPrecision(4)}/op` : `${((c.change ?? 0) * 100).toFixed(2)}% [${c.ci?.map((x) => (x * 100).toFixed(2)).join(", ")}]`}`,
    );
  for (const c of all?.background.slice(0, 6) ?? [])
    console.log(
      `  per second: ${c.workload}: ${c.counter} ${c.only ? `only ${c.only}` : `${((c.change ?? 0) * 100).toFixed(2)}%`}`,
    );
  for (const [c, n] of [...byCounter.entries()].sort((x, y) => y[1] - x[1]).slice(0, 8))
    console.log(`  in ${n} draws: ${c}`);
  for (const j of judgedAll)
    console.log(
      `  judged ${j.cell}: ${j.verdict} ${j.change === null ? "" : `${(j.change * 100).toFixed(2)}% [${j.ci?.map((x) => (x * 100).toFixed(2)).join(", ")}]`}; interval left out 0 in ${caught.get(j.cell)} of ${draws} draws, flagged in ${flagged.get(j.cell)}`,
    );
  if (entry.noise_per_round) console.log(`  noise per round: ${JSON.stringify(entry.noise_per_round)}`);
}
if (values.out)
  writeFileSync(
    `${values.out}.json`,
    `${JSON.stringify({ format: "tiperf.counters-bench", date: new Date().toISOString().slice(0, 10), runs: out }, null, 2)}\n`,
  );
