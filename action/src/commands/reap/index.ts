// Leftovers of runs whose tiperf died, removed by their owners: each target kind, each cloud and
// the result store hand in the reapers of what they record in the ledger.
import { CLOUD_REAPERS } from "../../cloud/reapers.ts";
import { type Reaper, type ReapOptions, type ReapOutcome, reapEntries } from "../../lifecycle/ledger.ts";
import { runReaper } from "../../result/reapers.ts";
import { targetReapers } from "../../targets/registry.ts";

export const reapers = (): Record<string, Reaper> => ({
  ...targetReapers(),
  ...CLOUD_REAPERS,
  run: runReaper,
});

/** Sweeps a ledger with every owner's reaper. */
export function reapLedger(o: Omit<ReapOptions, "reapers">): Promise<ReapOutcome> {
  return reapEntries({ ...o, reapers: reapers() });
}
