import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { describe, test } from "node:test";
import { measureYcsb } from "../../action/src/drivers/go-ycsb/index.ts";
import { goDuration, parseYcsb, YcsbParseError } from "../../action/src/drivers/go-ycsb/parse.ts";
import { parseSpec } from "../../action/src/specfile/load.ts";
import { fixture } from "../helpers/paths.ts";
import { cli } from "../helpers/real.ts";

const read = (name: string) => readFileSync(fixture("go-ycsb", name), "utf8");
const FAILED = /noserver|nodb/;

describe("go-ycsb parser: golden files", () => {
  // Every parseable output has a .json golden beside it; UPDATE_GOLDEN=1 rewrites them.
  const outputs = readdirSync(fixture("go-ycsb")).filter((f) => f.endsWith(".txt") && !FAILED.test(f));
  assert.ok(outputs.length >= 3);
  for (const name of outputs) {
    test(name, () => {
      const golden = fixture("go-ycsb", name.replace(/\.txt$/, ".json"));
      const parsed = parseYcsb(read(name));
      if (process.env.UPDATE_GOLDEN === "1") writeFileSync(golden, `${JSON.stringify(parsed, null, 2)}\n`);
      assert.ok(existsSync(golden), `${golden} is missing: run with UPDATE_GOLDEN=1 and check it by eye`);
      assert.deepEqual(parsed, JSON.parse(readFileSync(golden, "utf8")));
    });
  }
});

/** Reads the final block's row of `op` off the text with a regex of its own. */
function printedFinal(text: string, op: string): Record<string, number> {
  const after = text.slice(text.indexOf("Run finished"));
  const line = after.split("\n").find((l) => l.startsWith(`${op} `) || l.includes(`"Operation":"${op}"`));
  assert.ok(line, `a final ${op} row`);
  const out: Record<string, number> = {};
  if (line.startsWith("[")) {
    const row = (JSON.parse(line) as Record<string, string>[]).find((r) => r.Operation === op) ?? {};
    for (const [k, v] of Object.entries(row)) if (k !== "Operation") out[k] = Number(v);
  } else for (const m of line.matchAll(/([\w.()]+): ([\d.]+)/g)) out[m[1] as string] = Number(m[2]);
  return out;
}

describe("go-ycsb parser: the numbers go-ycsb printed", () => {
  for (const [name, op] of [
    ["ycsb_run_a_60k_t4.txt", "READ"],
    ["ycsb_run_a_60k_t4.txt", "UPDATE"],
    ["ycsb_run_a_60k_t4.txt", "TOTAL"],
    ["ycsb_run_c_40k_t8_json.txt", "READ"],
    ["ycsb_load_a_20k_t4.txt", "INSERT"],
    ["ycsb_run_a_sigint_t4.txt", "TOTAL"],
    ["ycsb_run_a_sigint_t4.txt", "UPDATE"],
  ] as const) {
    test(`${name}: final ${op} row`, () => {
      const text = read(name);
      const p = printedFinal(text, op);
      const r = parseYcsb(text).operations[op];
      assert.ok(r);
      assert.deepEqual(
        [
          r.takes_s,
          r.count,
          r.ops,
          r.avg_us,
          r.min_us,
          r.max_us,
          r.p50_us,
          r.p90_us,
          r.p95_us,
          r.p99_us,
          r.p999_us,
          r.p9999_us,
        ],
        [
          p["Takes(s)"],
          p.Count,
          p.OPS,
          p["Avg(us)"],
          p["Min(us)"],
          p["Max(us)"],
          p["50th(us)"],
          p["90th(us)"],
          p["95th(us)"],
          p["99th(us)"],
          p["99.9th(us)"],
          p["99.99th(us)"],
        ],
      );
    });
  }

  test("periodic blocks are the intervals; the final block is not one of them", () => {
    const r = parseYcsb(read("ycsb_run_a_60k_t4.txt"));
    const totals = r.intervals.filter((i) => i.operation === "TOTAL");
    assert.deepEqual(
      totals.map((t) => [t.n, t.takes_s, t.count]),
      [
        [1, 2.0, 10986],
        [2, 4.0, 20949],
        [3, 6.0, 31251],
        [4, 8.0, 41541],
        [5, 10.0, 52366],
      ],
    );
    assert.equal(r.run_s, 11.484332248);
    assert.equal(r.properties.operationcount, "60000");
  });

  test("failures are errors in go-ycsb's own words, never zeros", () => {
    assert.throws(() => parseYcsb(read("ycsb_run_nodb.txt")), {
      name: "YcsbParseError",
      message: "go-ycsb failed: create db mysql failed Error 1049: Unknown database 'nosuch'",
    });
    assert.throws(() => parseYcsb(read("ycsb_run_noserver.txt")), /connect: connection refused/);
    const cut = read("ycsb_run_a_60k_t4.txt").split("Run finished")[0] as string;
    assert.throws(() => parseYcsb(cut), /expected go-ycsb's "Run finished, takes …" line/);
    const allFailed =
      "Run finished, takes 2s\nREAD_ERROR - Takes(s): 2.0, Count: 5, OPS: 2.5, Avg(us): 1, Min(us): 1, Max(us): 1, 50th(us): 1, 90th(us): 1, 95th(us): 1, 99th(us): 1, 99.9th(us): 1, 99.99th(us): 1\n";
    assert.throws(
      () => parseYcsb(allFailed),
      (e) => e instanceof YcsbParseError && /every operation failed \(READ_ERROR 5\)/.test(e.message),
    );
  });

  test("Go durations", () => {
    assert.equal(goDuration("11.484332248s"), 11.484332248);
    assert.equal(goDuration("1m2.5s"), 62.5);
    assert.equal(goDuration("850ms"), 0.85);
    assert.throws(() => goDuration("soon"), YcsbParseError);
  });

  test("tiperf parse go-ycsb prints the report; a failed output exits 2 naming the file", async () => {
    const ok = cli(["parse", "go-ycsb", fixture("go-ycsb", "ycsb_run_a_60k_t4.txt")]);
    assert.equal((await ok.done).code, 0, ok.stderr());
    const j = JSON.parse(ok.stdout());
    assert.equal(j.operations.TOTAL.ops, 5225.5);
    assert.equal(j.operations.UPDATE.p99_us, 3889);
    const bad = cli(["parse", "go-ycsb", fixture("go-ycsb", "ycsb_run_nodb.txt")]);
    assert.equal((await bad.done).code, 2);
    assert.match(bad.stderr(), /ycsb_run_nodb\.txt: go-ycsb failed: create db mysql failed/);
  });
});

describe("go-ycsb driver", () => {
  const spec = parseSpec(
    "name: y\ntarget: {kind: mariadb}\nworkloads:\n  - {name: a, go-ycsb: workloada, options: {recordcount: 20000}, threads: [4], duration: 10s}\n",
    "y.yaml",
  ).spec;
  const w = spec.workloads[0] as (typeof spec.workloads)[number];

  test("the spec shape: the key names the tool, its value the workload; ops judged by default", () => {
    assert.deepEqual([w.driver, w.script, w.options.recordcount], ["go-ycsb", "workloada", 20000]);
    assert.deepEqual(w.judge, { ops: { better: "higher", tolerance: 0.05 } });
  });

  test("metrics: ops and per operation p99 from the final report; interval throughput from cumulative counts", () => {
    const m = measureYcsb(w, parseYcsb(read("ycsb_run_a_60k_t4.txt")), { seconds: 10, grace_s: 15 });
    assert.equal(m.metrics.ops, 5225.5);
    assert.equal(m.metrics.read_p99_us, 1547);
    assert.equal(m.metrics.update_p99_us, 3889);
    assert.equal(m.metrics.errors, 0);
    // (20949 − 10986) / (4.0 − 2.0) s
    assert.equal(m.intervals[1]?.values.ops, (20949 - 10986) / 2);
    assert.equal(m.intervals.length, 5);
  });

  test("a run ended by tiperf's SIGINT at its time: measured, the cut-off operations counted as errors", () => {
    const r = parseYcsb(read("ycsb_run_a_sigint_t4.txt"));
    assert.equal(r.signal, "interrupt");
    const m = measureYcsb(w, r, { seconds: 22, grace_s: 15 });
    assert.equal(m.metrics.ops, 6511.5);
    assert.equal(m.metrics.errors, 1 + 3, "READ_ERROR 1, UPDATE_ERROR 3: one per thread at the stop");
  });

  test("a run that ended early or ran long is not the measurement asked for", () => {
    const r = parseYcsb(read("ycsb_run_a_60k_t4.txt")); // 11.5 s, no signal
    assert.throws(
      () => measureYcsb(w, r, { seconds: 30, grace_s: 15 }),
      /finished after 11\.5s, before the 30s/,
    );
    assert.throws(() => measureYcsb(w, r, { seconds: 5, grace_s: 2 }), /ran 11\.5s for a 5s cell/);
  });

  test("bad options name the key and what is allowed", () => {
    const bad = (opts: string) => {
      try {
        parseSpec(
          `name: y\ntarget: {kind: mariadb}\nworkloads:\n  - {name: a, go-ycsb: workloada, options: ${opts}, threads: [4], duration: 10s}\n`,
          "y.yaml",
        );
      } catch (e) {
        return (e as Error).message;
      }
      return "accepted";
    };
    assert.match(
      bad("{operationcount: 5}"),
      /workloads\[0\]\.options\.operationcount: operationcount is set by tiperf/,
    );
    assert.match(bad("{mysql.host: x}"), /options\.mysql\.host: mysql\.host is set by tiperf/);
    assert.match(bad("{recordcount: -1}"), /options\.recordcount: must be a whole number ≥ 1/);
    assert.match(
      parseSpecError("workloadz"),
      /workloads\[0\]\.go-ycsb: must be a core workload \(workloada, workloadb, workloadc, workloadd, workloade, workloadf\) or an existing properties file \(got "workloadz"\)/,
    );
  });
});

function parseSpecError(workload: string): string {
  try {
    parseSpec(
      `name: y\ntarget: {kind: mariadb}\nworkloads:\n  - {name: a, go-ycsb: ${workload}, threads: [4], duration: 10s}\n`,
      "y.yaml",
    );
  } catch (e) {
    return (e as Error).message;
  }
  return "accepted";
}
