import { existsSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { RunError } from "../../errors.ts";
import { onTeardown } from "../../lifecycle/teardown.ts";
import { COUNTERS_TIMEOUT_MS } from "../../observe/cost.ts";
import { firstTool, MYSQL_CLIENTS } from "../../proc/env.ts";
import { runCommand } from "../../proc/process.ts";
import type { LocalTargetSpec } from "../local/schema.ts";
import {
  checkDatabaseName,
  installDataDir,
  makeWorkDir,
  privatePort,
  runPrivateServer,
} from "../local/server.ts";
import { commandOf } from "../plan-step.ts";
import type { StartOptions, Target } from "../types.ts";
import { MARIADB_COUNTERS_SQL, mariadbCounters } from "./counters.ts";

const isRoot = () => process.getuid?.() === 0;

/**
 * The programs of Debian's mariadb-server and mariadb-client (older packages used the mysql
 * names): the server by its path (sbin is not always on PATH), the others as found on PATH.
 */
export const MARIADB_PROGRAMS = {
  server: ["/usr/sbin/mariadbd", "/usr/sbin/mysqld"],
  installDb: ["mariadb-install-db", "mysql_install_db"],
  client: MYSQL_CLIENTS,
};
const SERVER = () => firstTool(MARIADB_PROGRAMS.server);
const INSTALL_DB = () => firstTool(MARIADB_PROGRAMS.installDb);
const CLIENT = () => firstTool(MARIADB_PROGRAMS.client);

/** MariaDB option names accept - and _ alike; the server reports them with _. */
const asVariable = (key: string) => key.replace(/-/g, "_");

function settingArgs(config: LocalTargetSpec["config"]): string[] {
  return Object.entries(config).map(([k, v]) => `--${k}=${typeof v === "boolean" ? (v ? "ON" : "OFF") : v}`);
}

/**
 * The command lines of a private MariaDB: the data directory's initialisation and the server. The
 * plan prints them with <workdir> and <port>; the run starts what they say with the real ones.
 */
export function mariadbCommands(o: {
  workDir: string;
  port: string;
  maxConnections: number;
  config: LocalTargetSpec["config"];
}): { install: string[]; server: string[] } {
  const dataDir = join(o.workDir, "data");
  // temporary files of its own: beside other servers (another run, a shard on the same machine)
  // nothing in a shared /tmp is deleted under it
  const tmpDir = join(o.workDir, "tmp");
  return {
    install: [
      INSTALL_DB(),
      "--no-defaults",
      `--datadir=${dataDir}`,
      `--tmpdir=${tmpDir}`,
      "--auth-root-authentication-method=normal",
      "--skip-test-db",
      ...(isRoot() ? ["--user=root"] : []),
    ],
    server: [
      SERVER(),
      "--no-defaults",
      `--datadir=${dataDir}`,
      `--tmpdir=${tmpDir}`,
      `--port=${o.port}`,
      "--bind-address=127.0.0.1",
      `--socket=${join(o.workDir, "mysqld.sock")}`,
      `--pid-file=${join(o.workDir, "mysqld.pid")}`,
      `--log-error=${join(o.workDir, "mariadb-error.log")}`,
      "--skip-name-resolve",
      `--max-connections=${Math.max(151, o.maxConnections + 20)}`,
      ...(isRoot() ? ["--user=root"] : []),
      // The spec's settings come last so they win over tiperf's defaults.
      ...settingArgs(o.config),
    ],
  };
}

/** tiperf's own SQL to a private MariaDB on `port` (the client, no defaults read): its counters, a database. */
function mariadbClient(port: number) {
  const sql = (query: string, timeoutMs = 30_000) =>
    runCommand(
      CLIENT(),
      ["--no-defaults", "-h", "127.0.0.1", "-P", String(port), "-u", "root", "-N", "-B", "-e", query],
      { timeoutMs },
    );
  return {
    sql,
    counters: async () => {
      const r = await sql(MARIADB_COUNTERS_SQL, COUNTERS_TIMEOUT_MS);
      return r.code === 0 ? mariadbCounters(r.stdout) : {};
    },
    createDatabase: async (name: string, statements: string[]) => {
      checkDatabaseName(name);
      for (const create of statements) {
        const r = await sql(create);
        if (r.code !== 0) throw new RunError(`MariaDB: cannot create database ${name}: ${r.stderr.trim()}`);
      }
    },
  };
}

/** What the server is asked once it runs: its version, and each setting read back. */
export const READ_BACK = {
  version: "SELECT VERSION()",
  setting: (key: string) => `SELECT @@GLOBAL.${asVariable(key)}`,
};

export async function startMariadb(spec: LocalTargetSpec, opts: StartOptions): Promise<Target> {
  if (!existsSync(SERVER())) {
    throw new RunError(
      `target.kind mariadb: ${SERVER()} not found; install the Debian package mariadb-server`,
    );
  }
  const workDir = await makeWorkDir("mariadb");
  const removeWorkDir = onTeardown(`remove ${workDir}`, () => rm(workDir, { recursive: true, force: true }));
  const dataDir = join(workDir, "data");
  const errorLog = join(workDir, "mariadb-error.log");
  const installLog = join(workDir, "mariadb-install-db.log");
  const logs = [errorLog, join(workDir, "mariadbd.out"), installLog];
  await mkdir(join(workDir, "tmp"));

  const port = await privatePort();
  // the plan's command lines, filled in; a start outside a run makes its own
  opts.steps?.at({ workDir, port });
  const commands = mariadbCommands({
    workDir,
    port: String(port),
    maxConnections: opts.maxConnections,
    config: spec.config,
  });
  await installDataDir({
    what: "mariadb-install-db",
    command: commandOf(opts.steps?.take("install")) ?? commands.install,
    workDir,
    removeWorkDir,
  });

  const { sql, counters, createDatabase } = mariadbClient(port);
  return runPrivateServer({
    what: "MariaDB",
    kind: "mariadb",
    protocol: "mysql",
    user: "root",
    spec,
    opts,
    workDir,
    dataDir,
    port,
    command: commandOf(opts.steps?.take("server")) ?? commands.server,
    outFile: join(workDir, "mariadbd.out"),
    logs,
    stopSignal: "SIGTERM",
    handOver: removeWorkDir,
    query: sql,
    versionSql: READ_BACK.version,
    settingSql: READ_BACK.setting,
    counters,
    createDatabase,
  });
}
