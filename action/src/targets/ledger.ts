import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { copyFile, mkdir, readdir, readFile, rm, rmdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { runCommand } from "../proc/process.ts";
import type { Result } from "../result/model.ts";
import { readResult, writeResult } from "../result/store.ts";

/**
 * What tiperf started that must not outlive it, one small file per resource. A normal stop
 * deletes the entry; whatever is left after the owner died (SIGKILL, a cancelled job) is swept by
 * the action's post step or by `tiperf reap`.
 */
export interface LedgerEntry {
  /** server: a private database server; cgroup: its CPU limit; run: a result.json still being written. */
  /** playground: a tiup playground (pid; path = its data dir); cluster: a tiup cluster (path = its name). */
  /** stack: an ephemeral cloud cluster's Pulumi stack (recovered: destroyed, swept by tag, removed). */
  kind: "server" | "cgroup" | "run" | "playground" | "cluster" | "stack";
  what: string;
  /** The server's pid (server) — only signalled while its command line still names workDir. */
  pid?: number;
  /** Directory to remove (the server's private work dir, or the cgroup), or the run's result.json. */
  path: string;
  /** The server's log files, and where its run keeps them (copied there before the work dir goes). */
  logs?: string[];
  log_dir?: string;
  /** How the server stops cleanly (MariaDB SIGTERM, PostgreSQL SIGINT = fast shutdown). */
  signal?: NodeJS.Signals;
  /** The stack's backend, workspace, run id and cloud settings (kind stack). */
  stack?: import("../cloud/provision.ts").StackRecord;
  /** The tiperf process that started it. */
  owner: number;
  started_at: string;
}

/** Copies a server's logs into the run directory; what does not fit (a full disk) is skipped. */
export async function keepLogs(logs: string[], logDir: string): Promise<void> {
  try {
    await mkdir(logDir, { recursive: true });
  } catch {
    return;
  }
  for (const log of logs) await copyFile(log, join(logDir, basename(log))).catch(() => {});
}

export const ledgerDir = (env: NodeJS.ProcessEnv = process.env) =>
  env.TIPERF_LEDGER || join(tmpdir(), "tiperf-ledger");

/** Records a resource; returns the function that forgets it once it is gone. */
export async function record(entry: Omit<LedgerEntry, "owner" | "started_at">): Promise<() => Promise<void>> {
  const dir = ledgerDir();
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${entry.kind}-${randomBytes(4).toString("hex")}.json`);
  const full: LedgerEntry = { ...entry, owner: process.pid, started_at: new Date().toISOString() };
  await writeFile(file, `${JSON.stringify(full)}\n`);
  return () => rm(file, { force: true });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  } catch {
    return "";
  }
}

export interface SweepOptions {
  dir?: string;
  /** Sweep only entries older than this (ms) or whose owner is gone; default: every entry. */
  maxAgeMs?: number;
  dryRun?: boolean;
  log: (line: string) => void;
}

export interface SweepOutcome {
  swept: LedgerEntry[];
  kept: LedgerEntry[];
}

/** Stops and removes what the ledger lists (bounded waits), then forgets it. */
export async function sweep(opts: SweepOptions): Promise<SweepOutcome> {
  const dir = opts.dir ?? ledgerDir();
  const out: SweepOutcome = { swept: [], kept: [] };
  if (!existsSync(dir)) return out;
  // one level of subfolders: each action run keeps its own ledger under the shared one
  const files: string[] = [];
  for (const f of (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    if (f.isFile() && f.name.endsWith(".json")) files.push(f.name);
    if (f.isDirectory())
      for (const g of (await readdir(join(dir, f.name))).sort())
        if (g.endsWith(".json")) files.push(join(f.name, g));
  }
  // servers first (a cgroup can only go once its processes have), runs last (their servers' logs kept)
  const order = { server: 0, playground: 0, cluster: 0, stack: 1, cgroup: 1, run: 2 } as const;
  const entries: [string, LedgerEntry][] = [];
  for (const f of files) {
    try {
      entries.push([f, JSON.parse(await readFile(join(dir, f), "utf8")) as LedgerEntry]);
    } catch {
      opts.log(`reap: ${join(dir, f)} is not a ledger entry; left alone`);
    }
  }
  entries.sort(([, a], [, b]) => (order[a.kind] ?? 3) - (order[b.kind] ?? 3));
  for (const [f, e] of entries) {
    const age = Date.now() - Date.parse(e.started_at);
    const due = opts.maxAgeMs === undefined || !alive(e.owner) || age > opts.maxAgeMs;
    if (!due) {
      out.kept.push(e);
      continue;
    }
    out.swept.push(e);
    const ageText = `${Math.round(age / 60_000)} min old, owner ${e.owner} ${alive(e.owner) ? "running" : "gone"}`;
    if (opts.dryRun) {
      opts.log(
        e.kind === "run"
          ? `reap (dry run): would mark ${e.path} interrupted if it is still running (${ageText})`
          : e.kind === "cluster"
            ? `reap (dry run): would run tiup cluster destroy ${e.path} --yes (${ageText})`
            : e.kind === "stack"
              ? `reap (dry run): would recover ${e.what} (destroy, tag sweep, remove) (${ageText})`
              : `reap (dry run): would stop ${e.what}${e.pid ? ` pid ${e.pid}` : ""} and remove ${e.path} (${ageText})`,
      );
      continue;
    }
    if (e.kind === "run") {
      await markInterrupted(e, opts.log);
      await rm(join(dir, f), { force: true });
      continue;
    }
    if (e.kind === "stack") {
      // loaded only here: the Pulumi Automation API is needed by cloud runs alone
      const { recoverRecorded } = await import("../cloud/provision.ts");
      const { tiupHome } = await import("./tidb/run.ts");
      try {
        await recoverRecorded(e, tiupHome(), opts.log);
        opts.log(`reap: recovered ${e.what} (${ageText})`);
        await rm(join(dir, f), { force: true });
      } catch (err) {
        opts.log(`reap: ${e.what}: recovery failed, entry kept: ${(err as Error).message.split("\n")[0]}`);
        out.kept.push(e);
        out.swept.pop();
      }
      continue;
    }
    if (e.kind === "cluster") {
      // tiup keeps the cluster's topology and key: destroy needs nothing else
      const r = await runCommand("tiup", ["cluster", "destroy", e.path, "--yes"], { timeoutMs: 900_000 });
      if (r.code !== 0) {
        opts.log(
          `reap: tiup cluster destroy ${e.path} failed (exit ${r.code}); entry kept: ${(r.stderr || r.stdout).trim().split("\n").slice(-2).join(" ")}`,
        );
        out.kept.push(e);
        out.swept.pop();
        continue;
      }
      opts.log(`reap: destroyed tiup cluster ${e.path} (${ageText})`);
      await rm(join(dir, f), { force: true });
      continue;
    }
    // a process is signalled only while its command line still names what it was started for
    const marker = e.kind === "playground" ? basename(e.path) : e.path;
    if (
      (e.kind === "server" || e.kind === "playground") &&
      e.pid &&
      alive(e.pid) &&
      cmdline(e.pid).includes(marker)
    ) {
      // a playground stops its components on SIGINT and may take a while
      const playground = e.kind === "playground";
      process.kill(e.pid, e.signal ?? (playground ? "SIGINT" : "SIGTERM"));
      for (let i = 0; i < (playground ? 300 : 100) && alive(e.pid); i++)
        await new Promise((r) => setTimeout(r, 100));
      if (alive(e.pid)) process.kill(e.pid, "SIGKILL");
      opts.log(`reap: stopped ${e.what} pid ${e.pid} (${ageText})`);
    }
    if (e.kind === "server" || e.kind === "playground") {
      if (e.logs && e.log_dir) {
        await keepLogs(e.logs, e.log_dir);
        opts.log(`reap: kept the server's logs in ${e.log_dir}`);
      }
      await rm(e.path, { recursive: true, force: true });
    } else await rmdir(e.path).catch(() => {});
    opts.log(`reap: removed ${e.path}`);
    await rm(join(dir, f), { force: true });
  }
  return out;
}

/** A result its tiperf never finished (killed): marked interrupted, so nobody takes it for a run in progress. */
async function markInterrupted(e: LedgerEntry, log: (line: string) => void): Promise<void> {
  let result: Result;
  try {
    result = await readResult(e.path);
  } catch (err) {
    log(`reap: ${e.path}: left as it is (${(err as Error).message.split("\n")[0]})`);
    return;
  }
  if (result.status !== "running") return;
  result.status = "interrupted";
  result.finished_at = new Date().toISOString();
  result.error = `tiperf (pid ${e.owner}) ended without finishing this run (killed or crashed); marked interrupted by tiperf reap`;
  try {
    await writeResult(e.path, result);
    log(`reap: marked ${e.path} interrupted`);
  } catch (err) {
    log(`reap: ${(err as Error).message}`);
  }
}
