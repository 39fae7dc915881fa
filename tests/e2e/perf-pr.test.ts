import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { commentMarker } from "../../action/src/report/comment.ts";
import { FakeGitHub } from "../helpers/github-server.ts";
import { ROOT } from "../helpers/paths.ts";
import { leftovers, tempDir } from "../helpers/real.ts";

const ACT = join(ROOT, ".tools/bin/act");
const OUT = join(ROOT, "test-output", "e2e");
const TOKEN = "ghs_e2eSecretToken0123456789";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=e2e@tiperf", "-c", "user.name=e2e", ...args], {
    cwd,
    encoding: "utf8",
  }).trim();

/** A repository like a user's: the action, the PR workflow and a spec, with base and head commits. */
function makeRepo(): string {
  const repo = tempDir("tiperf-e2e-");
  for (const p of ["action/action.yml", "action/dist", "scripts/setup.sh", ".github/workflows/perf-pr.yml"]) {
    cpSync(join(ROOT, p), join(repo, p), { recursive: true });
  }
  mkdirSync(join(repo, "workloads"));
  cpSync(join(ROOT, "tests/e2e/e2e-spec.yaml"), join(repo, "workloads/e2e.yaml"));
  git(repo, "init", "-q", "-b", "main");
  git(repo, "remote", "add", "origin", "https://github.com/tiperf/e2e.git"); // never contacted
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "base");
  return repo;
}

/** Commits a change to the spec and returns the new commit. */
function commitSpec(repo: string, from: string, to: string): string {
  const file = join(repo, "workloads/e2e.yaml");
  const text = readFileSync(file, "utf8");
  assert.ok(text.includes(from), `spec has ${from}`);
  writeFileSync(file, text.replace(from, to));
  git(repo, "commit", "-qam", `spec: ${to}`);
  return git(repo, "rev-parse", "HEAD");
}

interface ActRun {
  code: number | null;
  log: string;
  jobs: Record<string, "succeeded" | "failed">;
}

async function act(repo: string, name: string, base: string, head: string, api: string): Promise<ActRun> {
  const event = join(repo, "..", `${name}-event.json`);
  const pr = {
    number: 5,
    base: { sha: base, ref: "main", repo: { full_name: "tiperf/e2e" } },
    head: { sha: head, ref: "change", repo: { full_name: "tiperf/e2e" } },
    labels: [],
  };
  writeFileSync(
    event,
    JSON.stringify({
      action: "synchronize",
      number: 5,
      pull_request: pr,
      repository: { full_name: "tiperf/e2e", name: "e2e", owner: { login: "tiperf" } },
    }),
  );
  git(repo, "checkout", "-q", head);
  const args = [
    "pull_request",
    "-W",
    ".github/workflows/perf-pr.yml",
    "-e",
    event,
    "-P",
    "self-hosted=-self-hosted",
    "-P",
    "tiperf=-self-hosted",
    "--no-cache-server",
    "--local-repository",
    `actions/upload-artifact@v4=${join(ROOT, "tests/e2e/offline-actions/upload-artifact")}`,
    "--env",
    `GITHUB_API_URL=${api}`,
    // the run's servers, ledger and cgroups where this test run's checks look (run-tests.mjs)
    ...ownEnv().flatMap((kv) => ["--env", kv]),
    "-s",
    `GITHUB_TOKEN=${TOKEN}`,
    "--var",
    "TIPERF_PR_SPEC=workloads/e2e.yaml",
  ];
  const child = spawn(ACT, args, { cwd: repo, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout.on("data", (d) => {
    log += d;
  });
  child.stderr.on("data", (d) => {
    log += d;
  });
  const timer = setTimeout(() => child.kill("SIGTERM"), 10 * 60_000);
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  clearTimeout(timer);
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, `${name}.act.log`), log);
  const jobs: ActRun["jobs"] = {};
  for (const m of log.matchAll(/\[perf-pr\/(\w+)\s*\] 🏁 {2}Job (succeeded|failed)/g))
    jobs[m[1] as string] = m[2] as "succeeded" | "failed";
  return { code, log, jobs };
}

/** This test run's own TMPDIR, ledger and cgroup prefix, for tiperf under act. */
const ownEnv = () =>
  ["TMPDIR", "TIPERF_LEDGER", "TIPERF_CGROUP_PREFIX"]
    .filter((k) => process.env[k])
    .map((k) => `${k}=${process.env[k]}`);

describe("perf-pr.yml under act on a private MariaDB, commenting on a local GitHub API", () => {
  const gh = new FakeGitHub();
  let repo = "";
  let base = "";
  before(async () => {
    assert.ok(existsSync(ACT), `${ACT} is missing: scripts/setup.sh --test builds it with go install`);
    await gh.start();
    repo = makeRepo();
    base = git(repo, "rev-parse", "HEAD");
  });
  after(() => gh.stop());

  test("an injected slowdown (head at 30% CPU quota) fails the benchmark job and creates the comment", async () => {
    const before = leftovers();
    const head = commitSpec(repo, "cpu_quota: 100%", "cpu_quota: 30%");
    const run = await act(repo, "regression", base, head, gh.url);
    assert.deepEqual(run.jobs, { benchmark: "failed", publish: "succeeded" }, run.log.slice(-3000));
    assert.notEqual(run.code, 0);
    assert.match(run.log, /tiperf: regression in 1 judgement\(s\): point_select threads=2 tps −?-?\d/);
    const comments = gh.comments.get(5) ?? [];
    assert.equal(comments.length, 1);
    const body = comments[0]?.body ?? "";
    writeFileSync(join(OUT, "regression.comment.md"), body);
    assert.match(
      body,
      /^🔴 \*\*tiperf e2e: regression\*\* · 1 regressed of 1 judgements · head vs base: cpu_quota: 100% → 30%/,
    );
    assert.ok(body.includes(commentMarker("e2e")));
    assert.ok(!run.log.includes(TOKEN), "the token never reaches the log");
    assert.ok(gh.log.every((l) => l.authorization === `token ${TOKEN}`));
    assert.match(run.log, /\[perf-pr\/benchmark\] .*post: /, "the post step ran");
    assert.deepEqual(leftovers(), before, "no server process or data directory left");
  });

  test("a harmless change passes the job and updates the same comment", async () => {
    const before = leftovers();
    git(repo, "checkout", "-q", base);
    git(repo, "checkout", "-q", "-b", "harmless");
    const head = commitSpec(repo, "description: base", "description: a harmless edit");
    const run = await act(repo, "pass", base, head, gh.url);
    assert.deepEqual(run.jobs, { benchmark: "succeeded", publish: "succeeded" }, run.log.slice(-3000));
    assert.equal(run.code, 0);
    const comments = gh.comments.get(5) ?? [];
    assert.equal(comments.length, 1, "updated in place, no second comment");
    const body = comments[0]?.body ?? "";
    writeFileSync(join(OUT, "pass.comment.md"), body);
    assert.match(
      body,
      /^(⚪|🟢|🟡) \*\*tiperf e2e: (pass|inconclusive)\*\* .*head vs base: same target \(A\/A\)/,
    );
    assert.ok(gh.log.some((l) => l.method === "PATCH" && l.status === 200));
    assert.deepEqual(leftovers(), before);
  });
});
