import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { readInputs } from "../../action/src/action/inputs.ts";
import { planRun } from "../../action/src/bench/plan.ts";
import { COMMANDS } from "../../action/src/cli/commands.ts";
import { synopsis, synopsisLines, usageText } from "../../action/src/cli/help.ts";
import { prepareSpec } from "../../action/src/specfile/prepare.ts";
import { TIPERF_VERSION } from "../../action/src/version.ts";
import { ROOT } from "../helpers/paths.ts";
import { cli } from "../helpers/real.ts";
import { sampleResult } from "../helpers/sample.ts";

describe("the command table", () => {
  test("tiperf help prints the table, and the CLI block of docs/cli.md is the same text", async () => {
    const run = cli(["help"]);
    assert.equal((await run.done).code, 0);
    assert.equal(run.stdout(), `${usageText()}\n`);
    const readme = readFileSync(join(ROOT, "docs/cli.md"), "utf8");
    assert.ok(
      readme.includes(`\`\`\`\n${usageText()}\n\`\`\``),
      "docs/cli.md's CLI block is generated from the table",
    );
  });

  test("tiperf help COMMAND prints that command's synopsis, as COMMAND --help does; an unknown one is named", async () => {
    const help = cli(["help", "plan"]);
    assert.equal((await help.done).code, 0);
    const flag = cli(["plan", "--help"]);
    assert.equal((await flag.done).code, 0);
    assert.equal(help.stdout(), flag.stdout());
    assert.match(help.stdout(), /^tiperf plan --spec FILE/);
    // the synopsis wraps between flags, under the first one; the whole of it is still there
    const lines = help.stdout().split("\n");
    assert.ok(
      lines.every((l) => l.length <= 100),
      lines.filter((l) => l.length > 100).join("\n"),
    );
    const plan = COMMANDS.find((c) => c.name === "plan");
    assert.ok(plan);
    const said = lines.slice(0, synopsisLines(plan).length);
    assert.ok(
      said.length > 1 && said.slice(1).every((l) => l.startsWith(`${" ".repeat("tiperf plan ".length)}[--`)),
    );
    assert.equal(said.map((l) => l.trim()).join(" "), synopsis(plan));
    // what every command does, reflowed within 100 columns, a flag never parted from its value
    const table = usageText().split("\n");
    assert.deepEqual(
      table.filter((l) => l.length > 100),
      [],
    );
    // a flag that takes a value (in any command: --cloud aws) never ends a line
    const valued = new Set(
      COMMANDS.flatMap((c) =>
        Object.entries(c.flags)
          .filter(([, f]) => f.type === "string")
          .map(([k]) => k),
      ),
    );
    assert.deepEqual(
      table.filter((l) => valued.has(/(?:^|\s)\[?--([a-z-]+)$/.exec(l)?.[1] ?? "")),
      [],
      "a flag at a line's end, its value on the next",
    );
    assert.ok(help.stdout().length < usageText().length / 4, "not the whole table");
    const none = cli(["help", "nope"]);
    assert.equal((await none.done).code, 2);
    assert.match(none.stderr(), /tiperf help: no command nope; commands: run, compare/);
  });

  test("every flag the table documents is accepted, and no other", async () => {
    const run = cli(["run", "--variant", "x"]);
    assert.equal((await run.done).code, 2);
    const allowed = Object.keys(COMMANDS.find((c) => c.name === "run")?.flags ?? {})
      .map((k) => `--${k}`)
      .join(", ");
    assert.match(run.stderr(), new RegExp(`tiperf run: unknown flag --variant \\(allowed: ${allowed}\\)`));
    // the parser's own words never reach the user
    assert.doesNotMatch(run.stderr(), /positional|Unknown option/);
    const missing = cli(["run", "--spec"]);
    assert.equal((await missing.done).code, 2);
    assert.match(missing.stderr(), /tiperf run: --spec needs a value \(allowed: /);
    for (const c of COMMANDS)
      for (const k of Object.keys(c.flags)) assert.match(synopsis(c), new RegExp(`--${k}\\b`));
  });

  test("tiperf diff: a verdict given for a result is named as one, before any other word; a file against itself is warned of", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tiperf-cli-"));
    const result = join(dir, "result.json");
    writeFileSync(result, JSON.stringify(sampleResult()));
    const verdict = join(dir, "verdict.json");
    writeFileSync(verdict, JSON.stringify({ format: "tiperf.verdict", version: 1 }));
    const wrong = cli(["diff", verdict, verdict]);
    assert.equal((await wrong.done).code, 2);
    assert.equal(
      wrong.stderr(),
      `error: ${verdict}: a tiperf verdict, not a tiperf result (format "tiperf.verdict", must be "tiperf.result"): give ${result}, the run's result\n`,
    );
    // a run directory stands for its result.json: the same file, one variant against itself
    const same = cli(["diff", dir, result]);
    assert.equal((await same.done).code, 0, same.stderr());
    assert.match(
      same.stderr(),
      /warning: diff: .* are the same file and base is judged against itself: every change is zero by construction/,
    );
    // a compare run's base against its head, from its one result, is a judgement of its own
    const two = sampleResult();
    two.targets.push({ ...(two.targets[0] as (typeof two.targets)[number]), variant: "head" });
    two.cells.push(...two.cells.map((c) => ({ ...c, variant: "head" })));
    const both = join(dir, "both.json");
    writeFileSync(both, JSON.stringify(two));
    const own = cli(["diff", both, both]);
    assert.equal((await own.done).code, 0, own.stderr());
    assert.doesNotMatch(own.stderr(), /warning/);
    assert.match(own.stdout(), /head vs base/);
    // a variant the result does not have is refused, each side named, with the variants it has
    const typo = cli(["diff", both, result, "--base-variant", "haed", "--head-variant", "nope"]);
    assert.equal((await typo.done).code, 2);
    assert.equal(
      typo.stderr(),
      [
        `error: tiperf diff: --base-variant haed: not a variant of ${both} (its variants: base, head)`,
        `error: tiperf diff: --head-variant nope: not a variant of ${result} (its variants: base)`,
        "",
      ].join("\n"),
    );
  });

  test("tiperf --version prints the version and exits 0", async () => {
    const run = cli(["--version"]);
    assert.equal((await run.done).code, 0);
    assert.equal(run.stdout(), `tiperf ${TIPERF_VERSION}\n`);
  });

  test("--tolerance errors name the flag, not an Action input", async () => {
    const run = cli(["plan", "--spec", "workloads/smoke.yaml", "--tolerance", "nosuch=5%"]);
    assert.equal((await run.done).code, 2);
    assert.match(run.stderr(), /--tolerance: nosuch is not judged by workloads\/smoke\.yaml \(its metrics: /);
    assert.doesNotMatch(run.stderr(), /input/);
  });

  test("a run that cannot work is refused before anything starts: max_connections below the threads", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tiperf-cli-"));
    const spec = join(dir, "s.yaml");
    writeFileSync(
      spec,
      "name: s\ntarget: {kind: mariadb, config: {max_connections: 100}}\ndata: {tables: 1, table_size: 10}\nworkloads:\n  - {name: ps, sysbench: oltp_point_select, threads: [16, 2000], duration: 2s}\n",
    );
    const plan = cli(["plan", "--spec", spec]);
    assert.equal((await plan.done).code, 2);
    assert.match(
      plan.stdout(),
      /REFUSED .*s\.yaml: target\.config\.max_connections is 100, below the largest thread count 2000 \(\+1 for tiperf's own connection\).*raise it to at least 2001/,
    );
    const run = cli(["run", "--spec", spec, "--out", join(dir, "results")]);
    assert.equal((await run.done).code, 2);
    assert.match(run.stderr(), /max_connections is 100, below the largest thread count 2000/);
  });

  test("a mistyped flag is named with the near one; a refused run leaves no results directory", async () => {
    const typo = cli(["compare", "--spec", "workloads/smoke.yaml", "--rouns", "4"]);
    assert.equal((await typo.done).code, 2);
    assert.match(
      typo.stderr(),
      /tiperf compare: unknown flag --rouns \(did you mean --rounds\?\) \(allowed: --spec, /,
    );
    const dir = mkdtempSync(join(tmpdir(), "tiperf-refused-"));
    const spec = join(dir, "ab.yaml");
    writeFileSync(
      spec,
      "name: ab\ntarget: {kind: mariadb}\ndata: {tables: 1, table_size: 100}\nworkloads:\n  - {name: ps, sysbench: oltp_point_select, threads: [2], duration: 2s}\nvariants: {base: {}, head: {}}\n",
    );
    const out = join(dir, "results");
    // a comparison spread over 2 shards without a seed is refused by its plan, before anything starts
    const refused = cli(["compare", "--spec", spec, "--shard", "1/2", "--out", out]);
    assert.equal((await refused.done).code, 2, refused.stderr());
    assert.match(refused.stderr(), /--seed/);
    assert.equal(existsSync(out), false, "the refused run made its --out directory");
  });

  test("a required flag left out is named", async () => {
    const run = cli(["run"]);
    assert.equal((await run.done).code, 2);
    assert.match(run.stderr(), /tiperf run: --spec is required/);
    const half = cli(["compare", "--spec", "workloads/smoke.yaml", "--base-ref", "HEAD"]);
    assert.equal((await half.done).code, 2);
    assert.match(half.stderr(), /--base-ref and --head-ref go together/);
  });

  test("run --shard over more runners than cells: every shard refuses alike, before anything starts", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tiperf-shard-"));
    const spec = join(dir, "one.yaml");
    writeFileSync(
      spec,
      "name: one\ntarget: {kind: mariadb}\ndata: {tables: 1, table_size: 100}\nworkloads:\n  - {name: ps, sysbench: oltp_point_select, threads: [2], duration: 2s}\n",
    );
    for (const k of [1, 2]) {
      const run = cli(["run", "--spec", spec, "--out", join(dir, "results"), "--shard", `${k}/2`]);
      assert.equal((await run.done).code, 2, run.stderr());
      assert.match(
        run.stderr(),
        new RegExp(
          `--shard ${k}/2: the matrix of \\S+ has 1 cell\\(s\\), fewer than 2 shards: shard 2 would run none`,
        ),
      );
    }
  });

  test("composing a spec: what may not mix is refused in each door's words, every issue at once", async () => {
    // two refs take each side's whole spec from its ref: an overlay or a build beside them is refused
    const both = cli([
      "compare",
      "--spec",
      "workloads/smoke.yaml",
      "--base-ref",
      "HEAD",
      "--head-config",
      "x.yaml",
      "--base-version",
      "v8.5.0",
    ]);
    assert.equal((await both.done).code, 2);
    assert.match(
      both.stderr(),
      /tiperf compare: --base-ref\/--head-ref and --head-config exclude each other/,
    );
    assert.match(
      both.stderr(),
      /tiperf compare: --base-ref\/--head-ref and --base-version exclude each other/,
    );
    assert.match(both.stderr(), /--base-ref and --head-ref go together/);
    const inputs: Record<string, string> = {
      mode: "compare",
      spec: "workloads/smoke.yaml",
      "base-ref": "main",
      "head-ref": "HEAD",
      "base-config": "workloads/smoke.yaml",
    };
    assert.throws(
      () => readInputs((k) => inputs[k] ?? "", {}, {}),
      /'base-ref'\/'head-ref' inputs and 'base-config' input exclude each other/,
    );
  });
});

describe("builds given on the command line for a spec with variants of its own", () => {
  test("--base-binpath/--head-binpath go over the spec's base and head: the head still splits its tables", async () => {
    const loaded = await prepareSpec({
      spec: join(ROOT, "workloads/seeds/reduced/004-deployment-tuning.yaml"),
      baseBinpath: "/opt/old/tidb-server",
      baseVersion: "v8.5.0",
      headBinpath: "/opt/new/tidb-server",
      headVersion: "v9.0.0",
    });
    const target = (n: "base" | "head") => loaded.variants?.[n].spec.target as Record<string, unknown>;
    assert.deepEqual(
      [target("base").binpath, target("base").version, target("base").split],
      ["/opt/old/tidb-server", "v8.5.0", undefined],
    );
    assert.deepEqual(
      [target("head").binpath, target("head").version, target("head").split],
      ["/opt/new/tidb-server", "v9.0.0", { regions: 16 }],
    );
    // a spec without variants: the two sides are the spec's target with each build
    const plain = await prepareSpec({
      spec: join(ROOT, "workloads/seeds/reduced/000-cloud-sysbench.yaml"),
      headBinpath: "/opt/new/tidb-server",
      headVersion: "v9.0.0",
    });
    const sides = plain.variants;
    assert.ok(sides, "two sides");
    assert.equal((sides.head.spec.target as Record<string, unknown>).binpath, "/opt/new/tidb-server");
    assert.equal((sides.base.spec.target as Record<string, unknown>).binpath, undefined);
  });
});

describe("sizing a comparison from the command line or the Action, not the spec", () => {
  test("--rounds/--blocks/--confidence/--seed/--budget become compare.*; plan estimates with them and refuses past the budget", async () => {
    const loaded = await prepareSpec({
      spec: join(ROOT, "workloads/tidb-pr.yaml"),
      compare: { rounds: 2, confidence: 0.9, seed: 7, budget: "10m" },
    });
    const c = loaded.variants?.compare;
    assert.deepEqual([c?.rounds, c?.confidence, c?.seed, c?.budget], [2, 0.9, 7, 600]);
    const plan = await planRun(loaded, { cores: 2 });
    assert.match(plan.refusals.join("\n"), /compare\.budget is 10 min but this comparison is estimated at/);
    const flags = cli(["plan", "--spec", "workloads/tidb-pr.yaml", "--rounds", "2", "--budget", "10m"]);
    assert.equal((await flags.done).code, 2);
    assert.match(flags.stdout(), /REFUSED .*compare\.budget is 10 min .*3 rounds with warmups/);
  });

  test("a bad value names the flag or the input and what is allowed", async () => {
    const run = cli(["plan", "--spec", "workloads/tidb-pr.yaml", "--rounds", "1"]);
    assert.equal((await run.done).code, 2);
    assert.match(run.stderr(), /--rounds must be a whole number of rounds, at least 2 \(got "1"\)/);
    const inputs = {
      mode: "compare",
      spec: join(ROOT, "workloads/tidb-pr.yaml"),
      confidence: "95%",
    } as Record<string, string>;
    assert.throws(
      () => readInputs((k) => inputs[k] ?? "", {}, {}),
      /'confidence' input must be a confidence between 0\.5 and 1, like 0\.95 \(got "95%"\)/,
    );
    const ok = readInputs((k) => ({ ...inputs, confidence: "0.99", blocks: "3" })[k] ?? "", {}, {});
    assert.deepEqual(ok.compare, { blocks: 3, confidence: 0.99 });
  });
});

describe("flags in tiperf's words", () => {
  test("a value that starts with '-' is the flag's, judged by its own check; a flag that plans nothing is refused", async () => {
    const shard = cli(["compare", "--spec", "workloads/pr.yaml", "--shard", "-1/2"]);
    assert.equal((await shard.done).code, 2);
    assert.match(shard.stderr(), /tiperf compare: --shard must be K\/N, .* \(got "-1\/2"\)/);
    assert.doesNotMatch(shard.stderr(), /ambiguous/);
    const seed = cli(["compare", "--spec", "workloads/pr.yaml", "--seed", "-5"]);
    assert.equal((await seed.done).code, 2);
    assert.match(seed.stderr(), /--seed must be a whole number from 0 to 2\^31−1 \(got "-5"\)/);
    const plan = cli(["plan", "--spec", "workloads/pr.yaml", "--shards", "3", "--budget", "10m"]);
    assert.equal((await plan.done).code, 2);
    assert.match(
      plan.stderr(),
      /tiperf plan: --shards and --budget size a comparison, and workloads\/pr\.yaml plans none \(no variants\): add --base-ref REF --head-ref REF/,
    );
    const share = cli(["plan", "--spec", "workloads/pr.yaml", "--shard", "1/2"]);
    assert.equal((await share.done).code, 2);
    assert.match(share.stderr(), /--shard size.? a comparison, and workloads\/pr\.yaml plans none/);
    const both = cli(["plan", "--spec", "workloads/tidb-pr.yaml", "--shard", "1/2", "--shards", "2"]);
    assert.equal((await both.done).code, 2);
    assert.match(both.stderr(), /--shard K\/N plans one runner's share, --shards N every runner's: give one/);
    const none = cli(["plan", "--spec", "workloads/tidb-pr.yaml", "--look-of", "workloads/pr.yaml"]);
    assert.equal((await none.done).code, 2);
    assert.match(
      none.stderr(),
      /--look-of workloads\/pr\.yaml: not JSON: give the verdict\.json of `tiperf merge`/,
    );
    const one = cli(["plan", "--spec", "workloads/pr.yaml"]);
    assert.equal((await one.done).code, 0);
    assert.match(one.stderr(), /^workloads\/pr\.yaml as `tiperf run` runs it: one variant, no comparison/m);
    assert.match(one.stdout(), /^target: /, "stdout is the plan, as plan.txt");
  });
});

describe("plan says what it is of", () => {
  test("a working spec that differs from --head-ref's is named first; an unchanged spec says nothing to measure", async () => {
    const { newRepo } = await import("../helpers/git.ts");
    const { dir, git } = newRepo("tiperf-plan-");
    writeFileSync(join(dir, "w.yaml"), readFileSync(join(ROOT, "workloads/pr.yaml"), "utf8"));
    git("add", ".");
    git("commit", "-qm", "spec");
    const clean = cli(["plan", "--spec", "w.yaml", "--base-ref", "HEAD", "--head-ref", "HEAD"], {}, dir);
    assert.equal((await clean.done).code, 0, clean.stderr());
    assert.match(clean.stderr(), /^nothing to measure: w\.yaml is the same at HEAD and HEAD/m);
    writeFileSync(join(dir, "w.yaml"), `${readFileSync(join(dir, "w.yaml"), "utf8")}# an edit\n`);
    const edited = cli(["plan", "--spec", "w.yaml", "--base-ref", "HEAD", "--head-ref", "HEAD"], {}, dir);
    assert.equal((await edited.done).code, 0, edited.stderr());
    assert.match(
      edited.stderr(),
      /^note: w\.yaml differs from its text at HEAD: this plan reads the committed one/m,
    );
    // --head-ref an earlier commit: the working copy (an edit of HEAD's) is not said to differ from it
    git("commit", "-qam", "edit");
    const earlier = cli(
      ["plan", "--spec", "w.yaml", "--base-ref", "HEAD~1", "--head-ref", "HEAD~1"],
      {},
      dir,
    );
    assert.equal((await earlier.done).code, 0, earlier.stderr());
    assert.match(earlier.stderr(), /^nothing to measure: /m);
    assert.doesNotMatch(earlier.stderr(), /note: w\.yaml differs/);
  });
});
