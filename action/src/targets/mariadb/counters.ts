// MariaDB's counters: SHOW GLOBAL STATUS, whole. The named ones the cost metrics divide
// (handler_reads: Handler_read_* summed; Innodb_buffer_pool_read_requests), and every other
// monotonic status variable as `mariadb:<Variable_name>` (Com_select, Sort_rows,
// Created_tmp_tables, Select_scan …) for the list of what the server did differently.
import { counterKey } from "../../observe/server-counters.ts";

/** The SQL that reads MariaDB's counters (batch output: name TAB value). */
export const MARIADB_COUNTERS_SQL = "SHOW GLOBAL STATUS";

/**
 * Status variables that are levels, not running totals (connections open, pages held, memory,
 * sizes, uptime), or settings: left out. A variable that goes down between two readings is not
 * read as a counter either (observe/cost.ts costOf).
 */
const GAUGES =
  /^(Acl_|Max_used_|Max_memory_used|Memory_used|Open_|Threads_(cached|connected|running)|Uptime|Innodb_buffer_pool_(pages_(data|dirty|free|misc|old|total)|bytes_)|Innodb_checkpoint_|Innodb_data_pending_|Innodb_history_list_length|Innodb_ibuf_(free_list|segment_size|size)|Innodb_mem_|Innodb_page_size|Innodb_row_lock_current_waits|Innodb_num_open_files|Innodb_available_undo_logs|Innodb_onlineddl_(rowlog_pct_used|pct_progress)|Innodb_encryption_rotation_estimated_iops|Key_blocks_(not_flushed|unused|used|warm)|Qcache_(free_|queries_in_cache|total_blocks)|Rpl_semi_sync_(master_(clients|status|wait_sessions|net_avg_wait_time|tx_avg_wait_time)|slave_status)|Slave_(open_temp_tables|running|heartbeat_period)|Slaves_|Ssl_(ctx_|default_timeout|verify_|session_cache_(mode|size)|used_session_cache_entries)|Tc_log_page_size|Delayed_insert_threads|Last_query_cost|Binlog_snapshot_position|Innodb_lsn_|Innodb_buffer_pool_load_incomplete|wsrep_)/i;

/**
 * MariaDB's counters from SHOW GLOBAL STATUS batch output: Handler_read_* summed as handler_reads
 * (rows the storage engine was asked for, by key, next, first or scan), the buffer pool's page
 * reads, and every numeric status variable that counts as `mariadb:<name>`.
 */
export function mariadbCounters(tsv: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of tsv.split("\n")) {
    const [name, value] = line.trim().split(/\t/);
    if (!name || value === undefined || !/^-?\d+(\.\d+)?$/.test(value)) continue;
    const v = Number(value);
    const n = name.toLowerCase();
    if (n.startsWith("handler_read")) out.handler_reads = (out.handler_reads ?? 0) + v;
    else if (n === "innodb_buffer_pool_read_requests") out[n] = v;
    if (!GAUGES.test(name)) out[counterKey("mariadb", name)] = v;
  }
  return out;
}
