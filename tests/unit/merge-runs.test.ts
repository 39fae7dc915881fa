import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { mergeEither } from "../../action/src/commands/merge/either.ts";
import { mergeRunParts } from "../../action/src/commands/merge/runs.ts";
import { shardCells } from "../../action/src/commands/run/index.ts";
import { judgeStored } from "../../action/src/compare/judge-results.ts";
import type { Result } from "../../action/src/result/model.ts";
import { readResult } from "../../action/src/result/store.ts";
import { specOfValue } from "../../action/src/specfile/load.ts";
import { fixture } from "../helpers/paths.ts";
import { tempDir } from "../helpers/real.ts";

/** The smoke spec the recorded run ran: 2 workloads × 2 thread counts. */
const raw = {
  name: "smoke",
  target: { kind: "mariadb", config: { innodb_buffer_pool_size: "256M" } },
  data: { tables: 4, table_size: 10000 },
  workloads: [
    { name: "point_select", sysbench: "oltp_point_select", threads: [2, 8], duration: "10s", warmup: "2s" },
    { name: "read_write", sysbench: "oltp_read_write", threads: [2, 8], duration: "10s", warmup: "2s" },
  ],
  metrics: { tps: { tolerance: "5%" } },
};
const loaded = specOfValue(raw, "smoke.yaml");
const quiet = () => ({ outDir: tempDir(), log: () => {} });

/** The recorded run cut into N shares of its matrix, each written where merge reads it. */
async function parts(n: number, edit: (r: Result, k: number) => void = () => {}): Promise<string[]> {
  const whole = await readResult(fixture("results/v1-smoke.json"));
  const dir = tempDir();
  return Array.from({ length: n }, (_, i) => {
    const shard = { index: i + 1, of: n };
    const cells = shardCells(whole.cells, shard);
    const part: Result = {
      ...whole,
      run_id: `${whole.run_id}-shard-${i + 1}`,
      cells,
      shard: {
        ...shard,
        cells: cells.map((c) => `${c.workload} threads=${c.threads}`),
        spec_sha256: loaded.hash,
        spec: raw,
      },
    };
    edit(part, i + 1);
    const file = join(dir, `part-${i + 1}.json`);
    writeFileSync(file, JSON.stringify(part));
    return file;
  });
}

describe("a run's matrix over several runners (run --shard K/N, merge)", () => {
  test("shard K of N runs every N-th cell from the K-th; the parts join into the one run, in order", async () => {
    assert.deepEqual(shardCells([0, 1, 2, 3, 4], { index: 2, of: 2 }), [1, 3]);
    assert.deepEqual(shardCells([0, 1, 2, 3, 4], { index: 1, of: 3 }), [0, 3]);
    const whole = await readResult(fixture("results/v1-smoke.json"));
    for (const n of [1, 2, 4]) {
      const out = await mergeRunParts(await parts(n), quiet());
      assert.deepEqual(out.result.cells, whole.cells, `${n} shard(s)`);
      assert.equal(out.result.status, "complete");
      assert.equal(out.exitCode, 0);
      assert.equal(out.result.shard, undefined);
    }
  });

  test("either kind of parts through one door: a run's shares are told apart, an option they do not take is the door's", async () => {
    const given = await parts(2);
    const misfits: string[] = [];
    const maxLooks = 2;
    const merged = await mergeEither(given, {
      ...quiet(),
      maxLooks,
      misfit: (option, kind) => misfits.push(`${option} ${kind}`),
    });
    assert.equal(merged.parts, "run");
    assert.deepEqual(misfits, ["maxLooks run"]);
    const direct = await mergeRunParts(given, quiet());
    if (merged.parts === "run") assert.deepEqual(merged.outcome.result.cells, direct.result.cells);
    // the Action's door gives no misfit: the option passes unused
    assert.equal((await mergeEither(given, { ...quiet(), maxLooks })).parts, "run");
  });

  test("with a baseline: judged as run --baseline judges the whole run, number for number", async () => {
    const file = fixture("results/v1-smoke.json");
    const whole = await readResult(file);
    const out = await mergeRunParts(await parts(2), { ...quiet(), baseline: file });
    const single = judgeStored(
      { result: whole, file },
      { result: whole, file: "whole.json" },
      { confidence: 0.95, force: false },
    );
    assert.deepEqual(out.verdict?.cells, single.cells);
    assert.equal(out.verdict?.verdict, single.verdict);
    assert.match(
      out.verdict?.notes[0] ?? "",
      /^2 of 2 shards merged \(shard 1: point_select threads=2, read_write threads=2 on /,
    );
  });

  test("a shard that did not arrive is named; the run is not complete and the check cannot pass", async () => {
    const file = fixture("results/v1-smoke.json");
    const [p1] = await parts(2);
    const out = await mergeRunParts([p1 as string], { ...quiet(), baseline: file });
    assert.deepEqual(out.missing, [2]);
    assert.equal(out.result.status, "failed");
    assert.notEqual(out.verdict?.verdict, "pass");
    assert.equal(out.exitCode, 3);
    assert.match(
      out.verdict?.notes[0] ?? "",
      /^1 of 2 shards merged .*missing: shard 2 — their cells are not in this run/,
    );
  });

  test("parts of two spec versions, one shard or one cell twice are refused, each named", async () => {
    const [a] = await parts(2);
    const edited = await parts(2, (r, k) => {
      if (k === 2 && r.shard) r.shard.spec_sha256 = "0".repeat(64);
    });
    await assert.rejects(
      mergeRunParts([edited[0] as string, edited[1] as string], quiet()),
      /part-2\.json: its spec \(sha256 000000000000\) is not .*: parts of two spec versions/,
    );
    await assert.rejects(
      mergeRunParts([a as string, a as string], quiet()),
      /shard 1 of 2 twice: .*\n- cell point_select threads=2 in both/,
    );
    const overlap = await parts(2, (r, k) => {
      if (k === 2 && r.shard && "cells" in r.shard) r.shard.cells.push("point_select threads=2");
    });
    await assert.rejects(
      mergeRunParts(overlap, quiet()),
      /cell point_select threads=2 in both .*part-1\.json and .*part-2\.json/,
    );
  });
});
