// test-lane: parallel (nothing asserted here rests on measured speed: scripts/run-tests.mjs)
// `tiperf init` for each case: what it writes passes actionlint, its spec plans, its workflow is
// the shipped example the e2e tests run under act (tests/e2e/examples.test.ts starts its adopter
// repositories with init), and nothing is ever overwritten.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { parse } from "yaml";
import { ROOT } from "../helpers/paths.ts";
import { cli, tempDir } from "../helpers/real.ts";

const ACTIONLINT = join(ROOT, ".tools/bin/actionlint");

const CASES = [
  {
    flag: [],
    spec: "perf/pr.yaml",
    workflow: ".github/workflows/perf-pr.yml",
    example: "action/examples/perf-pr.yml",
    comment: true,
  },
  {
    flag: ["--tidb"],
    spec: ".github/tiperf/source-pr.yaml",
    workflow: ".github/workflows/tidb-source-pr.yml",
    example: "action/examples/tidb-source-pr.yml",
    comment: true,
    // the counting phase (the workflow's job count)
    more: ".github/tiperf/source-count.yaml",
  },
  {
    flag: ["--dispatch"],
    spec: "perf/dispatch.yaml",
    workflow: ".github/workflows/perf-dispatch.yml",
    example: "action/examples/perf-dispatch.yml",
    comment: false,
  },
];

describe("tiperf init", () => {
  for (const c of CASES)
    test(`init ${c.flag.join(" ") || "(the config/version PR check)"}: a spec that plans, a workflow that passes actionlint, next steps`, async () => {
      const repo = tempDir("tiperf-init-");
      const run = cli(["init", "--dir", repo, ...c.flag]);
      assert.equal((await run.done).code, 0, run.stderr());
      assert.match(run.stdout(), new RegExp(`^wrote .*${c.spec.replace(/\./g, "\\.")}`));
      // the next step is a command that runs as printed: the plan of the comparison the workflow runs
      const next = /\n {5}cd (\S+) && node (\S+) (plan --spec \S+ .*)\n/.exec(run.stdout());
      assert.ok(next, run.stdout());
      assert.equal(next[1], repo);
      // the PR checks end in one gate: the check to require
      assert.equal(/require the check `tiperf`/.test(run.stdout()), c.comment, run.stdout());
      assert.ok(existsSync(next[2] as string), `${next[2]} is the CLI`);
      // the workflow is the shipped example (run under act by the e2e tests)
      assert.equal(readFileSync(join(repo, c.workflow), "utf8"), readFileSync(join(ROOT, c.example), "utf8"));
      // actionlint as a repository runs it: from its root, with the runner label init declared
      execFileSync("git", ["init", "-q", repo]);
      assert.match(readFileSync(join(repo, ".github/actionlint.yaml"), "utf8"), /labels: \[tiperf\]/);
      execFileSync(ACTIONLINT, ["-color=false", c.workflow], { cwd: repo, encoding: "utf8" });
      // a PR check comes with the workflow that posts a fork PR's comment (workflow_run of it)
      const comment = ".github/workflows/perf-pr-comment.yml";
      assert.equal(existsSync(join(repo, comment)), c.comment);
      if (c.comment) {
        const text = readFileSync(join(repo, comment), "utf8");
        assert.equal(text, readFileSync(join(ROOT, "action/examples/perf-pr-comment.yml"), "utf8"));
        const name = parse(readFileSync(join(repo, c.workflow), "utf8")).name as string;
        assert.ok(parse(text).on.workflow_run.workflows.includes(name), `it follows ${name}`);
        execFileSync(ACTIONLINT, ["-color=false", comment], { cwd: repo, encoding: "utf8" });
      }
      // the spec names its schema (once), names a profile that was written too, and plans; what
      // its comments point to is where init put it
      const text = readFileSync(join(repo, c.spec), "utf8");
      assert.match(
        text.split("\n")[0] ?? "",
        /^# yaml-language-server: \$schema=https:\/\/\S+\/spec\.schema\.json$/,
      );
      assert.equal(text.match(/yaml-language-server/g)?.length, 1);
      for (const m of text.matchAll(/--spec ([^\s`]+)/g)) assert.equal(m[1], c.spec);
      for (const m of text.matchAll(/(?:^#|\s)((?:\.github|action|examples|workloads)\/[\w./-]+\.ya?ml)/gm))
        assert.ok(
          existsSync(join(repo, m[1] as string)) || m[1]?.startsWith("action/examples/"),
          `${c.spec} names ${m[1]}`,
        );
      const profile = parse(text).target.profile as string;
      assert.ok(existsSync(join(repo, profile)), `${profile} written beside the spec`);
      // the workflow's spec path is the one written
      assert.ok(
        readFileSync(join(repo, c.workflow), "utf8").includes(c.spec),
        `${c.workflow} names ${c.spec}`,
      );
      // planned from the repository's root, as the workflow runs it (a source check: at its commits)
      execFileSync("git", ["-C", repo, "add", "-A"]);
      execFileSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"]);
      const plan = cli((next[3] as string).split(" "), {}, repo);
      assert.equal((await plan.done).code, 0, plan.stderr());
      assert.match(plan.stdout(), /^estimated duration: ~\d+/m);
      // two variants, base and head
      assert.match(plan.stdout(), /variant base .*\n(.*\n)*.*variant head /);
      if (c.more) {
        // the workflow names it, and it plans as the workflow runs it: counting builds of both sides
        assert.ok(
          readFileSync(join(repo, c.workflow), "utf8").includes(c.more),
          `${c.workflow} names ${c.more}`,
        );
        const more = readFileSync(join(repo, c.more), "utf8");
        assert.equal(parse(more).target.profile, profile);
        for (const m of more.matchAll(/--spec ([^\s`]+)/g)) assert.equal(m[1], c.more);
        const counted = cli((next[3] as string).replace(c.spec, c.more).split(" "), {}, repo);
        assert.equal((await counted.done).code, 0, counted.stderr());
        assert.match(
          counted.stdout(),
          /TIPERF_COUNTERS_SOCKET=.* a counting build: its Go statements counted/,
        );
        // both refs HEAD: one tree, nothing to measure, said first (compare would pass in seconds)
        assert.match(
          counted.stderr(),
          /^nothing to measure: HEAD and its merge base [0-9a-f]{10} have the same tree/,
        );
        // how each side is built, on stderr (stdout is the plan.txt a run writes)
        assert.match(
          counted.stderr(),
          /build for variant head: commit [0-9a-f]{10} "init" of the tree \.: make server with GOFLAGS=-cover -covermode=atomic -coverpkg=<module>\/\.\.\. and tiperf_counting\.go in cmd\/tidb-server .*\(to be built\)/,
        );
      }
    });

  test("a file already there refuses the whole init, naming it; nothing is written or changed", async () => {
    const repo = tempDir("tiperf-init-");
    execFileSync("mkdir", ["-p", join(repo, "perf")]);
    writeFileSync(join(repo, "perf/pr.yaml"), "mine\n");
    const run = cli(["init", "--dir", repo]);
    assert.equal((await run.done).code, 2);
    assert.match(
      run.stderr(),
      new RegExp(
        `${join(repo, "perf/pr.yaml").replace(/\./g, "\\.")} already exists and differs from what init writes; init overwrites nothing`,
      ),
    );
    assert.equal(readFileSync(join(repo, "perf/pr.yaml"), "utf8"), "mine\n");
    assert.ok(!existsSync(join(repo, ".github")), "no other file written");
  });

  test("init then init --dispatch: the files already as init writes them are kept, the rest written; results/ ignored once", async () => {
    const repo = tempDir("tiperf-init-");
    writeFileSync(join(repo, ".gitignore"), "node_modules/");
    const first = cli(["init", "--dir", repo]);
    assert.equal((await first.done).code, 0, first.stderr());
    assert.equal(
      readFileSync(join(repo, ".gitignore"), "utf8"),
      "node_modules/\n# tiperf's run results (tiperf init)\nresults/\n",
    );
    const spec = readFileSync(join(repo, "perf/pr.yaml"), "utf8");
    const again = cli(["init", "--dispatch", "--dir", repo]);
    assert.equal((await again.done).code, 0, again.stderr());
    assert.match(again.stdout() + again.stderr(), /kept perf\/local\.yaml: already as init writes it/);
    assert.ok(existsSync(join(repo, ".github/workflows/perf-dispatch.yml")));
    assert.equal(readFileSync(join(repo, "perf/pr.yaml"), "utf8"), spec);
    assert.equal(
      readFileSync(join(repo, ".gitignore"), "utf8").match(/^results\/$/gm)?.length,
      1,
      "results/ once",
    );
  });

  test("--tidb with --dispatch, or a directory that is not there, is refused by name", async () => {
    const both = cli(["init", "--tidb", "--dispatch"]);
    assert.equal((await both.done).code, 2);
    assert.match(both.stderr(), /--tidb or --dispatch, not both/);
    const none = cli(["init", "--dir", "/nonexistent/tiperf-init"]);
    assert.equal((await none.done).code, 2);
    assert.match(none.stderr(), /--dir \/nonexistent\/tiperf-init: no such directory/);
  });
});
