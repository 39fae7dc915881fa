// The leftover of an ephemeral cluster whose tiperf died: its Pulumi stack, recovered from the
// ledger's record (lock cancelled, refresh, destroy, tag sweep, stack removed).
import type { Reaper } from "../lifecycle/ledger.ts";

export const stackReaper: Reaper = {
  order: 1,
  describe: (e) => `recover ${e.what} (destroy, tag sweep, remove)`,
  async reap(e, log) {
    // loaded only here: the Pulumi Automation API is needed by cloud runs alone
    const { recoverRecorded } = await import("./provision.ts");
    await recoverRecorded(e, log);
    log(`reap: recovered ${e.what}`);
  },
};

export const CLOUD_REAPERS: Record<string, Reaper> = { stack: stackReaper };
