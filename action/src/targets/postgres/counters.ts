// PostgreSQL's counters, read in the run's database: its pg_stat_database row, every user table's
// and index's pg_stat_user_tables / pg_stat_user_indexes counters, and pg_stat_statements' sums
// when the extension is loaded there. The named ones the cost metrics divide (tup_returned,
// tup_fetched, blks_hit) and every counter as `postgres:<view>.<column>{…}` for the list of what
// the server did differently.
import { counterKey } from "../../observe/server-counters.ts";

const NUMBER = "'^-?[0-9]+(\\.[0-9]+)?$'";

/** Columns that are levels or ids, not running totals. */
const NOT_COUNTERS = {
  database: ["datid", "numbackends"],
  tables: ["relid", "n_live_tup", "n_dead_tup", "n_mod_since_analyze", "n_ins_since_vacuum"],
  indexes: ["relid", "indexrelid"],
  statements: [
    "userid",
    "dbid",
    "queryid",
    "toplevel",
    "min_exec_time",
    "max_exec_time",
    "mean_exec_time",
    "stddev_exec_time",
    "min_plan_time",
    "max_plan_time",
    "mean_plan_time",
    "stddev_plan_time",
  ],
};
const list = (names: string[]) => names.map((n) => `'${n}'`).join(", ");

/**
 * The SQL that reads the run's database's counters (psql -At: one `series|value` a line):
 * each view's rows spread into their numeric columns.
 */
export const POSTGRES_COUNTERS_SQL = [
  `SELECT 'pg_stat_database.' || e.k || '{datname="' || d.datname || '"}', e.v FROM pg_stat_database d, jsonb_each_text(to_jsonb(d)) AS e(k, v) WHERE d.datname = current_database() AND e.v ~ ${NUMBER} AND e.k NOT IN (${list(NOT_COUNTERS.database)})`,
  `SELECT 'pg_stat_user_tables.' || e.k || '{table="' || t.schemaname || '.' || t.relname || '"}', e.v FROM pg_stat_user_tables t, jsonb_each_text(to_jsonb(t)) AS e(k, v) WHERE e.v ~ ${NUMBER} AND e.k NOT IN (${list(NOT_COUNTERS.tables)})`,
  `SELECT 'pg_stat_user_indexes.' || e.k || '{index="' || i.schemaname || '.' || i.indexrelname || '"}', e.v FROM pg_stat_user_indexes i, jsonb_each_text(to_jsonb(i)) AS e(k, v) WHERE e.v ~ ${NUMBER} AND e.k NOT IN (${list(NOT_COUNTERS.indexes)})`,
].join(" UNION ALL ");

/** Whether pg_stat_statements is there to read in this database (psql -At: t or f). */
export const POSTGRES_HAS_STATEMENTS_SQL =
  "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_stat_statements')";

/** pg_stat_statements summed over the run's database's statements (psql -At). */
export const POSTGRES_STATEMENTS_SQL = `SELECT 'pg_stat_statements.' || e.k, sum(e.v::numeric) FROM pg_stat_statements s, jsonb_each_text(to_jsonb(s)) AS e(k, v) WHERE s.dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND e.v ~ ${NUMBER} AND e.k NOT IN (${list(NOT_COUNTERS.statements)}) GROUP BY e.k`;

/** The pg_stat_database columns the cost metrics divide. */
const NAMED = ["tup_returned", "tup_fetched", "blks_hit"];

/**
 * PostgreSQL's counters from `psql -At` of POSTGRES_COUNTERS_SQL (and of
 * POSTGRES_STATEMENTS_SQL): every series as `postgres:<series>`, and the named ones from the
 * database's row.
 */
export function postgresCounters(tsv: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of tsv.split("\n")) {
    // psql -At joins the columns with | (or a tab with -F)
    const m = /^(.+)[\t|](-?\d+(?:\.\d+)?)$/.exec(line.trim());
    if (!m) continue;
    const series = m[1] as string;
    const v = Number(m[2]);
    out[counterKey("postgres", series)] = v;
    const named = /^pg_stat_database\.([a-z_]+)\{/.exec(series)?.[1];
    if (named && NAMED.includes(named)) out[named] = (out[named] ?? 0) + v;
  }
  return out;
}

/** Reads the counters with `sql` (psql -At in the run's database): the views, and pg_stat_statements when loaded. */
export async function readPostgresCounters(
  sql: (query: string) => Promise<string>,
): Promise<Record<string, number>> {
  const views = await sql(POSTGRES_COUNTERS_SQL);
  const has = (await sql(POSTGRES_HAS_STATEMENTS_SQL).catch(() => "f")).trim() === "t";
  const statements = has ? await sql(POSTGRES_STATEMENTS_SQL).catch(() => "") : "";
  return postgresCounters(`${views}\n${statements}`);
}
