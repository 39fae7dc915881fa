// Where compare's options go (scripts/options-trail.ts): followed call by call from the checked
// request into the bench, they never climb back to a higher layer, and they stay in few files.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { layerOf, optionsTrail } from "../../scripts/options-trail.ts";

describe("compare's options, call by call", () => {
  test("from the request into the bench: no climb back up a layer, at most 8 files", () => {
    const t = optionsTrail("action/src/commands/compare/index.ts", "execCompare", "request");
    assert.deepEqual(t.climbs, [], t.climbs.map((c) => `${c.from} → ${c.callee} (${c.to})`).join("\n"));
    assert.ok(t.files.length <= 8, t.files.join("\n"));
    // they reach the plan, where the schedule is cut by seed, shard and look
    assert.ok(t.files.includes("action/src/bench/plan.ts"), t.files.join("\n"));
    assert.ok(t.files.includes("action/src/bench/cut.ts"), t.files.join("\n"));
    // a confirmation's re-runs are the command's own: confirm.ts decides, it is given no option
    assert.ok(!t.files.includes("action/src/commands/compare/confirm.ts"), t.files.join("\n"));
    // and not the helpers that take only where the target runs
    assert.ok(!t.files.includes("action/src/bench/plan-phases.ts"), t.files.join("\n"));
  });

  test("layers: doors, commands, the bench, its rooms, then processes and YAML", () => {
    assert.deepEqual(
      [
        "action/src/cli.ts",
        "action/src/commands/run/index.ts",
        "action/src/bench/plan.ts",
        "action/src/compare/judge.ts",
        "action/src/proc/files.ts",
      ].map(layerOf),
      [0, 1, 2, 3, 4],
    );
  });
});

describe("the trail's own input", () => {
  test("a parameter the function does not have is refused, naming the ones it has", () => {
    assert.throws(
      () => optionsTrail("action/src/commands/run/index.ts", "execRun", "opts"),
      /execRun has no parameter opts \(its parameters: request, io\)/,
    );
  });
});
