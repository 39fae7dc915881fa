import { copyFile, mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RunError } from "../errors.ts";
import type { TargetSpec } from "../spec/schema.ts";
import { onTeardown } from "../teardown.ts";
import { pinProcesses } from "./affinity.ts";
import { applyResources, processTree } from "./cgroup.ts";
import { record } from "./ledger.ts";
import type { CommandResult, ServerProcess } from "./process.ts";

/** A port on 127.0.0.1 that nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export async function makeWorkDir(kind: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `tiperf-${kind}-`));
}

export async function tail(file: string, lines = 15): Promise<string> {
  try {
    const text = await readFile(file, "utf8");
    return text.trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

/**
 * Polls `probe` until it succeeds, the server exits, or `timeoutMs` passes (a bounded loop).
 */
export async function waitReady(
  what: string,
  server: ServerProcess,
  probe: () => Promise<boolean>,
  logFile: string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!server.isAlive()) {
      const how = await server.exited;
      throw new RunError(
        `${what} exited during startup (code ${how.code}, signal ${how.signal}); last lines of ${logFile}:\n${await tail(logFile)}`,
      );
    }
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new RunError(
    `${what} did not accept connections within ${timeoutMs / 1000}s; see ${logFile}:\n${await tail(logFile)}`,
  );
}

/**
 * Owns the lifetime of one private server: stop by PID, keep logs, remove the data directory.
 * Registered with the global teardown so signals and failures undo it too.
 */
export function lifecycle(opts: {
  what: string;
  server: ServerProcess;
  workDir: string;
  logs: string[];
  logDir: string;
  stopSignal: NodeJS.Signals;
  beforeRemove?: () => Promise<void>;
}): { stop: () => Promise<void>; died: Promise<string> } {
  let stopping = false;
  let stopped: Promise<void> | undefined;
  const died = opts.server.exited.then((how) =>
    stopping
      ? new Promise<string>(() => {})
      : `${opts.what} (pid ${opts.server.pid}) exited unexpectedly (code ${how.code}, signal ${how.signal})`,
  );
  const forget = record({
    kind: "server",
    what: opts.what,
    pid: opts.server.pid,
    path: opts.workDir,
    signal: opts.stopSignal,
  }).catch(() => async () => {});
  const stop = () => {
    stopping = true;
    stopped ??= (async () => {
      unregister();
      await opts.server.stop(opts.stopSignal, 30_000);
      await mkdir(opts.logDir, { recursive: true });
      for (const log of opts.logs) {
        await copyFile(log, join(opts.logDir, log.split("/").pop() as string)).catch(() => {});
      }
      await opts.beforeRemove?.().catch(() => {});
      await rm(opts.workDir, { recursive: true, force: true });
      await (await forget)();
    })();
    return stopped;
  };
  const unregister = onTeardown(`stop ${opts.what}`, stop);
  return { stop, died };
}

/**
 * After a private server is up: wait until it answers, create the sysbench database, read each
 * `target.config` key back from the running server, then apply `target.resources`.
 */
export async function settleServer(o: {
  what: string;
  spec: TargetSpec;
  server: ServerProcess;
  logFile: string;
  query: (sql: string) => Promise<CommandResult>;
  versionSql: string;
  createSql: string;
  settingSql: (key: string) => string;
  onCgroup: (remove: () => Promise<void>) => void;
}): Promise<{ version: string; effectiveConfig: Record<string, string> }> {
  await waitReady(o.what, o.server, async () => (await o.query("SELECT 1")).code === 0, o.logFile);
  const version = (await o.query(o.versionSql)).stdout.trim();
  const created = await o.query(o.createSql);
  if (created.code !== 0)
    throw new RunError(`${o.what}: cannot create database sbtest: ${created.stderr.trim()}`);
  const effectiveConfig: Record<string, string> = {};
  for (const key of Object.keys(o.spec.config)) {
    const r = await o.query(o.settingSql(key));
    if (r.code === 0) effectiveConfig[key] = r.stdout.trim();
  }
  const res = o.spec.resources;
  if (res?.cpu_quota !== undefined) {
    o.onCgroup((await applyResources(o.server.pid, res.cpu_quota, o.what.toLowerCase())).remove);
  }
  if (res?.cpus !== undefined) {
    await pinProcesses(await processTree(o.server.pid), res.cpus, "target.resources.cpus");
  }
  return { version, effectiveConfig };
}

/** A start-up failure caused by a setting the server refused, told in the server's own words. */
export function rejectedSetting(e: unknown, what: string, pattern: RegExp, allowed: string): Error {
  const lines = (e as Error).message.split("\n").filter((l) => pattern.test(l));
  return lines.length > 0
    ? new RunError(`target.config: ${what} rejected a setting (allowed: ${allowed}):\n${lines.join("\n")}`)
    : (e as Error);
}
