// Detection benchmark with slowdowns of known size, in real runs. The load keeps the MariaDB server
// CPU-bound under a CPU quota (8 client threads against 40% of one CPU), so a quota cut binds; the
// true effect of each cut on throughput is measured first by reference runs of its own
// (scripts/quota-reference.ts: two servers under the same load at the same time, quotas swapped
// every few seconds, which cancels the machine's drift and the instances' gap), on several fresh
// instance pairs, with a t interval over the pairs. Then real tiperf
// compares — A/A and one per cut, in turns — are judged four ways on the same samples: tiperf with
// blocks (the spec's verdict), tiperf's round-level interval without blocks, the single-run 5%
// rule and github-action-benchmark's 200% rule (both on the first round). Writes bench/detection/detection.md
// and bench/detection/detection.json (or --out PREFIX).
//
//   npm run bench:detection -- [--trials 3] [--cuts 3,5,10] [--blocks 24] [--rounds-per-block 2]
//       [--tolerance 2] [--quota 40] [--threads 8] [--reference-pairs 4] [--reference-seconds 60]
//       [--order interleaved|duet] [--swap 1] [--out bench/detection/detection]
// --order duet: both variants at once, each server with its sysbench pinned to a CPU of its own, the
// CPUs swapped every --swap seconds (--duration a multiple of 2 × --swap).
// --reference-pairs 0 runs the trials only (their cuts' effects measured by an earlier run).
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { compareSpec } from "../action/src/commands/compare/index.ts";
import { judgeShift } from "../action/src/compare/judge.ts";
import { pairedSamples } from "../action/src/compare/samples.ts";
import { mean, pairedLogShift } from "../action/src/compare/stats.ts";
import { installSignalTeardown, teardownAll } from "../action/src/lifecycle/teardown.ts";
import { hostFacts } from "../action/src/result/host.ts";
import { readResult } from "../action/src/result/store.ts";
import { parseSpec } from "../action/src/specfile/load.ts";
import type { LocalTargetSpec } from "../action/src/targets/local/schema.ts";
import { BENCH_DATA, benchSpec, meanInterval, pct, wilson } from "./bench-common.ts";
import { quotaReference, type Reference } from "./quota-reference.ts";

const { values } = parseArgs({
  options: {
    trials: { type: "string", default: "3" },
    cuts: { type: "string", default: "3,5,10" },
    blocks: { type: "string", default: "24" },
    "rounds-per-block": { type: "string", default: "2" },
    tolerance: { type: "string", default: "2" },
    quota: { type: "string", default: "40" },
    threads: { type: "string", default: "8" },
    duration: { type: "string", default: "1" },
    "reference-pairs": { type: "string", default: "4" },
    "reference-seconds": { type: "string", default: "60" },
    order: { type: "string", default: "interleaved" },
    swap: { type: "string", default: "1" },
    out: { type: "string", default: "bench/detection/detection" },
  },
});
const trials = Number(values.trials);
const cuts = String(values.cuts).split(",").map(Number);
const blocks = Number(values.blocks);
const rounds = blocks * Number(values["rounds-per-block"]);
const tolerance = Number(values.tolerance) / 100;
const quota = Number(values.quota);
const threads = Number(values.threads);
const log = (l: string) => process.stderr.write(`${l}\n`);
const abort = new AbortController();
installSignalTeardown(abort, log);

const headQuota = (cut: number) => Math.round(quota * (1 - cut / 100) * 100) / 100;
const specText = (cut: number) =>
  benchSpec({
    name: "detection",
    threads,
    cellSeconds: Number(values.duration),
    tolerance: Number(values.tolerance),
    variants: `  base: {target: {resources: {cpu_quota: "${quota}%"}}}\n  head: {target: {resources: {cpu_quota: "${headQuota(cut)}%"}}}`,
    compare: `rounds: ${rounds}, blocks: ${blocks}, warmup_rounds: 1, order: ${values.order}, ${values.order === "duet" ? `swap: ${values.swap}s, ` : ""}confirm: 0`,
    unpinned: values.order === "duet",
  });

interface Trial {
  cut: number;
  /** tiperf's verdict with blocks (the spec as written). */
  verdict: string;
  change: number | null;
  ci: [number, number] | null;
  between_share: number | null;
  /** The same rounds judged as one sample of pairs, ignoring blocks. */
  noBlocks: string;
  noBlocksCi: [number, number] | null;
  naive5: boolean;
  gab200: boolean;
  minutes: number;
  wallMinutes: number;
}

const referencePairs = Number(values["reference-pairs"]);

interface Combined {
  cut: number;
  /** exp(mean of the pairs' log effects) − 1, with a t interval over the instance pairs. */
  effect: number;
  ci: [number, number];
  pairs: Reference[];
}

/** One estimate per instance pair; the interval is over pairs, so it includes how instances differ. */
function combine(cut: number, pairs: Reference[]): Combined {
  const logs = pairs.map((p) => p.logEffect);
  const { mean: m, half } = meanInterval(logs);
  return { cut: cut / 100, effect: Math.expm1(m), ci: [Math.expm1(m - half), Math.expm1(m + half)], pairs };
}

const outDir = join(tmpdir(), `tiperf-bench-detection-${process.pid}`);
const references: Combined[] = [];
const out: Trial[] = [];
const started = Date.now();
try {
  const loaded = parseSpec(specText(0), "detection.yaml");
  const target = loaded.spec.target as LocalTargetSpec;
  for (const cut of cuts) {
    const pairs: Reference[] = [];
    for (let p = 0; p < referencePairs; p++) {
      const ref = await quotaReference({
        target: { ...target, resources: { ...target.resources, cpu_quota: quota / 100 } },
        quota: quota / 100,
        cut: cut / 100,
        threads,
        data: BENCH_DATA,
        driverCpus: "1",
        seconds: Number(values["reference-seconds"]),
        phaseS: 5,
        logDir: join(outDir, `reference-${cut}-${p + 1}`),
        log: () => {},
        signal: abort.signal,
      });
      pairs.push(ref);
      log(
        `reference ${p + 1}/${referencePairs}: quota ${quota}% → ${headQuota(cut)}% (cut ${cut}%): throughput ${pct(ref.effect)} [${pct(ref.ci[0])}, ${pct(ref.ci[1])}] over ${ref.pairs} phase pairs, ${ref.seconds} s`,
      );
    }
    if (pairs.length === 0) continue; // --reference-pairs 0: trials only (the effect from an earlier run)
    const combined = combine(cut, pairs);
    references.push(combined);
    log(
      `reference: cut ${cut}%: ${pct(combined.effect)} [${pct(combined.ci[0])}, ${pct(combined.ci[1])}] over ${pairs.length} instance pairs`,
    );
  }
  for (let t = 0; t < trials; t++) {
    // Conditions take turns within each trial, so slow drift of the machine spreads over all of them.
    for (const cut of [0, ...cuts]) {
      const at = Date.now();
      const r = await compareSpec(parseSpec(specText(cut), `detection-${cut}.yaml`), {
        outDir,
        log: () => {},
        signal: abort.signal,
      });
      const cell = r.verdict.cells[0];
      const result = await readResult(r.verdict.base.result);
      const key = { workload: "point_select", threads };
      const pairs = pairedSamples(result, "base", "head", key, "tps");
      const flat = judgeShift(
        { ...key, metric: "tps" },
        { better: "higher", tolerance },
        pairedLogShift(pairs.base, pairs.head),
        { base: 1, head: 1 },
        0.05,
        "paired-t",
      );
      const [b1, h1] = [pairs.base[0] ?? Number.NaN, pairs.head[0] ?? Number.NaN];
      const trial: Trial = {
        cut,
        verdict: cell?.verdict ?? "none",
        change: cell?.change ?? null,
        ci: cell?.ci ?? null,
        between_share: cell?.between_share ?? null,
        noBlocks: flat.verdict,
        noBlocksCi: flat.ci,
        naive5: h1 < b1 * 0.95,
        gab200: b1 / h1 >= 2,
        minutes: r.verdict.benchmark_seconds / 60,
        wallMinutes: (Date.now() - at) / 60_000,
      };
      out.push(trial);
      log(
        `trial ${t + 1}/${trials} cut ${cut}%: ${trial.verdict} ${pct(trial.change ?? Number.NaN)} [${trial.ci?.map(pct).join(", ")}] between ${trial.between_share?.toFixed(2)}; no blocks ${trial.noBlocks} [${trial.noBlocksCi?.map(pct).join(", ")}]; ${trial.minutes.toFixed(1)} benchmark min, ${trial.wallMinutes.toFixed(1)} wall`,
      );
    }
  }
} finally {
  await teardownAll(log);
  rmSync(outDir, { recursive: true, force: true });
}

const host = await hostFacts();
const date = new Date().toISOString().slice(0, 10);
const count = (ts: Trial[], f: (x: Trial) => boolean) => {
  const k = ts.filter(f).length;
  const [lo, hi] = wilson(k, ts.length);
  return `${k}/${ts.length} [${pct(lo, 0)}, ${pct(hi, 0)}]`;
};
const lines = [
  `Detection benchmark with slowdowns of known size, ${date}, ${host.cpu_model}, ${host.cores} cores, ${(host.memory_bytes / 2 ** 30).toFixed(0)} GiB, ${host.os}; ${((Date.now() - started) / 60_000).toFixed(0)} minutes in all.`,
  `Local MariaDB kept CPU-bound: oltp_point_select with ${threads} threads against a server limited to ${quota}% of ${values.order === "duet" ? `a CPU (duet: both variants at once, each server with its sysbench pinned to a CPU of its own, the CPUs swapped every ${values.swap} s)` : "CPU 0 (sysbench on CPU 1)"}, ${values.duration} s cells. A slowdown is a cut of head's CPU quota; its true effect on throughput comes from reference runs per cut (two servers under load at once, quotas swapped every 5 s; ${referencePairs > 0 ? `${referencePairs} fresh instance pairs × ${values["reference-seconds"]} s, t interval over the pairs` : "not in this run: see bench/detection/detection.md"}). tiperf: ${blocks} blocks × ${values["rounds-per-block"]} rounds, every server restarted before each block, tolerance ${values.tolerance}%, 95% confidence. The same rounds are also judged without blocks (one sample of pairs), and round 1 alone by the single-run 5% rule and github-action-benchmark's 200% rule. Counts with 95% Wilson intervals.`,
  "",
  "| head's CPU quota | true effect on throughput (reference) | trials | tiperf with blocks: regression | without blocks: regression | mean measured change | single run, 5%: alarm | github-action-benchmark 200%: alarm | benchmark minutes per verdict |",
  "|---|---|---:|---|---|---:|---|---|---:|",
];
for (const cut of [0, ...cuts]) {
  const ts = out.filter((x) => x.cut === cut);
  if (ts.length === 0) continue;
  const ref = references.find((r) => r.cut === cut / 100);
  lines.push(
    `| ${cut === 0 ? `${quota}% (A/A)` : `${headQuota(cut)}% (−${cut}%)`} | ${ref ? `${pct(ref.effect)} [${pct(ref.ci[0])}, ${pct(ref.ci[1])}]` : cut === 0 ? "0 (identical)" : "not measured in this run"} | ${ts.length} | ${count(ts, (x) => x.verdict === "regression")} | ${count(ts, (x) => x.noBlocks === "regression")} | ${pct(mean(ts.map((x) => x.change ?? 0)))} | ${count(ts, (x) => x.naive5)} | ${count(ts, (x) => x.gab200)} | ${mean(ts.map((x) => x.minutes)).toFixed(1)} |`,
  );
}
const prefix = String(values.out);
mkdirSync(dirname(prefix), { recursive: true });
writeFileSync(`${prefix}.md`, `${lines.join("\n")}\n`);
writeFileSync(
  `${prefix}.json`,
  `${JSON.stringify({ date, host, args: values, spec: specText(cuts[0] ?? 0), references, trials: out }, null, 1)}\n`,
);
process.stdout.write(`${lines.join("\n")}\n`);
