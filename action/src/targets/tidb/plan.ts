// What a TiDB run deploys and runs, decided before anything starts: one place that both
// `tiperf plan` prints and the tidb targets carry out, so the reviewed plan is what runs.
import { homedir } from "node:os";
import { InputError } from "../../errors.ts";
import { shellCommand } from "../../proc/quote.ts";
import type { TargetSpec } from "../../specfile/schema.ts";
import { deepMerge } from "../../specfile/variants.ts";
import type { Endpoint } from "../types.ts";
import { type Profile, ROLES, type Role } from "./profile.ts";
import {
  buildCluster,
  type Cluster,
  checkTopology,
  effectiveRoles,
  effectiveServerConfigs,
  topologyObject,
  topologyYaml,
} from "./topology.ts";

export interface TidbVariant {
  name: string;
  target: TargetSpec;
}

export interface ClusterDeployment {
  kind: "cluster";
  name: string;
  index: number;
  version: string;
  cluster: Cluster;
  /** The variants measured on this cluster (more than one: they differ only in configs). */
  variants: string[];
  /** tiup's --ssh-proxy-* flags (a profile's ssh.proxy), given to every tiup cluster command. */
  proxyFlags: string[];
}

export interface PlaygroundDeployment {
  kind: "playground";
  /** tiup playground --tag: its data directory under $TIUP_HOME/data. */
  name: string;
  index: number;
  version: string;
  variants: string[];
  counts: Record<Role, number>;
  portOffset: number;
  /** --db.config, --kv.config, … file names of this playground (in the run's tidb/ directory). */
  configFiles: Partial<Record<Role, string>>;
}

export type Deployment = ClusterDeployment | PlaygroundDeployment;

export interface VariantSetup {
  name: string;
  deployment: number;
  version: string;
  /** topology file of this variant (cluster): the deployed one, or the edit-config target. */
  topologyFile?: string;
  /** Every config key the variant sets, per role, flattened (as SHOW CONFIG names them). */
  configKeys: { role: Role; key: string; value: unknown }[];
  sql: string[];
  split?: { regions: number };
}

export interface PlanCommand {
  phase: string;
  where: "runner" | "load host";
  argv: string[];
  about?: string;
}

export interface TidbPlan {
  profile: Profile;
  profileFile: string;
  deployments: Deployment[];
  variants: VariantSetup[];
  /** How variants sharing hardware take turns. */
  switching: "none" | "edit-config" | "stop-start" | "separate-playgrounds";
  /** File name (under the run's tidb/ directory) → contents. */
  files: Record<string, string>;
  haproxy?: { host: string; port: number; file: string };
  /** Where the load tools run: this machine, or the load host over SSH. */
  load: { host: string; user?: string; port?: number; identity?: string };
  commands: PlanCommand[];
}

/** playground flags of each role (tiup playground --db N --db.config F …). */
const PLAYGROUND_FLAG: Record<Role, string> = { pd: "pd", tikv: "kv", tidb: "db", tiflash: "tiflash" };
/** tiup playground --port-offset between playgrounds on one machine (tiup suggests 10000, 20000). */
export const PLAYGROUND_PORT_OFFSET = 10000;

/** A TOML key: bare when it can be, quoted otherwise. */
const tomlKey = (k: string) => (/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k));

function tomlValue(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return `[${v.map(tomlValue).join(", ")}]`;
  throw new InputError(`cannot write ${JSON.stringify(v)} into a TOML config`);
}

/** Dotted keys (log.level, storage.block-cache.capacity) become nested tables, as tiup expands them. */
export function expandDotted(config: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    const parts = key.split(".");
    const nested = parts.reduceRight<unknown>(
      (acc, part) => ({ [part]: acc }),
      value && typeof value === "object" && !Array.isArray(value)
        ? expandDotted(value as Record<string, unknown>)
        : value,
    );
    out = deepMerge(out, nested) as Record<string, unknown>;
  }
  return out;
}

/** A server config as TOML, the format TiDB, TiKV, PD and TiFlash read. */
export function toToml(config: Record<string, unknown>): string {
  const lines: string[] = [];
  const walk = (obj: Record<string, unknown>, path: string[]) => {
    const scalars = Object.entries(obj).filter(([, v]) => !(v && typeof v === "object" && !Array.isArray(v)));
    const tables = Object.entries(obj).filter(([, v]) => v && typeof v === "object" && !Array.isArray(v));
    if (path.length && scalars.length) lines.push("", `[${path.map(tomlKey).join(".")}]`);
    for (const [k, v] of scalars) lines.push(`${tomlKey(k)} = ${tomlValue(v)}`);
    for (const [k, v] of tables) walk(v as Record<string, unknown>, [...path, k]);
  };
  walk(expandDotted(config), []);
  return `${lines.join("\n").trim()}\n`;
}

/** Every key a role's config sets, flattened to dotted form (log.level), with its value. */
export function flatKeys(config: Record<string, unknown>, prefix = ""): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const [k, v] of Object.entries(expandDotted(config))) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object" && !Array.isArray(v))
      out.push(...flatKeys(v as Record<string, unknown>, key));
    else out.push([key, v]);
  }
  return out;
}

/** One role's full config of a variant: server_configs[role] with the role's own config over it. */
function roleConfig(profile: Profile, target: TargetSpec, role: Role): Record<string, unknown> {
  const server = effectiveServerConfigs(profile, target)[role] ?? {};
  const own = effectiveRoles(profile, target)[role].config ?? {};
  return deepMerge(expandDotted(server), expandDotted(own)) as Record<string, unknown>;
}

export const expandHome = (path: string) => (path.startsWith("~/") ? `${homedir()}/${path.slice(2)}` : path);

/** The HAProxy config in front of every TiDB server of a cluster (leastconn, TCP, health-checked). */
export function haproxyConfig(endpoints: Endpoint[], port: number, name: string): string {
  return `# HAProxy in front of the TiDB servers of ${name}, generated by tiperf
global
    # about two file descriptors per connection: within a login session's usual limits
    maxconn 4096

defaults
    mode tcp
    timeout connect 10s
    timeout client 1h
    timeout server 1h

listen tidb
    bind 0.0.0.0:${port}
    balance leastconn
    option tcp-check
${endpoints.map((e, i) => `    server tidb-${i + 1} ${e.host}:${e.port} check inter 2000 rise 2 fall 3`).join("\n")}
`;
}

/**
 * Decides the deployments of a TiDB run. Variants that differ only in configs share one cluster
 * (switched by edit-config + reload); versions and topologies get one cluster each, side by side on
 * the same hosts with distinct ports and directories, only the measured one running. Playgrounds
 * are one per variant (tiup playground takes configs at start only), ports apart by --port-offset.
 */
export function planTidb(o: {
  variants: TidbVariant[];
  profile: Profile;
  profileFile: string;
  /** Cluster name / playground tag prefix (the run id at run time). */
  prefix: string;
}): TidbPlan {
  const { profile } = o;
  const files: Record<string, string> = {};
  const deployments: Deployment[] = [];
  const variants: VariantSetup[] = [];
  const configKeysOf = (target: TargetSpec) =>
    ROLES.flatMap((role) =>
      flatKeys(roleConfig(profile, target, role)).map(([key, value]) => ({ role, key, value })),
    );
  const setupOf = (v: TidbVariant, deployment: number, topologyFile?: string): VariantSetup => ({
    name: v.name,
    deployment,
    version: v.target.version ?? "",
    ...(topologyFile ? { topologyFile } : {}),
    configKeys: configKeysOf(v.target),
    sql: v.target.sql ?? [],
    ...(v.target.split ? { split: v.target.split } : {}),
  });

  if (profile.provider === "playground") {
    o.variants.forEach((v, index) => {
      const roles = effectiveRoles(profile, v.target);
      const configFiles: Partial<Record<Role, string>> = {};
      for (const role of ROLES) {
        const config = roleConfig(profile, v.target, role);
        if (Object.keys(config).length === 0) continue;
        const file = `${v.name}-${role}.toml`;
        files[file] = toToml(config);
        configFiles[role] = file;
      }
      deployments.push({
        kind: "playground",
        name: o.variants.length > 1 ? `${o.prefix}-${v.name}` : o.prefix,
        index,
        version: v.target.version ?? "",
        variants: [v.name],
        counts: Object.fromEntries(ROLES.map((r) => [r, roles[r].count ?? 0])) as Record<Role, number>,
        portOffset: index * PLAYGROUND_PORT_OFFSET,
        configFiles,
      });
      variants.push(setupOf(v, index));
    });
  } else {
    // Variants whose clusters differ in nothing but configs share one.
    const groups: { key: string; members: TidbVariant[] }[] = [];
    for (const v of o.variants) {
      const probe = buildCluster({ name: "probe", index: 0, profile, target: v.target });
      const key = `${v.target.version}\n${JSON.stringify(topologyObject(probe, false))}`;
      const g = groups.find((x) => x.key === key);
      if (g) g.members.push(v);
      else groups.push({ key, members: [v] });
    }
    groups.forEach((g, index) => {
      const name = groups.length > 1 ? `${o.prefix}-${index + 1}` : o.prefix;
      let deployed: Cluster | undefined;
      for (const v of g.members) {
        const cluster = buildCluster({ name, index, profile, target: v.target });
        deployed ??= cluster;
        const file = `topology-${v.name}.yaml`;
        files[file] = topologyYaml(cluster);
        variants.push(setupOf(v, index, file));
      }
      deployments.push({
        kind: "cluster",
        name,
        index,
        version: g.members[0]?.target.version ?? "",
        cluster: deployed as Cluster,
        variants: g.members.map((m) => m.name),
        proxyFlags: proxyFlags(profile),
      });
    });
    checkTopology(
      deployments.map((d) => (d as ClusterDeployment).cluster),
      o.profileFile,
    );
  }

  const switching: TidbPlan["switching"] =
    profile.provider === "playground"
      ? o.variants.length > 1
        ? "separate-playgrounds"
        : "none"
      : deployments.length > 1
        ? "stop-start"
        : o.variants.length > 1
          ? "edit-config"
          : "none";
  checkSqlSwitching(variants, deployments);

  const loadHost = profile.hosts?.load?.[0];
  const load: TidbPlan["load"] = loadHost
    ? {
        host: loadHost,
        user: profile.ssh?.user ?? "tidb",
        port: profile.ssh?.port ?? 22,
        ...(profile.ssh?.identity_file ? { identity: profile.ssh.identity_file } : {}),
      }
    : { host: "127.0.0.1" };
  const plan: TidbPlan = {
    profile,
    profileFile: o.profileFile,
    deployments,
    variants,
    switching,
    files,
    load,
    commands: [],
  };
  if (profile.haproxy && loadHost) {
    for (const d of deployments) {
      if (d.kind !== "cluster") continue;
      const file = `haproxy-${d.name}.cfg`;
      files[file] = haproxyConfig(tidbEndpoints(d), haproxyPort(plan, d), d.name);
    }
    plan.haproxy = { host: loadHost, port: profile.haproxy_port, file: "haproxy-<cluster>.cfg" };
  }
  plan.commands = commandsOf(plan);
  return plan;
}

/**
 * Variants sharing one cluster switch by running their own `sql:`; a variable one of them sets
 * and another does not would keep the last value, so every shared variant must set the same ones.
 */
function checkSqlSwitching(variants: VariantSetup[], deployments: Deployment[]): void {
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

/** HAProxy's port on the load host for a cluster (clusters side by side: one port each). */
export const haproxyPort = (plan: TidbPlan, d: Deployment) => plan.profile.haproxy_port + d.index;

/** The TiDB port a playground announces unless it is busy (then the one it prints is used). */
export const playgroundTidbPort = (d: PlaygroundDeployment) => 4000 + d.portOffset;

/**
 * Where the load tools connect for a deployment, as seen from where they run: HAProxy on the load
 * host, the cluster's TiDB servers, or the playground's TiDB.
 */
export function loadEndpoints(plan: TidbPlan, d: Deployment): Endpoint[] {
  if (d.kind === "playground") return [{ host: "127.0.0.1", port: playgroundTidbPort(d) }];
  return plan.haproxy ? [{ host: "127.0.0.1", port: haproxyPort(plan, d) }] : tidbEndpoints(d);
}

/** The TiDB servers of a cluster (what HAProxy balances over, or what the tools connect to). */
export function tidbEndpoints(d: ClusterDeployment): Endpoint[] {
  return d.cluster.instances
    .filter((i) => i.role === "tidb")
    .map((i) => ({ host: i.host, port: i.ports.port as number }));
}

/** The status APIs of each role (TiDB /status and /config, TiKV /config, PD /pd/api/v1/config). */
export function statusAddresses(d: Deployment): Record<Role, string[]> {
  if (d.kind === "playground") {
    const off = d.portOffset;
    return {
      tidb: [`127.0.0.1:${10080 + off}`],
      tikv: [`127.0.0.1:${20180 + off}`],
      pd: [`127.0.0.1:${2379 + off}`],
      tiflash: [`127.0.0.1:${8234 + off}`],
    };
  }
  const of = (role: Role, port: string) =>
    d.cluster.instances.filter((i) => i.role === role).map((i) => `${i.host}:${i.ports[port]}`);
  return {
    tidb: of("tidb", "status_port"),
    tikv: of("tikv", "status_port"),
    pd: of("pd", "client_port"),
    tiflash: of("tiflash", "metrics_port"),
  };
}

/** tiup's SSH flags for a hosts profile: the user and key tiup logs in with. */
function sshFlags(profile: Profile): string[] {
  const ssh = profile.ssh;
  return [
    "--user",
    ssh?.user ?? "tidb",
    ...(ssh?.identity_file ? ["-i", expandHome(ssh.identity_file)] : []),
  ];
}

/**
 * tiup-cluster's root flags for a bastion (hidden in its help; components/cluster/command/root.go):
 * host, user, port and key of the proxy every SSH connection of tiup goes through.
 */
function proxyFlags(profile: Profile): string[] {
  const proxy = profile.ssh?.proxy;
  if (!proxy) return [];
  const key = proxy.identity_file ?? profile.ssh?.identity_file;
  return [
    "--ssh-proxy-host",
    proxy.host,
    "--ssh-proxy-user",
    proxy.user ?? profile.ssh?.user ?? "tidb",
    "--ssh-proxy-port",
    String(proxy.port),
    ...(key ? ["--ssh-proxy-identity-file", expandHome(key)] : []),
  ];
}

/** The tiup command lines of a cluster deployment, one function per subcommand. */
export const tiupCluster = {
  deploy: (d: ClusterDeployment, file: string, profile: Profile) => [
    "tiup",
    "cluster",
    "deploy",
    d.name,
    d.version,
    file,
    "--yes",
    ...sshFlags(profile),
    ...d.proxyFlags,
  ],
  start: (d: ClusterDeployment) => ["tiup", "cluster", "start", d.name, ...d.proxyFlags],
  stop: (d: ClusterDeployment) => ["tiup", "cluster", "stop", d.name, "--yes", ...d.proxyFlags],
  display: (d: ClusterDeployment) => [
    "tiup",
    "cluster",
    "display",
    d.name,
    "--format",
    "json",
    "--uptime",
    ...d.proxyFlags,
  ],
  editConfig: (d: ClusterDeployment, file: string) => [
    "tiup",
    "cluster",
    "edit-config",
    d.name,
    "--topology-file",
    file,
    "--yes",
  ],
  reload: (d: ClusterDeployment) => ["tiup", "cluster", "reload", d.name, "--yes", ...d.proxyFlags],
  restart: (d: ClusterDeployment) => ["tiup", "cluster", "restart", d.name, "--yes", ...d.proxyFlags],
  destroy: (d: ClusterDeployment) => ["tiup", "cluster", "destroy", d.name, "--yes", ...d.proxyFlags],
};

/** `tiup playground VERSION --db N --kv N --pd N --tiflash N --without-monitor --tag T …`. */
export function playgroundArgs(d: PlaygroundDeployment, dir: string): string[] {
  return [
    "tiup",
    "playground",
    d.version,
    ...ROLES.flatMap((r) => [`--${PLAYGROUND_FLAG[r]}`, String(d.counts[r])]),
    "--without-monitor",
    "--tag",
    d.name,
    ...(d.portOffset ? ["--port-offset", String(d.portOffset)] : []),
    ...ROLES.flatMap((r) =>
      d.configFiles[r] ? [`--${PLAYGROUND_FLAG[r]}.config`, `${dir}/${d.configFiles[r]}`] : [],
    ),
  ];
}

function commandsOf(plan: TidbPlan): PlanCommand[] {
  const out: PlanCommand[] = [];
  const dir = "tidb";
  const add = (phase: string, argv: string[], about?: string, where: PlanCommand["where"] = "runner") =>
    out.push({ phase, where, argv, ...(about ? { about } : {}) });
  for (const d of plan.deployments) {
    const users = plan.variants.filter((v) => v.deployment === d.index);
    if (d.kind === "playground") {
      add(
        "start",
        playgroundArgs(d, dir),
        `variant ${d.variants.join(", ")}: runs until teardown; ready when it prints "TiDB Playground Cluster is started"; the TiDB port is read from its "Connect TiDB" lines`,
      );
    } else {
      const first = users[0] as VariantSetup;
      add(
        "deploy",
        tiupCluster.deploy(d, `${dir}/${first.topologyFile}`, plan.profile),
        `variant${users.length > 1 ? "s" : ""} ${d.variants.join(", ")}`,
      );
      add("start", tiupCluster.start(d));
      add("check", tiupCluster.display(d), "every instance Up; uptimes recorded");
    }
  }
  if (plan.haproxy)
    for (const d of plan.deployments)
      add(
        "haproxy",
        ["haproxy", "-db", "-f", `haproxy-${d.name}.cfg`],
        `on the load host (its config passed over SSH); the load tools connect to ${plan.haproxy.host}:${haproxyPort(plan, d)}`,
        "load host",
      );
  // behind a bastion, tiperf's own SQL and status checks run on the load host
  const checks: PlanCommand["where"] = plan.profile.ssh?.proxy ? "load host" : "runner";
  for (const v of plan.variants) {
    const d = plan.deployments[v.deployment] as Deployment;
    const about = `variant ${v.name} on ${d.name}`;
    add("record", ["SELECT tidb_version()"], about, checks);
    const status = statusAddresses(d);
    add("record", ["GET", `http://${status.tidb[0]}/status`], `${about}: recorded`, checks);
    for (const role of new Set(v.configKeys.map((k) => k.role)))
      for (const addr of status[role])
        add(
          "record",
          ["GET", role === "pd" ? `http://${addr}/pd/api/v1/config` : `http://${addr}/config`],
          `${about}: what SHOW CONFIG shows; ${v.configKeys
            .filter((k) => k.role === role)
            .map((k) => k.key)
            .join(", ")} must match the spec`,
          checks,
        );
    for (const s of v.sql) add("sql", [s], about, checks);
    if (v.split)
      add(
        "split",
        [`SPLIT TABLE <each load table> BETWEEN (0) AND (<rows>) REGIONS ${v.split.regions}`],
        `${about}: after prepare, with tidb_scatter_region on (v6.3+: SET SESSION tidb_scatter_region = 'table'; before: ON)`,
        checks,
      );
  }
  for (const d of plan.deployments) {
    if (d.kind !== "cluster") continue;
    const users = plan.variants.filter((v) => v.deployment === d.index);
    if (plan.switching === "edit-config")
      for (const v of users) {
        add(
          "switch",
          tiupCluster.editConfig(d, `${dir}/${v.topologyFile}`),
          `before cells of variant ${v.name} (when another variant's config is applied); "Nothing changed." fails the run`,
        );
        add("switch", tiupCluster.reload(d), `then SHOW CONFIG confirms variant ${v.name}'s values`);
      }
    if (plan.switching === "stop-start") {
      add("switch", tiupCluster.stop(d), `while the other cluster's variant is measured`);
      add("switch", tiupCluster.start(d), `before cells of variant ${d.variants.join(", ")}`);
    }
    add(
      "cell",
      tiupCluster.display(d),
      "before and after every cell: a Down instance or a restart (uptime reset) fails the cell",
    );
  }
  for (const d of plan.deployments) {
    if (d.kind === "cluster")
      add(
        "teardown",
        tiupCluster.destroy(d),
        "always: success, failure, cancel, SIGTERM; `tiperf reap` if tiperf was killed",
      );
    else
      add(
        "teardown",
        ["kill -INT <tiup playground pid>", `rm -rf $TIUP_HOME/data/${d.name}`],
        "always; `tiperf reap` if tiperf was killed",
      );
  }
  return out;
}

/** The plan as text: files, then commands by phase, each line pasteable. */
export function planText(plan: TidbPlan): string {
  const lines: string[] = [];
  lines.push(`profile ${plan.profileFile} (${plan.profile.name}, provider ${plan.profile.provider})`);
  lines.push(
    `deployments: ${plan.deployments.map((d) => `${d.kind} ${d.name} (TiDB ${d.version}; variants ${d.variants.join(", ")})`).join("; ")}`,
  );
  lines.push(`variants take turns by: ${plan.switching}`);
  lines.push(
    `load tools run on: ${plan.load.host === "127.0.0.1" && !plan.load.user ? "this machine" : `${plan.load.user}@${plan.load.host} over SSH`}`,
  );
  lines.push("", "commands:");
  for (const c of plan.commands) {
    const sql = !["tiup", "haproxy"].includes(c.argv[0] as string) && c.argv.length === 1;
    const text = sql
      ? `SQL: ${c.argv[0]}`
      : c.argv[0]?.startsWith("kill")
        ? c.argv.join(" && ")
        : shellCommand(c.argv);
    lines.push(
      `  [${c.phase}]${c.where === "load host" ? " (load host)" : ""} ${text}${c.about ? `    # ${c.about}` : ""}`,
    );
  }
  return `${lines.join("\n")}\n`;
}
