// The folder lint (scripts/folder-pairs.ts, run by scripts/test.sh): no two folders of action/src
// import each other. It passes on this tree and fails on a planted pair, naming an import of each way.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { folderImports, mutualPairs } from "../../scripts/folder-pairs.ts";
import { ROOT } from "../helpers/paths.ts";
import { tempDir } from "../helpers/real.ts";

describe("folders that import each other", () => {
  test("this tree: none", () => {
    assert.deepEqual(mutualPairs(folderImports(ROOT)), []);
  });

  test("a planted pair is named with an import of each way; one way, or a top-level file, is fine", () => {
    const root = tempDir();
    for (const d of ["observe", "targets/local", "proc"])
      mkdirSync(join(root, "action/src", d), { recursive: true });
    const put = (f: string, text: string) => writeFileSync(join(root, "action/src", f), text);
    put("errors.ts", "export class E {}\n");
    put("proc/affinity.ts", 'import { E } from "../errors.ts";\nexport const a = E;\n');
    put("targets/local/server.ts", 'import { c } from "../../observe/cost.ts";\nexport const s = c;\n');
    put("observe/cost.ts", 'import { a } from "../proc/affinity.ts";\nexport const c = a;\n');
    assert.deepEqual(mutualPairs(folderImports(root)), []);
    put(
      "observe/procfs.ts",
      'import type { s } from "../targets/local/server.ts";\nexport type P = typeof s;\n',
    );
    assert.deepEqual(mutualPairs(folderImports(root)), [
      "observe ⇄ targets: observe/procfs.ts → targets/local/server.ts; targets/local/server.ts → observe/cost.ts",
    ]);
  });
});
