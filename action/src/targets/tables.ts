// The SQL tiperf itself runs about the run's database and tables: how most servers create it,
// and on a server it does not own which tables a database holds (listed before and after each
// load, so the run drops only those it created) and a name read back quoted as an identifier.
import type { Connection } from "./types.ts";

/** A string as an SQL literal. */
export const quoted = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/** The names of the tables of `database` (PostgreSQL: of the database the client connects to). */
export const tableNamesSql = (protocol: Connection["protocol"], database: string): string =>
  protocol === "mysql"
    ? `SELECT table_name FROM information_schema.tables WHERE table_schema = ${quoted(database)}`
    : "SELECT table_name FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')";

/** A table name as an identifier of the dialect: backquotes (MySQL) or double quotes (PostgreSQL). */
export const quotedIdent = (protocol: Connection["protocol"], name: string): string =>
  protocol === "mysql" ? `\`${name.replace(/`/g, "``")}\`` : `"${name.replace(/"/g, '""')}"`;

/**
 * The one CREATE DATABASE tiperf writes: `ifAbsent` where the server takes IF NOT EXISTS (MariaDB,
 * TiDB), plain where the server has no such clause (PostgreSQL asks its catalogue first) or where a
 * database of that name already there is refused before (an endpoint's run database).
 */
export const createDatabase = (name: string, o: { ifAbsent: boolean }): string =>
  `CREATE DATABASE ${o.ifAbsent ? "IF NOT EXISTS " : ""}${name}`;

/** How most servers give the run its database (MariaDB, TiDB): one statement. */
export const createDatabaseSql = (name: string): string[] => [createDatabase(name, { ifAbsent: true })];
