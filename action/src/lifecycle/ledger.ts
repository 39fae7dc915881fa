import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, rmdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, sep } from "node:path";
import { inherited } from "../environment.ts";

/**
 * What tiperf started that must not outlive it, one small file per resource. A normal stop
 * deletes the entry; whatever is left after the owner died (SIGKILL, a cancelled job) is reaped by
 * the action's post step or by `tiperf reap`. The ledger knows no kinds of resource: each owner
 * (a target kind, a cloud, the result store) hands `sweep` the reaper of the kinds it records.
 */
export interface LedgerEntry {
  /** The resource, as its owner names it (server, cgroup, playground, stack, run, …). */
  resource: string;
  what: string;
  /** A process (signalled by its reaper only while its command line still names `path`). */
  pid?: number;
  /** What to remove: a work directory, a cgroup, a cluster's name, a result.json. */
  path: string;
  /** Whatever else the owner's reaper needs (log files, a stop signal, a stack's backend). */
  [detail: string]: unknown;
  /** The tiperf process that started it. */
  owner: number;
  started_at: string;
}

/** How an owner removes the leftovers of one kind of entry. */
export interface Reaper {
  /** Lower first: servers before their cgroups, results last (their servers' logs kept). */
  order: number;
  /** What a dry run would do with the entry. */
  describe(e: LedgerEntry): string;
  /** Stops and removes it, saying what it did; a throw keeps the entry for the next sweep. */
  reap(e: LedgerEntry, log: (line: string) => void): Promise<void>;
}

/** The temp directory's ledger of runs that name none: tiperf's own, whoever made it. */
const defaultLedger = () => join(tmpdir(), "tiperf-ledger");

/** The ledger folder an entry chose for this whole process (the Action's, one per job), if any. */
let chosenLedger: string | undefined;

/**
 * The entry's ledger folder for this process: every record and reap after it uses this folder,
 * whatever the environment says (the Action's main step gives each job its own).
 */
export function useLedger(dir: string): void {
  chosenLedger = dir;
}

/** The ledger's folder: the one the entry chose, else $TIPERF_LEDGER, else the temp directory's. */
export const ledgerDir = (env: NodeJS.ProcessEnv = inherited()) =>
  chosenLedger ?? (env.TIPERF_LEDGER || defaultLedger());

/**
 * Records a resource; returns the function that forgets it once it is gone. The ledger's folder,
 * when this call made it, goes with its last entry (an empty one is only removed, never emptied:
 * another run's entries keep it), so a run leaves no trace in the temp directory.
 */
export async function record(
  entry: { resource: string; what: string; path: string; pid?: number } & Record<string, unknown>,
): Promise<() => Promise<void>> {
  const dir = ledgerDir();
  const file = join(dir, `${entry.resource}-${randomBytes(4).toString("hex")}.json`);
  const full: LedgerEntry = { ...entry, owner: process.pid, started_at: new Date().toISOString() };
  let made: string | undefined;
  // bounded: another run may remove the emptied folder between our mkdir and our write
  for (let attempt = 0; ; attempt++) {
    made = (await mkdir(dir, { recursive: true })) ?? made;
    try {
      await writeFile(file, `${JSON.stringify(full)}\n`, { flag: "wx" });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT" || attempt >= 4) throw e;
    }
  }
  return async () => {
    await rm(file, { force: true });
    await removeEmpty(dir, made);
  };
}

/**
 * Removes `dir` and its parents up to `made` (the first folder this process created), each only
 * while empty: a folder that holds another run's entries stays. Under the default ledger it goes
 * up to that folder, which is tiperf's by its name. A ledger someone named and made stays.
 */
export async function removeEmpty(dir: string, made?: string): Promise<void> {
  const root = defaultLedger();
  const top = made ?? (dir === root || dir.startsWith(`${root}${sep}`) ? root : undefined);
  if (top === undefined) return;
  for (let d = dir; d.length >= top.length; d = dirname(d)) {
    try {
      await rmdir(d);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOTEMPTY" || code === "EEXIST" || code === "ENOTDIR") return;
      if (code !== "ENOENT") throw e;
    }
    if (d === top) return;
  }
}

export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};

export interface ReapOptions {
  dir?: string;
  /** The owners' reapers by entry resource; an entry of another resource is reported and left alone. */
  reapers: Record<string, Reaper>;
  /** Sweep only entries older than this (ms) or whose owner is gone; default: every entry. */
  maxAgeMs?: number;
  dryRun?: boolean;
  log: (line: string) => void;
}

export interface ReapOutcome {
  reaped: LedgerEntry[];
  kept: LedgerEntry[];
}

/** The entries of a ledger and one level of subfolders (each action run keeps its own ledger). */
async function entriesIn(dir: string, log: (line: string) => void): Promise<[string, LedgerEntry][]> {
  const files: string[] = [];
  for (const f of (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    if (f.isFile() && f.name.endsWith(".json")) files.push(f.name);
    if (f.isDirectory())
      for (const g of (await readdir(join(dir, f.name))).sort())
        if (g.endsWith(".json")) files.push(join(f.name, g));
  }
  const entries: [string, LedgerEntry][] = [];
  for (const f of files) {
    try {
      const e = JSON.parse(await readFile(join(dir, f), "utf8")) as LedgerEntry & { kind?: string };
      // an older tiperf's entry names its resource `kind`
      entries.push([join(dir, f), { ...e, resource: e.resource ?? e.kind }]);
    } catch {
      log(`reap: ${join(dir, f)} is not a ledger entry; left alone`);
    }
  }
  return entries;
}

/** Stops and removes what the ledger lists, each entry by its owner's reaper, then forgets it. */
export async function reapEntries(opts: ReapOptions): Promise<ReapOutcome> {
  const dir = opts.dir ?? ledgerDir();
  const out: ReapOutcome = { reaped: [], kept: [] };
  if (!existsSync(dir)) return out;
  const orderOf = (e: LedgerEntry) => opts.reapers[e.resource]?.order ?? Number.POSITIVE_INFINITY;
  const entries = (await entriesIn(dir, opts.log)).sort(([, a], [, b]) => orderOf(a) - orderOf(b));
  for (const [file, e] of entries) {
    const age = Date.now() - Date.parse(e.started_at);
    const due = opts.maxAgeMs === undefined || !alive(e.owner) || age > opts.maxAgeMs;
    const reaper = opts.reapers[e.resource];
    if (!due || !reaper) {
      if (!reaper) opts.log(`reap: ${file}: no reaper for entries of resource ${e.resource}; left alone`);
      out.kept.push(e);
      continue;
    }
    const ageText = `${Math.round(age / 60_000)} min old, owner ${e.owner} ${alive(e.owner) ? "running" : "gone"}`;
    if (opts.dryRun) {
      opts.log(`reap (dry run): would ${reaper.describe(e)} (${ageText})`);
      out.reaped.push(e);
      continue;
    }
    try {
      opts.log(`reap: ${e.what} (${ageText})`);
      await reaper.reap(e, opts.log);
      await rm(file, { force: true });
      out.reaped.push(e);
    } catch (err) {
      opts.log(`reap: ${e.what}: entry kept: ${(err as Error).message.split("\n")[0]}`);
      out.kept.push(e);
    }
  }
  // an action run's ledger (and the default one) goes once nothing is left in it
  if (!opts.dryRun) for (const sub of await readdir(dir).catch(() => [])) await removeEmpty(join(dir, sub));
  if (!opts.dryRun) await removeEmpty(dir);
  return out;
}
