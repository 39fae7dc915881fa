// The PR workflows' concurrency rules read as GitHub reads them: a push to the PR cancels the
// running benchmark; a label other than the approval label joins no group (its run is skipped),
// so it cancels nothing. The expressions are evaluated with the event's values (the subset of
// GitHub's expression language these files use: contexts, ==, !=, &&, ||, format).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { parse } from "yaml";
import { ROOT } from "../helpers/paths.ts";

type Event = { action: string; label?: { name: string }; number: number; runId: number; fork?: boolean };

/** One `${{ … }}` expression's value for an event. */
function evaluate(expr: string, e: Event): unknown {
  const contexts: Record<string, unknown> = {
    "github.event.action": e.action,
    "github.event.label.name": e.label?.name ?? null,
    "github.event.pull_request.number": e.number,
    "github.run_id": e.runId,
    "github.repository": "o/r",
    "github.event.pull_request.head.repo.full_name": e.fork ? "fork/r" : "o/r",
  };
  const js = expr
    .replace(/github(\.[A-Za-z_]+)+/g, (m) => {
      assert.ok(m in contexts, `context ${m} not modelled`);
      return JSON.stringify(contexts[m]);
    })
    .replace(/!=/g, "!==")
    .replace(/([^!=])==/g, "$1===")
    .replace(/\bformat\(/g, "fmt(");
  const fmt = (f: string, ...args: unknown[]) => f.replace(/\{(\d+)\}/g, (_, i) => String(args[Number(i)]));
  return new Function("fmt", `return (${js});`)(fmt);
}

/** A string with `${{ … }}` parts, each replaced by its value. */
const interpolate = (text: string, e: Event) =>
  text.replace(/\$\{\{(.*?)\}\}/g, (_, expr: string) => String(evaluate(expr, e)));

const FILES = [
  ".github/workflows/perf-pr.yml",
  "action/examples/perf-pr.yml",
  "action/examples/tidb-source-pr.yml",
];

describe("PR workflows: which events cancel a running benchmark", () => {
  for (const file of FILES) {
    test(`${file}: a push cancels the running one; a label other than perf-approved cancels nothing`, () => {
      const wf = parse(readFileSync(join(ROOT, file), "utf8")) as {
        concurrency: { group: string; "cancel-in-progress": boolean };
        jobs: Record<string, { if?: string }>;
      };
      assert.equal(wf.concurrency["cancel-in-progress"], true);
      const group = (e: Event) => interpolate(wf.concurrency.group, e);
      const running = group({ action: "opened", number: 7, runId: 1 });
      assert.equal(
        group({ action: "synchronize", number: 7, runId: 2 }),
        running,
        "a new push joins and cancels",
      );
      assert.equal(
        group({ action: "labeled", label: { name: "perf-approved" }, number: 7, runId: 3 }),
        running,
      );
      const docs = { action: "labeled", label: { name: "documentation" }, number: 7, runId: 4 };
      assert.notEqual(group(docs), running, "another label joins a group of its own");
      assert.notEqual(group({ action: "opened", number: 8, runId: 5 }), running, "another PR has its own");
      // and that run is skipped: the benchmark job does not run for it
      const benchmark = Object.values(wf.jobs).find((j) => j.if?.includes("perf-approved"));
      assert.ok(benchmark?.if, "the benchmark job's if:");
      assert.equal(evaluate(benchmark.if, docs), false);
      assert.equal(evaluate(benchmark.if, { action: "synchronize", number: 7, runId: 6 }), true);
      assert.equal(evaluate(benchmark.if, { action: "synchronize", number: 7, runId: 6, fork: true }), false);
      // a fork's commit runs on a maintainer's label: perf-approved, or perf-regression-expected
      // (which also accepts its regression); no other label runs it
      for (const [name, runs] of [
        ["perf-approved", true],
        ["perf-regression-expected", true],
        ["documentation", false],
      ] as const)
        assert.equal(
          evaluate(benchmark.if, { action: "labeled", label: { name }, number: 7, runId: 8, fork: true }),
          runs,
          name,
        );
    });
  }
});
