import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { duetCaveats, duetDesign, resolveOrder, whyNotDuet } from "../../action/src/bench/duet.ts";
import {
  cpuSets,
  duetRefusals,
  outsideShares,
  type PhaseSnapshot,
} from "../../action/src/bench/duet-cpus.ts";
import {
  nextAttempt,
  OUTSIDE_GAP_PCT,
  outsideNotes,
  type RoundReruns,
  STARVED_PCT,
  STARVED_RERUNS,
  soloStall,
  stallNotes,
} from "../../action/src/bench/duet-reruns.ts";
import { planRun } from "../../action/src/bench/plan.ts";
import { duetBlocks } from "../../action/src/compare/design.ts";
import type { Cell } from "../../action/src/result/model.ts";
import { parseSpec } from "../../action/src/specfile/load.ts";

const spec = (
  over: { target?: string; driver?: string; duration?: string; compare?: string; head?: string } = {},
) =>
  parseSpec(
    `name: d
target: {kind: mariadb${over.target ?? ""}}
${over.driver ?? ""}
data: {tables: 1, table_size: 100}
workloads:
  - {name: point_select, sysbench: oltp_point_select, threads: [4], duration: ${over.duration ?? "10s"}}
variants: {base: {}, head: {target: {${over.head ?? "config: {table_open_cache: 400}"}}}}
compare: {${over.compare ?? "order: duet"}}
`,
    "d.yaml",
  );
const local = { switching: "none" as const, remoteLoad: false, localServers: true };

describe("fair duet: where it can run", () => {
  test("a CPU set per pair, equal in size", () => {
    assert.deepEqual(cpuSets([0, 1], 2), ["0", "1"]);
    assert.deepEqual(cpuSets([0, 1, 2, 3, 4], 2), ["0,1", "2,3"]);
    assert.deepEqual(cpuSets([2, 3, 6, 7], 2), ["2,3", "6,7"]);
  });

  test("a spec that fits: nothing refused", () => {
    assert.deepEqual(duetRefusals(spec(), local, 2), []);
    assert.deepEqual(
      duetRefusals(spec({ compare: "order: interleaved", target: ', resources: {cpus: "0"}' }), local, 1),
      [],
    );
  });

  test("each reason it would be unfair is named, with what to do", () => {
    assert.match(
      duetRefusals(spec(), local, 1).join("\n"),
      /runs 2 pairs .* at once, each on CPUs of its own, and this machine gives tiperf 1 CPU\(s\): use compare\.order: interleaved/,
    );
    assert.match(
      duetRefusals(spec(), { switching: "restart", remoteLoad: false, localServers: true } as never, 2).join(
        "\n",
      ),
      /share one deployment and take turns on it \(restart switching\)/,
    );
    assert.match(
      duetRefusals(spec(), { switching: "none", remoteLoad: true }, 2).join("\n"),
      /the load runs on a load host/,
    );
    assert.match(
      duetRefusals(spec({ target: ', resources: {cpus: "0"}' }), local, 2).join("\n"),
      /variants\.base\.target\.resources\.cpus: compare\.order: duet pins each pair itself/,
    );
    assert.match(
      duetRefusals(spec({ driver: 'driver: {cpus: "1"}' }), local, 2).join("\n"),
      /driver\.cpus: compare\.order: duet pins each pair itself/,
    );
    assert.match(
      duetRefusals(spec({ duration: "7s" }), local, 2).join("\n"),
      /workloads point_select: duration 7s is not a whole number of swap cycles \(2 pairs × compare\.swap 5s = 10s\)/,
    );
    assert.deepEqual(duetRefusals(spec({ duration: "4s", compare: "order: duet, swap: 2s" }), local, 2), []);
  });

  test("where the machine or the target rules a duet out, the spec's own reasons are left out", () => {
    const pinnedOffCycle = spec({ duration: "7s", target: ', resources: {cpus: "0"}' });
    assert.equal(duetRefusals(pinnedOffCycle, local, 2).length, 4, "cpus and the duration, for each variant");
    const cluster = { switching: "none" as const, remoteLoad: false, localServers: false };
    assert.deepEqual(
      duetRefusals(pinnedOffCycle, cluster, 2).map((r) => r.split(":")[0]),
      ["compare.order"],
      "only that the servers are not private processes",
    );
    assert.match(
      duetRefusals(pinnedOffCycle, cluster, 2)[0] as string,
      /not private processes of this machine/,
    );
    assert.equal(duetRefusals(pinnedOffCycle, local, 1).length, 1, "one CPU: that alone");
  });
});

describe("compare.order: auto", () => {
  test("duet where it can be fair, interleaved where it cannot", () => {
    const order = (over: Parameters<typeof spec>[0], target = local, cores = 2) =>
      resolveOrder(spec(over), target, cores).variants?.compare.order;
    assert.equal(order({ compare: "order: auto" }), "duet");
    assert.equal(order({ compare: "order: auto" }, local, 1), "interleaved", "one CPU");
    assert.equal(order({ compare: "order: auto", duration: "3s" }), "interleaved", "off the swap cycle");
    assert.equal(
      order({ compare: "order: auto", target: ', resources: {cpus: "0"}' }),
      "interleaved",
      "pinned by the spec",
    );
    assert.equal(
      order({ compare: "order: auto" }, { switching: "none", remoteLoad: false, localServers: false }),
      "interleaved",
      "a cluster",
    );
    assert.equal(order({ compare: "order: interleaved" }), "interleaved", "an explicit order stays");
  });

  test("variants that differ in a CPU quota run interleaved: inside a pair's CPU the quota may never bind", () => {
    const quota = spec({ compare: "order: auto", head: 'resources: {cpu_quota: "90%"}' });
    assert.equal(resolveOrder(quota, local, 2).variants?.compare.order, "interleaved");
    assert.deepEqual(duetCaveats(quota, 2), [
      "the variants differ in target.resources.cpu_quota (base none, head 90%), and inside a duet each server shares its pair's 1 CPU(s) with its load generator, so a quota may never bind there",
    ]);
    assert.match(whyNotDuet(quota, local, 2).join("\n"), /differ in target\.resources\.cpu_quota/);
    // the same quota on both sides is no difference: duet as before
    const same = spec({
      compare: "order: auto",
      target: ', resources: {cpu_quota: "90%"}',
      head: 'resources: {cpu_quota: "90%"}',
    });
    assert.deepEqual(duetCaveats(same, 2), []);
    assert.equal(resolveOrder(same, local, 2).variants?.compare.order, "duet");
    // an explicit duet still runs (the effect check judges whether the quota bound)
    assert.deepEqual(duetRefusals(spec({ head: 'resources: {cpu_quota: "90%"}' }), local, 2), []);
  });
});

describe("a duet's design where the spec leaves compare.blocks out", () => {
  test("the fewest blocks, 3 or more, that split the rounds (and max_rounds) evenly", () => {
    assert.equal(duetBlocks(6), 3);
    assert.equal(duetBlocks(4), 4);
    assert.equal(duetBlocks(16), 4);
    assert.equal(duetBlocks(9), 3);
    assert.equal(duetBlocks(2), undefined, "2 rounds give no 3 blocks");
    assert.equal(duetBlocks(6, 12), 3, "2 rounds a block divide max_rounds 12");
    assert.equal(duetBlocks(6, 9), 6, "2 rounds a block do not divide max_rounds 9; 1 does");
  });

  test("fresh pairs with their data loaded again, unless the spec wrote blocks (or reload_data)", () => {
    const design = (compare: string) => duetDesign(spec({ compare }))?.variants?.compare;
    assert.deepEqual(
      [design("order: duet")?.blocks, design("order: duet")?.reload_data],
      [3, true],
      "rounds default 6: 3 blocks of 2, data loaded again",
    );
    assert.equal(design("order: duet, rounds: 8")?.blocks, 4);
    assert.equal(design("order: duet, reload_data: false")?.reload_data, false, "reload_data as written");
    assert.equal(design("order: duet, blocks: 1"), undefined, "blocks written: kept, even 1");
    assert.equal(design("order: duet, rounds: 2"), undefined, "no split of 3 or more");
    assert.equal(design("order: interleaved"), undefined, "interleaved: as written");
    assert.equal(design("order: auto"), undefined, "auto until the plan resolves it");
  });

  test("the plan runs and prints it: restarts and reloads between blocks, and why", async () => {
    const plan = await planRun(spec({ compare: "order: auto" }), { cores: 2 });
    const compare = plan.loaded.variants?.compare;
    assert.equal(compare?.order, "duet");
    assert.equal(compare?.blocks, 3);
    assert.equal(compare?.reload_data, true);
    assert.match(
      plan.text,
      /compare\.blocks 3, reload_data: a duet's design where the spec leaves compare\.blocks out/,
    );
    assert.match(plan.text, /before each block after the first: a fresh process on the same data/);
    assert.match(plan.text, /again after each restart \(compare\.reload_data\)/);
    const kept = await planRun(spec({ compare: "order: auto, blocks: 1" }), { cores: 2 });
    assert.equal(kept.loaded.variants?.compare.blocks, 1);
    assert.doesNotMatch(kept.text, /a duet's design/);
    // on one CPU auto is interleaved: the spec's blocks (1) stand
    const one = await planRun(spec({ compare: "order: auto" }), { cores: 1 });
    assert.equal(one.loaded.variants?.compare.blocks, 1);
  });
});

/** A snapshot at second `k`: threads outside the pairs as [tid, ticks so far, CPU last run on]. */
const snap = (k: number, threads: [number, number, number][]): PhaseSnapshot => ({
  at: k * 1000,
  others: new Map(threads.map(([tid, ticks, cpu]) => [tid, { ticks, cpu }])),
});

describe("fair duet: outside CPU use per pair", () => {
  test("a neighbour staying on one CPU meets both pairs equally (the swaps share it)", () => {
    // 30 ticks a second on CPU 0, held by pair 0 in phase 0 and by pair 1 in phase 1
    const shares = outsideShares(
      [snap(0, [[7, 0, 0]]), snap(1, [[7, 30, 0]]), snap(2, [[7, 60, 0]])],
      ["0", "1"],
      100,
    );
    assert.deepEqual(shares, [15, 15]);
  });

  test("a neighbour following one pair through the swaps is all on that pair", () => {
    // pair 1 holds CPU 1, then CPU 0: the neighbour is where it is
    const shares = outsideShares(
      [snap(0, [[7, 0, 1]]), snap(1, [[7, 30, 1]]), snap(2, [[7, 60, 0]])],
      ["0", "1"],
      100,
    );
    assert.deepEqual(shares, [0, 30]);
    assert.ok((shares[1] as number) - (shares[0] as number) > OUTSIDE_GAP_PCT);
  });

  test("a thread first seen at a phase's end counts wholly in it; one gone counts for what was seen", () => {
    const shares = outsideShares(
      [
        snap(0, [[7, 100, 0]]),
        snap(1, [
          [7, 110, 0],
          [8, 40, 1],
        ]),
        snap(2, [[8, 40, 1]]),
      ],
      ["0", "1"],
      100,
    );
    // phase 0: thread 7's 10 ticks on CPU 0 (pair 0), thread 8's 40 on CPU 1 (pair 1); phase 1: nothing new
    assert.deepEqual(shares, [5, 20]);
  });

  test("the rounds' starting sets: with the sets given in the round's order the holders follow", () => {
    // a round starting at phase 1: pair 0 holds CPU 1 first
    const shares = outsideShares([snap(0, [[7, 0, 1]]), snap(1, [[7, 50, 1]])], ["1", "0"], 100);
    assert.deepEqual(shares, [50, 0]);
  });
});

describe("fair duet: the verdict's note on uneven rounds", () => {
  const cell = (variant: string, round: number, outside: number, reruns?: number): Cell => ({
    workload: "point_select",
    driver: "sysbench",
    script: "oltp_point_select",
    threads: 2,
    variant,
    round,
    status: "ok",
    started_at: "",
    finished_at: "",
    raw_log: "",
    warmup_s: 0,
    duration_s: 2,
    metrics: {},
    intervals: [],
    outside_cpu_pct: outside,
    ...(reruns ? { reruns } : {}),
  });

  test("quiet rounds: no note", () => {
    assert.deepEqual(outsideNotes([cell("base", 1, 2), cell("head", 1, 4)]), []);
  });

  test("rounds run again are counted, and one still uneven is named as kept", () => {
    const notes = outsideNotes([
      cell("base", 1, 2, 1),
      cell("head", 1, 3, 1),
      cell("base", 2, 1, 4),
      cell("head", 2, 29, 4),
    ]).join("\n");
    assert.match(notes, /unevenly .* in 2 round\(s\), run again \(5 re-run\(s\) in all\)/);
    assert.match(
      notes,
      /1 round\(s\) still uneven after 4 re-runs were kept as measured \(the largest gap 28 points\)/,
    );
  });
});

describe("duet: a pair that stalls alone runs the round again", () => {
  const cell = (variant: string, tps: number[]): Cell =>
    ({
      workload: "read_only",
      driver: "sysbench",
      threads: 4,
      variant,
      round: 3,
      block: 2,
      status: "ok",
      metrics: {
        tps: { value: 1, unit: "1/s", better: "higher" },
        p95_ms: { value: 1, unit: "ms", better: "lower" },
      },
      intervals: [
        { t: 0, warmup: true, values: { tps: 1, p95_ms: 9 } },
        ...tps.map((v, i) => ({ t: i + 1, warmup: false, values: { p95_ms: 5, tps: v } })),
      ],
    }) as unknown as Cell;
  const even = [1000, 1010, 990, 1005, 995, 1000, 1002, 998, 1001, 999];

  test("one side below half its median while the other ran on: that side, the second and the share", () => {
    const stalled = [...even];
    stalled[4] = 120;
    assert.deepEqual(soloStall([cell("base", even), cell("head", stalled)]), {
      variant: "head",
      second: 5,
      share: 0.12,
    });
    // the warmup second and latency never count; a dip to 60% is noise, not a stall
    const dip = [...even];
    dip[2] = 600;
    assert.equal(soloStall([cell("base", dip), cell("head", even)]), undefined);
  });

  test("both pairs stalled in the same second (the machine paused): shared, fair, no re-run", () => {
    const a = [...even];
    const b = [...even];
    a[6] = 100;
    b[6] = 300;
    assert.equal(soloStall([cell("base", a), cell("head", b)]), undefined);
    // too short a run to say what its median is
    assert.equal(soloStall([cell("base", [5, 1000]), cell("head", [1000, 1000])]), undefined);
  });

  test("the notes count the re-runs per round", () => {
    const c = { ...cell("base", even), stall_reruns: 2 } as Cell;
    const [note] = stallNotes([c, { ...c, variant: "head" } as Cell, cell("base", even)]);
    assert.match(
      note ?? "",
      /^duet: in 1 round\(s\) one pair stalled alone .* \(2 re-run\(s\) in all; a round still stalled after 2 was kept as measured\)/,
    );
    assert.deepEqual(stallNotes([cell("base", even)]), []);
  });
});

describe("duet: what a round does after an attempt", () => {
  const names = ["base", "head"];
  const ok = (variant: string, tps = [1000, 1000, 1000, 1000]): Cell =>
    ({
      workload: "point_select",
      driver: "sysbench",
      threads: 2,
      variant,
      round: 1,
      status: "ok",
      metrics: { tps: { value: 1000, unit: "1/s", better: "higher" } },
      intervals: tps.map((v, i) => ({ t: i + 1, warmup: false, values: { tps: v } })),
    }) as unknown as Cell;
  const stalled = (variant: string): Cell =>
    ({ ...ok(variant), status: "failed", failure: "stalled", metrics: {}, intervals: [] }) as unknown as Cell;
  const none: RoundReruns = { stalled: 0, starved: 0, uneven: 0, solo: 0 };

  test("a stall while others held most of that pair's CPUs is starvation, on its own budget", () => {
    // CI beside a CPU hog: 84% of head's CPUs went to processes of neither pair
    const step = nextAttempt([ok("base"), stalled("head")], [11, 84], names, none);
    assert.equal(step.next, "starved");
    // the same stall on a quiet machine is the server's
    assert.equal(nextAttempt([ok("base"), stalled("head")], [1, 2], names, none).next, "stalled");
    // just below the line: the server's
    assert.equal(
      nextAttempt([ok("base"), stalled("head")], [0, STARVED_PCT - 1], names, none).next,
      "stalled",
    );
    // starvation spent: the stall counts as the server's, and its budget bounds the round
    const starvedOut = { ...none, starved: STARVED_RERUNS };
    assert.equal(nextAttempt([ok("base"), stalled("head")], [11, 84], names, starvedOut).next, "stalled");
    assert.equal(
      nextAttempt([ok("base"), stalled("head")], [11, 84], names, { ...starvedOut, stalled: 2 }).next,
      "keep",
      "every budget spent: the failed cell is kept, and fails the round",
    );
    // both stalled, only one of them starved: the server's
    assert.equal(nextAttempt([stalled("base"), stalled("head")], [11, 84], names, none).next, "stalled");
    // no outside reading (a run too short to sample): the server's
    assert.equal(nextAttempt([ok("base"), stalled("head")], undefined, names, none).next, "stalled");
  });

  test("a failure other than a stall ends the round; an uneven or solo-stalled attempt runs again until its budget is spent", () => {
    const broken = { ...stalled("head"), failure: "error" } as unknown as Cell;
    assert.equal(nextAttempt([ok("base"), broken], [11, 84], names, none).next, "keep");
    assert.equal(
      nextAttempt([ok("base"), ok("head")], [1, 1 + OUTSIDE_GAP_PCT + 1], names, none).next,
      "uneven",
    );
    assert.equal(
      nextAttempt([ok("base"), ok("head")], [1, 1 + OUTSIDE_GAP_PCT + 1], names, { ...none, uneven: 4 }).next,
      "keep",
    );
    const dip = ok("head", [1000, 100, 1000, 1000]);
    assert.equal(nextAttempt([ok("base"), dip], [1, 1], names, none).next, "solo");
    assert.equal(nextAttempt([ok("base"), dip], [1, 1], names, { ...none, solo: 2 }).next, "keep");
    assert.equal(nextAttempt([ok("base"), ok("head")], [1, 2], names, none).next, "keep");
  });
});
