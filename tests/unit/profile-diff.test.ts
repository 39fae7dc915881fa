// Which functions got costlier (observe/profile-diff.ts, report/flame.ts diffFlameSvg): two
// profiles of one program compared function by function, per operation, and drawn as a
// differential flame graph.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { Function as Fn, Line, Location, Profile, Sample, StringTable, ValueType } from "pprof-format";
import { diffProfiles, functionCosts } from "../../action/src/observe/profile-diff.ts";
import { diffFlameSvg } from "../../action/src/report/flame.ts";
import { fixture } from "../helpers/paths.ts";

/** A CPU profile whose stacks (root first) carry the given nanoseconds. */
function cpuProfile(stacks: [string[], number][]): Uint8Array {
  const strings = new StringTable();
  const fns = new Map<string, number>();
  const idOf = (name: string) => {
    if (!fns.has(name)) fns.set(name, fns.size + 1);
    return fns.get(name) as number;
  };
  for (const [stack] of stacks) for (const n of stack) idOf(n);
  const functions = [...fns].map(([name, id]) => new Fn({ id, name: strings.dedup(name) }));
  const locations = [...fns].map(([, id]) => new Location({ id, line: [new Line({ functionId: id })] }));
  const samples = stacks.map(
    ([stack, ns]) => new Sample({ locationId: [...stack].reverse().map(idOf), value: [1, ns] }),
  );
  return new Profile({
    sampleType: [
      new ValueType({ type: strings.dedup("samples"), unit: strings.dedup("count") }),
      new ValueType({ type: strings.dedup("cpu"), unit: strings.dedup("nanoseconds") }),
    ],
    sample: samples,
    function: functions,
    location: locations,
    stringTable: strings,
  }).encode();
}

describe("profiles compared function by function", () => {
  const base = cpuProfile([
    [["main", "execute", "sort"], 4e6],
    [["main", "execute", "scan"], 4e6],
    [["main", "gc"], 2e6],
  ]);
  // head: sort costs three times as much, the scan a little less; twice the operations
  const head = cpuProfile([
    [["main", "execute", "sort"], 24e6],
    [["main", "execute", "scan"], 6e6],
    [["main", "gc"], 4e6],
  ]);

  test("cumulative cost per operation: the grower named with its ms per operation, the frames on every stack left out", () => {
    const d = diffProfiles(functionCosts(base), functionCosts(head), { base: 10, head: 20 });
    assert.equal(d.unit, "ms/op");
    assert.deepEqual(d.total, { base: 1, head: 1.7 });
    // sort: 0.4 → 1.2 ms/op; execute (its caller) grows by sort's growth less scan's shrinking
    assert.deepEqual(
      d.growers.map((g) => [g.name, Number(g.delta.toFixed(6))]),
      [
        ["sort", 0.8],
        ["execute", 0.7],
      ],
    );
    // ranked by share: scan's share fell from 40% to 18%, gc's from 20% to 12% at the same ms per op
    assert.deepEqual(
      d.shrinkers.map((g) => [g.name, Number(g.delta.toFixed(6))]),
      [
        ["scan", -0.1],
        ["gc", 0],
      ],
    );
    assert.ok(Math.abs((d.growers[0]?.share_delta ?? 0) - ((100 * 24) / 34 - 40)) < 1e-9);
    assert.ok(!d.growers.some((g) => g.name === "main"), "main is on every stack: it names nothing");
  });

  test("without operation counts: shares of each profile", () => {
    const d = diffProfiles(functionCosts(base), functionCosts(head));
    assert.equal(d.unit, "%");
    assert.equal(d.growers[0]?.name, "sort");
    assert.ok(Math.abs((d.growers[0]?.delta ?? 0) - (100 * 24) / 34 + 40) < 1e-9);
  });

  test("the differential flame graph: head's stacks, red where their share grew, blue where it shrank", () => {
    const svg = diffFlameSvg(base, head, "diff") as string;
    const fill = (name: string) =>
      new RegExp(`<title>${name} \\([\\d.]+%\\)</title><rect [^>]*fill="(rgb\\(\\d+,\\d+,\\d+\\))"`).exec(
        svg,
      )?.[1];
    // sort's share went from 40% to 71% (log2 0.82): red; scan's from 40% to 18%: blue
    assert.equal(fill("sort"), "rgb(250,92,92)");
    assert.match(fill("scan") ?? "", /^rgb\((\d+),\1,250\)$/);
    assert.equal(diffFlameSvg(cpuProfile([]), head, "x"), undefined, "an empty base draws nothing");
  });

  test("real tidb-server profiles: CPU read as nanoseconds, allocations as allocated bytes", () => {
    const cpu = functionCosts(readFileSync(fixture("pprof", "tidb-server-cpu-read-only.pprof")));
    assert.equal(cpu.kind, "cpu");
    // 5 s of a server that sysbench kept busy: most of a CPU's time
    assert.ok(cpu.total > 1e9 && cpu.total < 10e9, `${cpu.total} ns`);
    assert.ok([...cpu.cum.keys()].some((n) => n.includes("session.(*session).ExecuteStmt")));
    const alloc = functionCosts(readFileSync(fixture("pprof", "tidb-server-allocs-read-only.pprof")));
    assert.equal(alloc.kind, "alloc");
    assert.ok(alloc.total > 1e9, `${alloc.total} bytes: about 1 MB per transaction over 5 s at ~1000/s`);
  });
});
