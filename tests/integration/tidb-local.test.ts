import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { readResult } from "../../action/src/result/store.ts";
import { ROOT } from "../helpers/paths.ts";
import { cli, leftovers, tempDir } from "../helpers/real.ts";

/**
 * A local TiDB profile (one private tidb-server per variant) through a test-only stand-in
 * tidb-server (tests/helpers/stand-ins/tidb-server: a private MariaDB plays TiDB, /status and
 * /config answer as TiDB's do). Everything else is tiperf's real pipeline.
 */
const STAND_IN = join(ROOT, "tests/helpers/stand-ins/tidb-server");

/** A "build" at `dir`/tidb-server reporting `version`: a wrapper running the stand-in as that version. */
function build(dir: string, version: string): string {
  const bin = join(dir, "tidb-server");
  writeFileSync(bin, `#!/bin/sh\nTIDB_STAND_IN_VERSION='${version}' exec '${STAND_IN}' "$@"\n`, {
    mode: 0o755,
  });
  return bin;
}

function spec(dir: string, target: string, extra = ""): string {
  const file = join(dir, "spec.yaml");
  writeFileSync(
    file,
    `name: tidb-local-itest
target:
  kind: tidb
  profile: ${join(ROOT, "infra/profiles/local.yaml")}
${target}
data: {tables: 1, table_size: 500}
workloads:
  - name: point_select
    sysbench: oltp_point_select
    threads: [2]
    duration: 2s
    warmup: 1s
${extra}`,
  );
  return file;
}

const runDirOf = (dir: string) => join(dir, "results", readdirSync(join(dir, "results"))[0] as string);

describe("a private tidb-server (provider local) through a stand-in build", () => {
  test("two builds as variants, 3 blocks: each its own server, restarted between blocks on the same data, configs read back; nothing left", async () => {
    const before = leftovers();
    const dir = tempDir();
    const base = build(tempDir(), "v8.5.0");
    const file = spec(
      dir,
      `  binpath: ${base}\n  server_configs: {tidb: {performance.max-procs: 1}}`,
      `variants:
  base: {}
  head: {target: {binpath: ${build(tempDir(), "v9.0.0-alpha.20260210")}, server_configs: {tidb: {performance.max-procs: 2}}}}
compare: {rounds: 3, warmup_rounds: 0, blocks: 3, confirm: 0}
`,
    );
    const run = cli(["compare", "--spec", file, "--out", join(dir, "results")], { PATH: process.env.PATH });
    const { code } = await run.done;
    assert.ok(code === 0 || code === 1, `exit ${code}:\n${run.stderr()}`);
    assert.match(run.stderr(), /tidb-server tiperf-\w+-base \(pid \d+\) on 127\.0\.0\.1:\d+, status \d+/);
    assert.match(run.stderr(), /block 2: base: tidb-server tiperf-\w+-base pid (\d+) → (?!\1)\d+/);
    const runDir = runDirOf(dir);
    const result = await readResult(join(runDir, "result.json"));
    assert.equal(result.status, "complete");
    assert.deepEqual(
      result.targets.map((t) => [
        t.variant,
        t.kind,
        t.version,
        t.effective_config["tidb.performance.max-procs"],
      ]),
      [
        ["base", "tidb-server", "v8.5.0", "1"],
        ["head", "tidb-server", "v9.0.0-alpha.20260210", "2"],
      ],
    );
    assert.ok(result.cells.every((c) => c.status === "ok"));
    // the start line ran as planned, ports and directory filled in; the restarts are recorded
    const executed = JSON.parse(readFileSync(join(runDir, "executed.json"), "utf8")) as {
      key?: string;
      run: { command?: string[] };
    }[];
    const start = executed.find((s) => s.key?.startsWith("start:") && s.key.endsWith("-base"));
    // it ran a fresh copy of the build in its work directory, copied as planned
    const program = start?.run.command?.[0] ?? "";
    assert.match(program, /\/tiperf-tidb-[^/]+\/bin\/tidb-server$/);
    const copy = executed.find((s) => s.key?.startsWith("copy:") && s.key.endsWith("-base"));
    assert.deepEqual(copy?.run.command, ["cp", base, program]);
    assert.deepEqual(start?.run.command?.slice(1, 3), ["-store", "unistore"]);
    assert.ok(!JSON.stringify(start).includes("<port of"), "the ports were filled in");
    assert.equal(
      executed.filter((s) => s.key?.startsWith("restart:")).length,
      4,
      "a restart per server before blocks 2 and 3",
    );
    // the servers' logs are kept with the run
    assert.ok(readdirSync(join(runDir, "server", "base")).includes("tidb.log"));
    assert.deepEqual(leftovers(), before);
  });

  test("a build that reports another version than the spec declares: the run fails before any cell, naming both", async () => {
    const before = leftovers();
    const dir = tempDir();
    const bin = build(tempDir(), "v9.0.0-alpha.20260210");
    const run = cli(
      ["run", "--spec", spec(dir, `  binpath: ${bin}\n  version: v8.5.0`), "--out", join(dir, "results")],
      {},
    );
    const { code } = await run.done;
    assert.equal(code, 3, run.stderr());
    assert.match(
      run.stderr(),
      /target\.version is v8\.5\.0 but .*tidb-server reports Release Version v9\.0\.0-alpha\.20260210/,
    );
    const result = await readResult(join(runDirOf(dir), "result.json"));
    assert.equal(result.cells.filter((c) => c.status === "ok").length, 0);
    assert.deepEqual(leftovers(), before);
  });

  test("a config key TiDB does not know: the start fails in TiDB's words (-config-strict), logs kept", async () => {
    const before = leftovers();
    const dir = tempDir();
    const bin = build(tempDir(), "v8.5.0");
    const run = cli(
      [
        "run",
        "--spec",
        spec(dir, `  binpath: ${bin}\n  server_configs: {tidb: {performance.no-such-key: 1}}`),
        "--out",
        join(dir, "results"),
      ],
      {},
    );
    const { code } = await run.done;
    assert.equal(code, 3, run.stderr());
    assert.match(
      run.stderr(),
      /TiDB tiperf-\w+ did not start: config file .*base-tidb\.toml contained invalid configuration options: performance\.no-such-key/,
    );
    const logs = /logs kept in (\S+)/.exec(run.stderr())?.[1] as string;
    assert.match(readFileSync(join(logs, "tidb.log"), "utf8"), /\[FATAL\]/);
    assert.deepEqual(leftovers(), before);
  });

  test("no version and no build: refused before anything starts, naming both ways", async () => {
    const dir = tempDir();
    const run = cli(["run", "--spec", spec(dir, ""), "--out", join(dir, "results")], {});
    assert.equal((await run.done).code, 2, run.stderr());
    assert.match(
      run.stderr(),
      /target\.version: a TiDB target names the version tiup deploys \(like v8\.5\.0\), or a build to run \(target\.binpath\)/,
    );
  });
});

describe("CPU profiles of a regressed cell (compare.profiles)", () => {
  test("head's server at 5% of a CPU regresses: each side runs the cell once more with a profile taken over its measured run; verdict, files and comment name them", async () => {
    const before = leftovers();
    const dir = tempDir();
    const file = spec(
      dir,
      `  binpath: ${build(tempDir(), "v8.5.0")}`,
      `variants:
  base: {}
  head: {target: {resources: {cpu_quota: "5%"}}}
compare: {rounds: 3, warmup_rounds: 0, confirm: 0}
metrics: {tps: {tolerance: 5%}}
`,
    );
    const run = cli(["compare", "--spec", file, "--out", join(dir, "results")], { PATH: process.env.PATH });
    const { code } = await run.done;
    assert.equal(code, 1, `a regression: exit 1\n${run.stderr()}`);
    assert.match(
      run.stderr(),
      /profiles: point_select threads=2 regressed: base once more with CPU profiles/,
    );
    const runDir = runDirOf(dir);
    const verdict = JSON.parse(readFileSync(join(runDir, "verdict.json"), "utf8"));
    // per side tidb-server's CPU profile and its allocations over the same seconds
    assert.deepEqual(
      verdict.profiles.map((p: { variant: string; component: string; measures?: string }) => [
        p.variant,
        p.component,
        p.measures ?? "cpu",
      ]),
      [
        ["base", "tidb-server", "cpu"],
        ["base", "tidb-server", "alloc"],
        ["head", "tidb-server", "cpu"],
        ["head", "tidb-server", "alloc"],
      ],
    );
    for (const p of verdict.profiles) {
      const alloc = p.measures === "alloc";
      assert.match(
        p.file,
        alloc
          ? /^profiles\/point_select-t2-(base|head)-tidb-server-127\.0\.0\.1_\d+-alloc\.pprof$/
          : /^profiles\/point_select-t2-(base|head)-tidb-server-127\.0\.0\.1_\d+\.pprof$/,
      );
      // the profile spans the measured run: asked for (duration − 1) seconds
      assert.match(
        readFileSync(join(runDir, p.file), "utf8"),
        alloc ? /^stand-in allocs profile of pid \d+ over 1s/ : /^stand-in cpu profile of pid \d+ over 1s/,
      );
      assert.equal(p.top, undefined, "not a pprof file: no busiest functions");
      assert.ok(p.measured.tps > 0);
    }
    // the re-runs are kept apart: raw logs tagged, not among the judged cells
    assert.ok(readdirSync(join(runDir, "raw")).includes("point_select-t2-head-r1-profile.log"));
    const result = await readResult(join(runDir, "result.json"));
    assert.equal(result.cells.length, 6);
    const comment = readFileSync(join(runDir, "verdict.md"), "utf8");
    assert.match(comment, /CPU profiles of the regressed cells/);
    assert.match(
      comment,
      /\| point_select threads=2 \| head \(tps \d+\) \| tidb-server 127\.0\.0\.1:\d+ \| `profiles\/point_select-t2-head-tidb-server-127\.0\.0\.1_\d+\.pprof` \| – \|/,
    );
    assert.deepEqual(leftovers(), before);
  });
});
