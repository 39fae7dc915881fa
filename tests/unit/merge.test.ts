import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, test } from "node:test";
import { gunzipSync } from "node:zlib";
import { parse } from "yaml";
import { readInputs } from "../../action/src/action/inputs.ts";
import { resultFiles } from "../../action/src/action/steps.ts";
import { parseShard, shardBlocks, shardRefusals, shardSchedule } from "../../action/src/bench/cut.ts";
import { planRun } from "../../action/src/bench/plan.ts";
import { compareSchedule } from "../../action/src/bench/schedule.ts";
import { confirmationSpec, readFirstVerdict } from "../../action/src/commands/compare/confirm.ts";
import { mergeParts } from "../../action/src/commands/merge/index.ts";
import { judgeFamily } from "../../action/src/compare/judge-results.ts";
import { whatMoved } from "../../action/src/compare/what-moved.ts";
import { costLine } from "../../action/src/report/comment.ts";
import type { Result } from "../../action/src/result/model.ts";
import { specOfValue } from "../../action/src/specfile/load.ts";
import { fixture } from "../helpers/paths.ts";
import { tempDir } from "../helpers/real.ts";

/** The spec the recorded run ran (MariaDB, head with a 1K temporary-table limit). */
const SPEC = `name: counters-tmp
target:
  kind: mariadb
  config: { innodb_buffer_pool_size: 256M }
data: { tables: 2, table_size: 10000 }
workloads:
  - { name: read_only, sysbench: oltp_read_only, threads: [4], duration: 6s, warmup: 2s, options: { rand-type: uniform } }
  - { name: read_write, sysbench: oltp_read_write, threads: [4], duration: 6s, warmup: 2s, options: { rand-type: uniform } }
metrics:
  tps: { tolerance: 5% }
  handler_reads_per_op: { tolerance: 2% }
variants:
  base: {}
  head: { target: { config: { innodb_buffer_pool_size: 256M, tmp_table_size: 1K, max_heap_table_size: 16K } } }
compare: { order: duet, swap: 1s, rounds: 6, blocks: 3, warmup_rounds: 0, seed: 7 }
`;
const raw = parse(SPEC) as Record<string, unknown>;
const loaded = specOfValue(raw, "counters-tmp.yaml");
const recorded = JSON.parse(
  gunzipSync(readFileSync(fixture("results/mariadb-tmp-table-3-blocks-result.json.gz"))).toString(),
) as Result;

/** The recorded run cut into N shards by its blocks, each written where merge reads it. */
function parts(n: number, edit: (r: Result, k: number) => void = () => {}): string[] {
  const dir = tempDir();
  return Array.from({ length: n }, (_, i) => {
    const shard = { index: i + 1, of: n };
    const blocks = shardBlocks(3, shard);
    const part: Result = {
      ...recorded,
      run_id: `${recorded.run_id}-shard-${i + 1}`,
      cells: recorded.cells.filter((c) => blocks.includes(c.block ?? 1)),
      shard: { ...shard, seed: 7, order: "duet", blocks, spec_sha256: loaded.hash, spec: raw },
    };
    edit(part, i + 1);
    const file = join(dir, `part-${i + 1}.json`);
    writeFileSync(file, JSON.stringify(part));
    return file;
  });
}

describe("shards of one comparison", () => {
  test("shard K of N runs every N-th block of the one schedule, numbered as in the whole", () => {
    const whole = compareSchedule({
      names: ["base", "head"],
      cells: 2,
      rounds: 12,
      maxRounds: 12,
      blocks: 6,
      warmupRounds: 1,
      seed: 7,
      order: "duet",
      grouped: false,
    });
    const shards = [1, 2, 3].map((index) => shardSchedule(whole, { index, of: 3 }));
    assert.deepEqual(
      shards.map((s) => s.blocks.map((b) => b.block)),
      [
        [1, 4],
        [2, 5],
        [3, 6],
      ],
    );
    // together exactly the whole's blocks, rounds and turns; a shard's first block starts fresh
    const all = shards.flatMap((s) => s.blocks).sort((a, b) => a.block - b.block);
    assert.deepEqual(
      all.map((b) => b.rounds),
      whole.blocks.map((b) => b.rounds),
    );
    for (const s of shards) assert.deepEqual(s.blocks[0]?.restarts, []);
    assert.deepEqual(shards[0]?.blocks[1]?.restarts, whole.blocks[3]?.restarts);
  });

  test("--shard is K/N; a shard without a fixed seed, more shards than blocks, or early looks are refused by name", () => {
    assert.deepEqual(parseShard("2/4"), { index: 2, of: 4 });
    for (const bad of ["0/4", "5/4", "2", "a/b", "2/0"])
      assert.throws(() => parseShard(bad), /--shard must be K\/N, .*got/);
    const r = shardRefusals({ rounds: 4, max_rounds: 8, blocks: 2 }, { index: 1, of: 3 }, false);
    assert.match(r.join("\n"), /needs --seed or compare\.seed/);
    assert.match(r.join("\n"), /compare\.blocks is 2, fewer than 3 shards/);
    assert.match(r.join("\n"), /compare\.max_rounds \(8\)/);
    assert.deepEqual(shardRefusals({ rounds: 6, blocks: 3 }, { index: 1, of: 3 }, true), []);
  });
});

describe("tiperf plan --shards N", () => {
  test("each runner's blocks and minutes, and that the merge judges the same blocks", async () => {
    const plan = await planRun(loaded, { cores: 2, shards: 3 });
    assert.deepEqual(plan.refusals, []);
    const line = plan.text.split("\n").find((l) => l.startsWith("on 3 runner(s)")) ?? "";
    assert.match(
      line,
      /compare --seed 7 --shard K\/3, then tiperf merge\): shard 1: block\(s\) 1, ~\d+ min; shard 2: block\(s\) 2, ~\d+ min; shard 3: block\(s\) 3, ~\d+ min; the check waits ~\d+ min instead of ~\d+/,
    );
    const four = await planRun(loaded, { cores: 2, shards: 4 });
    assert.match(four.refusals.join("\n"), /compare\.blocks is 3, fewer than 4 shards/);
  });
});

describe("tiperf merge", () => {
  const single = judgeFamily(recorded, loaded.variants?.base.spec as never, "base", ["head"], 0.95, 1);

  test("parts cut from one run's rounds judge exactly as that run did, number for number", async () => {
    for (const n of [1, 2, 3]) {
      const out = await mergeParts(parts(n), { outDir: tempDir(), log: () => {} });
      assert.deepEqual(out.verdict.cells, single.cells, `${n} shard(s)`);
      assert.equal(out.verdict.comparisons, single.comparisons);
      assert.deepEqual(
        out.verdict.counters,
        whatMoved(
          recorded,
          "base",
          ["head"],
          [
            { workload: "read_only", threads: 4 },
            { workload: "read_write", threads: 4 },
          ],
          0.95,
          single.cells,
        ),
      );
      assert.equal(out.verdict.verdict, "regression");
      assert.equal(out.exitCode, 1);
      assert.deepEqual(out.verdict.shards?.missing, []);
      assert.match(out.verdict.notes[0] ?? "", new RegExp(`^${n} of ${n} shards merged`));
    }
  });

  test("parts of two seeds, two spec versions, one shard or one block twice are refused, each named", async () => {
    const [a, b] = parts(3);
    const seeds = parts(3, (r, k) => {
      if (k === 2 && r.shard && "seed" in r.shard) r.shard.seed = 8;
    });
    await assert.rejects(
      mergeParts([seeds[0] as string, seeds[1] as string], { outDir: tempDir(), log: () => {} }),
      /part-2\.json: seed 8, but .*part-1\.json has seed 7: parts of two comparisons/,
    );
    const specs = parts(3, (r, k) => {
      if (k === 2 && r.shard) r.shard.spec_sha256 = "0".repeat(64);
    });
    await assert.rejects(
      mergeParts([specs[0] as string, specs[1] as string], { outDir: tempDir(), log: () => {} }),
      /part-2\.json: its spec \(sha256 000000000000\) is not .*: parts of two spec versions/,
    );
    await assert.rejects(
      mergeParts([a as string, a as string], { outDir: tempDir(), log: () => {} }),
      /shard 1 of 3 twice/,
    );
    const overlap = parts(3, (r, k) => {
      if (k === 2) r.cells = recorded.cells.filter((c) => (c.block ?? 1) <= 2);
    });
    await assert.rejects(
      mergeParts([overlap[0] as string, overlap[1] as string], { outDir: tempDir(), log: () => {} }),
      /block 1 in both .*part-1\.json and .*part-2\.json/,
    );
    assert.ok(b);
  });

  test("runners as a factor: each runner's change beside the spread within one; a runner apart stands out", async () => {
    const two = parts(3, (r, k) => {
      r.host = { ...r.host, hostname: k === 2 ? "runner-b" : "runner-a" };
    });
    const same = await mergeParts(two, { outDir: tempDir(), log: () => {} });
    const line = same.verdict.notes.find((n) => n.startsWith("runners as a factor")) ?? "";
    assert.match(
      line,
      /^runners as a factor \(tps, head against base, .*\): runner-a [+−]\d+\.\d% \(4 block\(s\)\), runner-b [+−]\d+\.\d% \(2 block\(s\)\); the blocks within a runner spread ±\d+\.\d%/,
    );
    // runner b's machine makes head 40% faster than base: it stands out
    const apart = parts(3, (r, k) => {
      r.host = { ...r.host, hostname: k === 2 ? "runner-b" : "runner-a" };
      if (k === 2)
        r.cells = r.cells.map((c) =>
          c.variant === "head" && c.metrics.tps
            ? { ...c, metrics: { ...c.metrics, tps: { ...c.metrics.tps, value: c.metrics.tps.value * 1.4 } } }
            : c,
        );
    });
    const out = await mergeParts(apart, { outDir: tempDir(), log: () => {} });
    assert.ok(
      out.verdict.notes.some((n) =>
        /^runner runner-b stands out: its blocks differ from the other runners' by \+\d+\.\d%/.test(n),
      ),
      out.verdict.notes.join("\n"),
    );
    assert.ok(!same.verdict.notes.some((n) => /stands out/.test(n)));
  });

  test("a shard that never arrived, or was cancelled, is named and the check does not pass", async () => {
    // an A/A of the same rounds (head's rounds relabelled as base's twin) would pass whole
    const aa = (r: Result) => {
      r.cells = r.cells.filter((c) => c.variant === "base").flatMap((c) => [c, { ...c, variant: "head" }]);
    };
    const whole = await mergeParts(parts(3, aa), { outDir: tempDir(), log: () => {} });
    assert.equal(whole.verdict.verdict, "pass");
    const [p1, p2] = parts(3, aa);
    const short = await mergeParts([p1 as string, p2 as string], { outDir: tempDir(), log: () => {} });
    assert.equal(short.verdict.verdict, "inconclusive");
    assert.deepEqual(short.verdict.shards?.missing, [3]);
    assert.match(
      short.verdict.notes[0] ?? "",
      /^2 of 3 shards merged .*missing: shard 3 — its blocks are not judged, and the check cannot pass without them/,
    );
    const cancelled = parts(3, (r, k) => {
      aa(r);
      if (k === 3) r.status = "interrupted";
    });
    const c = await mergeParts(cancelled, { outDir: tempDir(), log: () => {} });
    assert.equal(c.verdict.verdict, "inconclusive");
    assert.deepEqual(c.verdict.shards?.missing, [3]);
    assert.equal(c.exitCode, 3, "the check fails as an unfinished run does");
    assert.equal(short.exitCode, 3);
  });

  test("one cluster per shard: the cost is the shards' sum, each shard's share shown", async () => {
    const quiet = { outDir: tempDir(), log: () => {} };
    const any = (await mergeParts(parts(2), quiet)).verdict;
    const dir = tempDir();
    const files = parts(2).map((file, i) => {
      const run = join(dir, `shard-${i + 1}`);
      mkdirSync(run);
      writeFileSync(join(run, "result.json"), readFileSync(file));
      const hours = [0.5, 0.75][i] as number;
      const cost = {
        currency: "USD",
        basis: "measured",
        profile: "aws-small",
        per_hour: 2,
        hours,
        dollars: 2 * hours,
        prices_as_of: "2026-11-01",
      };
      writeFileSync(join(run, "verdict.json"), JSON.stringify({ ...any, cost }));
      return join(run, "result.json");
    });
    const out = await mergeParts(files, { ...quiet, outDir: tempDir() });
    assert.deepEqual(out.verdict.cost, {
      currency: "USD",
      basis: "measured",
      profile: "aws-small",
      per_hour: 4,
      hours: 0.75,
      dollars: 2.5,
      prices_as_of: "2026-11-01",
      shards: [
        { index: 1, hours: 0.5, dollars: 1 },
        { index: 2, hours: 0.75, dollars: 1.5 },
      ],
    });
    assert.equal(
      costLine(out.verdict.cost as NonNullable<typeof out.verdict.cost>),
      "💲 Cluster cost: **$2.50** over 2 clusters, one per shard (shard 1: $1.00, 0.50 h; shard 2: $1.50, 0.75 h; profile aws-small, on-demand prices as of 2026-11-01)",
    );
    // a part whose verdict.json is unreadable (a shard that failed early) adds nothing
    writeFileSync(join(dirname(files[1] as string), "verdict.json"), "{");
    const one = await mergeParts(files, { ...quiet, outDir: tempDir() });
    assert.deepEqual(one.verdict.cost?.shards, [{ index: 1, hours: 0.5, dollars: 1 }]);
    // parts without a cluster: no cost
    assert.equal((await mergeParts(parts(2), { ...quiet, outDir: tempDir() })).verdict.cost, undefined);
  });

  test("a confirmation as shards: merge --confirms answers the first verdict, never passes short", async () => {
    const quiet = { outDir: tempDir(), log: () => {} };
    const first = (await mergeParts(parts(3), quiet)).verdict;
    assert.equal(first.verdict, "regression");
    const file = join(tempDir(), "first.json");
    writeFileSync(file, JSON.stringify(first));
    const confirms = await readFirstVerdict(file, "--confirms");
    // the regression recurs in the confirmation's parts: confirmed, the check fails
    const again = await mergeParts(parts(3), { ...quiet, outDir: tempDir(), confirms });
    assert.equal(again.verdict.verdict, "regression");
    assert.equal(again.verdict.confirmation?.confirmed, true);
    assert.equal(again.verdict.confirmation?.first, "regression");
    assert.deepEqual(again.verdict.cells, first.cells, "the first run's judgement is the verdict's");
    assert.equal(again.exitCode, 1);
    assert.ok(
      again.verdict.notes.some((n) =>
        /^confirmed on fresh instances \(compare\.confirm as 3 of 3 shard\(s\)/.test(n),
      ),
    );
    // an A/A confirmation: the alarm did not recur, not confirmed (inconclusive), the check passes
    const aa = (r: Result) => {
      r.cells = r.cells.filter((c) => c.variant === "base").flatMap((c) => [c, { ...c, variant: "head" }]);
    };
    const gone = await mergeParts(parts(3, aa), { ...quiet, outDir: tempDir(), confirms });
    assert.equal(gone.verdict.verdict, "inconclusive");
    assert.equal(gone.verdict.confirmation?.confirmed, false);
    assert.equal(gone.exitCode, 0);
    // one confirmation shard missing: not confirmed, and the check fails as an unfinished run
    const [c1, c2] = parts(3, aa);
    const short = await mergeParts([c1 as string, c2 as string], { ...quiet, outDir: tempDir(), confirms });
    assert.equal(short.verdict.confirmation?.confirmed, false);
    assert.equal(short.exitCode, 3);
    assert.ok(short.verdict.notes.some((n) => /^the confirmation: 2 of 3 shards merged/.test(n)));
    // what compare --confirms runs: the regressed cells only, with no confirmation of its own
    const regressed = first.cells.filter((c) => c.verdict === "regression");
    const narrowed = await confirmationSpec(loaded, first);
    assert.deepEqual(
      narrowed.spec.workloads.map((w) => [w.name, w.threads]),
      [...new Set(regressed.map((c) => c.workload))].map((w) => [w, [4]]),
    );
    assert.equal(narrowed.variants?.compare.confirm, 0);
    const other = { ...first, cells: first.cells.map((c) => ({ ...c, threads: 64 })) };
    assert.throws(
      () => confirmationSpec(loaded, other),
      /--confirms: the verdict's regressed cell\(s\) .*threads=64 are not cells of counters-tmp\.yaml/,
    );
    // only an unconfirmed regression is confirmed
    writeFileSync(file, JSON.stringify(gone.verdict));
    await assert.rejects(
      readFirstVerdict(file, "--confirms"),
      /--confirms .*: its verdict is inconclusive, already confirmed or not/,
    );
    writeFileSync(file, JSON.stringify({ ...first, verdict: "pass" }));
    await assert.rejects(
      readFirstVerdict(file, "--confirms"),
      /its verdict is pass: only an unconfirmed regression/,
    );
  });
});

describe("the Action's shard jobs and merge job", () => {
  const inputs = (given: Record<string, string>) => readInputs((k) => given[k] ?? "", {}, {});

  test("shard is K/N for mode compare; merge takes the downloaded parts' directory, no spec", () => {
    const spec = join(tempDir(), "s.yaml");
    writeFileSync(spec, "name: s\n");
    assert.deepEqual(inputs({ mode: "compare", spec, shard: "2/3", seed: "5" }).shard, { index: 2, of: 3 });
    assert.throws(() => inputs({ mode: "compare", spec, shard: "4/3" }), /'shard' input must be K\/N/);
    assert.deepEqual(inputs({ mode: "run", spec, shard: "1/3" }).shard, { index: 1, of: 3 });
    assert.throws(
      () => inputs({ mode: "diff", spec, shard: "1/3", baseline: spec }),
      /'shard' input is for modes compare and run \(got mode diff\)/,
    );
    assert.throws(() => inputs({ mode: "merge" }), /'parts' input is required in mode merge/);
    const dir = tempDir();
    assert.equal(inputs({ mode: "merge", parts: dir }).parts, dir);
    // confirmation as shards: the first verdict a file; merge defers only when told shards follow
    const first = join(dir, "first.json");
    writeFileSync(first, "{}");
    assert.equal(inputs({ mode: "compare", spec, confirms: first }).confirms, first);
    assert.equal(inputs({ mode: "merge", parts: dir }).confirmWithShards, false);
    assert.equal(
      inputs({ mode: "merge", parts: dir, "confirm-with-shards": "true" }).confirmWithShards,
      true,
    );
    assert.throws(
      () => inputs({ mode: "run", spec, confirms: first }),
      /'confirms' input is for modes compare and merge \(got mode run\)/,
    );
    assert.throws(
      () => inputs({ mode: "compare", spec, "confirm-with-shards": "true" }),
      /'confirm-with-shards' input is for mode merge/,
    );
    assert.throws(
      () => inputs({ mode: "merge", parts: dir, confirms: join(dir, "none.json") }),
      /'confirms' input: no file at/,
    );
  });

  test("merge finds every shard's result.json under the artifacts, at any depth, and no confirmation's", () => {
    const dir = tempDir();
    for (const p of ["tiperf-part-1/run-a", "tiperf-part-2/x/run-b", "tiperf-part-2/x/run-b/confirm/run-c"]) {
      mkdirSync(join(dir, p), { recursive: true });
      writeFileSync(join(dir, p, "result.json"), "{}");
    }
    writeFileSync(join(dir, "tiperf-part-1/run-a/verdict.json"), "{}");
    assert.deepEqual(resultFiles(dir), [
      join(dir, "tiperf-part-1/run-a/result.json"),
      join(dir, "tiperf-part-2/x/run-b/result.json"),
    ]);
  });
});
