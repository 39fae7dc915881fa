import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { resultFiles } from "../../action/src/action/steps.ts";
import { commentMarker } from "../../action/src/report/comment.ts";
import { ciText, pct } from "../../action/src/report/rows.ts";
import { ACT, act, git, OUT, TOKEN } from "../helpers/act.ts";
import { FakeGitHub } from "../helpers/github-server.ts";
import { ROOT } from "../helpers/paths.ts";
import { cli, leftovers, tempDir } from "../helpers/real.ts";

/** A repository like a user's: the action, the PR workflow and a spec, with base and head commits. */
function makeRepo(): string {
  const repo = tempDir("tiperf-e2e-");
  for (const p of [
    "action/action.yml",
    "action/dist",
    "scripts/setup.sh",
    ".github/workflows/perf-pr.yml",
    ".github/workflows/perf-pr-comment.yml",
  ]) {
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

  /** A PR branch whose spec has these edits, run by the workflow with TIPERF_SHARDS=3. */
  async function onThreeRunners(
    branch: string,
    name: string,
    pr: number,
    edits: [string, string][],
    env: string[] = [],
  ) {
    git(repo, "checkout", "-q", base);
    git(repo, "checkout", "-q", "-b", branch);
    const file = join(repo, "workloads/e2e.yaml");
    writeFileSync(
      file,
      edits.reduce((text, [from, to]) => text.replace(from, to), readFileSync(file, "utf8")),
    );
    git(repo, "commit", "-qam", `spec: ${edits.map(([, to]) => to).join(", ")}`);
    const head = git(repo, "rev-parse", "HEAD");
    const artifacts = tempDir("tiperf-e2e-artifacts-");
    const run = await act(repo, name, base, head, gh.url, {
      number: pr,
      vars: ["TIPERF_SHARDS=3", "TIPERF_MAX_PARALLEL=1"], // one machine: the shards one after another
      env: [`E2E_ARTIFACTS=${artifacts}`, ...env],
    });
    return { run, artifacts };
  }

  test("an injected slowdown (head at 10% CPU quota) fails the benchmark job and creates the comment", async () => {
    const before = leftovers();
    const head = commitSpec(repo, "cpu_quota: 100%", "cpu_quota: 10%");
    // a perf-regression-expected label left on the PR from an earlier commit accepts nothing: only
    // the labeled event of this commit does (the next test)
    const run = await act(repo, "regression", base, head, gh.url, { labels: ["perf-regression-expected"] });
    assert.deepEqual(
      run.jobs,
      { plan: "succeeded", benchmark: "failed", publish: "succeeded", tiperf: "failed" },
      run.log.slice(-3000),
    );
    assert.notEqual(run.code, 0);
    assert.match(run.log, /tiperf: regression in 1 judgement\(s\): point_select threads=2 tps −?-?\d/);
    // compare.order duet on a private server with a CPU per variant: both at once
    assert.match(run.log, /duet: base on CPU \d, head on CPU \d \(server and load generator\)/);
    const comments = gh.comments.get(5) ?? [];
    assert.equal(comments.length, 1);
    const body = comments[0]?.body ?? "";
    writeFileSync(join(OUT, "regression.comment.md"), body);
    // compare.confirm's default: the regression was measured again on fresh instances first
    assert.match(body, /🔁 \*\*Confirmed\*\* on fresh instances: point_select threads=2 tps −\d/);
    assert.doesNotMatch(body, /Accepted by/, "a label left from an earlier commit accepts nothing");
    assert.match(
      body,
      /^🔴 \*\*tiperf e2e: regression\*\* · 1 regressed of 1 judgements · head vs base: cpu_quota: 100% → 10%/,
    );
    assert.ok(body.includes(commentMarker("e2e")));
    // the 10% quota bound inside the pair (a slowdown far beyond the tolerance even with another run busy beside this one): the effect check did not call it void
    assert.doesNotMatch(body, /did not take effect/);
    // the commits compared and the workflow run, as the Action knew them
    assert.ok(
      body.includes(`base \`${base.slice(0, 12)}\` · head \`${head.slice(0, 12)}\` · [workflow run](`),
      body,
    );
    assert.match(
      body,
      /\[workflow run\]\(\S+\/tiperf\/e2e\/actions\/runs\/\d+\) · \[report and raw logs \(artifacts\)\]\(\S+#artifacts\)/,
    );
    assert.ok(!run.log.includes(TOKEN), "the token never reaches the log");
    assert.ok(gh.log.every((l) => l.authorization === `token ${TOKEN}`));
    assert.match(run.log, /\[perf-pr\/benchmark\] .*post: /, "the post step ran");
    // no setup step in the workflow: the action installed (or found) what it needs itself
    assert.match(
      run.log,
      /\[perf-pr\/benchmark\] .*setup: (what tiperf needs is installed \(scripts\/setup\.sh --system\)|apt-get install)/,
    );
    assert.deepEqual(leftovers(), before, "no server process or data directory left");
  });

  test("a maintainer's perf-regression-expected label accepts this commit's regression: the check passes, the comment names what was accepted", async () => {
    const before = leftovers();
    git(repo, "checkout", "-q", base);
    git(repo, "checkout", "-q", "-b", "expected-cost");
    const head = commitSpec(repo, "cpu_quota: 100%", "cpu_quota: 10%");
    const run = await act(repo, "accepted", base, head, gh.url, {
      number: 8,
      action: "labeled",
      label: "perf-regression-expected",
      labels: ["perf-regression-expected"],
      sender: "maintainer-1",
    });
    assert.deepEqual(
      run.jobs,
      { plan: "succeeded", benchmark: "succeeded", publish: "succeeded", tiperf: "succeeded" },
      run.log.slice(-3000),
    );
    const body = gh.comments.get(8)?.[0]?.body ?? "";
    writeFileSync(join(OUT, "accepted.comment.md"), body);
    // still a regression, said so, and accepted by whom, which judgement at what size
    assert.match(body, /^🔴 \*\*tiperf e2e: regression\*\*/);
    assert.match(
      body,
      /✅ Accepted by @maintainer-1 as an expected cost of this commit \(perf-regression-expected\): point_select threads=2 tps −\d+\.\d% \[−\d/,
    );
    assert.doesNotMatch(body, /Fails the check/);
    assert.deepEqual(leftovers(), before);
  });

  test("a fork's push after approval does not run: the approval (the perf-approved label event) covers the commit it was given for", async () => {
    const before = leftovers();
    git(repo, "checkout", "-q", base);
    git(repo, "checkout", "-q", "-b", "fork-change");
    const head = commitSpec(repo, "description: base", "description: a fork's later push");
    const fork = { number: 6, headRepo: "someone/e2e", labels: ["perf-approved"] };
    const pushed = await act(repo, "fork-push", base, head, gh.url, fork);
    // nothing measured, and the required check says why instead of passing
    assert.notEqual(pushed.code, 0, pushed.log.slice(-3000));
    assert.deepEqual(pushed.jobs, { tiperf: "failed" }, "only the gate ran");
    assert.match(
      pushed.log,
      /Not measured: a fork's commit runs once a maintainer adds the perf-approved label/,
    );
    assert.doesNotMatch(pushed.log, /Set up sysbench|tiperf compare|compare \d{8}T/);
    assert.equal(gh.comments.get(6), undefined);
    // why: the benchmark job's condition, as act evaluates it (a dry run)
    const why = await act(repo, "fork-push-why", base, head, gh.url, { ...fork, dryRun: true });
    assert.match(
      why.log,
      /\[perf-pr\/plan\] \[DEBUG\] Skipping job 'plan' due to '\(github\.event\.pull_request\.head\.repo\.full_name/,
    );
    // and the approval itself (the labeled event) would run it, on the commit it names
    const approved = await act(repo, "fork-approved", base, head, gh.url, {
      ...fork,
      action: "labeled",
      label: "perf-approved",
      dryRun: true,
    });
    assert.match(approved.log, /\[perf-pr\/plan\] ⭐ Run Main /);
    assert.doesNotMatch(approved.log, /Skipping job 'plan'/);
    // a label other than perf-approved does not approve either
    const other = await act(repo, "fork-other-label", base, head, gh.url, {
      number: 6,
      action: "labeled",
      label: "documentation",
      headRepo: "someone/e2e",
      labels: ["perf-approved", "documentation"],
    });
    // the gate runs under another name: the commit's tiperf check keeps its last deciding result
    assert.deepEqual(other.jobs, { "tiperf (label ignored)": "succeeded" }, other.log.slice(-3000));
    assert.deepEqual(leftovers(), before);
  });

  test("a fork's approved PR: its run hands the verdict over, and perf-pr-comment.yml (workflow_run) posts it", async () => {
    const before = leftovers();
    git(repo, "checkout", "-q", base);
    git(repo, "checkout", "-q", "-b", "fork-approved");
    const head = commitSpec(repo, "description: base", "description: a fork's approved change");
    const artifacts = tempDir("tiperf-e2e-artifacts-");
    const run = await act(repo, "fork-run", base, head, gh.url, {
      number: 12,
      headRepo: "someone/e2e",
      action: "labeled",
      label: "perf-approved",
      labels: ["perf-approved"],
      env: [`E2E_ARTIFACTS=${artifacts}`],
    });
    assert.equal(run.code, 0, run.log.slice(-3000));
    assert.deepEqual(run.jobs, {
      plan: "succeeded",
      benchmark: "succeeded",
      publish: "succeeded",
      tiperf: "succeeded",
    });
    // the fork's run posts nothing (its token is read-only); it hands the verdict over
    assert.equal(gh.comments.get(12), undefined);
    assert.deepEqual(readdirSync(artifacts), ["tiperf-verdict"]);
    const handed = JSON.parse(readFileSync(join(artifacts, "tiperf-verdict/verdict.json"), "utf8"));
    assert.equal(handed.provenance.pr, 12);
    assert.equal(handed.provenance.head_sha, head);
    // GitHub runs perf-pr-comment.yml for the completed run, on the default branch
    gh.commits.set(12, [head]);
    const comment = await act(repo, "fork-comment", base, head, gh.url, {
      headRepo: "someone/e2e",
      workflow: "perf-pr-comment.yml",
      workflowRun: { id: 4242, conclusion: "success" },
      env: [`E2E_ARTIFACTS=${artifacts}`],
    });
    assert.equal(comment.code, 0, comment.log.slice(-3000));
    assert.deepEqual(comment.jobs, { comment: "succeeded" });
    assert.match(comment.log, /comment: [0-9a-f]{12} is the head of tiperf\/e2e#12/);
    const comments = gh.comments.get(12) ?? [];
    assert.equal(comments.length, 1);
    const body = comments[0]?.body ?? "";
    writeFileSync(join(OUT, "fork.comment.md"), body);
    assert.match(body, new RegExp(`^(⚪|🟢|🟡|🔹) \\*\\*tiperf e2e: ${handed.verdict}\\*\\*`));
    for (const c of handed.cells)
      assert.ok(body.includes(pct(c.change)), `Δ ${pct(c.change)} in the comment`);
    // a run that measured nothing (its artifact absent): nothing posted, the workflow still green
    const none = await act(repo, "fork-comment-none", base, head, gh.url, {
      number: 13,
      headRepo: "someone/e2e",
      workflow: "perf-pr-comment.yml",
      workflowRun: { id: 4243, conclusion: "failure" },
      env: [`E2E_ARTIFACTS=${tempDir("tiperf-e2e-none-")}`],
    });
    assert.equal(none.code, 0, none.log.slice(-3000));
    assert.equal(gh.comments.get(12)?.length, 1);
    assert.deepEqual(leftovers(), before);
  });

  test("three runners and a pull request that changes nothing the spec measures: every shard leaves a part, the tiperf check passes, no comment", async () => {
    const before = leftovers();
    const { run } = await onThreeRunners("nothing-measured", "nothing-measured", 14, [
      // only the design (three blocks for three runners): the target, data and workloads are the same
      ["rounds: 6, blocks: 1", "rounds: 6, blocks: 3"],
    ]);
    assert.equal(run.code, 0, run.log.slice(-3000));
    assert.equal(run.jobs.verdict, "succeeded", run.log.slice(-3000));
    assert.equal(run.jobs.tiperf, "succeeded");
    assert.match(run.log, /tiperf: passed\./);
    assert.equal(gh.comments.get(14), undefined, "nothing measured creates no comment");
    assert.deepEqual(leftovers(), before);
  });

  test("three runners (TIPERF_SHARDS=3) and a regression: three shard jobs, one merge, confirmed by three confirmation shards, one comment whose numbers are tiperf merge's", async () => {
    const before = leftovers();
    const { run, artifacts } = await onThreeRunners("sharded-regression", "confirm-shards", 13, [
      ["cpu_quota: 100%", "cpu_quota: 5%"],
      ["rounds: 6, blocks: 1", "rounds: 6, blocks: 3"],
    ]);
    assert.notEqual(run.code, 0, "the confirmed regression fails the check");
    assert.equal(run.jobs.verdict, "succeeded", "the first merge waits for its confirmation");
    assert.equal(run.jobs.confirmed, "failed", run.log.slice(-3000));
    // the one check to require says what the confirmation said
    assert.equal(run.jobs.tiperf, "failed");
    assert.match(run.log, /The confirmation says failure/);
    assert.equal(run.jobs.publish, "succeeded");
    assert.match(
      run.log,
      /tiperf: regression, to be confirmed on fresh instances by the confirmation's shards/,
    );
    assert.deepEqual(readdirSync(artifacts).sort(), [
      "tiperf-confirm-part-1",
      "tiperf-confirm-part-2",
      "tiperf-confirm-part-3",
      "tiperf-part-1",
      "tiperf-part-2",
      "tiperf-part-3",
    ]);
    // the same two merges by hand, from the artifacts: the first run's, then its confirmation's
    const all = resultFiles(artifacts);
    const firstJson = join(tempDir(), "first.json");
    await cli([
      "merge",
      ...all.filter((f) => f.includes("tiperf-part-")),
      "--out",
      tempDir(),
      "--json",
      firstJson,
    ]).done;
    const finalJson = join(tempDir(), "final.json");
    await cli([
      "merge",
      ...all.filter((f) => f.includes("tiperf-confirm-part-")),
      "--confirms",
      firstJson,
      "--out",
      tempDir(),
      "--json",
      finalJson,
    ]).done;
    const final = JSON.parse(readFileSync(finalJson, "utf8"));
    assert.equal(final.verdict, "regression");
    assert.equal(final.confirmation.confirmed, true);
    const comments = gh.comments.get(13) ?? [];
    assert.equal(comments.length, 1, "one sticky comment, of the confirmed verdict");
    const body = comments[0]?.body ?? "";
    writeFileSync(join(OUT, "confirm-shards.comment.md"), body);
    assert.match(body, /^🔴 \*\*tiperf e2e: regression\*\*/);
    const first = JSON.parse(readFileSync(firstJson, "utf8"));
    assert.deepEqual(
      first.shards.merged.map((m: { index: number; blocks: number[] }) => [m.index, m.blocks]),
      [
        [1, [1]],
        [2, [2]],
        [3, [3]],
      ],
    );
    assert.deepEqual(final.cells, first.cells, "the confirmed verdict judges the first run's cells");
    for (const c of final.cells) {
      assert.ok(body.includes(pct(c.change)), `Δ ${pct(c.change)} of ${c.metric} in the comment`);
      assert.ok(body.includes(ciText(c)), `interval ${ciText(c)} in the comment`);
    }
    assert.match(body, /3 of 3 shards merged \(shard 1: block\(s\) 1 on /);
    const again = final.confirmation.runs[0].cells[0];
    assert.match(body, /🔁 \*\*Confirmed\*\* on fresh instances: point_select threads=2 tps −\d/);
    assert.ok(body.includes(pct(again.change)), `the confirmation's Δ ${pct(again.change)} in the comment`);
    assert.deepEqual(leftovers(), before);
  });

  test("the pull request that adopts tiperf (its spec absent at base): the check passes, and its comment gives the noise to commit", async () => {
    const before = leftovers();
    git(repo, "checkout", "-q", base);
    git(repo, "checkout", "-q", "-b", "adopt");
    git(repo, "rm", "-q", "workloads/e2e.yaml");
    git(repo, "commit", "-qm", "a repository before tiperf's spec");
    const without = git(repo, "rev-parse", "HEAD");
    git(repo, "checkout", "-q", base, "--", "workloads/e2e.yaml");
    git(repo, "commit", "-qm", "adopt tiperf");
    const head = git(repo, "rev-parse", "HEAD");
    const run = await act(repo, "adoption", without, head, gh.url, { number: 15 });
    assert.equal(run.code, 0, run.log.slice(-3000));
    assert.deepEqual(run.jobs, {
      plan: "succeeded",
      benchmark: "succeeded",
      publish: "succeeded",
      tiperf: "succeeded",
    });
    const body = gh.comments.get(15)?.[0]?.body ?? "";
    writeFileSync(join(OUT, "adoption.comment.md"), body);
    assert.match(body, /🆕 workloads\/e2e\.yaml is new at/);
    assert.match(body, /At this noise, .*point_select threads=2 tps/);
    assert.match(body, /merge this into workloads\/e2e\.yaml \(its `compare:` mapping gets `noise:`\)/);
    assert.match(body, /```yaml\ncompare:\n {2}noise:\n/);
    assert.deepEqual(leftovers(), before);
  });

  test("three runners and the adoption pull request: each shard measures head against itself, the merge gives the noise to commit, the check passes", async () => {
    const before = leftovers();
    git(repo, "checkout", "-q", base);
    git(repo, "checkout", "-q", "-b", "adopt-3");
    git(repo, "rm", "-q", "workloads/e2e.yaml");
    git(repo, "commit", "-qm", "a repository before tiperf's spec");
    const without = git(repo, "rev-parse", "HEAD");
    git(repo, "checkout", "-q", base, "--", "workloads/e2e.yaml");
    const file = join(repo, "workloads/e2e.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("rounds: 6, blocks: 1", "rounds: 6, blocks: 3"));
    git(repo, "add", "workloads/e2e.yaml");
    git(repo, "commit", "-qm", "adopt tiperf, three blocks for three runners");
    const head = git(repo, "rev-parse", "HEAD");
    const artifacts = tempDir("tiperf-e2e-artifacts-");
    const run = await act(repo, "adoption-3", without, head, gh.url, {
      number: 20,
      vars: ["TIPERF_SHARDS=3", "TIPERF_MAX_PARALLEL=1"],
      env: [`E2E_ARTIFACTS=${artifacts}`],
    });
    assert.equal(run.code, 0, run.log.slice(-3000));
    assert.equal(run.jobs.verdict, "succeeded");
    assert.equal(run.jobs.tiperf, "succeeded");
    const body = gh.comments.get(20)?.[0]?.body ?? "";
    writeFileSync(join(OUT, "adoption-3.comment.md"), body);
    assert.match(body, /🆕 workloads\/e2e\.yaml is new at/);
    assert.match(body, /3 of 3 shards merged/);
    assert.match(body, /```yaml\ncompare:\n {2}noise:\n/);
    assert.deepEqual(leftovers(), before);
  });

  test("three runners and one shard lost (its runner died before its part was uploaded): the tiperf check fails and names the shard", async () => {
    const before = leftovers();
    const { run } = await onThreeRunners(
      "shard-lost",
      "shard-lost",
      16,
      [
        ["description: base", "description: one shard lost"],
        ["rounds: 6, blocks: 1", "rounds: 6, blocks: 3"],
      ],
      ["E2E_LOSE_ARTIFACT=tiperf-part-2"],
    );
    assert.notEqual(run.code, 0);
    assert.equal(run.jobs.tiperf, "failed", run.log.slice(-3000));
    assert.match(run.log, /shard 2 of 3/);
    assert.match(
      run.log,
      /A benchmark shard job says failure: the merge names the shard that left no part\./,
    );
    // the comment says what the other shards measured and that the check cannot pass without shard 2
    const body = gh.comments.get(16)?.[0]?.body ?? "";
    writeFileSync(join(OUT, "shard-lost.comment.md"), body);
    assert.match(
      body,
      /2 of 3 shards merged .*missing: shard 2 — its blocks are not judged, and the check cannot pass without them/,
    );
    assert.deepEqual(leftovers(), before);
  });

  test("one runner and a pull request that changes nothing the spec measures: the tiperf check passes without measuring, no comment", async () => {
    const before = leftovers();
    git(repo, "checkout", "-q", base);
    git(repo, "checkout", "-q", "-b", "nothing-measured-1");
    // only the design: the target, data and workloads are the same at base and head
    const head = commitSpec(repo, "rounds: 6, blocks: 1", "rounds: 8, blocks: 1");
    const run = await act(repo, "nothing-measured-1", base, head, gh.url, { number: 17 });
    assert.equal(run.code, 0, run.log.slice(-3000));
    assert.equal(run.jobs.tiperf, "succeeded");
    assert.match(run.log, /nothing to measure/);
    assert.doesNotMatch(run.log, /compare \d{8}T/, "no comparison ran");
    assert.equal(gh.comments.get(17), undefined);
    assert.deepEqual(leftovers(), before);
  });

  test("a label other than the two on the repository's own PR: nothing measured, posted or cancelled; the gate runs under another name", async () => {
    git(repo, "checkout", "-q", base);
    git(repo, "checkout", "-q", "-b", "labelled");
    const head = commitSpec(repo, "description: base", "description: labelled");
    const run = await act(repo, "own-other-label", base, head, gh.url, {
      number: 18,
      action: "labeled",
      label: "documentation",
      labels: ["documentation"],
    });
    assert.equal(run.code, 0, run.log.slice(-3000));
    assert.deepEqual(run.jobs, { "tiperf (label ignored)": "succeeded" });
    assert.equal(gh.comments.get(18), undefined);
  });

  test("a run cancelled while it measures (a newer push): nothing posted, no confirmation started", async () => {
    const before = leftovers();
    git(repo, "checkout", "-q", base);
    git(repo, "checkout", "-q", "-b", "superseded");
    const head = commitSpec(repo, "cpu_quota: 100%", "cpu_quota: 10%");
    const run = await act(repo, "superseded", base, head, gh.url, {
      number: 19,
      // once the benchmark job's comparison has begun measuring
      cancelOn: /\[perf-pr\/benchmark[^\]]*\]\s+\| \[\d+\/\d+\] point_select/,
    });
    assert.notEqual(run.code, 0, "a cancelled run does not succeed");
    assert.match(run.log, /\[\d+\/\d+\] point_select/, "it was cancelled while measuring");
    assert.equal(gh.comments.get(19), undefined, "nothing posted");
    assert.doesNotMatch(run.log, /\[perf-pr\/(publish|confirm|confirmed|verdict)[^\]]*\] ⭐ Run Main/);
    assert.deepEqual(leftovers(), before, "the servers it started are stopped");
  });

  test("a harmless change passes the job and updates the same comment", async () => {
    const before = leftovers();
    git(repo, "checkout", "-q", base);
    git(repo, "checkout", "-q", "-b", "harmless");
    const head = commitSpec(repo, "description: base", "description: a harmless edit");
    const run = await act(repo, "pass", base, head, gh.url);
    assert.deepEqual(
      run.jobs,
      { plan: "succeeded", benchmark: "succeeded", publish: "succeeded", tiperf: "succeeded" },
      run.log.slice(-3000),
    );
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
