// What a TiDB run deploys and runs, decided before anything starts: one place that both
// `tiperf plan` prints and the tidb targets carry out, so the reviewed plan is what runs.
import { homedir } from "node:os";
import { basename, dirname } from "node:path";
import { InputError } from "../../errors.ts";
import { deepMerge } from "../../specfile/merge.ts";
import { type Endpoint, type PlanStep, PORT_AT_START } from "../types.ts";
import { changesOnline, setConfigBody } from "./online.ts";
import { type Profile, ROLES, type Role } from "./profile.ts";
import { BUILD_ROLES, type BuildRole, binpathsOf, type TidbTargetSpec as TargetSpec } from "./schema.ts";
import { tiupHome } from "./tiup.ts";
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
  /** How its variants take turns (more than one). */
  configSwitch?: ConfigSwitch;
  /** Builds patched in after deploy (`tiup cluster patch --offline`), per role. */
  binpaths: Partial<Record<BuildRole, string>>;
}

/**
 * How variants sharing one cluster take turns: online (the config items that differ posted to the
 * running components, as SET CONFIG does, plus target.sql), or edit-config and a reload of only
 * the roles whose config differs (a restart of those roles).
 */
export type ConfigSwitch =
  | { by: "online"; keys: { role: Role; key: string }[] }
  | { by: "reload"; roles: Role[]; keys: { role: Role; key: string }[]; why: string[] };

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
  /** --db.binpath, --kv.binpath, --pd.binpath: builds to run in place of the release's. */
  binpaths: Partial<Record<BuildRole, string>>;
}

/** A private tidb-server on this machine (provider local): unistore, its own ports and directory. */
export interface ServerDeployment {
  kind: "server";
  name: string;
  index: number;
  /** The version the variant declares ("" when only its binpath says). */
  version: string;
  variants: string[];
  /** target.binpath: the build to run; else tiup's installed tidb component of the version. */
  binpath?: string;
  /** -config: the variant's TiDB config (in the run's tidb/ directory). */
  configFile?: string;
}

export type Deployment = ClusterDeployment | PlaygroundDeployment | ServerDeployment;

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
  /** A private server's CPU limits (provider local). */
  resources?: TargetSpec["resources"];
}

export interface TidbPlan {
  profile: Profile;
  profileFile: string;
  deployments: Deployment[];
  variants: VariantSetup[];
  /** How variants sharing hardware take turns. */
  switching: "none" | "online" | "reload" | "stop-start" | "separate-playgrounds" | "separate-servers";
  /**
   * A switch restarts servers (a reload, or another cluster started): each variant runs a block's
   * cells as a group on a freshly switched instance, instead of switching before every cell.
   */
  grouped: boolean;
  /** File name (under the run's tidb/ directory) → contents. */
  files: Record<string, string>;
  haproxy?: { host: string; port: number; file: string };
  /** Where the load tools run: this machine, or the load host over SSH. */
  load: { host: string; user?: string; port?: number; identity?: string };
  /** Every step in the order the run takes it (the run looks each up by its key). */
  steps: PlanStep[];
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
    # the load tools run beside it: TiDB's password-less root stays off the network
    bind 127.0.0.1:${port}
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
  /** The spec's sysbench data, for split: */
  data?: { tables: number; table_size: number };
  /** The load tools' data sets: every table is analyzed after its load. */
  loads?: { database: string; tables: string[] }[];
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
    ...(v.target.resources ? { resources: v.target.resources } : {}),
  });

  if (profile.provider === "local") {
    o.variants.forEach((v, index) => {
      const config = roleConfig(profile, v.target, "tidb");
      const configFile = Object.keys(config).length ? `${v.name}-tidb.toml` : undefined;
      if (configFile) files[configFile] = toToml(config);
      deployments.push({
        kind: "server",
        name: o.variants.length > 1 ? `${o.prefix}-${v.name}` : o.prefix,
        index,
        version: v.target.version ?? "",
        variants: [v.name],
        ...(binpathsOf(v.target).tidb ? { binpath: binpathsOf(v.target).tidb } : {}),
        ...(configFile ? { configFile } : {}),
      });
      variants.push(setupOf(v, index));
    });
  } else if (profile.provider === "playground") {
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
        binpaths: binpathsOf(v.target),
      });
      variants.push(setupOf(v, index));
    });
  } else {
    // Variants whose clusters differ in nothing but configs share one.
    const groups: { key: string; members: TidbVariant[] }[] = [];
    for (const v of o.variants) {
      const probe = buildCluster({ name: "probe", index: 0, profile, target: v.target });
      // a build of one's own is deployed on its own cluster; so is a different split of the data
      // (split and scatter happen once, after the shared load: variants sharing data share them)
      const key = `${v.target.version}\n${JSON.stringify(binpathsOf(v.target))}\n${JSON.stringify(topologyObject(probe, false))}\n${JSON.stringify(v.target.split ?? null)}`;
      const g = groups.find((x) => x.key === key);
      if (g) g.members.push(v);
      else groups.push({ key, members: [v] });
    }
    groups.forEach((g, index) => {
      const name = groups.length > 1 ? `${o.prefix}-${index + 1}` : o.prefix;
      let deployed: Cluster | undefined;
      const setups: VariantSetup[] = [];
      for (const v of g.members) {
        const cluster = buildCluster({ name, index, profile, target: v.target });
        deployed ??= cluster;
        const file = `topology-${v.name}.yaml`;
        files[file] = topologyYaml(cluster);
        setups.push(setupOf(v, index, file));
      }
      variants.push(...setups);
      deployments.push({
        kind: "cluster",
        name,
        index,
        version: g.members[0]?.target.version ?? "",
        cluster: deployed as Cluster,
        variants: g.members.map((m) => m.name),
        proxyFlags: proxyFlags(profile),
        ...(setups.length > 1 ? { configSwitch: configSwitchOf(setups) } : {}),
        binpaths: g.members[0] ? binpathsOf(g.members[0].target) : {},
      });
    });
    checkTopology(
      deployments.map((d) => (d as ClusterDeployment).cluster),
      o.profileFile,
    );
  }

  const switching: TidbPlan["switching"] =
    profile.provider === "local"
      ? o.variants.length > 1
        ? "separate-servers"
        : "none"
      : profile.provider === "playground"
        ? o.variants.length > 1
          ? "separate-playgrounds"
          : "none"
        : deployments.length > 1
          ? "stop-start"
          : ((deployments[0] as ClusterDeployment | undefined)?.configSwitch?.by ?? "none");
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
    grouped:
      switching === "stop-start" ||
      deployments.some((d) => d.kind === "cluster" && d.configSwitch?.by === "reload"),
    files,
    load,
    steps: [],
  };
  if (profile.haproxy && loadHost) {
    for (const d of deployments) {
      if (d.kind !== "cluster") continue;
      const file = `haproxy-${d.name}.cfg`;
      files[file] = haproxyConfig(tidbEndpoints(d), haproxyPort(plan, d), d.name);
    }
    plan.haproxy = { host: loadHost, port: profile.haproxy_port, file: "haproxy-<cluster>.cfg" };
  }
  plan.steps = stepsOf(plan, o.data, o.loads ?? []);
  return plan;
}

/**
 * How the variants of one cluster take turns: online when every config item that differs between
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
  // a private server's port is picked when it starts
  if (d.kind === "server") return [{ host: "127.0.0.1", port: PORT_AT_START }];
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
  if (d.kind === "server")
    return { tidb: [`127.0.0.1:${serverSlots(d).status}`], tikv: [], pd: [], tiflash: [] };
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

/** `tiup cluster reload|restart NAME [-R roles] --yes`: every role, or only those named. */
const rolling = (sub: "reload" | "restart", d: ClusterDeployment, roles: Role[]) => [
  "tiup",
  "cluster",
  sub,
  d.name,
  ...(roles.length ? ["-R", roles.join(",")] : []),
  "--yes",
  ...d.proxyFlags,
];

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
  reload: (d: ClusterDeployment, roles: Role[] = []) => rolling("reload", d, roles),
  restart: (d: ClusterDeployment, roles: Role[] = []) => rolling("restart", d, roles),
  destroy: (d: ClusterDeployment) => ["tiup", "cluster", "destroy", d.name, "--yes", ...d.proxyFlags],
  /** A build replaces a role's release binary before the first start (the cluster is stopped). */
  patch: (d: ClusterDeployment, file: string, role: BuildRole) => [
    "tiup",
    "cluster",
    "patch",
    d.name,
    file,
    "-R",
    role,
    "--offline",
    "--yes",
    ...d.proxyFlags,
  ],
};

/**
 * The package `tiup cluster patch` takes: a tarball holding the build under the role's program
 * name (tidb-server, tikv-server, pd-server), whatever the build's file is called.
 */
export const patchPackage = (binpath: string, file: string, role: BuildRole) => [
  "tar",
  "--create",
  "--gzip",
  "--dereference",
  "--file",
  file,
  "--transform",
  `s|.*|${BUILD_ROLES[role]}|`,
  "--directory",
  dirname(binpath),
  basename(binpath),
];

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
    ...(["tidb", "tikv", "pd"] as const).flatMap((r) =>
      d.binpaths[r] ? [`--${PLAYGROUND_FLAG[r]}.binpath`, d.binpaths[r] as string] : [],
    ),
  ];
}

/**
 * What a private server's plan leaves to its start: its ports (free ones on 127.0.0.1) and its
 * work directory (data, socket, log). The run fills them in; `tiperf plan` prints them as they are.
 */
export const serverSlots = (d: ServerDeployment) => ({
  port: `<port of ${d.name}>`,
  status: `<status port of ${d.name}>`,
  dir: `<workdir of ${d.name}>`,
});

/** The tidb-server program of a deployment: its binpath, else tiup's installed component. */
export const serverProgram = (d: ServerDeployment, tiupHome: string) =>
  d.binpath ?? `${tiupHome}/components/tidb/${d.version}/tidb-server`;

/**
 * tidb-server alone on its embedded store (unistore, as TiDB developers run it), SQL and status on
 * 127.0.0.1 only (a password-less root), its own ports, socket, data path, temp dir and log file;
 * -config-strict makes a config key it does not know fail the start instead of being logged and
 * ignored.
 */
export function serverArgs(d: ServerDeployment, dir: string, tiupHome: string): string[] {
  const slot = serverSlots(d);
  return [
    serverProgram(d, tiupHome),
    "-store",
    "unistore",
    "-path",
    `${slot.dir}/data`,
    "-host",
    "127.0.0.1",
    "-P",
    slot.port,
    "-status",
    slot.status,
    "-status-host",
    "127.0.0.1",
    "-temp-dir",
    `${slot.dir}/tmp`,
    "-socket",
    `${slot.dir}/tidb.sock`,
    "-log-file",
    `${slot.dir}/tidb.log`,
    // else TiDB writes tidb-slow.log into whatever directory it was started from
    "-log-slow-query",
    `${slot.dir}/tidb-slow.log`,
    ...(d.configFile ? ["-config", `${dir}/${d.configFile}`, "-config-strict"] : []),
  ];
}

/** Where the run keeps the plan's files; `tiperf plan` prints it as is. */
export const PLAN_DIR = "<run>/tidb";

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

/** The config API of a role's status address (what SHOW CONFIG shows). */
export const configUrl = (role: Role, addr: string) =>
  role === "pd" ? `http://${addr}/pd/api/v1/config` : `http://${addr}/config`;

/**
 * Every step of a TiDB plan in the order the run takes them, each with the key the run looks it up
 * by: the run executes these objects (with <run>/tidb filled in), never command lines of its own.
 */
function stepsOf(
  plan: TidbPlan,
  data: { tables: number; table_size: number } | undefined,
  loads: { database: string; tables: string[] }[],
): PlanStep[] {
  const out: PlanStep[] = [];
  const add = (
    key: string,
    phase: string,
    run: PlanStep["run"],
    about?: string,
    o: { variant?: string; where?: PlanStep["where"] } = {},
  ) =>
    out.push({
      key,
      phase,
      where: o.where ?? "runner",
      run,
      ...(o.variant ? { variant: o.variant } : {}),
      ...(about ? { about } : {}),
    });
  // behind a bastion, tiperf's own SQL and status checks run on the load host
  const checks: PlanStep["where"] = plan.profile.ssh?.proxy ? "load host" : "runner";
  /** A shared cluster's switch to variant v: its differing items posted, or edit-config + reload -R. */
  const switchSteps = (d: ClusterDeployment, v: VariantSetup, own: boolean) => {
    const cs = d.configSwitch as ConfigSwitch;
    const o = own ? { variant: v.name } : {};
    const when = `whenever another variant of ${d.name} was applied`;
    if (cs.by === "online") {
      const status = statusAddresses(d);
      for (const k of cs.keys) {
        const value = v.configKeys.find((c) => c.role === k.role && c.key === k.key)?.value;
        for (const addr of status[k.role])
          add(
            `set-config:${v.name}:${k.role}:${k.key}:${addr}`,
            "switch",
            { post: configUrl(k.role, addr), body: setConfigBody(k.key, value) },
            `variant ${v.name}, ${when}: what SET CONFIG ${k.role} \`${k.key}\` = ${JSON.stringify(value)} sends to each instance (an error fails the run, where SET CONFIG would only warn); no restart`,
            { ...o, where: checks },
          );
      }
      return;
    }
    add(
      `edit-config:${d.name}:${v.name}`,
      "switch",
      { command: tiupCluster.editConfig(d, `${PLAN_DIR}/${v.topologyFile}`) },
      `variant ${v.name}, ${when}; "Nothing changed." fails the run`,
      o,
    );
    add(
      `reload:${d.name}:${v.name}`,
      "switch",
      { command: tiupCluster.reload(d, cs.roles) },
      `restarts only ${cs.roles.join(", ")} (${cs.why.join("; ")}); then SHOW CONFIG confirms variant ${v.name}'s values`,
      o,
    );
  };
  const started = new Set<number>();
  for (const v of plan.variants) {
    const d = plan.deployments[v.deployment] as Deployment;
    const about = `variant ${v.name} on ${d.name}`;
    if (!started.has(d.index)) {
      started.add(d.index);
      if (d.kind === "playground") {
        add(
          `start:${d.name}`,
          "start",
          { command: playgroundArgs(d, PLAN_DIR) },
          `${about}: runs until teardown; ready when it prints "TiDB Playground Cluster is started"; the TiDB port is read from its "Connect TiDB" lines`,
          { variant: v.name },
        );
      } else if (d.kind === "server") {
        if (!d.binpath)
          add(
            `install:${d.name}`,
            "start",
            { command: ["tiup", "install", `tidb:${d.version}`] },
            `only if tiup has not installed tidb ${d.version} yet`,
            { variant: v.name },
          );
        add(
          `start:${d.name}`,
          "start",
          { command: serverArgs(d, PLAN_DIR, tiupHome()) },
          `${about}: free ports on 127.0.0.1 and a fresh work directory picked at start; ready when /status answers; runs until teardown`,
          { variant: v.name },
        );
      } else {
        add(
          `deploy:${d.name}`,
          "start",
          { command: tiupCluster.deploy(d, `${PLAN_DIR}/${v.topologyFile}`, plan.profile) },
          `variants ${d.variants.join(", ")}`,
          { variant: v.name },
        );
        for (const [role, binpath] of Object.entries(d.binpaths) as [BuildRole, string][]) {
          const file = `${PLAN_DIR}/patch-${d.name}-${role}.tar.gz`;
          add(
            `pack:${d.name}:${role}`,
            "start",
            { command: patchPackage(binpath, file, role) },
            `target.binpath of ${role}: the build as ${BUILD_ROLES[role]} in the package tiup patches with`,
            { variant: v.name },
          );
          add(
            `patch:${d.name}:${role}`,
            "start",
            { command: tiupCluster.patch(d, file, role) },
            `every ${role} of ${d.name} runs the build (before its first start)`,
            { variant: v.name },
          );
        }
        add(`start:${d.name}`, "start", { command: tiupCluster.start(d) }, undefined, { variant: v.name });
        add(
          `display:${d.name}`,
          "start",
          { command: tiupCluster.display(d) },
          "every instance Up; uptimes recorded",
          { variant: v.name },
        );
        if (plan.haproxy)
          add(
            `haproxy:${d.name}`,
            "start",
            { command: ["haproxy", "-db", "-L", `tiperf-haproxy-${d.name}`, "-f", "/dev/stdin"] },
            `on the load host, ${PLAN_DIR}/haproxy-${d.name}.cfg on its stdin over SSH (no file is written there; -L names the process); the load tools connect to 127.0.0.1:${haproxyPort(plan, d)} there once it listens`,
            { variant: v.name, where: "load host" },
          );
        if (plan.switching === "stop-start")
          for (const other of plan.deployments)
            if (other.index < d.index && other.kind === "cluster")
              add(
                `stop:${other.name}`,
                "start",
                { command: tiupCluster.stop(other) },
                `waits stopped while ${d.name}'s variants are measured`,
                { variant: v.name },
              );
      }
    }
    // the first variant of a shared cluster is deployed with its config; the others switch in
    const switched = d.kind === "cluster" && d.configSwitch !== undefined && d.variants[0] !== v.name;
    if (switched) switchSteps(d as ClusterDeployment, v, true);
    const status = statusAddresses(d);
    const readBack = () => {
      for (const role of new Set(v.configKeys.map((k) => k.role)))
        for (const addr of status[role])
          add(
            `config:${v.name}:${role}:${addr}`,
            "record",
            { get: configUrl(role, addr) },
            `${about}: what SHOW CONFIG shows; ${v.configKeys
              .filter((k) => k.role === role)
              .map((k) => k.key)
              .join(", ")} must match the spec`,
            { variant: v.name, where: checks },
          );
    };
    // a variant switched in is read back at once, before its SQL
    if (switched) readBack();
    v.sql.forEach((s, i) => {
      add(`sql:${v.name}:${i}`, "sql", { sql: s }, `${about}: target.sql, before every cell of the variant`, {
        variant: v.name,
        where: checks,
      });
      for (const g of globalsSet(s))
        add(
          `sql-check:${v.name}:${g.name}`,
          "sql",
          { sql: `SELECT @@GLOBAL.${g.name}` },
          `${about}: must read ${g.value}, or the run fails`,
          { variant: v.name, where: checks },
        );
    });
    add(`version:${v.name}`, "record", { sql: "SELECT tidb_version()" }, about, {
      variant: v.name,
      where: checks,
    });
    add(`status:${v.name}`, "record", { get: `http://${status.tidb[0]}/status` }, `${about}: recorded`, {
      variant: v.name,
      where: checks,
    });
    if (!switched) readBack();
    if (v.split && data)
      for (let t = 1; t <= data.tables; t++)
        add(
          `split:${v.name}:sbtest${t}`,
          "split",
          { sql: splitSql(v.version, t, data.table_size, v.split.regions) },
          `${about}: after prepare`,
          { variant: v.name, where: checks },
        );
    // a split difference is read back on every variant (unsplit: one region): shown, not assumed
    if (data && plan.variants.some((x) => x.split))
      add(
        `regions:${v.name}`,
        "split",
        { sql: regionsSql() },
        `${about}: the regions of sbtest1's rows counted, recorded as split.regions (what a split difference did)`,
        { variant: v.name, where: checks },
      );
    for (const load of loads)
      for (const table of load.tables)
        add(
          `analyze:${v.name}:${load.database}.${table}`,
          "split",
          { sql: `ANALYZE TABLE ${load.database}.${table}` },
          `${about}: after the load, so statistics are fresh and auto-analyze does not fire during cells`,
          { variant: v.name, where: checks },
        );
  }
  for (const d of plan.deployments) {
    if (d.kind === "server")
      add(
        `restart:${d.name}`,
        "restart",
        { command: [`kill -TERM <pid of ${d.name}>`, ...serverArgs(d, PLAN_DIR, tiupHome())] },
        "before each block after the first (compare.blocks): a fresh process on the same data",
      );
    if (d.kind !== "cluster") continue;
    const first = plan.variants.find((v) => v.name === d.variants[0]) as VariantSetup;
    // the deployed variant switches back in when another one was applied
    if (d.configSwitch) switchSteps(d, first, false);
    if (d.configSwitch?.by === "reload")
      add(
        `restart:${d.name}:${d.configSwitch.roles.join(",")}`,
        "switch",
        { command: tiupCluster.restart(d, d.configSwitch.roles) },
        `before a group of cells whose variant is applied already: its ${d.configSwitch.roles.join(", ")} fresh as after a switch`,
      );
    if (plan.switching === "stop-start") {
      add(
        `stop:${d.name}`,
        "switch",
        { command: tiupCluster.stop(d) },
        "while the other cluster's variants are measured",
      );
      add(
        `start:${d.name}`,
        "switch",
        { command: tiupCluster.start(d) },
        `before a group of cells of variant ${d.variants.join(", ")}`,
      );
    }
    add(
      `display:${d.name}`,
      "cell",
      { command: tiupCluster.display(d) },
      "before and after every cell: a Down instance or a restart (uptime reset) fails the cell",
    );
    add(
      `restart:${d.name}`,
      "restart",
      { command: tiupCluster.restart(d) },
      plan.grouped
        ? "before a group of cells whose cluster is running already: fresh as after a switch"
        : "before each block after the first (compare.blocks), once for the variants sharing it",
    );
  }
  for (const d of [...plan.deployments].reverse()) {
    if (d.kind === "cluster")
      add(
        `destroy:${d.name}`,
        "teardown",
        { command: tiupCluster.destroy(d) },
        "always: success, failure, cancel, SIGTERM; `tiperf reap` if tiperf was killed",
      );
    else if (d.kind === "server")
      add(
        `stop:${d.name}`,
        "teardown",
        { command: ["kill", "-TERM", `<pid of ${d.name}>`] },
        `then rm -rf ${serverSlots(d).dir} (its log kept in <run>/server/); always; \`tiperf reap\` if tiperf was killed`,
      );
    else
      add(
        `stop:${d.name}`,
        "teardown",
        { command: ["kill", "-INT", "<tiup playground pid>"] },
        `then rm -rf $TIUP_HOME/data/${d.name}; always; \`tiperf reap\` if tiperf was killed`,
      );
  }
  return out;
}
