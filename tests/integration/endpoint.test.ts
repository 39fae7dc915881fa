// test-lane: parallel (nothing asserted here rests on measured speed: scripts/run-tests.mjs)
// provider endpoint on real servers: a private MariaDB and PostgreSQL that the test starts stand
// for servers tiperf did not create. tiperf must measure them, touch only the database it creates
// for the run, drop that database after success, failure, SIGTERM and (when killed) `tiperf reap`,
// refuse a populated database, and never write the password anywhere.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { readResult } from "../../action/src/result/store.ts";
import { endpointSql } from "../../action/src/targets/endpoint/client.ts";
import { EndpointSchema } from "../../action/src/targets/endpoint/schema.ts";
import { startTarget } from "../../action/src/targets/registry.ts";
import type { Target } from "../../action/src/targets/types.ts";
import { keyedAsPlanned, ranAsPlanned } from "../helpers/plan.ts";
import { cli, tempDir } from "../helpers/real.ts";

const PASSWORD = "Endpoint-Secret-7f3a";
const ENV = { TIPERF_TEST_ENDPOINT_PW: PASSWORD };

/** SQL as the server's own administrator (the test's, not tiperf's). */
function adminSql(t: Target, query: string): Promise<string> {
  const ep = t.connection.endpoints[0] as { host: string; port: number };
  const admin = EndpointSchema.parse({ ...ep, user: t.connection.user });
  return endpointSql(t.connection.protocol, admin, "")(query);
}

/** Databases on the server whose names tiperf's runs use. */
async function runDatabases(t: Target): Promise<string[]> {
  const out =
    t.connection.protocol === "mysql"
      ? await adminSql(
          t,
          "SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE 'tiperf%'",
        )
      : await adminSql(t, "SELECT datname FROM pg_database WHERE datname LIKE 'tiperf%'");
  return out ? out.split("\n") : [];
}

function writeProfile(dir: string, name: string, t: Target, user: string, extra = ""): string {
  const ep = t.connection.endpoints[0] as { host: string; port: number };
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    `name: ${name}
provider: endpoint
endpoint:
  host: ${ep.host}
  port: ${ep.port}
  user: ${user}
  password_env: TIPERF_TEST_ENDPOINT_PW
${extra}`,
  );
  return file;
}

function writeSpec(
  dir: string,
  kind: string,
  profile: string,
  o: { options?: string; variants?: string } = {},
) {
  const file = join(dir, `spec-${Math.random().toString(36).slice(2, 8)}.yaml`);
  writeFileSync(
    file,
    `name: endpoint-itest
target:
  kind: ${kind}
  profile: ${profile}
data: {tables: 2, table_size: 1000}
workloads:
  - name: point_select
    sysbench: oltp_point_select
    threads: [2]
    duration: 2s
    warmup: 1s
    options: ${o.options ?? "{rand-type: uniform}"}
${o.variants ?? ""}`,
  );
  return file;
}

/** Every file under `dir`, for a search for the password. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

function assertNoSecret(dir: string, stderr: string) {
  assert.ok(!stderr.includes(PASSWORD), "the password is not in tiperf's log");
  for (const f of filesUnder(dir))
    assert.ok(!readFileSync(f, "utf8").includes(PASSWORD), `the password is not in ${f}`);
}

describe("provider endpoint: an existing MariaDB", () => {
  let server: Target;
  const dir = tempDir();
  const ledger = join(dir, "ledger");
  before(async () => {
    server = await startTarget({ kind: "mariadb", config: {} } as never, {
      maxConnections: 20,
      logDir: join(dir, "server-logs"),
      log: () => {},
    });
    // what other people keep on the server, and the user tiperf is given
    await adminSql(
      server,
      `CREATE DATABASE theirs; CREATE TABLE theirs.orders (id INT PRIMARY KEY); INSERT INTO theirs.orders VALUES (42);
       CREATE USER 'bench'@'127.0.0.1' IDENTIFIED BY '${PASSWORD}'; GRANT ALL ON *.* TO 'bench'@'127.0.0.1';`,
    );
  });
  after(async () => {
    await server?.stop();
  });
  const theirsIntact = async () =>
    assert.equal(
      await adminSql(server, "SELECT id FROM theirs.orders"),
      "42",
      "a database tiperf did not create is untouched",
    );

  test("a run measures it in a database of its own, dropped at the end; the password is written nowhere", async () => {
    const profile = writeProfile(dir, "staging", server, "bench");
    const out = join(dir, "ok");
    const spec = writeSpec(dir, "mariadb", profile);
    const plan = cli(["plan", "--spec", spec], ENV);
    assert.equal((await plan.done).code, 0, plan.stderr());
    assert.match(plan.stdout(), /endpoint staging .*an existing MariaDB at 127\.0\.0\.1:\d+.*borrowed/);
    assert.match(plan.stdout(), /CREATE DATABASE tiperf_endpoint_itest/);
    assert.match(plan.stdout(), /DROP DATABASE IF EXISTS tiperf_endpoint_itest/);
    assert.match(
      plan.stdout(),
      /cost per operation \(handler_reads_per_op, bp_reads_per_op, statements_per_op, rows_read_per_op, tmp_tables_per_op\): SHOW GLOBAL STATUS .* of the existing MariaDB read at .*every client's work on the server/,
    );
    const run = cli(["run", "--spec", spec, "--out", out], { ...ENV, TIPERF_LEDGER: ledger });
    const { code } = await run.done;
    assert.equal(code, 0, run.stderr());
    const runDir = join(out, readdirSync(out)[0] as string);
    const result = await readResult(join(runDir, "result.json"));
    assert.equal(result.status, "complete");
    assert.ok((result.cells[0]?.metrics.tps?.value ?? 0) > 0);
    // the server's own counters, read over SQL as the run's user: rows asked of the engine per transaction
    assert.ok(
      (result.cells[0]?.metrics.handler_reads_per_op?.value ?? 0) > 0,
      JSON.stringify(result.cells[0]?.metrics),
    );
    assert.equal(
      result.cells[0]?.metrics.cpu_ms_per_op,
      undefined,
      "no CPU: the server is not tiperf's process",
    );
    const details = result.targets[0]?.details as Record<string, unknown>;
    assert.equal(details.ownership, "borrowed");
    assert.match(String(details.database), /^tiperf_[0-9a-f]+$/);
    assert.match(run.stderr(), /dropped database tiperf_/);
    assert.deepEqual(await runDatabases(server), [], "the run's database is gone");
    await theirsIntact();
    assertNoSecret(runDir, run.stderr());
    assert.match(readFileSync(join(runDir, "executed.json"), "utf8"), /--mysql-password=\*\*\*/);
    // every step it carried out is one of its plan's, in its words (the password as <password>),
    // and carries a key plan.json has; every start and record step ran
    const ran = ranAsPlanned(runDir);
    keyedAsPlanned(runDir, ["start", "record"]);
    // the endpoint's own steps (its version, the run's database checked, created, dropped) and the
    // load tools' ran by their plan keys
    for (const p of [
      "endpoint-version:",
      "endpoint-exists:",
      "endpoint-create:",
      "endpoint-drop:",
      "data:",
      "run:",
    ])
      assert.ok(
        ran.some((x) => x.key?.startsWith(p)),
        `no ${p} step ran: ${ran.map((x) => x.key).join(" ")}`,
      );

    // a second run, and the two diffed as a stored baseline and a new run
    const out2 = join(dir, "ok2");
    const again = cli(["run", "--spec", spec, "--out", out2, "--baseline", join(runDir, "result.json")], ENV);
    assert.ok([0, 1].includes((await again.done).code as number), again.stderr());
    const run2 = join(out2, readdirSync(out2)[0] as string);
    const diff = cli(["diff", join(runDir, "result.json"), join(run2, "result.json")]);
    assert.ok([0, 1].includes((await diff.done).code as number), diff.stderr());
    assert.match(diff.stdout(), /point_select/);
    assert.deepEqual(await runDatabases(server), []);
  });

  test("a profile's own database holding tables is refused, and nothing is created or dropped", async () => {
    const profile = writeProfile(dir, "shared", server, "bench", "  database: theirs\n");
    const run = cli(
      ["run", "--spec", writeSpec(dir, "mariadb", profile), "--out", join(dir, "refused")],
      ENV,
    );
    const { code } = await run.done;
    assert.notEqual(code, 0);
    assert.match(run.stderr(), /endpoint\.database theirs .* holds 1 table\(s\).*allow_existing_tables/);
    await theirsIntact();
    assert.deepEqual(await runDatabases(server), []);
  });

  test("a cost the endpoint cannot give (its CPU) is refused by its key before anything starts", async () => {
    const profile = writeProfile(dir, "nocpu", server, "bench");
    const spec = writeSpec(dir, "mariadb", profile, {
      variants: "metrics: {cpu_ms_per_op: {tolerance: 3%}}\n",
    });
    const plan = cli(["plan", "--spec", spec], ENV);
    assert.equal((await plan.done).code, 2, plan.stderr());
    assert.match(
      plan.stdout(),
      /REFUSED .*metrics\.cpu_ms_per_op: no cpu_ms_per_op from SHOW GLOBAL STATUS .* of the existing MariaDB; it gives handler_reads_per_op, bp_reads_per_op/,
    );
  });

  test("a missing password variable names the profile key", async () => {
    const profile = writeProfile(dir, "nopw", server, "bench");
    const run = cli(["run", "--spec", writeSpec(dir, "mariadb", profile), "--out", join(dir, "nopw")], {
      TIPERF_TEST_ENDPOINT_PW: undefined as unknown as string,
    });
    assert.notEqual((await run.done).code, 0);
    assert.match(run.stderr(), /endpoint\.password_env names TIPERF_TEST_ENDPOINT_PW, which is not set/);
  });

  test("a server setting, CPU limit or block design is refused on an endpoint", async () => {
    const profile = writeProfile(dir, "strict", server, "bench");
    const spec = writeSpec(dir, "mariadb", profile, {
      variants:
        "variants:\n  base: {}\n  head: {target: {config: {innodb_buffer_pool_size: 64M}}}\ncompare: {base: base, head: head, blocks: 3, rounds: 3}\n",
    });
    const plan = cli(["plan", "--spec", spec], ENV);
    assert.equal((await plan.done).code, 2, plan.stderr());
    assert.match(plan.stderr(), /variants\.head\.target\.config: .* never reconfigures/);
    assert.match(plan.stderr(), /compare\.blocks is 3, .* never restarts a server it did not start/);
  });

  test("a failed run drops the run's database too", async () => {
    const profile = writeProfile(dir, "failing", server, "bench");
    // sysbench refuses this option value when a cell runs: the data is loaded, the cell fails
    const run = cli(
      [
        "run",
        "--spec",
        writeSpec(dir, "mariadb", profile, { options: "{rand-type: nonsense}" }),
        "--out",
        join(dir, "failed"),
      ],
      ENV,
    );
    const { code } = await run.done;
    assert.notEqual(code, 0, run.stderr());
    assert.deepEqual(await runDatabases(server), [], run.stderr());
    await theirsIntact();
  });

  describe("allow_existing_tables: a database of theirs", () => {
    const tables = async () =>
      (
        await adminSql(
          server,
          "SELECT table_name FROM information_schema.tables WHERE table_schema = 'shop' ORDER BY 1",
        )
      ).split("\n");
    let spec = "";
    before(async () => {
      await adminSql(
        server,
        "CREATE DATABASE shop; CREATE TABLE shop.customer (id INT PRIMARY KEY); INSERT INTO shop.customer VALUES (7); CREATE TABLE shop.orders (id INT PRIMARY KEY)",
      );
      const profile = writeProfile(
        dir,
        "shop",
        server,
        "bench",
        "  database: shop\n  allow_existing_tables: true\n",
      );
      spec = writeSpec(dir, "mariadb", profile);
    });
    const theirTablesIntact = async () => {
      assert.deepEqual(await tables(), ["customer", "orders"], "only their tables are left");
      assert.equal(await adminSql(server, "SELECT id FROM shop.customer"), "7", "their rows are untouched");
    };

    test("the plan drops only the run's own tables, never through the load tool's cleanup", async () => {
      const plan = cli(["plan", "--spec", spec], ENV);
      assert.equal((await plan.done).code, 0, plan.stderr());
      assert.match(plan.stdout(), /\[cleanup\] SQL: DROP TABLE <each table this run created in shop>/);
      assert.match(
        plan.stdout(),
        /SELECT table_name FROM information_schema\.tables WHERE table_schema = 'shop'/,
      );
      assert.doesNotMatch(plan.stdout(), /oltp_common .* cleanup/);
      // the database is theirs: nothing creates it
      assert.doesNotMatch(plan.stdout(), /CREATE DATABASE/);
    });

    test("a run loads beside their tables and drops exactly the ones it created", async () => {
      const out = join(dir, "shop-ok");
      const run = cli(["run", "--spec", spec, "--out", out], ENV);
      assert.equal((await run.done).code, 0, run.stderr());
      assert.match(
        run.stderr(),
        /this run created 2 table\(s\) in shop on 127\.0\.0\.1:\d+: sbtest1, sbtest2/,
      );
      assert.match(
        run.stderr(),
        /dropped the 2 table\(s\) this run created in shop on .*: sbtest1, sbtest2; nothing else/,
      );
      await theirTablesIntact();
      const executed = readFileSync(join(out, readdirSync(out)[0] as string, "executed.json"), "utf8");
      assert.doesNotMatch(executed, /"cleanup"\s*\]/, "sysbench's cleanup never ran");
      assert.match(executed, /DROP TABLE `sbtest1`/);
      // the listing and each drop are the plan's steps of their keys, in their words
      const ran = ranAsPlanned(join(out, readdirSync(out)[0] as string));
      const keys = ran.map((x) => x.key ?? "").filter((k) => /^(tables|drop):/.test(k));
      assert.deepEqual(
        [...new Set(keys)].map((k) => k.replace(/:.*/, "")).sort(),
        ["drop", "tables"],
        keys.join(" "),
      );
      assert.equal(keys.filter((k) => k.startsWith("drop:")).length, 2, "one drop per table created");
    });

    test("a failed run still drops the tables it created, and says so", async () => {
      const failing = writeSpec(
        dir,
        "mariadb",
        writeProfile(dir, "shop-fail", server, "bench", "  database: shop\n  allow_existing_tables: true\n"),
        {
          options: "{rand-type: nonsense}",
        },
      );
      const run = cli(["run", "--spec", failing, "--out", join(dir, "shop-failed")], ENV);
      assert.notEqual((await run.done).code, 0, run.stderr());
      assert.match(run.stderr(), /dropped the 2 table\(s\) this run created in shop/);
      assert.doesNotMatch(run.stderr(), /the data goes with the server/);
      await theirTablesIntact();
    });

    test("a table of the load tool's own name there is refused before the load, and kept", async () => {
      await adminSql(
        server,
        "CREATE TABLE shop.sbtest1 (id INT PRIMARY KEY); INSERT INTO shop.sbtest1 VALUES (5)",
      );
      try {
        const run = cli(["run", "--spec", spec, "--out", join(dir, "shop-taken")], ENV);
        assert.notEqual((await run.done).code, 0);
        assert.match(
          run.stderr(),
          /database shop on 127\.0\.0\.1:\d+ already holds sbtest1: sysbench's load writes tables of these names and its cleanup drops them/,
        );
        assert.equal(
          await adminSql(server, "SELECT id FROM shop.sbtest1"),
          "5",
          "their sbtest1 is untouched",
        );
        assert.deepEqual(await tables(), ["customer", "orders", "sbtest1"]);
      } finally {
        await adminSql(server, "DROP TABLE shop.sbtest1");
      }
    });
  });

  test("SIGTERM mid-run: the run's database is dropped before tiperf exits", async () => {
    const profile = writeProfile(dir, "sigterm", server, "bench");
    const spec = writeSpec(dir, "mariadb", profile);
    writeFileSync(spec, readFileSync(spec, "utf8").replace("duration: 2s", "duration: 60s"));
    const run = cli(["run", "--spec", spec, "--out", join(dir, "sigterm")], ENV);
    await run.waitFor(/point_select threads=2/);
    assert.equal((await runDatabases(server)).length, 1, "the run's database exists while it runs");
    run.child.kill("SIGTERM");
    await run.done;
    assert.deepEqual(await runDatabases(server), [], run.stderr());
    await theirsIntact();
  });

  test("SIGKILL mid-run: `tiperf reap` drops the database the ledger names, nothing else", async () => {
    const profile = writeProfile(dir, "killed", server, "bench");
    const spec = writeSpec(dir, "mariadb", profile);
    writeFileSync(spec, readFileSync(spec, "utf8").replace("duration: 2s", "duration: 60s"));
    const run = cli(["run", "--spec", spec, "--out", join(dir, "killed")], { ...ENV, TIPERF_LEDGER: ledger });
    await run.waitFor(/point_select threads=2/);
    run.child.kill("SIGKILL");
    await run.done;
    assert.equal((await runDatabases(server)).length, 1, "killed: the database is left");
    const reap = cli(["reap", "--max-age", "1m", "--ledger", ledger], ENV);
    assert.equal((await reap.done).code, 0, reap.stderr());
    assert.match(reap.stderr() + reap.stdout(), /dropped database tiperf_/);
    assert.ok(!(reap.stderr() + reap.stdout()).includes(PASSWORD));
    assert.deepEqual(await runDatabases(server), []);
    await theirsIntact();
  });
});

describe("provider endpoint: two existing servers and PostgreSQL", () => {
  const dir = tempDir();
  const servers: Target[] = [];
  before(async () => {
    for (const kind of ["mariadb", "mariadb", "postgres"]) {
      const t = await startTarget({ kind, config: {} } as never, {
        maxConnections: 20,
        logDir: join(dir, `logs-${servers.length}`),
        log: () => {},
      });
      servers.push(t);
    }
    for (const t of servers.slice(0, 2))
      await adminSql(
        t,
        `CREATE USER 'bench'@'127.0.0.1' IDENTIFIED BY '${PASSWORD}'; GRANT ALL ON *.* TO 'bench'@'127.0.0.1';`,
      );
    await adminSql(servers[2] as Target, `CREATE ROLE bench LOGIN SUPERUSER PASSWORD '${PASSWORD}'`);
  });
  after(async () => {
    for (const t of servers) await t.stop();
  });

  test("base at one endpoint, head at another (blue/green): compared, each database dropped", async () => {
    const blue = writeProfile(dir, "blue", servers[0] as Target, "bench");
    const green = writeProfile(dir, "green", servers[1] as Target, "bench");
    const spec = writeSpec(dir, "mariadb", blue, {
      variants: `variants:\n  base: {}\n  green: {target: {profile: ${green}}}\ncompare: {base: base, head: green, rounds: 2, order: interleaved}\n`,
    });
    const out = join(dir, "bluegreen");
    const run = cli(["compare", "--spec", spec, "--out", out], ENV);
    const { code } = await run.done;
    assert.ok([0, 1].includes(code as number), run.stderr());
    const runDir = join(out, readdirSync(out)[0] as string);
    const verdict = JSON.parse(readFileSync(join(runDir, "verdict.json"), "utf8")) as {
      cells: unknown[];
      notes: string[];
    };
    assert.equal(verdict.cells.length, 1);
    // one pair of servers tiperf does not own: blocks of restarts are not advised
    const note = verdict.notes.find((n) => n.startsWith("one instance pair")) ?? "";
    assert.match(note, /borrowed and tiperf never restarts them/);
    assert.doesNotMatch(note, /compare\.blocks: 3/);
    const result = await readResult(join(runDir, "result.json"));
    assert.deepEqual(
      result.targets.map((t) => (t.details as Record<string, unknown>).profile),
      ["blue", "green"],
    );
    for (const t of servers.slice(0, 2)) assert.deepEqual(await runDatabases(t), []);
    assertNoSecret(runDir, run.stderr());
  });

  test("PostgreSQL: measured in a database of its own, dropped at the end", async () => {
    const pg = servers[2] as Target;
    const profile = writeProfile(dir, "pg", pg, "bench");
    const out = join(dir, "pg");
    const run = cli(["run", "--spec", writeSpec(dir, "postgres", profile), "--out", out], ENV);
    assert.equal((await run.done).code, 0, run.stderr());
    const result = await readResult(join(out, readdirSync(out)[0] as string, "result.json"));
    assert.ok((result.cells[0]?.metrics.tps?.value ?? 0) > 0);
    // pg_stat_database of the run's own database: the tuples each transaction fetched
    assert.ok(
      (result.cells[0]?.metrics.tup_fetched_per_op?.value ?? 0) > 0,
      JSON.stringify(result.cells[0]?.metrics),
    );
    assert.deepEqual(await runDatabases(pg), []);
  });
});
