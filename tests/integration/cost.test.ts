// test-lane: parallel (nothing asserted here rests on measured speed: scripts/run-tests.mjs)
// Cost per operation on real servers: the counters a private MariaDB and PostgreSQL keep grow by
// the reads a client makes, and a comparison's cells carry the cost of their measured window,
// judged and read beside throughput in the verdict, the comment and report.html.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { withPooledBackground } from "../../action/src/compare/background.ts";
import { runCommand } from "../../action/src/proc/process.ts";
import { readResult } from "../../action/src/result/store.ts";
import { startTarget } from "../../action/src/targets/registry.ts";
import { able, type Target } from "../../action/src/targets/types.ts";
import { cli, leftovers, tempDir } from "../helpers/real.ts";

const log = () => {};
const READS = 200;

/** Polls the target's counters until `ready` holds (PostgreSQL publishes a backend's counts as it exits). */
async function countersUntil(t: Target, ready: (c: Record<string, number>) => boolean) {
  let c: Record<string, number> = {};
  for (let i = 0; i < 50; i++) {
    c = (await able(t.costCounters)?.()) ?? {};
    if (ready(c)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return c;
}

describe("server counters on real servers", () => {
  test("MariaDB: Handler reads grow by the point selects a client made; the server's CPU is counted", async () => {
    const t = await startTarget(
      { kind: "mariadb", config: {} },
      { maxConnections: 10, logDir: tempDir(), log },
    );
    try {
      const sql = (q: string) =>
        runCommand("mariadb", [
          "--no-defaults",
          "-h",
          "127.0.0.1",
          "-P",
          String(t.connection.endpoints[0]?.port),
          "-uroot",
          "-N",
          "-B",
          "-e",
          q,
        ]);
      await sql(
        "CREATE DATABASE d; CREATE TABLE d.t (id INT PRIMARY KEY, c INT); INSERT INTO d.t VALUES (1, 1)",
      );
      const before = (await able(t.costCounters)?.()) ?? {};
      assert.ok((before.cpu_s ?? 0) > 0, `the server's CPU seconds from /proc: ${JSON.stringify(before)}`);
      await sql(Array.from({ length: READS }, () => "SELECT c FROM d.t WHERE id = 1").join(";"));
      const after = (await able(t.costCounters)?.()) ?? {};
      const grew = (after.handler_reads ?? 0) - (before.handler_reads ?? 0);
      // one index lookup per select, plus what SHOW GLOBAL STATUS reads itself (its rows scanned)
      assert.ok(grew >= READS && grew < READS + 2000, `handler reads grew by ${grew}`);
      assert.ok(
        (after.innodb_buffer_pool_read_requests ?? 0) > (before.innodb_buffer_pool_read_requests ?? 0),
      );
      assert.ok((after.cpu_s ?? 0) >= (before.cpu_s ?? 0));
    } finally {
      await t.stop();
    }
  });

  test("PostgreSQL: tuples fetched grow by the point selects; backends' CPU counted in the server's tree", async () => {
    const t = await startTarget(
      { kind: "postgres", config: {} },
      { maxConnections: 10, logDir: tempDir(), log },
    );
    try {
      const psql = (q: string) =>
        runCommand("psql", [
          "-X",
          "-h",
          "127.0.0.1",
          "-p",
          String(t.connection.endpoints[0]?.port),
          "-U",
          "postgres",
          "-d",
          "postgres",
          "-Atc",
          q,
        ]);
      await psql("CREATE TABLE t (id INT PRIMARY KEY, c INT); INSERT INTO t VALUES (1, 1)");
      const before = await countersUntil(t, (c) => c.tup_fetched !== undefined);
      // enough selects that their backend's CPU spans many clock ticks (the kernel samples per tick)
      const reads = READS * 10;
      await psql(Array.from({ length: reads }, () => "SELECT c FROM t WHERE id = 1;").join(""));
      const after = await countersUntil(
        t,
        (c) =>
          (c.tup_fetched ?? 0) - (before.tup_fetched ?? 0) >= reads && (c.cpu_s ?? 0) > (before.cpu_s ?? 0),
      );
      const grew = (after.tup_fetched ?? 0) - (before.tup_fetched ?? 0);
      assert.ok(grew >= reads && grew < reads * 20, `tup_fetched grew by ${grew}`);
      assert.ok(
        (after.cpu_s ?? 0) > (before.cpu_s ?? 0),
        "the backend that ran the selects is in the server's CPU",
      );
    } finally {
      await t.stop();
    }
  });
});

describe("a comparison's cost per operation", () => {
  test("cells carry their window's cost; the verdict reads CPU per transaction beside throughput", async () => {
    const before = leftovers();
    const dir = tempDir();
    const file = join(dir, "cost.yaml");
    writeFileSync(
      file,
      `name: cost
target: {kind: mariadb, config: {innodb_buffer_pool_size: 64M}}
data: {tables: 2, table_size: 2000}
workloads:
  - {name: point_select, sysbench: oltp_point_select, threads: [2], duration: 1s, warmup: 0s, options: {rand-type: uniform}}
metrics:
  tps: {tolerance: 50%}
  handler_reads_per_op: {tolerance: 50%}
variants: {base: {}, head: {}}
compare: {rounds: 4, order: interleaved, confirm: 0, profiles: 0}
`,
    );
    const out = join(dir, "out");
    const json = join(dir, "verdict.json");
    const run = cli(["compare", "--spec", file, "--out", out, "--json", json]);
    const { code } = await run.done;
    assert.equal(code, 0, run.stderr());
    assert.match(run.stderr(), /base: idle servers used \d+\.\d% of a CPU over 2s/);
    const runDir = join(out, readdirSync(out)[0] as string);
    const result = JSON.parse(readFileSync(join(runDir, "result.json"), "utf8"));
    const measured = result.cells.filter((c: { round: number }) => c.round > 0);
    assert.equal(measured.length, 8);
    for (const c of measured) {
      assert.ok(c.cost.window_s > 0.5 && c.cost.ops > 0, JSON.stringify(c.cost));
      assert.ok(Math.abs(c.cost.ops - c.metrics.tps.value * 1) < 1e-3 * c.cost.ops + 1, "ops = tps × 1 s");
      assert.equal(c.metrics.cpu_ms_per_op.unit, "ms/op");
      assert.ok(c.metrics.cpu_ms_per_op.value > 0);
      // a point select is one index read; the counters' own SHOW adds a few hundred per window
      const reads = c.metrics.handler_reads_per_op.value;
      assert.ok(reads >= 0.9 && reads < 2, `handler reads per transaction ${reads}`);
      assert.ok(c.cost.idle_per_s && "cpu_s" in c.cost.idle_per_s, "the idle rate recorded");
    }
    // one background for the run, taken off once and stored: result.json holds the figures the judge
    // reads (taking it again changes no digit), each cell's own idle reading kept beside it
    const stored = await readResult(join(runDir, "result.json"));
    assert.deepEqual(withPooledBackground(stored), stored);
    const backgrounds = new Set(
      measured.map((c: { cost: { idle_per_s: unknown } }) => JSON.stringify(c.cost.idle_per_s)),
    );
    assert.equal(backgrounds.size, 1, "every cell net of the same background");
    assert.ok(measured.every((c: { cost: { own_idle_per_s?: unknown } }) => c.cost.own_idle_per_s));
    const v = JSON.parse(readFileSync(json, "utf8"));
    assert.ok(
      v.cells.some((c: { metric: string }) => c.metric === "handler_reads_per_op"),
      "a cost metric the spec lists is judged",
    );
    const [reading] = v.readings;
    assert.equal(reading.throughput.metric, "tps");
    assert.equal(reading.cost.metric, "cpu_ms_per_op");
    assert.equal(
      reading.cost.judged,
      false,
      "CPU per op is read beside throughput; the spec did not list it",
    );
    assert.equal(reading.cost.tolerance, 0.5, "at the throughput's tolerance");
    const comment = readFileSync(join(runDir, "verdict.md"), "utf8");
    assert.match(comment, /\| CPU ms\/op Δ% \(95% CI\) \|/);
    assert.match(readFileSync(join(runDir, "report.html"), "utf8"), /CPU ms\/op Δ% \(95% CI\)/);
    assert.deepEqual(leftovers(), before);
  });
});
