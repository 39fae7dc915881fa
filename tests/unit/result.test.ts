import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { measuredWindow, measurementProblems } from "../../action/src/drivers/sysbench/measure.ts";
import { parseSysbench } from "../../action/src/drivers/sysbench/parse.ts";
import { InputError } from "../../action/src/errors.ts";
import { appendHistory, entryOf } from "../../action/src/history/store.ts";
import { runReportMarkdown } from "../../action/src/report/run-report.ts";
import { baselinePath } from "../../action/src/result/baseline.ts";
import { type Result, resultJsonSchema } from "../../action/src/result/model.ts";
import { readResult, writeResult } from "../../action/src/result/store.ts";
import { fixture, ROOT } from "../helpers/paths.ts";
import { sampleResult } from "../helpers/sample.ts";

const report = (name: string) => parseSysbench(readFileSync(fixture("sysbench", name), "utf8"));

describe("a cell is the measurement it asked for, or it is not judged", () => {
  const asked = { seconds: 3, grace_s: 15, rate_limited: false };

  test("a healthy run has no problems", () => {
    assert.deepEqual(measurementProblems(report("mysql-point-select.txt"), asked), []);
    // the last interval line may be missing when the run ends on a second boundary
    assert.deepEqual(measurementProblems(report("histogram.txt"), { ...asked, seconds: 2 }), []);
  });

  test("a server stopped mid-cell (SIGSTOP for 8 s, real output): zero-throughput seconds", () => {
    const stalled = report("stalled-server.txt");
    assert.ok(stalled.tps > 0, "sysbench's own summary looks like a normal run");
    const problems = measurementProblems(stalled, { ...asked, grace_s: 30 });
    assert.equal(problems.length, 1, problems.join("; "));
    assert.match(
      problems[0] ?? "",
      /7 one-second sample\(s\) with zero throughput \(at 3s, 4s, 5s, 6s, 7s, …\): the server stalled/,
    );
  });

  test("a run far past --time is refused, naming what was asked", () => {
    const problems = measurementProblems(report("stalled-server.txt"), { ...asked, grace_s: 2 });
    assert.equal(problems[0], "sysbench ran 9.5s for a 3s cell (allowed: 3s + 2s grace)");
  });

  test("too few interval samples for the time asked", () => {
    const problems = measurementProblems(report("mysql-point-select.txt"), {
      ...asked,
      seconds: 10,
      grace_s: 0,
    });
    assert.deepEqual(problems, ["sysbench printed 3 one-second samples for a 10s cell (expected 10)"]);
  });

  test("with --rate, a second without a finished query is the schedule, not a stall", () => {
    const problems = measurementProblems(report("stalled-server.txt"), {
      ...asked,
      grace_s: 30,
      rate_limited: true,
    });
    assert.deepEqual(problems, []);
  });
});

describe("baseline paths", () => {
  test("profile and spec names are plain names: nothing is written outside --dir", () => {
    assert.equal(
      baselinePath("baselines", "local-mariadb", "weekly"),
      join("baselines", "local-mariadb", "weekly.json"),
    );
    for (const bad of ["../../x", "..", "a/b", "/etc", ".hidden", "", "x\u0000y"]) {
      assert.throws(
        () => baselinePath("baselines", bad, "weekly"),
        (e: Error) =>
          e instanceof InputError && /--profile must be a plain name .*no \/ and no \.\./.test(e.message),
        JSON.stringify(bad),
      );
    }
    assert.throws(
      () => baselinePath("baselines", "local-mariadb", "../w"),
      /the result's spec name must be a plain name/,
    );
  });
});

describe("the measured window", () => {
  test("the metrics are sysbench's own summary (the warmup ran before, as its own invocation); seconds kept as samples", () => {
    const r = report("mysql-point-select.txt");
    const s = measuredWindow(r);
    assert.deepEqual(s.metrics, { tps: 82754.08, qps: 82754.08, p95_ms: 0.04, errors: 0 });
    assert.equal(s.source, "summary");
    // never a mean of per-second p95s (0.03 here): the summary's percentile of every query
    assert.deepEqual(
      s.intervals.map((i) => [i.t, i.warmup, i.values.p95_ms]),
      r.intervals.map((iv) => [iv.t, false, iv.lat_ms]),
    );
  });

  test("no latency metric when percentiles are disabled", () => {
    assert.deepEqual(Object.keys(measuredWindow(report("percentile-disabled.txt")).metrics).sort(), [
      "errors",
      "qps",
      "tps",
    ]);
  });
});

describe("result store", () => {
  test("the committed JSON Schema is the one the model generates", () => {
    const committed = JSON.parse(readFileSync(join(ROOT, "action/schema/result.v2.schema.json"), "utf8"));
    assert.deepEqual(committed, JSON.parse(JSON.stringify(resultJsonSchema())), "run: npm run schema");
  });

  test("write then read gives the same result", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tiperf-test-"));
    const r = sampleResult();
    await writeResult(join(dir, "result.json"), r);
    assert.deepEqual(await readResult(join(dir, "result.json")), r);
  });

  test("a result that breaks the schema is not written", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tiperf-test-"));
    const bad = { ...sampleResult(), status: "great" } as unknown as Result;
    await assert.rejects(writeResult(join(dir, "result.json"), bad));
  });

  test("corrupt, foreign and future files are refused with the file named", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tiperf-test-"));
    const write = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    await assert.rejects(
      readResult(write("a.json", "{not json")),
      (e: unknown) => e instanceof InputError && /a\.json: not valid JSON/.test(e.message),
    );
    await assert.rejects(readResult(write("b.json", '{"x":1}')), /b\.json: not a tiperf result/);
    // another of tiperf's files is named as what it is, and the run's result beside it offered
    const verdict = write("verdict.json", '{"format":"tiperf.verdict","version":1}');
    await assert.rejects(
      readResult(verdict),
      (e: unknown) =>
        e instanceof InputError &&
        e.message ===
          `${verdict}: a tiperf verdict, not a tiperf result (format "tiperf.verdict", must be "tiperf.result")`,
    );
    // a run directory stands for its result.json; one without it is named as such
    await assert.rejects(
      readResult(dir),
      (e: unknown) =>
        e instanceof InputError &&
        e.message === `${dir}: a directory without result.json: give a run's directory or its result.json`,
    );
    const sample = sampleResult();
    const result = write("result.json", JSON.stringify(sample));
    assert.equal((await readResult(dir)).run_id, sample.run_id);
    await assert.rejects(
      readResult(verdict),
      (e: unknown) => e instanceof InputError && e.message.endsWith(`: give ${result}, the run's result`),
    );
    await assert.rejects(
      readResult(write("c.json", '{"format":"tiperf.result","version":9}')),
      /c\.json: result version 9 is not supported/,
    );
    const broken = { ...sampleResult(), cells: [{ workload: 1 }] };
    await assert.rejects(
      readResult(write("d.json", JSON.stringify(broken))),
      /d\.json: cells\[0\]\.workload/,
    );
    await assert.rejects(
      readResult(join(dir, "missing.json")),
      /missing\.json: cannot read the file \(ENOENT\)/,
    );
  });
});

describe("run report", () => {
  test("a seed-shaped table per workload with the measured numbers", () => {
    const md = runReportMarkdown(sampleResult());
    assert.match(md, /## ps/);
    assert.match(md, /\| Threads \| TPS \| QPS \| p95 \(ms\) \| errors \|/);
    assert.match(md, /\| 2 \| 82754\.08 \| 82754\.08 \| 0\.04 \| 0 \|/);
    assert.match(md, /mariadb 10\.11 · x=1/);
  });

  test("warnings are listed, threads ascend per variant and round, the warmup round is marked, a failed cell's log is named once", () => {
    const r = sampleResult();
    const one = r.cells[0] as (typeof r.cells)[number];
    r.warnings = ["max_connections is close to the thread count"];
    r.cells = [
      { ...one, variant: "base", round: 1, threads: 8 },
      { ...one, variant: "base", round: 1, threads: 2 },
      { ...one, variant: "base", round: 0, threads: 2 },
      {
        ...one,
        variant: "head",
        round: 1,
        threads: 2,
        status: "failed",
        error: "cell point_select threads=2 failed: lost connection (raw output: raw/ps-t2-head.log)",
        raw_log: "raw/ps-t2-head.log",
      },
    ];
    const md = runReportMarkdown(r);
    assert.match(md, /## Warnings\n\n- ⚠️ max_connections is close to the thread count/);
    const rows = md.split("\n").filter((l) => /^\| (base|head) \|/.test(l));
    assert.deepEqual(
      rows.map((l) => l.split(" | ").slice(0, 3).join(" | ")),
      ["| base | warmup (not judged) | 2", "| base | 1 | 2", "| base | 1 | 8", "| head | 1 | 2"],
    );
    assert.equal(md.split("raw/ps-t2-head.log").length - 1, 1, md);
  });

  test("failed cells are listed with their error", () => {
    const r = sampleResult();
    const cell = r.cells[0];
    assert.ok(cell);
    r.cells.push({
      ...cell,
      threads: 8,
      status: "failed",
      error: "cell ps threads=8 failed: boom",
      metrics: {},
    });
    r.status = "failed";
    const md = runReportMarkdown(r);
    assert.match(md, /\| 8 \| failed \|/);
    assert.match(md, /cell ps threads=8 failed: boom/);
  });
});

describe("result v1 (sysbench only) migrates on read", () => {
  const V1 = fixture("results", "v1-smoke.json");

  test("a stored v1 result reads as v2: driver, metrics with unit and direction, named samples", async () => {
    const raw = JSON.parse(readFileSync(V1, "utf8"));
    assert.equal(raw.version, 1);
    const r = await readResult(V1);
    assert.equal(r.version, 2);
    const c = r.cells[0];
    assert.ok(c);
    assert.equal(c.driver, "sysbench");
    assert.deepEqual(c.metrics.tps, { value: raw.cells[0].metrics.tps, unit: "1/s", better: "higher" });
    assert.deepEqual(c.metrics.p95_ms, { value: raw.cells[0].metrics.p95_ms, unit: "ms", better: "lower" });
    assert.equal(c.intervals[5]?.values.tps, raw.cells[0].intervals[5].tps);
    assert.equal(c.intervals[5]?.values.p95_ms, raw.cells[0].intervals[5].lat_ms);
    const body = r.spec.body as { workloads: { driver: string; script: string; judge: object }[] };
    assert.deepEqual(body.workloads[0]?.judge, raw.spec.body.metrics);
  });

  test("tiperf diff of a v1 baseline against a v2 result judges every cell × metric", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tiperf-v1-"));
    const v2 = await readResult(V1);
    v2.run_id = "v2-copy";
    const file = join(dir, "v2.json");
    await writeResult(file, v2);
    assert.equal(JSON.parse(readFileSync(file, "utf8")).version, 2);
    const { cli } = await import("../helpers/real.ts");
    const run = cli(["diff", V1, file, "--json", join(dir, "verdict.json")]);
    assert.equal((await run.done).code, 0, run.stderr());
    const v = JSON.parse(readFileSync(join(dir, "verdict.json"), "utf8"));
    assert.equal(v.cells.length, 8, "2 workloads × 2 thread counts × (tps, p95_ms)");
    assert.ok(
      v.cells.every((j: { n: number }) => j.n > 0),
      "samples on both sides",
    );
  });
});

describe("history: what counts as the same experiment", () => {
  test("a description or tolerance edit keeps the history going; a changed workload starts a new one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tiperf-history-"));
    const run = (id: string, body: (b: Record<string, unknown>) => Record<string, unknown>) => {
      const r = sampleResult();
      r.run_id = id;
      r.spec.body = body(structuredClone(r.spec.body) as Record<string, unknown>);
      r.spec.hash = createHash("sha256").update(JSON.stringify(r.spec.body)).digest("hex");
      return entryOf(r, `${id}.json`, {});
    };
    const first = run("r1", (b) => b);
    await appendHistory(dir, first);
    // another description (and tolerance): the spec's hash changes, what it measures does not
    const edited = run("r2", (b) => ({
      ...b,
      description: "now with a description",
      workloads: (b.workloads as Record<string, unknown>[]).map((w) => ({
        ...w,
        judge: { tps: { better: "higher", tolerance: 0.1 } },
      })),
    }));
    assert.notEqual(edited.spec.hash, first.spec.hash);
    assert.equal(edited.spec.matrix, first.spec.matrix);
    await appendHistory(dir, edited);
    const longer = run("r3", (b) => ({
      ...b,
      workloads: (b.workloads as Record<string, unknown>[]).map((w) => ({ ...w, duration: 60 })),
    }));
    await assert.rejects(
      appendHistory(dir, longer),
      /run r3 measured a different matrix of spec t \(its target, data or workloads changed since the history's last run r2\)/,
    );
  });
});
