import { statfsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RunError } from "../../errors.ts";
import { record } from "../../lifecycle/ledger.ts";
import { onTeardown } from "../../lifecycle/teardown.ts";
import { treeCpuSeconds } from "../../observe/cost.ts";
import { pinProcesses } from "../../proc/affinity.ts";
import { privatePort } from "../../proc/port.ts";
import {
  type CommandResult,
  processState,
  type RunAs,
  runCommand,
  type ServerProcess,
  startServerProcess,
} from "../../proc/process.ts";
import { applyResources, processTree } from "./cgroup.ts";
import { keepLogs } from "./reapers.ts";
import { respawner, respawnOnItsPort } from "./respawn.ts";
import type { LocalTargetSpec } from "./schema.ts";

export { privatePort };

import { setting } from "../../environment.ts";
import { sqlText } from "../plan-step.ts";
import type { Connection, StartJob, StartOptions, Target } from "../types.ts";
import { startupFailure, waitReady } from "./startup.ts";

export async function makeWorkDir(kind: string): Promise<string> {
  return mkdtemp(join(dataRoot(), `tiperf-${kind}-`));
}

/**
 * Where private servers keep their data: $TIPERF_DATA_DIR, else the temp directory. A small or
 * memory-backed temp directory fills up (InnoDB's error 28): point it at a real disk.
 */
export const dataRoot = () => setting("TIPERF_DATA_DIR") || tmpdir();

/** Filesystem magic numbers (statfs f_type) of the filesystems a data directory is likely on. */
const FS_TYPES: Record<number, string> = {
  61267: "ext4",
  16914836: "tmpfs",
  1481003842: "xfs",
  2435016766: "btrfs",
  2035054128: "overlayfs",
  801189825: "zfs",
};

/** What a server's data directory is on: its path, the filesystem and the room left there. */
export function dataDirFacts(dir: string): { path: string; filesystem: string; free_bytes: number } {
  try {
    const st = statfsSync(dir);
    return {
      path: dir,
      filesystem: FS_TYPES[st.type] ?? `0x${st.type.toString(16)}`,
      free_bytes: st.bavail * st.bsize,
    };
  } catch {
    return { path: dir, filesystem: "unknown", free_bytes: 0 };
  }
}

/**
 * Owns the lifetime of one private server: stop by PID, keep logs, remove the data directory.
 * Registered with the global teardown so signals and failures undo it too.
 */
export interface Lifecycle {
  stop: () => Promise<void>;
  /** Resolves with a reason if the running server process exits unasked. */
  readonly died: Promise<string>;
  readonly server: ServerProcess;
  /**
   * A fresh process on the same data: the running one stopped by PID (its cgroup removed, its data
   * kept), `respawn` starts the next and waits until it answers; the ledger follows the new PID.
   */
  restart(respawn: () => Promise<ServerProcess>): Promise<void>;
}

export function lifecycle(opts: {
  what: string;
  server: ServerProcess;
  workDir: string;
  logs: string[];
  logDir: string;
  stopSignal: NodeJS.Signals;
  beforeRemove?: () => Promise<void>;
}): Lifecycle {
  let stopping = false;
  let restarting = false;
  let stopped: Promise<void> | undefined;
  let server = opts.server;
  const diedOf = (s: ServerProcess) =>
    s.exited.then((how) =>
      stopping || restarting
        ? new Promise<string>(() => {})
        : `${opts.what} (pid ${s.pid}) exited unexpectedly (code ${how.code}, signal ${how.signal})`,
    );
  let died = diedOf(server);
  const recordOf = (s: ServerProcess) =>
    record({
      resource: "server",
      what: opts.what,
      pid: s.pid,
      path: opts.workDir,
      signal: opts.stopSignal,
      logs: opts.logs,
      log_dir: opts.logDir,
    }).catch(() => async () => {});
  let forget = recordOf(server);
  const stop = () => {
    stopping = true;
    stopped ??= (async () => {
      unregister();
      try {
        await server.stop(opts.stopSignal, 30_000);
        // Keeping the logs is worth a try, never worth leaving the server's data behind (a full disk).
        await keepLogs(opts.logs, opts.logDir);
      } finally {
        await opts.beforeRemove?.().catch(() => {});
        await rm(opts.workDir, { recursive: true, force: true });
        await (await forget)();
      }
    })();
    return stopped;
  };
  const restart = async (respawn: () => Promise<ServerProcess>) => {
    if (stopping) throw new RunError(`${opts.what} is being stopped: no restart`);
    restarting = true;
    try {
      await server.stop(opts.stopSignal, 30_000);
      await opts.beforeRemove?.().catch(() => {});
      server = await respawnOnItsPort(respawn);
      const next = recordOf(server);
      await (await forget)();
      forget = next;
      died = diedOf(server);
    } finally {
      restarting = false;
    }
  };
  const unregister = onTeardown(`stop ${opts.what}`, stop);
  return {
    stop,
    restart,
    get died() {
      return died;
    },
    get server() {
      return server;
    },
  };
}

/** After a private server is up: wait until it answers, read each `target.config` key back, apply `target.resources`. */
export async function settleServer(o: {
  what: string;
  spec: LocalTargetSpec;
  server: ServerProcess;
  query: (sql: string) => Promise<CommandResult>;
  versionSql: string;
  settingSql: (key: string) => string;
  onCgroup: (remove: () => Promise<void>) => void;
  /** Options the other variants set: read back here too (StartOptions.readBack). */
  readBack?: string[] | undefined;
  /** The run's steps: each query, the cgroup and the pinning the plan's, recorded as they run. */
  steps?: StartOptions["steps"];
}): Promise<{ version: string; effectiveConfig: Record<string, string> }> {
  await waitReady(o.what, o.server, async () => (await o.query("SELECT 1")).code === 0);
  const sqlOf = (job: StartJob, own: string) => sqlText(o.steps?.take(job)) ?? own;
  const version = (await o.query(sqlOf("version", o.versionSql))).stdout.trim();
  const effectiveConfig: Record<string, string> = {};
  for (const key of new Set([...Object.keys(o.spec.config), ...(o.readBack ?? [])])) {
    const r = await o.query(sqlOf({ setting: key }, o.settingSql(key)));
    if (r.code === 0) effectiveConfig[key] = r.stdout.trim();
  }
  const res = o.spec.resources;
  if (res?.cpu_quota !== undefined) {
    o.steps?.take("cgroup", o.server.pid);
    o.onCgroup((await applyResources(o.server.pid, res.cpu_quota, o.what.toLowerCase())).remove);
  }
  if (res?.cpus !== undefined) {
    o.steps?.take("pin", o.server.pid);
    await pinProcesses(await processTree(o.server.pid), res.cpus, "target.resources.cpus");
  }
  return { version, effectiveConfig };
}

/** The Target of a private server on 127.0.0.1, once it is up and settled. */
export function localTarget(o: {
  kind: string;
  spec: LocalTargetSpec;
  protocol: Connection["protocol"];
  user: string;
  port: number;
  life: Lifecycle;
  version: string;
  effectiveConfig: Record<string, string>;
  /** The server's work directory (its data): recorded with its filesystem and free space. */
  workDir: string;
  createDatabase: Target["createDatabase"];
  /** The server's own counters (observe/cost.ts), read over SQL; its CPU is read from /proc here. */
  counters: () => Promise<Record<string, number>>;
  /** Starts the next server process on the same data and waits until it is settled. */
  respawn: () => Promise<ServerProcess>;
  /** The run's steps: a restart is the plan's step, recorded with the PID it stops. */
  opts: Pick<StartOptions, "steps">;
}): Target {
  const { life } = o;
  return {
    owner: "tiperf",
    kind: o.kind,
    version: o.version,
    connection: {
      protocol: o.protocol,
      endpoints: [{ host: "127.0.0.1", port: o.port }],
      user: o.user,
      password: "",
    },
    get pids() {
      return [life.server.pid];
    },
    state: () => `${o.kind} server (pid ${life.server.pid}) is ${processState(life.server.pid)}`,
    createDatabase: o.createDatabase,
    settings: o.spec.config,
    effectiveConfig: o.effectiveConfig,
    ...(o.spec.resources ? { resources: resourcesText(o.spec.resources) } : {}),
    details: { data_dir: dataDirFacts(o.workDir) },
    get died() {
      return life.died;
    },
    stop: life.stop,
    costCounters: async () => {
      const own = await o.counters().catch(() => ({}));
      const cpu = treeCpuSeconds([life.server.pid]);
      return cpu === undefined ? own : { ...own, cpu_s: cpu };
    },
    restart: async () => {
      const before = life.server.pid;
      o.opts.steps?.take("restart", before);
      await life.restart(o.respawn);
      return `${o.kind} pid ${before} → ${life.server.pid}`;
    },
    activate: { cannot: "is a server of one variant's own: there is nothing to bring in" },
    watch: { cannot: "is watched by its process: its death fails the run" },
    afterLoad: { cannot: "needs nothing after a load" },
    cpuProfiles: { cannot: "serves no CPU profile (pprof is TiDB's and TiKV's)" },
    serverHosts: { cannot: "runs on this machine: its use is sampled from /proc here" },
  };
}

/** A database name a driver asks for: plain, so it needs no quoting in SQL. */
export function checkDatabaseName(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new RunError(`bad database name ${JSON.stringify(name)}`);
  return name;
}

/** target.resources as the result records them: the quota as a percentage of one CPU. */
export function resourcesText(r: NonNullable<LocalTargetSpec["resources"]>): {
  cpu_quota?: string;
  cpus?: string;
} {
  return {
    ...(r.cpu_quota !== undefined ? { cpu_quota: `${Math.round(r.cpu_quota * 1000) / 10}%` } : {}),
    ...(r.cpus !== undefined ? { cpus: r.cpus } : {}),
  };
}

/**
 * A new server's data directory made by its tool (mariadb-install-db, initdb), the step recorded;
 * on failure the work directory goes and the tool's own words are the error.
 */
export async function installDataDir(o: {
  what: string;
  command: string[];
  workDir: string;
  removeWorkDir: () => void;
  runAs?: RunAs | undefined;
}): Promise<void> {
  const r = await runCommand(o.command[0] as string, o.command.slice(1), {
    runAs: o.runAs,
    timeoutMs: 120_000,
  });
  if (r.code === 0) return;
  o.removeWorkDir();
  await rm(o.workDir, { recursive: true, force: true });
  throw new RunError(`${o.what} failed (exit ${r.code}):\n${(r.stderr || r.stdout).slice(-2000)}`);
}

/** A private server whose data directory is installed: how its process starts and how tiperf talks to it. */
export interface PrivateServerStart {
  what: string;
  kind: string;
  protocol: Connection["protocol"];
  user: string;
  spec: LocalTargetSpec;
  opts: StartOptions;
  workDir: string;
  dataDir: string;
  port: number;
  /** The server's command line (the plan's start step). */
  command: string[];
  /** Where its stdout and stderr go, and every log kept when it stops. */
  outFile: string;
  logs: string[];
  runAs?: RunAs | undefined;
  stopSignal: NodeJS.Signals;
  /** Called once the server process exists: it owns the work directory from then on. */
  handOver: () => void;
  query: (sql: string) => Promise<CommandResult>;
  versionSql: string;
  settingSql: (key: string) => string;
  counters: () => Promise<Record<string, number>>;
  createDatabase: Target["createDatabase"];
}

/**
 * Starts a private server on its installed data directory and settles it (answers, settings read
 * back, resources applied): its Target; one that does not come up is stopped and its logs quoted.
 */
export async function runPrivateServer(o: PrivateServerStart): Promise<Target> {
  const spawnServer = () =>
    startServerProcess(o.command[0] as string, o.command.slice(1), {
      logFile: o.outFile,
      cwd: o.workDir,
      ...(o.runAs ? { runAs: o.runAs } : {}),
    });
  const server = spawnServer();
  o.handOver();
  let removeCgroup: (() => Promise<void>) | undefined;
  const life = lifecycle({
    what: o.what,
    server,
    workDir: o.workDir,
    logs: o.logs,
    logDir: o.opts.logDir,
    stopSignal: o.stopSignal,
    beforeRemove: async () => removeCgroup?.(),
  });
  const settle = (s: ServerProcess) =>
    settleServer({
      what: o.what,
      spec: o.spec,
      server: s,
      query: o.query,
      versionSql: o.versionSql,
      settingSql: o.settingSql,
      readBack: o.opts.readBack,
      steps: o.opts.steps,
      onCgroup: (remove) => {
        removeCgroup = remove;
      },
    });
  try {
    const { version, effectiveConfig } = await settle(server);
    o.opts.log(
      `target: ${o.what} ${version} on 127.0.0.1:${o.port} (pid ${server.pid}, datadir ${o.dataDir})`,
    );
    return localTarget({
      ...o,
      life,
      respawn: respawner(spawnServer, settle, o.stopSignal),
      version,
      effectiveConfig,
    });
  } catch (e) {
    await life.stop();
    throw await startupFailure(e, {
      what: o.what,
      logs: o.logs,
      logDir: o.opts.logDir,
      config: o.spec.config,
    });
  }
}
