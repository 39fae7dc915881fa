import * as core from "@actions/core";
import { ledgerDir } from "../lifecycle/ledger.ts";
import { reapLedger } from "../pipeline/reap.ts";

/** The post step (runs on success, failure and cancel): removes whatever the main step left. */
async function postStep(): Promise<void> {
  const dir = core.getState("ledger") || ledgerDir();
  const { swept } = await reapLedger({ dir, log: (line) => core.info(line) });
  core.info(swept.length ? `post: cleaned up ${swept.length} leftover(s)` : "post: nothing left to clean up");
}

postStep().catch((e) => core.setFailed((e as Error).message));
