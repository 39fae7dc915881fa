import * as core from "@actions/core";
import { reapLedger } from "../commands/reap/index.ts";
import { ledgerDir } from "../lifecycle/ledger.ts";

/** The post step (runs on success, failure and cancel): removes whatever the main step left. */
async function postStep(): Promise<void> {
  const dir = core.getState("ledger") || ledgerDir();
  const { reaped } = await reapLedger({ dir, log: (line) => core.info(line) });
  core.info(
    reaped.length ? `post: cleaned up ${reaped.length} leftover(s)` : "post: nothing left to clean up",
  );
}

postStep().catch((e) => core.setFailed((e as Error).message));
