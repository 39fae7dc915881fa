import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { estimate } from "../../action/src/bench/estimate.ts";
import {
  KEPT,
  measuredRestart,
  recordRestarts,
  timingKey,
  timingsFile,
} from "../../action/src/bench/timings.ts";
import { parseSpec } from "../../action/src/specfile/load.ts";
import type { TargetPlan } from "../../action/src/targets/types.ts";
import { tempDir } from "../helpers/real.ts";

const spec = parseSpec(
  `name: t
target: {kind: mariadb}
data: {tables: 1, table_size: 100}
workloads:
  - {name: point_select, sysbench: oltp_point_select, threads: [4], duration: 10s}
variants: {base: {}, head: {target: {config: {table_open_cache: 400}}}}
compare: {order: duet, rounds: 16, blocks: 8}
`,
  "t.yaml",
);
const target = {
  kind: "mariadb",
  profile: "local-mariadb",
  switching: "none",
  overhead: { setupS: 10, switchS: 0, restartS: 120 },
} as unknown as TargetPlan;

describe("restart timings: estimates from what restarts took here", () => {
  test("off, default place, or the file named", () => {
    assert.equal(timingsFile({ TIPERF_TIMINGS: "off" }), undefined);
    assert.equal(timingsFile({ TIPERF_TIMINGS: "/x/t.json" }), "/x/t.json");
    assert.equal(timingsFile({ XDG_CACHE_HOME: "/c" }), "/c/tiperf/timings.json");
  });

  test("the median of the latest measurements, at most KEPT of them", async () => {
    const file = join(tempDir(), "timings.json");
    assert.equal(measuredRestart("k", file), undefined);
    await recordRestarts("k", [3, 9, 4], file);
    assert.deepEqual(measuredRestart("k", file), { seconds: 4, n: 3 });
    await recordRestarts(
      "k",
      Array.from({ length: KEPT }, () => 5),
      file,
    );
    assert.deepEqual(measuredRestart("k", file), { seconds: 5, n: KEPT });
    assert.equal(measuredRestart("other", file), undefined);
  });

  test("a plan's estimate takes the measured restart over the kind's guess", async () => {
    const file = join(tempDir(), "timings.json");
    const before = process.env.TIPERF_TIMINGS;
    process.env.TIPERF_TIMINGS = file;
    try {
      const guessed = estimate(spec, target);
      assert.match(guessed.text, /14 restarts × 120s/);
      await recordRestarts(timingKey(target), [4, 5, 6], file);
      const measured = estimate(spec, target);
      assert.match(measured.text, /14 restarts × 5s \(the median of 3 measured here\)/);
      assert.equal(guessed.seconds - measured.seconds, 14 * (120 - 5));
    } finally {
      if (before === undefined) delete process.env.TIPERF_TIMINGS;
      else process.env.TIPERF_TIMINGS = before;
    }
  });
});
