// test-lane: parallel (nothing asserted here rests on measured speed: scripts/run-tests.mjs)
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { connectionArgs, DATABASE } from "../../action/src/drivers/sysbench/index.ts";
import { parseSysbench } from "../../action/src/drivers/sysbench/parse.ts";
import { runTool } from "../../action/src/proc/tool.ts";
import { readResult } from "../../action/src/result/store.ts";
import { startTarget } from "../../action/src/targets/registry.ts";
import { createDatabaseSql } from "../../action/src/targets/tables.ts";
import type { PlanStep } from "../../action/src/targets/types.ts";
import { keyedAsPlanned, planOfRun, ranAsPlanned, samePlanned } from "../helpers/plan.ts";
import { cli, leftovers, tempDir, writeSpec } from "../helpers/real.ts";

/**
 * The run carried out the plan `tiperf plan --run-id` prints for it: its directory's plan.json and
 * plan.txt are that plan's, and every load-tool step the plan shows (data steps and each cell's
 * command line) ran with those words (executed.json; a port picked at start where it says <port>).
 */
async function assertRanAsPlanned(spec: string, runDir: string) {
  const planned = JSON.parse(await planOfRun(spec, runDir)) as {
    steps: Record<"setup" | "per_cell" | "end", PlanStep[]>;
  };
  const executed = JSON.parse(readFileSync(join(runDir, "executed.json"), "utf8")) as PlanStep[];
  const all = [...planned.steps.setup, ...planned.steps.per_cell, ...planned.steps.end];
  const tools = all.filter((st) => "command" in st.run && /sysbench$/.test(st.run.command[0] ?? ""));
  // and tiperf's own SQL that gives the run its database, in the server's own words
  const database = all.filter((st) => st.phase === "load" && "sql" in st.run);
  assert.ok(database.length > 0, "the plan says how the database is created");
  for (const st of database)
    assert.ok(
      executed.some((x) => x.phase === "load" && samePlanned(st.run, x.run)),
      `the planned load step ${JSON.stringify(st.run)} did not run as planned:\n${executed.map((x) => JSON.stringify(x.run)).join("\n")}`,
    );
  // and nothing of that kind ran that the plan does not show
  for (const x of executed.filter((e) => e.phase === "load" && "sql" in e.run))
    assert.ok(
      database.some((st) => samePlanned(st.run, x.run)),
      `${JSON.stringify(x.run)} ran unplanned`,
    );
  // every step it carried out is the plan's step of its key, in its words: the server's start, the
  // database, each data step, warmup and run, the cleanup
  const ran = ranAsPlanned(runDir);
  // by key both ways: each step carries a key plan.json has; every start and record step ran
  const keys = [...keyedAsPlanned(runDir, ["start", "record"])];
  for (const p of ["install:", "server:", "version:", "database:", "data:", "run:", "cleanup:"])
    assert.ok(
      keys.some((k) => k.startsWith(p)),
      `no ${p} step ran: ${ran.map((x) => x.key).join(" ")}`,
    );
  assert.ok(tools.some((st) => st.phase === "cell") && tools.some((st) => st.phase === "prepare"));
  for (const st of tools)
    assert.ok(
      executed.some((x) => x.phase === st.phase && samePlanned(st.run, x.run)),
      `the planned ${st.phase} step ${JSON.stringify(st.run)} did not run as planned:\n${executed.map((x) => JSON.stringify(x.run)).join("\n")}`,
    );
}

const runDirOf = (out: string) => {
  const runs = readdirSync(out);
  assert.equal(runs.length, 1, `one run directory under ${out}`);
  return join(out, runs[0] as string);
};

describe("tiperf run on real servers", () => {
  for (const kind of ["mariadb", "postgres"]) {
    test(`${kind}: every cell measured, written and reported`, async () => {
      const before = leftovers();
      const dir = tempDir();
      const out = join(dir, "results");
      const run = cli(["run", "--spec", writeSpec(dir, { kind }), "--out", out]);
      const { code } = await run.done;
      assert.equal(code, 0, run.stderr());
      const runDir = runDirOf(out);
      assert.equal(run.stdout().trim(), join(runDir, "report.md"));
      const result = await readResult(join(runDir, "result.json"));
      assert.equal(result.status, "complete");
      assert.equal(result.targets[0]?.kind, kind);
      assert.deepEqual(
        result.cells.map((c) => [c.threads, c.status]),
        [
          [1, "ok"],
          [2, "ok"],
        ],
      );
      for (const c of result.cells) {
        assert.ok((c.metrics.tps?.value ?? 0) > 0, "a real, positive throughput");
        assert.deepEqual(
          [c.driver, c.metrics.tps?.unit, c.metrics.tps?.better],
          ["sysbench", "1/s", "higher"],
        );
        // the cell's numbers are sysbench's own summary of the measured run, which ran after
        // the warmup's own invocation: what an engineer reads off the raw output
        assert.equal(c.metrics_source, "summary");
        const rawText = readFileSync(join(runDir, c.raw_log), "utf8");
        const summary = parseSysbench(rawText);
        assert.equal(c.metrics.p95_ms?.value, summary.latency_ms.p95);
        assert.equal(c.metrics.tps?.value, summary.tps);
        assert.equal(c.metrics.errors?.value, summary.errors);
        // 2 s of duration after 1 s of warmup: the measured run lasted the duration alone
        assert.ok(summary.duration_s < 2.9, `the measured run lasted ${summary.duration_s}s`);
        const warmLog = join(runDir, c.raw_log.replace(/\.log$/, "-warmup.log"));
        assert.ok(existsSync(warmLog), "the warmup's own output kept");
        assert.ok(c.intervals.length > 0 && c.intervals.every((i) => !i.warmup));
      }
      const raw = readdirSync(join(runDir, "raw")).sort();
      assert.ok(
        raw.includes("base-sysbench-prepare.log") && raw.includes("base-sysbench-cleanup.log"),
        raw.join(","),
      );
      assert.equal(
        raw.includes("base-sysbench-prewarm.log"),
        kind === "mariadb",
        "prewarm runs where sysbench supports it",
      );
      assert.ok(readdirSync(join(runDir, "server", "base")).length > 0, "server logs kept");
      const md = readFileSync(join(runDir, "report.md"), "utf8");
      assert.match(md, /\| Threads \| TPS \| QPS \| p95 \(ms\) \| errors \|/);
      assert.match(run.stderr(), /\[1\/2\] point_select threads=1 · 1 after this · elapsed/);
      assert.deepEqual(leftovers(), before);
      await assertRanAsPlanned(join(dir, "spec.yaml"), runDir);
    });
  }

  test("a matrix over two runners: run --shard 1/2 and 2/2 each run their cells, merge joins them", async () => {
    const before = leftovers();
    const dir = tempDir();
    const spec = writeSpec(dir, { kind: "mariadb" });
    const parts = [];
    for (const k of [1, 2]) {
      const out = join(dir, `shard-${k}`);
      const run = cli(["run", "--spec", spec, "--out", out, "--shard", `${k}/2`]);
      assert.equal((await run.done).code, 0, run.stderr());
      const part = await readResult(join(runDirOf(out), "result.json"));
      assert.deepEqual(
        part.cells.map((c) => c.threads),
        [k],
        `shard ${k} runs the ${k === 1 ? "first" : "second"} cell only`,
      );
      assert.deepEqual(part.shard && "cells" in part.shard ? part.shard.cells : [], [
        `point_select threads=${k}`,
      ]);
      parts.push(join(runDirOf(out), "result.json"));
    }
    const merged = join(dir, "merged");
    const merge = cli(["merge", ...parts, "--out", merged]);
    assert.equal((await merge.done).code, 0, merge.stderr());
    assert.equal(merge.stdout().trim(), "complete");
    const whole = await readResult(join(merged, "result.json"));
    assert.deepEqual(
      whole.cells.map((c) => [c.threads, c.status]),
      [
        [1, "ok"],
        [2, "ok"],
      ],
    );
    // judged against a baseline: the merged run is one run; a shard short is named, and fails
    const short = cli([
      "merge",
      parts[0] as string,
      "--out",
      join(dir, "short"),
      "--baseline",
      join(merged, "result.json"),
    ]);
    assert.equal((await short.done).code, 3, short.stderr());
    assert.match(short.stderr(), /1 of 2 shards merged .*missing: shard 2/);
    const refused = cli(["run", "--spec", spec, "--shard", "1/2", "--baseline", join(merged, "result.json")]);
    assert.equal((await refused.done).code, 2);
    assert.match(refused.stderr(), /--shard runs a share of the matrix, which a baseline cannot judge alone/);
    assert.deepEqual(leftovers(), before);
  });

  test("a run leaves nothing of its own in the temp directory: data, sockets, ledger, logs all gone", async () => {
    const dir = tempDir();
    // a temp directory of this run alone, the ledger in its default place there
    const tmp = join(dir, "tmp");
    mkdirSync(tmp);
    const out = join(dir, "results");
    const run = cli(["run", "--spec", writeSpec(dir, { threads: [1] }), "--out", out], {
      TMPDIR: tmp,
      TIPERF_LEDGER: undefined,
      TIPERF_DATA_DIR: undefined,
    });
    const { code } = await run.done;
    assert.equal(code, 0, run.stderr());
    assert.equal((await readResult(join(runDirOf(out), "result.json"))).status, "complete");
    // tsx (which runs the CLI from source here) keeps its compile cache there: not the run's
    assert.deepEqual(
      readdirSync(tmp).filter((f) => !f.startsWith("tsx-")),
      [],
      "the run left files in its temp directory",
    );
  });

  test("TIPERF_DATA_DIR chooses where the server's data go; the result records that directory's filesystem and room", async () => {
    const dir = tempDir();
    const data = join(dir, "data-here");
    mkdirSync(data);
    const out = join(dir, "results");
    const run = cli(["run", "--spec", writeSpec(dir, { threads: [1] }), "--out", out], {
      TIPERF_DATA_DIR: data,
    });
    assert.equal((await run.done).code, 0, run.stderr());
    const result = await readResult(join(runDirOf(out), "result.json"));
    const facts = result.targets[0]?.details?.data_dir as {
      path: string;
      filesystem: string;
      free_bytes: number;
    };
    assert.ok(facts.path.startsWith(`${data}/tiperf-mariadb-`), facts.path);
    assert.match(facts.filesystem, /^[a-z0-9]+$/);
    assert.ok(facts.free_bytes > 0);
    assert.match(run.stderr(), new RegExp(`datadir ${data}/tiperf-mariadb-`));
    assert.deepEqual(readdirSync(data), [], "the data directory is removed after the run");
  });

  test("killing the server mid-run: non-zero exit naming the cell, finished cells on disk, nothing left", async () => {
    const before = leftovers();
    const dir = tempDir();
    const out = join(dir, "results");
    const run = cli(["run", "--spec", writeSpec(dir, { threads: [1, 2, 4], duration: 4 }), "--out", out]);
    const pid = Number((await run.waitFor(/MariaDB .* \(pid (\d+),/))[1]);
    await run.waitFor(/\[2\/3\] point_select threads=2/);
    // killed once the measured run has printed its first second (not after a fixed wait: a busy
    // machine connects and warms up more slowly); bounded
    const cellLog = () => join(runDirOf(out), "raw", "point_select-t2.log");
    for (let i = 0; i < 300; i++) {
      if (existsSync(cellLog()) && readFileSync(cellLog(), "utf8").includes("[ 1s ]")) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    process.kill(pid, "SIGKILL");
    const { code } = await run.done;
    assert.equal(code, 3, run.stderr());
    assert.match(
      run.stderr(),
      /error: cell point_select threads=2 failed: run stopped: MariaDB \(pid \d+\) exited unexpectedly \(code null, signal SIGKILL\)/,
    );
    const result = await readResult(join(runDirOf(out), "result.json"));
    assert.equal(result.status, "failed");
    assert.deepEqual(
      result.cells.map((c) => [c.threads, c.status]),
      [
        [1, "ok"],
        [2, "failed"],
      ],
    );
    assert.ok(
      readFileSync(join(runDirOf(out), "raw", "point_select-t2.log"), "utf8").includes("[ 1s ]"),
      "raw output up to the crash is kept",
    );
    assert.match(readFileSync(join(runDirOf(out), "report.md"), "utf8"), /Failed cells/);
    assert.deepEqual(leftovers(), before);
  });

  test("SIGTERM to tiperf: exit 143, finished cells on disk, server stopped, datadir removed", async () => {
    const before = leftovers();
    const dir = tempDir();
    const out = join(dir, "results");
    const run = cli(["run", "--spec", writeSpec(dir, { threads: [1, 2, 4], duration: 4 }), "--out", out]);
    await run.waitFor(/\[2\/3\] point_select threads=2/);
    await new Promise((r) => setTimeout(r, 1500));
    run.child.kill("SIGTERM");
    const { code } = await run.done;
    assert.equal(code, 143, run.stderr());
    assert.match(run.stderr(), /SIGTERM received: stopping and tearing down/);
    const result = await readResult(join(runDirOf(out), "result.json"));
    assert.equal(result.status, "interrupted");
    assert.equal(result.cells[0]?.status, "ok");
    assert.deepEqual(leftovers(), before);
  });

  test("a cancelled CI job (SIGINT, then SIGTERM during teardown): exit 130, nothing left behind", async () => {
    // A runner cancels with SIGINT and follows with SIGTERM a few seconds later; the second signal
    // arrives while servers are stopping and must not cut the teardown short.
    const before = leftovers();
    const dir = tempDir();
    const out = join(dir, "results");
    const run = cli(["run", "--spec", writeSpec(dir, { threads: [1, 2], duration: 20 }), "--out", out]);
    await run.waitFor(/\[1\/2\] point_select threads=1/);
    await new Promise((r) => setTimeout(r, 1500));
    run.child.kill("SIGINT");
    await run.waitFor(/SIGINT received/);
    run.child.kill("SIGTERM");
    const { code } = await run.done;
    assert.equal(code, 130, run.stderr());
    assert.doesNotMatch(run.stderr(), /SIGTERM received/, "the second signal starts no second teardown");
    const result = await readResult(join(runDirOf(out), "result.json"));
    assert.equal(result.status, "interrupted");
    assert.deepEqual(leftovers(), before);
  });

  test("tiperf parse sysbench gives the numbers sysbench printed on a fresh output", async () => {
    const dir = tempDir();
    const target = await startTarget(
      { kind: "mariadb", config: {} },
      { maxConnections: 10, logDir: dir, log: () => {} },
    );
    const file = join(dir, "fresh.txt");
    try {
      await target.createDatabase(DATABASE, createDatabaseSql(DATABASE));
      const common = [...connectionArgs(target.connection), "--tables=1", "--table-size=500"];
      const sysbench = (args: string[], o: { logFile: string }) => runTool("sysbench", args, o);
      assert.equal(
        (await sysbench(["oltp_common", ...common, "prepare"], { logFile: join(dir, "prep.txt") })).code,
        0,
      );
      const r = await sysbench(
        [
          "oltp_read_only",
          ...common,
          "--threads=2",
          "--time=2",
          "--report-interval=1",
          "--percentile=90",
          "run",
        ],
        { logFile: join(dir, "raw.txt") },
      );
      assert.equal(r.code, 0);
      writeFileSync(file, r.output);
    } finally {
      await target.stop();
    }
    const run = cli(["parse", "sysbench", file]);
    assert.equal((await run.done).code, 0, run.stderr());
    const parsed = JSON.parse(run.stdout());
    // Read the same numbers off the text independently of the parser.
    const text = readFileSync(file, "utf8");
    const grab = (re: RegExp) => Number(re.exec(text)?.[1]);
    assert.equal(parsed.transactions, grab(/transactions:\s+(\d+)/));
    assert.equal(parsed.tps, grab(/transactions:\s+\d+\s+\(([\d.]+) per sec/));
    assert.equal(parsed.qps, grab(/queries:\s+\d+\s+\(([\d.]+) per sec/));
    assert.equal(parsed.queries.read, grab(/read:\s+(\d+)/));
    assert.equal(parsed.queries.total, grab(/total:\s+(\d+)/));
    assert.equal(parsed.latency_ms.p90, grab(/90th percentile:\s+([\d.]+)/));
    assert.equal(parsed.latency_ms.max, grab(/max:\s+([\d.]+)/));
    assert.equal(parsed.threads, 2);
    const lines = text.split("\n").filter((l) => l.startsWith("[ "));
    assert.equal(parsed.intervals.length, lines.length);
    assert.equal(parsed.intervals[0].qps, grab(/^\[ 1s \].* qps: ([\d.]+)/m));
  });

  test("bad input: exit 2 and a message naming the flag or key; nothing runs", async () => {
    const dir = tempDir();
    const badSpec = writeSpec(dir, { threads: [] });
    const out = join(dir, "results");
    const run = cli(["run", "--spec", badSpec, "--out", out]);
    assert.equal((await run.done).code, 2);
    assert.match(run.stderr(), /spec\.yaml:9: workloads\[0\]\.threads: must list at least one thread count/);
    assert.equal(existsSync(out), false, "nothing ran, nothing written");
    const noSpec = cli(["run"]);
    assert.equal((await noSpec.done).code, 2);
    assert.match(noSpec.stderr(), /tiperf run: --spec is required/);
    const badFlag = cli(["run", "--spek", "x"]);
    assert.equal((await badFlag.done).code, 2);
    assert.match(
      badFlag.stderr(),
      /tiperf run: unknown flag --spek \(did you mean --spec\?\) \(allowed: --spec, --out, --baseline, --json, --shard, --profile, --base-ref, --head-ref, --base-config, --head-config, --base-version, --head-version, --base-binpath, --head-binpath, --tolerance\)/,
    );
    const garbage = cli(["parse", "sysbench", join(dir, "spec.yaml")]);
    assert.equal((await garbage.done).code, 2);
    assert.match(garbage.stderr(), /spec\.yaml: expected sysbench's "SQL statistics:" summary block/);
  });
});
