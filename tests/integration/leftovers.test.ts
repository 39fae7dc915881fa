import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { ROOT } from "../helpers/paths.ts";
import { cli, leftovers, tempDir, writeSpec } from "../helpers/real.ts";

/** Kills tiperf itself (not its servers) mid-run, as a runner does to a cancelled job's step. */
async function orphanServer(ledger: string): Promise<{ serverPid: number }> {
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
  return { serverPid };
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
    const { serverPid } = await orphanServer(ledger);
    assert.ok(alive(serverPid), "the server outlived its tiperf process");
    assert.ok(leftovers().dirs.length > before.dirs.length);
    assert.equal(readdirSync(ledger).length, 1, "one ledger entry: the server");

    // The post step as the runner starts it: bundled dist, state passed as STATE_<name>.
    const post = spawnSync(process.execPath, [join(ROOT, "action/dist/post.js")], {
      env: { ...process.env, STATE_ledger: ledger },
      encoding: "utf8",
    });
    assert.equal(post.status, 0, post.stderr);
    assert.match(post.stdout, new RegExp(`reap: stopped MariaDB pid ${serverPid}`));
    assert.match(post.stdout, /post: cleaned up 1 leftover\(s\)/);
    assert.ok(!alive(serverPid));
    assert.deepEqual(leftovers(), before);
    assert.deepEqual(readdirSync(ledger), []);
  });

  test("tiperf reap: dry run lists, a real run removes; a live owner's young server is kept", async () => {
    const before = leftovers();
    const ledger = join(tempDir(), "ledger");
    const { serverPid } = await orphanServer(ledger);
    const dry = cli(["reap", "--dry-run", "--max-age", "3h", "--ledger", ledger]);
    assert.equal((await dry.done).code, 0);
    assert.match(
      dry.stderr(),
      new RegExp(`reap \\(dry run\\): would stop MariaDB pid ${serverPid} and remove .*owner \\d+ gone`),
    );
    assert.match(dry.stdout(), /would reap 1, kept 0/);
    assert.ok(alive(serverPid), "a dry run touches nothing");
    const real = cli(["reap", "--max-age", "3h", "--ledger", ledger]);
    assert.equal((await real.done).code, 0);
    assert.match(real.stdout(), /reaped 1, kept 0/);
    assert.ok(!alive(serverPid));
    assert.deepEqual(leftovers(), before);
    const bad = cli(["reap", "--max-age", "soon"]);
    assert.equal((await bad.done).code, 2);
    assert.match(bad.stderr(), /--max-age must be like 90m, 3h or 2d \(got soon\)/);
    assert.ok(existsSync(ledger));
  });
});
