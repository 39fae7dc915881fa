// A/A banks of the cost metrics beside throughput: one `tiperf compare` of two identical variants
// (a private MariaDB by default, or --spec FILE's target), many rounds, optionally beside a CPU hog
// this script starts (a busy loop on one CPU) and stops. For every metric the cells carry (tps and
// the cost metrics: cpu_ms_per_op, handler_reads_per_op …) it writes, over the same rounds:
//   - the round-to-round spread: the standard deviation of log(head/base) of one round;
//   - false alarms at a tolerance: the A/A rounds cut into consecutive pseudo-comparisons of
//     --design rounds, each judged as compare judges a cell (paired t, the spec's confidence over
//     --family judgements), and the share flagged (regression or improvement).
//
//   - with --resample N (a bank of many blocks): false alarms of a design of --design-blocks blocks
//     judged as compare judges a cell of blocks (the instances the unit), N draws of distinct
//     blocks of the bank; a flagged draw is confirmed on as many other blocks (compare.confirm's
//     fresh instances), and the rate of alarms that survive it is given too.
//
//   npm run bench:cost -- [--order interleaved|duet] [--rounds 60] [--blocks N] [--duration 4] [--threads 4]
//                         [--script oltp_read_only] [--hog] [--spec FILE] [--design 6]
//                         [--family 4] [--tolerance tps=5,cpu_ms_per_op=3] [--out bench/cost/cost-aa.json]
//                         [--from-result RESULT] [--resample 4000 --design-blocks 6] [--inject 10]
// --inject P: head's every value made P% worse (throughput down, cost up) before judging: the
// positive control of a resample (a bank that flags nothing must still flag a known change).
import { spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { parse, stringify } from "yaml";
import { compareSpec } from "../action/src/commands/compare/index.ts";
import { noiseOf } from "../action/src/compare/noise.ts";
import { judgeCell } from "../action/src/compare/samples.ts";
import { rng, stddev } from "../action/src/compare/stats.ts";
import { installSignalTeardown, teardownAll } from "../action/src/lifecycle/teardown.ts";
import { hostFacts } from "../action/src/result/host.ts";
import type { Result } from "../action/src/result/model.ts";
import { readResult } from "../action/src/result/store.ts";
import { parseSpec } from "../action/src/specfile/load.ts";
import { pct, wilson } from "./bench-common.ts";

const { values } = parseArgs({
  options: {
    order: { type: "string", default: "interleaved" },
    rounds: { type: "string", default: "60" },
    blocks: { type: "string" },
    duration: { type: "string", default: "4" },
    threads: { type: "string", default: "4" },
    script: { type: "string", default: "oltp_read_only" },
    hog: { type: "boolean", default: false },
    spec: { type: "string" },
    design: { type: "string", default: "6" },
    family: { type: "string", default: "4" },
    tolerance: { type: "string", default: "tps=5,cpu_ms_per_op=3" },
    "from-result": { type: "string" },
    resample: { type: "string" },
    inject: { type: "string" },
    "design-blocks": { type: "string", default: "6" },
    out: { type: "string", default: "bench/cost/cost-aa.json" },
  },
});
const log = (l: string) => process.stderr.write(`${l}\n`);
const abort = new AbortController();
installSignalTeardown(abort, log);

const rounds = Number(values.rounds);
const duet = values.order === "duet";
// a duet cell lasts whole swap cycles (2 pairs × 1 s)
const compareKeys = `{rounds: ${rounds}, ${values.blocks ? `blocks: ${values.blocks}, ` : ""}warmup_rounds: 1, order: ${values.order}, ${duet ? "swap: 1s, " : ""}confirm: 0, profiles: 0, seed: 20261128}`;

function aaSpec(): string {
  if (values.spec) {
    const raw = parse(readFileSync(values.spec, "utf8")) as Record<string, unknown>;
    raw.variants = { base: {}, head: {} };
    raw.compare = parse(compareKeys);
    return stringify(raw);
  }
  return `name: cost-aa
target: {kind: mariadb, config: {innodb_buffer_pool_size: 128M}}
data: {tables: 2, table_size: 10000}
workloads:
  - {name: ${values.script}, sysbench: ${values.script}, threads: [${values.threads}], duration: ${values.duration}s, warmup: 1s, options: {rand-type: uniform}}
metrics:
  tps: {tolerance: 5%}
  cpu_ms_per_op: {tolerance: 3%}
variants: {base: {}, head: {}}
compare: ${compareKeys}
`;
}

/** A busy loop on one CPU for the whole bank (the machine another job shares with the check). */
function startHog() {
  const hog = spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" });
  return () => hog.kill("SIGKILL");
}

/** Per metric of one cell (workload × threads): each measured round's base and head values. */
function pairsOf(
  result: Result,
  first: { workload: string; threads: number },
): Record<string, [number, number, number][]> {
  const out: Record<string, [number, number, number][]> = {};
  const at = (round: number, variant: string) =>
    result.cells.find(
      (c) =>
        c.round === round &&
        c.variant === variant &&
        c.status === "ok" &&
        c.workload === first.workload &&
        c.threads === first.threads,
    );
  const last = Math.max(...result.cells.map((c) => c.round));
  for (let r = 1; r <= last; r++) {
    const b = at(r, "base");
    const h = at(r, "head");
    if (!b || !h) continue;
    for (const [m, v] of Object.entries(b.metrics)) {
      const hv = h.metrics[m]?.value;
      if (hv === undefined || !(v.value > 0) || !(hv > 0)) continue;
      out[m] = [...(out[m] ?? []), [v.value, hv, b.block ?? 1]];
    }
  }
  return out;
}

const tolerances = Object.fromEntries(
  (values.tolerance as string).split(",").map((kv) => {
    const [k, v] = kv.split("=");
    return [k as string, Number(v) / 100];
  }),
);

/** What a bank of pairs says of one metric: its spread and false alarms of the design at each tolerance. */
function summarize(metric: string, pairs: [number, number, number][], better: "higher" | "lower") {
  const logs = pairs.map(([b, h]) => Math.log(h / b));
  // compare.noise's two parts (compare/noise.ts)
  const parts = noiseOf(pairs);
  const within = parts?.rounds ?? Number.NaN;
  const instances = parts && new Set(pairs.map((p) => p[2])).size > 2 ? parts.instances : Number.NaN;
  const blockCount = new Set(pairs.map((p) => p[2])).size;
  const sideSd = (i: 0 | 1) => stddev(pairs.map((p) => Math.log(p[i])));
  const design = Number(values.design);
  const alpha = 0.05 / Number(values.family);
  const tols = [
    ...new Set([tolerances[metric], 0.01, 0.02, 0.03, 0.05].filter((t) => t !== undefined)),
  ].sort();
  const alarms: Record<string, { flagged: number; of: number; wilson95: [number, number] }> = {};
  for (const t of tols as number[]) {
    let flagged = 0;
    let of = 0;
    for (let s = 0; s + design <= pairs.length; s += design) {
      const part = pairs.slice(s, s + design);
      const j = judgeCell(
        { workload: "aa", threads: 0 },
        metric,
        { better, tolerance: t },
        { base: part.map((p) => p[0]), head: part.map((p) => p[1]) },
        alpha,
        true,
      );
      of++;
      if (j.verdict === "regression" || j.verdict === "improvement") flagged++;
    }
    alarms[pct(t, 0)] = { flagged, of, wilson95: wilson(flagged, Math.max(1, of)) };
  }
  const resampled = values.resample
    ? resampledAlarms(metric, pairs, better, tols as number[], alpha)
    : undefined;
  return {
    metric,
    rounds: pairs.length,
    /** SD of log(head/base) of one round: the noise a paired comparison sees. */
    pair_sd: Number(stddev(logs).toFixed(5)),
    /** compare.noise: sd within an instance pair (rounds) and of a pair's steady gap (instances). */
    ...(Number.isFinite(within) ? { rounds_sd: Number(within.toFixed(5)) } : {}),
    ...(Number.isFinite(instances) ? { instances_sd: Number(instances.toFixed(5)), blocks: blockCount } : {}),
    /** SD of log(value) over the rounds, per side: how much the metric itself wanders. */
    side_sd: [Number(sideSd(0).toFixed(5)), Number(sideSd(1).toFixed(5))],
    mean_log_ratio: Number((logs.reduce((s, x) => s + x, 0) / Math.max(1, logs.length)).toFixed(5)),
    false_alarms: alarms,
    ...(resampled ? { resampled_false_alarms: resampled } : {}),
  };
}

/**
 * False alarms of a design of --design-blocks blocks, by drawing distinct blocks of the bank
 * (--resample draws, seeded): judged with the blocks as the unit, as compare judges; a flagged draw
 * is judged again on as many other blocks, as compare.confirm does on fresh instances.
 */
function resampledAlarms(
  metric: string,
  pairs: [number, number, number][],
  better: "higher" | "lower",
  tols: number[],
  alpha: number,
) {
  const ids = [...new Set(pairs.map((p) => p[2]))];
  const size = Number(values["design-blocks"]);
  if (ids.length < 2 * size) return undefined;
  const trials = Number(values.resample);
  // each block's pairs, grouped once (a draw then takes its blocks' pairs, not a filter of the bank)
  const pairsOf = new Map<number, [number, number, number][]>();
  for (const p of pairs) pairsOf.set(p[2], [...(pairsOf.get(p[2]) ?? []), p]);
  const judge = (blocks: number[], t: number) => {
    const part = blocks.flatMap((b) => pairsOf.get(b) ?? []);
    return judgeCell(
      { workload: "aa", threads: 0 },
      metric,
      { better, tolerance: t },
      { base: part.map((p) => p[0]), head: part.map((p) => p[1]), blocks: part.map((p) => p[2]) },
      alpha,
      true,
    ).verdict;
  };
  const out: Record<string, { flagged: number; confirmed: number; of: number; wilson95: [number, number] }> =
    {};
  for (const t of tols) {
    const draw = rng(20261128);
    let flagged = 0;
    let confirmed = 0;
    for (let i = 0; i < trials; i++) {
      const order = [...ids];
      for (let k = order.length - 1; k > 0; k--) {
        const j = Math.floor(draw() * (k + 1));
        [order[k], order[j]] = [order[j] as number, order[k] as number];
      }
      const first = judge(order.slice(0, size), t);
      if (first !== "regression" && first !== "improvement") continue;
      flagged++;
      if (judge(order.slice(size, 2 * size), t) === first) confirmed++;
    }
    out[pct(t, 0)] = { flagged, confirmed, of: trials, wilson95: wilson(flagged, trials) };
  }
  return {
    design_blocks: size,
    bank_blocks: ids.length,
    alpha: Number(alpha.toPrecision(3)),
    by_tolerance: out,
  };
}

const started = Date.now();
const out = join(tmpdir(), `tiperf-cost-bank-${process.pid}`);
const stopHog = values.hog ? startHog() : undefined;
let result: Result;
let spec = "";
try {
  if (values["from-result"]) result = await readResult(values["from-result"]);
  else {
    spec = aaSpec();
    const loaded = parseSpec(spec, "cost-aa.yaml");
    const outcome = await compareSpec(loaded, { outDir: out, log, signal: abort.signal });
    result = await readResult(outcome.resultPath);
  }
} finally {
  stopHog?.();
  await teardownAll(log);
}
// the comparison's result.json is kept beside the bank (its rounds can be summarized again)
if (!values["from-result"])
  writeFileSync((values.out as string).replace(/\.json$/, "-result.json"), `${JSON.stringify(result)}\n`);
rmSync(out, { recursive: true, force: true });
const cellKeys = [
  ...new Map(result.cells.filter((c) => c.round > 0).map((c) => [`${c.workload} ${c.threads}`, c])).values(),
];
const inject = Number(values.inject ?? 0) / 100;
/** Head's values made `inject` worse in the metric's direction (the known change of --inject). */
const worse = (ps: [number, number, number][], better: "higher" | "lower") =>
  inject
    ? ps.map(([b, h, k]): [number, number, number] => [
        b,
        h * (better === "higher" ? 1 - inject : 1 + inject),
        k,
      ])
    : ps;
const cells = cellKeys.map((cell) => ({
  workload: `${cell.workload} threads=${cell.threads} ${cell.duration_s}s`,
  metrics: Object.entries(pairsOf(result, cell)).map(([m, ps]) => {
    const better = cell.metrics[m]?.better ?? "higher";
    return summarize(m, worse(ps, better), better);
  }),
}));
writeFileSync(
  values.out as string,
  `${JSON.stringify(
    {
      format: "tiperf.cost-bank",
      date: new Date().toISOString().slice(0, 10),
      host: await hostFacts(),
      spec: spec || result.spec.body,
      minutes: Math.round((Date.now() - started) / 600) / 100,
      target: result.targets[0]?.kind,
      order: values.order,
      hog: values.hog,
      ...(inject ? { injected_pct: inject * 100 } : {}),
      design_rounds: Number(values.design),
      family: Number(values.family),
      cells,
    },
    null,
    1,
  )}\n`,
);
for (const { workload, metrics } of cells)
  for (const m of metrics)
    log(
      `${workload.padEnd(30)} ${m.metric.padEnd(22)} pair sd ${pct(m.pair_sd, 2).padStart(7)}${m.rounds_sd !== undefined ? ` (rounds ${pct(m.rounds_sd, 2)}, instances ${m.instances_sd !== undefined ? pct(m.instances_sd, 2) : "–"})` : ""}  side sd ${pct(m.side_sd[0] as number, 2)} / ${pct(m.side_sd[1] as number, 2)}  false alarms ${Object.entries(
        m.false_alarms,
      )
        .map(([t, a]) => `±${t} ${a.flagged}/${a.of}`)
        .join(", ")}${
        m.resampled_false_alarms
          ? `; resampled ${m.resampled_false_alarms.design_blocks} of ${m.resampled_false_alarms.bank_blocks} blocks: ${Object.entries(
              m.resampled_false_alarms.by_tolerance,
            )
              .map(([t, a]) => `±${t} ${a.flagged}/${a.of} (${a.confirmed} confirmed)`)
              .join(", ")}`
          : ""
      }`,
    );
log(`→ ${values.out}`);
