// The true effect of a CPU quota cut on a CPU-bound server, measured apart from the noise that the
// detection benchmark judges (scripts/bench-detection.ts): two servers of one configuration run the
// same load at the same time, and their quotas swap every few seconds (q and q × (1 − cut)). Both
// servers see the machine's speed of the same moment, and each instance's own gap cancels because
// each holds each quota half of the time, so the throughput ratio between the two phases measures
// the cut's effect on throughput alone:
//   phase even: log(b/a) = effect + gap,  phase odd: log(b/a) = −effect + gap  ⇒  effect = (even − odd) / 2
import { spawn } from "node:child_process";
import { join } from "node:path";
import { mean } from "../action/src/compare/stats.ts";
import { connectionArgs } from "../action/src/drivers/sysbench/index.ts";
import { parseSysbench } from "../action/src/drivers/sysbench/parse.ts";
import { setCpuQuota } from "../action/src/targets/local/cgroup.ts";
import type { LocalTargetSpec as TargetSpec } from "../action/src/targets/local/schema.ts";
import { startTarget } from "../action/src/targets/registry.ts";
import { createDatabaseSql } from "../action/src/targets/tables.ts";
import type { Target } from "../action/src/targets/types.ts";
import { meanInterval } from "./bench-common.ts";

export interface ReferenceOptions {
  target: TargetSpec;
  /** The quota both variants start from (1 = one CPU) and the cut applied to one of them. */
  quota: number;
  cut: number;
  threads: number;
  data: { tables: number; table_size: number };
  /** CPU list sysbench runs on. */
  driverCpus: string;
  seconds: number;
  /** Seconds per phase; the first second of each phase is not used. */
  phaseS: number;
  logDir: string;
  log: (line: string) => void;
  signal: AbortSignal;
}

export interface Reference {
  cut: number;
  /** Relative throughput change under the cut, e^effect − 1, and its 95% interval over phase pairs. */
  effect: number;
  /** The same as a log ratio, log(cut/full). */
  logEffect: number;
  ci: [number, number];
  pairs: number;
  seconds: number;
  /** Standard deviation of the per-second log(b/a) within a phase: the simultaneous noise. */
  secondSd: number;
  /** Mean throughput of the two servers at the full quota and at the cut one. */
  fullTps: number;
  cutTps: number;
}

async function sysbench(args: string[], cpusList: string, signal: AbortSignal): Promise<string> {
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    // taskset execs sysbench: the signal's kill reaches sysbench itself
    const child = spawn("taskset", ["-c", cpusList, "sysbench", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      signal,
    });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", (d) => {
      out += d;
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`sysbench ${args.at(-1)} exited ${code}:\n${out.slice(-800)}`)),
    );
  });
}

/** One reference run: two servers, quotas swapped every phase, one sysbench each, simultaneously. */
export async function quotaReference(o: ReferenceOptions): Promise<Reference> {
  const servers: Target[] = [];
  try {
    for (const name of ["a", "b"]) {
      servers.push(
        await startTarget(o.target, {
          maxConnections: o.threads + 10,
          logDir: join(o.logDir, name),
          log: o.log,
        }),
      );
    }
    const common = (t: Target) => [
      ...connectionArgs(t.connection),
      `--tables=${o.data.tables}`,
      `--table-size=${o.data.table_size}`,
    ];
    for (const t of servers) {
      await t.createDatabase("sbtest", createDatabaseSql("sbtest"));
      await sysbench(
        ["oltp_common", ...common(t), "--threads=2", "--rand-seed=1", "prepare"],
        o.driverCpus,
        o.signal,
      );
      await sysbench(["oltp_common", ...common(t), "--threads=2", "prewarm"], o.driverCpus, o.signal);
    }
    const [a, b] = servers as [Target, Target];
    const pidOf = (t: Target) => t.pids[0] as number;
    const full = o.quota;
    const cut = o.quota * (1 - o.cut);
    const phases = Math.floor(o.seconds / o.phaseS);
    // phase k: even → a full, b cut; odd → a cut, b full
    const apply = async (k: number) => {
      await setCpuQuota(pidOf(a), k % 2 === 0 ? full : cut);
      await setCpuQuota(pidOf(b), k % 2 === 0 ? cut : full);
    };
    await apply(0);
    const run = (t: Target) =>
      sysbench(
        [
          "oltp_point_select",
          ...common(t),
          `--threads=${o.threads}`,
          `--time=${phases * o.phaseS}`,
          "--report-interval=1",
          "--rand-type=uniform",
          "run",
        ],
        o.driverCpus,
        o.signal,
      );
    const started = Date.now();
    const outputs = Promise.all([run(a), run(b)]);
    // Swaps on the wall clock from the start; sysbench's second t covers [t−1, t) of its own clock,
    // which starts within a few tens of milliseconds of this one: the first second of a phase is skipped.
    let k = 0;
    let swapFailed: unknown;
    const timer = setInterval(() => {
      k++;
      if (k < phases)
        apply(k).catch((e) => {
          swapFailed ??= e;
        });
    }, o.phaseS * 1000);
    let texts: string[];
    try {
      texts = await outputs;
    } finally {
      clearInterval(timer);
    }
    if (swapFailed) throw swapFailed;
    const elapsed = (Date.now() - started) / 1000;
    const [ia, ib] = texts.map((t) => parseSysbench(t).intervals);
    const byPhase: number[][] = Array.from({ length: phases }, () => []);
    const fullTps: number[] = [];
    const cutTps: number[] = [];
    for (let i = 0; i < Math.min(ia?.length ?? 0, ib?.length ?? 0); i++) {
      const sa = ia?.[i];
      const sb = ib?.[i];
      if (!sa || !sb || sa.t !== sb.t) continue;
      const phase = Math.floor((sa.t - 1) / o.phaseS);
      if ((sa.t - 1) % o.phaseS === 0 || phase >= phases) continue;
      byPhase[phase]?.push(Math.log(sb.tps / sa.tps));
      (phase % 2 === 0 ? fullTps : cutTps).push(sa.tps);
      (phase % 2 === 0 ? cutTps : fullTps).push(sb.tps);
    }
    // One estimate per pair of phases: (even − odd) / 2 = log(cut/full).
    const pairEffects: number[] = [];
    for (let p = 0; p + 1 < phases; p += 2) {
      const even = byPhase[p] ?? [];
      const odd = byPhase[p + 1] ?? [];
      if (even.length && odd.length) pairEffects.push((mean(even) - mean(odd)) / 2);
    }
    const { mean: m, half } = meanInterval(pairEffects);
    const within = byPhase.filter((xs) => xs.length > 1).map((xs) => xs.map((x) => x - mean(xs)));
    return {
      cut: o.cut,
      effect: Math.expm1(m),
      logEffect: m,
      ci: [Math.expm1(m - half), Math.expm1(m + half)],
      pairs: pairEffects.length,
      seconds: Math.round(elapsed),
      secondSd: Math.sqrt(mean(within.flat().map((x) => x * x))),
      fullTps: mean(fullTps),
      cutTps: mean(cutTps),
    };
  } finally {
    for (const t of servers) await t.stop();
  }
}
