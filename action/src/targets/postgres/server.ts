import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chown, rm } from "node:fs/promises";
import { join } from "node:path";
import { RunError } from "../../errors.ts";
import { onTeardown } from "../../lifecycle/teardown.ts";
import { COUNTERS_TIMEOUT_MS } from "../../observe/cost.ts";
import { type RunAs, runCommand } from "../../proc/process.ts";
import type { LocalTargetSpec } from "../local/schema.ts";
import {
  checkDatabaseName,
  installDataDir,
  makeWorkDir,
  privatePort,
  runPrivateServer,
} from "../local/server.ts";
import { commandOf } from "../plan-step.ts";
import { createDatabase } from "../tables.ts";
import type { StartOptions, Target } from "../types.ts";
import { readPostgresCounters } from "./counters.ts";

/** Debian installs each major version under /usr/lib/postgresql/N/bin: those with a server, newest first. */
export function postgresBinDirs(): string[] {
  const base = "/usr/lib/postgresql";
  return existsSync(base)
    ? readdirSync(base)
        .filter((v) => existsSync(join(base, v, "bin", "postgres")))
        .sort((a, b) => Number(b) - Number(a))
        .map((v) => join(base, v, "bin"))
    : [];
}

function binDir(): string {
  const [newest] = postgresBinDirs();
  if (newest === undefined) {
    throw new RunError(
      "target.kind postgres: no server under /usr/lib/postgresql/*/bin; install the Debian package postgresql",
    );
  }
  return newest;
}

/** PostgreSQL refuses to run as root: as root, run it as the `postgres` user. */
function runAs(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    return { uid, gid };
  } catch {
    throw new RunError(
      "target.kind postgres: running as root needs a `postgres` system user (Debian's postgresql package creates it)",
    );
  }
}

function settingArgs(config: LocalTargetSpec["config"]): string[] {
  return Object.entries(config).flatMap(([k, v]) => [
    "-c",
    `${k}=${typeof v === "boolean" ? (v ? "on" : "off") : v}`,
  ]);
}

/**
 * The command lines of a private PostgreSQL: initdb and the server. The plan prints them with
 * <workdir> and <port>; the run starts what they say with the real ones.
 */
export function postgresCommands(o: {
  bin: string;
  workDir: string;
  port: string;
  maxConnections: number;
  config: LocalTargetSpec["config"];
}): { install: string[]; server: string[] } {
  const dataDir = join(o.workDir, "data");
  return {
    install: [
      join(o.bin, "initdb"),
      "-D",
      dataDir,
      "--auth=trust",
      "-U",
      "postgres",
      "-E",
      "UTF8",
      "--no-sync",
      "--no-instructions",
    ],
    server: [
      join(o.bin, "postgres"),
      "-D",
      dataDir,
      "-p",
      o.port,
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      `unix_socket_directories=${o.workDir}`,
      "-c",
      `max_connections=${Math.max(100, o.maxConnections + 20)}`,
      // The spec's settings come last so they win over tiperf's defaults.
      ...settingArgs(o.config),
    ],
  };
}

/**
 * tiperf's own SQL to a private PostgreSQL on `port` (psql, no psqlrc read): its counters (those of
 * the run's database, once it is created; the postgres database's before), a database.
 */
function postgresClient(port: number) {
  let runDatabase = "postgres";
  const psql = (query: string, db = "postgres", timeoutMs = 30_000) =>
    runCommand(
      "psql",
      ["-X", "-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", db, "-Atc", query],
      { timeoutMs },
    );
  return {
    psql,
    counters: () =>
      readPostgresCounters(async (query) => {
        const r = await psql(query, runDatabase, COUNTERS_TIMEOUT_MS);
        if (r.code !== 0) throw new RunError(`PostgreSQL: counters not read: ${r.stderr.trim()}`);
        return r.stdout;
      }).catch(() => ({})),
    // the plan's two statements (postgresDatabaseSql): the catalogue asked, the database created if absent
    createDatabase: async (name: string, statements: string[]) => {
      runDatabase = checkDatabaseName(name);
      const [ask, create] = statements;
      if (ask === undefined || create === undefined)
        throw new RunError(
          `PostgreSQL: database ${name}: the plan's two statements expected, got ${statements.length}`,
        );
      const exists = await psql(ask);
      if (exists.code === 0 && exists.stdout.trim() === "1") return;
      const r = await psql(create);
      if (r.code !== 0) throw new RunError(`PostgreSQL: cannot create database ${name}: ${r.stderr.trim()}`);
    },
  };
}

/**
 * How PostgreSQL gives the run its database: it has no CREATE DATABASE IF NOT EXISTS, so the
 * catalogue is asked first and the database created only where it is not there (the plan prints
 * both statements, the run runs them).
 */
export const postgresDatabaseSql = (name: string): string[] => [
  `SELECT 1 FROM pg_database WHERE datname = '${name}'`,
  createDatabase(name, { ifAbsent: false }),
];

/** What the server is asked once it runs: its version, and each setting read back. */
export const READ_BACK = {
  version: "SHOW server_version",
  setting: (key: string) => `SELECT current_setting('${key.replace(/'/g, "")}')`,
};

export async function startPostgres(spec: LocalTargetSpec, opts: StartOptions): Promise<Target> {
  const bin = binDir();
  const user = runAs();
  const workDir = await makeWorkDir("postgres");
  const removeWorkDir = onTeardown(`remove ${workDir}`, () => rm(workDir, { recursive: true, force: true }));
  if (user) await chown(workDir, user.uid, user.gid);
  const dataDir = join(workDir, "data");
  const serverLog = join(workDir, "postgres.log");
  const logs = [serverLog];

  const port = await privatePort();
  // the plan's command lines, filled in; a start outside a run makes its own
  opts.steps?.at({ workDir, port });
  const commands = postgresCommands({
    bin,
    workDir,
    port: String(port),
    maxConnections: opts.maxConnections,
    config: spec.config,
  });
  await installDataDir({
    what: "initdb",
    command: commandOf(opts.steps?.take("install")) ?? commands.install,
    workDir,
    removeWorkDir,
    runAs: user,
  });

  const { psql, counters, createDatabase } = postgresClient(port);
  return runPrivateServer({
    what: "PostgreSQL",
    kind: "postgres",
    protocol: "postgres",
    user: "postgres",
    spec,
    opts,
    workDir,
    dataDir,
    port,
    command: commandOf(opts.steps?.take("server")) ?? commands.server,
    outFile: serverLog,
    logs,
    runAs: user,
    // SIGINT is PostgreSQL's "fast" shutdown: roll back clients, checkpoint, exit.
    stopSignal: "SIGINT",
    handOver: removeWorkDir,
    query: (q) => psql(q),
    versionSql: READ_BACK.version,
    settingSql: READ_BACK.setting,
    counters,
    createDatabase,
  });
}
