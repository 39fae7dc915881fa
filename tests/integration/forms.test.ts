// test-lane: parallel (nothing asserted here rests on measured speed: scripts/run-tests.mjs)
// A way to deploy TiDB that only the tests have (tests/helpers/forms/standin/: one folder, one
// registry line in tests/helpers/forms/cli.ts), planned and run by tiperf's real pipeline through
// the local path: its own form kind in the plan, its own target kind in the result, the steps it
// planned carried out in their words, nothing left. Its servers are the test-only stand-in
// tidb-server (a private MariaDB that answers as TiDB does).
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { readResult } from "../../action/src/result/store.ts";
import type { PlanStep } from "../../action/src/targets/types.ts";
import { STANDIN_KIND } from "../helpers/forms/standin/index.ts";
import { ROOT } from "../helpers/paths.ts";
import { cli, leftovers, tempDir } from "../helpers/real.ts";

const CLI = join(ROOT, "tests/helpers/forms/cli.ts");
const STAND_IN = join(ROOT, "tests/helpers/stand-ins/tidb-server");

describe("a deployment form added in tests/ by one folder and one registry line", () => {
  test("plans and runs through the local path: its kind in plan and result, its steps executed as planned, nothing left", async () => {
    const before = leftovers();
    const dir = tempDir();
    const bin = join(dir, "tidb-server");
    writeFileSync(bin, `#!/bin/sh\nTIDB_STAND_IN_VERSION=v8.5.0 exec '${STAND_IN}' "$@"\n`, { mode: 0o755 });
    const profile = join(dir, "standin.yaml");
    writeFileSync(profile, "name: standin\nprovider: standin\n");
    const spec = join(dir, "spec.yaml");
    writeFileSync(
      spec,
      `name: forms
target: {kind: tidb, profile: ${profile}, binpath: ${bin}}
data: {tables: 1, table_size: 300}
workloads:
  - {name: point_select, sysbench: oltp_point_select, threads: [2], duration: 2s, warmup: 0s}
`,
    );
    const out = join(dir, "results");
    // the CLI through the tests' own entry, which registers the test-only form first
    const run = cli(["run", "--spec", spec, "--out", out], {}, ROOT, CLI);
    const { code } = await run.done;
    assert.equal(code, 0, run.stderr());
    const runDir = join(out, readdirSync(out)[0] as string);
    const plan = readFileSync(join(runDir, "plan.txt"), "utf8");
    assert.match(plan, /profile \S+ \(standin, provider standin\)/);
    assert.match(plan, new RegExp(`deployments: ${STANDIN_KIND} tiperf-\\w+ `));
    const result = await readResult(join(runDir, "result.json"));
    assert.equal(result.status, "complete");
    assert.deepEqual(
      result.targets.map((t) => [t.kind, t.version]),
      [["tidb-standin", "v8.5.0"]],
    );
    assert.ok((result.cells[0]?.metrics.tps?.value ?? 0) > 0, JSON.stringify(result.cells[0]));
    // every step the form planned to start its server ran, by its key, in the plan's words (what
    // the plan leaves to the run, <port of …>, <workdir of …>, filled in)
    const planned = JSON.parse(readFileSync(join(runDir, "plan.json"), "utf8")) as {
      steps: { setup: PlanStep[] };
    };
    const executed = JSON.parse(readFileSync(join(runDir, "executed.json"), "utf8")) as PlanStep[];
    const starts = planned.steps.setup.filter((st) => st.phase === "start" && st.key);
    assert.ok(starts.length >= 2, JSON.stringify(starts));
    for (const st of starts) {
      const ran = executed.find((x) => x.key === st.key);
      const words = JSON.stringify(st.run)
        .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
        .replace(/<[^<>]+>/g, '[^"<>]+');
      assert.match(JSON.stringify(ran?.run), new RegExp(`^${words}$`), `step ${st.key}`);
    }
    assert.deepEqual(leftovers(), before, "the run left something");
  });
});
