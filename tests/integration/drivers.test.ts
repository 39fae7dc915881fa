// test-lane: parallel (nothing asserted here rests on measured speed: scripts/run-tests.mjs)
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { describe, test } from "node:test";
import { readResult } from "../../action/src/result/store.ts";
import { ROOT } from "../helpers/paths.ts";
import { cli, leftovers, tempDir } from "../helpers/real.ts";

/**
 * go-tpc and go-ycsb are in no package registry these machines reach: these tests put test-only
 * stand-ins on PATH (tests/helpers/stand-ins) that replay real recorded outputs with the real exit
 * codes, and run them through the real pipeline against a real MariaDB. The numbers in the result
 * are therefore the recorded ones; what is tested is the pipeline around the tools.
 */
const STAND_INS = join(ROOT, "tests/helpers/stand-ins");
const withoutTools = (process.env.PATH ?? "")
  .split(delimiter)
  .filter((d) => !["go-tpc", "go-ycsb", "tiup"].some((t) => existsSync(join(d, t))))
  .join(delimiter);
const standInPath = `${STAND_INS}${delimiter}${withoutTools}`;

function mixedSpec(
  dir: string,
  tpccOptions = "{warehouses: 2}",
  ycsbOptions = "{recordcount: 20000}",
): string {
  const file = join(dir, "mixed.yaml");
  writeFileSync(
    file,
    `name: mixed
target: {kind: mariadb}
data: {tables: 1, table_size: 1000}
workloads:
  - {name: point_select, sysbench: oltp_point_select, threads: [2], duration: 2s, warmup: 1s}
  - {name: tpcc, go-tpc: tpcc, options: ${tpccOptions}, threads: [4], duration: 30s}
  - {name: ycsb_a, go-ycsb: workloada, options: ${ycsbOptions}, threads: [4], duration: 12s}
metrics:
  tps: {tolerance: 5%}
  tpmc: {tolerance: 5%}
  read_p99_us: {tolerance: 10%}
`,
  );
  return file;
}

const runDirOf = (out: string) => join(out, readdirSync(out)[0] as string);

describe("load tools as drivers, through the real pipeline (go-tpc and go-ycsb stand-ins)", () => {
  test("a spec mixing sysbench, go-tpc tpcc and go-ycsb: every cell in one result, seed-shaped tables", async () => {
    const before = leftovers();
    const dir = tempDir();
    const out = join(dir, "out");
    const run = cli(["run", "--spec", mixedSpec(dir), "--out", out], { PATH: standInPath });
    assert.equal((await run.done).code, 0, run.stderr());
    const runDir = runDirOf(out);
    const result = await readResult(join(runDir, "result.json"));
    assert.equal(result.version, 2);
    assert.deepEqual(
      result.cells.map((c) => [c.workload, c.driver, c.script, c.status]),
      [
        ["point_select", "sysbench", "oltp_point_select", "ok"],
        ["tpcc", "go-tpc", "tpcc", "ok"],
        ["ycsb_a", "go-ycsb", "workloada", "ok"],
      ],
    );
    const [sb, tpcc, ycsb] = result.cells;
    assert.ok((sb?.metrics.tps?.value ?? 0) > 0, "sysbench really ran");
    // the replayed outputs' own numbers, carried through parse → result
    assert.deepEqual(tpcc?.metrics.tpmc, { value: 18182.0, unit: "1/min", better: "higher" });
    assert.equal(tpcc?.metrics.errors?.value, 4);
    assert.equal(tpcc?.operations?.NEW_ORDER?.count, 12091);
    assert.equal(tpcc?.errors?.NEW_ORDER?.count, 3);
    assert.deepEqual(ycsb?.metrics.read_p99_us, { value: 1547, unit: "us", better: "lower" });
    assert.equal(ycsb?.metrics.ops?.value, 5225.5);
    // what tiperf asked of each tool: argument arrays from the target's endpoint
    const tpccLog = readFileSync(join(runDir, tpcc?.raw_log ?? ""), "utf8").split("\n")[0] ?? "";
    assert.match(
      tpccLog,
      /^\$ \S*go-tpc tpcc -d mysql -H 127\.0\.0\.1 -P \d+ -U root -D tpcc --warehouses 2 -T 4 --time 30s --interval 2s run$/,
    );
    const ycsbLog = readFileSync(join(runDir, ycsb?.raw_log ?? ""), "utf8").split("\n")[0] ?? "";
    assert.match(
      ycsbLog,
      /-p mysql\.host=127\.0\.0\.1 -p mysql\.port=\d+ -p mysql\.user=root -p mysql\.db=ycsb/,
    );
    assert.match(ycsbLog, /-p operationcount=1000000000000 --threads 4 --interval 2$/);
    const raw = readdirSync(join(runDir, "raw"));
    for (const f of [
      "base-go-tpc-prepare.log",
      "base-go-ycsb-load.log",
      "base-sysbench-prepare.log",
      "base-go-tpc-cleanup.log",
    ])
      assert.ok(raw.includes(f), `${f} in ${raw.join(", ")}`);
    const md = readFileSync(join(runDir, "report.md"), "utf8");
    assert.match(md, /\| Threads \| TPS \| QPS \| p95 \(ms\) \| errors \|/);
    assert.match(
      md,
      /\| Threads \| tpmC \| tpmTotal \| NEW_ORDER p95 \(ms\) \| NEW_ORDER p99 \(ms\) \| errors \|\n\|[-:|]+\|\n\| 4 \| 18182\.00 \| 40578\.40 \| 14\.20 \| 33\.60 \| 4 \|/,
    );
    assert.match(
      md,
      /\| Threads \| OPS \| READ p99 \(us\) \| UPDATE p99 \(us\) \| errors \|\n\|[-:|]+\|\n\| 4 \| 5225\.50 \| 1547\.00 \| 3889\.00 \| 0 \|/,
    );
    assert.equal(
      result.tools["go-tpc"],
      join(STAND_INS, "go-tpc"),
      "no version command: the program that ran",
    );
    assert.deepEqual(leftovers(), before);
  });

  test("go-tpc exits 0 although every worker failed: the cell fails in go-tpc's words", async () => {
    const dir = tempDir();
    const out = join(dir, "out");
    const run = cli(["run", "--spec", mixedSpec(dir, "{warehouses: 99}"), "--out", out], {
      PATH: standInPath,
    });
    assert.equal((await run.done).code, 3, run.stderr());
    assert.match(
      run.stderr(),
      /cell tpcc threads=4 failed: run: go-tpc exited 0 but failed: .*execute run failed, err panic in TPC-C Run .*nosuchdb\.customer/,
    );
    const result = await readResult(join(runDirOf(out), "result.json"));
    assert.equal(result.status, "failed");
    assert.deepEqual(
      result.cells.map((c) => c.status),
      ["ok", "failed"],
    );
  });

  test("go-ycsb's load fails (exit 1): the run stops before any cell, naming the step and go-ycsb's words", async () => {
    const dir = tempDir();
    const out = join(dir, "out");
    const run = cli(["run", "--spec", mixedSpec(dir, "{warehouses: 2}", "{recordcount: 99}"), "--out", out], {
      PATH: standInPath,
    });
    assert.equal((await run.done).code, 3, run.stderr());
    assert.match(run.stderr(), /base: load: go-ycsb exited with code 1: create db mysql failed Error 1049/);
    assert.equal((await readResult(join(runDirOf(out), "result.json"))).cells.length, 0);
  });

  test("neither go-tpc nor go-ycsb (nor tiup) on PATH: exit 3 before any server starts, naming both", async () => {
    const before = leftovers();
    const dir = tempDir();
    const out = join(dir, "out");
    const run = cli(["run", "--spec", mixedSpec(dir), "--out", out], { PATH: withoutTools });
    assert.equal((await run.done).code, 3, run.stderr());
    assert.match(run.stderr(), /not installed here, so nothing was started:/);
    assert.match(
      run.stderr(),
      /- go-tpc \(workload tpcc\): install go-tpc \(github\.com\/pingcap\/go-tpc\) on PATH, or tiup/,
    );
    assert.match(run.stderr(), /- go-ycsb \(workload ycsb_a\): install go-ycsb/);
    assert.doesNotMatch(run.stderr(), /target: MariaDB/);
    assert.ok(!existsSync(out) || readdirSync(out).length === 0, "no run directory");
    assert.deepEqual(leftovers(), before);
  });
});
