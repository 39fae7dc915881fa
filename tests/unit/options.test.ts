// A command's options are checked once, by one function per command, for the command line's flags
// and the Action's inputs alike: the same words refused the same way, each named in its door's
// terms, every refusal said at once.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { planRun } from "../../action/src/bench/plan.ts";
import { calibrateRequest } from "../../action/src/commands/calibrate/options.ts";
import { compareRequest } from "../../action/src/commands/compare/options.ts";
import { flagDoor, inputDoor } from "../../action/src/commands/door.ts";
import { runRequest } from "../../action/src/commands/run/options.ts";
import { InputError } from "../../action/src/errors.ts";
import { ROOT } from "../helpers/paths.ts";

const spec = join(ROOT, "workloads/pr.yaml");

/** The refusal an options function threw, one line per refused option. */
async function refusal(p: Promise<unknown>): Promise<string[]> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof InputError, String(e));
    return e.message.split("\n");
  }
  assert.fail("the options were taken");
}

describe("a command's options, checked once for both doors", () => {
  test("compare: a shard the spec's comparison cannot be cut into is refused in the door's words", async () => {
    const given: Record<string, string> = {
      spec,
      "base-config": join(ROOT, "docs/examples/small-buffer-pool.yaml"),
      "head-config": join(ROOT, "docs/examples/large-buffer-pool.yaml"),
      shard: "1/2",
    };
    const cli = await refusal(compareRequest(flagDoor("compare", given), { out: "results" }));
    assert.ok(
      cli.includes(
        `tiperf compare: --shard 1/2 needs --seed or compare.seed: every shard must run the one schedule the seed fixes (any integer, one for all the shards: a job before them can draw it)`,
      ),
      cli.join("\n"),
    );
    const action = await refusal(
      compareRequest(
        inputDoor("compare", (n) => given[n] ?? ""),
        { out: "r" },
      ),
    );
    assert.ok(
      action.some((l) => l.startsWith("'shard' input 1/2 needs 'seed' input or compare.seed:")),
      action.join("\n"),
    );
    assert.ok(
      action.every((l) => !/--\w/.test(l)),
      `no flag named to the Action: ${action.join("\n")}`,
    );
    // base and head one target: the shard measures nothing and leaves its part, whatever the design
    const same = { spec, "base-ref": "HEAD", "head-ref": "HEAD", shard: "1/2" };
    const nothing = await compareRequest(flagDoor("compare", same), { out: "results" });
    assert.ok(nothing.request.spec.same, "base and head resolve to one target");
    // seeded, with as many blocks as shards: taken
    const taken = await compareRequest(flagDoor("compare", { ...given, seed: "7", blocks: "3" }), {
      out: "results",
    });
    assert.deepEqual(taken.request.shard, { index: 1, of: 2 });
    // plan says what compare does: a shard of one target is not refused, one of a comparison is
    const half = { shard: { index: 1, of: 2 }, cores: 2 };
    assert.deepEqual((await planRun(nothing.request.spec, half)).refusals, []);
    assert.deepEqual((await planRun(nothing.request.spec, { shards: 4, cores: 2 })).refusals, []);
    const four = await planRun(taken.request.spec, { shard: { index: 1, of: 4 }, cores: 2 });
    assert.ok(
      four.refusals.some((r) => /compare\.blocks is 3, fewer than 4 shards/.test(r)),
      four.refusals.join("\n"),
    );
  });

  const bad = {
    spec,
    seed: "x",
    shard: "4/3",
    "accepted-by": "a b",
    "base-ref": "-x",
    "head-ref": "HEAD",
    tolerance: "5",
  };

  test("compare: every bad option refused at once, named as the flag or as the input", async () => {
    const cli = await refusal(compareRequest(flagDoor("compare", bad), { out: "results" }));
    const action = await refusal(
      compareRequest(
        inputDoor("compare", (n) => bad[n as keyof typeof bad] ?? ""),
        { out: "r" },
      ),
    );
    assert.equal(cli.length, 5, cli.join("\n"));
    assert.equal(action.length, cli.length, action.join("\n"));
    // the same rule: each line of one door is the other's with the option named in its terms
    const neutral = (lines: string[]) =>
      lines
        .map((l) => l.replace(/^tiperf compare: /, "").replace(/--([a-z-]+)|'([a-z-]+)' input/g, "<$1$2>"))
        .sort();
    assert.deepEqual(neutral(cli), neutral(action));
    assert.ok(cli.some((l) => /--seed must be a whole number from 0 to 2\^31−1 \(got "x"\)/.test(l)));
    assert.ok(action.some((l) => /'shard' input must be K\/N/.test(l)));
    assert.ok(action.some((l) => /'base-ref' input must be a git ref/.test(l)));
    assert.ok(cli.some((l) => /--accepted-by must be a GitHub login/.test(l)));
    assert.ok(cli.some((l) => /--tolerance must be a percentage/.test(l)));
  });

  test("run: a shard judged against a baseline and a --json without one, refused together", async () => {
    const lines = await refusal(
      runRequest(flagDoor("run", { spec, shard: "1/2", baseline: spec, json: "v.json" }), { out: "results" }),
    );
    assert.equal(lines.length, 1, lines.join("\n"));
    assert.match(
      lines[0] as string,
      /--shard runs a share of the matrix, which a baseline cannot judge alone/,
    );
    // a bad shard with a baseline: both said
    const bad = await refusal(
      runRequest(flagDoor("run", { spec, shard: "x", baseline: spec }), { out: "results" }),
    );
    assert.equal(bad.length, 2, bad.join("\n"));
    assert.match(bad[0] as string, /--shard.*\(got "x"\)/);
    assert.match(bad[1] as string, /which a baseline cannot judge alone/);
    const both = await refusal(runRequest(flagDoor("run", { json: "v.json" }), { out: "results" }));
    assert.deepEqual(both, [
      "tiperf run: --spec is required",
      "tiperf run: --json is the verdict of --baseline; give --baseline RESULT too",
    ]);
    const action = await refusal(
      runRequest(
        inputDoor("run", () => ""),
        { out: "r" },
      ),
    );
    assert.deepEqual(action, ["'spec' input is required in mode run"]);
  });

  test("compare.*: every bad sizing word at once, --budget too; a baseline not there is named by its flag", async () => {
    const lines = await refusal(
      compareRequest(flagDoor("compare", { spec, rounds: "0", blocks: "0", confidence: "2", budget: "x" }), {
        out: "results",
      }),
    );
    assert.equal(lines.length, 4, lines.join("\n"));
    // every line says who refused it, as the command line's first line does
    assert.ok(
      lines.every((l) => l.startsWith("tiperf compare: ")),
      lines.join("\n"),
    );
    // --budget named as the flag, not as the spec's compare.budget it overrides
    assert.ok(
      lines.includes(
        'tiperf compare: --budget must be a duration of at least a minute, like 90s, 20m or 2h (got "x")',
      ),
      lines.join("\n"),
    );
    assert.match(
      lines.join("\n"),
      /--rounds must be .*\ntiperf compare: --blocks must be .*\ntiperf compare: --confidence must be/,
    );
    const baseline = await refusal(
      runRequest(flagDoor("run", { spec, baseline: "no-such.json" }), { out: "results" }),
    );
    assert.deepEqual(baseline, [
      "tiperf run: --baseline: no file at no-such.json (paths are relative to the current directory)",
    ]);
  });

  test("calibrate: a missing spec, a --write that is a folder and an absent --from-result, at once", async () => {
    const lines = await refusal(
      calibrateRequest(flagDoor("calibrate", { write: ROOT, "from-result": "no-such/result.json" }), {
        out: "results",
      }),
    );
    assert.deepEqual(lines, [
      "tiperf calibrate: --spec is required",
      `tiperf calibrate: --write ${ROOT}: is a directory; give a file name`,
      "tiperf calibrate: --from-result: no file at no-such/result.json (paths are relative to the current directory)",
    ]);
    const r = await calibrateRequest(flagDoor("calibrate", { spec }), { out: "results" });
    assert.deepEqual(r, { spec, outDir: "results" });
  });

  test("good options give one request: the spec loaded, the shard and seed typed", async () => {
    const { request: r, json } = await compareRequest(
      flagDoor("compare", { spec, seed: "7", shard: "2/3", json: "v.json" }),
      { out: "results" },
    );
    assert.equal(r.spec.path, spec);
    assert.deepEqual([r.seed, r.shard, r.outDir], [7, { index: 2, of: 3 }, "results"]);
    // the --json copy is the door's to write: the request the command runs holds only its own
    assert.equal(json, "v.json");
    assert.equal("json" in r, false);
  });
});
