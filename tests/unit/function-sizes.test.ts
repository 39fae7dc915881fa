// The function-size lint (scripts/function-sizes.ts, run by scripts/test.sh): orchestration in
// pipeline/ and targets/ in short named steps. It fails on a planted long function, on a listed
// one that grew, and passes on this tree.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { LIMIT, overLimit, violations } from "../../scripts/function-sizes.ts";
import { ROOT } from "../helpers/paths.ts";
import { tempDir } from "../helpers/real.ts";

const body = (n: number) => Array.from({ length: n }, (_, i) => `  const x${i} = ${i};`).join("\n");

describe("function sizes in pipeline/ and targets/", () => {
  test("this tree: nothing new over the limit, nothing listed grown", () => {
    const allowed = JSON.parse(readFileSync(join(ROOT, "scripts/function-sizes.allow.json"), "utf8"));
    assert.deepEqual(violations(overLimit(ROOT), allowed), []);
  });

  test("a planted long function fails, named by file and function; a listed one may shrink, not grow", () => {
    const root = tempDir();
    for (const d of ["action/src/pipeline", "action/src/targets"])
      mkdirSync(join(root, d), { recursive: true });
    writeFileSync(
      join(root, "action/src/pipeline/leak.ts"),
      `export function shortOne() {\n${body(3)}\n}\nexport class Runner {\n  longStep() {\n${body(LIMIT)}\n  }\n}\nexport const arrow = () => {\n${body(LIMIT + 5)}\n};\n`,
    );
    const now = overLimit(root);
    assert.deepEqual(Object.keys(now).sort(), [
      "action/src/pipeline/leak.ts:Runner.longStep",
      "action/src/pipeline/leak.ts:arrow",
    ]);
    assert.equal(now["action/src/pipeline/leak.ts:arrow"], LIMIT + 7);
    assert.match(
      violations(now, {}).join("\n"),
      /leak\.ts:arrow: 87 lines \(over 80\): split it into named steps/,
    );
    const listed = {
      "action/src/pipeline/leak.ts:Runner.longStep": 90,
      "action/src/pipeline/leak.ts:arrow": 80,
    };
    assert.deepEqual(violations(now, listed), [
      "action/src/pipeline/leak.ts:arrow: 87 lines, listed at 80: a listed function may only shrink",
    ]);
  });
});
