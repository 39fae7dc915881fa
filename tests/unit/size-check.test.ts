// The size lint (scripts/size-check.ts, run by scripts/test.sh): every function of action/src in
// short named steps, every class and file of one job, with no list of exceptions. It fails on a
// planted long function, class or file, and passes on this tree.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { CLASS_LIMIT, FILE_LIMIT, LIMIT, overLimit, violations } from "../../scripts/size-check.ts";
import { ROOT } from "../helpers/paths.ts";
import { tempDir } from "../helpers/real.ts";

const body = (n: number) => Array.from({ length: n }, (_, i) => `  const x${i} = ${i};`).join("\n");
const methods = (n: number) =>
  Array.from({ length: n }, (_, i) => `  m${i}() {\n    return ${i};\n  }`).join("\n");

describe("sizes of functions, classes and files in action/src", () => {
  test("this tree: nothing over any limit", () => {
    assert.deepEqual(violations(overLimit(ROOT)), []);
  });

  test("a planted long function fails, named by file and function", () => {
    const root = tempDir();
    for (const d of ["action/src/bench", "action/src/targets"]) mkdirSync(join(root, d), { recursive: true });
    writeFileSync(
      join(root, "action/src/bench/leak.ts"),
      `export function shortOne() {\n${body(3)}\n}\nexport class Runner {\n  longStep() {\n${body(LIMIT)}\n  }\n}\nexport const arrow = () => {\n${body(LIMIT + 5)}\n};\n`,
    );
    const now = overLimit(root);
    assert.deepEqual(Object.keys(now).sort(), [
      "action/src/bench/leak.ts:Runner.longStep",
      "action/src/bench/leak.ts:arrow",
    ]);
    assert.equal(now["action/src/bench/leak.ts:arrow"], LIMIT + 7);
    assert.match(
      violations(now).join("\n"),
      /leak\.ts:arrow: 87 lines \(over 80\): split it into named steps/,
    );
  });

  test("a class over its limit fails though every method is short; one at the limit passes", () => {
    const root = tempDir();
    mkdirSync(join(root, "action/src/bench"), { recursive: true });
    // n methods of 3 lines plus the class's own 2: over the limit, and exactly at it
    const over = Math.ceil((CLASS_LIMIT - 1) / 3);
    const at = Math.floor((CLASS_LIMIT - 2) / 3);
    writeFileSync(join(root, "action/src/bench/big.ts"), `export class Big {\n${methods(over)}\n}\n`);
    writeFileSync(join(root, "action/src/bench/fits.ts"), `export class Fits {\n${methods(at)}\n}\n`);
    const now = overLimit(root);
    assert.deepEqual(Object.keys(now), ["action/src/bench/big.ts:class Big"]);
    assert.equal(now["action/src/bench/big.ts:class Big"], 3 * over + 2);
    assert.match(
      violations(now).join("\n"),
      /big\.ts:class Big: \d+ lines \(over 250\): cut the class along its jobs/,
    );
  });

  test("a file over the limit fails: there is no list to put it on", () => {
    const root = tempDir();
    mkdirSync(join(root, "action/src/report"), { recursive: true });
    const many = (n: number) => Array.from({ length: n }, (_, i) => `export const x${i} = ${i};`).join("\n");
    writeFileSync(join(root, "action/src/report/big.ts"), `${many(FILE_LIMIT + 10)}\n`);
    writeFileSync(join(root, "action/src/report/small.ts"), `${many(10)}\n`);
    const now = overLimit(root);
    assert.deepEqual(now, { "action/src/report/big.ts": FILE_LIMIT + 11 });
    assert.match(violations(now).join("\n"), /big\.ts: 411 lines \(over 400\): cut it along its jobs/);
  });
});
