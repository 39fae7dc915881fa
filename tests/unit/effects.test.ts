import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { z } from "zod";
import {
  cpuQuotaOf,
  differingPaths,
  effectLines,
  MIN_THROTTLED_SHARE,
  quotaEffects,
  settingEffects,
  unshownEffects,
  withEffects,
} from "../../action/src/compare/effects.ts";
import { overallVerdict } from "../../action/src/compare/judge.ts";
import type { CellJudgementSchema } from "../../action/src/compare/verdict.ts";
import type { Cell, TargetInfo } from "../../action/src/result/model.ts";
import { parseCpuStat, throttleBetween } from "../../action/src/targets/local/cgroup.ts";
import { TARGET_KINDS } from "../../action/src/targets/registry.ts";

/** A measured cell of `variant` whose quota cgroup was throttled in `throttled` of `periods`. */
const cell = (variant: string, round: number, throttled?: number, periods = 1000): Cell => ({
  workload: "point_select",
  driver: "sysbench",
  script: "oltp_point_select",
  threads: 4,
  variant,
  round,
  status: "ok",
  started_at: "2026-11-25T00:00:00Z",
  finished_at: "2026-11-25T00:00:10Z",
  raw_log: "raw/x.log",
  warmup_s: 2,
  duration_s: 10,
  metrics: { tps: { value: 1000, unit: "1/s", better: "higher" } },
  intervals: [],
  ...(throttled === undefined
    ? {}
    : { cpu_throttle: { periods, throttled_periods: throttled, throttled_s: throttled / 1000 } }),
});

type Judgement = z.output<typeof CellJudgementSchema>;
const judgement = (verdict: Judgement["verdict"]): Judgement => ({
  variant: "head",
  workload: "point_select",
  threads: 4,
  metric: "tps",
  better: "higher",
  tolerance: 0.03,
  base: 1000,
  head: 990,
  change: -0.01,
  ci: [-0.015, -0.006],
  mde: -0.01,
  verdict,
  n: 6,
  method: "paired-t",
});

const variants = [
  { name: "base", cpu_quota: 1 },
  { name: "head", cpu_quota: 0.9 },
];

describe("effect checks: a CPU quota that never bound", () => {
  test("neither quota throttled its server: did not take effect, and the pass becomes inconclusive", () => {
    // inside a duet pair: the server shares its CPU with sysbench and never reaches 90%
    const cells = [1, 2, 3].flatMap((r) => [cell("base", r, 0), cell("head", r, 2)]);
    const effects = quotaEffects(cells, variants, "base");
    assert.equal(effects.length, 1);
    assert.equal(effects[0]?.took_effect, false);
    assert.match(effects[0]?.detail ?? "", /head 90% of a CPU: throttled in 6 of 3000 periods \(0\.2%/);
    const judged = withEffects([judgement("unchanged")], effects);
    assert.equal(judged[0]?.verdict, "inconclusive");
    assert.match(judged[0]?.reason ?? "", /target\.resources\.cpu_quota did not take effect/);
    assert.equal(overallVerdict(judged), "inconclusive", "never a plain pass");
    const lines = effectLines(effects);
    assert.match(
      lines[0] ?? "",
      /^🚫 target\.resources\.cpu_quota did not take effect in point_select threads=4/,
    );
  });

  test("the tighter quota held its server back: took effect, the judgement stands", () => {
    const cells = [1, 2].flatMap((r) => [cell("base", r, 0), cell("head", r, 600)]);
    const effects = quotaEffects(cells, variants, "base");
    assert.equal(effects[0]?.took_effect, true);
    assert.deepEqual(withEffects([judgement("regression")], effects)[0]?.verdict, "regression");
    assert.deepEqual(effectLines(effects), []);
  });

  test("the boundary: throttled in MIN_THROTTLED_SHARE of the periods binds, below it does not", () => {
    const at = Math.round(MIN_THROTTLED_SHARE * 1000);
    assert.equal(
      quotaEffects([cell("base", 1, 0), cell("head", 1, at)], variants, "base")[0]?.took_effect,
      true,
    );
    assert.equal(
      quotaEffects([cell("base", 1, 0), cell("head", 1, at - 1)], variants, "base")[0]?.took_effect,
      false,
    );
  });

  test("a side with no quota is not counted as bound; warmup rounds and failed cells are not judged", () => {
    const cells = [cell("base", 1), cell("head", 0, 900), cell("head", 1, 0)];
    const e = quotaEffects(cells, [{ name: "base" }, { name: "head", cpu_quota: 0.5 }], "base");
    assert.equal(e[0]?.took_effect, false, "round 0's throttling is the warmup's");
    assert.match(e[0]?.detail ?? "", /base no quota/);
  });

  test("not recorded (no cgroup counters): said so, the judgement left as it is", () => {
    const e = quotaEffects([cell("base", 1), cell("head", 1)], variants, "base");
    assert.equal(e[0]?.took_effect, undefined);
    assert.equal(withEffects([judgement("unchanged")], e)[0]?.verdict, "unchanged");
    assert.match(effectLines(e)[0] ?? "", /^⚠️ target\.resources\.cpu_quota: not shown to take effect/);
  });

  test("variants with the same quota are no difference to check", () => {
    assert.deepEqual(
      quotaEffects(
        [cell("base", 1, 0), cell("head", 1, 0)],
        [
          { name: "base", cpu_quota: 0.9 },
          { name: "head", cpu_quota: 0.9 },
        ],
        "base",
      ),
      [],
    );
  });

  test("a target's quota whatever its kind; cpu.stat counters and their rise", () => {
    assert.equal(cpuQuotaOf({ kind: "tidb", resources: { cpu_quota: 0.4 } }), 0.4);
    assert.equal(cpuQuotaOf({ kind: "mariadb" }), undefined);
    const v2 = parseCpuStat(
      "usage_usec 2000000\nuser_usec 1\nsystem_usec 1\nnr_periods 100\nnr_throttled 40\nthrottled_usec 500000\n",
    );
    assert.deepEqual([v2.nr_periods, v2.nr_throttled, v2.throttled_usec], [100, 40, 500000]);
    assert.deepEqual(
      throttleBetween(
        { periods: 100, throttled_periods: 40, throttled_s: 0.5, usage_s: 2 },
        { periods: 1100, throttled_periods: 340, throttled_s: 2, usage_s: 11 },
      ),
      { periods: 1000, throttled_periods: 300, throttled_s: 1.5, usage_s: 9 },
    );
  });
});

const info = (
  variant: string,
  config: TargetInfo["config"],
  effective: TargetInfo["effective_config"],
): TargetInfo => ({
  variant,
  kind: "mariadb",
  version: "10.11.6",
  config,
  effective_config: effective,
});

describe("effect checks: settings read back, and differences nothing shows", () => {
  const cells = [cell("base", 0), cell("base", 1), cell("head", 1), cell("base", 2), cell("head", 2)];
  test("a setting both servers read back alike did not take effect: the pass becomes inconclusive", () => {
    const effects = settingEffects(
      cells,
      [
        info("base", { max_connections: 151 }, { max_connections: "151" }),
        info("head", { max_connections: 100000 }, { max_connections: "151" }),
      ],
      "base",
    );
    assert.equal(effects.length, 1);
    assert.equal(effects[0]?.took_effect, false);
    assert.equal(effects[0]?.difference, "max_connections");
    assert.match(effects[0]?.detail ?? "", /head 100000 → reads 151/);
    const [judged] = withEffects([judgement("unchanged")], effects);
    assert.equal(judged?.verdict, "inconclusive");
    assert.match(
      effectLines(effects)[0] ?? "",
      /🚫 max_connections did not take effect in point_select threads=4/,
    );
  });
  test("read back different: took effect; one side not read back: not shown; the same asked: no difference", () => {
    const differ = settingEffects(
      cells,
      [
        info("base", { a: "1", b: 2, c: true }, { a: "1", b: "2", c: "1" }),
        info("head", { a: "2", b: 3, c: true }, { a: "2" }),
      ],
      "base",
    );
    assert.deepEqual(
      differ.map((e) => [e.difference, e.took_effect]),
      [
        ["a", true],
        ["b", undefined],
      ],
    );
    assert.equal(withEffects([judgement("unchanged")], differ)[0]?.verdict, "unchanged");
  });
  test("a key the kind does not show at run time is said, per cell; the shown keys (and their children) are not", () => {
    const targets = [
      {
        name: "base",
        target: { kind: "tidb", version: "v8.5.0", roles: { tikv: { count: 3, config: { x: 1 } } } },
      },
      {
        name: "head",
        target: {
          kind: "tidb",
          version: "v8.5.1",
          roles: { tikv: { count: 5, config: { x: 2 } } },
          split: { regions: 8 },
          resources: { cpus: "1" },
        },
      },
    ];
    const effects = unshownEffects(cells, targets, "base", TARGET_KINDS.tidb?.shown ?? []);
    assert.deepEqual(
      effects.map((e) => [e.difference, e.took_effect]),
      [
        ["target.roles.tikv.count", undefined],
        ["target.resources.cpus", undefined],
      ],
    );
    assert.match(
      effectLines(effects)[0] ?? "",
      /⚠️ target\.roles\.tikv\.count, target\.resources\.cpus: not shown to take effect/,
    );
    assert.equal(withEffects([judgement("unchanged")], effects)[0]?.verdict, "unchanged");
    assert.deepEqual(
      differingPaths({ a: { b: [1, 2] }, c: 1 }, { a: { b: [1, 3] }, c: 1, d: 0, e: { f: 1 } }),
      ["a.b", "d", "e.f"],
    );
  });
});
