// One background for the run (compare/background.ts): a cost per operation net of what the idle
// servers did per second and of a reading's own cost, averaged over every server of every variant,
// so an idle window read high or low by chance passes neither for a change per operation nor, by a
// mean per variant, for a steady gap.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { gunzipSync } from "node:zlib";
import { noiseFromResult } from "../../action/src/bench/noise-measured.ts";
import {
  pooledBackground,
  withCounterMetrics,
  withPooledBackground,
} from "../../action/src/compare/background.ts";
import { alphaPerCell } from "../../action/src/compare/judge-results.ts";
import { judgeCell, pairedSamples } from "../../action/src/compare/samples.ts";
import { whatMoved } from "../../action/src/compare/what-moved.ts";
import { costOf } from "../../action/src/observe/cost.ts";
import type { Cell, Result } from "../../action/src/result/model.ts";
import { specOfValue } from "../../action/src/specfile/load.ts";
import { fixture } from "../helpers/paths.ts";
import { sampleResult } from "../helpers/sample.ts";

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const normal = (r: () => number) => Math.sqrt(-2 * Math.log(r() + 1e-12)) * Math.cos(2 * Math.PI * r());

// tidb-server on unistore as measured here: ~170 mallocs per point_select, 24,000 a second of
// background, 31,500 per reading of /metrics; each server's background read over one 2 s idle
// window (sd 10% by chance); the rounds' throughput varies 10% with the machine
const KEY = { workload: "ps", threads: 4 };
const TRUE_BG = 24_000;
const READING = 31_500;

function run(headPerOp: number, seed: number, o: { blocks?: number; headIdleBias?: number } = {}): Result {
  const blocks = o.blocks ?? 6;
  const r = rng(seed);
  const template = sampleResult().cells[0] as Cell;
  const cells: Cell[] = [];
  const window = 10;
  let round = 0;
  for (let block = 1; block <= blocks; block++) {
    const idleOf = () => ({
      per_s: { mallocs: TRUE_BG * (1 + 0.1 * normal(r)) },
      per_reading: { mallocs: READING * (1 + 0.02 * normal(r)) },
    });
    const servers = { base: idleOf(), head: idleOf() };
    servers.head.per_s.mallocs *= 1 + (o.headIdleBias ?? 0);
    for (let i = 0; i < 2; i++) {
      round++;
      const machine = Math.exp(0.1 * normal(r));
      for (const variant of ["base", "head"] as const) {
        const ops = 4500 * window * machine * Math.exp(0.02 * normal(r));
        const perOp = variant === "head" ? headPerOp : 170;
        const grown = perOp * ops * Math.exp(0.0005 * normal(r)) + TRUE_BG * window + READING;
        const { metrics, record } = costOf(
          { at: 0, counters: { mallocs: 0 } },
          { at: window * 1000, counters: { mallocs: grown } },
          ops,
          servers[variant],
        );
        cells.push({
          ...template,
          workload: KEY.workload,
          threads: KEY.threads,
          variant,
          round,
          block,
          metrics: {
            tps: { value: ops / window, unit: "1/s", better: "higher" },
            mallocs_per_op: { value: metrics.mallocs_per_op as number, unit: "1/op", better: "lower" },
          },
          cost: record,
        });
      }
    }
  }
  return { ...template.metrics, ...sampleResult(), cells };
}

const RULE = { better: "lower" as const, tolerance: 0.02 };
const ALPHA = alphaPerCell(0.95, 42);
const judge = (result: Result) =>
  judgeCell(
    KEY,
    "mallocs_per_op",
    RULE,
    pairedSamples(result, "base", "head", KEY, "mallocs_per_op"),
    ALPHA,
    true,
  );
const width = (ci: [number, number] | null) => (ci ? ci[1] - ci[0] : Number.POSITIVE_INFINITY);

describe("one background for the run, over all its servers", () => {
  test("the mean of every server's idle readings; every cell's cost taken again with it, and said so", () => {
    const result = run(170, 1);
    const bg = pooledBackground(result);
    const perS = result.cells.map((c) => c.cost?.idle_per_s?.mallocs as number);
    const mean = perS.reduce((a, b) => a + b, 0) / perS.length;
    assert.ok(Math.abs((bg?.per_s.mallocs as number) - mean) < 1e-6);
    const again = withPooledBackground(result);
    for (const cell of again.cells) {
      const cost = cell.cost as NonNullable<Cell["cost"]>;
      assert.equal(cost.idle_per_s?.mallocs, bg?.per_s.mallocs);
      assert.equal(cost.reading_cost?.mallocs, bg?.per_reading.mallocs);
      const expected =
        ((cost.counters.mallocs as number) -
          (bg?.per_s.mallocs as number) * cost.window_s -
          (bg?.per_reading.mallocs as number)) /
        cost.ops;
      assert.ok(Math.abs((cell.metrics.mallocs_per_op?.value as number) - expected) < 1e-9);
    }
    assert.deepEqual(
      again.cells.map((c) => c.metrics.tps),
      result.cells.map((c) => c.metrics.tps),
      "throughput is no cost",
    );
    const bare = { ...result, cells: result.cells.map(({ cost, ...c }) => c) };
    assert.equal(pooledBackground(bare), undefined);
    assert.equal(withPooledBackground(bare), bare, "no counters, nothing taken again");
  });

  test("taken once and stored: taking it again changes no digit, and each cell keeps its own readings", () => {
    const result = run(171, 2);
    const once = withPooledBackground(result);
    // what result.json holds after a comparison: the judge takes the background again from it
    const stored = JSON.parse(JSON.stringify(once)) as Result;
    assert.deepEqual(withPooledBackground(stored), stored);
    assert.deepEqual(pooledBackground(stored), pooledBackground(result));
    for (const [i, cell] of once.cells.entries()) {
      const own = result.cells[i]?.cost as NonNullable<Cell["cost"]>;
      assert.deepEqual(cell.cost?.own_idle_per_s, own.idle_per_s, "the cell's own idle reading kept");
      assert.deepEqual(cell.cost?.own_reading_cost, own.reading_cost);
    }
    // a cell that measured no idle window takes the run's background, and adds nothing to it
    const cells = result.cells.map((c, i) =>
      i === 0 ? { ...c, cost: { ...(c.cost as NonNullable<Cell["cost"]>), idle_per_s: undefined } } : c,
    ) as Cell[];
    const partial = withPooledBackground({ ...result, cells });
    assert.deepEqual(partial.cells[0]?.cost?.own_idle_per_s, {});
    assert.deepEqual(withPooledBackground(partial), partial);
  });

  test("A/A: idle windows read high or low by chance pass for no change, and the interval is narrower", () => {
    let narrower = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const result = run(170, seed);
      const own = judge(result);
      const pooled = judge(withPooledBackground(result));
      assert.ok(pooled.ci && pooled.ci[0] <= 0 && pooled.ci[1] >= 0, `seed ${seed}: ${pooled.ci}`);
      if (width(pooled.ci) < width(own.ci) / 2) narrower++;
    }
    assert.ok(narrower >= 15, `${narrower} of 20 intervals half as wide or less`);
  });

  test("one side's idle windows all read 10% high by chance: no steady gap per operation", () => {
    // a mean per variant would take 2,400 mallocs a second more off head's cells: −0.3 per
    // operation (−0.16%) in every block, a gap no interval sees
    let shift = 0;
    let kept = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const fair = judge(withPooledBackground(run(170, seed)));
      const biased = judge(withPooledBackground(run(170, seed, { headIdleBias: 0.1 })));
      shift += ((biased.change as number) - (fair.change as number)) / 20;
      if (biased.ci && biased.ci[0] <= 0 && biased.ci[1] >= 0) kept++;
    }
    assert.ok(Math.abs(shift) < 0.0001, `mean shift ${shift}`);
    assert.ok(kept >= 19, `${kept} of 20 intervals hold zero`);
  });

  test("one more malloc in 170 (+0.6%) leaves out zero with the variant's background, and is listed as judged", () => {
    let found = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const pooled = judge(withPooledBackground(run(171, seed)));
      if (pooled.ci && pooled.ci[0] > 0) found++;
    }
    assert.ok(found >= 18, `found in ${found} of 20`);
    const result = run(171, 3);
    const cell = { ...judge(withPooledBackground(result)), variant: "head" };
    assert.equal(cell.verdict, "within");
    const listed = whatMoved(result, "base", ["head"], [KEY], 0.95, [cell]);
    const entry = listed?.moved.find((c) => c.counter === "mallocs_per_op");
    assert.equal(entry?.judged, true);
    assert.equal(entry?.group, "allocations");
    assert.deepEqual(entry?.ci, cell.ci);
    // the same cell judged unchanged is not listed
    const aa = { ...judge(withPooledBackground(run(170, 3))), variant: "head" };
    assert.equal(whatMoved(run(170, 3), "base", ["head"], [KEY], 0.95, [aa])?.moved.length ?? 0, 0);
  });
});

describe("a counter per operation the run did not judge, taken from its recorded counters", () => {
  test("withCounterMetrics: (growth − idle × window − one reading) / ops per cell; noise for it from an A/A's counters", () => {
    const recorded = JSON.parse(
      gunzipSync(readFileSync(fixture("results/mariadb-tmp-table-3-blocks-result.json.gz"))).toString(),
    ) as Result;
    const name = "mariadb:Bytes_sent/op";
    const cell = recorded.cells.find((c) => c.round > 0 && c.cost) as Cell;
    assert.equal(cell.metrics[name], undefined, "the run did not judge it");
    const taken = withCounterMetrics(recorded, [name, "tps"]);
    const same = taken.cells[recorded.cells.indexOf(cell)] as Cell;
    const cost = cell.cost as NonNullable<Cell["cost"]>;
    const c = "mariadb:Bytes_sent";
    const want =
      ((cost.counters[c] ?? 0) -
        (cost.idle_per_s?.[c] ?? 0) * cost.window_s -
        (cost.reading_cost?.[c] ?? 0)) /
      cost.ops;
    assert.ok(Math.abs((same.metrics[name]?.value ?? Number.NaN) - Math.max(0, want)) < 1e-9);
    assert.equal(same.metrics[name]?.better, "lower");
    // a metric already judged is left as recorded; a warmup round gets none
    assert.deepEqual(same.metrics.tps, cell.metrics.tps);
    assert.ok(taken.cells.filter((x) => x.round === 0).every((x) => !x.metrics[name]));
    // calibrate --from-result: the spec names it after the run, and still gets its noise
    const spec = specOfValue(
      {
        name: "n",
        target: { kind: "mariadb" },
        data: { tables: 2, table_size: 10000 },
        workloads: [
          { name: "read_only", sysbench: "oltp_read_only", threads: [4], duration: "6s" },
          { name: "read_write", sysbench: "oltp_read_write", threads: [4], duration: "6s" },
        ],
        metrics: { tps: { tolerance: "5%" }, [name]: { tolerance: "2%" } },
        variants: { base: {}, head: {} },
        compare: { rounds: 6, blocks: 3 },
      },
      "n.yaml",
    );
    const unmeasured: string[] = [];
    const noise = noiseFromResult(recorded, spec, "test", (w, m) => unmeasured.push(`${w} ${m}`)) as {
      workloads: Record<string, { metrics?: Record<string, { rounds: string }> }>;
    };
    assert.deepEqual(unmeasured, []);
    for (const w of ["read_only", "read_write"])
      assert.match(noise.workloads[w]?.metrics?.[name]?.rounds ?? "", /^\d+\.\d%$/);
  });
});
