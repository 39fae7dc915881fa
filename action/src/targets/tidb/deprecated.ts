// Config keys TiDB and TiKV deprecated or stopped reading, by the version that did it: a spec that
// still sets one measures nothing (the component ignores it, and a read-back that compares names
// passes). Each entry names its source in PingCAP's documentation.

export interface Deprecation {
  role: "tidb" | "tikv" | "pd";
  /** The config key (dotted), or a pattern of keys. */
  key: RegExp;
  /** The first version that no longer honours it. */
  since: string;
  use: string;
  source: string;
}

export const DEPRECATED: Deprecation[] = [
  {
    role: "tikv",
    key: /^rocksdb\.(defaultcf|writecf|lockcf)\.block-cache-size$/,
    since: "v6.6.0",
    use: "storage.block-cache.capacity (one block cache shared by every column family)",
    source: "docs.pingcap.com/tidb/stable/tikv-configuration-file#block-cache-size",
  },
  {
    role: "tikv",
    key: /^raftdb\.defaultcf\.block-cache-size$/,
    since: "v6.6.0",
    use: "storage.block-cache.capacity",
    source: "docs.pingcap.com/tidb/stable/tikv-configuration-file#block-cache-size",
  },
  {
    role: "tidb",
    key: /^prepared-plan-cache\.enabled$/,
    since: "v6.1.0",
    use: "the system variable tidb_enable_prepared_plan_cache (target.sql: SET GLOBAL tidb_enable_prepared_plan_cache = ON)",
    source: "docs.pingcap.com/tidb/stable/tidb-configuration-file#prepared-plan-cache",
  },
  {
    // pingcap/tidb#34643 made it a system variable: the key is read only when a store bootstrapped
    // before v6.1.0 is upgraded, so a fresh server still auto-analyzes (and SHOW CONFIG shows false)
    role: "tidb",
    key: /^performance\.run-auto-analyze$/,
    since: "v6.1.0",
    use: "the system variable tidb_enable_auto_analyze (target.sql: SET GLOBAL tidb_enable_auto_analyze = OFF)",
    source: "docs.pingcap.com/tidb/stable/system-variables#tidb_enable_auto_analyze-new-in-v610",
  },
  {
    role: "tikv",
    key: /^log-level$/,
    since: "v5.4.0",
    use: "log.level",
    source: "docs.pingcap.com/tidb/stable/tikv-configuration-file#log-level",
  },
];

const parts = (v: string) => /^v(\d+)\.(\d+)\.(\d+)/.exec(v)?.slice(1).map(Number);

/** Whether `version` is `since` or later; an unknown version (nightly, a build) counts as later. */
export function atLeast(version: string, since: string): boolean {
  const a = parts(version);
  const b = parts(since) as number[];
  if (!a) return true;
  for (let i = 0; i < 3; i++) if ((a[i] as number) !== b[i]) return (a[i] as number) > (b[i] as number);
  return true;
}

/** A warning per deprecated key a variant sets on a version that no longer honours it. */
export function deprecationWarnings(
  variants: { name: string; version: string; configKeys: { role: string; key: string }[] }[],
): string[] {
  const out = new Set<string>();
  for (const v of variants)
    for (const k of v.configKeys)
      for (const d of DEPRECATED)
        if (d.role === k.role && d.key.test(k.key) && atLeast(v.version, d.since))
          out.add(
            `${k.role} config ${k.key} is deprecated since ${d.since} (${v.version || "this build"} does not honour it; variants ${variants
              .filter((x) => x.configKeys.some((c) => c.role === k.role && c.key === k.key))
              .map((x) => x.name)
              .join(", ")}): use ${d.use} (${d.source})`,
          );
  return [...out];
}
