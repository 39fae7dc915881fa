// Kind postgres: a private PostgreSQL server per variant, from Debian's postgresql.
import { join } from "node:path";
import { anyTool } from "../../proc/env.ts";
import { localKind } from "../local/kind.ts";
import { readPostgresCounters } from "./counters.ts";
import {
  postgresBinDirs,
  postgresCommands,
  postgresDatabaseSql,
  READ_BACK,
  startPostgres,
} from "./server.ts";

export const postgres = localKind({
  name: "postgres",
  title: "PostgreSQL",
  protocol: "postgres",
  user: "postgres",
  commands: (o) => postgresCommands({ ...o, bin: postgresBinDirs()[0] ?? "/usr/lib/postgresql/<N>/bin" }),
  versionSql: READ_BACK.version,
  settingSql: READ_BACK.setting,
  databaseSql: postgresDatabaseSql,
  endpoint: {
    kind: "postgres",
    title: "PostgreSQL",
    protocol: "postgres",
    versionSql: READ_BACK.version,
    // the run's own database only: other databases' clients stay out of its counters
    counters: {
      metrics: () => ["tup_returned_per_op", "tup_fetched_per_op", "blks_hit_per_op"],
      source: () =>
        "pg_stat_database, pg_stat_user_tables and pg_stat_user_indexes of the run's database, and pg_stat_statements where loaded",
      read: (sql) => readPostgresCounters(sql),
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
