// Detection benchmark: how often tiperf's verdict is right on real noise, against known, injected
// slowdowns (CPU quota on the database server), side by side with two simple rules applied to the
// same samples. Writes bench/detection.md and bench/detection.json (or --out PREFIX .md/.json).
//
//   npm run bench:detection -- [--trials N] [--max-rounds N] [--slowdowns 3,5,10]
//                              [--duration S] [--warmup S] [--out PREFIX]
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { pairedSamples } from "../action/src/compare/samples.ts";
import { stddev } from "../action/src/compare/stats.ts";
import { compareSpec } from "../action/src/pipeline/compare.ts";
import { hostFacts } from "../action/src/result/host.ts";
import { readResult } from "../action/src/result/store.ts";
import { parseSpec } from "../action/src/specfile/load.ts";
import { installSignalTeardown, teardownAll } from "../action/src/teardown.ts";

const { values } = parseArgs({
  options: {
    trials: { type: "string", default: "3" },
    rounds: { type: "string", default: "6" },
    "max-rounds": { type: "string", default: "24" },
    slowdowns: { type: "string", default: "3,5,10" },
    tolerance: { type: "string", default: "2" },
    // Seconds per cell and warmup seconds before it.
    duration: { type: "string", default: "3" },
    warmup: { type: "string", default: "1" },
    out: { type: "string", default: "bench/detection" },
  },
});
const trials = Number(values.trials);
const slowdowns = String(values.slowdowns).split(",").map(Number);
const conditions = [0, ...slowdowns];
const log = (l: string) => process.stderr.write(`${l}\n`);
const abort = new AbortController();
installSignalTeardown(abort, log);

const specText = (slowdown: number) => `name: detection
target: {kind: mariadb, config: {innodb_buffer_pool_size: 64M}, resources: {cpus: "0"}}
driver: {cpus: "1"}
data: {tables: 2, table_size: 2000}
workloads:
  - {name: point_select, sysbench: oltp_point_select, threads: [2], duration: ${values.duration}s, warmup: ${values.warmup}s, options: {rand-type: uniform}}
metrics:
  tps: {better: higher, tolerance: ${values.tolerance}%}
variants:
  base: {target: {resources: {cpu_quota: "100%"}}}
  head: {target: {resources: {cpu_quota: "${100 - slowdown}%"}}}
compare: {rounds: ${values.rounds}, max_rounds: ${values["max-rounds"]}, order: interleaved}
`;

interface Trial {
  slowdown: number;
  verdict: string;
  change: number | null;
  ci: [number, number] | null;
  rounds: number;
  minutes: number;
  naive5: boolean;
  gab200: boolean;
  singleMinutes: number;
  /** Standard deviation of log(head/base) over the judged rounds: the pair-to-pair noise. */
  spread: number;
}

/** Pair-to-pair noise: the standard deviation of log(head/base) over the judged rounds. */
function roundSpread(result: Awaited<ReturnType<typeof readResult>>): number {
  const { base, head } = pairedSamples(
    result,
    "base",
    "head",
    { workload: "point_select", threads: 2 },
    "tps",
  );
  return stddev(base.map((b, i) => Math.log((head[i] as number) / b)));
}

const out: Trial[] = [];
const outDir = join(tmpdir(), "tiperf-bench-detection");
try {
  for (let t = 0; t < trials; t++) {
    // Conditions take turns within each trial, so slow drift of the machine spreads over all of them.
    for (const slowdown of conditions) {
      const loaded = parseSpec(specText(slowdown), `detection-${slowdown}.yaml`);
      const r = await compareSpec(loaded, { outDir, log: () => {}, signal: abort.signal });
      const cell = r.verdict.cells[0];
      const result = await readResult(r.verdict.base.result);
      const first = (v: string) =>
        result.cells.find((c) => c.variant === v && c.round === 1)?.metrics.tps?.value ?? Number.NaN;
      const base1 = first("base");
      const head1 = first("head");
      const trial: Trial = {
        slowdown,
        verdict: cell?.verdict ?? "none",
        change: cell?.change ?? null,
        ci: cell?.ci ?? null,
        rounds: r.verdict.rounds,
        minutes: r.verdict.benchmark_seconds / 60,
        // Single run vs single run, as a PR check without repetition would do it.
        naive5: head1 < base1 * 0.95,
        // github-action-benchmark's default: alert when the new value is 200% worse (ratio ≥ 2).
        gab200: base1 / head1 >= 2,
        singleMinutes: r.verdict.benchmark_seconds / 60 / Math.max(1, r.verdict.rounds),
        spread: roundSpread(result),
      };
      out.push(trial);
      log(
        `trial ${t + 1}/${trials} slowdown ${slowdown}%: ${trial.verdict} change ${trial.change} ci ${JSON.stringify(trial.ci)} after ${trial.rounds} rounds (${trial.minutes.toFixed(1)} min)`,
      );
    }
  }
} finally {
  await teardownAll(log);
}

const rate = (xs: boolean[]) => `${xs.filter(Boolean).length}/${xs.length}`;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const host = await hostFacts();
const date = new Date().toISOString().slice(0, 10);
const lines = [
  `Detection benchmark, ${date}, ${host.cpu_model}, ${host.cores} cores (${cpus().length} seen), ${(host.memory_bytes / 2 ** 30).toFixed(0)} GiB, ${host.os}.`,
  `Local MariaDB, oltp_point_select, 2 threads, ${values.duration} s cells after ${values.warmup} s warmup, server pinned to CPU 0 and sysbench to CPU 1; head's CPU quota lowered by the injected slowdown. tiperf: interleaved, ${values.rounds}–${values["max-rounds"]} rounds with looks at doubling round counts, tolerance ${values.tolerance}%, 95% familywise confidence. The single-run rules see round 1 only.`,
  "",
  "| injected slowdown | trials | tiperf: regression | tiperf: inconclusive | tiperf: unchanged/improvement | mean measured change | tiperf minutes per verdict | single run, 5% threshold: alarm | github-action-benchmark 200%: alarm | single-run minutes | round-to-round spread |",
  "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
];
for (const s of conditions) {
  const ts = out.filter((x) => x.slowdown === s);
  lines.push(
    `| ${s === 0 ? "none (A/A)" : `${s}%`} | ${ts.length} | ${rate(ts.map((x) => x.verdict === "regression"))} | ${rate(ts.map((x) => x.verdict === "inconclusive"))} | ${rate(ts.map((x) => x.verdict === "unchanged" || x.verdict === "improvement"))} | ${(mean(ts.map((x) => x.change ?? 0)) * 100).toFixed(1)}% | ${mean(ts.map((x) => x.minutes)).toFixed(1)} | ${rate(ts.map((x) => x.naive5))} | ${rate(ts.map((x) => x.gab200))} | ${mean(ts.map((x) => x.singleMinutes)).toFixed(2)} | ${mean(ts.map((x) => x.spread)).toFixed(3)} |`,
  );
}
const prefix = String(values.out);
mkdirSync(dirname(prefix), { recursive: true });
writeFileSync(`${prefix}.md`, `${lines.join("\n")}\n`);
writeFileSync(`${prefix}.json`, `${JSON.stringify({ date, host, args: values, trials: out }, null, 2)}\n`);
process.stdout.write(`${lines.join("\n")}\n`);
