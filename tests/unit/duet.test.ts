import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  cpuSets,
  duetRefusals,
  OUTSIDE_GAP_PCT,
  outsideNotes,
  outsideShares,
  resolveOrder,
  type Snapshot,
} from "../../action/src/pipeline/duet.ts";
import type { Cell } from "../../action/src/result/model.ts";
import { parseSpec } from "../../action/src/specfile/load.ts";

const spec = (over: { target?: string; driver?: string; duration?: string; compare?: string } = {}) =>
  parseSpec(
    `name: d
target: {kind: mariadb${over.target ?? ""}}
${over.driver ?? ""}
data: {tables: 1, table_size: 100}
workloads:
  - {name: point_select, sysbench: oltp_point_select, threads: [4], duration: ${over.duration ?? "10s"}}
variants: {base: {}, head: {target: {resources: {cpu_quota: "97%"}}}}
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
      /variants\.base: target\.resources\.cpus: compare\.order: duet pins each pair itself/,
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
});

// Snapshots of two pairs on CPUs 0 and 1, one phase a second at 100 ticks a second: `busy` is each
// CPU's busy ticks per phase, `own` each pair's processes' ticks per phase (pid 10 pair 0, 20 pair 1).
function run(busy: [number, number][], own: [number, number][]): Snapshot[] {
  const snaps: Snapshot[] = [];
  const cpu = [0, 0];
  const ticks = [0, 0];
  for (let k = 0; k <= busy.length; k++) {
    snaps.push({
      at: k * 1000,
      busy: new Map([
        [0, cpu[0] as number],
        [1, cpu[1] as number],
      ]),
      pairs: [new Map([[10, ticks[0] as number]]), new Map([[20, ticks[1] as number]])],
    });
    const [b, o] = [busy[k], own[k]];
    if (!b || !o) break;
    cpu[0] = (cpu[0] as number) + b[0];
    cpu[1] = (cpu[1] as number) + b[1];
    ticks[0] = (ticks[0] as number) + o[0];
    ticks[1] = (ticks[1] as number) + o[1];
  }
  return snaps;
}

describe("fair duet: outside CPU use per pair", () => {
  test("a neighbour staying on one CPU meets both pairs equally (the swaps share it)", () => {
    // CPU 0 full; its holder gets 70 of its 100 ticks, a neighbour 30; phases swap the holders
    const shares = outsideShares(
      run(
        [
          [100, 100],
          [100, 100],
        ],
        [
          [70, 100],
          [100, 70],
        ],
      ),
      ["0", "1"],
      100,
    );
    assert.deepEqual(shares, [15, 15]);
  });

  test("a neighbour following one pair through the swaps is all on that pair", () => {
    // phase 0: pair 1 on CPU 1 with the neighbour; phase 1: pair 1 on CPU 0, the neighbour with it
    const shares = outsideShares(
      run(
        [
          [100, 100],
          [100, 100],
        ],
        [
          [100, 70],
          [100, 70],
        ],
      ),
      ["0", "1"],
      100,
    ) as number[];
    assert.deepEqual(shares, [0, 30]);
    assert.ok((shares[1] as number) - (shares[0] as number) > OUTSIDE_GAP_PCT);
  });

  test("a load first seen at a phase's end counts wholly in it; one gone within a phase cannot be counted", () => {
    const snaps = run(
      [
        [100, 100],
        [100, 100],
      ],
      [
        [100, 100],
        [100, 100],
      ],
    );
    // pair 1's load (pid 21) started after the first snapshot: 40 ticks in phase 0 (CPU 1), 40 in phase 1 (CPU 0)
    const at = (k: number, cpu0: number, cpu1: number, p0: number, p1: number, load?: number): Snapshot => ({
      at: k * 1000,
      busy: new Map([
        [0, cpu0],
        [1, cpu1],
      ]),
      pairs: [
        new Map([[10, p0]]),
        new Map([[20, p1], ...(load === undefined ? [] : [[21, load] as [number, number]])]),
      ],
    });
    const late = [at(0, 0, 0, 0, 0), at(1, 60, 100, 60, 60, 40), at(2, 160, 160, 120, 120, 80)];
    assert.deepEqual(outsideShares(late, ["0", "1"], 100), [0, 0]);
    const gone = snaps.map((s, k) => ({
      ...s,
      pairs: [
        k === 2 ? new Map<number, number>() : (s.pairs[0] as Map<number, number>),
        s.pairs[1] as Map<number, number>,
      ],
    }));
    assert.equal(outsideShares(gone, ["0", "1"], 100), undefined);
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
