import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { gunzipSync } from "node:zlib";
import { parse } from "yaml";
import { planRun } from "../../action/src/bench/plan.ts";
import { readWave, waveFor } from "../../action/src/bench/waves.ts";
import { mergeParts } from "../../action/src/commands/merge/index.ts";
import { judgeFamily } from "../../action/src/compare/judge-results.ts";
import { lookShares } from "../../action/src/compare/looks.ts";
import type { Result } from "../../action/src/result/model.ts";
import { specOfValue } from "../../action/src/specfile/load.ts";
import { fixture } from "../helpers/paths.ts";
import { tempDir } from "../helpers/real.ts";

// A recorded MariaDB comparison (3 blocks of 2 rounds, head with a 1K temporary-table limit: tps
// −30% to −38%, handler reads per op −16%), judged with compare.looks 2 and a tps tolerance of 30%
// that its first look cannot decide: the merge of its three shards names a second look, run as a
// wave of shards (its blocks 4–6 here the recorded blocks again, renumbered), and the merge of
// every part judges both looks as one compare process takes them.
const SPEC = `name: counters-tmp
target:
  kind: mariadb
  config: { innodb_buffer_pool_size: 256M }
data: { tables: 2, table_size: 10000 }
workloads:
  - { name: read_only, sysbench: oltp_read_only, threads: [4], duration: 6s, warmup: 2s, options: { rand-type: uniform } }
  - { name: read_write, sysbench: oltp_read_write, threads: [4], duration: 6s, warmup: 2s, options: { rand-type: uniform } }
metrics:
  tps: { tolerance: 30% }
  handler_reads_per_op: { tolerance: 2% }
variants:
  base: {}
  head: { target: { config: { innodb_buffer_pool_size: 256M, tmp_table_size: 1K, max_heap_table_size: 16K } } }
compare: { order: duet, swap: 1s, rounds: 6, blocks: 3, warmup_rounds: 0, seed: 7, looks: 2 }
`;
const raw = parse(SPEC) as Record<string, unknown>;
const loaded = specOfValue(raw, "counters-tmp.yaml");
const recorded = JSON.parse(
  gunzipSync(readFileSync(fixture("results/mariadb-tmp-table-3-blocks-result.json.gz"))).toString(),
) as Result;

/** The design's three parts (one block each), and a wave of look 2 of `cells` (blocks 4–6, rounds 7–12). */
function partsOf(dir: string, wave?: string[], skip?: number): { design: string[]; wave: string[] } {
  const write = (name: string, r: Result) => {
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(r));
    return file;
  };
  const shard = (k: number, blocks: number[], look?: number) => ({
    index: k,
    of: 3,
    seed: 7,
    order: "duet" as const,
    blocks,
    ...(look ? { look } : {}),
    spec_sha256: loaded.hash,
    spec: raw,
  });
  const design = [1, 2, 3].map((k) =>
    write(`part-${k}.json`, {
      ...recorded,
      run_id: `${recorded.run_id}-shard-${k}`,
      cells: recorded.cells.filter((c) => (c.block ?? 1) === k),
      shard: shard(k, [k]),
    }),
  );
  const waveParts = wave
    ? [1, 2, 3]
        .filter((k) => k !== skip)
        .map((k) =>
          write(`look-2-part-${k}.json`, {
            ...recorded,
            run_id: `${recorded.run_id}-look-2-shard-${k}`,
            cells: recorded.cells
              .filter((c) => (c.block ?? 1) === k && wave.includes(c.workload))
              .map((c) => ({ ...c, block: k + 3, round: c.round + 6 })),
            shard: shard(k, [k + 3], 2),
          }),
        )
    : [];
  return { design, wave: waveParts };
}

describe("further looks as waves of shards", () => {
  test("the design's merge names the look due and its undecided cells; no wave unless asked", async () => {
    const dir = tempDir();
    const { design } = partsOf(dir);
    const lines: string[] = [];
    const first = await mergeParts(design, {
      outDir: join(dir, "m1"),
      log: (l) => lines.push(l),
      maxLooks: 2,
    });
    assert.equal(first.look, 2);
    assert.deepEqual(first.verdict.looks?.next, {
      look: 2,
      cells: [
        { workload: "read_only", threads: 4 },
        { workload: "read_write", threads: 4 },
      ],
    });
    // nothing decided yet: no comment, no failure, no confirmation while a look is due
    assert.equal(first.verdict.verdict, "inconclusive");
    assert.equal(first.exitCode, 0);
    assert.equal(first.confirm, 0);
    assert.ok(lines.some((l) => /^merge: look 2 follows as a wave of 3 shard\(s\)/.test(l)));
    // handler reads were decided at the first look; tps waits for the wave
    const tps = first.verdict.cells.filter((c) => c.metric === "tps");
    assert.ok(
      tps.every((c) => c.verdict === "inconclusive" && /look 2 follows as a wave/.test(c.reason ?? "")),
    );
    assert.deepEqual(await readWave(first.verdictPath, "--look-of"), first.verdict.looks?.next);
    // a wave is of this comparison only: its seed, its spec as given, its runners
    const shard = { index: 1, of: 3 };
    assert.deepEqual(
      await waveFor(first.verdictPath, "--look-of", { spec: loaded, shard }),
      first.verdict.looks?.next,
    );
    const reseeded = specOfValue(
      { ...raw, compare: { ...(raw.compare as object), seed: 8 } },
      "counters-tmp.yaml",
    );
    await assert.rejects(
      waveFor(first.verdictPath, "--look-of", { spec: reseeded, shard }),
      /--look-of .*verdict\.json: its comparison's seed is 7, not 8: give --seed 7/,
    );
    const other = specOfValue({ ...raw, metrics: { tps: { tolerance: "31%" } } }, "counters-tmp.yaml");
    await assert.rejects(
      waveFor(first.verdictPath, "--look-of", { spec: other, shard }),
      /its spec is not counters-tmp\.yaml as given here: give the spec and the flags/,
    );
    await assert.rejects(
      waveFor(first.verdictPath, "--look-of", { spec: loaded, shard: { index: 1, of: 2 } }),
      /it merged 3 shard\(s\), and this is shard 1\/2: give --shard K\/3/,
    );
    // a merge not told of waves (the default --max-looks 1) names none and decides as before
    const plain = await mergeParts(design, { outDir: join(dir, "m0"), log: () => {} });
    assert.equal(plain.look, undefined);
    assert.equal(plain.verdict.looks?.next, undefined);
    assert.match(
      plain.verdict.looks?.stopped ?? "",
      /takes its further looks as waves of shards, here up to look 1/,
    );
    assert.equal(plain.exitCode, 0, "inconclusive, compare.inconclusive pass");
  });

  test("the merge of the design's parts and the wave's judges each look over its own rounds", async () => {
    const dir = tempDir();
    const { design, wave } = partsOf(dir, ["read_only", "read_write"]);
    const out = await mergeParts([...design, ...wave], {
      outDir: join(dir, "m2"),
      log: () => {},
      maxLooks: 2,
    });
    // the wave's parts say how far the looks went: a merge not told so still judges them
    const said: string[] = [];
    const untold = await mergeParts([...design, ...wave], {
      outDir: join(dir, "m2b"),
      log: (l) => said.push(l),
    });
    assert.deepEqual(untold.verdict.cells, out.verdict.cells);
    assert.ok(said.includes("merge: look 2's wave is among the parts: judged up to look 2"), said.join("\n"));
    assert.equal(out.look, undefined);
    assert.deepEqual(
      { taken: out.verdict.looks?.taken, next: out.verdict.looks?.next },
      { taken: 2, next: undefined },
    );
    // look 2: all six blocks at the further look's share of α; look 1 stays final where it decided
    const shares = lookShares(1, 2);
    const withWave: Result = {
      ...recorded,
      cells: [
        ...recorded.cells,
        ...recorded.cells.map((c) => ({ ...c, block: (c.block ?? 1) + 3, round: c.round + 6 })),
      ],
    };
    const spec = loaded.variants?.base.spec as never;
    const atTwo = judgeFamily(withWave, spec, "base", ["head"], 0.95, 2, shares[1]);
    const atOne = judgeFamily(recorded, spec, "base", ["head"], 0.95, 2, shares[0]);
    for (const c of out.verdict.cells) {
      const want = (c.metric === "tps" ? atTwo : atOne).cells.find(
        (x) => x.workload === c.workload && x.metric === c.metric,
      );
      assert.equal(c.verdict, want?.verdict, `${c.workload} ${c.metric}`);
      assert.equal(c.change, want?.change);
      assert.equal(c.looks, c.metric === "tps" ? 2 : 1);
    }
    assert.ok(out.verdict.cells.some((c) => c.metric === "tps" && c.verdict === "regression"));
    assert.equal(out.verdict.verdict, "regression");
    assert.equal(out.exitCode, 1);
    assert.deepEqual(
      out.verdict.shards?.merged.map((m) => [m.look ?? 1, m.index, m.blocks]),
      [
        [1, 1, [1]],
        [1, 2, [2]],
        [1, 3, [3]],
        [2, 1, [4]],
        [2, 2, [5]],
        [2, 3, [6]],
      ],
    );
  });

  test("a wave short of a shard is named and never passes; a shard twice in one look is refused", async () => {
    const dir = tempDir();
    const { design, wave } = partsOf(dir, ["read_only", "read_write"], 2);
    const out = await mergeParts([...design, ...wave], {
      outDir: join(dir, "m3"),
      log: () => {},
      maxLooks: 2,
    });
    assert.deepEqual(out.verdict.shards?.missing_in_looks, ["2 of look 2"]);
    assert.match(out.verdict.notes[0] ?? "", /missing: shard 2 of look 2 — its blocks are not judged/);
    assert.notEqual(out.exitCode, 0);
    await assert.rejects(
      mergeParts([...design, wave[0] as string, wave[0] as string], {
        outDir: join(dir, "m4"),
        log: () => {},
      }),
      /shard 1 of 3 in look 2 twice/,
    );
  });

  test("compare --look-of: the plan's schedule is that look's blocks, its cells only, this shard's share", async () => {
    const cells = [{ workload: "read_write", threads: 4 }];
    const plan = await planRun(loaded, { cores: 2, shard: { index: 2, of: 3 }, look: { look: 2, cells } });
    assert.deepEqual(plan.refusals, []);
    assert.deepEqual(
      plan.schedule?.blocks.map((b) => b.block),
      [5],
    );
    assert.deepEqual(plan.schedule?.wave, { look: 2, cells: [1] });
    assert.deepEqual(plan.schedule?.blocks[0]?.restarts, [], "a shard's first block starts on fresh servers");
    assert.deepEqual(
      plan.schedule?.blocks[0]?.rounds.map((r) => r.round),
      [9, 10],
    );
    assert.match(
      plan.text,
      /look 2 of at most 2 \(compare\.looks\), as a wave of shards: read_write threads=4 again in block\(s\) 4, 5, 6/,
    );
    const alone = await planRun(loaded, { cores: 2, look: { look: 2, cells } });
    assert.match(alone.refusals.join("\n"), /--look-of: .*give --shard K\/N/);
    const beyond = await planRun(loaded, { cores: 2, shard: { index: 1, of: 3 }, look: { look: 3, cells } });
    assert.match(
      beyond.refusals.join("\n"),
      /--look-of: look 3 is not one counters-tmp\.yaml may take \(compare\.looks 2\)/,
    );
    const stranger = await planRun(loaded, {
      cores: 2,
      shard: { index: 1, of: 3 },
      look: { look: 2, cells: [{ workload: "point_select", threads: 4 }] },
    });
    assert.match(stranger.refusals.join("\n"), /point_select threads=4 are not cells of counters-tmp\.yaml/);
  });
});
