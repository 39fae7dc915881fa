// Cost per operation (observe/cost.ts): the servers' counters as their real outputs give them, the
// arithmetic of a window, and throughput and cost read together (compare/reading.ts).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { gunzipSync } from "node:zlib";
import type { CellJudgement } from "../../action/src/compare/judge.ts";
import { readings, readTogether } from "../../action/src/compare/reading.ts";
import {
  costMetric,
  costOf,
  goServerCounters,
  idleRates,
  netCost,
  promTotals,
  treeCpuSeconds,
} from "../../action/src/observe/cost.ts";
import type { Result } from "../../action/src/result/model.ts";
import { parseSpec } from "../../action/src/specfile/load.ts";
import { mariadbCounters } from "../../action/src/targets/mariadb/counters.ts";
import { postgresCounters } from "../../action/src/targets/postgres/counters.ts";
import { fixture } from "../helpers/paths.ts";
import { sampleResult } from "../helpers/sample.ts";

const read = (...p: string[]) => readFileSync(fixture(...p), "utf8");

describe("server counters from real outputs", () => {
  test("MariaDB: Handler_read_* summed, the buffer pool's read requests kept", () => {
    const c = mariadbCounters(read("servers", "mariadb-show-global-status-after.tsv"));
    // first 4 + key 8 + last 1 + next 4 + prev 3 + rnd_next 586 (the others 0)
    assert.equal(c.handler_reads, 606);
    assert.equal(c.innodb_buffer_pool_read_requests, 1359);
  });

  test("PostgreSQL: the run's database's pg_stat_database row gives the named counters", () => {
    const c = postgresCounters(read("servers", "postgres-counters-after.txt"));
    assert.equal(c.tup_returned, 12644);
    assert.equal(c.tup_fetched, 6030);
    assert.equal(c.blks_hit, 10530);
    assert.deepEqual(postgresCounters(""), {}, "an empty answer gives no counters, not zeros");
  });

  test("tidb-server's /metrics: CPU, heap allocations, mallocs and GC cycles; per transaction over a real run", () => {
    const gz = (name: string) => gunzipSync(readFileSync(fixture("tidb-server", name))).toString("utf8");
    const before = goServerCounters(gz("metrics-before-read-only.txt.gz"));
    const after = goServerCounters(gz("metrics-after-read-only.txt.gz"));
    assert.deepEqual(after, { cpu_s: 15.01, alloc_bytes: 10208978112, mallocs: 84696863, gc_cycles: 13 });
    // sysbench counted 8556 transactions between the two readings
    const { metrics } = costOf({ at: 0, counters: before }, { at: 11_000, counters: after }, 8556);
    assert.equal(Math.round(metrics.alloc_kb_per_op as number), 1061);
    assert.equal(Math.round(metrics.mallocs_per_op as number), 9338);
    assert.equal((metrics.cpu_ms_per_op as number).toFixed(2), "1.60");
  });

  test("Prometheus text: a metric summed over its series, comments and other metrics skipped", () => {
    const text = [
      "# HELP go_gc_duration_seconds A summary of the pause duration of garbage collection cycles.",
      "# TYPE go_gc_duration_seconds summary",
      'go_gc_duration_seconds{quantile="0.5"} 2.1e-05',
      "go_gc_duration_seconds_sum 0.5",
      "go_gc_duration_seconds_count 42",
      'tikv_thread_cpu_seconds_total{name="grpc-0"} 1.5',
      'tikv_thread_cpu_seconds_total{name="grpc-1"} 2.25',
      "process_cpu_seconds_total 12.5",
    ].join("\n");
    assert.deepEqual(
      promTotals(text, ["go_gc_duration_seconds_count", "tikv_thread_cpu_seconds_total", "nope"]),
      {
        go_gc_duration_seconds_count: 42,
        tikv_thread_cpu_seconds_total: 3.75,
      },
    );
  });

  test("this process's CPU seconds from /proc grow with work it does", () => {
    const before = treeCpuSeconds([process.pid]) as number;
    const until = Date.now() + 300;
    let x = 0;
    while (Date.now() < until) x += Math.sqrt(x + 1);
    const after = treeCpuSeconds([process.pid]) as number;
    assert.ok(x > 0);
    assert.ok(after > before, `${after} > ${before}`);
    assert.equal(treeCpuSeconds([]), undefined);
  });
});

describe("a window's cost per operation", () => {
  const at = (ms: number, counters: Record<string, number>) => ({ at: ms, counters });

  test("growth less the idle rate × window, divided by the operations, in the metric's unit", () => {
    const before = at(0, { cpu_s: 10, alloc_bytes: 1_000_000, "cpu_s.tikv": 4, handler_reads: 100 });
    const after = at(10_000, { cpu_s: 16, alloc_bytes: 3_048_000, "cpu_s.tikv": 6, handler_reads: 20_100 });
    const { metrics, record } = costOf(before, after, 2000, { per_s: { cpu_s: 0.1 }, per_reading: {} });
    // (6 − 0.1 × 10) s / 2000 ops = 2.5 ms/op
    assert.equal(metrics.cpu_ms_per_op, 2.5);
    assert.equal(metrics.alloc_kb_per_op, 2_048_000 / 2000 / 1024);
    assert.equal(metrics.tikv_cpu_ms_per_op, 1);
    assert.equal(metrics.handler_reads_per_op, 10);
    assert.equal(record.window_s, 10);
    assert.deepEqual(record.idle_per_s, { cpu_s: 0.1 });
    assert.equal(record.counters["cpu_s.tikv"], 2);
  });

  test("a counter that went down (a restarted server) or is missing on one side gives no metric", () => {
    const { metrics } = costOf(at(0, { cpu_s: 50, mallocs: 5 }), at(1000, { cpu_s: 2, gc_cycles: 3 }), 100);
    assert.deepEqual(metrics, {});
    assert.deepEqual(
      costOf(at(0, { cpu_s: 1 }), at(1000, { cpu_s: 2 }), 0).metrics,
      {},
      "no operations, no cost",
    );
  });

  test("an idle server's background per second and one reading's own cost, from three readings", () => {
    // tidb-server 9a5c8821c6 idle on unistore: /metrics read back to back grew the mallocs by
    // 31,574; over the next 10 s by 270,441 (31,574 of them the next reading's)
    const bg = idleRates(
      at(0, { mallocs: 1_000_000, cpu_s: 1 }),
      at(40, { mallocs: 1_031_574, cpu_s: 1.002 }),
      at(10_040, { mallocs: 1_302_015, cpu_s: 1.052 }),
    );
    const perS = (270_441 - 31_574) / (10 - 0.04);
    assert.ok(Math.abs((bg.per_s.mallocs as number) - perS) < 1e-6, `${bg.per_s.mallocs} ≈ ${perS}`);
    assert.ok(Math.abs((bg.per_reading.mallocs as number) - (31_574 - perS * 0.04)) < 1e-6);
    const cpuS = (0.05 - 0.002) / 9.96;
    assert.ok(Math.abs((bg.per_s.cpu_s as number) - cpuS) < 1e-9);
    assert.ok(Math.abs((bg.per_reading.cpu_s as number) - (0.002 - cpuS * 0.04)) < 1e-9);
    // no background at all: everything the readings grew is their own
    const still = idleRates(at(0, { mallocs: 10 }), at(40, { mallocs: 20 }), at(2040, { mallocs: 28 }));
    assert.deepEqual(still, { per_s: { mallocs: 0 }, per_reading: { mallocs: 10 } });
  });

  test("a window takes off the background × its length and one reading, not a reading per idle second", () => {
    const bg = { per_s: { mallocs: 24_000 }, per_reading: { mallocs: 31_500 } };
    // 50,000 operations of 170 mallocs in 10 s, the background and one reading besides
    const grown = 50_000 * 170 + 24_000 * 10 + 31_500;
    const { metrics } = costOf(at(0, { mallocs: 0 }), at(10_000, { mallocs: grown }), 50_000, bg);
    assert.ok(Math.abs((metrics.mallocs_per_op as number) - 170) < 1e-9, String(metrics.mallocs_per_op));
    // the old two-reading idle rate (background + a reading spread over 2 s) took off 2.2 more per op
    const twoReadings = { per_s: { mallocs: 24_000 + 31_500 / 2 }, per_reading: {} };
    const old = costOf(at(0, { mallocs: 0 }), at(10_000, { mallocs: grown }), 50_000, twoReadings);
    assert.ok((old.metrics.mallocs_per_op as number) < 168, String(old.metrics.mallocs_per_op));
    assert.equal(netCost("mallocs_per_op", { mallocs: grown }, 10, 50_000, bg), metrics.mallocs_per_op);
    assert.equal(netCost("mallocs_per_op", { cpu_s: 1 }, 10, 50_000, bg), undefined, "its counter not read");
  });

  test("component metrics are named <component>_<metric>", () => {
    assert.equal(costMetric("tikv_cpu_ms_per_op")?.counter, "cpu_s.tikv");
    assert.equal(costMetric("pd_cpu_ms_per_op")?.component, "pd");
    assert.equal(costMetric("tps"), undefined);
  });
});

describe("throughput and cost read together", () => {
  const j = (metric: string, verdict: CellJudgement["verdict"], change: number): CellJudgement => ({
    workload: "read_only",
    threads: 8,
    metric,
    better: metric === "tps" ? "higher" : "lower",
    tolerance: 0.03,
    base: 1,
    head: 1 + change,
    change,
    ci: [change - 0.02, change + 0.02],
    mde: null,
    verdict,
    n: 6,
    method: "paired-t",
  });

  test("throughput down, cost up: each transaction costs more CPU", () => {
    const r = readTogether(
      j("tps", "regression", -0.15),
      j("cpu_ms_per_op", "regression", 0.2),
      "transaction",
    );
    assert.equal(r.finding, "costlier");
    assert.match(r.text, /each transaction costs \+20\.0% more CPU/);
  });

  test("throughput down, cost flat: the same work, and never read as no regression", () => {
    const r = readTogether(j("tps", "regression", -0.1), j("cpu_ms_per_op", "unchanged", 0.004));
    assert.equal(r.finding, "same-work");
    assert.match(r.text, /the same work per operation/);
    assert.match(r.text, /CPU quota/);
    assert.match(r.text, /still a regression of throughput/);
  });

  test("cost up, throughput flat: costlier, hidden by spare capacity", () => {
    const r = readTogether(j("tps", "unchanged", 0.001), j("cpu_ms_per_op", "regression", 0.08));
    assert.equal(r.finding, "hidden");
    assert.match(r.text, /hidden by spare capacity at these threads/);
  });

  test("throughput down, cost undecided: says the cost cannot tell", () => {
    assert.equal(
      readTogether(j("tps", "regression", -0.1), j("cpu_ms_per_op", "inconclusive", 0.02)).finding,
      "undecided",
    );
    assert.equal(readTogether(j("tps", "unchanged", 0), j("cpu_ms_per_op", "unchanged", 0)).finding, "none");
  });
});

describe("cost metrics in a spec", () => {
  const spec = (kind: string, metric: string) =>
    `name: s
target: {kind: ${kind}}
data: {tables: 1, table_size: 100}
workloads:
  - {name: ro, sysbench: oltp_read_only, threads: [2], duration: 4s}
metrics:
  ${metric}: {tolerance: 3%}
`;

  test("a kind's cost metrics are judged lower-is-better", () => {
    const loaded = parseSpec(spec("mariadb", "cpu_ms_per_op"), "s.yaml");
    assert.deepEqual(loaded.spec.workloads[0]?.judge.cpu_ms_per_op, { better: "lower", tolerance: 0.03 });
    const tidb = parseSpec(spec("tidb", "alloc_kb_per_op"), "s.yaml");
    assert.equal(tidb.spec.workloads[0]?.judge.alloc_kb_per_op?.better, "lower");
  });

  test("a cost metric the kind cannot measure is refused, naming those that exist", () => {
    assert.throws(
      () => parseSpec(spec("mariadb", "alloc_kb_per_op"), "s.yaml"),
      (e: Error) =>
        /metrics\.alloc_kb_per_op/.test(e.message) &&
        /no workload provides alloc_kb_per_op/.test(e.message) &&
        /cpu_ms_per_op/.test(e.message) &&
        /handler_reads_per_op/.test(e.message),
    );
  });
});

describe("readings of a comparison's cells", () => {
  /** base and head rounds of one cell: TPS and CPU ms per operation per round. */
  function result(rounds: { tps: [number, number]; cpu?: [number, number] }[]) {
    const r = sampleResult();
    const [template] = r.cells;
    r.cells = rounds.flatMap((x, i) =>
      (["base", "head"] as const).map((variant, side) => ({
        ...(template as Result["cells"][number]),
        variant,
        round: i + 1,
        metrics: {
          tps: { value: x.tps[side] as number, unit: "1/s", better: "higher" as const },
          ...(x.cpu
            ? { cpu_ms_per_op: { value: x.cpu[side] as number, unit: "ms/op", better: "lower" as const } }
            : {}),
        },
      })),
    );
    return r;
  }
  const tpsDown: CellJudgement = {
    variant: "head",
    workload: "ps",
    threads: 2,
    metric: "tps",
    better: "higher",
    tolerance: 0.05,
    base: 1000,
    head: 800,
    change: -0.2,
    ci: [-0.22, -0.18],
    mde: null,
    verdict: "regression",
    n: 6,
    method: "paired-t",
  };

  test("CPU per transaction judged at throughput's tolerance, shown only, when the spec does not list it", () => {
    const rounds = [0, 1, 2, 3, 4, 5].map((i) => ({
      tps: [1000 + i, 800 + i] as [number, number],
      cpu: [1 + i / 1000, 1.25 + i / 1000] as [number, number],
    }));
    const [r] = readings(result(rounds), "base", [tpsDown], 0.01);
    assert.equal(r?.cost.metric, "cpu_ms_per_op");
    assert.equal(r?.cost.judged, false);
    assert.equal(r?.cost.tolerance, 0.05);
    assert.equal(r?.finding, "costlier");
    assert.ok(Math.abs((r?.cost.change ?? 0) - 0.25) < 0.01, `${r?.cost.change}`);
  });

  test("throughput down at the same CPU per transaction: same work; cells without cost: no reading", () => {
    const same = [0, 1, 2, 3, 4, 5].map((i) => ({
      tps: [1000 + i, 800 + i] as [number, number],
      cpu: [1 + i / 1000, 1 + i / 1000 + (i % 2 ? 0.001 : -0.001)] as [number, number],
    }));
    assert.equal(readings(result(same), "base", [tpsDown], 0.01)[0]?.finding, "same-work");
    const none = same.map(({ tps }) => ({ tps }));
    assert.deepEqual(readings(result(none), "base", [tpsDown], 0.01), []);
  });
});
