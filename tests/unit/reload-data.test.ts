import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { planRun } from "../../action/src/bench/plan.ts";
import { loadSpec, parseSpec } from "../../action/src/specfile/load.ts";
import { ROOT } from "../helpers/paths.ts";

const spec = (compare: string) => `name: rl
target: {kind: mariadb}
data: {tables: 2, table_size: 2000}
workloads:
  - {name: point_select, sysbench: oltp_point_select, threads: [2], duration: 2s}
metrics:
  tps: {better: higher, tolerance: 5%}
variants:
  base: {}
  head: {}
compare: {${compare}}
`;

describe("compare.reload_data", () => {
  test("needs blocks to reload between: fewer than 3 is refused, naming the key", () => {
    assert.throws(
      () => parseSpec(spec("rounds: 4, reload_data: true"), "rl.yaml"),
      /rl\.yaml: compare\.reload_data .*needs compare\.blocks of 3 or more \(it is 1\)/,
    );
    assert.throws(() => parseSpec(spec("rounds: 4, reload_data: yes-please"), "rl.yaml"), /reload_data/);
  });

  test("the plan runs each variant's cleanup and data steps again after its restart, and says how often", async () => {
    const loaded = parseSpec(spec("rounds: 6, blocks: 3, reload_data: true, order: interleaved"), "rl.yaml");
    const plan = await planRun(loaded, { cores: 2 });
    assert.deepEqual(plan.refusals, []);
    const json = JSON.parse(plan.files["plan.json"] as string) as {
      steps: { per_cell: { phase: string; variant?: string; about?: string }[] };
    };
    const perCell = json.steps.per_cell;
    const again = perCell.filter((s) => /again after each restart/.test(s.about ?? ""));
    for (const v of ["base", "head"])
      assert.deepEqual(
        again.filter((s) => s.variant === v).map((s) => s.phase),
        ["cleanup", "load", "prepare", "prewarm"],
        v,
      );
    // after the restarts they follow
    const firstAgain = perCell.findIndex((s) => again.includes(s));
    assert.ok(perCell.slice(0, firstAgain).some((s) => s.phase === "restart"));
    assert.match(plan.text, /data loading not included, 6 times here with compare\.reload_data/);
    const without = await planRun(parseSpec(spec("rounds: 6, blocks: 3, order: interleaved"), "rl.yaml"), {
      cores: 2,
    });
    assert.doesNotMatch(without.text, /again after each restart|reload_data/);
  });

  test("variants sharing one deployment's data cannot reload it alone: refused in the plan", async () => {
    // tidb-pr.yaml on hosts: config variants on one cluster (its data loaded once)
    const loaded = await loadSpec(join(ROOT, "workloads/tidb-pr.yaml"));
    const c = loaded.variants?.compare;
    assert.ok(c);
    const withReload = {
      ...loaded,
      variants: { ...loaded.variants, compare: { ...c, blocks: 3, rounds: 6, reload_data: true } },
    };
    const plan = await planRun(withReload as typeof loaded, {
      profile: join(ROOT, "infra/profiles/hosts-example.yaml"),
      cores: 2,
    });
    assert.match(plan.refusals.join("\n"), /compare\.reload_data: variants share one deployment's data here/);
  });
});
