// Which config items a running cluster changes without a restart. Source: TiDB's documentation,
// "Modify Configuration Dynamically" (dynamic-config.md: the TiKV and PD tables). TiDB changes
// none of its own items this way (its SET CONFIG answers "TiDB doesn't support to change configs
// online, please use SQL variables"), and TiFlash only raftstore-proxy.* ones, so both reload.
import type { VariantSetup } from "./deployments/types.ts";
import { ROLES, type Role } from "./profile.ts";

/**
 * How variants sharing one cluster take turns: online (the config items that differ posted to the
 * running components, as SET CONFIG does, plus target.sql), or edit-config and a reload of only
 * the roles whose config differs (a restart of those roles).
 */
export type ConfigSwitch =
  | { by: "online"; keys: { role: Role; key: string }[] }
  | { by: "reload"; roles: Role[]; keys: { role: Role; key: string }[]; why: string[] };

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

/**
 * How the variants of one deployment take turns: online when every config item that differs between
 * them changes online and each of them sets it (a value only some set has no value to go back to
 * in the others), else a reload of the roles whose config differs.
 */
export function configSwitchOf(setups: VariantSetup[]): ConfigSwitch {
  const all = new Map<string, { role: Role; key: string }>();
  for (const s of setups)
    for (const k of s.configKeys) all.set(`${k.role} ${k.key}`, { role: k.role, key: k.key });
  const valueIn = (s: VariantSetup, k: { role: Role; key: string }) =>
    s.configKeys.find((c) => c.role === k.role && c.key === k.key)?.value;
  const keys = [...all.values()].filter((k) => {
    const values = setups.map((s) => JSON.stringify(valueIn(s, k)));
    return new Set(values).size > 1;
  });
  const why: string[] = [];
  for (const k of keys) {
    const unset = setups.filter((s) => valueIn(s, k) === undefined).map((s) => s.name);
    if (!changesOnline(k.role, k.key)) why.push(`${k.role} ${k.key} changes only with a restart`);
    else if (unset.length)
      why.push(
        `${k.role} ${k.key} is not set by ${unset.join(", ")}, so there is no value to switch back to online (set it in every variant, e.g. to its default, to switch online)`,
      );
  }
  if (!why.length) return { by: "online", keys };
  return { by: "reload", roles: ROLES.filter((r) => keys.some((k) => k.role === r)), keys, why };
}

/** A string in single quotes as SQL reads it back. */
const quoted = (s: string) => `'${s.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;

/**
 * SET CONFIG through TiDB's SQL (dynamic-config.md): TiDB sends the item to every instance of the
 * role and answers a failure with a warning, not an error — so SHOW WARNINGS follows in the same
 * session and any warning it prints fails the switch. Numbers and booleans go bare, other values
 * quoted ('1GiB').
 */
export function setConfigSql(role: Role, key: string, value: unknown): string {
  const literal =
    typeof value === "number" || typeof value === "boolean" ? String(value) : quoted(String(value));
  return `SET CONFIG ${role} \`${key.replaceAll("`", "``")}\` = ${literal}; SHOW WARNINGS`;
}

/** SHOW CONFIG of some items of one role: a row per instance and item. */
export const showConfigSql = (role: Role, keys: string[]) =>
  `SHOW CONFIG WHERE type = ${quoted(role)} AND name IN (${keys.map(quoted).join(", ")})`;

export interface ConfigRow {
  type: string;
  instance: string;
  name: string;
  value: string;
}

/** SHOW CONFIG's rows (Type, Instance, Name, Value) as the MySQL client prints them with -N -B. */
export function parseShowConfig(out: string): ConfigRow[] {
  // -B escapes a value's tab, newline and backslash
  const unescaped = (s: string) =>
    s.replace(/\\([\\tn0])/g, (_, c: string) =>
      c === "t" ? "\t" : c === "n" ? "\n" : c === "0" ? "\0" : "\\",
    );
  return out
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => {
      const [type = "", instance = "", name = "", ...rest] = line.split("\t");
      return { type, instance, name, value: unescaped(rest.join("\t")) };
    });
}
