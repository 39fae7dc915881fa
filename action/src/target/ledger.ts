import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readdir, readFile, rm, rmdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * What tiperf started that must not outlive it, one small file per resource. A normal stop
 * deletes the entry; whatever is left after the owner died (SIGKILL, a cancelled job) is swept by
 * the action's post step or by `tiperf reap`.
 */
export interface LedgerEntry {
  kind: "server" | "cgroup";
  what: string;
  /** The server's pid (server) — only signalled while its command line still names workDir. */
  pid?: number;
  /** Directory to remove: the server's private work dir, or the cgroup. */
  path: string;
  /** How the server stops cleanly (MariaDB SIGTERM, PostgreSQL SIGINT = fast shutdown). */
  signal?: NodeJS.Signals;
  /** The tiperf process that started it. */
  owner: number;
  started_at: string;
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
  // servers first: a cgroup can only go once its processes have
  const entries: [string, LedgerEntry][] = [];
  for (const f of files) {
    try {
      entries.push([f, JSON.parse(await readFile(join(dir, f), "utf8")) as LedgerEntry]);
    } catch {
      opts.log(`reap: ${join(dir, f)} is not a ledger entry; left alone`);
    }
  }
  entries.sort(([, a], [, b]) => (a.kind === b.kind ? 0 : a.kind === "server" ? -1 : 1));
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
        `reap (dry run): would stop ${e.what}${e.pid ? ` pid ${e.pid}` : ""} and remove ${e.path} (${ageText})`,
      );
      continue;
    }
    if (e.kind === "server" && e.pid && alive(e.pid) && cmdline(e.pid).includes(e.path)) {
      process.kill(e.pid, e.signal ?? "SIGTERM");
      for (let i = 0; i < 100 && alive(e.pid); i++) await new Promise((r) => setTimeout(r, 100));
      if (alive(e.pid)) process.kill(e.pid, "SIGKILL");
      opts.log(`reap: stopped ${e.what} pid ${e.pid} (${ageText})`);
    }
    if (e.kind === "server") await rm(e.path, { recursive: true, force: true });
    else await rmdir(e.path).catch(() => {});
    opts.log(`reap: removed ${e.path}`);
    await rm(join(dir, f), { force: true });
  }
  return out;
}
