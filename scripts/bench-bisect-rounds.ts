// npm run bench:bisect-rounds [-- RUNNERS...]: perf-bisect.yml under act (self-hosted mode) over a
// generated config repository of 31 commits whose 20th cuts a private MariaDB to a tenth of a CPU,
// once per runner count given (default 3 then 1): each round's legs at once, as on that many
// runners. Writes bench/bisect/rounds-act.json: per run the outcome, the first bad commit, the
// rounds, every leg's round, runner, step and seconds, and the wall time.
import { execFileSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { act, git } from "../tests/helpers/act.ts";
import { FakeGitHub } from "../tests/helpers/github-server.ts";
import { ROOT } from "../tests/helpers/paths.ts";
import { tempDir } from "../tests/helpers/real.ts";

const COMMITS = 31;
const BAD_AT = 20;

const spec = (quota: string) => `name: bisected
description: the matrix of the config repository
target: {kind: mariadb, config: {innodb_buffer_pool_size: 64M}, resources: {cpus: "0", cpu_quota: "${quota}"}}
driver: {cpus: "1"}
data: {tables: 1, table_size: 2000}
workloads:
  - {name: point_select, sysbench: oltp_point_select, threads: [2], duration: 1s, warmup: 0s, options: {rand-type: uniform}}
metrics:
  tps: {tolerance: 20%}
compare: {rounds: 4, max_rounds: 8, warmup_rounds: 1}
`;

/** A repository like an adopter's: the action, the bisect workflows, and 31 commits of a spec. */
function makeRepo(): { repo: string; shas: string[] } {
  const repo = tempDir("tiperf-bisect-act-");
  for (const p of [
    "action/action.yml",
    "action/dist",
    "scripts/setup.sh",
    ".github/workflows/perf-bisect.yml",
    ".github/workflows/perf-bisect-round.yml",
  ])
    cpSync(join(ROOT, p), join(repo, p), { recursive: true });
  git(repo, "init", "-q", "-b", "main");
  const shas: string[] = [];
  for (let i = 0; i <= COMMITS; i++) {
    writeFileSync(join(repo, "spec.yaml"), spec(i >= BAD_AT ? "10%" : "100%"));
    writeFileSync(join(repo, "CHANGES"), `change ${i}\n`);
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", i === BAD_AT ? "cut the server's cpu quota" : `change ${i}`);
    shas.push(git(repo, "rev-parse", "HEAD"));
  }
  return { repo, shas };
}

async function one(runners: number, gh: FakeGitHub) {
  const { repo, shas } = makeRepo();
  const artifacts = tempDir("tiperf-bisect-act-artifacts-");
  const began = Date.now();
  const run = await act(repo, `bisect-${runners}`, shas[0] as string, shas[COMMITS] as string, gh.url, {
    workflow: "perf-bisect.yml",
    dispatch: {
      spec: "spec.yaml",
      good: shas[0] as string,
      bad: shas[COMMITS] as string,
      only: "",
      profile: "",
    },
    vars: [`TIPERF_SHARDS=${runners}`],
    env: [`E2E_ARTIFACTS=${artifacts}`],
    concurrentJobs: runners,
    timeoutMinutes: 60,
  });
  const wall = (Date.now() - began) / 1000;
  const final = readdirSync(artifacts).find((d) => !d.includes("-part-"));
  const report = final ? JSON.parse(readFileSync(join(artifacts, final, "bisect.json"), "utf8")) : undefined;
  const legs = readdirSync(artifacts)
    .filter((d) => d.includes("-part-"))
    .map((d) => {
      const dir = readdirSync(join(artifacts, d)).find((x) => x.startsWith("bisect-"));
      const part = dir ? JSON.parse(readFileSync(join(artifacts, d, dir, "bisect.json"), "utf8")) : undefined;
      const step = part?.steps[0];
      return {
        artifact: d,
        round: part?.part?.round,
        runner: part?.part?.runner,
        step: step
          ? {
              role: step.role,
              candidate: shas.indexOf(step.candidate.commit),
              mark: step.mark,
              benchmark_seconds: step.attempts.reduce(
                (t: number, a: { benchmark_seconds: number }) => t + a.benchmark_seconds,
                0,
              ),
            }
          : null,
      };
    })
    .sort((a, b) => a.round - b.round || a.runner - b.runner);
  return {
    runners,
    act_exit: run.code,
    jobs: run.jobs,
    wall_seconds: Math.round(wall),
    outcome: report?.outcome,
    first_bad: report?.first_bad ? shas.indexOf(report.first_bad.commit) : null,
    rounds: report?.rounds,
    halving_rounds: report?.halving_rounds,
    steps: report?.steps.length,
    benchmark_seconds: report ? Math.round(report.benchmark_seconds) : null,
    legs,
    notes: report?.notes,
  };
}

const counts = process.argv.slice(2).map(Number);
const gh = new FakeGitHub();
await gh.start();
const machine = execFileSync("sh", ["-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2; nproc"], {
  encoding: "utf8",
})
  .trim()
  .replace(/\n/, " × ");
const runs = [];
for (const runners of counts.length ? counts : [3, 1]) {
  const r = await one(runners, gh);
  process.stdout.write(
    `${runners} runner(s): ${r.outcome} first bad ${r.first_bad} (true ${BAD_AT}), ${r.rounds} rounds, ${r.steps} steps, ${r.wall_seconds} s wall\n`,
  );
  runs.push(r);
}
await gh.stop();
const out = join(ROOT, "bench/bisect/rounds-act.json");
writeFileSync(
  out,
  `${JSON.stringify({ date: new Date().toISOString().slice(0, 10), machine, commits: COMMITS, bad_at: BAD_AT, runs }, null, 2)}\n`,
);
process.stdout.write(`written ${out}\n`);
