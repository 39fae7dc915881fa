// test-lane: parallel (nothing asserted here rests on measured speed: scripts/run-tests.mjs)
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { ROOT } from "../helpers/paths.ts";
import { cli, leftovers, tempDir, writeSpec } from "../helpers/real.ts";

/** Kills tiperf itself (not its servers) mid-run, as a runner does to a cancelled job's step. */
async function orphanServer(ledger: string): Promise<{ serverPid: number; out: string }> {
  const dir = tempDir();
  const run = cli(
    ["run", "--spec", writeSpec(dir, { threads: [1, 2], duration: 30 }), "--out", join(dir, "r")],
    {
      TIPERF_LEDGER: ledger,
    },
  );
  const serverPid = Number((await run.waitFor(/MariaDB .* \(pid (\d+),/))[1]);
  await run.waitFor(/\[1\/2\] point_select threads=1/);
  run.child.kill("SIGKILL");
  await run.done;
  return { serverPid, out: join(dir, "r") };
}

/** After the sweep: the killed run's result says interrupted, and its server's logs were kept. */
function assertRunMarked(out: string): void {
  const runDir = join(out, readdirSync(out)[0] as string);
  const result = JSON.parse(readFileSync(join(runDir, "result.json"), "utf8"));
  assert.equal(result.status, "interrupted");
  assert.match(result.error, /ended without finishing this run .*marked interrupted by tiperf reap/);
  assert.ok(readdirSync(join(runDir, "server", "base")).includes("mariadb-error.log"), "server logs kept");
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("what a killed tiperf leaves behind is swept", () => {
  test("the action's post step stops the orphaned server and removes its data directory", async () => {
    const before = leftovers();
    const ledger = join(tempDir(), "ledger");
    const { serverPid, out } = await orphanServer(ledger);
    assert.ok(alive(serverPid), "the server outlived its tiperf process");
    assert.ok(leftovers().dirs.length > before.dirs.length);
    assert.deepEqual(
      readdirSync(ledger)
        .map((f) => f.split("-")[0])
        .sort(),
      ["run", "server"],
      "two ledger entries: the run and its server",
    );

    // The post step as the runner starts it: bundled dist, state passed as STATE_<name>.
    const post = spawnSync(process.execPath, [join(ROOT, "action/dist/post.js")], {
      env: { ...process.env, STATE_ledger: ledger },
      encoding: "utf8",
    });
    assert.equal(post.status, 0, post.stderr);
    assert.match(post.stdout, new RegExp(`reap: stopped MariaDB pid ${serverPid}`));
    assert.match(post.stdout, /post: cleaned up 2 leftover\(s\)/);
    assert.ok(!alive(serverPid));
    assertRunMarked(out);
    assert.deepEqual(leftovers(), before);
    assert.deepEqual(readdirSync(ledger), []);
  });

  test("tiperf reap: dry run lists, a real run removes; a live owner's young server is kept", async () => {
    const before = leftovers();
    const ledger = join(tempDir(), "ledger");
    const { serverPid, out } = await orphanServer(ledger);
    const dry = cli(["reap", "--dry-run", "--max-age", "3h", "--ledger", ledger]);
    assert.equal((await dry.done).code, 0);
    assert.match(
      dry.stderr(),
      new RegExp(`reap \\(dry run\\): would stop MariaDB pid ${serverPid} and remove .*owner \\d+ gone`),
    );
    assert.match(
      dry.stderr(),
      /reap \(dry run\): would mark .*result\.json interrupted if it is still running/,
    );
    assert.match(dry.stdout(), /would reap 2, kept 0/);
    assert.ok(alive(serverPid), "a dry run touches nothing");
    const real = cli(["reap", "--max-age", "3h", "--ledger", ledger]);
    assert.equal((await real.done).code, 0);
    assert.match(real.stdout(), /reaped 2, kept 0/);
    assert.ok(!alive(serverPid));
    assertRunMarked(out);
    assert.deepEqual(leftovers(), before);
    const bad = cli(["reap", "--max-age", "soon"]);
    assert.equal((await bad.done).code, 2);
    assert.match(bad.stderr(), /--max-age must be like 90m, 3h or 2d \(got soon\)/);
    assert.ok(existsSync(ledger));
  });
});
