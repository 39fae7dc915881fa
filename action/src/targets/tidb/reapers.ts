// The leftovers of TiDB deployments whose tiperf died: a playground (its process and data
// directory) and a tiup cluster (destroyed through tiup, which keeps its topology and key).
import { rm } from "node:fs/promises";
import { basename } from "node:path";
import type { Reaper } from "../../lifecycle/ledger.ts";
import { runCommand } from "../../proc/process.ts";
import { stopRecorded } from "../local/reapers.ts";

export const playgroundReaper: Reaper = {
  order: 0,
  describe: (e) => `stop ${e.what}${e.pid ? ` pid ${e.pid}` : ""} and remove ${e.path}`,
  async reap(e, log) {
    // a playground stops its components on SIGINT and may take a while
    if (await stopRecorded(e.pid, basename(e.path), "SIGINT", 30_000))
      log(`reap: stopped ${e.what} pid ${e.pid}`);
    await rm(e.path, { recursive: true, force: true });
    log(`reap: removed ${e.path}`);
  },
};

export const clusterReaper: Reaper = {
  order: 0,
  describe: (e) => `run tiup cluster destroy ${e.path} --yes`,
  async reap(e, log) {
    const r = await runCommand("tiup", ["cluster", "destroy", e.path, "--yes"], { timeoutMs: 900_000 });
    if (r.code !== 0)
      throw new Error(
        `tiup cluster destroy ${e.path} failed (exit ${r.code}): ${(r.stderr || r.stdout).trim().split("\n").slice(-2).join(" ")}`,
      );
    log(`reap: destroyed tiup cluster ${e.path}`);
  },
};

export const TIDB_REAPERS: Record<string, Reaper> = { playground: playgroundReaper, cluster: clusterReaper };
