import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import type { CellPlan } from "../../action/src/bench/cells.ts";
import { DuetRunner } from "../../action/src/bench/duet.ts";
import {
  type CellRunner,
  interleavedRunner,
  runCellStallAware,
  STALLED_RUN_RERUNS,
  stalledNotes,
} from "../../action/src/bench/rounds.ts";
import { driverOf } from "../../action/src/drivers/registry.ts";
import { StalledRun, type Workload } from "../../action/src/drivers/types.ts";
import type { Cell, StalledAttempt } from "../../action/src/result/model.ts";
import { fixture } from "../helpers/paths.ts";

const STALLED = readFileSync(fixture("sysbench", "stalled-server.txt"), "utf8");
const workload = (options: Record<string, unknown> = {}) =>
  ({ name: "ps", driver: "sysbench", script: "oltp_point_select", options }) as unknown as Workload;

describe("a measured run that stalled is told apart from other faults", () => {
  const sysbench = driverOf("sysbench");

  test("seconds of zero throughput and nothing else: StalledRun, with the seconds", () => {
    assert.throws(
      () => sysbench.measure(workload(), STALLED, { seconds: 3, grace_s: 30 }),
      (e: unknown) =>
        e instanceof StalledRun &&
        e.seconds.join(",") === "3,4,5,6,7,8,9" &&
        /zero throughput .*: the server stalled/.test(e.message),
    );
  });

  test("seconds the tool never reported (sysbench itself got no CPU): StalledRun too, with no zero second", () => {
    // real outputs: sysbench 1.0.20 against a private MariaDB, the sysbench process itself
    // SIGSTOPped — --time=4, from 1.3 s to 4.8 s: samples at 1 s and 5 s only
    const stopped = readFileSync(fixture("sysbench", "stopped-tool.txt"), "utf8");
    assert.throws(
      () => sysbench.measure(workload(), stopped, { seconds: 4, grace_s: 15 }),
      (e: unknown) =>
        e instanceof StalledRun &&
        e.seconds.length === 0 &&
        /sysbench printed 2 one-second samples for a 4s cell \(expected 4\)/.test(e.message),
    );
    // --time=10, from 3.3 s to 4.9 s: ten lines, but none for second 4 and two for second 5
    const paused = readFileSync(fixture("sysbench", "paused-tool.txt"), "utf8");
    assert.throws(
      () => sysbench.measure(workload(), paused, { seconds: 10, grace_s: 15 }),
      (e: unknown) =>
        e instanceof StalledRun &&
        /sysbench printed no sample for second\(s\) 4s of a 10s cell: it got no CPU itself/.test(e.message),
    );
    // past its grace it is a plain failure, as a server's stall is
    assert.throws(
      () => sysbench.measure(workload(), stopped, { seconds: 4, grace_s: 0.5 }),
      (e: unknown) => e instanceof Error && !(e instanceof StalledRun),
    );
  });

  test("a stall that also ran past the grace: a plain failure (not run again)", () => {
    assert.throws(
      () => sysbench.measure(workload(), STALLED, { seconds: 3, grace_s: 2 }),
      (e: unknown) => e instanceof Error && !(e instanceof StalledRun) && /ran 9\.5s/.test(e.message),
    );
  });

  test("with --rate an empty second is the schedule: measured, no stall", () => {
    const m = sysbench.measure(workload({ rate: 10 }), STALLED, { seconds: 3, grace_s: 30 });
    assert.ok((m.metrics.tps as number) > 0);
  });
});

/** A cell of variant `v`: ok, stalled, or failed otherwise. */
function cellOf(v: string, how: "ok" | "stalled" | "failed", n: number): Cell {
  return {
    workload: "ps",
    driver: "sysbench",
    script: "oltp_point_select",
    threads: 2,
    variant: v,
    round: 1,
    status: how === "ok" ? "ok" : "failed",
    ...(how === "ok"
      ? {}
      : { error: `cell ps threads=2 failed: attempt ${n} (raw output: /r/raw/ps-${v}.log)` }),
    ...(how === "stalled" ? { failure: "stalled" as const } : {}),
    started_at: "t",
    finished_at: "t",
    raw_log: `raw/ps-${v}.log`,
    warmup_s: 0,
    duration_s: 1,
    metrics: how === "ok" ? { tps: { value: 100 + n, unit: "tx/s", better: "higher" } } : {},
    intervals: [],
  };
}

/** A bench whose attempts go as `script` says, counting what was set aside. */
function scripted(v: string, script: ("ok" | "stalled" | "failed")[]) {
  let n = 0;
  const asides: Cell[] = [];
  const kinds: string[] = [];
  const bench: CellRunner = {
    target: { pids: [] },
    runCell: async () => {
      const how = script[Math.min(n, script.length - 1)] as "ok" | "stalled" | "failed";
      n++;
      return cellOf(v, how, n);
    },
    setAside: async (c: Cell, as = "stalled"): Promise<StalledAttempt> => {
      asides.push(c);
      kinds.push(as);
      return {
        error: (c.error ?? "").replace(".log", `-${as}-${asides.length}.log`),
        raw_log: `raw/ps-${v}-${as}-${asides.length}.log`,
      };
    },
  };
  return { bench, asides, kinds, runs: () => n };
}

const plan = { workload: workload(), threads: 2, variant: "base", round: 1 } as unknown as CellPlan;
const never = new AbortController().signal;

describe("a stalled cell runs again, up to twice, with the stalled attempt kept", () => {
  test("stalled, then measured: the re-run's numbers stand, the attempt is recorded and logged", async () => {
    const s = scripted("base", ["stalled", "ok"]);
    const lines: string[] = [];
    const cell = await runCellStallAware(s.bench, plan, never, (l) => lines.push(l));
    assert.equal(cell.status, "ok");
    assert.equal(cell.metrics.tps?.value, 102, "the second attempt's number");
    assert.deepEqual(cell.stalled_attempts, [
      {
        error: "cell ps threads=2 failed: attempt 1 (raw output: /r/raw/ps-base-stalled-1.log)",
        raw_log: "raw/ps-base-stalled-1.log",
      },
    ]);
    assert.equal(s.runs(), 2);
    assert.match(lines.join("\n"), /attempt 1 .*ps-base-stalled-1\.log\); running the cell again \(1 of 2\)/);
  });

  test("stalled every time: the failure stands after STALLED_RUN_RERUNS re-runs, every attempt kept", async () => {
    const s = scripted("base", ["stalled"]);
    const cell = await runCellStallAware(s.bench, plan, never, () => {});
    assert.equal(cell.status, "failed");
    assert.equal(cell.failure, "stalled");
    assert.equal(s.runs(), 1 + STALLED_RUN_RERUNS);
    assert.equal(cell.stalled_attempts?.length, STALLED_RUN_RERUNS);
  });

  test("any other failure is not run again", async () => {
    const s = scripted("base", ["failed", "ok"]);
    const cell = await runCellStallAware(s.bench, plan, never, () => {});
    assert.equal(cell.status, "failed");
    assert.equal(s.runs(), 1);
    assert.equal(cell.stalled_attempts, undefined);
  });

  test("interleaved turns record each variant's cell once, the stalled one after its re-run", async () => {
    const benches = { base: scripted("base", ["ok"]), head: scripted("head", ["stalled", "ok"]) };
    const recorded: Cell[][] = [];
    await interleavedRunner.run({
      round: 1,
      turn: ["base", "head"],
      cellOf: (v) => ({ ...plan, variant: v }),
      benchOf: (v) => benches[v as "base" | "head"].bench,
      record: async (cells) => {
        recorded.push(cells);
      },
      signal: never,
      log: () => {},
    });
    assert.deepEqual(
      recorded.map((cs) => cs.map((c) => [c.variant, c.status, c.stalled_attempts?.length ?? 0])),
      [[["base", "ok", 0]], [["head", "ok", 1]]],
    );
  });

  /** One duet round of two scripted pairs: what was recorded, and the runner. */
  async function duetRound(base: ("ok" | "stalled")[], head: ("ok" | "stalled")[]) {
    const benches = { base: scripted("base", base), head: scripted("head", head) };
    const runner = new DuetRunner(
      ["base", "head"],
      [benches.base.bench, benches.head.bench],
      ["0", "1"],
      1,
      () => {},
    );
    const recorded: Cell[] = [];
    await runner.run({
      round: 1,
      turn: ["base", "head"],
      cellOf: (v) => ({ ...plan, variant: v }),
      benchOf: (v) => benches[v as "base" | "head"].bench,
      record: async (cells) => {
        recorded.push(...cells);
      },
      signal: never,
      log: () => {},
    });
    return { benches, recorded, runner };
  }

  test("duet: a pair that stalled sends the whole round again (both pairs); its attempt is recorded, the other pair's raw output kept", async () => {
    const { benches, recorded, runner } = await duetRound(["ok"], ["stalled", "ok"]);
    assert.equal(benches.base.runs(), 2, "the other pair measured again with it");
    assert.equal(benches.head.runs(), 2);
    assert.deepEqual(
      recorded.map((c) => [c.variant, c.status, c.stalled_attempts?.length ?? 0]),
      [
        ["base", "ok", 0],
        ["head", "ok", 1],
      ],
    );
    // the other pair measured fine: its first run's raw output is kept too (never overwritten), not
    // recorded as a stalled attempt
    assert.deepEqual(benches.base.kinds, ["rerun"]);
    assert.deepEqual(benches.head.kinds, ["stalled"]);
    assert.match(runner.notes(recorded).join("\n"), /1 measured run\(s\) stalled .*head 1\) and ran again/);
  });

  test("duet: a round that stalls again is recorded failed (the comparison then fails on it)", async () => {
    const { benches, recorded } = await duetRound(["ok"], ["stalled"]);
    assert.equal(benches.head.runs(), 1 + STALLED_RUN_RERUNS);
    assert.deepEqual(
      recorded.map((c) => [c.variant, c.status]),
      [
        ["base", "ok"],
        ["head", "failed"],
      ],
    );
  });
});

describe("the verdict says which runs stalled", () => {
  const stalledCell = (v: string) => ({
    ...cellOf(v, "ok", 1),
    stalled_attempts: [{ error: "e", raw_log: `raw/ps-${v}-stalled-1.log` }],
  });

  test("none: nothing said", () => {
    assert.deepEqual(stalledNotes([cellOf("base", "ok", 1), cellOf("head", "ok", 1)]), []);
  });

  test("both variants stalled: counted by variant, logs named, no warning", () => {
    const notes = stalledNotes([stalledCell("base"), stalledCell("head")]);
    assert.equal(notes.length, 1);
    assert.match(
      notes[0] ?? "",
      /^2 measured run\(s\) stalled .*base 1, head 1\) .*raw\/ps-base-stalled-1\.log/,
    );
  });

  test("every stall one variant's (two or more): warned that it may be the change", () => {
    const notes = stalledNotes([stalledCell("head"), stalledCell("head"), cellOf("base", "ok", 1)]);
    assert.match(notes.join("\n"), /⚠️ every stalled run was head's: that may be the change itself/);
  });
});
