// Which functions got costlier (observe/profile-diff.ts, report/flame.ts diffFlameSvg): two
// profiles of one program compared function by function, per operation, and drawn as a
// differential flame graph.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { Function as Fn, Line, Location, Profile, Sample, StringTable, ValueType } from "pprof-format";
import { diffProfiles, functionCosts } from "../../action/src/observe/profile-diff.ts";
import { profileDiffMarkdown } from "../../action/src/report/evidence.ts";
import { diffFlameSvg } from "../../action/src/report/flame.ts";
import { statementsProfile, windowStatements } from "../../action/src/targets/tidb/code-profile.ts";
import { statementsPerFunction } from "../../action/src/targets/tidb/counting.ts";
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
    assert.equal(cpu.measures, "cpu");
    // 5 s of a server that sysbench kept busy: most of a CPU's time
    assert.ok(cpu.total > 1e9 && cpu.total < 10e9, `${cpu.total} ns`);
    assert.ok([...cpu.cum.keys()].some((n) => n.includes("session.(*session).ExecuteStmt")));
    const alloc = functionCosts(readFileSync(fixture("pprof", "tidb-server-allocs-read-only.pprof")));
    assert.equal(alloc.measures, "alloc");
    assert.ok(alloc.total > 1e9, `${alloc.total} bytes: about 1 MB per transaction over 5 s at ~1000/s`);
  });
});

describe("a counting build's code profile: statements per function, counted", () => {
  // `go tool covdata debugdump` of a small program (Go 1.26): a pointer method with a function
  // literal inside, a value method, a function, main
  const DUMP = `Cover mode: atomic
Package path: example.com/cnt/main
Package name: main

Func: *T.P
Srcfile: example.com/cnt/main/main.go
Literal: false
0: L4:C24 -- L4:C42 NS=1 = 1
1: L4:C58 -- L4:C68 NS=1 = 1
2: L4:C42 -- L4:C56 NS=1 = 1

Func: T.M
Srcfile: example.com/cnt/main/main.go
Literal: false
0: L5:C23 -- L5:C48 NS=2 = 1
1: L5:C58 -- L5:C66 NS=1 = 1
2: L5:C48 -- L5:C56 NS=1 = 5

Func: f
Srcfile: example.com/cnt/main/main.go
Literal: false
0: L6:C19 -- L6:C44 NS=2 = 0

Func: init
Srcfile: example.com/cnt/main/tiperf_counting.go
Literal: false
0: L7:C13 -- L7:C130 NS=3 = 1
totalStmts: 14 coveredStmts: 11
`;

  test("debugdump read per function, named as pprof names them; what ran nothing and tiperf's file left out", () => {
    const fns = statementsPerFunction(DUMP);
    assert.deepEqual(
      [...fns].map(([name, f]) => [name, f.n]),
      [
        ["example.com/cnt/main.(*T).P", 3],
        ["example.com/cnt/main.T.M", 2 + 1 + 5],
      ],
    );
    assert.equal(fns.get("example.com/cnt/main.T.M")?.file, "example.com/cnt/main/main.go");
  });

  const reading = (entries: [string, number][]) =>
    new Map(entries.map(([name, n]) => [name, { file: `${name}.go`, n }]));

  test("a window's statements less the idle server's over as long", () => {
    const fns = windowStatements(
      reading([
        ["parse", 1000],
        ["exec", 0],
      ]),
      reading([
        ["parse", 3000],
        ["exec", 500],
        ["new", 40],
      ]),
      2000,
      // idle: parse runs 600 a second by itself, exec nothing
      { before: reading([["parse", 5000]]), after: reading([["parse", 11000]]), ms: 10_000 },
    );
    assert.deepEqual(
      [...fns].map(([name, f]) => [name, f.n]),
      [
        ["parse", 2000 - 1200],
        ["exec", 500],
        ["new", 40],
      ],
    );
    // nothing left of a function the background explains
    const none = windowStatements(reading([["bg", 0]]), reading([["bg", 100]]), 1000, {
      before: reading([["bg", 0]]),
      after: reading([["bg", 200]]),
      ms: 1000,
    });
    assert.equal(none.size, 0);
  });

  test("diffed per operation and ranked by the counted change, not by share", () => {
    const base = statementsProfile(
      reading([
        ["session.ExecuteStmt", 1_000_000],
        ["parser.Lex", 4_000_000],
      ]),
    );
    // head: 2,000 operations where base ran 1,000; ExecuteStmt +100 a operation; Lex the same per operation
    const head = statementsProfile(
      reading([
        ["session.ExecuteStmt", 2_200_000],
        ["parser.Lex", 8_000_000],
      ]),
    );
    const d = diffProfiles(functionCosts(base), functionCosts(head), { base: 1000, head: 2000 });
    assert.equal(d.measures, "stmts");
    assert.equal(d.unit, "stmts/op");
    assert.deepEqual(d.total, { base: 5000, head: 5100 });
    assert.deepEqual(
      d.growers.map((g) => [g.name, g.delta]),
      [["session.ExecuteStmt", 100]],
    );
    // Lex's share fell (80% → 78.4%) at the same count per operation: not a shrinker
    assert.deepEqual(d.shrinkers, []);
  });
});

test("the comment's diff table says a code profile counts statements, in statements per operation", () => {
  const d = diffProfiles(
    functionCosts(statementsProfile(new Map([["pkg.f", { file: "f.go", n: 1000 }]]))),
    functionCosts(statementsProfile(new Map([["pkg.f", { file: "f.go", n: 1500 }]]))),
    { base: 10, head: 10 },
  );
  const table = profileDiffMarkdown(
    [
      {
        variant: "head",
        against: "base",
        workload: "point_select",
        threads: 4,
        component: "tidb-server",
        ...d,
      },
    ],
    (s) => s,
  ).join("\n");
  assert.match(
    table,
    /\| tidb-server \| statements executed \(counted\) \| \+50\.0 stmts\/op \(100\.0 → 150\.0\) \| pkg\.f \+50\.0 stmts\/op/,
  );
});

test("a counted change that rounds to no statement per operation is listed nowhere", () => {
  const side = (n: number, same: number) =>
    functionCosts(
      statementsProfile(
        new Map([
          ["pkg.grew", { file: "a.go", n }],
          ["pkg.same", { file: "b.go", n: same }],
        ]),
      ),
    );
  // pkg.same: 30 statements over 1,000 operations, 0.03 a operation
  const d = diffProfiles(side(1000, 100_000), side(2000, 100_030), { base: 1000, head: 1000 });
  assert.deepEqual(
    d.growers.map((g) => g.name),
    ["pkg.grew"],
  );
  assert.deepEqual(d.shrinkers, []);
});
