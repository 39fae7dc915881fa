// Test-only: the workflows under act (self-hosted mode) on a local GitHub API — the event a test
// hands act, the run's jobs read from its log, and what a release of tiperf gives an adopter.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./paths.ts";
import { tempDir } from "./real.ts";

export const ACT = join(ROOT, ".tools/bin/act");
export const OUT = join(ROOT, "test-output", "e2e");
export const TOKEN = "ghs_e2eSecretToken0123456789";

export const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=e2e@tiperf", "-c", "user.name=e2e", ...args], {
    cwd,
    encoding: "utf8",
  }).trim();

export interface ActRun {
  code: number | null;
  log: string;
  jobs: Record<string, "succeeded" | "failed">;
}

/** How the pull_request event looks: a push to a branch of the repository unless said otherwise. */
export interface PrEvent {
  action?: string;
  number?: number;
  /** The repository the head branch lives in (a fork: another one). */
  headRepo?: string;
  labels?: string[];
  /** The label a `labeled` event added. */
  label?: string;
  /** Who sent the event (added the label, pushed): the payload's sender.login. */
  sender?: string;
  /** act's dry run with its debug lines: which jobs would run and why others are skipped. */
  dryRun?: boolean;
  /** What `uses: tiperf/tiperf/action@v1` resolves to (an adopter's workflow): a release's files. */
  actionRepo?: string;
  /** The repository variable TIPERF_PR_SPEC (default: the test repository's workloads/e2e.yaml). */
  spec?: string;
  /** The workflow file under .github/workflows (default perf-pr.yml); its jobs are read from the log by its name. */
  workflow?: string;
  /** More environment for tiperf under act (NAME=value). */
  env?: string[];
  /** More repository variables (NAME=value), e.g. TIPERF_SHARDS=3. */
  vars?: string[];
  /** A workflow_run event instead (perf-pr's run completed), run on the default branch: that run's id and conclusion. */
  workflowRun?: { id: number; conclusion: string };
  /** A workflow_dispatch event instead, with these inputs, run on the head commit. */
  dispatch?: Record<string, string>;
  /** How many jobs act runs at once (default 1, as one self-hosted runner takes them). */
  concurrentJobs?: number;
  /** act is stopped after this many minutes (default 10). */
  timeoutMinutes?: number;
  /** act is interrupted (SIGINT, as a cancelled run) once its log matches this. */
  cancelOn?: RegExp;
}

/** The event's payload: a pull_request event, or the workflow_run event of its completed run. */
function payload(e: PrEvent, base: string, head: string): object {
  const number = e.number ?? 5;
  const repository = { full_name: "tiperf/e2e", name: "e2e", owner: { login: "tiperf" } };
  if (e.dispatch)
    return {
      inputs: e.dispatch,
      ref: "refs/heads/main",
      repository,
      sender: { login: e.sender ?? "e2e-author" },
    };
  const headRepo = { full_name: e.headRepo ?? "tiperf/e2e" };
  if (e.workflowRun)
    return {
      action: "completed",
      workflow_run: {
        id: e.workflowRun.id,
        name: "perf-pr",
        event: "pull_request",
        conclusion: e.workflowRun.conclusion,
        head_sha: head,
        head_repository: headRepo,
        // a fork's PR is not listed here (GitHub lists only the repository's own branches)
        pull_requests: [],
      },
      repository,
    };
  return {
    action: e.action ?? "synchronize",
    number,
    pull_request: {
      number,
      base: { sha: base, ref: "main", repo: { full_name: "tiperf/e2e" } },
      head: { sha: head, ref: "change", repo: headRepo },
      labels: (e.labels ?? []).map((n) => ({ name: n })),
    },
    ...(e.label ? { label: { name: e.label } } : {}),
    sender: { login: e.sender ?? "e2e-author" },
    repository,
  };
}

export async function act(
  repo: string,
  name: string,
  base: string,
  head: string,
  api: string,
  e: PrEvent = {},
): Promise<ActRun> {
  const event = join(repo, "..", `${name}-event.json`);
  writeFileSync(event, JSON.stringify(payload(e, base, head)));
  // a workflow_run runs the default branch's workflow; a pull_request event the PR's
  git(repo, "checkout", "-q", e.workflowRun ? base : head);
  const args = [
    e.workflowRun ? "workflow_run" : e.dispatch ? "workflow_dispatch" : "pull_request",
    "-W",
    `.github/workflows/${e.workflow ?? "perf-pr.yml"}`,
    "-e",
    event,
    "-P",
    "self-hosted=-self-hosted",
    "-P",
    "tiperf=-self-hosted",
    // the jobs that hold a write token run on GitHub-hosted runners: here, on this machine too
    "-P",
    "ubuntu-latest=-self-hosted",
    "--no-cache-server",
    // one job at a time, as one self-hosted runner takes them (a sharded PR check's shards queue)
    "--concurrent-jobs",
    String(e.concurrentJobs ?? 1),
    "--local-repository",
    `actions/upload-artifact@v4=${join(ROOT, "tests/e2e/offline-actions/upload-artifact")}`,
    "--local-repository",
    `actions/download-artifact@v4=${join(ROOT, "tests/e2e/offline-actions/download-artifact")}`,
    // checkout by SHA (the approved head, the base): a test-only stand-in, see its action.yml
    "--local-repository",
    `actions/checkout@v4=${join(ROOT, "tests/e2e/offline-actions/checkout")}`,
    "--local-repository",
    `aws-actions/configure-aws-credentials@v4=${join(ROOT, "tests/e2e/offline-actions/configure-aws-credentials")}`,
    "--env",
    `E2E_SOURCE_REPO=${repo}`,
    ...(e.actionRepo ? ["--local-repository", `tiperf/tiperf@v1=${e.actionRepo}`] : []),
    "--env",
    `GITHUB_API_URL=${api}`,
    // the run's servers, ledger and cgroups where this test run's checks look (run-tests.mjs)
    ...ownEnv().flatMap((kv) => ["--env", kv]),
    ...(e.env ?? []).flatMap((kv) => ["--env", kv]),
    "-s",
    `GITHUB_TOKEN=${TOKEN}`,
    "--var",
    `TIPERF_PR_SPEC=${e.spec ?? "workloads/e2e.yaml"}`,
    ...(e.vars ?? []).flatMap((kv) => ["--var", kv]),
    ...(e.dryRun ? ["-n", "-v"] : []),
  ];
  const child = spawn(ACT, args, { cwd: repo, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  let cancelled = false;
  child.stdout.on("data", (d) => {
    log += d;
    if (e.cancelOn && !cancelled && e.cancelOn.test(log)) {
      cancelled = true;
      child.kill("SIGINT");
    }
  });
  child.stderr.on("data", (d) => {
    log += d;
  });
  const timer = setTimeout(() => child.kill("SIGTERM"), (e.timeoutMinutes ?? 10) * 60_000);
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  clearTimeout(timer);
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, `${name}.act.log`), log);
  const jobs: ActRun["jobs"] = {};
  const workflow = (e.workflow ?? "perf-pr.yml").replace(/\.yml$/, "");
  for (const m of log.matchAll(
    // a job's name may have spaces (the gate's "tiperf (label ignored)")
    new RegExp(`\\[${workflow}\\/([^\\]]+?)\\s*\\] 🏁 {2}Job (succeeded|failed)`, "g"),
  ))
    jobs[m[1] as string] = m[2] as "succeeded" | "failed";
  return { code, log, jobs };
}

/** This test run's own TMPDIR, ledger and cgroup prefix, for tiperf under act. */
const ownEnv = () =>
  ["TMPDIR", "TIPERF_LEDGER", "TIPERF_CGROUP_PREFIX"]
    .filter((k) => process.env[k])
    .map((k) => `${k}=${process.env[k]}`);

/** What a tag of the tiperf repository gives an adopter's workflow: the action and its setup script. */
export function releaseFiles(): string {
  const dir = tempDir("tiperf-release-");
  for (const p of [
    "action/action.yml",
    "action/dist",
    "action/package.json",
    "action/package-lock.json",
    "scripts/setup.sh",
  ])
    cpSync(join(ROOT, p), join(dir, p), { recursive: true });
  return dir;
}
