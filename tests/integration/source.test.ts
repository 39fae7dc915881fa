// test-lane: parallel (nothing asserted here rests on measured speed: scripts/run-tests.mjs)
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { readResult } from "../../action/src/result/store.ts";
import { buildAt, resolveCommit, type SourceSpec } from "../../action/src/targets/tidb/source.ts";
import { ROOT } from "../helpers/paths.ts";
import { cli, leftovers, tempDir } from "../helpers/real.ts";

/**
 * target.source: tidb-server built per commit of a source tree. The tree here is a git repository
 * made by the test whose build script writes bin/tidb-server — a wrapper around the test-only
 * stand-in (tests/helpers/stand-ins/tidb-server) reporting the tree's VERSION file — and counts
 * its runs, so "never built twice" is something the test can see.
 */
const STAND_IN = join(ROOT, "tests/helpers/stand-ins/tidb-server");

const BUILD = `#!/bin/sh
set -e
echo "building $(cat VERSION)"
[ -f FAIL ] && { echo "compile error: FAIL is here" >&2; exit 3; }
mkdir -p bin
printf '#!/bin/sh\\nTIDB_STAND_IN_VERSION=%s exec %s "$@"\\n' "$(cat VERSION)" "${STAND_IN}" > bin/tidb-server
chmod +x bin/tidb-server
echo "$(git rev-parse HEAD)" >> "$BUILD_COUNT"
`;

function sourceTree(): { dir: string; git: (...a: string[]) => string } {
  const dir = tempDir("tiperf-source-tree-");
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.invalid", ...args], {
      encoding: "utf8",
    }).trim();
  git("init", "-q", "-b", "main");
  writeFileSync(join(dir, "build.sh"), BUILD, { mode: 0o755 });
  writeFileSync(join(dir, "VERSION"), "v8.5.0\n");
  git("add", "-A");
  git("commit", "-q", "-m", "first");
  return { dir, git };
}

const src = (dir: string, count: string): SourceSpec => ({
  path: dir,
  build: ["./build.sh"],
  binary: "bin/tidb-server",
  timeout: "2m",
  keep: "10G",
  env: { BUILD_COUNT: count },
});

describe("target.source: tidb-server built per commit", () => {
  test("each commit built once in the tree's checkout, then kept; its log beside the binary", async () => {
    const { dir, git } = sourceTree();
    const count = join(tempDir(), "count");
    const builds = tempDir();
    process.env.TIPERF_BUILDS = builds;
    try {
      const first = git("rev-parse", "HEAD");
      writeFileSync(join(dir, "VERSION"), "v9.0.0\n");
      git("commit", "-q", "-am", "second");
      const second = git("rev-parse", "HEAD");
      const log = () => {};
      const a = await buildAt(src(dir, count), first, { log });
      const b = await buildAt(src(dir, count), second, { log });
      const again = await buildAt(src(dir, count), first, { log });
      assert.deepEqual(
        readFileSync(count, "utf8").trim().split("\n"),
        [first, second],
        "two builds, one per commit",
      );
      assert.equal(a.kept, false);
      assert.equal(again.kept, true);
      assert.equal(again.binary, a.binary);
      assert.notEqual(a.binary, b.binary);
      assert.match(execFileSync(a.binary, ["-V"], { encoding: "utf8" }), /Release Version: v8\.5\.0/);
      assert.match(execFileSync(b.binary, ["-V"], { encoding: "utf8" }), /Release Version: v9\.0\.0/);
      assert.match(readFileSync(b.log, "utf8"), /building v9\.0\.0/);
      assert.equal(b.subject, "second");
      // the tree's own work tree is not touched: the builds ran in a checkout beside it
      assert.equal(git("rev-parse", "HEAD"), second);
      assert.equal(existsSync(join(dir, "bin")), false);
    } finally {
      delete process.env.TIPERF_BUILDS;
    }
  });

  test("a failing build, a build that leaves no binary and a bad ref each say what and where", async () => {
    const { dir, git } = sourceTree();
    process.env.TIPERF_BUILDS = tempDir();
    try {
      writeFileSync(join(dir, "FAIL"), "x");
      git("add", "FAIL");
      git("commit", "-q", "-m", "break the build");
      const broken = git("rev-parse", "HEAD");
      await assert.rejects(
        buildAt(src(dir, join(tempDir(), "c")), broken, { log: () => {} }),
        /build of [0-9a-f]{10} \(break the build\) failed: \.\/build\.sh exited 3; its log: .*build\.log\n(.|\n)*compile error: FAIL is here/,
      );
      await assert.rejects(
        buildAt({ ...src(dir, join(tempDir(), "c")), build: ["true"] }, git("rev-parse", "HEAD~1"), {
          log: () => {},
        }),
        /exited 0 but left no bin\/tidb-server \(target\.source\.binary\)/,
      );
      await assert.rejects(
        resolveCommit(dir, "no-such-branch"),
        /target\.source\.ref: no-such-branch is not a commit of/,
      );
      await assert.rejects(
        resolveCommit(join(dir, "nope"), "HEAD"),
        /target\.source\.path: .*nope does not exist/,
      );
    } finally {
      delete process.env.TIPERF_BUILDS;
    }
  });

  test("a source PR check: --base-ref/--head-ref build the head and its merge base (not the base branch's tip) and compare them", async () => {
    const before = leftovers();
    const { dir, git } = sourceTree();
    const count = join(tempDir(), "count");
    const mergeBase = git("rev-parse", "HEAD");
    git("checkout", "-q", "-b", "feature");
    writeFileSync(join(dir, "VERSION"), "v9.0.0\n");
    git("commit", "-q", "-am", "the PR's change");
    const head = git("rev-parse", "HEAD");
    git("checkout", "-q", "main");
    writeFileSync(join(dir, "VERSION"), "v8.5.1\n");
    git("commit", "-q", "-am", "main moved on");
    const out = tempDir();
    const spec = join(out, "spec.yaml");
    writeFileSync(
      spec,
      `name: source-pr
target:
  kind: tidb
  profile: ${join(ROOT, "infra/profiles/local.yaml")}
  source: {path: ${dir}, build: [./build.sh], env: {BUILD_COUNT: ${count}}}
data: {tables: 1, table_size: 500}
workloads:
  - {name: point_select, sysbench: oltp_point_select, threads: [2], duration: 1s, warmup: 0s}
metrics: {tps: {tolerance: 50%}}
compare: {rounds: 2, warmup_rounds: 0, confirm: 0}
`,
    );
    const env = { TIPERF_BUILDS: tempDir() };
    const plan = cli(["plan", "--spec", spec, "--base-ref", "main", "--head-ref", "feature"], env);
    assert.equal((await plan.done).code, 0, plan.stderr());
    assert.ok(!existsSync(count), "plan builds nothing");
    assert.match(plan.stdout(), new RegExp(`${mergeBase}-[0-9a-f]{8}/tidb-server`));
    assert.match(plan.stdout(), new RegExp(`${head}-[0-9a-f]{8}/tidb-server`));
    const run = cli(
      [
        "compare",
        "--spec",
        spec,
        "--base-ref",
        "main",
        "--head-ref",
        "feature",
        "--out",
        join(out, "results"),
      ],
      env,
    );
    const { code } = await run.done;
    assert.ok(code === 0 || code === 1, `exit ${code}\n${run.stderr()}`);
    assert.deepEqual(readFileSync(count, "utf8").trim().split("\n").sort(), [mergeBase, head].sort());
    const runDir = join(out, "results", readdirSync(join(out, "results"))[0] as string);
    const result = await readResult(join(runDir, "result.json"));
    assert.deepEqual(
      result.targets.map((t) => [t.variant, t.version]),
      [
        ["base", "v8.5.0"],
        ["head", "v9.0.0"],
      ],
      "base is the merge base's build, head the PR's",
    );
    const verdict = JSON.parse(readFileSync(join(runDir, "verdict.json"), "utf8"));
    assert.match(
      readFileSync(join(runDir, "verdict.md"), "utf8"),
      new RegExp(
        `head vs base: version: v8\\.5\\.0 → v9\\.0\\.0, build: commit ${mergeBase.slice(0, 10)} → commit ${head.slice(0, 10)}`,
      ),
    );
    assert.ok(
      verdict.notes.some((n: string) =>
        n.startsWith(`base: its server built from ${dir} at ${mergeBase.slice(0, 10)} (first)`),
      ),
      verdict.notes.join("\n"),
    );
    assert.deepEqual(leftovers(), before);
  });
});
