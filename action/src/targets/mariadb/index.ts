// Kind mariadb: a private MariaDB server per variant, from Debian's mariadb-server.
import { anyTool } from "../../proc/env.ts";
import { localKind } from "../local/kind.ts";
import { MARIADB_COUNTERS_SQL, mariadbCounters } from "./counters.ts";
import { MARIADB_PROGRAMS, mariadbCommands, READ_BACK, startMariadb } from "./server.ts";

export const mariadb = localKind({
  name: "mariadb",
  title: "MariaDB",
  protocol: "mysql",
  user: "root",
  commands: mariadbCommands,
  versionSql: READ_BACK.version,
  settingSql: READ_BACK.setting,
  endpoint: {
    kind: "mariadb",
    title: "MariaDB",
    protocol: "mysql",
    versionSql: READ_BACK.version,
    // the server's CPU is not readable from here: its storage engine's reads are
    counters: {
      metrics: () => [
        "handler_reads_per_op",
        "bp_reads_per_op",
        "statements_per_op",
        "rows_read_per_op",
        "tmp_tables_per_op",
      ],
      source: () =>
        "SHOW GLOBAL STATUS (every counter; the cost metrics: Handler_read_*, Innodb_buffer_pool_read_requests)",
      read: async (sql) => mariadbCounters(await sql(MARIADB_COUNTERS_SQL)),
    },
  },
  stopSignal: "SIGTERM",
  needs: () => [
    {
      found: anyTool(MARIADB_PROGRAMS.server),
      what: "the MariaDB server (target.kind mariadb)",
      install: "the Debian package mariadb-server",
    },
    {
      found: anyTool(MARIADB_PROGRAMS.installDb),
      what: "mariadb-install-db (target.kind mariadb)",
      install: "the Debian package mariadb-server",
    },
    {
      found: anyTool(MARIADB_PROGRAMS.client),
      what: "the mariadb client (target.kind mariadb)",
      install: "the Debian package mariadb-client",
      client: true,
    },
  ],
  costMetrics: [
    "handler_reads_per_op",
    "bp_reads_per_op",
    "statements_per_op",
    "rows_read_per_op",
    "tmp_tables_per_op",
  ],
  start: startMariadb,
});
