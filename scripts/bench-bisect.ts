// Bisect with several candidates a round (`tiperf bisect --runners K`) against halving, on real
// commits of a config repository: this script writes one (--commits commits, the private
// MariaDB's cpu quota cut to 10% at commit --bad-at), then bisects it once per --runners value and
// writes the rounds of measurement, the steps, the time a user with K runners would wait (each
// round as long as its longest step) and the time here (one step after another), and whether each
// search found the commit.
//
// --bad-at 0: no commit cut (a range without a regression, which only the check step judges);
// --budget gives each step a budget (its looks within it) instead of --remeasure's fixed count.
//
//   npm run bench:bisect -- [--commits 31] [--bad-at 19] [--runners 1,3] [--remeasure 2 | --budget 10m] [--tolerance tps=5%] [--out bench/bisect/runners.json]
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { bisectSpec } from "../action/src/commands/bisect/index.ts";
import { roundWaits } from "../action/src/compare/bisection.ts";
import { installSignalTeardown, teardownAll } from "../action/src/lifecycle/teardown.ts";
import { hostFacts } from "../action/src/result/host.ts";
import { parseTolerance } from "../action/src/specfile/prepare.ts";

const { values } = parseArgs({
  options: {
    commits: { type: "string", default: "31" },
    "bad-at": { type: "string", default: "19" },
    runners: { type: "string", default: "1,3" },
    remeasure: { type: "string" },
    budget: { type: "string" },
    tolerance: { type: "string" },
    out: { type: "string", default: "bench/bisect/runners.json" },
  },
});
const commits = Number(values.commits);
const badAt = Number(values["bad-at"]);
const widths = (values.runners as string).split(",").map(Number);
if (!(commits >= 2 && badAt >= 0 && badAt <= commits) || widths.some((w) => !(w >= 1)))
  throw new Error("--commits ≥ 2, 0 ≤ --bad-at ≤ --commits (0: none), --runners a list of whole numbers ≥ 1");

const spec = (quota: string, i: number) => `name: bisect-bench
description: change ${i}
target: {kind: mariadb, config: {innodb_buffer_pool_size: 64M}, resources: {cpus: "0", cpu_quota: "${quota}"}}
driver: {cpus: "1"}
data: {tables: 1, table_size: 2000}
workloads:
  - {name: point_select, sysbench: oltp_point_select, threads: [2], duration: 2s, warmup: 0s, options: {rand-type: uniform}}
metrics:
  tps: {tolerance: 20%}
compare: {rounds: 4, max_rounds: 8, warmup_rounds: 1}
`;

/** A repository of `commits` commits after the good one; from `badAt` on the server has 10% of a CPU. */
function configRepo(dir: string): string[] {
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.invalid", ...args], {
      encoding: "utf8",
    }).trim();
  git("init", "-q", "-b", "main");
  const shas: string[] = [];
  for (let i = 0; i <= commits; i++) {
    writeFileSync(join(dir, "spec.yaml"), spec(badAt > 0 && i >= badAt ? "10%" : "100%", i));
    git("add", "-A");
    git("commit", "-q", "-m", i === badAt ? "cut the server's cpu quota" : `change ${i}`);
    shas.push(git("rev-parse", "HEAD"));
  }
  return shas;
}

async function main(): Promise<void> {
  const abort = new AbortController();
  installSignalTeardown(abort, (l) => process.stderr.write(`${l}\n`));
  const dir = mkdtempSync(join(tmpdir(), "tiperf-bench-bisect-"));
  const shas = configRepo(dir);
  const rows = [];
  try {
    for (const width of widths) {
      const started = Date.now();
      const outcome = await bisectSpec({
        spec: join(dir, "spec.yaml"),
        good: shas[0] as string,
        bad: "main",
        ...(values.tolerance ? { tolerance: parseTolerance(values.tolerance, "--tolerance") } : {}),
        ...(values.budget
          ? { compare: { budget: values.budget } }
          : { remeasure: Number(values.remeasure ?? "2") }),
        runners: width,
        outDir: join(dir, `out-${width}`),
        log: (l) => process.stderr.write(`${l}\n`),
        signal: abort.signal,
      });
      const r = outcome.report;
      const waits = roundWaits(r.steps);
      rows.push({
        runners: width,
        outcome: r.outcome,
        first_bad_index: r.first_bad ? shas.indexOf(r.first_bad.commit) : null,
        rounds: r.rounds,
        halving_rounds: r.halving_rounds,
        steps: r.steps.length,
        measurements: r.steps.reduce((n, s) => n + s.attempts.length, 0),
        looks_counted: 1 + r.remeasure,
        step_budget_seconds: r.step_budget_seconds ?? null,
        looks_by_step: r.steps.map((s) => ({
          role: s.role,
          candidate: shas.indexOf(s.candidate.commit),
          mark: s.mark,
          looks: s.attempts.map((a) => ({
            rounds: a.rounds,
            verdict: a.verdict,
            seconds: Math.round(a.benchmark_seconds),
            cells: a.cells.map((c) => ({ metric: c.metric, change: c.change, ci: c.ci })),
          })),
          ...(s.budget_stop ? { budget_stop: s.budget_stop } : {}),
        })),
        benchmark_seconds_here: Math.round(r.benchmark_seconds),
        benchmark_seconds_on_runners: Math.round(waits.atOnce),
        wall_seconds_here: Math.round((Date.now() - started) / 1000),
        steps_by_round: [...new Set(r.steps.map((s) => s.round))].map((round) =>
          r.steps
            .filter((s) => s.round === round)
            .map((s) => `${s.role} ${shas.indexOf(s.candidate.commit)}: ${s.mark} (runner ${s.runner})`),
        ),
      });
    }
  } finally {
    await teardownAll(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
  const doc = {
    date: new Date().toISOString(),
    host: await hostFacts(),
    commits,
    bad_at: badAt || null,
    ...(values.budget ? { budget: values.budget } : { remeasure: Number(values.remeasure ?? "2") }),
    ...(values.tolerance ? { tolerance: values.tolerance } : {}),
    rows,
  };
  writeFileSync(values.out as string, `${JSON.stringify(doc, null, 2)}\n`);
  for (const r of rows)
    console.log(
      `runners ${r.runners}: ${r.outcome} at ${r.first_bad_index}; ${r.rounds} rounds (halving up to ${r.halving_rounds}), ${r.steps} steps, ${r.measurements} measurements; benchmark ${r.benchmark_seconds_here} s here, ${r.benchmark_seconds_on_runners} s on ${r.runners} runner(s)`,
    );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
