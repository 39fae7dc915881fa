// A result.json whose tiperf died while writing it: marked interrupted by `tiperf reap`, so nobody
// takes it for a run in progress.
import type { Reaper } from "../lifecycle/ledger.ts";
import type { Result } from "./model.ts";
import { readResult, writeResult } from "./store.ts";

export const runReaper: Reaper = {
  // last: the servers of the run go first, their logs kept in its directory
  order: 2,
  describe: (e) => `mark ${e.path} interrupted if it is still running`,
  async reap(e, log) {
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
  },
};
