import assert from "node:assert/strict";
import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { pruneBuilds, sizeBytes } from "../../action/src/targets/tidb/source.ts";
import { tempDir } from "../helpers/real.ts";

describe("kept tidb-server builds within target.source.keep", () => {
  test("the least recently used go first until the rest fit; a directory without a finished build is left alone", () => {
    const dir = tempDir("tiperf-keep-");
    try {
      const mb = Buffer.alloc(2 ** 20);
      // five builds of 3 MB each, used at t = 1…5 (build.json's time)
      for (let i = 1; i <= 5; i++) {
        const d = join(dir, `c${i}-abcd`);
        mkdirSync(d);
        writeFileSync(join(d, "tidb-server"), Buffer.concat([mb, mb, mb]));
        writeFileSync(join(d, "build.json"), "{}");
        utimesSync(join(d, "build.json"), i * 1000, i * 1000);
      }
      mkdirSync(join(dir, "checkout"));
      mkdirSync(join(dir, "c9-failed"));
      writeFileSync(join(dir, "c9-failed", "build.log"), "compile error");
      const removed = pruneBuilds(dir, sizeBytes("10M"));
      assert.deepEqual(
        removed.map((d) => d.slice(dir.length + 1)),
        ["c1-abcd", "c2-abcd"],
      );
      for (const k of ["c3-abcd", "c4-abcd", "c5-abcd", "checkout", "c9-failed"])
        assert.ok(existsSync(join(dir, k)), k);
      assert.deepEqual(pruneBuilds(dir, sizeBytes("10M")), [], "within the cap: nothing more");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("sizes: M and G, anything else named", () => {
    assert.equal(sizeBytes("800M"), 800 * 2 ** 20);
    assert.equal(sizeBytes("1.5G"), 1.5 * 2 ** 30);
    assert.throws(() => sizeBytes("10GB"), /target\.source\.keep: must be a size like 10G/);
  });
});
