// tiup topology.yaml generation from a profile and a spec's TiDB target, validated with the rules
// tiup applies before a deploy (pkg/cluster/spec/validate.go: platformConflictsDetect,
// portInvalidDetect, portConflictsDetect, dirConflictsDetect, validatePDNames), across every
// cluster tiperf places on the same hosts.
import { stringify } from "yaml";
import { InputError } from "../../errors.ts";
import { deepMerge } from "../../yaml/merge.ts";
import {
  MAIN_PORT,
  PORT_STEP,
  type Profile,
  ROLE_PORTS,
  ROLES,
  type Role,
  type RoleSettings,
} from "./profile.ts";
import type { TidbTargetSpec } from "./schema.ts";

/** tiup's topology section of each role. */
export const SECTION: Record<Role, string> = {
  pd: "pd_servers",
  tikv: "tikv_servers",
  tidb: "tidb_servers",
  tiflash: "tiflash_servers",
};

/** Ports of the per-host agents and of monitoring (tiup's defaults). */
const MONITORED = { node_exporter_port: 9100, blackbox_exporter_port: 9115 };
const PROMETHEUS = { port: 9090, ng_port: 12020 };
const GRAFANA = { port: 3000 };

/** Clusters side by side on the same hosts are this many ports apart. */
export const CLUSTER_PORT_OFFSET = 1000;

export type ServerConfigs = Partial<Record<Role, Record<string, unknown>>>;

export interface Instance {
  role: Role;
  host: string;
  ports: Record<string, number>;
  deploy_dir: string;
  data_dir?: string;
  numa_node?: string;
  resource_control?: RoleSettings["resource_control"];
  config?: Record<string, unknown>;
  arch?: string;
  os?: string;
  /** The profile key this instance comes from, for messages. */
  from: string;
}

/** One tiup cluster: what topology.yaml says, plus where each part came from. */
export interface Cluster {
  name: string;
  version: string;
  /** Position among the clusters on these hosts: its ports are offset by index × 1000. */
  index: number;
  user: string;
  sshPort: number;
  deployDir: string;
  dataDir: string;
  serverConfigs: ServerConfigs;
  instances: Instance[];
  monitoring?: { host: string; prometheus: number; ng_port: number; grafana: number };
  monitored: { node_exporter_port: number; blackbox_exporter_port: number };
  /** monitoring: false → every instance sets ignore_exporter. */
  exporters: boolean;
}

/** The roles of a TiDB target: the profile's, with the spec's overrides merged in. */
export function effectiveRoles(profile: Profile, target: TidbTargetSpec): Profile["roles"] {
  // tiup lets an instance's config override server_configs: an item the spec's server_configs set
  // would lose to the same item in the profile's roles.<role>.config, and a variant would run the
  // profile's value. The spec wins: such items are taken out of the profile's role config.
  const roles = structuredClone(profile.roles) as Profile["roles"];
  for (const [role, cfg] of Object.entries(target.server_configs ?? {}) as [
    Role,
    Record<string, unknown>,
  ][]) {
    const own = roles[role]?.config;
    if (!own || !cfg) continue;
    const set = new Set(Object.keys(dotted(cfg)));
    const kept = Object.fromEntries(Object.entries(dotted(own)).filter(([k]) => !set.has(k)));
    (roles[role] as { config?: Record<string, unknown> }).config = kept;
  }
  return deepMerge(roles, target.roles ?? {}) as Profile["roles"];
}

/** A config with nested tables and dotted keys alike, as dotted keys (log.level) to values. */
function dotted(config: Record<string, unknown>, prefix = ""): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(config)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object" && !Array.isArray(v))
      Object.assign(out, dotted(v as Record<string, unknown>, key));
    else out[key] = v;
  }
  return out;
}

/** server_configs of a TiDB target: the profile's, with the spec's merged in. */
export function effectiveServerConfigs(profile: Profile, target: TidbTargetSpec): ServerConfigs {
  const merged = deepMerge(profile.server_configs, target.server_configs ?? {}) as ServerConfigs;
  return Object.fromEntries(
    Object.entries(merged).filter(([, v]) => v && Object.keys(v).length > 0),
  ) as ServerConfigs;
}

/** Places every instance of a target's roles on the profile's hosts (provider hosts). */
export function buildCluster(o: {
  name: string;
  index: number;
  profile: Profile;
  target: TidbTargetSpec;
}): Cluster {
  const { profile, target, index } = o;
  const offset = index * CLUSTER_PORT_OFFSET;
  const roles = effectiveRoles(profile, target);
  const deployDir = `${profile.global.deploy_dir}/${o.name}`;
  const dataDir = `${profile.global.data_dir}/${o.name}`;
  const instances: Instance[] = [];
  for (const role of ROLES) {
    const r = roles[role];
    const placed =
      r.instances ??
      Array.from({ length: r.count ?? 0 }, (_, i) => {
        const hosts = profile.hosts?.[role] ?? [];
        return { host: hosts[i % hosts.length] as string };
      });
    const onHost = new Map<string, number>();
    placed.forEach((p, i) => {
      const k = onHost.get(p.host) ?? 0;
      onHost.set(p.host, k + 1);
      const given = p as Record<string, unknown>;
      const ports: Record<string, number> = {};
      for (const [name, base] of Object.entries(ROLE_PORTS[role]))
        ports[name] =
          typeof given[name] === "number" ? (given[name] as number) : base + offset + k * PORT_STEP[role];
      const main = ports[MAIN_PORT[role]];
      const inst: Instance = {
        role,
        host: p.host,
        ports,
        deploy_dir: (given.deploy_dir as string | undefined) ?? `${deployDir}/${role}-${main}`,
        from: r.instances
          ? `roles.${role}.instances[${i}]`
          : `roles.${role} (instance ${i + 1} of ${r.count})`,
      };
      if (role !== "tidb")
        inst.data_dir = (given.data_dir as string | undefined) ?? `${dataDir}/${role}-${main}`;
      const numa = (given.numa_node as string | undefined) ?? r.numa_node;
      if (numa !== undefined) inst.numa_node = numa;
      if (r.resource_control) inst.resource_control = r.resource_control;
      if (r.config && Object.keys(r.config).length) inst.config = r.config;
      if (r.arch) inst.arch = r.arch;
      if (r.os) inst.os = r.os;
      instances.push(inst);
    });
  }
  const monitorHost = profile.hosts?.monitor?.[0] ?? profile.hosts?.load?.[0] ?? profile.hosts?.pd?.[0];
  return {
    name: o.name,
    version: target.version ?? "",
    index,
    user: profile.global.user,
    sshPort: profile.ssh?.port ?? 22,
    deployDir,
    dataDir,
    serverConfigs: effectiveServerConfigs(profile, target),
    instances,
    ...(profile.monitoring && monitorHost
      ? {
          monitoring: {
            host: monitorHost,
            prometheus: PROMETHEUS.port + offset,
            ng_port: PROMETHEUS.ng_port + offset,
            grafana: GRAFANA.port + offset,
          },
        }
      : {}),
    monitored: {
      node_exporter_port: MONITORED.node_exporter_port + offset,
      blackbox_exporter_port: MONITORED.blackbox_exporter_port + offset,
    },
    exporters: profile.monitoring,
  };
}

/** topology.yaml as tiup reads it (tiup cluster deploy NAME VERSION topology.yaml). */
export function topologyObject(c: Cluster, configs = true): Record<string, unknown> {
  const out: Record<string, unknown> = {
    global: { user: c.user, ssh_port: c.sshPort, deploy_dir: c.deployDir, data_dir: c.dataDir },
    monitored: c.monitored,
  };
  if (configs && Object.keys(c.serverConfigs).length) out.server_configs = c.serverConfigs;
  for (const role of ROLES) {
    const list = c.instances
      .filter((i) => i.role === role)
      .map((i) => {
        const entry: Record<string, unknown> = { host: i.host };
        if (role === "pd") entry.name = `pd-${i.host}-${i.ports.client_port}`;
        Object.assign(entry, i.ports);
        entry.deploy_dir = i.deploy_dir;
        if (i.data_dir) entry.data_dir = i.data_dir;
        if (i.numa_node !== undefined) entry.numa_node = i.numa_node;
        if (i.resource_control) entry.resource_control = i.resource_control;
        if (i.arch) entry.arch = i.arch;
        if (i.os) entry.os = i.os;
        if (!c.exporters) entry.ignore_exporter = true;
        if (configs && i.config) entry.config = i.config;
        return entry;
      });
    if (list.length) out[SECTION[role]] = list;
  }
  if (c.monitoring) {
    const m = c.monitoring;
    out.monitoring_servers = [
      {
        host: m.host,
        port: m.prometheus,
        ng_port: m.ng_port,
        deploy_dir: `${c.deployDir}/prometheus-${m.prometheus}`,
        data_dir: `${c.dataDir}/prometheus-${m.prometheus}`,
      },
    ];
    out.grafana_servers = [
      { host: m.host, port: m.grafana, deploy_dir: `${c.deployDir}/grafana-${m.grafana}` },
    ];
  }
  return out;
}

export function topologyYaml(c: Cluster): string {
  return `# tiup topology of cluster ${c.name} (TiDB ${c.version}), generated by tiperf\n${stringify(topologyObject(c), { lineWidth: 0, aliasDuplicateObjects: false })}`;
}

interface Used {
  cluster: string;
  section: string;
  key: string;
  from: string;
}

const side = (u: Used, host: string) => `'${u.section}:${host}.${u.key}'`;
const origin = (u: Used, several: boolean) => `${several ? `cluster ${u.cluster} ` : ""}${u.from}`;

/**
 * The problems tiup would refuse the topology for, checked over every cluster placed on the same
 * hosts (tiup checks ports and directories across the clusters it manages, too). Messages use
 * tiup's words and name the profile keys on both sides of a conflict.
 */
export function topologyProblems(clusters: Cluster[]): string[] {
  const problems: string[] = [];
  const several = clusters.length > 1;
  const platforms = new Map<string, { platform: string; used: Used }>();
  const ports = new Map<string, Used>();
  const dirs = new Map<string, Used>();
  const pdNames = new Set<string>();
  const claimPort = (host: string, port: number, u: Used) => {
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      problems.push(
        `${u.from}: \`${u.section}\` of ${u.key}=${port} is invalid, port should be in the range [1, 65535]`,
      );
      return;
    }
    const key = `${host}:${port}`;
    const prev = ports.get(key);
    if (prev)
      problems.push(
        `${u.from}: port conflict for '${port}' between ${side(prev, host)} (${origin(prev, several)}) and ${side(u, host)} (${origin(u, several)}); give one of them another port`,
      );
    else ports.set(key, u);
  };
  const claimDir = (host: string, dir: string, u: Used) => {
    const key = `${host}:${dir}`;
    const prev = dirs.get(key);
    if (prev)
      problems.push(
        `${u.from}: directory conflict for '${dir}' between ${side(prev, host)} (${origin(prev, several)}) and ${side(u, host)} (${origin(u, several)})`,
      );
    else dirs.set(key, u);
  };
  for (const c of clusters) {
    const hosts = new Set<string>();
    for (const i of c.instances) {
      hosts.add(i.host);
      const section = SECTION[i.role];
      const used = (key: string): Used => ({ cluster: c.name, section, key, from: i.from });
      const platform = `${i.os ?? "linux"}/${i.arch ?? "amd64"}`;
      const prev = platforms.get(i.host);
      if (prev && prev.platform !== platform)
        problems.push(
          `${i.from}: platform mismatch for '${i.host}' between '${prev.used.section}:${prev.platform}' (${prev.used.from}) and '${section}:${platform}'; a host has one os/arch`,
        );
      else if (!prev) platforms.set(i.host, { platform, used: used("arch") });
      for (const [key, port] of Object.entries(i.ports)) claimPort(i.host, port, used(key));
      claimDir(i.host, i.deploy_dir, used("deploy_dir"));
      if (i.data_dir) claimDir(i.host, i.data_dir, used("data_dir"));
      if (i.role === "pd") {
        const name = `${c.name}/pd-${i.host}-${i.ports.client_port}`;
        if (pdNames.has(name))
          problems.push(
            `${i.from}: component pd_servers.name is not supported duplicated, the name pd-${i.host}-${i.ports.client_port} is duplicated`,
          );
        pdNames.add(name);
      }
    }
    if (c.monitoring) {
      const m = c.monitoring;
      const u = (section: string, key: string): Used => ({
        cluster: c.name,
        section,
        key,
        from: "monitoring: true",
      });
      hosts.add(m.host);
      claimPort(m.host, m.prometheus, u("monitoring_servers", "port"));
      claimPort(m.host, m.ng_port, u("monitoring_servers", "ng_port"));
      claimPort(m.host, m.grafana, u("grafana_servers", "port"));
    }
    for (const host of hosts)
      for (const [key, port] of Object.entries(c.monitored))
        claimPort(host, port, {
          cluster: c.name,
          section: "monitored",
          key,
          from: `the ${key.replace(/_port$/, "")} tiup runs on every host`,
        });
  }
  return problems;
}

/** Refuses clusters tiup would refuse, before anything runs. */
export function checkTopology(clusters: Cluster[], file: string): void {
  const problems = topologyProblems(clusters);
  if (problems.length) throw new InputError(problems.map((p) => `${file}: ${p}`).join("\n"));
}
