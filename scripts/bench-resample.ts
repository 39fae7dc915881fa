// Detection benchmark at scale, by resampling a bank of real A/A rounds (scripts/bench-bank.ts):
// each trial draws rounds from the bank, multiplies head's values by (1 − δ) for an injected
// slowdown δ whose size is therefore known exactly, and judges them the ways compared here — tiperf
// with blocks (restarted instances as the unit), tiperf without blocks (the rounds of one pair of
// instances), the single-run 5% rule and github-action-benchmark's 200% rule — on the same draws.
// Writes bench/resample/resample.md and bench/resample/resample.json.
//
//   npm run bench:resample -- [--bank bench/aa-banks/aa-bank.json] [--trials 2000] [--tolerances 2,5]
//                             [--slowdowns 3,5,10] [--confidence 0.95] [--blocks 4,8,16,24,32,48]
//                             [--out bench/resample/resample]
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { judgeShift } from "../action/src/compare/judge.ts";
import { INTERVAL_BATCHES } from "../action/src/compare/samples.ts";
import {
  batchMeans,
  blockLogShift,
  type LogShift,
  mean,
  pairedLogShift,
  rng,
  welchLogShift,
} from "../action/src/compare/stats.ts";
import { pct, wilson } from "./bench-common.ts";

const { values } = parseArgs({
  options: {
    bank: { type: "string", default: "bench/aa-banks/aa-bank.json" },
    trials: { type: "string", default: "2000" },
    tolerances: { type: "string", default: "2,5" },
    slowdowns: { type: "string", default: "3,5,10" },
    seed: { type: "string", default: "1" },
    confidence: { type: "string", default: "0.95" },
    blocks: { type: "string", default: "4,8,16,24,32,48" },
    out: { type: "string", default: "bench/resample/resample" },
  },
});

interface Pair {
  base: number;
  head: number;
}
const bank = JSON.parse(readFileSync(values.bank as string, "utf8")) as {
  date: string;
  host: { cpu_model: string; cores: number; memory_bytes: number; os: string };
  minutes: number;
  cell_seconds: number;
  /** Absent in banks recorded before these fields: 2 threads, no quota. */
  threads?: number;
  cpu_quota_percent?: number;
  /** duet: both variants at once, pinned pairs swapping CPUs every swap_seconds (absent: interleaved). */
  order?: "interleaved" | "duet";
  /** The target kind (absent: mariadb). */
  target?: string;
  swap_seconds?: number;
  /** Banks kept from a comparison's result (bench:bank --from-result): the workload cell (absent: point_select). */
  workload?: string;
  /** Interleaved banks of a --spec: where its server and sysbench ran (absent: server on CPU 0, sysbench on CPU 1). */
  placement?: string;
  blocks: Pair[][];
};
const duet = bank.order === "duet";
const blocks = bank.blocks.filter((b) => b.length >= 2);
const perBlock = Math.min(...blocks.map((b) => b.length));
const trials = Number(values.trials);
const tolerances = String(values.tolerances)
  .split(",")
  .map((x) => Number(x) / 100);
const slowdowns = [
  0,
  ...String(values.slowdowns)
    .split(",")
    .map((x) => Number(x) / 100),
];
const random = rng(Number(values.seed));
const pick = (n: number) => Math.floor(random() * n);
/** k distinct indices of n, in random order. */
const distinct = (n: number, k: number) => {
  const all = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = pick(i + 1);
    [all[i], all[j]] = [all[j] as number, all[i] as number];
  }
  return all.slice(0, k);
};
/** `k` consecutive rounds of one block, from a random start. */
const run = (b: Pair[], k: number) => {
  const from = pick(b.length - k + 1);
  return b.slice(from, from + k);
};

// Minutes of benchmark per round and per block (restart + warmup round), from the bank's own time.
const bankRounds = blocks.reduce((s, b) => s + b.length, 0);
const minutesPerRound = bank.minutes / (bankRounds + blocks.length);
const threads = bank.threads ?? 2;
const workload = bank.workload ?? "point_select";
const id = { workload, threads, metric: "tps" };

interface Method {
  name: string;
  rounds: number;
  /** Blocks (fresh instance pairs) the rounds come from. */
  pairs: number;
  minutes: number;
  judge: (draw: () => Pair[][], tol: number, slow: number) => "regression" | "other";
}

const shifted = (p: Pair, slow: number): Pair => ({ base: p.base, head: p.head * (1 - slow) });
const alpha = 1 - Number(values.confidence);
const verdictOf = (shift: LogShift, tol: number) =>
  judgeShift(id, { better: "higher", tolerance: tol }, shift, { base: 1, head: 1 }, alpha, "paired-t")
    .verdict === "regression"
    ? "regression"
    : "other";

const methods: Method[] = [];
for (const b of String(values.blocks).split(",").map(Number)) {
  if (b > blocks.length) continue;
  methods.push({
    name: `tiperf${duet ? " duet" : ""}, ${b} blocks × 2 rounds (restarts)`,
    rounds: 2 * b,
    pairs: b,
    minutes: (2 * b + b) * minutesPerRound,
    judge: (draw, tol, slow) => {
      const parts = draw();
      return verdictOf(
        blockLogShift(parts.flatMap((p, i) => p.map((x) => ({ block: i, ...shifted(x, slow) })))),
        tol,
      );
    },
  });
}
methods.push({
  name: `tiperf${duet ? " duet" : ""}, no blocks: ${perBlock} rounds of one instance pair`,
  rounds: perBlock,
  pairs: 1,
  minutes: (perBlock + 1) * minutesPerRound,
  judge: (draw, tol, slow) => {
    const [p] = draw() as [Pair[]];
    const xs = p.map((x) => shifted(x, slow));
    return verdictOf(
      pairedLogShift(
        xs.map((x) => x.base),
        xs.map((x) => x.head),
      ),
      tol,
    );
  },
});
/** A rule that looks at one run of each side (round 1 of a draw). */
const singleRun = (name: string, alarm: (p: Pair) => boolean): Method => ({
  name,
  rounds: 1,
  pairs: 1,
  minutes: 2 * minutesPerRound,
  judge: (draw, _tol, slow) => {
    const [[x]] = draw() as [[Pair]];
    return alarm(shifted(x, slow)) ? "regression" : "other";
  },
});
methods.push(singleRun("single run, alarm below −5%", (p) => p.head / p.base - 1 < -0.05));
methods.push(singleRun("github-action-benchmark, alert at 200%", (p) => p.base / p.head >= 2));

// perf-weekly.yml's judgement: `tiperf diff` of this week's single run against the stored
// baseline — another server instance, another time — Welch on batch means of each run's
// one-second samples. Here a run is one instance's rounds of the bank (its base side for the
// baseline, another instance's head side for this week), batched as diff batches them.
methods.push({
  name: `tiperf weekly diff: one run (${perBlock} s) against a stored baseline of another instance`,
  rounds: perBlock,
  pairs: 2,
  minutes: perBlock * minutesPerRound,
  judge: (_draw, tol, slow) => {
    const [a, b] = distinct(blocks.length, 2).map((i) => blocks[i] as Pair[]) as [Pair[], Pair[]];
    const base = batchMeans(
      a.map((x) => x.base),
      INTERVAL_BATCHES,
    );
    const head = batchMeans(
      b.map((x) => x.head * (1 - slow)),
      INTERVAL_BATCHES,
    );
    return verdictOf(welchLogShift(base, head), tol);
  },
});

const rows: {
  method: string;
  tolerance: number;
  slowdown: number;
  alarms: number;
  trials: number;
  rate: number;
  ci: [number, number];
  rounds: number;
  minutes: number;
}[] = [];
for (const m of methods) {
  const tols = m.name.startsWith("tiperf") ? tolerances : [Number.NaN];
  for (const tol of tols)
    for (const slow of slowdowns) {
      let alarms = 0;
      for (let t = 0; t < trials; t++) {
        // the draw: which instance pairs and which of their rounds (the same kind of draw for every slowdown)
        const draw = () =>
          m.pairs === 1
            ? [run(blocks[pick(blocks.length)] as Pair[], m.rounds)]
            : distinct(blocks.length, m.pairs).map((i) => run(blocks[i] as Pair[], 2));
        if (m.judge(draw, tol, slow) === "regression") alarms++;
      }
      rows.push({
        method: m.name,
        tolerance: tol,
        slowdown: slow,
        alarms,
        trials,
        rate: alarms / trials,
        ci: wilson(alarms, trials),
        rounds: m.rounds,
        minutes: m.minutes,
      });
    }
}

// What the bank says about instances: the spread of block means against the spread within blocks.
const logs = blocks.map((b) => b.map((x) => Math.log(x.head / x.base)));
const share = blockLogShift(blocks.flatMap((b, i) => b.map((x) => ({ block: i, ...x })))).betweenShare;
const blockMeans = logs.map(mean);
const gib = (b: number) => `${(b / 2 ** 30).toFixed(0)} GiB`;
const lines = [
  `Detection by resampling a bank of real A/A rounds, ${bank.date}, ${bank.host.cpu_model}, ${bank.host.cores} cores, ${gib(bank.host.memory_bytes)}, ${bank.host.os}.`,
  `Bank: ${bankRounds} A/A rounds of ${bank.target === "tidb" ? "a private tidb-server (unistore)" : "local MariaDB"} (${workload}, ${threads} threads, ${bank.cell_seconds} s cells, ${duet ? `duet: both variants at once, each server with its sysbench pinned to a CPU of its own, the CPUs swapped every ${bank.swap_seconds} s` : (bank.placement?.split(", ")[0] ?? "server on CPU 0")}${bank.cpu_quota_percent ? ` under a ${bank.cpu_quota_percent}% CPU quota` : ""}${duet ? "" : `, ${bank.placement?.split(", ")[1] ?? "sysbench on CPU 1"}`}) in ${blocks.length} blocks of ${perBlock}, both servers restarted before every block; recorded in ${bank.minutes.toFixed(1)} minutes. Between-instance share of the round-to-round variance of log(head/base): ${pct(share)}; block means of the A/A log ratio ranged ${pct(Math.exp(Math.min(...blockMeans)) - 1)} to ${pct(Math.exp(Math.max(...blockMeans)) - 1)}.`,
  `Each trial draws instance pairs (blocks) and rounds from the bank and multiplies head's throughput by (1 − slowdown): the injected slowdown is exact; a regression is an interval at ${pct(1 - alpha, 0)} confidence wholly beyond the tolerance. ${trials} trials per row, 95% Wilson intervals; the trials reuse the bank's ${blocks.length} blocks, so the intervals describe the resampling, not a new machine.`,
  "",
  "| method | tolerance | slowdown | alarms | rate | 95% interval | rounds | minutes per verdict |",
  "|---|---:|---:|---:|---:|---|---:|---:|",
  ...rows.map(
    (r) =>
      `| ${r.method} | ${Number.isNaN(r.tolerance) ? "–" : pct(r.tolerance)} | ${r.slowdown === 0 ? "none (A/A)" : pct(r.slowdown)} | ${r.alarms}/${r.trials} | ${pct(r.rate)} | [${pct(r.ci[0])}, ${pct(r.ci[1])}] | ${r.rounds} | ${r.minutes.toFixed(1)} |`,
  ),
];
writeFileSync(`${values.out}.md`, `${lines.join("\n")}\n`);
writeFileSync(
  `${values.out}.json`,
  `${JSON.stringify({ bank: values.bank, date: new Date().toISOString().slice(0, 10), trials, between_share: share, rows }, null, 1)}\n`,
);
process.stdout.write(`${lines.join("\n")}\n`);
