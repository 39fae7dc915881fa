// A tiup cluster whose tiperf died: destroyed through tiup, which keeps its topology and key.
import type { Reaper } from "../../../../lifecycle/ledger.ts";
import { runCommand } from "../../../../proc/process.ts";

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
