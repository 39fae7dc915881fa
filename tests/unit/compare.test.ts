import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { describe, test } from "node:test";
import { provenance } from "../../action/src/action/steps.ts";
import {
  balancedOrders,
  interleavedOrder,
  lookRounds,
  williamsRows,
} from "../../action/src/bench/schedule.ts";
import { judgeShift, overallVerdict, samplesNeeded } from "../../action/src/compare/judge.ts";
import { alphaPerCell, asJudged, judgeStored } from "../../action/src/compare/judge-results.ts";
import { centres, judgeCell } from "../../action/src/compare/samples.ts";
import {
  batchMeans,
  blockLogShift,
  mean,
  normalQuantile,
  pairedLogShift,
  rng,
  tCdf,
  tQuantile,
  trimmedShift,
  welchLogShift,
  winsorize,
} from "../../action/src/compare/stats.ts";
import { commentMarkdown } from "../../action/src/report/comment.ts";
import { inconclusiveLines } from "../../action/src/report/rows.ts";
import { parseSpec } from "../../action/src/specfile/load.ts";
import type { LocalTargetSpec } from "../../action/src/targets/local/schema.ts";
import { ROOT } from "../helpers/paths.ts";
import { sampleResult } from "../helpers/sample.ts";
import { syntheticVerdict } from "../helpers/verdict.ts";

/** Normal deviates from a seeded generator (Box–Muller), so every run of the tests sees the same data. */
function gaussian(seed: number): () => number {
  const u = rng(seed);
  return () => Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
}

/** Paired rounds with a shared drift per round, multiplicative noise and a true relative change. */
function pairedRounds(seed: number, n: number, change: number, noise: number) {
  const g = gaussian(seed);
  const base: number[] = [];
  const head: number[] = [];
  for (let i = 0; i < n; i++) {
    const drift = 1 + 0.2 * g(); // machine-wide drift hits both variants of a round alike
    base.push(10_000 * drift * Math.exp(noise * g()));
    head.push(10_000 * drift * (1 + change) * Math.exp(noise * g()));
  }
  return { base, head };
}

const TPS = { better: "higher", tolerance: 0.02 } as const;
const P95 = { better: "lower", tolerance: 0.05 } as const;
const id = { workload: "w", threads: 8, metric: "tps" };

describe("distributions", () => {
  test("t and normal quantiles match tables", () => {
    assert.ok(Math.abs(tQuantile(0.975, 5) - 2.570582) < 1e-5);
    assert.ok(Math.abs(tQuantile(0.995, 10) - 3.169273) < 1e-5);
    assert.ok(Math.abs(tQuantile(0.975, 1) - 12.7062) < 1e-3);
    assert.ok(Math.abs(normalQuantile(0.975) - 1.959964) < 1e-6);
    assert.ok(Math.abs(normalQuantile(0.8) - 0.841621) < 1e-6);
    assert.ok(Math.abs(tCdf(tQuantile(0.9, 7), 7) - 0.9) < 1e-9);
  });

  test("the trimmed (Yuen) interval shrugs off a round hit by a neighbour; trim 0 is the plain t", () => {
    const d = [0.01, -0.02, 0.0, 0.015, -0.01, 0.005, -0.005, 0.02, -0.015, 0.6];
    const plain = trimmedShift(d, 0);
    const yuen = trimmedShift(d, 0.2);
    assert.ok(Math.abs(plain.estimate - d.reduce((a, b) => a + b) / d.length) < 1e-12);
    assert.equal(plain.df, 9);
    assert.equal(yuen.df, 5, "n − 2g − 1 with g = 2");
    assert.ok(Math.abs(yuen.estimate) < 0.01, `trimmed estimate ${yuen.estimate}`);
    assert.ok(yuen.se < plain.se / 3);
  });

  test("batch means average consecutive blocks", () => {
    assert.deepEqual(batchMeans([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 5), [1.5, 3.5, 5.5, 7.5, 9.5]);
    assert.deepEqual(batchMeans([4, 6], 5), [4, 6]);
  });
});

describe("verdicts", () => {
  test("a known 10% slowdown is found, with the change and interval around it", () => {
    const s = pairedRounds(1, 12, -0.1, 0.02);
    const j = judgeShift(id, TPS, pairedLogShift(s.base, s.head), { base: 1, head: 1 }, 0.05, "paired-t");
    assert.equal(j.verdict, "regression");
    assert.ok(j.ci && j.ci[0] < -0.1 && j.ci[1] > -0.1 && j.ci[1] < -0.02, `ci ${j.ci}`);
    assert.ok(j.mde !== null && j.mde < -0.02 && j.mde > -0.1, `mde ${j.mde}`);
  });

  test("pairing removes drift that an unpaired test cannot see past", () => {
    const s = pairedRounds(2, 12, -0.1, 0.02);
    const paired = judgeShift(
      id,
      TPS,
      pairedLogShift(s.base, s.head),
      { base: 1, head: 1 },
      0.05,
      "paired-t",
    );
    const unpaired = judgeShift(
      id,
      TPS,
      welchLogShift(s.base, s.head),
      { base: 1, head: 1 },
      0.05,
      "welch-t",
    );
    assert.ok(paired.ci && unpaired.ci);
    assert.ok(
      paired.ci[1] - paired.ci[0] < (unpaired.ci[1] - unpaired.ci[0]) / 3,
      "paired interval is far narrower",
    );
  });

  test("improvement, unchanged and inconclusive", () => {
    const better = pairedRounds(3, 12, 0.1, 0.02);
    assert.equal(
      judgeShift(id, TPS, pairedLogShift(better.base, better.head), { base: 1, head: 1 }, 0.05, "paired-t")
        .verdict,
      "improvement",
    );
    const same = pairedRounds(4, 30, 0, 0.01);
    assert.equal(
      judgeShift(id, TPS, pairedLogShift(same.base, same.head), { base: 1, head: 1 }, 0.05, "paired-t")
        .verdict,
      "unchanged",
    );
    const noisy = pairedRounds(5, 4, 0, 0.1);
    assert.equal(
      judgeShift(id, TPS, pairedLogShift(noisy.base, noisy.head), { base: 1, head: 1 }, 0.05, "paired-t")
        .verdict,
      "inconclusive",
    );
  });

  test("for latency, lower is better: a rise is the regression and the MDE points up", () => {
    const s = pairedRounds(6, 12, 0.2, 0.02);
    const j = judgeShift(
      { ...id, metric: "p95_ms" },
      P95,
      pairedLogShift(s.base, s.head),
      { base: 1, head: 1 },
      0.05,
      "paired-t",
    );
    assert.equal(j.verdict, "regression");
    assert.ok(j.mde !== null && j.mde > 0.05);
  });

  test("one sample gives no noise estimate: inconclusive, with the reason, never a pass", () => {
    const j = judgeShift(id, TPS, pairedLogShift([100], [50]), { base: 100, head: 50 }, 0.05, "paired-t");
    assert.equal(j.verdict, "inconclusive");
    assert.equal(j.ci, null);
    assert.match(j.reason ?? "", /fewer than 2 samples/);
  });

  test("with no shift, false alarms hold the nominal rate over many seeds (with and without trimming)", () => {
    // Tolerance 0 makes the regression rule a plain one-sided test at alpha/2: its rate is testable.
    const rule = { better: "higher", tolerance: 1e-9 } as const;
    const trials = 4000;
    for (const rounds of [6, 12]) {
      let alarms = 0;
      for (let seed = 0; seed < trials; seed++) {
        const s = pairedRounds(1000 + seed, rounds, 0, 0.05);
        if (
          judgeShift(id, rule, pairedLogShift(s.base, s.head), { base: 1, head: 1 }, 0.1, "paired-t")
            .verdict === "regression"
        )
          alarms++;
      }
      const rate = alarms / trials;
      // Nominal one-sided rate 0.05; 3 binomial standard errors either side.
      assert.ok(
        Math.abs(rate - 0.05) < 3 * Math.sqrt((0.05 * 0.95) / trials),
        `${rounds} rounds: false-alarm rate ${rate}`,
      );
    }
  });

  test("with the tolerance, A/A false alarms are far below the nominal rate", () => {
    let alarms = 0;
    for (let seed = 0; seed < 2000; seed++) {
      const s = pairedRounds(9000 + seed, 6, 0, 0.05);
      if (
        judgeShift(id, TPS, pairedLogShift(s.base, s.head), { base: 1, head: 1 }, 0.05, "paired-t")
          .verdict === "regression"
      )
        alarms++;
    }
    assert.ok(alarms / 2000 < 0.025 / 2, `rate ${alarms / 2000}`);
  });

  test("Bonferroni: the matrix-wide false-alarm rate stays under 1 − confidence", () => {
    const cells = 20;
    const alpha = alphaPerCell(0.95, cells);
    const rule = { better: "higher", tolerance: 1e-9 } as const;
    let familyAlarms = 0;
    const trials = 1000;
    for (let t = 0; t < trials; t++) {
      let any = false;
      for (let c = 0; c < cells; c++) {
        const s = pairedRounds(t * 100 + c, 6, 0, 0.05);
        if (
          judgeShift(id, rule, pairedLogShift(s.base, s.head), { base: 1, head: 1 }, alpha, "paired-t")
            .verdict === "regression"
        )
          any = true;
      }
      if (any) familyAlarms++;
    }
    assert.ok(familyAlarms / trials <= 0.05, `familywise rate ${familyAlarms / trials}`);
  });

  test("overall: any regression fails; otherwise any inconclusive is inconclusive; else pass", () => {
    const mk = (verdict: "regression" | "improvement" | "unchanged" | "inconclusive") => ({
      ...judgeShift(id, TPS, pairedLogShift([1, 1], [1, 1]), { base: 1, head: 1 }, 0.05, "paired-t"),
      verdict,
    });
    assert.equal(overallVerdict([mk("unchanged"), mk("improvement")]), "pass");
    assert.equal(overallVerdict([mk("unchanged"), mk("inconclusive")]), "inconclusive");
    assert.equal(overallVerdict([mk("inconclusive"), mk("regression")]), "regression");
    assert.equal(overallVerdict([]), "inconclusive", "nothing judged is never a pass");
  });
});

describe("interleaving", () => {
  test("every cell runs base-first and head-first equally often, in a seeded random order", () => {
    const order = interleavedOrder(6, 3, 42);
    for (let c = 0; c < 3; c++) {
      const seq = order.map((r) => r[c]);
      assert.equal(seq.filter((o) => o === "base-first").length, 3);
      for (let r = 0; r < 6; r += 2) assert.notEqual(seq[r], seq[r + 1], "AB BA pairs");
    }
    assert.deepEqual(interleavedOrder(6, 3, 42), order, "same seed, same order");
    assert.notDeepEqual(interleavedOrder(6, 3, 43), order);
  });

  test("more than two variants: a Williams design balances positions and neighbours", () => {
    for (const n of [3, 4, 5, 6]) {
      const rows = williamsRows(n);
      assert.equal(rows.length, n % 2 === 0 ? n : 2 * n, `rows for ${n}`);
      const perPosition = rows.length / n;
      for (let pos = 0; pos < n; pos++)
        for (let v = 0; v < n; v++)
          assert.equal(
            rows.filter((r) => r[pos] === v).length,
            perPosition,
            `n=${n}: ${v} at position ${pos}`,
          );
      // every ordered pair of distinct variants stands next to each other equally often
      const follows = new Map<string, number>();
      for (const r of rows)
        for (let k = 1; k < n; k++)
          follows.set(`${r[k - 1]}>${r[k]}`, (follows.get(`${r[k - 1]}>${r[k]}`) ?? 0) + 1);
      assert.equal(follows.size, n * (n - 1), `n=${n}: every ordered pair occurs`);
      assert.deepEqual(new Set(follows.values()), new Set([rows.length / n]), `n=${n}: equally often`);
    }
    const orders = balancedOrders(3, 2, 7);
    assert.equal(orders.length, 2);
    for (const cell of orders) for (const row of cell) assert.deepEqual([...row].sort(), [0, 1, 2]);
    assert.deepEqual(balancedOrders(3, 2, 7), orders, "same seed, same order");
  });
});

describe("sequential looks", () => {
  test("looks double from rounds up to max_rounds", () => {
    assert.deepEqual(lookRounds(6, 24), [6, 12, 24]);
    assert.deepEqual(lookRounds(6, 20), [6, 12, 20]);
    assert.deepEqual(lookRounds(6, 6), [6]);
  });
});

describe("variants", () => {
  const SPEC = `name: v
target: {kind: mariadb, config: {innodb_buffer_pool_size: 64M}}
data: {tables: 1, table_size: 10}
workloads:
  - {name: ps, sysbench: oltp_point_select, threads: [1], duration: 2s}
variants:
  base: {}
  head: {target: {config: {innodb_flush_log_at_trx_commit: 2}, resources: {cpu_quota: "90%"}}}
compare: {rounds: 6, order: interleaved}
`;
  test("an overlay deep-merges onto the spec; the base keeps the spec as written", () => {
    const { variants } = parseSpec(SPEC, "v.yaml");
    assert.deepEqual(variants?.head.spec.target.config, {
      innodb_buffer_pool_size: "64M",
      innodb_flush_log_at_trx_commit: 2,
    });
    assert.equal((variants?.head.spec.target as LocalTargetSpec | undefined)?.resources?.cpu_quota, 0.9);
    assert.deepEqual(variants?.base.spec.target.config, { innodb_buffer_pool_size: "64M" });
    assert.equal(variants?.compare.rounds, 6);
  });

  test("a bad overlay names the variant and the key", () => {
    assert.throws(
      () => parseSpec(SPEC.replace('"90%"', '"ninety"'), "v.yaml"),
      /v\.yaml: variants\.head: target\.resources\.cpu_quota: cpu_quota must be a percentage/,
    );
    assert.throws(
      () =>
        parseSpec(
          SPEC.replace("threads: [1]", "threads: [1]").replace(
            "head: {target:",
            "head: {workloads: [{name: ps, sysbench: oltp_point_select, threads: [2], duration: 2s}], target:",
          ),
          "v.yaml",
        ),
      /variants\.head: workloads and thread counts must be the same in every variant/,
    );
    assert.throws(
      () => parseSpec(SPEC.replace("rounds: 6", "rounds: 1"), "v.yaml"),
      /compare\.rounds: needs at least 2 rounds/,
    );
    assert.throws(
      () => parseSpec(SPEC.replace("order: interleaved", "order: random"), "v.yaml"),
      /compare\.order: must be one of auto, interleaved, duet/,
    );
    assert.throws(
      () => parseSpec(SPEC.replace("base: {}", "main: {}"), "v.yaml"),
      /compare\.base: no variant named "base" \(variants: main, head\)/,
    );
  });
});

describe("diff of stored results", () => {
  test("identical results compare; a different machine is refused unless forced", () => {
    const a = sampleResult();
    const b = sampleResult();
    const v = judgeStored(
      { result: a, file: "a.json" },
      { result: b, file: "b.json" },
      { confidence: 0.95, force: false },
    );
    assert.equal(v.cells[0]?.method, "welch-t");
    assert.equal(v.cells[0]?.change, 0);
    b.host = { ...b.host, cores: 64, cpu_model: "Other CPU" };
    assert.throws(
      () =>
        judgeStored(
          { result: a, file: "a.json" },
          { result: b, file: "b.json" },
          { confidence: 0.95, force: false },
        ),
      /refusing to compare a\.json with b\.json:\n- hardware differs: cpu, 2 cores.*Other CPU, 64 cores.*\npass --force/,
    );
    const forced = judgeStored(
      { result: a, file: "a.json" },
      { result: b, file: "b.json" },
      { confidence: 0.95, force: true },
    );
    assert.ok(forced.notes.some((n) => /compared with --force although hardware differs/.test(n)));
  });

  test("two runs of one single-variant spec: the columns say baseline and head, not its name twice", () => {
    const a = sampleResult();
    const b = sampleResult();
    const v = judgeStored(
      { result: a, file: "a.json" },
      { result: b, file: "b.json" },
      { confidence: 0.95, force: false },
    );
    assert.deepEqual([v.base.variant, v.head.variant], ["baseline", "head"]);
    assert.equal(v.base.target?.variant, "base", "the server's own variant name is kept");
    const [ra, rb] = asJudged({ result: a, file: "a.json" }, { result: b, file: "b.json" });
    assert.deepEqual([ra.cells[0]?.variant, rb.cells[0]?.variant], ["baseline", "head"]);
    assert.deepEqual([ra.targets[0]?.variant, rb.targets[0]?.variant], ["baseline", "head"]);
    assert.equal(a.cells[0]?.variant, "base", "the results read are not changed");
    // variants of different names keep them
    b.cells = b.cells.map((c) => ({ ...c, variant: "tuned" }));
    b.targets = b.targets.map((t) => ({ ...t, variant: "tuned" }));
    const named = judgeStored(
      { result: a, file: "a.json" },
      { result: b, file: "b.json" },
      { confidence: 0.95, force: false },
    );
    assert.deepEqual([named.base.variant, named.head.variant], ["base", "tuned"]);
    assert.equal(asJudged({ result: a, file: "a.json" }, { result: b, file: "b.json" })[1], b);
  });

  test("a different spec is refused, saying why", () => {
    const a = sampleResult();
    const b = sampleResult();
    b.spec = { ...b.spec, name: "other" };
    assert.throws(
      () =>
        judgeStored(
          { result: a, file: "a.json" },
          { result: b, file: "b.json" },
          { confidence: 0.95, force: false },
        ),
      /specs differ: a\.json ran "t", b\.json ran "other"/,
    );
  });
});

describe("instances as the unit: judging over blocks", () => {
  /**
   * A/A rounds as measured here: each block is a fresh pair of server processes that keeps a
   * steady gap (log-normal, sd `between`), and each round adds its own noise (sd `within`).
   */
  function aaBlocks(seed: number, blocks: number, perBlock: number, between: number, within: number) {
    const g = gaussian(seed);
    const pairs: { block: number; base: number; head: number }[] = [];
    for (let b = 1; b <= blocks; b++) {
      const gap = between * g();
      for (let r = 0; r < perBlock; r++) {
        const drift = 1 + 0.2 * g();
        pairs.push({ block: b, base: 1000 * drift, head: 1000 * drift * Math.exp(gap + within * g()) });
      }
    }
    return pairs;
  }
  const excludesZero = (s: { estimate: number; se: number; df: number }) => {
    const t = tQuantile(0.975, s.df);
    return Math.abs(s.estimate) > t * s.se;
  };

  test("simulation: with a steady gap between instances, rounds as the unit call A/A different far too often; blocks keep 5%", () => {
    const trials = 2000;
    let byRounds = 0;
    let byBlocks = 0;
    for (let i = 0; i < trials; i++) {
      const pairs = aaBlocks(1000 + i, 4, 4, 0.04, 0.05);
      if (
        excludesZero(
          pairedLogShift(
            pairs.map((p) => p.base),
            pairs.map((p) => p.head),
            0,
          ),
        )
      )
        byRounds++;
      if (excludesZero(blockLogShift(pairs))) byBlocks++;
    }
    const rateRounds = byRounds / trials;
    const rateBlocks = byBlocks / trials;
    // nominal 5%; binomial sd over 2000 trials is 0.5%
    assert.ok(rateBlocks > 0.035 && rateBlocks < 0.065, `blocks: ${rateBlocks}`);
    assert.ok(rateRounds > 0.15, `rounds: ${rateRounds}`); // measured 19%: nearly four times the nominal rate
  });

  test("simulation: without a gap between instances, blocks lose nothing in calibration (5%) and say so (between share ≈ 0)", () => {
    const trials = 2000;
    let byBlocks = 0;
    const shares: number[] = [];
    for (let i = 0; i < trials; i++) {
      const pairs = aaBlocks(5000 + i, 4, 4, 0, 0.05);
      const s = blockLogShift(pairs);
      if (excludesZero(s)) byBlocks++;
      shares.push(s.betweenShare);
    }
    assert.ok(byBlocks / trials > 0.035 && byBlocks / trials < 0.065, `${byBlocks / trials}`);
    assert.ok(mean(shares) < 0.12, `mean between share ${mean(shares)}`);
  });

  test("winsorized rounds: A/A keeps its 5% at 8 blocks × 2 rounds, and one odd round no longer hides a −12% change", () => {
    const trials = 3000;
    let aa = 0;
    let aaPlain = 0;
    for (let i = 0; i < trials; i++) {
      const pairs = aaBlocks(20_000 + i, 8, 2, 0.02, 0.05);
      if (excludesZero(blockLogShift(pairs))) aa++;
      if (excludesZero(blockLogShift(pairs, null))) aaPlain++;
    }
    // nominal 5% (binomial sd 0.4%); winsorizing normal rounds at 3 robust sd barely moves it
    assert.ok(
      aa / trials > 0.035 && aa / trials < 0.065,
      `winsorized A/A: ${aa / trials} (plain ${aaPlain / trials})`,
    );
    // a −12% change measured with a round sd of 6%, one round of 16 in which base alone slowed by a third
    let caught = 0;
    let caughtPlain = 0;
    const limit = Math.log(1 - 0.02);
    const regression = (x: { estimate: number; se: number; df: number }) =>
      x.estimate + tQuantile(1 - 0.01 / 2, x.df) * x.se < limit;
    for (let i = 0; i < trials; i++) {
      const pairs = aaBlocks(40_000 + i, 8, 2, 0.01, 0.06).map((p) => ({ ...p, head: p.head * 0.88 }));
      const odd = pairs[(i * 7) % pairs.length] as (typeof pairs)[number];
      odd.base *= 2 / 3;
      if (regression(blockLogShift(pairs))) caught++;
      if (regression(blockLogShift(pairs, null))) caughtPlain++;
    }
    assert.ok(caught / trials > 0.8, `winsorized: ${caught / trials}`);
    assert.ok(
      caughtPlain / trials < caught / trials - 0.1,
      `plain ${caughtPlain / trials} vs winsorized ${caught / trials}`,
    );
  });

  test("winsorize: values beyond 3 robust sd of the median are pulled in, counted; short or flat series untouched", () => {
    const xs = [0.01, -0.02, 0.0, 0.015, -0.01, 0.005, 0.4];
    const w = winsorize(xs);
    assert.equal(w.pulled, 1);
    assert.ok((w.values[6] as number) < 0.1 && (w.values[6] as number) > 0.02);
    assert.deepEqual(w.values.slice(0, 6), xs.slice(0, 6));
    assert.deepEqual(winsorize([1, 2, 100]).pulled, 0);
    assert.deepEqual(winsorize([0, 0, 0, 0, 0, 0, 5]).pulled, 0);
  });

  test("the between-instance share estimates the true split", () => {
    // between sd 0.05, within 0.05 → true share 0.5
    const shares = Array.from(
      { length: 400 },
      (_, i) => blockLogShift(aaBlocks(9000 + i, 8, 6, 0.05, 0.05)).betweenShare,
    );
    const m = mean(shares);
    assert.ok(m > 0.4 && m < 0.6, `mean share ${m}`);
  });

  test("block means, df = blocks − 1; an uneven block counts once like the others", () => {
    const s = blockLogShift([
      { block: 1, base: 100, head: 110 },
      { block: 1, base: 100, head: 110 },
      { block: 2, base: 100, head: 90 },
      { block: 3, base: 100, head: 100 },
      { block: 3, base: 100, head: 100 },
      { block: 3, base: 100, head: 100 },
    ]);
    assert.equal(s.blocks, 3);
    assert.equal(s.df, 2);
    assert.ok(Math.abs(s.estimate - (Math.log(1.1) + Math.log(0.9) + 0) / 3) < 1e-12);
    assert.ok(s.betweenShare > 0.99, `${s.betweenShare}`);
    const one = blockLogShift([{ block: 1, base: 1, head: 2 }]);
    assert.equal(one.df, 0);
    assert.ok(Number.isNaN(one.se));
  });
});

describe("numbers that read right", () => {
  test("the values beside Δ are the estimator's centres: Δ is exactly head/base − 1 of them, trimmed rounds and blocks alike", () => {
    // 12 paired rounds, one of them hit by a neighbour (the trim sets it aside)
    const { base, head } = pairedRounds(11, 12, -0.06, 0.05);
    head[3] = (head[3] as number) * 0.5;
    const shift = pairedLogShift(base, head);
    const c = centres(base, head, true);
    assert.ok(
      Math.abs(c.head / c.base - Math.exp(shift.estimate)) < 1e-12,
      `${c.head / c.base} vs ${Math.exp(shift.estimate)}`,
    );
    // the arithmetic means would not match (the complaint: −42.8% beside a −44.1% ratio)
    assert.ok(Math.abs(mean(head) / mean(base) - Math.exp(shift.estimate)) > 1e-3);
    const blocks = base.map((_, i) => 1 + Math.floor(i / 5)); // 5, 5 and 2 rounds
    const b = blockLogShift(
      base.map((x, i) => ({ block: blocks[i] as number, base: x, head: head[i] as number })),
    );
    const cb = centres(base, head, true, blocks);
    assert.ok(Math.abs(cb.head / cb.base - Math.exp(b.estimate)) < 1e-12);
    const w = welchLogShift(base, head);
    const cw = centres(base, head, false);
    assert.ok(Math.abs(cw.head / cw.base - Math.exp(w.estimate)) < 1e-12);
    // and the judged cell carries them
    const j = judgeCell({ workload: "w", threads: 8 }, "tps", TPS, { base, head }, 0.05, true);
    assert.ok(Math.abs((j.head as number) / (j.base as number) - 1 - (j.change as number)) < 1e-6);
  });

  test("an inconclusive cell says how many rounds would decide it: the smallest count meeting (t + z₈₀)·se ≤ log(1 + tolerance)", () => {
    const { base, head } = pairedRounds(5, 6, -0.03, 0.06);
    const j = judgeShift(
      id,
      { better: "higher", tolerance: 0.05 },
      pairedLogShift(base, head),
      { base: 1, head: 1 },
      0.01,
      "paired-t",
    );
    assert.equal(j.verdict, "inconclusive");
    const shift = pairedLogShift(base, head);
    const n = samplesNeeded(shift, 0.05, 0.01, "paired-t");
    assert.ok(n !== undefined && n > 6, String(n));
    assert.equal(j.needed, n);
    const perRound = shift.se * Math.sqrt(shift.n);
    const width = (k: number) =>
      (tQuantile(1 - 0.01 / 2, k - 2 * Math.floor(0.1 * k) - 1) + normalQuantile(0.8)) *
      (perRound / Math.sqrt(k));
    assert.ok(width(n) <= Math.log(1.05));
    assert.ok(width(n - 1) > Math.log(1.05));
    // noise no count can beat within the cap: none suggested
    assert.equal(samplesNeeded({ estimate: 0, se: 1, df: 5, n: 6 }, 0.01, 0.01, "paired-t"), undefined);
  });

  test("the warning after an inconclusive verdict: what it could detect, rounds and minutes that would decide it, a drop that may be hiding; silent with compare.inconclusive: pass", () => {
    const v = syntheticVerdict({ workloads: ["ps"], threads: [16], inconclusive: ["ps@16"] });
    const open = v.cells.find((c) => c.verdict === "inconclusive") as (typeof v.cells)[number];
    open.needed = 30;
    open.change = -0.07;
    v.rounds = 6;
    v.benchmark_seconds = 600;
    const lines = inconclusiveLines(v);
    assert.match(lines[0] ?? "", /1 judgement\(s\) inconclusive/);
    assert.match(
      lines[0] ?? "",
      /smallest drop it could detect \(80% power\) was −8\.0% \(ps threads=16 qps, tolerance ±5%\)/,
    );
    assert.match(lines[0] ?? "", /~30 rounds \(now 6; ≈50 min of benchmark\) would decide it/);
    assert.match(
      lines[1] ?? "",
      /ps threads=16 qps: the estimate is −7\.0%, beyond the ±5% tolerance .* may be hiding/,
    );
    assert.match(commentMarkdown(v), /> ⚠️ 1 judgement\(s\) inconclusive/);
    assert.deepEqual(inconclusiveLines({ ...v, inconclusive: "pass" }), []);
    assert.match(
      inconclusiveLines({ ...v, inconclusive: "fail" })[0] ?? "",
      /^❌ .*compare\.inconclusive is fail: the check fails\./,
    );
    // stored results (run --baseline, diff) have no rounds to add: what decides them instead
    const stored = inconclusiveLines({ ...v, order: "stored" })[0] ?? "";
    assert.match(stored, /judged unpaired.*`tiperf compare` with the baseline's target as its base variant/);
    assert.doesNotMatch(stored, /\d+ rounds/);
  });
});

describe("where a verdict came from", () => {
  test("the Action resolves the compared refs to commits and links the workflow run and its artifacts; the comment shows them", async () => {
    const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
    const p = await provenance(
      { baseRef: "HEAD", headRef: "HEAD" },
      { GITHUB_SERVER_URL: "https://github.example", GITHUB_REPOSITORY: "o/r", GITHUB_RUN_ID: "42" },
    );
    assert.deepEqual(p, {
      base_sha: head,
      head_sha: head,
      run_url: "https://github.example/o/r/actions/runs/42",
      artifacts_url: "https://github.example/o/r/actions/runs/42#artifacts",
    });
    const v = { ...syntheticVerdict(), provenance: p };
    assert.ok(
      commentMarkdown(v).includes(
        `<sub>base \`${head.slice(0, 12)}\` · head \`${head.slice(0, 12)}\` · [workflow run](https://github.example/o/r/actions/runs/42) · [report and raw logs (artifacts)](https://github.example/o/r/actions/runs/42#artifacts)</sub>`,
      ),
    );
    // a ref git does not know is left out, not guessed
    assert.deepEqual(await provenance({ baseRef: "no-such-ref-x", headRef: undefined }, {}), {});
  });
});
