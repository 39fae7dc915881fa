// Which config items a running cluster changes without a restart. Source: TiDB's documentation,
// "Modify Configuration Dynamically" (dynamic-config.md: the TiKV and PD tables). TiDB changes
// none of its own items this way (its SET CONFIG answers "TiDB doesn't support to change configs
// online, please use SQL variables"), and TiFlash only raftstore-proxy.* ones, so both reload.
import type { Role } from "./profile.ts";

const oneOf = (prefix: string, names: string) => `${prefix}\\.(?:${names.trim().split(/\s+/).join("|")})`;

/** TiKV's dynamically changeable items (store-io-pool-size left out: never 0 ↔ non-zero online). */
const TIKV = [
  oneOf(
    "raftstore",
    `raft-max-inflight-msgs raft-log-gc-tick-interval raft-log-gc-threshold raft-log-gc-count-limit
     raft-log-gc-size-limit raft-max-size-per-msg raft-entry-max-size raft-entry-cache-life-time
     max-apply-unpersisted-log-limit split-region-check-tick-interval region-split-check-diff
     region-compact-check-interval region-compact-check-step region-compact-min-tombstones
     region-compact-tombstones-percent pd-heartbeat-tick-interval pd-store-heartbeat-tick-interval
     snap-mgr-gc-tick-interval snap-gc-timeout lock-cf-compact-interval lock-cf-compact-bytes-threshold
     messages-per-tick max-peer-down-duration max-leader-missing-duration abnormal-leader-missing-duration
     peer-stale-state-check-interval consistency-check-interval raft-store-max-leader-lease
     merge-check-tick-interval cleanup-import-sst-interval local-read-batch-size apply-yield-write-size
     hibernate-timeout apply-pool-size store-pool-size apply-max-batch-size store-max-batch-size
     periodic-full-compact-start-max-cpu`,
  ),
  oneOf("readpool\\.unified", "max-thread-count max-tasks-per-worker auto-adjust-pool-size"),
  oneOf(
    "coprocessor",
    "split-region-on-table batch-split-limit region-max-size region-split-size region-max-keys region-split-keys",
  ),
  oneOf("pessimistic-txn", "wait-for-lock-timeout wake-up-delay-duration pipelined in-memory"),
  oneOf(
    "quota",
    `foreground-cpu-time foreground-write-bandwidth foreground-read-bandwidth background-cpu-time
     background-write-bandwidth background-read-bandwidth enable-auto-tune max-delay-duration`,
  ),
  oneOf(
    "gc",
    "ratio-threshold batch-keys max-write-bytes-per-sec enable-compaction-filter compaction-filter-skip-version-check",
  ),
  oneOf(
    "(?:rocksdb|raftdb)",
    `max-total-wal-size max-background-jobs max-background-flushes max-open-files compaction-readahead-size
     bytes-per-sync wal-bytes-per-sync writable-file-max-buffer-size`,
  ),
  oneOf(
    "(?:rocksdb\\.(?:defaultcf|writecf|lockcf|raftcf)|raftdb\\.defaultcf)",
    `block-cache-size write-buffer-size max-write-buffer-number max-bytes-for-level-base target-file-size-base
     level0-file-num-compaction-trigger level0-slowdown-writes-trigger level0-stop-writes-trigger
     max-compaction-bytes max-bytes-for-level-multiplier disable-auto-compactions
     soft-pending-compaction-bytes-limit hard-pending-compaction-bytes-limit titan\\.blob-run-mode
     titan\\.min-blob-size titan\\.blob-file-compression titan\\.discardable-ratio`,
  ),
  oneOf(
    "server",
    `grpc-memory-pool-quota max-grpc-send-msg-len snap-io-max-bytes-per-sec concurrent-send-snap-limit
     concurrent-recv-snap-limit raft-msg-max-batch-size simplify-metrics`,
  ),
  oneOf("storage", "block-cache\\.capacity scheduler-worker-pool-size"),
  "backup\\.num-threads",
  oneOf(
    "split",
    "qps-threshold byte-threshold region-cpu-overload-threshold-ratio split-balance-score split-contained-score",
  ),
  oneOf(
    "cdc",
    "min-ts-interval old-value-cache-memory-quota sink-memory-quota incremental-scan-speed-limit incremental-scan-concurrency",
  ),
];

/** PD's (one config for the whole cluster, kept in its etcd). */
const PD = [
  "log\\.level",
  oneOf(
    "schedule",
    `max-merge-region-size max-merge-region-keys patrol-region-interval split-merge-interval
     max-snapshot-count max-pending-peer-count max-store-down-time max-store-preparing-time
     leader-schedule-policy leader-schedule-limit region-schedule-limit replica-schedule-limit
     merge-schedule-limit hot-region-schedule-limit hot-region-cache-hits-threshold high-space-ratio
     low-space-ratio tolerant-size-ratio enable-remove-down-replica enable-replace-offline-replica
     enable-make-up-replica enable-remove-extra-replica enable-location-replacement
     enable-cross-table-merge enable-one-way-merge region-score-formula-version
     scheduler-max-waiting-operator enable-debug-metrics enable-joint-consensus
     hot-regions-write-interval hot-regions-reserved-days max-movable-hot-peer-size store-limit-version`,
  ),
  oneOf(
    "replication",
    "max-replicas location-labels enable-placement-rules strictly-match-label isolation-level",
  ),
  oneOf(
    "pd-server",
    `use-region-storage max-gap-reset-ts key-type metric-storage dashboard-address flow-round-by-digit
     min-resolved-ts-persistence-interval server-memory-limit server-memory-limit-gc-trigger
     enable-gogc-tuner gc-tuner-threshold`,
  ),
];

const ONLINE: Partial<Record<Role, RegExp>> = {
  tikv: new RegExp(`^(?:${TIKV.join("|")})$`),
  pd: new RegExp(`^(?:${PD.join("|")})$`),
};

/** Whether a running component takes this item without a restart (SET CONFIG). */
export function changesOnline(role: Role, key: string): boolean {
  return ONLINE[role]?.test(key) ?? false;
}

/**
 * The request SET CONFIG sends to each instance (TiDB's pkg/executor/set_config.go): a POST of
 * {"key": value} to a TiKV's /config or a PD's /pd/api/v1/config.
 */
export const setConfigBody = (key: string, value: unknown) => JSON.stringify({ [key]: value });
