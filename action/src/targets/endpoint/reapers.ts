// The leftovers of runs on existing servers: the databases they created, when tiperf was killed
// before it could drop them. The password comes from the same environment variable as the run's.
import type { LedgerEntry, Reaper } from "../../lifecycle/ledger.ts";
import { addSecret } from "../../proc/secrets.ts";
import type { Connection } from "../types.ts";
import { endpointSql, passwordOf } from "./client.ts";
import { ENDPOINT_DATABASE } from "./deployment.ts";
import { EndpointSchema } from "./schema.ts";
import { dropDatabaseSql } from "./sql.ts";

export const ENDPOINT_REAPERS: Record<string, Reaper> = {
  [ENDPOINT_DATABASE]: {
    order: 10,
    describe: (e) => `drop ${e.what}`,
    async reap(e: LedgerEntry, log) {
      const ep = EndpointSchema.parse(e.endpoint);
      const password = passwordOf(ep, `the ledger's entry for ${e.what}`);
      addSecret(password);
      await endpointSql(
        e.protocol as Connection["protocol"],
        ep,
        password,
      )(dropDatabaseSql(String(e.database)));
      log(`reaped: dropped ${e.what}`);
    },
  },
};
