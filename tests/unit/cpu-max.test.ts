import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { planRun } from "../../action/src/bench/plan.ts";
import { parseSpec } from "../../action/src/specfile/load.ts";
import { cpuMax, cpuMaxText } from "../../action/src/targets/local/cgroup.ts";

const spec = (quota: string) =>
  parseSpec(
    `name: q
target: {kind: mariadb, resources: {cpu_quota: "${quota}"}}
data: {tables: 1, table_size: 100}
workloads:
  - {name: point_select, sysbench: oltp_point_select, threads: [4], duration: 10s}
`,
    "q.yaml",
  );

describe("cpu_quota as the kernel takes it (cpu.max)", () => {
  test("a 10 ms period, longer where the quota would fall under the kernel's 1 ms: every quota exact", () => {
    assert.deepEqual(cpuMax(0.9), { quotaUs: 9000, periodUs: 10_000 });
    assert.deepEqual(cpuMax(1), { quotaUs: 10_000, periodUs: 10_000 });
    assert.deepEqual(cpuMax(2.5), { quotaUs: 25_000, periodUs: 10_000 });
    assert.deepEqual(cpuMax(0.1), { quotaUs: 1000, periodUs: 10_000 });
    // 5% clamped to 1 ms every 10 ms would be 10%
    assert.deepEqual(cpuMax(0.05), { quotaUs: 1000, periodUs: 20_000 });
    assert.deepEqual(cpuMax(0.001), { quotaUs: 1000, periodUs: 1_000_000 });
    for (const q of [0.03, 0.07, 0.004, 0.25, 0.4])
      assert.ok(
        Math.abs(cpuMax(q).quotaUs / cpuMax(q).periodUs / q - 1) < 0.001,
        `${q}: within 0.1% of asked`,
      );
  });

  test("the plan prints what the run writes; below 0.1% is refused naming the key", async () => {
    for (const [quota, line] of [
      ["90%", "9000 10000"],
      ["5%", "1000 20000"],
    ] as const) {
      const plan = await planRun(spec(quota), { cores: 2 });
      assert.match(plan.text, new RegExp(`write '<cgroup>/cpu\\.max' '${line}'`));
      assert.equal(cpuMaxText(Number.parseFloat(quota) / 100), line);
    }
    assert.throws(
      () => spec("0.05%"),
      /cpu_quota must be a percentage like "5%" from 0\.1% to 6400% \(got "0\.05%"\)/,
    );
  });
});
