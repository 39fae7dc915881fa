// Kind postgres: a private PostgreSQL server per variant, from Debian's postgresql.
import { join } from "node:path";
import { postgresCounters } from "../../observe/cost.ts";
import { anyTool } from "../../proc/env.ts";
import { localKind } from "../local/kind.ts";
import { postgresBinDirs, postgresCommands, READ_BACK, startPostgres } from "./server.ts";

/** The counters of the database the statement runs in (psql -At: values joined by |). */
const POSTGRES_RUN_DATABASE_COUNTERS_SQL =
  "SELECT tup_returned, tup_fetched, blks_hit FROM pg_stat_database WHERE datname = current_database()";

export const postgres = localKind({
  name: "postgres",
  title: "PostgreSQL",
  protocol: "postgres",
  user: "postgres",
  commands: (o) => postgresCommands({ ...o, bin: postgresBinDirs()[0] ?? "/usr/lib/postgresql/<N>/bin" }),
  versionSql: READ_BACK.version,
  settingSql: READ_BACK.setting,
  endpoint: {
    kind: "postgres",
    title: "PostgreSQL",
    protocol: "postgres",
    versionSql: READ_BACK.version,
    // the run's own database only: other databases' clients stay out of its counters
    counters: {
      metrics: () => ["tup_returned_per_op", "tup_fetched_per_op", "blks_hit_per_op"],
      source: () => "pg_stat_database of the run's database (tup_returned, tup_fetched, blks_hit)",
      read: async (sql) => postgresCounters(await sql(POSTGRES_RUN_DATABASE_COUNTERS_SQL)),
    },
  },
  stopSignal: "SIGINT",
  needs: () => {
    const servers = postgresBinDirs().map((d) => join(d, "postgres"));
    return [
      {
        found: anyTool(servers.length ? servers : ["/usr/lib/postgresql/N/bin/postgres"]),
        what: "the PostgreSQL server (target.kind postgres)",
        install: "the Debian package postgresql",
      },
      {
        found: anyTool(["psql"]),
        what: "psql (target.kind postgres)",
        install: "the Debian package postgresql-client",
        client: true,
      },
    ];
  },
  costMetrics: ["tup_returned_per_op", "tup_fetched_per_op", "blks_hit_per_op"],
  start: startPostgres,
});
