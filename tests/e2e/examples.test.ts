// test-lane: parallel ~240s (the regression asserted is a 10% CPU quota against 100%, which binds beside
// anything; the TiDB source check's verdict is not asserted: scripts/run-tests.mjs)
// An adopter's repository and a TiDB tree, each with only what `tiperf init` writes, under act.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { parse, stringify } from "yaml";
import { ACT, act, git, OUT, releaseFiles } from "../helpers/act.ts";
import { FakeGitHub } from "../helpers/github-server.ts";
import { ROOT } from "../helpers/paths.ts";
import { cli, leftovers, tempDir } from "../helpers/real.ts";

describe("what `tiperf init` writes, under act on a local GitHub API", () => {
  const gh = new FakeGitHub();
  before(async () => {
    assert.ok(existsSync(ACT), `${ACT} is missing: scripts/setup.sh --test builds it with go install`);
    await gh.start();
  });
  after(() => gh.stop());

  // an adopter's repository (action/examples/perf-pr.yml)
  test("a repository with only the example workflow and a spec: the released action sets itself up, finds the regression and comments", async () => {
    const before = leftovers();
    // an adopter's repository: no action/, no scripts/, no workloads/ of tiperf's
    const repo = tempDir("tiperf-adopter-");
    // started as a new user starts: tiperf init writes the workflow (and a TiDB spec, replaced
    // here by a MariaDB one: no TiDB release on this runner)
    const init = cli(["init", "--dir", repo]);
    assert.equal((await init.done).code, 0, init.stderr());
    assert.ok(existsSync(join(repo, ".github/workflows/perf-pr.yml")));
    // the adopter's spec does not confirm (perf-pr.yml's own run above shows the confirmation)
    const spec = readFileSync(join(ROOT, "tests/e2e/e2e-spec.yaml"), "utf8");
    writeFileSync(
      join(repo, "perf/pr.yaml"),
      spec.replace(
        "compare: { order: duet, rounds: 6, blocks: 1, warmup_rounds: 1, swap: 2s }",
        "compare: { order: duet, rounds: 6, blocks: 1, warmup_rounds: 1, swap: 2s, confirm: 0 }",
      ),
    );
    assert.match(readFileSync(join(repo, "perf/pr.yaml"), "utf8"), /confirm: 0/);
    git(repo, "init", "-q", "-b", "main");
    git(repo, "remote", "add", "origin", "https://github.com/tiperf/e2e.git"); // never contacted
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", "base");
    const base = git(repo, "rev-parse", "HEAD");
    const file = join(repo, "perf/pr.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("cpu_quota: 100%", "cpu_quota: 10%"));
    git(repo, "commit", "-qam", "head at 10% CPU");
    const head = git(repo, "rev-parse", "HEAD");
    const run = await act(repo, "adopter", base, head, gh.url, {
      number: 7,
      actionRepo: releaseFiles(),
      spec: "perf/pr.yaml",
    });
    assert.deepEqual(
      run.jobs,
      { plan: "succeeded", benchmark: "failed", publish: "succeeded", tiperf: "failed" },
      run.log.slice(-3000),
    );
    assert.match(
      run.log,
      /\[perf-pr\/benchmark\] .*setup: (what tiperf needs is installed \(scripts\/setup\.sh --system\)|apt-get install)/,
    );
    assert.match(run.log, /tiperf: regression in 1 judgement\(s\): point_select threads=2 tps/);
    const body = gh.comments.get(7)?.[0]?.body ?? "";
    writeFileSync(join(OUT, "adopter.comment.md"), body);
    assert.match(body, /^🔴 \*\*tiperf e2e: regression\*\*/);
    assert.ok(
      !existsSync(join(repo, "action")) && !existsSync(join(repo, "scripts")),
      "nothing of tiperf's layout",
    );
    assert.deepEqual(leftovers(), before);
  });

  // the TiDB source PR check in a TiDB repository (action/examples/tidb-source-pr.yml)
  test("builds the merge base and the head with the tree's own make server, compares them, and the comment names what unistore cannot judge", async () => {
    const before = leftovers();
    // a TiDB tree's stand-in: its Makefile's `server` leaves bin/tidb-server (the test-only stand-in)
    const repo = tempDir("tiperf-tidb-tree-");
    const builds = tempDir("tiperf-tidb-builds-");
    // started as a TiDB repository starts: tiperf init --tidb writes the workflow, the spec and its profile
    const init = cli(["init", "--tidb", "--dir", repo]);
    assert.equal((await init.done).code, 0, init.stderr());
    assert.ok(existsSync(join(repo, ".github/workflows/tidb-source-pr.yml")));
    writeFileSync(
      join(repo, "Makefile"),
      `server:\n\tmkdir -p bin\n\tprintf '#!/bin/sh\\nexec %s "$$@"\\n' '${join(ROOT, "tests/helpers/stand-ins/tidb-server")}' > bin/tidb-server\n\tchmod +x bin/tidb-server\n`,
    );
    // the spec init wrote (the shipped one), its matrix cut to one short cell (its source settings as shipped)
    const spec = parse(readFileSync(join(repo, ".github/tiperf/source-pr.yaml"), "utf8"));
    assert.deepEqual(spec.target.source.build, ["make", "server"]);
    spec.workloads = [{ ...spec.workloads[0], threads: [2], duration: "2s", warmup: "0s" }];
    spec.data = { tables: 1, table_size: 1000 };
    // the stand-in serves SQL from a MariaDB, which has no tidb_enable_auto_analyze to set
    assert.deepEqual(spec.target.sql, ["SET GLOBAL tidb_enable_auto_analyze = OFF"]);
    delete spec.target.sql;
    spec.compare = { order: "duet", swap: "1s", rounds: 4, warmup_rounds: 1, confirm: 0, budget: "15m" };
    // the profile init wrote beside the spec, as the example says
    assert.equal(spec.target.profile, ".github/tiperf/local.yaml");
    assert.ok(existsSync(join(repo, ".github/tiperf/local.yaml")));
    writeFileSync(join(repo, ".github/tiperf/source-pr.yaml"), stringify(spec));
    // the stand-in is no Go tree: no counting build of it; without the counting phase's spec its
    // job says so and passes
    assert.ok(existsSync(join(repo, ".github/tiperf/source-count.yaml")), "init writes the counting phase");
    rmSync(join(repo, ".github/tiperf/source-count.yaml"));
    for (const [f, text] of [
      ["pkg/executor/sort.go", "package executor\n"],
      ["pkg/store/gcworker/gc_worker.go", "package gcworker\n"],
    ] as const) {
      mkdirSync(join(repo, f, ".."), { recursive: true });
      writeFileSync(join(repo, f), text);
    }
    git(repo, "init", "-q", "-b", "main");
    // the repository the event names (act takes github.repository from the remote); never contacted
    git(repo, "remote", "add", "origin", "https://github.com/tiperf/e2e.git");
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", "base");
    const base = git(repo, "rev-parse", "HEAD");
    writeFileSync(
      join(repo, "pkg/store/gcworker/gc_worker.go"),
      "package gcworker\n\n// resolve locks in batches\n",
    );
    writeFileSync(join(repo, "pkg/executor/sort.go"), "package executor\n\n// parallel sort\n");
    git(repo, "commit", "-qam", "gcworker: resolve locks in batches (#60001)");
    const head = git(repo, "rev-parse", "HEAD");
    const run = await act(repo, "tidb-source", base, head, gh.url, {
      number: 9,
      actionRepo: releaseFiles(),
      workflow: "tidb-source-pr.yml",
      env: [`TIPERF_BUILDS=${builds}`],
    });
    assert.equal(run.jobs.publish, "succeeded", run.log.slice(-3000));
    assert.ok(run.jobs.benchmark, run.log.slice(-3000));
    assert.equal(run.jobs.count, "succeeded", run.log.slice(-3000));
    // the gate, the check to require: this run decided, it passes
    assert.equal(run.jobs.tiperf, "succeeded", run.log.slice(-3000));
    assert.match(
      run.log,
      /no \.github\/tiperf\/source-count\.yaml in this commit: the counting phase is not run/,
    );
    // both commits built by the tree's own command, once each
    for (const c of [base, head])
      assert.match(run.log, new RegExp(`build ${c.slice(0, 10)} .*: make server`));
    const body = gh.comments.get(9)?.[0]?.body ?? "";
    writeFileSync(join(OUT, "tidb-source.comment.md"), body);
    assert.match(body, /tidb-source-pr/);
    assert.match(
      body,
      /🔭 Not judged here: GC against PD's safe point .*\(pkg\/store\/gcworker\/gc_worker\.go\)/,
    );
    assert.match(body, /cluster profile/);
    assert.doesNotMatch(body, /pkg\/executor\/sort\.go/, "the SQL layer's paths are judged here");
    rmSync(builds, { recursive: true, force: true });
    rmSync(repo, { recursive: true, force: true });
    assert.deepEqual(leftovers(), before);
  });
});
