import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { describe, test } from "node:test";
import { GoTpcParseError, parseTpcc, parseTpch } from "../../action/src/drivers/go-tpc/parse.ts";
import { fixture } from "../helpers/paths.ts";

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
