// test-lane: parallel (nothing asserted here rests on measured speed: scripts/run-tests.mjs)
// The weekly history and its change points, against MongoDB's reference implementation of
// E-divisive (the signal-processing-algorithms package from PyPI, installed by
// scripts/setup.sh --test) on the same series: the statistic at every split, and the change points.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { acceptedVerdict } from "../../action/src/commands/compare/verdict.ts";
import { rng } from "../../action/src/compare/stats.ts";
import { eDivisive, tStatistics } from "../../action/src/history/changepoints.ts";
import { bisectRange } from "../../action/src/history/check.ts";
import { acceptedMarker } from "../../action/src/report/accepted-marker.ts";
import type { Result } from "../../action/src/result/model.ts";
import { FakeGitHub } from "../helpers/github-server.ts";
import { cli, tempDir } from "../helpers/real.ts";
import { sampleResult } from "../helpers/sample.ts";
import { syntheticVerdict } from "../helpers/verdict.ts";

/** The reference: statistics at every split and the change points (numpy seeded, 199 permutations). */
function reference(series: number[]): { t: number[]; cps: number[] } {
  const program = `
import json, sys
import numpy as np
from signal_processing_algorithms.energy_statistics import energy_statistics as es
series = json.loads(sys.argv[1])
d = es._get_distance_matrix(es._get_valid_input(series))
t = es._calculate_t_stats(d)
np.random.seed(1)
cps = es.e_divisive(series, pvalue=0.05, permutations=199)
print(json.dumps({"t": [float(x) for x in t], "cps": sorted(int(c) for c in cps)}))
`;
  return JSON.parse(execFileSync("python3", ["-c", program, JSON.stringify(series)], { encoding: "utf8" }));
}

/** Weekly throughputs: N(level, 2%) from a seeded generator, the level stepping at `stepAt`. */
function weekly(seed: number, n: number, stepAt?: number, step = 0): number[] {
  const u = rng(seed);
  const g = () => Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
  return Array.from(
    { length: n },
    (_, i) => 1000 * (stepAt !== undefined && i >= stepAt ? 1 + step : 1) * (1 + 0.02 * g()),
  );
}

/** A complete run whose one cell measured `tps`. */
function resultWith(tps: number, week: number): Result {
  const r = sampleResult();
  const at = new Date(Date.UTC(2026, 0, 4 + 7 * week, 3)).toISOString();
  r.run_id = `${at.slice(0, 10).replace(/-/g, "")}T030000Z-t-${String(week).padStart(4, "0")}`;
  r.started_at = at;
  for (const c of r.cells) c.metrics.tps = { value: tps, unit: "tx/s", better: "higher" };
  return r;
}

/** 20 weekly runs added through the CLI, tps stepping −8% at run 13, each with a commit counted from `first`. */
async function historyOf20(first: number) {
  const dir = tempDir();
  const hist = join(dir, "history");
  const values = weekly(11, 20, 12, -0.08);
  const commits = values.map((_, i) => (first + i).toString(16).padStart(40, "0"));
  const runIds: string[] = [];
  for (const [i, v] of values.entries()) {
    const r = resultWith(v, i);
    runIds.push(r.run_id);
    const file = join(dir, `r${i}.json`);
    writeFileSync(file, JSON.stringify(r));
    const add = cli(["history", "add", file, "--dir", hist, "--commit", commits[i] as string]);
    assert.equal((await add.done).code, 0, add.stderr());
  }
  return { dir, hist, commits, runIds };
}

describe("history and change points", () => {
  test("the statistic at every split equals the reference's, on random series", () => {
    for (const seed of [1, 2, 3]) {
      const s = weekly(seed, 30, 15, -0.05);
      const ref = reference(s);
      const mine = tStatistics(s);
      assert.equal(mine.length, ref.t.length);
      for (let i = 0; i < mine.length; i++)
        assert.ok(
          Math.abs((mine[i] as number) - (ref.t[i] as number)) <
            1e-9 * Math.max(1, Math.abs(ref.t[i] as number)),
          `split ${i}`,
        );
    }
  });

  test("one injected step (−8% at run 13 of 24): found at that run, as the reference finds it; a flat series: none, as the reference", () => {
    const stepped = weekly(7, 24, 12, -0.08);
    assert.deepEqual(
      eDivisive(stepped).map((p) => p.index),
      [12],
    );
    assert.deepEqual(reference(stepped).cps, [12]);
    const flat = weekly(8, 24);
    assert.deepEqual(eDivisive(flat), []);
    assert.deepEqual(reference(flat).cps, []);
  });

  test("a level lasts at least --min-segment runs: a last run off its level alarms with 1, not with the default 3; a step does, at its index", async () => {
    const spiked = weekly(21, 20);
    spiked[19] = (spiked[19] as number) * 0.9;
    assert.deepEqual(
      eDivisive(spiked, { minSegment: 1 }).map((p) => p.index),
      [19],
      "the reference's behaviour: one run is a level",
    );
    assert.deepEqual(eDivisive(spiked, { minSegment: 3 }), []);
    const stepped = weekly(7, 24, 12, -0.08);
    assert.deepEqual(
      eDivisive(stepped, { minSegment: 3 }).map((p) => p.index),
      [12],
    );

    const dir = tempDir();
    const hist = join(dir, "history");
    const runIds: string[] = [];
    for (const [i, v] of spiked.entries()) {
      const r = resultWith(v, i);
      runIds.push(r.run_id);
      writeFileSync(join(dir, `r${i}.json`), JSON.stringify(r));
      const a = cli(["history", "add", join(dir, `r${i}.json`), "--dir", hist]);
      assert.equal((await a.done).code, 0, a.stderr());
    }
    const check = async (extra: string[]) => {
      const json = join(dir, `cp${extra.join("")}.json`);
      const c = cli([
        "history",
        "check",
        "--dir",
        hist,
        "--since",
        runIds[18] as string,
        "--json",
        json,
        ...extra,
      ]);
      const { code } = await c.done;
      const tps = JSON.parse(readFileSync(json, "utf8")).files[0].series.find(
        (s: { metric: string }) => s.metric === "tps",
      );
      return { code, out: c.stdout(), points: tps.points as { index: number; new: boolean }[] };
    };
    const strict = await check([]);
    assert.equal(strict.code, 0, strict.out);
    assert.deepEqual(strict.points, []);
    assert.match(strict.out, /levels of at least 3 runs/);
    const eager = await check(["--min-segment", "1"]);
    assert.equal(eager.code, 1, eager.out);
    assert.deepEqual(
      eager.points.map((p) => [p.index, p.new]),
      [[19, true]],
    );
    const bad = cli(["history", "check", "--dir", hist, "--min-segment", "0"]);
    assert.equal((await bad.done).code, 2);
    assert.match(bad.stderr(), /--min-segment must be a whole number of runs from 1 to 52 \(got "0"\)/);
  });

  test("tiperf history add/check: append-only files, the change point's run and commits, the report and page, the alarm's issue", async () => {
    const { dir, hist, commits, runIds } = await historyOf20(0xabc000);
    const file = join(hist, "local-mariadb", "t.jsonl");
    assert.equal(readFileSync(file, "utf8").trim().split("\n").length, 20);
    // the same run twice, or a run that did not finish: refused, nothing appended
    const again = cli(["history", "add", join(dir, "r3.json"), "--dir", hist]);
    assert.equal((await again.done).code, 2);
    assert.match(again.stderr(), /run \S+-0003 is already in the history/);
    const failed = { ...resultWith(900, 30), status: "failed" };
    writeFileSync(join(dir, "failed.json"), JSON.stringify(failed));
    const bad = cli(["history", "add", join(dir, "failed.json"), "--dir", hist]);
    assert.equal((await bad.done).code, 2);
    assert.match(bad.stderr(), /the run is failed: only complete runs go into a history/);
    assert.equal(readFileSync(file, "utf8").trim().split("\n").length, 20);

    const json = join(dir, "cp.json");
    const html = join(dir, "history.html");
    const check = cli([
      "history",
      "check",
      "--dir",
      hist,
      "--since",
      runIds[9] as string,
      "--json",
      json,
      "--html",
      html,
    ]);
    const { code } = await check.done;
    assert.equal(code, 1, `a new change point for the worse: exit 1\n${check.stdout()}${check.stderr()}`);
    assert.match(
      check.stdout(),
      new RegExp(
        `ps threads=2 tps: change point at run ${runIds[12]} \\(#13 of 20, commit ${(commits[12] as string).slice(0, 12)}\\): \\d+\\.?\\d* → \\d+\\.?\\d* \\(−\\d\\.\\d%, worse\\), p = 0\\.0\\d\\d \\[new\\]`,
      ),
    );
    const report = JSON.parse(readFileSync(json, "utf8"));
    const tps = report.files[0].series.find((s: { metric: string }) => s.metric === "tps");
    assert.deepEqual(
      tps.points.map((p: { index: number }) => p.index),
      [12],
    );
    assert.deepEqual(
      reference(tps.values).cps,
      [12],
      "the reference finds the same point on the stored series",
    );
    assert.ok(tps.points[0].change < -0.05 && tps.points[0].change > -0.11, String(tps.points[0].change));
    const page = readFileSync(html, "utf8");
    assert.match(page, new RegExp(`class="change-point" data-run="${runIds[12]}"`));

    // report.html of the latest run (a diff against the run before) with the spec's history in it
    const verdict = join(dir, "verdict.json");
    const diff = cli(["diff", join(dir, "r18.json"), join(dir, "r19.json"), "--json", verdict]);
    assert.equal((await diff.done).code, 0, diff.stderr());
    const withHistory = cli(["report", verdict, "--format", "html", "--history", json]);
    assert.equal((await withHistory.done).code, 0, withHistory.stderr());
    const reportPage = withHistory.stdout();
    assert.match(reportPage, /<h2 id="history">History and change points<\/h2>/);
    assert.match(reportPage, new RegExp(`class="change-point" data-run="${runIds[12]}"`));
    assert.match(reportPage, /data-series="ps\/2\/tps" data-change-points="1"/);
    const plain = cli(["report", verdict, "--format", "html"]);
    assert.equal((await plain.done).code, 0);
    assert.doesNotMatch(plain.stdout(), /id="history"/);
    const notReport = cli(["report", verdict, "--format", "html", "--history", verdict]);
    assert.equal((await notReport.done).code, 2);
    assert.match(notReport.stderr(), /--history .*verdict\.json is not a change-point report/);

    // the alarm: one issue naming the first bad run and the commits between
    const gh = await new FakeGitHub().start();
    try {
      const env = { GITHUB_TOKEN: "ghs_test", GITHUB_API_URL: gh.url };
      const alarm = cli(["alarm", json, "--repo", "pingcap/tidb"], env);
      assert.equal((await alarm.done).code, 0, alarm.stderr());
      assert.equal(gh.issues.length, 1);
      assert.equal(gh.issues[0]?.labels[0]?.name, "tiperf-change-point");
      assert.match(gh.issues[0]?.title ?? "", new RegExp(`from run ${runIds[12]}`));
      assert.match(gh.issues[0]?.body ?? "", new RegExp(`compare/${commits[11]}\\.\\.\\.${commits[12]}`));
      // nothing new since the change point: no issue, exit 0
      const later = join(dir, "cp-later.json");
      const quiet = cli([
        "history",
        "check",
        "--dir",
        hist,
        "--since",
        runIds[19] as string,
        "--json",
        later,
      ]);
      assert.equal((await quiet.done).code, 0);
      const none = cli(["alarm", later, "--repo", "pingcap/tidb"], env);
      assert.equal((await none.done).code, 0);
      assert.match(none.stdout(), /no new change point for the worse: no issue/);
      assert.equal(gh.issues.length, 1);
    } finally {
      await gh.stop();
    }

    // a damaged history names the file and line
    appendFileSync(file, "{not json\n");
    const broken = cli(["history", "check", "--dir", hist]);
    assert.equal((await broken.done).code, 2);
    assert.match(broken.stderr(), /t\.jsonl:21: not JSON/);
    assert.ok(existsSync(file));
  });

  test("history check --accepted-in: a change point a merged PR accepted is marked, not raised; an acceptance of an earlier push is not", async () => {
    const { dir, hist, commits, runIds } = await historyOf20(0xdef000);
    // between the weekly runs 11 and 12: a commit of its own, then PR #41's merge commit
    const between = "1234".repeat(10);
    const head = "5678".repeat(10);
    const accepted = (commit: string) =>
      acceptedMarker({
        ...acceptedVerdict(
          syntheticVerdict({ workloads: ["ps"], threads: [4], regressions: ["ps@4"] }),
          "lead-1",
        ),
        provenance: { head_sha: commit },
      }) as string;
    const gh = await new FakeGitHub().start();
    try {
      gh.mainline.push(...commits.slice(0, 12), between, ...commits.slice(12));
      gh.merged.set(commits[12] as string, { number: 41, head });
      const check = (out: string) =>
        cli(
          [
            "history",
            "check",
            "--dir",
            hist,
            "--since",
            runIds[9] as string,
            "--accepted-in",
            "pingcap/tidb",
            "--json",
            out,
          ],
          { GITHUB_TOKEN: "ghs_test", GITHUB_API_URL: gh.url },
        );
      // the comment accepted an earlier push of the PR (its metric is qps in the synthetic verdict: tps here)
      gh.seedComments(41, ["a comment of someone", accepted("9abc".repeat(10)).replace(/"qps"/g, '"tps"')]);
      const earlier = check(join(dir, "cp-earlier.json"));
      assert.equal((await earlier.done).code, 1, earlier.stderr());
      assert.doesNotMatch(earlier.stdout(), /accepted by/);
      // accepted on the head that was merged: marked, exit 0, nothing for the alarm or a bisect
      gh.seedComments(41, [accepted(head).replace(/"qps"/g, '"tps"')]);
      const json = join(dir, "cp.json");
      const run = check(json);
      assert.equal((await run.done).code, 0, run.stdout() + run.stderr());
      assert.match(
        run.stdout(),
        new RegExp(
          `ps threads=2 tps: change point at run ${runIds[12]} .* \\[new\\] \\[accepted by lead-1 in #41 at −12\\.0%\\]`,
        ),
      );
      assert.match(run.stderr(), /accepted by lead-1 in #41 \(perf-regression-expected\): not raised/);
      const report = JSON.parse(readFileSync(json, "utf8"));
      const point = report.files[0].series.find((x: { metric: string }) => x.metric === "tps").points[0];
      assert.deepEqual(point.accepted, { by: "lead-1", pr: 41, commit: head, change: -0.12 });
      const alarm = cli(["alarm", json, "--repo", "pingcap/tidb"], {
        GITHUB_TOKEN: "ghs_test",
        GITHUB_API_URL: gh.url,
      });
      assert.equal((await alarm.done).code, 0, alarm.stderr());
      assert.match(alarm.stdout(), /no new change point for the worse: no issue/);
      assert.equal(gh.issues.length, 0);
      assert.equal(bisectRange(report, report.files[0].spec), undefined);
      // the lookup: one compare of the run's commits, each commit's pull requests, PR #41's comments
      assert.ok(
        gh.log.some((l) => l.path.startsWith(`/repos/pingcap/tidb/compare/${commits[11]}...${commits[12]}`)),
      );
      // without a token: said, naming the flag
      const noToken = cli(["history", "check", "--dir", hist, "--accepted-in", "pingcap/tidb"], {
        GITHUB_TOKEN: "",
      });
      assert.equal((await noToken.done).code, 2);
      assert.match(noToken.stderr(), /history check --accepted-in: GITHUB_TOKEN is not set/);
    } finally {
      await gh.stop();
    }
  });
});
