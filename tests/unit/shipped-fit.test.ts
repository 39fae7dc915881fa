import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { parse } from "yaml";
import { samplesNeeded } from "../../action/src/compare/judge.ts";
import { planRun } from "../../action/src/pipeline/plan.ts";
import { loadSpec, parseSpec } from "../../action/src/specfile/load.ts";
import { ROOT } from "../helpers/paths.ts";

/** The job that runs tiperf in each workflow. */
const JOB: Record<string, string> = {
  "perf-pr.yml": "benchmark",
  "perf-dispatch.yml": "compare",
  "perf-weekly.yml": "weekly",
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
    const text = readFileSync(join(ROOT, "workloads/pr.yaml"), "utf8").replace("budget: 100m", "budget: 30m");
    const plan = await planRun(parseSpec(`${text}\nvariants: {base: {}, head: {}}\n`, "pr.yaml"), {
      cores: 2,
    });
    assert.equal(plan.refusals.length, 1);
    assert.match(
      plan.refusals[0] ?? "",
      /^pr\.yaml: compare\.budget is 30 min but this comparison is estimated at ~1h2\dm \(5 min per round of 12 cells × 2 variants at once, 16 rounds with warmups\): at most 5 rounds fit, fewer than one per block \(compare\.blocks 8\): lower compare\.blocks/,
    );
    assert.match(
      plan.text,
      /REFUSED \(tiperf run would exit 2 before anything starts\): pr\.yaml: compare\.budget/,
    );
  });

  test("pr.yaml's blocks detect its tolerance at the noise of the duet bank it was sized from", async () => {
    const { spec, variants } = await asRun("workloads/pr.yaml", true);
    const compare = variants?.compare;
    assert.ok(compare && compare.blocks > 1);
    const perBlock = compare.rounds / compare.blocks;
    // block means of log(head/base) over the bank's first `perBlock` rounds of each block
    const bank = JSON.parse(readFileSync(join(ROOT, "bench/duet-bank-cpu-bound.json"), "utf8")) as {
      order: string;
      blocks: { base: number; head: number }[][];
    };
    assert.equal(bank.order, "duet");
    const means = bank.blocks
      .filter((b) => b.length >= perBlock)
      .map((b) => b.slice(0, perBlock).reduce((s, r) => s + Math.log(r.head / r.base), 0) / perBlock);
    const mean = means.reduce((s, x) => s + x, 0) / means.length;
    const sd = Math.sqrt(means.reduce((s, x) => s + (x - mean) ** 2, 0) / (means.length - 1));
    // every cell × metric judged shares the familywise confidence
    const judgements = spec.workloads.reduce((n, w) => n + w.threads.length * Object.keys(w.judge).length, 0);
    const tolerance = Math.min(
      ...spec.workloads.flatMap((w) => Object.values(w.judge).map((j) => j.tolerance)),
    );
    const needed = samplesNeeded(
      // the noise of one block mean (se·√n), searched from 2 blocks up
      { estimate: 0, se: sd / Math.sqrt(2), n: 2, df: 1 },
      tolerance,
      (1 - compare.confidence) / judgements,
      "block-t",
    );
    assert.ok(
      needed !== undefined,
      `block sd ${(100 * sd).toFixed(1)}%: no block count detects ${tolerance}`,
    );
    assert.ok(
      needed <= compare.blocks,
      `pr.yaml has ${compare.blocks} blocks; the bank's block sd ${(100 * sd).toFixed(1)}% needs ${needed} (${judgements} judgements, tolerance ${100 * tolerance}%)`,
    );
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
