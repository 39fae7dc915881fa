import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { COMMANDS, synopsis, usageText } from "../../action/src/commands.ts";
import { ROOT } from "../helpers/paths.ts";
import { cli } from "../helpers/real.ts";

describe("the command table", () => {
  test("tiperf help prints the table, and the README's CLI block is the same text", async () => {
    const run = cli(["help"]);
    assert.equal((await run.done).code, 0);
    assert.equal(run.stdout(), `${usageText()}\n`);
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    assert.ok(
      readme.includes(`\`\`\`\n${usageText()}\n\`\`\``),
      "README's CLI block is generated from the table",
    );
  });

  test("every flag the table documents is accepted, and no other", async () => {
    const run = cli(["run", "--variant", "x"]);
    assert.equal((await run.done).code, 2);
    const allowed = Object.keys(COMMANDS.find((c) => c.name === "run")?.flags ?? {})
      .map((k) => `--${k}`)
      .join(", ");
    assert.match(run.stderr(), new RegExp(`Unknown option '--variant'.*\\(allowed: ${allowed}\\)`));
    for (const c of COMMANDS)
      for (const k of Object.keys(c.flags)) assert.match(synopsis(c), new RegExp(`--${k}\\b`));
  });

  test("a required flag left out is named", async () => {
    const run = cli(["run"]);
    assert.equal((await run.done).code, 2);
    assert.match(run.stderr(), /tiperf run: --spec is required/);
    const half = cli(["compare", "--spec", "workloads/smoke.yaml", "--base-ref", "HEAD"]);
    assert.equal((await half.done).code, 2);
    assert.match(half.stderr(), /--base-ref and --head-ref go together/);
  });
});
