// What a TiDB run deploys and runs, decided before anything starts: one place that both
// `tiperf plan` prints and the tidb targets carry out, so the reviewed plan is what runs. How each
// way to deploy plans its deployments and their steps is its own (deployments/); here is what every
// variant does on whatever it runs on: its checks, SQL, split and analyze.
import { InputError } from "../../errors.ts";
import type { Endpoint, PlanStep } from "../types.ts";
import { configUrl, flatKeys, roleConfig } from "./config.ts";
import { deployerOf, formOf } from "./deployments/registry.ts";
import type {
  AddStep,
  DeploymentForm,
  TidbDeployment,
  TidbPlan,
  TidbVariant,
  VariantSetup,
} from "./deployments/types.ts";
import { showConfigSql } from "./online.ts";
import { type Profile, ROLES, type Role } from "./profile.ts";
import { stepKey } from "./steps.ts";

export type {
  TidbDeployment,
  TidbPlan,
  TidbVariant,
  VariantSetup,
} from "./deployments/types.ts";

/**
 * Every config key of each variant, per role, flattened (once, for its setup); a config for a role
 * the variant runs none of would be silently ignored: refused instead, naming it.
 */
function configKeysOf(variants: TidbVariant[], profile: Profile, profileFile: string) {
  const configKeys = new Map(
    variants.map((v) => [
      v.name,
      ROLES.flatMap((role) =>
        flatKeys(roleConfig(profile, v.target, role)).map(([key, value]) => ({ role, key, value })),
      ),
    ]),
  );
  for (const v of variants)
    for (const role of ROLES) {
      const count = v.target.roles?.[role]?.count ?? profile.roles[role].count;
      const keys = (configKeys.get(v.name) ?? []).filter((k) => k.role === role).map((k) => k.key);
      if (count === 0 && keys.length)
        throw new InputError(
          `${profileFile}: variant ${v.name} configures ${role} (${keys.slice(0, 3).join(", ")}${keys.length > 3 ? ", …" : ""}: target.server_configs.${role} or roles.${role}.config) but runs no ${role} (roles.${role}.count is 0): give it instances, or remove that config`,
        );
    }
  return configKeys;
}

/** Where the load tools run: the profile's load host over SSH, else this machine. */
function loadOf(profile: Profile): TidbPlan["load"] {
  const loadHost = profile.hosts?.load?.[0];
  return loadHost
    ? {
        host: loadHost,
        user: profile.ssh?.user ?? "tidb",
        port: profile.ssh?.port ?? 22,
        ...(profile.ssh?.identity_file ? { identity: profile.ssh.identity_file } : {}),
      }
    : { host: "127.0.0.1" };
}

/**
 * Decides the deployments of a TiDB run through the profile's deployer: a private tidb-server or a
 * playground per variant; on a cluster, variants that differ only in configs share one (switched
 * online or by edit-config + reload) and versions and topologies get one each, side by side.
 */
export function planTidb(o: {
  variants: TidbVariant[];
  profile: Profile;
  profileFile: string;
  /** TidbDeployment name prefix (the run id at run time). */
  prefix: string;
  /** The spec's sysbench data, for split: */
  data?: { tables: number; table_size: number };
  /** The load tools' data sets: every table is analyzed after its load. */
  loads?: { database: string; tables: string[] }[];
}): TidbPlan {
  const { profile } = o;
  const form = deployerOf(profile.provider).form;
  if (!form)
    throw new InputError(
      `${o.profileFile}: provider ${profile.provider} deploys nothing: it is measured as an endpoint`,
    );
  const files: Record<string, string> = {};
  const configKeys = configKeysOf(o.variants, profile, o.profileFile);
  const planned = form.plan({
    variants: o.variants,
    profile,
    profileFile: o.profileFile,
    prefix: o.prefix,
    files,
    roleConfig: (target, role) => roleConfig(profile, target, role),
    setupOf: (v, deployment, topologyFile) => ({
      name: v.name,
      deployment,
      version: v.target.version ?? "",
      ...(topologyFile ? { topologyFile } : {}),
      configKeys: configKeys.get(v.name) ?? [],
      sql: v.target.sql ?? [],
      ...(v.target.split ? { split: v.target.split } : {}),
      ...(v.target.resources ? { resources: v.target.resources } : {}),
    }),
  });
  const { deployments, variants } = planned;
  const switching = form.switching(o.variants.length, deployments);
  checkSqlSwitching(variants, deployments);

  const plan: TidbPlan = {
    profile,
    profileFile: o.profileFile,
    deployments,
    variants,
    switching,
    grouped: form.turns?.grouped(switching, deployments) ?? false,
    files,
    ...(planned.haproxy ? { haproxy: planned.haproxy } : {}),
    load: loadOf(profile),
    steps: [],
  };
  plan.steps = stepsOf(plan, o.data, o.loads ?? []);
  return plan;
}

/**
 * Variants sharing one cluster switch by running their own `sql:`; a variable one of them sets
 * and another does not would keep the last value, so every shared variant must set the same ones.
 */
function checkSqlSwitching(variants: VariantSetup[], deployments: TidbDeployment[]): void {
  const setVars = (sql: string[]) =>
    sql
      .flatMap((s) =>
        [...s.matchAll(/SET\s+(?:GLOBAL\s+|@@GLOBAL\.)(\w+)/gi)].map((m) => (m[1] as string).toLowerCase()),
      )
      .sort()
      .join(",");
  for (const d of deployments) {
    const shared = variants.filter((v) => v.deployment === d.index);
    if (shared.length < 2) continue;
    const first = shared[0] as VariantSetup;
    for (const v of shared.slice(1)) {
      if (setVars(v.sql) !== setVars(first.sql))
        throw new InputError(
          `variants ${first.name} and ${v.name} share cluster ${d.name} but their target.sql set different variables (${setVars(first.sql) || "none"} vs ${setVars(v.sql) || "none"}): set the same variables in both, so switching between them restores each value`,
        );
    }
  }
}

/**
 * Where the load tools connect for a deployment, as seen from where they run: HAProxy on the load
 * host, the cluster's TiDB servers, the playground's TiDB, or a private server's port.
 */
export const loadEndpoints = (plan: TidbPlan, d: TidbDeployment): Endpoint[] =>
  formOf(d).loadEndpoints(plan, d);

/** The status APIs of each role (TiDB /status and /config, TiKV /config, PD /pd/api/v1/config). */
export const statusAddresses = (d: TidbDeployment): Record<Role, string[]> => formOf(d).statusAddresses(d);

/** The database sysbench's tables are split in (split: and its steps). */
export const SPLIT_DATABASE = "sbtest";

/** The regions of the first sysbench table, rows and indexes (SHOW TABLE … REGIONS). */
export const regionsSql = () => "SHOW TABLE sbtest.sbtest1 REGIONS";

/**
 * The regions of a table's rows in SHOW TABLE … REGIONS output (tab-separated, no header): those
 * whose START_KEY is a row key (t_<id>_r…); an unsplit table's one region starts at its prefix.
 */
export function rowRegions(out: string): number {
  const regions = out
    .split("\n")
    .map((l) => l.split("\t"))
    .filter((f) => f.length > 2);
  const rows = regions.filter((f) => /^t_\d+_r/.test(f[1] as string)).length;
  return rows || Math.min(regions.length, 1);
}

/**
 * The SQL that splits sysbench table `n` (sbtest.sbtest<n>) into regions: its rows, and its
 * secondary index, which sysbench names k_<n> (the hot spot of update_index), with the scatter
 * switch of the version.
 */
export function splitSql(version: string, n: number, rows: number, regions: number): string {
  const table = `sbtest.sbtest${n}`;
  const major = /^v(\d+)\.(\d+)/.exec(version);
  const newScatter = !major || Number(major[1]) > 8 || (Number(major[1]) === 8 && Number(major[2]) >= 4);
  const scatter = newScatter
    ? "SET SESSION tidb_scatter_region = 'table'"
    : "SET GLOBAL tidb_scatter_region = ON";
  return `${scatter}; SPLIT TABLE ${table} BETWEEN (0) AND (${rows}) REGIONS ${regions}; SPLIT TABLE ${table} INDEX k_${n} BETWEEN (0) AND (${rows}) REGIONS ${regions}`;
}

/** The global variables a target.sql statement sets, with the values it sets them to. */
export function globalsSet(sql: string): { name: string; value: string }[] {
  return [...sql.matchAll(/SET\s+(?:GLOBAL\s+|@@GLOBAL\.)(\w+)\s*=\s*('[^']*'|"[^"]*"|[^,;\s]+)/gi)].map(
    (m) => ({
      name: (m[1] as string).toLowerCase(),
      value: (m[2] as string).replace(/^['"]|['"]$/g, ""),
    }),
  );
}

/** One variant's steps where it runs: its setting read back, its SQL, what is recorded, its data prepared for cells. */
interface VariantSteps {
  plan: TidbPlan;
  v: VariantSetup;
  form: DeploymentForm;
  add: AddStep;
  about: string;
  /** Where tiperf's own SQL and status checks run (behind a bastion: the load host). */
  checks: PlanStep["where"];
}

/** The variant's config keys read back: through TiDB's SQL where the status ports are out of reach, else each instance's /config. */
function readBackSteps({ v, form, add, about, checks }: VariantSteps, status: Record<Role, string[]>) {
  for (const role of new Set(v.configKeys.map((k) => k.role))) {
    const keys = v.configKeys.filter((k) => k.role === role).map((k) => k.key);
    if (form.configBySql?.includes(role)) {
      add(
        stepKey.showConfig(v, role),
        "record",
        { sql: showConfigSql(role, keys) },
        `${about}: through TiDB (this machine does not reach ${role}'s status port); every ${role} instance it reports must show ${keys.join(", ")} as the spec sets`,
        { variant: v.name, where: checks },
      );
      continue;
    }
    for (const addr of status[role])
      add(
        stepKey.config(v, role, addr),
        "record",
        { get: configUrl(role, addr) },
        `${about}: what SHOW CONFIG shows; ${keys.join(", ")} must match the spec`,
        { variant: v.name, where: checks },
      );
  }
}

/** target.sql before every cell, each global it sets read back; then tidb_version() and /status recorded. */
function sqlAndRecordSteps({ v, add, about, checks }: VariantSteps, status: Record<Role, string[]>) {
  const on = { variant: v.name, where: checks };
  v.sql.forEach((s, i) => {
    add(stepKey.sql(v, i), "sql", { sql: s }, `${about}: target.sql, before every cell of the variant`, on);
    for (const g of globalsSet(s))
      add(
        stepKey.sqlCheck(v, g.name),
        "sql",
        { sql: `SELECT @@GLOBAL.${g.name}` },
        `${about}: must read ${g.value}, or the run fails`,
        on,
      );
  });
  add(stepKey.version(v), "record", { sql: "SELECT tidb_version()" }, about, on);
  add(stepKey.status(v), "record", { get: `http://${status.tidb[0]}/status` }, `${about}: recorded`, on);
}

/** After the data load: sbtest's tables split (and their regions counted where a split differs), every table analyzed. */
function dataSteps(
  { plan, v, add, about, checks }: VariantSteps,
  data: { tables: number; table_size: number } | undefined,
  loads: { database: string; tables: string[] }[],
) {
  const on = { variant: v.name, where: checks };
  if (v.split && data)
    for (let t = 1; t <= data.tables; t++)
      add(
        stepKey.split(v, SPLIT_DATABASE, t),
        "after-load",
        { sql: splitSql(v.version, t, data.table_size, v.split.regions) },
        `${about}: after prepare`,
        on,
      );
  // a split difference is read back on every variant (unsplit: one region): shown, not assumed
  if (data && plan.variants.some((x) => x.split))
    add(
      stepKey.regions(v),
      "after-load",
      { sql: regionsSql() },
      `${about}: the regions of sbtest1's rows counted, recorded as split.regions (what a split difference did)`,
      on,
    );
  for (const load of loads)
    for (const table of load.tables)
      add(
        stepKey.analyze(v, load.database, table),
        "after-load",
        { sql: `ANALYZE TABLE ${load.database}.${table}` },
        `${about}: after the load, so statistics are fresh and auto-analyze does not fire during cells`,
        on,
      );
}

/**
 * Every step of a TiDB plan in the order the run takes them, each with the key the run looks it up
 * by: the run executes these objects (with <run>/tidb filled in), never command lines of its own.
 * The deployments' own steps (start, switch, restart, teardown) are their forms'.
 */
function stepsOf(
  plan: TidbPlan,
  data: { tables: number; table_size: number } | undefined,
  loads: { database: string; tables: string[] }[],
): PlanStep[] {
  const out: PlanStep[] = [];
  const add: AddStep = (key, phase, run, about, o = {}) =>
    out.push({
      key,
      phase,
      where: o.where ?? "runner",
      run,
      ...(o.variant ? { variant: o.variant } : {}),
      ...(about ? { about } : {}),
    });
  const checks: PlanStep["where"] = plan.profile.ssh?.proxy ? "load host" : "runner";
  const started = new Set<number>();
  for (const v of plan.variants) {
    const d = plan.deployments[v.deployment] as TidbDeployment;
    const form = formOf(d);
    const about = `variant ${v.name} on ${d.name}`;
    if (!started.has(d.index)) {
      started.add(d.index);
      form.startSteps(plan, d, v, add, about);
    }
    const switched = form.turns?.switchIn(plan, d, v, add) ?? false;
    const status = form.statusAddresses(d);
    const vs: VariantSteps = { plan, v, form, add, about, checks };
    // a variant switched in is read back at once, before its SQL
    if (switched) readBackSteps(vs, status);
    sqlAndRecordSteps(vs, status);
    if (!switched) readBackSteps(vs, status);
    dataSteps(vs, data, loads);
  }
  for (const d of plan.deployments) formOf(d).blockSteps(plan, d, add);
  for (const d of [...plan.deployments].reverse()) formOf(d).teardownSteps(plan, d, add);
  return out;
}
