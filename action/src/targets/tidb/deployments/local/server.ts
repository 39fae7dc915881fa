// A private tidb-server on this machine (provider local): TiDB alone on its embedded store
// (unistore), as TiDB developers run it. The plan's start command is filled in with two free ports
// on 127.0.0.1 and a fresh work directory (data, socket, log, temp); the server is up once /status
// answers; it is stopped by PID, its logs kept, its directory removed, recorded in the ledger so
// `tiperf reap` finds it if tiperf dies; it restarts on the same data for compare.blocks and takes
// the CPU limits every private server takes.
import { chmod, copyFile, mkdir, readFile, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { RunError } from "../../../../errors.ts";
import { pinProcesses } from "../../../../proc/affinity.ts";
import { findTool } from "../../../../proc/env.ts";
import { privatePort } from "../../../../proc/port.ts";
import { type ServerProcess, startServerProcess } from "../../../../proc/process.ts";
import { shellCommand } from "../../../../proc/quote.ts";
import { applyResources, processTree } from "../../../local/cgroup.ts";
import type { ResourcesSchema } from "../../../local/schema.ts";
import { type Lifecycle, lifecycle, makeWorkDir } from "../../../local/server.ts";
import { StartupError, waitReady } from "../../../local/startup.ts";
import { getJson } from "../../status-api.ts";
import { serverSlots } from "./args.ts";
import type { ServerDeployment } from "./types.ts";

type Resources = import("zod").output<typeof ResourcesSchema>;

/** A private tidb-server that is up. */
export interface RunningServer {
  life: Lifecycle;
  port: number;
  statusPort: number;
  workDir: string;
  /** The plan's placeholders of this server (<port of …>, <status port of …>, <workdir of …>) filled in. */
  fill(text: string): string;
  /** A fresh process on the same data (compare.blocks), up and limited as the first. */
  restart(): Promise<void>;
}

/** The error TiDB gave for a failed start: its [FATAL] (else [ERROR]) log line's error field. */
export function tidbStartFailure(log: string): string | undefined {
  const lines = log.split("\n");
  const pick = (level: string) => lines.filter((l) => l.includes(`[${level}]`)).pop();
  const line = pick("FATAL") ?? pick("ERROR");
  if (!line) {
    // a config refused before logging starts is printed alone on the first line
    const plain = lines.find((l) => /contained invalid configuration options/.test(l));
    return plain?.trim();
  }
  const err = /\[error="((?:[^"\\]|\\.)*)"\]/.exec(line)?.[1];
  const msg = /\] \["([^"]+)"\]/.exec(line)?.[1];
  return err ? err.replace(/\\"/g, '"') : msg;
}

function ensureProgram(program: string, d: ServerDeployment): void {
  if (findTool(program) === undefined) {
    throw new RunError(
      d.binpath
        ? `target.binpath ${program}: not an executable file`
        : `tidb-server ${d.version}: tiup has not installed it (${program} is missing) and tiperf could not: run \`tiup install tidb:${d.version}\`, or give a build as target.binpath`,
    );
  }
}

/** What startTidbServer is given. */
interface TidbServerStart {
  d: ServerDeployment;
  /** The plan's start command, placeholders unfilled (its program: the copy in the work directory). */
  command: string[];
  /** Variables besides TMPDIR (a counting build's socket), filled in. */
  env?: Record<string, string>;
  /** The program the copy is made from (a build, or tiup's component), afresh at every start. */
  program: string;
  /** Where its logs are kept when it stops (the run's server/<name>/). */
  logDir: string;
  resources?: Resources;
  readyMs?: number;
}

/** A fresh work directory and two free ports, and the plan's placeholders filled with them. */
async function placeOf(d: ServerDeployment) {
  const slot = serverSlots(d);
  const workDir = await makeWorkDir("tidb");
  await mkdir(join(workDir, "tmp"), { recursive: true });
  // two claims: never the same port
  const port = await privatePort();
  const statusPort = await privatePort();
  const fill = (text: string) =>
    text
      .replaceAll(slot.status, String(statusPort))
      .replaceAll(slot.port, String(port))
      .replaceAll(slot.dir, workDir);
  return { workDir, port, statusPort, fill };
}

/** The program copied into the work directory: a fresh file at every start (a new inode, its pages written now; serverCopy says why). */
async function copyProgram(from: string, to: string): Promise<void> {
  await rm(to, { force: true });
  await mkdir(dirname(to), { recursive: true });
  await copyFile(from, to);
  await chmod(to, 0o755);
}

/** Starts the deployment's tidb-server from its planned command line and waits until it is up. */
export async function startTidbServer(o: TidbServerStart): Promise<RunningServer> {
  const { d } = o;
  const { workDir, port, statusPort, fill } = await placeOf(d);
  const argv = o.command.map(fill);
  const program = argv[0] as string;
  ensureProgram(o.program, d);
  await copyProgram(o.program, program);
  const logFile = join(workDir, "tidb.log");
  const stdout = join(workDir, "stdout.log");
  const what = `TiDB ${d.name}`;
  // TiDB's own temp files (tmp-storage-path follows TMPDIR) stay in the work directory too
  const spawn = () =>
    startServerProcess(program, argv.slice(1), {
      logFile: stdout,
      env: {
        ...Object.fromEntries(Object.entries(o.env ?? {}).map(([k, v]) => [k, fill(v)])),
        TMPDIR: join(workDir, "tmp"),
      },
    });
  let removeCgroup: (() => Promise<void>) | undefined;
  const settle = async (s: ServerProcess) => {
    const ready = () =>
      getJson(`http://127.0.0.1:${statusPort}/status`).then(
        () => true,
        () => false,
      );
    await waitReady(what, s, ready, o.readyMs ?? 120_000);
    if (o.resources?.cpu_quota !== undefined)
      removeCgroup = (await applyResources(s.pid, o.resources.cpu_quota, `tidb-${basename(workDir)}`)).remove;
    if (o.resources?.cpus !== undefined)
      await pinProcesses(await processTree(s.pid), o.resources.cpus, "target.resources.cpus");
  };
  const uncgroup = async () => {
    await removeCgroup?.();
    removeCgroup = undefined;
  };
  const server = spawn();
  const life = lifecycle({
    what,
    server,
    workDir,
    // the slow query log too: which statements were slow is what a regression hunt reads first
    logs: [logFile, stdout, join(workDir, "tidb-slow.log")],
    logDir: o.logDir,
    stopSignal: "SIGTERM",
    beforeRemove: uncgroup,
  });
  try {
    await settle(server);
  } catch (e) {
    const said = tidbStartFailure(
      (await readFile(logFile, "utf8").catch(() => "")) + (await readFile(stdout, "utf8").catch(() => "")),
    );
    await life.stop().catch(() => {});
    if (e instanceof StartupError)
      throw new RunError(
        `${what} did not start${said ? `: ${said}` : ` (${e.message})`}\n  \`${shellCommand(argv)}\`\n  logs kept in ${o.logDir}`,
      );
    throw e;
  }
  const restart = () =>
    life.restart(async () => {
      await uncgroup();
      await copyProgram(o.program, program);
      const next = spawn();
      try {
        await settle(next);
      } catch (e) {
        await next.stop("SIGTERM", 30_000).catch(() => {});
        throw e;
      }
      return next;
    });
  return { life, port, statusPort, workDir, fill, restart };
}
