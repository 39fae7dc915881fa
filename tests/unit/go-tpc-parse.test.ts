import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { describe, test } from "node:test";
import { goTpc, measureTpcc, measureTpch } from "../../action/src/drivers/go-tpc/index.ts";
import { GoTpcParseError, parseTpcc, parseTpch } from "../../action/src/drivers/go-tpc/parse.ts";
import type { Workload } from "../../action/src/drivers/types.ts";
import { parseSpec } from "../../action/src/specfile/load.ts";
import { fixture } from "../helpers/paths.ts";
import { cli } from "../helpers/real.ts";

const read = (name: string) => readFileSync(fixture("go-tpc", name), "utf8");

describe("go-tpc parser: golden files", () => {
  // Every parseable run output has a .json golden beside it; UPDATE_GOLDEN=1 rewrites them.
  const runs = readdirSync(fixture("go-tpc")).filter(
    (f) => /^tpc[ch]_run_w\d.*\.txt$|^tpch_.*\.txt$/.test(f) && !/noserver|nodb/.test(f),
  );
  for (const name of runs) {
    test(name, () => {
      const golden = fixture("go-tpc", name.replace(/\.txt$/, ".json"));
      const parsed = name.startsWith("tpch") ? parseTpch(read(name)) : parseTpcc(read(name));
      if (process.env.UPDATE_GOLDEN === "1") writeFileSync(golden, `${JSON.stringify(parsed, null, 2)}\n`);
      assert.ok(existsSync(golden), `${golden} is missing: run with UPDATE_GOLDEN=1 and check it by eye`);
      assert.deepEqual(parsed, JSON.parse(readFileSync(golden, "utf8")));
    });
  }
});

describe("go-tpc parser: the numbers go-tpc printed", () => {
  test("tpcc plain: totals, [Summary] rows, *_ERR rows as errors, [Current] reports", () => {
    const r = parseTpcc(read("tpcc_run_w2_t4_40s.txt"));
    assert.equal(r.tpmc, 18182.0);
    assert.equal(r.tpm_total, 40578.4);
    assert.equal(r.efficiency, 70692.1);
    assert.deepEqual(Object.keys(r.operations), [
      "DELIVERY",
      "NEW_ORDER",
      "ORDER_STATUS",
      "PAYMENT",
      "STOCK_LEVEL",
    ]);
    const no = r.operations.NEW_ORDER;
    assert.equal(no?.count, 12091);
    assert.equal(no?.tpm, 18182.1);
    assert.equal(no?.p95_ms, 14.2);
    assert.equal(no?.p99_ms, 33.6);
    assert.equal(no?.p999_ms, 92.3);
    assert.equal(no?.max_ms, 570.4);
    assert.equal(no?.avg_ms, 88234.3 / 12091, "the mean from Sum/Count, not the rounded Avg(ms)");
    assert.deepEqual(Object.keys(r.errors), ["NEW_ORDER", "PAYMENT"]);
    assert.equal(r.errors.NEW_ORDER?.count, 3);
    assert.equal(r.intervals.length, 15, "three [Current] reports of five transaction types");
    assert.deepEqual(
      r.intervals.filter((i) => i.operation === "NEW_ORDER").map((i) => [i.n, i.tpm]),
      [
        [1, 11182.0],
        [2, 16426.5],
        [3, 22817.4],
      ],
    );
    assert.deepEqual(r.worker_errors, [], "workers stopped at the deadline are not errors");
  });

  test("tpcc json output style gives the same shape", () => {
    const r = parseTpcc(read("tpcc_run_w2_t2_json.txt"));
    assert.equal(r.tpmc, 17893.4);
    assert.equal(r.tpm_total, 40049.4);
    assert.equal(r.efficiency, 69569.9);
    assert.equal(r.operations.NEW_ORDER?.count, 4468);
    assert.equal(r.operations.NEW_ORDER?.p95_ms, 7.3);
    assert.equal(r.errors.DELIVERY?.count, 1);
    assert.equal(r.intervals.length, 10);
    assert.equal(r.intervals[5]?.n, 2);
  });

  test("tpcc table output style (--output table) gives the numbers go-tpc printed in its boxes", () => {
    const r = parseTpcc(read("tpcc_run_w1_t2_table.txt"));
    assert.equal(r.tpmc, 33655.9);
    assert.equal(r.tpm_total, 73734.5);
    assert.equal(r.efficiency, 261710.2);
    assert.equal(r.operations.NEW_ORDER?.count, 5603);
    assert.equal(r.operations.NEW_ORDER?.p99_ms, 5.2);
    assert.equal(r.operations.PAYMENT?.tpm, 31066.8);
    assert.equal(r.errors.NEW_ORDER?.count, 2, "NEW_ORDER_ERR is an error row");
    assert.deepEqual(
      r.intervals.map((i) => i.operation),
      ["DELIVERY", "NEW_ORDER", "ORDER_STATUS", "PAYMENT", "STOCK_LEVEL"],
    );
    assert.deepEqual(r.worker_errors, [], "workers stopped at the deadline are not errors");
  });

  test("tiperf parse go-tpc on the table output prints tpmC and tpmTotal", async () => {
    const run = cli(["parse", "go-tpc", fixture("go-tpc", "tpcc_run_w1_t2_table.txt")]);
    assert.equal((await run.done).code, 0, run.stderr());
    const out = JSON.parse(run.stdout());
    assert.equal(out.tpmc, 33655.9);
    assert.equal(out.tpm_total, 73734.5);
  });

  test("tpch: seconds per query", () => {
    const r = parseTpch(read("tpch_seed003_summary.txt"));
    assert.equal(Object.keys(r.queries).length, 22);
    assert.equal(r.queries.Q1, 7.62);
    assert.equal(r.queries.Q18, 16.2);
  });
});

describe("go-tpc parser: failures are errors in go-tpc's words, never zeros", () => {
  test("every worker failed, exit 0 (missing tables)", () => {
    assert.throws(
      () => parseTpcc(read("tpcc_run_nodb.txt")),
      (e: Error) =>
        e instanceof GoTpcParseError &&
        /^go-tpc failed: execute run failed, err panic in TPC-C Run \(thread \d\): Error 1146 \(42S02\): Table 'nosuchdb\.customer' doesn't exist$/.test(
          e.message,
        ),
    );
  });

  test("nothing listening: the panic and the line that says why", () => {
    assert.throws(
      () => parseTpcc(read("tpcc_run_noserver.txt")),
      /go-tpc failed: failed to ping db, err dial tcp 127\.0\.0\.1:1: connect: connection refused \(panic: failed to connect to database when loading data\)/,
    );
  });

  test("prepare, check and foreign text are not run outputs", () => {
    assert.throws(() => parseTpcc(read("tpcc_prepare_w2.txt")), /expected go-tpc's final "tpmC: …/);
    assert.throws(() => parseTpcc(read("tpcc_check_w2.txt")), /expected go-tpc's final "tpmC: …/);
    assert.throws(() => parseTpch("hello"), /expected go-tpc tpch's "\[Summary\] Q1: 7\.62s" lines/);
  });

  test("a damaged number is an error naming the line", () => {
    const text = read("tpcc_run_w2_t4_40s.txt").replace("Count: 12091", "Count: lots");
    assert.throws(() => parseTpcc(text), /line \d+: expected a number for Count/);
  });
});

describe("go-tpc driver", () => {
  const specOf = (workload: string) =>
    parseSpec(`name: g\ntarget: {kind: mariadb}\nworkloads:\n  - ${workload}\n`, "g.yaml").spec;
  const tpcc = (warmup: number) =>
    specOf(
      `{name: tpcc, go-tpc: tpcc, options: {warehouses: 2, interval: 10s}, threads: [4], duration: 30s, warmup: ${warmup}s}`,
    ).workloads[0] as Workload;

  test("the spec shape: go-tpc: tpcc with its options; tpmC judged by default", () => {
    const w = tpcc(0);
    assert.deepEqual(
      [w.driver, w.script, w.options.warehouses, w.options.interval],
      ["go-tpc", "tpcc", 2, 10],
    );
    assert.deepEqual(w.judge, { tpmc: { better: "higher", tolerance: 0.05 } });
    const h = specOf("{name: h, go-tpc: tpch, threads: [1], duration: 10m}").workloads[0] as Workload;
    assert.deepEqual(h.judge, { geomean_s: { better: "lower", tolerance: 0.05 } });
  });

  test("without warmup: go-tpc's own summary, per transaction type, *_ERR rows as errors", () => {
    const m = measureTpcc(tpcc(0), parseTpcc(read("tpcc_run_w2_t4_40s.txt")), { seconds: 40, grace_s: 15 });
    assert.equal(m.source, "summary");
    assert.equal(m.metrics.tpmc, 18182.0);
    assert.equal(m.metrics.tpm_total, 40578.4);
    assert.equal(m.metrics.new_order_p95_ms, 14.2);
    assert.equal(m.metrics.payment_p99_ms, 22.0);
    assert.equal(m.metrics.errors, 3 + 1, "NEW_ORDER_ERR 3, PAYMENT_ERR 1");
    assert.deepEqual(Object.keys(m.errors ?? {}).sort(), ["NEW_ORDER", "PAYMENT"]);
    assert.equal(m.intervals.length, 3);
    assert.deepEqual(
      m.intervals.map((i) => [i.t, i.values.tpmc]),
      [
        [10, 11182.0],
        [20, 16426.5],
        [30, 22817.4],
      ],
    );
  });

  test("with a warmup the metrics are still go-tpc's [Summary]: the warmup ran as its own invocation", () => {
    const m = measureTpcc(tpcc(10), parseTpcc(read("tpcc_run_w2_t4_40s.txt")), { seconds: 40, grace_s: 15 });
    const plain = measureTpcc(tpcc(0), parseTpcc(read("tpcc_run_w2_t4_40s.txt")), {
      seconds: 40,
      grace_s: 15,
    });
    assert.equal(m.source, "summary");
    assert.deepEqual(m.metrics, plain.metrics);
    assert.ok(m.intervals.every((i) => !i.warmup));
  });

  test("the warmup is a run of its own before the measured one; the measured one lasts the duration", () => {
    const ctx = (warmup: number) => ({
      workload: tpcc(warmup),
      threads: 4,
      connection: {
        protocol: "mysql" as const,
        endpoints: [{ host: "127.0.0.1", port: 4000 }],
        user: "root",
        password: "",
      },
    });
    const w = goTpc.warmup?.(ctx(10));
    assert.ok(w);
    assert.equal(w.phase, "warmup");
    assert.equal(w.args[w.args.indexOf("--time") + 1], "10s");
    const run = goTpc.run(ctx(10));
    assert.equal(run.args[run.args.indexOf("--time") + 1], `${tpcc(10).duration}s`);
    assert.equal(goTpc.warmup?.(ctx(0)), undefined);
  });

  test("a run that overran, or lost workers, is not the measurement asked for", () => {
    const r = parseTpcc(read("tpcc_run_w2_t4_40s.txt"));
    assert.throws(
      () => measureTpcc(tpcc(0), r, { seconds: 20, grace_s: 5 }),
      /go-tpc ran 39\.9s for a 20s cell/,
    );
    const lost = { ...r, worker_errors: ["run worker 1 stopped: Error 2013: Lost connection"] };
    assert.throws(
      () => measureTpcc(tpcc(0), lost, { seconds: 40, grace_s: 15 }),
      /1 worker\(s\) stopped early/,
    );
  });

  test("failure: a panic or every worker failing is a failed step even with exit 0", () => {
    assert.match(goTpc.failure(read("tpcc_run_noserver.txt")) ?? "", /connection refused|panic/);
    assert.match(goTpc.failure(read("tpcc_run_nodb.txt")) ?? "", /execute run failed.*nosuchdb\.customer/);
    assert.equal(
      goTpc.failure(read("tpcc_run_w2_t4_40s.txt")),
      undefined,
      "errors in a finished run are counted, not fatal",
    );
    assert.equal(goTpc.failure(read("tpcc_prepare_w2.txt")), undefined);
  });

  test("tpch: seconds per query and their geometric mean", () => {
    const w = specOf("{name: h, go-tpc: tpch, options: {queries: 'q1,q3,q6'}, threads: [1], duration: 10m}")
      .workloads[0] as Workload;
    const m = measureTpch(w, read("tpch_seed003_summary.txt"));
    const q = parseTpch(read("tpch_seed003_summary.txt")).queries;
    assert.deepEqual([m.metrics.q1_s, m.metrics.q3_s, m.metrics.q6_s], [q.Q1, q.Q3, q.Q6]);
    const geo = Math.cbrt((q.Q1 as number) * (q.Q3 as number) * (q.Q6 as number));
    assert.ok(Math.abs((m.metrics.geomean_s as number) - geo) < 1e-9);
  });

  test("arguments: connection flags from the endpoints, never a shell; every host of a cluster", () => {
    const conn = {
      protocol: "mysql" as const,
      endpoints: [
        { host: "10.0.1.5", port: 4000 },
        { host: "10.0.1.6", port: 4000 },
      ],
      user: "root",
      password: "p w'd",
    };
    const step = goTpc.run({ workload: tpcc(5), connection: conn, threads: 8 });
    assert.deepEqual(step.args.slice(0, 12), [
      "-d",
      "mysql",
      "-H",
      "10.0.1.5,10.0.1.6",
      "-P",
      "4000,4000",
      "-U",
      "root",
      "-p",
      "p w'd",
      "-D",
      "tpcc",
    ]);
    assert.deepEqual(step.args.slice(-9), [
      "--warehouses",
      "2",
      "-T",
      "8",
      "--time",
      "30s",
      "--interval",
      "10s",
      "run",
    ]);
  });

  test("bad options name the key and what is allowed", () => {
    assert.throws(
      () => specOf("{name: t, go-tpc: tpcc, options: {threads: 4}, threads: [4], duration: 10s}"),
      /workloads\[0\]\.options\.threads: unknown go-tpc tpcc option threads \(allowed: warehouses, interval, check,/,
    );
    assert.throws(
      () => specOf("{name: t, go-tpc: tpcc, options: {warehouses: 0}, threads: [4], duration: 10s}"),
      /workloads\[0\]\.options\.warehouses: /,
    );
    assert.throws(
      () => specOf("{name: t, go-tpc: tpce, threads: [4], duration: 10s}"),
      /workloads\[0\]\.go-tpc: must be tpcc or tpch/,
    );
    assert.throws(
      () => specOf("{name: t, go-tpc: tpcc, sysbench: oltp_point_select, threads: [4], duration: 10s}"),
      /workloads\[0\]: a workload has one load tool, not sysbench and go-tpc/,
    );
    assert.throws(
      () =>
        parseSpec(
          "name: g\ntarget: {kind: mariadb}\nworkloads:\n  - {name: t, go-tpc: tpcc, threads: [4], duration: 10s}\nmetrics: {tps: {tolerance: 5%}}\n",
          "g.yaml",
        ),
      /metrics\.tps: no workload provides tps \(metrics that exist: tpmc, tpm_total, efficiency, errors, new_order_tpm/,
    );
  });
});
