// test-lane: parallel (nothing asserted here rests on measured speed: scripts/run-tests.mjs)
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { describe, test } from "node:test";
import { teardownAll } from "../../action/src/lifecycle/teardown.ts";
import { runCommand } from "../../action/src/proc/process.ts";
import { startTarget } from "../../action/src/targets/registry.ts";
import { createDatabaseSql } from "../../action/src/targets/tables.ts";
import { leftovers, tempDir } from "../helpers/real.ts";

const log = () => {};

describe("private local targets", () => {
  test("MariaDB starts on 127.0.0.1 with the spec's config, and stops leaving nothing", async () => {
    const before = leftovers();
    const target = await startTarget(
      { kind: "mariadb", config: { innodb_buffer_pool_size: "64M", max_connections: 77 } },
      { maxConnections: 10, logDir: tempDir(), log },
    );
    try {
      assert.match(target.version, /MariaDB/);
      assert.equal(target.effectiveConfig.innodb_buffer_pool_size, String(64 * 2 ** 20));
      assert.equal(
        target.effectiveConfig.max_connections,
        "77",
        "the spec's setting wins over tiperf's default",
      );
      await target.createDatabase("sbtest", createDatabaseSql("sbtest"));
      await target.createDatabase("sbtest", createDatabaseSql("sbtest")); // a driver may ask twice
      const r = await runCommand("mariadb", [
        "--no-defaults",
        "-h",
        "127.0.0.1",
        "-P",
        String(target.connection.endpoints[0]?.port),
        "-uroot",
        "-N",
        "-e",
        "SHOW DATABASES LIKE 'sbtest'",
      ]);
      assert.equal(r.stdout.trim(), "sbtest");
      process.kill(target.pids[0] as number, 0);
    } finally {
      await target.stop();
    }
    assert.throws(() => process.kill(target.pids[0] as number, 0), "server process is gone");
    assert.deepEqual(leftovers(), before);
  });

  test("PostgreSQL runs as the postgres user when tiperf is root, with the spec's config", async () => {
    const before = leftovers();
    const target = await startTarget(
      { kind: "postgres", config: { shared_buffers: "32MB", synchronous_commit: false } },
      { maxConnections: 10, logDir: tempDir(), log },
    );
    try {
      assert.match(target.version, /^\d+\.\d+/);
      assert.equal(target.effectiveConfig.shared_buffers, "32MB");
      assert.equal(target.effectiveConfig.synchronous_commit, "off");
      if (process.getuid?.() === 0) {
        const r = await runCommand("ps", ["-o", "user=", "-p", String(target.pids[0] as number)]);
        assert.equal(r.stdout.trim(), "postgres");
      }
    } finally {
      await target.stop();
    }
    assert.deepEqual(leftovers(), before);
  });

  test("a setting the server refuses: named, in the server's own words, logs kept where the message says", async () => {
    const before = leftovers();
    const cases = [
      // unknown option: MariaDB says so in its error log
      ["mariadb", { no_such_setting: 1 }, /no_such_setting/],
      // refused before the error log is open: the words are only on the server's stderr
      ["mariadb", { max_connections: "-5" }, /Incorrect unsigned value: '-5' for max_connections/],
      ["postgres", { no_such_setting: 1 }, /unrecognized configuration parameter "no_such_setting"/],
    ] as const;
    for (const [kind, config, said] of cases) {
      const logDir = tempDir();
      const key = Object.keys(config)[0] as string;
      const err = await startTarget({ kind, config }, { maxConnections: 10, logDir, log }).then(
        () => assert.fail(`${kind} started with ${JSON.stringify(config)}`),
        (e: Error) => e,
      );
      const name = kind === "mariadb" ? "MariaDB" : "PostgreSQL";
      assert.match(err.message, new RegExp(`^target\\.config: ${name} refused ${key}=`));
      assert.match(err.message, said);
      assert.doesNotMatch(err.message, /no log/);
      assert.ok(err.message.endsWith(`server logs kept in ${logDir}`), err.message);
      assert.ok(readdirSync(logDir).length > 0, "the logs the message points at exist");
    }
    await teardownAll();
    assert.deepEqual(leftovers(), before);
  });

  test("the server dying is noticed and reported", async () => {
    const target = await startTarget(
      { kind: "mariadb", config: {} },
      { maxConnections: 10, logDir: tempDir(), log },
    );
    process.kill(target.pids[0] as number, "SIGKILL");
    assert.match(await target.died, /MariaDB \(pid \d+\) exited unexpectedly \(code null, signal SIGKILL\)/);
    await target.stop();
  });
});
