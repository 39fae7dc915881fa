import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { planRun } from "../../action/src/bench/plan.ts";
import { parseSpec } from "../../action/src/specfile/load.ts";

const spec = (compare: string) =>
  parseSpec(
    `name: c
target: {kind: mariadb}
data: {tables: 1, table_size: 100}
workloads:
  - {name: point_select, sysbench: oltp_point_select, threads: [4], duration: 10s}
variants: {base: {}, head: {target: {config: {table_open_cache: 400}}}}
compare: {order: interleaved, rounds: 4${compare}}
`,
    "c.yaml",
  );

describe("tiperf plan: what a regression's confirmation may add", () => {
  test("compare.confirm (1 by default): a line after the estimate, and plan.json's confirm, at most the run again per confirmation", async () => {
    for (const [extra, runs] of [
      ["", 1],
      [", confirm: 2", 2],
    ] as const) {
      const plan = await planRun(spec(extra), { cores: 2 });
      const lines = plan.text.split("\n");
      const at = lines.findIndex((l) => l.startsWith("estimated duration:"));
      assert.match(
        lines[at + 1] ?? "",
        new RegExp(
          `^on a regression \\(compare\\.confirm ${runs}\\): the regressed cells again on fresh instances`,
        ),
      );
      assert.equal(/up to 2 times/.test(lines[at + 1] ?? ""), runs === 2);
      const json = JSON.parse(plan.files["plan.json"] as string) as { seconds: number; confirm: unknown };
      assert.deepEqual(json.confirm, { runs, seconds_at_most: runs * json.seconds });
    }
  });

  test("within compare.budget the line says so; compare.confirm: 0 has none", async () => {
    const budgeted = await planRun(spec(", budget: 60m"), { cores: 2 });
    assert.match(budgeted.text, /every cell regressed\), only where it fits compare\.budget;/);
    const none = await planRun(spec(", confirm: 0"), { cores: 2 });
    assert.doesNotMatch(none.text, /on a regression/);
    assert.equal((JSON.parse(none.files["plan.json"] as string) as { confirm?: unknown }).confirm, undefined);
  });
});
