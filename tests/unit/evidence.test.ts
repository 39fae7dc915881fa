// Bottleneck hints from resource use (observe/hints.ts), how report.md, the comment and
// report.html show them (report/evidence.ts), per-second charts, and the regressed cells' profiles.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { gzipSync } from "node:zlib";
import { Profile, StringTable } from "pprof-format";
import type { Bench } from "../../action/src/bench/bench.ts";
import { profileRegressions } from "../../action/src/commands/compare/profiles.ts";
import type { CellJudgement } from "../../action/src/compare/judge.ts";
import type { Workload } from "../../action/src/drivers/types.ts";
import { frameTree } from "../../action/src/observe/flame.ts";
import { bottleneck, evidenceOf, pooled } from "../../action/src/observe/hints.ts";
import { parseTop } from "../../action/src/observe/pprof.ts";
import { commentMarkdown } from "../../action/src/report/comment.ts";
import { evidenceWarnings } from "../../action/src/report/evidence.ts";
import { flameSvg } from "../../action/src/report/flame.ts";
import { renderCharts, verdictHtml } from "../../action/src/report/html.ts";
import { secondCharts } from "../../action/src/report/seconds.ts";
import type { Cell, ResourceUse } from "../../action/src/result/model.ts";
import type { RunDir } from "../../action/src/result/store.ts";
import { ROOT } from "../helpers/paths.ts";
import { sampleResult } from "../helpers/sample.ts";
import { syntheticVerdict } from "../helpers/verdict.ts";

const use = (
  component: string,
  role: ResourceUse["role"],
  cpus: number,
  mean: number,
  max = mean,
): ResourceUse => ({
  component,
  role,
  host: "local",
  processes: 1,
  cpus,
  cpu_pct: { mean, max },
  rss_mib: { mean: 100, max: 120 },
  samples: [],
});

describe("bottleneck hints", () => {
  test("a load generator at 90% or more of its CPUs: the cell measures the client, whatever the server does", () => {
    const h = bottleneck([
      use("machine", "machine", 2, 99),
      use("mariadbd", "server", 2, 95),
      use("sysbench", "load", 1, 97),
    ]);
    assert.equal(h?.bound, "load");
    assert.equal(
      h?.text,
      "load generator saturated (sysbench at 97% of its 1 CPU): this cell measures the client; mariadbd 95% of 2 CPUs",
    );
  });
  test("a server program at 90% or more: CPU-bound, the others named with their share", () => {
    const h = bottleneck([
      use("tidb-server", "server", 2, 95),
      use("tikv-server", "server", 2, 60),
      use("sysbench", "load", 2, 30),
    ]);
    assert.equal(h?.bound, "server");
    assert.equal(
      h?.text,
      "tidb-server CPU-bound (95% of its 2 CPUs); tikv-server 60% of 2 CPUs, sysbench 30% of 2 CPUs",
    );
    const quota = bottleneck([use("mariadbd", "server", 0.3, 98.6), use("sysbench", "load", 2, 12)]);
    assert.match(quota?.text ?? "", /^mariadbd CPU-bound \(99% of its 0\.30 CPUs\)/);
  });
  test("neither saturated but the machine is: they compete for its CPUs; nothing saturated: latency-bound", () => {
    const m = bottleneck([
      use("machine", "machine", 2, 96),
      use("mariadbd", "server", 2, 60),
      use("sysbench", "load", 2, 35),
    ]);
    assert.equal(m?.bound, "machine");
    assert.equal(
      m?.text,
      "the machine's 2 CPUs saturated (96% busy; CPUs used: mariadbd 1.2, sysbench 0.7): server and load generator compete for them",
    );
    const crowded = bottleneck([
      use("machine", "machine", 2, 99),
      use("tidb-server", "server", 2, 50),
      use("sysbench", "load", 2, 5),
    ]);
    assert.equal(
      crowded?.text,
      "the machine's 2 CPUs saturated (99% busy; CPUs used: tidb-server 1.0, sysbench 0.1, other programs 0.9): other programs on this machine take part of them",
    );
    const none = bottleneck([
      use("machine", "machine", 2, 40),
      use("postgres", "server", 2, 25),
      use("sysbench", "load", 2, 10),
    ]);
    assert.equal(none?.bound, "none");
    assert.equal(
      none?.text,
      "no resource saturated: latency-bound (postgres 25% of 2 CPUs, sysbench 10% of 2 CPUs; machine 40% busy)",
    );
    assert.equal(bottleneck([]), undefined);
    assert.equal(bottleneck(undefined), undefined);
  });
  test("rounds pooled: window means averaged, the largest maximum; warmup rounds and failed cells left out", () => {
    const cell = (round: number, mean: number, status: Cell["status"] = "ok"): Cell => ({
      ...(sampleResult().cells[0] as Cell),
      variant: "head",
      round,
      status,
      resources: [use("sysbench", "load", 1, mean, mean + 2)],
    });
    const p = pooled([cell(1, 90), cell(2, 96)]);
    assert.deepEqual(p[0]?.cpu_pct, { mean: 93, max: 98 });
    const e = evidenceOf([cell(0, 10), cell(1, 90), cell(2, 96), cell(3, 5, "failed")], ["base", "head"]);
    assert.equal(e.length, 1);
    assert.equal(e[0]?.resources[0]?.cpu_pct.mean, 93);
    assert.equal(e[0]?.hint.bound, "load");
  });
});

describe("evidence in the comment and report.html", () => {
  const evidence = [
    {
      variant: "head",
      workload: "point_select",
      threads: 8,
      hint: bottleneck([use("sysbench", "load", 0.25, 99), use("mariadbd", "server", 2, 20)]) as {
        bound: "load";
        text: string;
      },
      resources: [use("mariadbd", "server", 2, 20), use("sysbench", "load", 0.25, 99)],
    },
  ];
  test("a saturated load generator is a warning at the top; the table is in a collapsed section", () => {
    const v = { ...syntheticVerdict({ workloads: ["point_select"], threads: [8] }), evidence };
    const md = commentMarkdown(v);
    assert.match(
      md,
      /> ⚠️ point_select threads=8 \(head\): load generator saturated \(sysbench at 99% of its 0\.25 CPUs\): this cell measures the client; mariadbd 20% of 2 CPUs; its numbers are not the server's/,
    );
    assert.match(md, /<details><summary>Where the time went/);
    assert.match(md, /\| point_select \| 8 \| ⚠️ load generator saturated/);
    assert.match(md, /sysbench 99% of 0\.25 CPUs \(max 99%\), 100 MiB/);
    const html = verdictHtml(v, []);
    assert.match(html, /<tr data-hint="load">/);
    assert.match(html, /<p class="warning">⚠️ point_select threads=8 \(head\): load generator saturated/);
    assert.deepEqual(evidenceWarnings(undefined), []);
    assert.doesNotMatch(
      commentMarkdown(syntheticVerdict({ workloads: ["point_select"], threads: [8] })),
      /Where the time went/,
    );
  });
});

describe("per-second charts (report.html)", () => {
  test("per workload × threads: throughput and latency per second (a line per round, warmup rounds dashed) and CPU per program", async () => {
    const r = sampleResult();
    const first = r.cells[0] as Cell;
    const warm: Cell = { ...first, round: 0 };
    const measured: Cell = {
      ...first,
      resources: [
        {
          ...use("mariadbd", "server", 2, 50),
          samples: [
            { t: 1, cpu_pct: 48 },
            { t: 2, cpu_pct: 52 },
          ],
        },
        { ...use("machine", "machine", 2, 80), samples: [{ t: 1, cpu_pct: 80 }] },
      ],
    };
    r.cells = [warm, measured];
    const charts = secondCharts([r]);
    const stemOf = `${first.workload}-t${first.threads}`;
    assert.deepEqual(
      charts.map((c) => c.name),
      [`${stemOf}-tps-per-second`, `${stemOf}-p95_ms-per-second`, `${stemOf}-cpu-per-second`],
    );
    const tps = charts[0]?.spec as { data: { values: { part: string; run: string }[] }; encoding: object };
    assert.deepEqual(
      [...new Set(tps.data.values.map((v) => `${v.run}:${v.part}`))],
      ["base warmup:warmup", "base r1:measured"],
    );
    assert.ok("strokeDash" in tps.encoding, "warmup seconds are dashed");
    const cpu = charts[2]?.spec as { data: { values: { program: string; cpu: number }[] } };
    assert.deepEqual(
      cpu.data.values.map((v) => [v.program, v.cpu]),
      [
        ["mariadbd (server, 2 CPU)", 48],
        ["mariadbd (server, 2 CPU)", 52],
      ],
      "the machine is in the table, not among the programs",
    );
    // no warmup anywhere: no dash legend
    r.cells = [measured];
    const plain = secondCharts([r])[0]?.spec as { encoding: object } | undefined;
    assert.ok(plain && !("strokeDash" in plain.encoding));
    const v = syntheticVerdict({ workloads: [first.workload], threads: [first.threads] });
    const html = verdictHtml(v, await renderCharts(v, [r]));
    assert.match(html, /<h2 id="per-second">Per second<\/h2>/);
    assert.match(html, new RegExp(`data-chart="${stemOf}-tps-per-second"><svg`));
    assert.doesNotMatch(verdictHtml(v, await renderCharts(v)), /id="per-second"/);
  });
});

describe("CPU profiles of regressed cells", () => {
  test("go tool pprof -top, as it printed a real tidb-server profile: the rows, the header left out", () => {
    const rows = parseTop(readFileSync(join(ROOT, "tests/fixtures/pprof/tidb-server-top.txt"), "utf8"));
    assert.equal(rows.length, 8);
    assert.deepEqual(rows[0], { flat_pct: 29.47, cum_pct: 29.47, name: "internal/runtime/syscall.Syscall6" });
    assert.equal(rows[2]?.name, "internal/sync.(*Mutex).Lock");
    assert.deepEqual(parseTop("  1.20s 40.00% 40.00%  2.5s 83.33%  main.work (inline)\n"), [
      { flat_pct: 40, cum_pct: 83.33, name: "main.work (inline)" },
    ]);
  });

  test("the largest regressions first, at most compare.profiles of them, each side once (control, then the variant), groups entered where variants restart", async () => {
    const judged = (workload: string, threads: number, change: number, verdict: CellJudgement["verdict"]) =>
      ({ variant: "head", workload, threads, metric: "tps", change, verdict }) as CellJudgement;
    const ran: string[] = [];
    const bench = (variant: string) => ({
      canProfile: () => true,
      enterGroup: async () => {
        ran.push(`enter ${variant}`);
        return undefined;
      },
      profileCell: async (
        plan: { workload: { name: string }; threads: number; tag?: string },
        _s: unknown,
        dir: string,
      ) => {
        ran.push(`${variant} ${plan.workload.name}@${plan.threads} ${plan.tag}`);
        return {
          cell: { status: "ok", metrics: { tps: { value: 100, unit: "tx/s", better: "higher" } } },
          profiles: [
            { component: "tidb-server", address: "127.0.0.1:10080", file: join(dir, `${variant}.pprof`) },
          ],
        };
      },
    });
    const benches = { base: bench("base"), head: bench("head") };
    const out = await profileRegressions({
      cells: [
        judged("a", 8, -0.1, "regression"),
        judged("b", 8, -0.4, "regression"),
        judged("c", 8, -0.2, "regression"),
        judged("d", 8, -0.9, "unchanged"),
      ],
      control: "base",
      benchOf: (n) => benches[n as "base" | "head"] as unknown as Bench,
      grouped: true,
      planOf: (variant, workload, threads) => ({
        workload: { name: workload } as Workload,
        threads,
        variant,
        round: 1,
      }),
      max: 2,
      runDir: { dir: "/run" } as RunDir,
      log: () => {},
      signal: new AbortController().signal,
    });
    assert.deepEqual(ran, [
      "enter base",
      "base b@8 profile",
      "enter head",
      "head b@8 profile",
      "enter base",
      "base c@8 profile",
      "enter head",
      "head c@8 profile",
    ]);
    assert.deepEqual(
      out.map((p) => [p.variant, p.workload, p.file, p.measured]),
      [
        ["base", "b", "profiles/base.pprof", { tps: 100 }],
        ["head", "b", "profiles/head.pprof", { tps: 100 }],
        ["base", "c", "profiles/base.pprof", { tps: 100 }],
        ["head", "c", "profiles/head.pprof", { tps: 100 }],
      ],
    );
    const none = await profileRegressions({
      cells: [judged("a", 8, -0.5, "regression")],
      control: "base",
      benchOf: () => ({ canProfile: () => false }) as unknown as Bench,
      grouped: false,
      planOf: () => undefined,
      max: 3,
      runDir: { dir: "/run" } as RunDir,
      log: () => {},
      signal: new AbortController().signal,
    });
    assert.deepEqual(none, [], "a target without profiles (MariaDB, PostgreSQL): nothing re-run");
  });
});

describe("flame graphs of CPU profiles", () => {
  /** A gzipped pprof profile: main → work (3 s), main → work → hash (1 s), main → idle (4 s). */
  function profile(): Uint8Array {
    const st = new StringTable();
    const s = (x: string) => st.dedup(x);
    const fns = ["main", "example.com/app/pkg.work", "example.com/app/pkg.hash", "idle"].map((name, i) => ({
      id: i + 1,
      name: s(name),
    }));
    const locs = fns.map((f) => ({ id: f.id, line: [{ functionId: f.id }] }));
    const sample = (stack: number[], ns: number) => ({ locationId: stack, value: [ns / 1e7, ns] });
    const p = new Profile({
      sampleType: [
        { type: s("samples"), unit: s("count") },
        { type: s("cpu"), unit: s("nanoseconds") },
      ],
      // location ids leaf first, as pprof stores them
      sample: [sample([2, 1], 3e9), sample([3, 2, 1], 1e9), sample([4, 1], 4e9)],
      location: locs,
      function: fns,
      stringTable: st,
    });
    return gzipSync(p.encode());
  }

  test("stacks merged root first, CPU nanoseconds as the value; boxes as wide as their share, short names, full names in titles", () => {
    const root = frameTree(profile());
    assert.equal(root.value, 8e9);
    const main = root.children.get("main");
    assert.equal(main?.value, 8e9);
    assert.equal(main?.children.get("example.com/app/pkg.work")?.value, 4e9);
    assert.equal(
      main?.children.get("example.com/app/pkg.work")?.children.get("example.com/app/pkg.hash")?.value,
      1e9,
    );
    const svg = flameSvg(profile(), "head: point_select threads=8", 800) as string;
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="800"/);
    assert.match(
      svg,
      /<title>example\.com\/app\/pkg\.work \(50\.00%\)<\/title><rect x="0\.0" y="\d+" width="400\.0"/,
    );
    assert.match(
      svg,
      /<title>example\.com\/app\/pkg\.hash \(12\.50%\)<\/title><rect x="0\.0" y="\d+" width="100\.0"/,
    );
    assert.match(svg, /<title>idle \(50\.00%\)<\/title><rect x="400\.0"/);
    assert.match(svg, />pkg\.work<\/text>/, "the box shows the name without its package path");
    // callers below callees: main's box is lower on the page than work's
    const y = (name: string) =>
      Number(new RegExp(`<title>${name} [^<]*</title><rect x="[\\d.]+" y="(\\d+)"`).exec(svg)?.[1]);
    assert.ok(y("main") > y("example\\.com/app/pkg\\.work"));
    assert.equal(
      flameSvg(gzipSync(new Profile({ stringTable: new StringTable() }).encode()), "empty"),
      undefined,
    );
  });
});
