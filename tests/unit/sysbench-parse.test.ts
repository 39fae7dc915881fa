import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { describe, test } from "node:test";
import { mostSpecificLine } from "../../action/src/drivers/failure.ts";
import { parseSysbench, SysbenchParseError } from "../../action/src/drivers/sysbench/parse.ts";
import { fixture } from "../helpers/paths.ts";

const read = (name: string) => readFileSync(fixture("sysbench", name), "utf8");
const parse = (name: string) => parseSysbench(read(name));

describe("sysbench parser: golden files", () => {
  // Every real output under fixtures/sysbench has a .json golden beside it; UPDATE_GOLDEN=1 rewrites them.
  const outputs = readdirSync(fixture("sysbench")).filter((f) => f.endsWith(".txt"));
  const failing = new Set([
    "not-sysbench.txt",
    "truncated-in-latency.txt",
    "server-killed.txt",
    "too-many-connections.txt",
  ]);
  for (const name of outputs.filter((f) => !failing.has(f))) {
    test(name, () => {
      const golden = fixture("sysbench", name.replace(/\.txt$/, ".json"));
      const parsed = parse(name);
      if (process.env.UPDATE_GOLDEN === "1") writeFileSync(golden, `${JSON.stringify(parsed, null, 2)}\n`);
      assert.ok(existsSync(golden), `${golden} is missing: run with UPDATE_GOLDEN=1 and check it by eye`);
      assert.deepEqual(parsed, JSON.parse(readFileSync(golden, "utf8")));
    });
  }
});

describe("sysbench parser: the numbers sysbench printed", () => {
  test("MySQL point select: summary, latency block and every interval", () => {
    const r = parse("mysql-point-select.txt");
    assert.equal(r.sysbench_version, "1.0.20");
    assert.equal(r.threads, 2);
    assert.equal(r.transactions, 248525);
    assert.equal(r.tps, 82754.08);
    assert.equal(r.qps, 82754.08);
    assert.deepEqual(r.queries, { read: 248525, write: 0, other: 0, total: 248525 });
    assert.equal(r.errors, 0);
    assert.equal(r.reconnects, 0);
    assert.equal(r.duration_s, 3.002);
    assert.equal(r.events, 248525);
    assert.deepEqual(r.latency_ms, { min: 0.01, avg: 0.02, max: 2.09, sum: 5941.56, p95: 0.04 });
    assert.equal(r.percentile, 95);
    assert.equal(r.intervals.length, 3);
    assert.deepEqual(r.intervals[1], {
      t: 2,
      threads: 2,
      tps: 89616.73,
      qps: 89616.73,
      reads: 89616.73,
      writes: 0,
      other: 0,
      lat_ms: 0.03,
      errors_per_s: 0,
      reconnects_per_s: 0,
    });
    assert.equal(r.histogram, undefined);
  });

  test("err/s and reconn/s without a colon parse to the same numbers", () => {
    const withColon = parse("mysql-point-select.txt");
    const without = parse("err-s-without-colon.txt");
    assert.deepEqual(without, withColon);
  });

  test("--percentile=99 gives p99 in the summary and per interval", () => {
    const r = parse("percentile-99-read-write.txt");
    assert.equal(r.percentile, 99);
    assert.equal(r.latency_ms.p99, 3.55);
    assert.equal(r.latency_ms.p95, undefined);
    assert.deepEqual(r.queries, { read: 94276, write: 26936, other: 13468, total: 134680 });
    assert.equal(r.tps, 2240.2);
    assert.equal(r.qps, 44804.06);
    assert.ok(r.intervals.every((i) => typeof i.lat_ms === "number"));
  });

  test("percentile stats disabled: no percentile in summary or intervals, never a zero", () => {
    const r = parse("percentile-disabled.txt");
    assert.equal(r.percentile, null);
    assert.deepEqual(Object.keys(r.latency_ms).sort(), ["avg", "max", "min", "sum"]);
    assert.ok(
      r.intervals.every((i) => !("lat_ms" in i)),
      "interval lat (ms,0%) is no measurement",
    );
  });

  test("histogram block before SQL statistics; the last interval line may be missing", () => {
    const r = parse("histogram.txt");
    assert.ok(r.histogram && r.histogram.length > 100);
    assert.deepEqual(r.histogram?.[0], [0.015, 8]);
    assert.deepEqual(r.histogram?.[2], [0.015, 530]);
    const histogramTotal = r.histogram?.reduce((s, [, n]) => s + n, 0);
    assert.equal(histogramTotal, r.events, "histogram counts add up to the events sysbench counted");
    // A 2-second run printed only the 1s interval: what is there is parsed, nothing invented.
    assert.equal(r.intervals.length, 1);
    assert.equal(r.transactions, 212748);
  });

  test("--rate adds queue length lines to their interval", () => {
    const r = parse("rate-queue-length.txt");
    assert.equal(r.intervals.length, 3);
    assert.ok(r.intervals.every((i) => i.queue_length === 0 && i.concurrency === 0));
    assert.equal(r.intervals[0]?.tps, 183.67);
    assert.equal(r.tps, 198.3);
  });

  test("PostgreSQL run with ignored errors", () => {
    const r = parse("pgsql-ignored-errors.txt");
    assert.equal(r.errors, 33);
    assert.equal(r.errors_per_s, 3.28);
    assert.equal(r.transactions, 37);
    assert.equal(r.threads, 16);
    assert.equal(r.intervals[0]?.errors_per_s, 6.97);
    assert.equal(
      r.intervals.length,
      10,
      "lock waits ran the test past --time; every printed interval is kept",
    );
  });
});

describe("sysbench parser: refuses what it cannot account for", () => {
  test("truncated output says which line was expected", () => {
    assert.throws(
      () => parse("truncated-in-latency.txt"),
      (e: unknown) => {
        assert.ok(e instanceof SysbenchParseError);
        assert.match(
          e.message,
          /expected a "max:" line in sysbench's Latency block; the output is truncated/,
        );
        return true;
      },
    );
  });

  test("output that is not sysbench's is an error, not zeros", () => {
    assert.throws(() => parse("not-sysbench.txt"), /expected sysbench's "SQL statistics:" summary block/);
    assert.throws(() => parseSysbench(""), /expected sysbench's "SQL statistics:" summary block/);
  });

  test("a run that died reports sysbench's FATAL line", () => {
    assert.throws(
      () => parse("server-killed.txt"),
      /sysbench failed before its summary: FATAL: .*Lost connection/,
    );
  });

  test("a run refused by the server names the cause, not the symptom printed first", () => {
    // sysbench prints "unable to connect … aborting" first; the cause is the line after it.
    assert.throws(
      () => parse("too-many-connections.txt"),
      /sysbench failed before its summary: FATAL: error 1040: Too many connections/,
    );
    assert.equal(
      mostSpecificLine(read("too-many-connections.txt")),
      "FATAL: error 1040: Too many connections",
    );
    assert.match(mostSpecificLine(read("server-killed.txt")) ?? "", /returned error 2013 \(Lost connection/);
    assert.equal(mostSpecificLine("just text\nmore text"), undefined);
  });

  test("a damaged interval line is an error naming the line", () => {
    const text = read("mysql-point-select.txt").replace("tps: 89616.73", "tps: lots");
    assert.throws(() => parseSysbench(text), /unrecognised interval line: "\[ 2s \] thds: 2 tps: lots/);
  });

  test("a damaged number in the summary is an error", () => {
    const text = read("mysql-point-select.txt").replace(/transactions:\s+248525/, "transactions: many");
    assert.throws(() => parseSysbench(text), /expected a "transactions:" line/);
  });
});
