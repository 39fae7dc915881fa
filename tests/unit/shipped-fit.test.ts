import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { parse, stringify } from "yaml";
import { planRun } from "../../action/src/bench/plan.ts";
import { loadSpec, parseSpec } from "../../action/src/specfile/load.ts";
import { ROOT } from "../helpers/paths.ts";

/** The job that runs tiperf in each workflow. */
const JOB: Record<string, string> = {
  "perf-pr.yml": "benchmark",
  "perf-dispatch.yml": "compare",
  "perf-weekly.yml": "measure",
};

/** A workflow's benchmark job timeout, in seconds, as the workflow file says it. */
function jobTimeoutS(workflow: string): number {
  const doc = parse(readFileSync(join(ROOT, ".github/workflows", workflow), "utf8")) as {
    jobs: Record<string, { "timeout-minutes"?: number }>;
  };
  const job = JOB[workflow] as string;
  const minutes = doc.jobs[job]?.["timeout-minutes"];
  assert.ok(minutes, `${workflow}: jobs.${job}.timeout-minutes`);
  return minutes * 60;
}

/**
 * The spec as a workflow runs it: perf-pr.yml and perf-dispatch.yml compare two variants (a spec
 * without its own gets base and head from the two commits), perf-weekly.yml runs it once.
 */
async function asRun(spec: string, compare: boolean) {
  const loaded = await loadSpec(join(ROOT, spec));
  if (!compare || loaded.variants) return loaded;
  const text = readFileSync(join(ROOT, spec), "utf8");
  return parseSpec(`${text}\nvariants: {base: {}, head: {}}\n`, spec);
}

/** Every shipped spec × the workflow and profiles it is shipped for. */
const COMBOS: { spec: string; workflow: string; compare: boolean; profiles: (string | undefined)[] }[] = [
  { spec: "workloads/pr.yaml", workflow: "perf-pr.yml", compare: true, profiles: [undefined] },
  { spec: "workloads/smoke.yaml", workflow: "perf-pr.yml", compare: true, profiles: [undefined] },
  {
    spec: "workloads/tidb-pr.yaml",
    workflow: "perf-pr.yml",
    compare: true,
    profiles: ["playground", "hosts-example", "aws-sysbench-3x3"],
  },
  {
    spec: "workloads/tidb-smoke.yaml",
    workflow: "perf-dispatch.yml",
    compare: true,
    profiles: ["local", "aws-smoke"],
  },
  ...[
    "000-cloud-sysbench",
    "001-version-upgrade",
    "002-pgsql-read-only",
    "003-sizing-tools",
    "004-deployment-tuning",
  ].flatMap((study) => [
    {
      spec: `workloads/seeds/${study}.yaml`,
      workflow: "perf-dispatch.yml",
      // seed 000's variants are profiles: a run per profile, then `tiperf diff`
      compare: study !== "000-cloud-sysbench",
      profiles: [undefined],
    },
    {
      spec: `workloads/seeds/reduced/${study}.yaml`,
      workflow: "perf-dispatch.yml",
      compare: true,
      profiles: [undefined],
    },
  ]),
  {
    spec: "workloads/seeds/000-cloud-sysbench.yaml",
    workflow: "perf-dispatch.yml",
    compare: false,
    profiles: ["seeds/000-general-purpose", "seeds/000-direct"],
  },
  { spec: "workloads/weekly.yaml", workflow: "perf-weekly.yml", compare: false, profiles: [undefined] },
  { spec: "workloads/pr.yaml", workflow: "perf-dispatch.yml", compare: true, profiles: [undefined] },
];

describe("every shipped spec fits the workflow it is shipped for", () => {
  for (const c of COMBOS)
    for (const profile of c.profiles)
      test(`${c.spec} × ${c.workflow}${profile ? ` × ${profile}` : ""}: estimated within the job's timeout (and the cloud ttl), nothing refused`, async () => {
        const loaded = await asRun(c.spec, c.compare);
        const plan = await planRun(loaded, {
          ...(profile ? { profile: join(ROOT, `infra/profiles/${profile}.yaml`) } : {}),
          cores: 2,
        });
        // a cloud profile's ttl and budget, and compare.budget, are refusals of the plan
        assert.deepEqual(plan.refusals, [], plan.text);
        const timeout = jobTimeoutS(c.workflow);
        assert.ok(
          plan.seconds <= timeout,
          `${c.spec}: estimated ${Math.round(plan.seconds / 60)} min > ${c.workflow}'s ${timeout / 60} min\n${plan.text.split("\n").find((l) => l.startsWith("estimated"))}`,
        );
        // a spec's own budget promises no more than its workflow gives
        const budget = loaded.variants?.compare.budget;
        if (budget !== undefined) assert.ok(budget <= timeout, `compare.budget ${budget}s > ${timeout}s`);
      });

  test("a comparison past its compare.budget is refused by plan, with the rounds that would fit", async () => {
    const text = readFileSync(join(ROOT, "workloads/pr.yaml"), "utf8").replace("budget: 30m", "budget: 10m");
    const plan = await planRun(parseSpec(`${text}\nvariants: {base: {}, head: {}}\n`, "pr.yaml"), {
      cores: 2,
    });
    assert.equal(plan.refusals.length, 1);
    assert.match(
      plan.refusals[0] ?? "",
      /^pr\.yaml: compare\.budget is 10 min but this comparison is estimated at ~2\d min \(2 min per round of 8 cells × 2 variants at once, 12 rounds with warmups\): at most \d rounds fit, fewer than one per block \(compare\.blocks 6\): lower compare\.blocks/,
    );
    assert.match(
      plan.text,
      /REFUSED \(tiperf would exit 2 before anything starts\): pr\.yaml: compare\.budget/,
    );
  });
});

describe("workloads/pr.yaml: the config PR check", () => {
  test("plans as a duet within 30 minutes on 2 cores, and states the smallest change each cell detects at 90% power, throughput and cost", async () => {
    const loaded = await asRun("workloads/pr.yaml", true);
    const plan = await planRun(loaded, { cores: 2 });
    assert.deepEqual(plan.refusals, [], plan.text);
    assert.equal(plan.loaded.variants?.compare.order, "duet");
    assert.ok(plan.seconds <= 30 * 60, `estimated ${Math.round(plan.seconds / 60)} min`);
    const line =
      plan.text.split("\n").find((l) => l.startsWith("smallest change detected at 90% power")) ?? "";
    for (const w of loaded.spec.workloads)
      for (const t of w.threads) {
        assert.match(line, new RegExp(`${w.name} threads=${t} tps −\\d+\\.\\d%`), line);
        assert.match(line, new RegExp(`${w.name} threads=${t} cpu_ms_per_op \\+\\d+\\.\\d%`), line);
        assert.match(line, new RegExp(`${w.name} threads=${t} handler_reads_per_op \\+\\d+\\.\\d%`), line);
      }
    assert.match(plan.text, /judged \(can fail the check\): cpu_ms_per_op, handler_reads_per_op/);
  });

  test("its compare.noise is no smaller than the A/A run of its own design (bench/cost/cost-aa-pr-duet.json)", async () => {
    const { spec } = await asRun("workloads/pr.yaml", true);
    const noise = spec.compare?.noise?.workloads ?? {};
    const bank = JSON.parse(readFileSync(join(ROOT, "bench/cost/cost-aa-pr-duet.json"), "utf8")) as {
      spec: string;
      cells: { workload: string; metrics: { metric: string; rounds_sd?: number }[] }[];
    };
    // the bank ran this matrix (its workloads and thread counts)
    const banked = parse(bank.spec) as { workloads: { name: string; threads: number[] }[] };
    assert.deepEqual(
      banked.workloads.map((w) => [w.name, w.threads]),
      spec.workloads.map((w) => [w.name, w.threads]),
    );
    const counters = JSON.parse(
      readFileSync(join(ROOT, "bench/counters/pr-aa-beside-ci-3511-bench.json"), "utf8"),
    ) as { runs: { noise_per_round?: Record<string, Record<string, number>> }[] };
    for (const w of spec.workloads) {
      const stated = noise[w.name];
      assert.ok(stated, `compare.noise.workloads.${w.name}`);
      const measured = (metric: string) =>
        Math.max(
          ...bank.cells
            .filter((c) => c.workload.startsWith(`${w.name} threads=`))
            .map((c) => c.metrics.find((m) => m.metric === metric)?.rounds_sd ?? 0),
        );
      // stated to 0.1%: no smaller than the noisier thread count measured, rounded
      const atLeast = (metric: string, value: number | undefined) =>
        assert.ok(
          value !== undefined && value >= Math.round(measured(metric) * 1000) / 1000 - 1e-9,
          `${w.name} ${metric}: stated ${value}, measured ${measured(metric)}`,
        );
      atLeast("tps", stated.rounds);
      for (const m of ["cpu_ms_per_op", "handler_reads_per_op", "p95_ms"])
        atLeast(m, stated.metrics?.[m]?.rounds);
      // the exact workload counters: the A/A of this design beside a full CI run (bench/counters)
      for (const [m, counter] of [
        ["statements_per_op", "mariadb:Questions"],
        ["rows_read_per_op", "mariadb:Rows_read"],
      ] as const) {
        const sd = counters.runs[0]?.noise_per_round?.[w.name]?.[counter];
        const value = stated.metrics?.[m]?.rounds;
        assert.ok(
          sd !== undefined && value !== undefined && value >= Math.round(sd * 1000) / 1000 - 1e-9,
          `${w.name} ${m}: stated ${value}, measured ${sd}`,
        );
      }
    }
  });
});

describe("workloads/tidb-source-pr.yaml: the TiDB source PR check", () => {
  test("plans as a duet within 30 minutes on 2 cores, and states the smallest change each cell detects at 90% power, throughput and cost", async () => {
    const loaded = await asRun("workloads/tidb-source-pr.yaml", true);
    const plan = await planRun(loaded, { cores: 2 });
    assert.deepEqual(plan.refusals, [], plan.text);
    assert.equal(plan.loaded.variants?.compare.order, "duet");
    assert.ok(plan.seconds <= 30 * 60, `estimated ${Math.round(plan.seconds / 60)} min`);
    const line =
      plan.text.split("\n").find((l) => l.startsWith("smallest change detected at 90% power")) ?? "";
    for (const w of loaded.spec.workloads) {
      assert.match(line, new RegExp(`${w.name} threads=4 tps −\\d+\\.\\d%`), line);
      // a cost metric's change is stated from its own noise, upwards (lower is better)
      assert.match(line, new RegExp(`${w.name} threads=4 cpu_ms_per_op \\+\\d+\\.\\d%`), line);
      assert.match(line, new RegExp(`${w.name} threads=4 alloc_kb_per_op \\+\\d+\\.\\d%`), line);
    }
    assert.match(
      plan.text,
      /cost per operation \(cpu_ms_per_op, alloc_kb_per_op, .*judged \(can fail the check\): cpu_ms_per_op, alloc_kb_per_op/,
    );
    // auto-analyze off through the system variable (the config key is ignored on a fresh store since
    // v6.1.0): no re-analysis of one server inside a measured run, and no deprecation warning
    assert.deepEqual((loaded.spec.target as { sql?: string[] }).sql, [
      "SET GLOBAL tidb_enable_auto_analyze = OFF",
    ]);
    assert.match(plan.text, /SELECT @@GLOBAL\.tidb_enable_auto_analyze .*must read OFF/);
    assert.doesNotMatch(plan.text, /deprecated/);
  });

  test("compare.noise of a workload the spec lacks is refused by name", async () => {
    const text = readFileSync(join(ROOT, "workloads/tidb-source-pr.yaml"), "utf8").replace(
      "      point_select:\n        rounds:",
      "      point_selec:\n        rounds:",
    );
    const plan = await planRun(parseSpec(`${text}\nvariants: {base: {}, head: {}}\n`, "src.yaml"), {
      cores: 2,
    });
    assert.match(
      plan.refusals.join("\n"),
      /src\.yaml: compare\.noise\.workloads\.point_selec: no workload of that name/,
    );
    assert.match(plan.text, /point_select threads=4 tps: no noise given/);
  });
});

describe("the smallest change a design detects, as the plan says it", () => {
  test("a rise past ten times is said to be beyond the design's reach, a fall as its figure", async () => {
    // pr.yaml's matrix cut to one cell, 3 blocks of 1 round, with the noise of a very noisy runner
    const text = readFileSync(join(ROOT, "workloads/pr.yaml"), "utf8");
    const spec = parse(text);
    spec.workloads = [{ ...spec.workloads[0], threads: [4] }];
    spec.compare = {
      ...spec.compare,
      rounds: 3,
      blocks: 3,
      noise: {
        measured: "a test's own figures",
        workloads: {
          point_select: {
            rounds: "25%",
            instances: "0%",
            metrics: { p95_ms: { rounds: "50%", instances: "0%" } },
          },
        },
      },
    };
    spec.variants = { base: {}, head: {} };
    const loaded = parseSpec(stringify(spec), "pr-noisy.yaml");
    const plan = await planRun(loaded, { cores: 2 });
    const line = plan.text.split("\n").find((l) => l.startsWith("smallest change detected at")) ?? "";
    assert.match(line, /point_select threads=4 p95_ms beyond ×10/, line);
    assert.match(line, /point_select threads=4 tps −\d+\.\d%/, line);
    assert.match(line, /point_select threads=4 handler_reads_per_op: no noise given/, line);
  });
});
