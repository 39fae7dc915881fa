// The SQL of the run's own database on an existing server: its name, its creation, and the
// counts that check it is absent before and hold only the run's tables.
import { createDatabase, quoted } from "../tables.ts";
import type { Connection } from "../types.ts";

/** The database a run owns on an endpoint: named by the run (its plan's prefix), plain SQL. */
export function runDatabase(prefix: string): string {
  return prefix
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, "_")
    .replace(/^([^a-z_])/, "_$1")
    .slice(0, 63);
}

/** The run's own database on an existing server: never IF NOT EXISTS (one already there is refused first). */
export const ownDatabaseSql = (name: string) => createDatabase(name, { ifAbsent: false });

/** The run's own database dropped: at teardown, and by the ledger's reaper when tiperf was killed. */
export const dropDatabaseSql = (name: string) => `DROP DATABASE IF EXISTS ${name}`;

/** SQL that counts the tables of `database` (postgres: run inside it). */
export const tablesSql = (protocol: Connection["protocol"], database: string) =>
  protocol === "mysql"
    ? `SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = ${quoted(database)}`
    : "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')";
export const existsSql = (protocol: Connection["protocol"], database: string) =>
  protocol === "mysql"
    ? `SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = ${quoted(database)}`
    : `SELECT COUNT(*) FROM pg_database WHERE datname = ${quoted(database)}`;
