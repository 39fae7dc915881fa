import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { ROOT } from "../helpers/paths.ts";

const workflow = (run: string) => `name: t
on: push
jobs:
  one:
    runs-on: ubuntu-latest
    steps:
      - run: |
${run
  .split("\n")
  .map((l) => `          ${l}`)
  .join("\n")}
`;

function lint(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), "tiperf-lint-"));
  // actionlint finds the project by its git repository, as in a checkout
  spawnSync("git", ["init", "-q"], { cwd: dir });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return spawnSync(join(ROOT, "scripts/lint-workflows.sh"), [dir], { encoding: "utf8" });
}

describe("the workflows' lint can fail", () => {
  test("a shellcheck finding in a workflow's script fails it, in the product's workflows and in the examples", () => {
    const bad = workflow(
      'echo "a=1" >> "$GITHUB_OUTPUT"\necho "b=2" >> "$GITHUB_OUTPUT"\necho "c=3" >> "$GITHUB_OUTPUT"',
    );
    const good = workflow('{\n  echo "a=1"\n  echo "b=2"\n} >> "$GITHUB_OUTPUT"');
    const clean = lint({ ".github/workflows/ci.yml": good, "action/examples/x.yml": good });
    assert.equal(clean.status, 0, clean.stdout + clean.stderr);
    const first = lint({ ".github/workflows/ci.yml": bad, "action/examples/x.yml": good });
    assert.notEqual(first.status, 0);
    assert.match(first.stdout, /SC2129/);
    // the second command of the lint fails it too (an `a && b` under set -e did not)
    const second = lint({ ".github/workflows/ci.yml": good, "action/examples/x.yml": bad });
    assert.notEqual(second.status, 0, "a failing example fails the lint");
    assert.match(second.stdout, /x\.yml.*SC2129/);
  });

  test(".ci/run's test command runs the lint as a command of its own", () => {
    const script = readFileSync(join(ROOT, "scripts/test.sh"), "utf8");
    assert.match(script, /^set -euo pipefail$/m);
    assert.match(script, /^scripts\/lint-workflows\.sh$/m);
    assert.match(readFileSync(join(ROOT, ".ci/run"), "utf8"), /scripts\/test\.sh/);
  });
});
