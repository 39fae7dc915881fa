// The size lint (scripts/size-check.ts, run by scripts/test.sh): every function of action/src in
// short named steps, every file of one job. It fails on a planted long function or file, on a listed
// file that grew, and passes on this tree.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { FILE_LIMIT, LIMIT, overLimit, violations } from "../../scripts/size-check.ts";
import { ROOT } from "../helpers/paths.ts";
import { tempDir } from "../helpers/real.ts";

const body = (n: number) => Array.from({ length: n }, (_, i) => `  const x${i} = ${i};`).join("\n");

describe("sizes of functions and files in action/src", () => {
  test("this tree: nothing new over the limit, nothing listed grown", () => {
    const allowed = JSON.parse(readFileSync(join(ROOT, "scripts/size-check.allow.json"), "utf8"));
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

  test("a file over the limit fails unless listed, and a listed one may only shrink; a function has no list", () => {
    const root = tempDir();
    mkdirSync(join(root, "action/src/report"), { recursive: true });
    const many = (n: number) => Array.from({ length: n }, (_, i) => `export const x${i} = ${i};`).join("\n");
    writeFileSync(join(root, "action/src/report/big.ts"), `${many(FILE_LIMIT + 10)}\n`);
    writeFileSync(join(root, "action/src/report/small.ts"), `${many(10)}\n`);
    const now = overLimit(root);
    assert.deepEqual(now, { "action/src/report/big.ts": FILE_LIMIT + 11 });
    assert.match(violations(now, {}).join("\n"), /big\.ts: 411 lines \(over 400\): cut it along its jobs/);
    assert.deepEqual(violations(now, { "action/src/report/big.ts": FILE_LIMIT + 11 }), []);
    assert.match(
      violations(now, { "action/src/report/big.ts": FILE_LIMIT + 5 }).join("\n"),
      /listed at 405: a listed file may only shrink/,
    );
  });
});
