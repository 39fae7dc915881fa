import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { parse } from "yaml";
import { newRepo } from "../helpers/git.ts";
import { cli, leftovers } from "../helpers/real.ts";

describe("the pull request that adopts a spec", () => {
  test("spec absent at base: the check passes, measures head against itself, and gives the noise to commit", async () => {
    const before = leftovers();
    const { dir: repo, git } = newRepo("tiperf-adopt-");
    writeFileSync(join(repo, "README.md"), "a repository before tiperf\n");
    git("add", ".");
    git("commit", "-qm", "before");
    writeFileSync(
      join(repo, "pr.yaml"),
      `name: adopt
target: {kind: mariadb, config: {innodb_buffer_pool_size: 64M}, resources: {cpus: "0"}}
driver: {cpus: "1"}
data: {tables: 1, table_size: 1000}
workloads:
  - {name: ps, sysbench: oltp_point_select, threads: [2], duration: 1s, warmup: 0s, options: {rand-type: uniform}}
metrics: {tps: {tolerance: 5%}}
compare: {rounds: 3, blocks: 3, order: interleaved}
`,
    );
    git("add", "pr.yaml");
    git("commit", "-qm", "adopt tiperf");
    const out = join(repo, "out");
    const json = join(repo, "verdict.json");
    const run = cli(
      [
        "compare",
        "--spec",
        "pr.yaml",
        "--base-ref",
        "HEAD~1",
        "--head-ref",
        "HEAD",
        "--out",
        out,
        "--json",
        json,
      ],
      {},
      repo,
    );
    const { code } = await run.done;
    assert.equal(code, 0, run.stderr());
    const v = JSON.parse(readFileSync(json, "utf8"));
    assert.equal(v.verdict, "pass");
    assert.match(v.adoption.why, /pr\.yaml is new at HEAD \(absent at HEAD~1\)/);
    // the A/A ran: both sides on the head's target, every block measured
    assert.equal(v.cells.length, 1);
    assert.equal(v.cells[0].n, 3);
    assert.deepEqual(v.base.target.config, v.head.target.config);
    const ps = v.adoption.noise.workloads.ps;
    assert.match(ps.rounds, /^\d+\.\d%$/, JSON.stringify(ps));
    assert.match(
      v.adoption.detects.join("\n"),
      /smallest change detected at 90% power .*ps threads=2 tps −\d/,
    );
    const md = readFileSync(
      join(out, (await import("node:fs")).readdirSync(out)[0] as string, "verdict.md"),
      "utf8",
    );
    assert.match(md, /🆕 pr\.yaml is new at HEAD/);
    const block = /```yaml\n([\s\S]*?)```/.exec(md)?.[1] ?? "";
    assert.deepEqual(parse(block).compare.noise.workloads.ps, ps, "the comment's YAML is the noise measured");
    assert.equal(v.adoption.spec, "pr.yaml");
    assert.match(md, /merge this into pr\.yaml \(its `compare:` mapping gets `noise:`\)/);
    assert.match(parse(block).compare.noise.measured, /the pull request adopting this spec/);
    assert.deepEqual(leftovers(), before);
  });
});
