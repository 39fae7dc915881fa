// A playground whose tiperf died: its process (SIGINT, as tiup playground stops its components)
// and its data directory, as the ledger recorded them.
import { rm } from "node:fs/promises";
import { basename } from "node:path";
import type { Reaper } from "../../../../lifecycle/ledger.ts";
import { stopRecorded } from "../../../local/reapers.ts";

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
