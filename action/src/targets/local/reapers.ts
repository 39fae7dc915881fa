// The leftovers of private servers on this machine (MariaDB, PostgreSQL, tidb-server, …) and of
// their CPU cgroups, as the ledger lists them when their tiperf died.
import { readFileSync } from "node:fs";
import { copyFile, mkdir, rm, rmdir } from "node:fs/promises";
import { basename, join } from "node:path";
import { alive, type LedgerEntry, type Reaper } from "../../lifecycle/ledger.ts";

/** Copies a server's logs into the run directory; what does not fit (a full disk) is skipped. */
export async function keepLogs(logs: string[], logDir: string): Promise<void> {
  try {
    await mkdir(logDir, { recursive: true });
  } catch {
    return;
  }
  for (const log of logs) await copyFile(log, join(logDir, basename(log))).catch(() => {});
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  } catch {
    return "";
  }
}

/**
 * Stops a recorded process, but only while its command line still names `marker` (a pid reused by
 * another program is never signalled); SIGKILL after `waitMs`.
 */
export async function stopRecorded(
  pid: number | undefined,
  marker: string,
  signal: NodeJS.Signals,
  waitMs: number,
): Promise<boolean> {
  if (!pid || !alive(pid) || !cmdline(pid).includes(marker)) return false;
  process.kill(pid, signal);
  for (let waited = 0; waited < waitMs && alive(pid); waited += 100)
    await new Promise((r) => setTimeout(r, 100));
  if (alive(pid)) process.kill(pid, "SIGKILL");
  return true;
}

/** A private server: `path` is its work directory (data, socket, logs). */
export const serverReaper: Reaper = {
  order: 0,
  describe: (e) => `stop ${e.what}${e.pid ? ` pid ${e.pid}` : ""} and remove ${e.path}`,
  async reap(e: LedgerEntry, log) {
    if (await stopRecorded(e.pid, e.path, (e.signal as NodeJS.Signals | undefined) ?? "SIGTERM", 10_000))
      log(`reap: stopped ${e.what} pid ${e.pid}`);
    const logs = e.logs as string[] | undefined;
    const logDir = e.log_dir as string | undefined;
    if (logs && logDir) {
      await keepLogs(logs, logDir);
      log(`reap: kept the server's logs in ${logDir}`);
    }
    await rm(e.path, { recursive: true, force: true });
    log(`reap: removed ${e.path}`);
  },
};

/** A server's CPU cgroup: removable once its processes are gone. */
export const cgroupReaper: Reaper = {
  order: 1,
  describe: (e) => `remove ${e.path}`,
  async reap(e, log) {
    await rmdir(e.path).catch(() => {});
    log(`reap: removed ${e.path}`);
  },
};

export const LOCAL_REAPERS: Record<string, Reaper> = { server: serverReaper, cgroup: cgroupReaper };
