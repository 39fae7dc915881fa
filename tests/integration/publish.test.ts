// test-lane: parallel (nothing asserted here rests on measured speed: scripts/run-tests.mjs)
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { freePort } from "../../action/src/proc/port.ts";
import { commentMarker } from "../../action/src/report/comment.ts";
import { FakeGitHub } from "../helpers/github-server.ts";
import { ROOT } from "../helpers/paths.ts";
import { cli, tempDir } from "../helpers/real.ts";
import { sampleResult } from "../helpers/sample.ts";
import { syntheticVerdict } from "../helpers/verdict.ts";

const TOKEN = "ghs_tiperfTestToken0123456789abcdef";

describe("tiperf comment against a GitHub API on 127.0.0.1", () => {
  const gh = new FakeGitHub();
  const dir = tempDir();
  const verdictFile = join(dir, "verdict.json");
  const summary = join(dir, "summary.md");
  before(async () => {
    await gh.start();
    writeFileSync(verdictFile, JSON.stringify(syntheticVerdict({ regressions: ["point_select@64"] })));
  });
  after(() => gh.stop());

  const comment = async (pr: number, extra: string[] = [], env: NodeJS.ProcessEnv = {}) => {
    const run = cli(["comment", verdictFile, "--repo", "pingcap/tidb", "--pr", String(pr), ...extra], {
      GITHUB_TOKEN: TOKEN,
      GITHUB_API_URL: gh.url,
      GITHUB_STEP_SUMMARY: summary,
      ...env,
    });
    const { code } = await run.done;
    return { code, out: run.stdout(), err: run.stderr() };
  };

  test("first call creates the comment, the second updates the same one", async () => {
    gh.seedComments(7, ["an unrelated comment", "another one"]);
    const first = await comment(7);
    assert.equal(first.code, 0, first.err);
    const list = gh.comments.get(7) ?? [];
    assert.equal(list.length, 3);
    const mine = list[2];
    assert.ok(mine?.body.includes(commentMarker("pr")));
    assert.match(mine?.body ?? "", /^🔴 \*\*tiperf pr: regression\*\*/);
    assert.equal(first.out.trim(), `created ${mine?.id}`);
    assert.match(first.err, /comment: created .*\/comment\/\d+ on pingcap\/tidb#7/);

    if (mine) mine.body = `${commentMarker("pr")}\nstale`;
    const second = await comment(7);
    assert.equal(second.code, 0, second.err);
    assert.equal((gh.comments.get(7) ?? []).length, 3, "no second comment");
    assert.equal(second.out.trim(), `updated ${mine?.id}`);
    assert.match(mine?.body ?? "", /^🔴 \*\*tiperf pr: regression\*\*/);
    assert.ok(gh.log.some((l) => l.method === "PATCH" && l.path.endsWith(`/issues/comments/${mine?.id}`)));
  });

  test("nothing measured: no comment created where tiperf never spoke; an earlier one is updated to say so", async () => {
    const nothing = join(dir, "nothing.json");
    writeFileSync(
      nothing,
      JSON.stringify({
        ...syntheticVerdict(),
        cells: [],
        same_target: "perf/pr.yaml is the same at a and b",
      }),
    );
    const quiet = cli(["comment", nothing, "--repo", "pingcap/tidb", "--pr", "31"], {
      GITHUB_TOKEN: TOKEN,
      GITHUB_API_URL: gh.url,
      GITHUB_STEP_SUMMARY: summary,
    });
    assert.equal((await quiet.done).code, 0, quiet.stderr());
    assert.equal(gh.comments.get(31), undefined, "no comment on a PR tiperf never commented on");
    assert.match(
      quiet.stderr(),
      /comment: skipped — nothing measured and no earlier tiperf comment on pingcap\/tidb#31/,
    );
    assert.match(readFileSync(summary, "utf8"), /nothing to measure: perf\/pr\.yaml is the same at a and b/);
    gh.seedComments(32, [`${commentMarker("pr")}\nan earlier verdict`]);
    const update = cli(["comment", nothing, "--repo", "pingcap/tidb", "--pr", "32"], {
      GITHUB_TOKEN: TOKEN,
      GITHUB_API_URL: gh.url,
      GITHUB_STEP_SUMMARY: summary,
    });
    assert.equal((await update.done).code, 0, update.stderr());
    assert.equal(gh.comments.get(32)?.length, 1);
    assert.match(gh.comments.get(32)?.[0]?.body ?? "", /^⚪ \*\*tiperf pr: pass\*\* · nothing to measure/);
  });

  test("another matrix gets its own comment on the same PR", async () => {
    const r = await comment(7, ["--matrix", "weekly"]);
    assert.equal(r.code, 0, r.err);
    const list = gh.comments.get(7) ?? [];
    assert.equal(list.length, 4);
    assert.ok(list[3]?.body.includes(commentMarker("weekly")));
  });

  test("the marker is found past the first page of comments", async () => {
    gh.seedComments(
      8,
      Array.from({ length: 130 }, (_, i) => `chatter ${i}`),
    );
    gh.seedComments(8, [`old report\n${commentMarker("pr")}`]);
    gh.seedComments(8, ["after it"]);
    const r = await comment(8);
    assert.equal(r.code, 0, r.err);
    const list = gh.comments.get(8) ?? [];
    assert.equal(list.length, 132);
    assert.match(list[130]?.body ?? "", /tiperf pr: regression/);
    assert.ok(gh.log.some((l) => l.path.includes("/issues/8/comments") && l.path.includes("page=2")));
  });

  test("5xx answers are retried", async () => {
    const before = gh.log.length;
    gh.faults = [502, 503];
    const r = await comment(9);
    assert.equal(r.code, 0, r.err);
    const seen = gh.log.slice(before).map((l) => l.status);
    assert.deepEqual(seen.slice(0, 3), [502, 503, 200]);
    assert.equal((gh.comments.get(9) ?? []).length, 1);
  });

  test("an API that accepts and never answers: the per-request timeout and the deadline end it, saying so", async () => {
    gh.hang = true;
    const before = gh.log.length;
    const started = Date.now();
    try {
      const r = await comment(10, ["--timeout", "1s", "--deadline", "6s"]);
      const seconds = (Date.now() - started) / 1000;
      assert.equal(r.code, 3, r.err);
      assert.ok(seconds < 20, `gave up after ${seconds}s, not after undici's 300 s`);
      const attempts = gh.log.length - before;
      assert.ok(attempts >= 2, `retried (${attempts} requests seen)`);
      assert.match(
        r.err,
        new RegExp(
          `error: cannot comment on pingcap/tidb#10: no answer from ${gh.url.replace(/\./g, "\\.")} — \\d+ attempt\\(s\\) in \\d+s, last cause: .*(no answer within 1s|deadline)`,
        ),
      );
      assert.doesNotMatch(r.err, /GitHub answered/);
      assert.doesNotMatch(r.err, /^\s+at /m, "one line, no stack trace");
    } finally {
      gh.hang = false;
    }
  });

  test("nothing listening (ECONNREFUSED) or a port fetch refuses: network errors, not 'GitHub answered 500'", async () => {
    const closed = await freePort();
    const r = await comment(11, ["--timeout", "2s", "--deadline", "4s"], {
      GITHUB_API_URL: `http://127.0.0.1:${closed}`,
    });
    assert.equal(r.code, 3, r.err);
    assert.match(
      r.err,
      new RegExp(
        `no answer from http://127\\.0\\.0\\.1:${closed} — \\d+ attempt\\(s\\) in \\d+s, last cause: .*ECONNREFUSED`,
      ),
    );
    const port1 = await comment(11, ["--deadline", "2s"], { GITHUB_API_URL: "http://127.0.0.1:1" });
    assert.equal(port1.code, 3, port1.err);
    assert.match(port1.err, /no answer from http:\/\/127\.0\.0\.1:1 — .*last cause: .*bad port/);
    for (const out of [r.err, port1.err]) assert.doesNotMatch(out, /answered 500/);
    const bad = await comment(11, ["--timeout", "soon"]);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--timeout must be a duration like 500ms, 30s or 3m \(got soon\)/);
  });

  test("403 (read-only token) is a clear log line and exit 0; the job summary still has the verdict", async () => {
    writeFileSync(summary, "");
    gh.readOnly = true;
    try {
      const r = await comment(10);
      assert.equal(r.code, 0, r.err);
      assert.match(
        r.err,
        /comment: skipped — GitHub refused to comment on pingcap\/tidb#10 \(403: Resource not accessible by integration\)\. The token is read-only here/,
      );
      assert.equal(r.out.trim(), "skipped");
      assert.equal(gh.comments.get(10), undefined);
    } finally {
      gh.readOnly = false;
    }
    assert.match(readFileSync(summary, "utf8"), /^🔴 \*\*tiperf pr: regression\*\*/);
  });

  /** The action's publish step as Actions runs it (inputs as INPUT_* variables), on a verdict handed over in a file. */
  const handedOver = async (verdict: object, headSha: string) => {
    const file = join(dir, `handed-over-${headSha.slice(0, 6)}.json`);
    writeFileSync(file, JSON.stringify(verdict));
    const inputs = {
      INPUT_MODE: "publish",
      "INPUT_VERDICT-FILE": file,
      "INPUT_HEAD-SHA": headSha,
      "INPUT_GITHUB-TOKEN": TOKEN,
      INPUT_COMMENT: "true",
      "INPUT_FAIL-ON": "never",
      GITHUB_REPOSITORY: "pingcap/tidb",
      GITHUB_API_URL: gh.url,
      GITHUB_STEP_SUMMARY: summary,
    };
    const run = cli([], inputs, ROOT, join(ROOT, "action/src/action/main.ts"));
    const { code } = await run.done;
    return { code, out: run.stdout() + run.stderr() };
  };

  test("a verdict handed over by a fork PR's run (workflow_run): posted only on the PR that has its commit", async () => {
    const [a, b, c] = ["a", "b", "c"].map((x) => x.repeat(40)) as [string, string, string];
    const of = (pr: number, head: string) => ({
      ...syntheticVerdict({ regressions: ["point_select@64"] }),
      provenance: { head_sha: head, pr },
    });
    // the PR's head is the run's commit: posted
    gh.commits.set(21, [a]);
    const posted = await handedOver(of(21, a), a);
    assert.equal(posted.code, 0, posted.out);
    assert.match(posted.out, /comment: aaaaaaaaaaaa is the head of pingcap\/tidb#21/);
    assert.match(gh.comments.get(21)?.[0]?.body ?? "", /^🔴 \*\*tiperf pr: regression\*\*/);
    // pushed over since the run: still its commit, posted, said so
    gh.commits.set(22, [a, c]);
    const earlier = await handedOver(of(22, a), a);
    assert.equal(earlier.code, 0, earlier.out);
    assert.match(earlier.out, /is an earlier commit of pingcap\/tidb#22 \(pushed over since\)/);
    assert.equal(gh.comments.get(22)?.length, 1);
    // a verdict naming another PR (a PR's code could write the artifact): refused, nothing posted
    gh.commits.set(23, [b]);
    const forged = await handedOver(of(23, a), a);
    assert.notEqual(forged.code, 0);
    assert.match(forged.out, new RegExp(`not posted: ${a} is no commit of pingcap/tidb#23`));
    assert.equal(gh.comments.get(23), undefined);
    // a verdict of another commit than the workflow run's: refused before GitHub is asked
    const other = await handedOver(of(21, b), a);
    assert.notEqual(other.code, 0);
    assert.match(other.out, new RegExp(`is of head ${b}, not of ${a} \\('head-sha' input\\): not posted`));
    assert.equal(gh.comments.get(21)?.length, 1);
    // the token only in the line that asks the runner to mask it
    for (const r of [posted, forged])
      assert.ok(!r.out.replace(`::add-mask::${TOKEN}`, "").includes(TOKEN), "the token is not logged");
  });

  test("the token goes only into the Authorization header: never printed, never in the comment", async () => {
    const r = await comment(11);
    assert.equal(r.code, 0);
    assert.ok(gh.log.some((l) => l.authorization === `token ${TOKEN}`));
    const seen = [
      r.out,
      r.err,
      readFileSync(summary, "utf8"),
      ...[...gh.comments.values()].flat().map((c) => c.body),
    ];
    for (const text of seen) assert.ok(!text.includes(TOKEN));
  });

  test("alarm opens one issue per label and updates it while open; pull-request opens a PR", async () => {
    const env = { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: gh.url };
    const first = cli(["alarm", verdictFile, "--repo", "pingcap/tidb"], env);
    assert.equal((await first.done).code, 0, first.stderr());
    assert.match(first.stdout(), /^created \d+/);
    const again = cli(["alarm", verdictFile, "--repo", "pingcap/tidb"], env);
    assert.equal((await again.done).code, 0, again.stderr());
    assert.match(again.stdout(), /^updated \d+/);
    assert.equal(gh.issues.length, 1);
    assert.equal(gh.issues[0]?.labels[0]?.name, "tiperf-regression");
    assert.match(gh.issues[0]?.body ?? "", /^🔴 \*\*tiperf pr: regression\*\*/);
    const body = join(dir, "pr.md");
    writeFileSync(body, "baselines refreshed");
    const pr = cli(
      [
        "pull-request",
        "--repo",
        "pingcap/tidb",
        "--head",
        "tiperf/baselines",
        "--base",
        "main",
        "--title",
        "Refresh baselines",
        "--body-file",
        body,
      ],
      env,
    );
    assert.equal((await pr.done).code, 0, pr.stderr());
    assert.deepEqual(
      gh.pulls.map((p) => [p.head, p.base, p.title, p.body]),
      [["tiperf/baselines", "main", "Refresh baselines", "baselines refreshed"]],
    );
  });

  test("bad input names the flag or variable and what is allowed", async () => {
    const noToken = await comment(12, [], { GITHUB_TOKEN: "" });
    assert.equal(noToken.code, 2);
    assert.match(noToken.err, /GITHUB_TOKEN is not set/);
    const badRepo = cli(["comment", verdictFile, "--repo", "pingcap", "--pr", "1"], { GITHUB_TOKEN: TOKEN });
    assert.equal((await badRepo.done).code, 2);
    assert.match(badRepo.stderr(), /--repo must be OWNER\/REPO, like pingcap\/tidb \(got "pingcap"\)/);
    const badPr = cli(["comment", verdictFile, "--repo", "a/b", "--pr", "x1"], { GITHUB_TOKEN: TOKEN });
    assert.equal((await badPr.done).code, 2);
    assert.match(badPr.stderr(), /--pr must be a pull request number/);
    const badUrl = await comment(12, [], { GITHUB_API_URL: "ftp://x" });
    assert.equal(badUrl.code, 2);
    assert.match(badUrl.err, /GITHUB_API_URL must be an http\(s\) URL/);
    const notVerdict = join(dir, "not-verdict.json");
    writeFileSync(notVerdict, "{}");
    const r = cli(["comment", notVerdict, "--repo", "a/b", "--pr", "1"], { GITHUB_TOKEN: TOKEN });
    assert.equal((await r.done).code, 2);
    assert.match(r.stderr(), /not-verdict\.json: not a tiperf verdict \(format must be "tiperf\.verdict"\)/);
  });
});

describe("tiperf report and export", () => {
  test("report --format markdown|html writes the files; a bad format is named", async () => {
    const dir = tempDir();
    const v = join(dir, "verdict.json");
    writeFileSync(v, JSON.stringify(syntheticVerdict()));
    const md = cli(["report", v, "--format", "markdown"]);
    assert.equal((await md.done).code, 0, md.stderr());
    assert.match(md.stdout(), /^⚪ \*\*tiperf pr: pass\*\*/);
    const html = cli(["report", v, "--format", "html", "--out", join(dir, "out", "report.html")]);
    assert.equal((await html.done).code, 0, html.stderr());
    assert.match(readFileSync(join(dir, "out", "report.html"), "utf8"), /<svg/);
    assert.ok(readFileSync(join(dir, "out", "charts", "read_write-qps.png")).length > 1000);
    const bad = cli(["report", v, "--format", "pdf"]);
    assert.equal((await bad.done).code, 2);
    assert.match(bad.stderr(), /--format must be markdown or html \(got pdf\)/);
  });
});

test("export gab writes github-action-benchmark's custom JSON; --better is checked", async () => {
  const dir = tempDir();
  const result = join(dir, "result.json");
  const r = sampleResult();
  writeFileSync(result, JSON.stringify(r));
  const out = join(dir, "gab.json");
  const run = cli(["export", "gab", result, "--out", out]);
  assert.equal((await run.done).code, 0, run.stderr());
  const entries = JSON.parse(readFileSync(out, "utf8"));
  assert.deepEqual(Object.keys(entries[0]).sort(), ["extra", "name", "range", "unit", "value"]);
  assert.equal(entries[1].name, "t/ps/threads=2/QPS");
  assert.equal(entries[1].value, Number(r.cells[0]?.metrics.qps?.value.toPrecision(6)));
  const lower = cli(["export", "gab", result, "--out", out, "--better", "lower"]);
  assert.equal((await lower.done).code, 0);
  assert.match(lower.stderr(), /1 customSmallerIsBetter entries/);
  const bad = cli(["export", "gab", result, "--out", out, "--better", "faster"]);
  assert.equal((await bad.done).code, 2);
  assert.match(bad.stderr(), /--better must be higher .* or lower .*\(got faster\)/);
});
