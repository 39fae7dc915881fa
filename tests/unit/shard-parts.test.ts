import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { compareSpec } from "../../action/src/commands/compare/index.ts";
import { mergeParts } from "../../action/src/commands/merge/index.ts";
import { prepareSpec } from "../../action/src/specfile/prepare.ts";
import { newRepo } from "../helpers/git.ts";

/** A repository whose last commit leaves its spec as it was: base and head are one target. */
function unchangedRepo(): string {
  const { dir, git } = newRepo("tiperf-parts-");
  writeFileSync(
    join(dir, "w.yaml"),
    "name: t\ntarget: {kind: mariadb}\ndata: {tables: 1, table_size: 10}\nworkloads:\n  - {name: ps, sysbench: oltp_point_select, threads: [1], duration: 2s}\ncompare: {rounds: 6, blocks: 3, seed: 11}\n",
  );
  writeFileSync(join(dir, "README.md"), "a\n");
  git("add", ".");
  git("commit", "-qm", "base");
  writeFileSync(join(dir, "README.md"), "b\n");
  git("commit", "-qam", "docs only");
  return dir;
}

describe("a shard always leaves a part", () => {
  for (const of of [1, 3])
    test(`${of} shard(s) of a PR that changes nothing measured: each leaves a part, their merge passes as one runner does`, async () => {
      const dir = unchangedRepo();
      const lines: string[] = [];
      const log = (l: string) => lines.push(l);
      const signal = new AbortController().signal;
      const loaded = () => prepareSpec({ spec: "w.yaml", baseRef: "HEAD~1", headRef: "HEAD", cwd: dir });
      const alone = await compareSpec(await loaded(), { outDir: join(dir, "alone"), log, signal });
      const parts: string[] = [];
      for (let index = 1; index <= of; index++) {
        const out = await compareSpec(await loaded(), {
          outDir: join(dir, `shard${index}`),
          log,
          signal,
          shard: { index, of },
        });
        assert.equal(out.exitCode, 0);
        assert.ok(existsSync(out.resultPath), `shard ${index} wrote ${out.resultPath}`);
        const part = JSON.parse(readFileSync(out.resultPath, "utf8"));
        assert.deepEqual(part.cells, []);
        assert.match(part.nothing_measured, /w\.yaml is the same at HEAD~1 and HEAD/);
        assert.equal(part.shard.index, index);
        assert.equal(part.shard.of, of);
        assert.equal(part.shard.seed, 11, "the spec's seed");
        parts.push(out.resultPath);
      }
      const merged = await mergeParts(parts, { outDir: join(dir, "merged"), log });
      assert.equal(merged.exitCode, alone.exitCode);
      assert.equal(merged.verdict.verdict, alone.verdict.verdict);
      assert.equal(merged.verdict.verdict, "pass");
      assert.equal(merged.verdict.same_target, alone.verdict.same_target);
      assert.deepEqual(merged.verdict.cells, []);
      assert.match(
        readFileSync(merged.reportPath, "utf8"),
        /^⚪ \*\*tiperf t: pass\*\* · nothing to measure/,
      );
      assert.ok(
        merged.verdict.notes.includes(
          `${of} of ${of} shard(s) said so (${parts.map((_, i) => i + 1).join(", ")})`,
        ),
        merged.verdict.notes.join("\n"),
      );
      if (of > 1) {
        // a shard that left no part: named, and the check does not pass
        const short = await mergeParts(parts.slice(1), { outDir: join(dir, "short"), log });
        assert.equal(short.exitCode, 3);
        assert.equal(short.verdict.verdict, "inconclusive");
        assert.deepEqual(short.verdict.shards?.missing, [1]);
        assert.ok(
          short.verdict.notes.some((n) => /missing: shard 1 .*the check cannot pass without them/.test(n)),
          short.verdict.notes.join("\n"),
        );
        // the comment says so too: never "pass" while the check fails
        const body = readFileSync(short.reportPath, "utf8");
        assert.match(body, /^🟡 \*\*tiperf t: inconclusive\*\* · nothing to measure/);
        assert.match(body, /shard 1 left no part .*the check cannot pass without it/);
        assert.ok(
          lines.some((l) => /merge: 2 of 3 shard\(s\) said so \(2, 3\); shard\(s\) 1 left no part/.test(l)),
        );
      }
    });
});
