// Cluster profiles (infra/profiles/*.yaml): which roles a TiDB cluster has, how many of each, with
// which settings, and where the hosts come from (the provider).
import { z } from "zod";
import type { CloudSettings } from "../../cloud/provider.ts";
import { CLOUDS } from "../../cloud/registry.ts";
import { InputError } from "../../errors.ts";
import { parseYaml, readProfileText, validateYaml } from "../../specfile/yaml.ts";
import { EndpointSchema } from "../endpoint/schema.ts";
import { numaNode, ResourceControlSchema, ServerConfigsSchema, settings } from "./schema.ts";

export { numaNode, ResourceControlSchema, ServerConfigsSchema };

export const ROLES = ["pd", "tikv", "tidb", "tiflash"] as const;
export type Role = (typeof ROLES)[number];

/** Each role's ports with tiup's defaults (pkg/cluster/spec: PDSpec, TiKVSpec, TiDBSpec, TiFlashSpec). */
export const ROLE_PORTS: Record<Role, Record<string, number>> = {
  pd: { client_port: 2379, peer_port: 2380 },
  tikv: { port: 20160, status_port: 20180 },
  tidb: { port: 4000, status_port: 10080 },
  tiflash: {
    tcp_port: 9000,
    http_port: 8123,
    flash_service_port: 3930,
    flash_proxy_port: 20170,
    flash_proxy_status_port: 20292,
    metrics_port: 8234,
  },
};

/** The first port of a role: what names its instances (tidb-4000, pd-2379). */
export const MAIN_PORT: Record<Role, string> = {
  pd: "client_port",
  tikv: "port",
  tidb: "port",
  tiflash: "tcp_port",
};

/** How far apart two instances of a role on one host are placed (PD's two ports sit side by side). */
export const PORT_STEP: Record<Role, number> = { pd: 2, tikv: 1, tidb: 1, tiflash: 1 };

/**
 * Where a profile's machines come from: a private tidb-server on this machine (local), a tiup
 * playground on it, existing hosts, a cloud of cloud/registry.ts, or a TiDB that already runs and
 * is not tiperf's (endpoint: a host and port).
 */
export const PROVIDERS = ["local", "playground", "hosts", "endpoint", ...Object.keys(CLOUDS)];
const CLOUD_NAMES = Object.keys(CLOUDS);
const isCloud = (provider: string) => CLOUD_NAMES.includes(provider);

/** Each cloud's settings section, under the cloud's name (aws:). */
const CLOUD_SECTIONS = Object.fromEntries(
  Object.values(CLOUDS).map((c) => [c.name, c.settings.optional()]),
) as Record<never, never>; // typed as nothing: read through cloudSettings()

const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$|^[0-9a-fA-F:]+$/;
const host = z.string().regex(HOST, "must be a host name or IP address (like 10.0.1.5)");
const hostList = z.array(host).min(1, "must list at least one host");

/** One instance placed by hand: its host, and any of its role's ports or directories. */
const instanceSchema = (role: Role) =>
  z.strictObject({
    host,
    ...Object.fromEntries(Object.keys(ROLE_PORTS[role]).map((p) => [p, z.number().int().optional()])),
    deploy_dir: z.string().startsWith("/", "must be an absolute path").optional(),
    data_dir: z.string().startsWith("/", "must be an absolute path").optional(),
    numa_node: numaNode.optional(),
  });

const roleSchema = (role: Role) =>
  z.strictObject({
    count: z.number().int().min(0, "must be 0 or more").optional(),
    numa_node: numaNode.optional(),
    resource_control: ResourceControlSchema.optional(),
    /** Per-instance config of this role (tiup's `config:` under each instance). */
    config: settings.optional(),
    arch: z.enum(["amd64", "arm64"], { error: "must be amd64 or arm64" }).optional(),
    os: z.enum(["linux"], { error: "must be linux" }).optional(),
    /** Instances placed by hand (host, ports, directories) instead of `count` spread over `hosts`. */
    instances: z.array(instanceSchema(role)).optional(),
    /** A cloud provider: the machine type of this role's machines (one machine per instance). */
    instance_type: z
      .string()
      .regex(/^[a-z0-9-]+[.-][a-z0-9-]+$/, "must be an instance type of the cloud, like m6i.4xlarge")
      .optional(),
  });

export const RolesSchema = z.strictObject({
  pd: roleSchema("pd").default({}),
  tikv: roleSchema("tikv").default({}),
  tidb: roleSchema("tidb").default({}),
  tiflash: roleSchema("tiflash").default({ count: 0 }),
});

export const ProfileSchema = z
  .strictObject({
    name: z.string().regex(/^[a-z][a-z0-9_-]{0,62}$/, "must be lower-case letters, digits, _ or -"),
    description: z.string().optional(),
    provider: z.string().refine((p) => PROVIDERS.includes(p), {
      error: `must be one of ${PROVIDERS.join(", ")}`,
    }),
    /** Existing machines per role (provider hosts); `load` runs the load generator (and HAProxy). */
    hosts: z
      .strictObject({
        pd: hostList.optional(),
        tikv: hostList.optional(),
        tidb: hostList.optional(),
        tiflash: hostList.optional(),
        load: hostList.max(1, "one load host").optional(),
        monitor: hostList.max(1, "one monitoring host").optional(),
      })
      .optional(),
    ssh: z
      .strictObject({
        user: z
          .string()
          .regex(/^[a-z_][a-z0-9_-]{0,31}$/, "must be a Linux user name")
          .default("tidb"),
        identity_file: z.string().optional(),
        port: z.number().int().min(1).max(65535).default(22),
        /**
         * A bastion: the only machine the runner reaches by SSH. tiup goes through it
         * (--ssh-proxy-*), so do the load host's SSH sessions; tiperf's SQL and status checks run
         * on the load host.
         */
        proxy: z
          .strictObject({
            host: z.string().min(1),
            user: z
              .string()
              .regex(/^[a-z_][a-z0-9_-]{0,31}$/, "must be a Linux user name")
              .optional(),
            port: z.number().int().min(1).max(65535).default(22),
            identity_file: z.string().optional(),
          })
          .optional(),
      })
      .optional(),
    /** tiup's `global:` — the user the cluster runs as, and where instances live on each host. */
    global: z
      .strictObject({
        user: z
          .string()
          .regex(
            /^[a-z_]([a-z0-9_-]{0,31}|[a-z0-9_-]{0,30}\$)$/,
            "must start with a lower-case letter or _, then lower-case letters, digits, _ or - (tiup's rule)",
          )
          .default("tidb"),
        deploy_dir: z.string().startsWith("/", "must be an absolute path").default("/tidb-deploy"),
        data_dir: z.string().startsWith("/", "must be an absolute path").default("/tidb-data"),
      })
      .default({ user: "tidb", deploy_dir: "/tidb-deploy", data_dir: "/tidb-data" }),
    roles: RolesSchema.prefault({}),
    /** HAProxy on the load host in front of every TiDB server; the load tools connect to it. */
    haproxy: z.boolean().default(false),
    haproxy_port: z.number().int().min(1).max(65535).default(3390),
    /** Prometheus and Grafana (tiup's monitoring_servers / grafana_servers). */
    monitoring: z.boolean().default(false),
    server_configs: ServerConfigsSchema.default({}),
    /** provider endpoint: the existing TiDB's SQL (and status) address, user and what tiperf may do there. */
    endpoint: EndpointSchema.optional(),
    /** A cloud's section (aws: region, image, spot, ttl, budget, state backend, the load host's type). */
    ...CLOUD_SECTIONS,
  })
  .superRefine((p, ctx) => {
    const issue = (path: PropertyKey[], message: string) => ctx.addIssue({ code: "custom", path, message });
    const sections = p as Record<string, unknown>;
    for (const cloud of CLOUD_NAMES)
      if (cloud !== p.provider && sections[cloud]) issue([cloud], `belongs to provider ${cloud}`);
    if (p.provider === "endpoint") {
      if (!p.endpoint) issue(["endpoint"], "provider endpoint needs an endpoint section (host, port, user)");
      for (const key of ["hosts", "ssh"] as const)
        if (p[key])
          issue(
            [key],
            `an endpoint is a TiDB that already runs: tiperf reaches it at endpoint.host; remove ${key}`,
          );
      if (p.haproxy) issue(["haproxy"], "an endpoint's load balancing is its own: remove haproxy");
      if (p.monitoring)
        issue(["monitoring"], "tiperf deploys no monitoring on an endpoint: remove monitoring");
      if (Object.keys(p.server_configs).length)
        issue(["server_configs"], "tiperf never reconfigures an endpoint: remove server_configs");
      for (const role of ROLES)
        if ((p.roles[role].count ?? 0) > 0 || p.roles[role].instances)
          issue(["roles", role], "an endpoint's topology is its own: tiperf deploys nothing there");
      return;
    }
    if (p.endpoint) issue(["endpoint"], "belongs to provider endpoint");
    if (!isCloud(p.provider)) {
      for (const role of ROLES)
        if (p.roles[role].instance_type !== undefined)
          issue(
            ["roles", role, "instance_type"],
            `belongs to a cloud provider (${CLOUD_NAMES.join(", ")}); hosts come from the profile here`,
          );
    } else {
      const cloud = p.provider;
      if (!sections[cloud])
        issue([cloud], `provider ${cloud} needs a ${cloud} section (region, load.instance_type)`);
      if (p.hosts) issue(["hosts"], `provider ${cloud} creates its hosts; remove hosts`);
      if (p.ssh?.identity_file)
        issue(
          ["ssh", "identity_file"],
          `provider ${cloud} generates a key pair per run; remove identity_file`,
        );
      for (const role of ROLES) {
        const r = p.roles[role];
        if (r.instances)
          issue(["roles", role, "instances"], `provider ${cloud} places one instance per machine; use count`);
        const count = r.count ?? 0;
        if (role !== "tiflash" && count === 0)
          issue(["roles", role, "count"], `a TiDB cluster needs at least one ${role} instance`);
        if (count > 0 && r.instance_type === undefined)
          issue(["roles", role, "instance_type"], `roles.${role}.count is ${count}: name the instance type`);
      }
      return;
    }
    if (p.provider === "local") {
      for (const key of ["hosts", "ssh"] as const)
        if (p[key])
          issue(
            [key],
            `a local profile runs one tidb-server on this machine: ${key} belongs to provider hosts`,
          );
      if (p.haproxy) issue(["haproxy"], "a local profile has one tidb-server and no load host: no HAProxy");
      if (p.monitoring) issue(["monitoring"], "a local profile has no monitoring; use provider hosts");
      for (const role of ["pd", "tikv", "tiflash"] as const)
        if ((p.roles[role].count ?? 0) > 0 || p.roles[role].instances)
          issue(
            ["roles", role],
            `provider local runs tidb-server alone on its embedded store (unistore): no ${role}; use provider playground or hosts for a cluster`,
          );
      const t = p.roles.tidb;
      if (t.count !== undefined && t.count !== 1)
        issue(["roles", "tidb", "count"], "provider local runs one tidb-server per variant: count 1");
      for (const key of ["numa_node", "resource_control", "instances", "arch", "os"] as const)
        if (t[key] !== undefined)
          issue(
            ["roles", "tidb", key],
            `provider local has no ${key}: a private tidb-server takes target.resources (cpus, cpu_quota)`,
          );
      return;
    }
    if (p.provider === "playground") {
      for (const key of ["hosts", "ssh"] as const)
        if (p[key]) issue([key], `a playground runs on this machine: ${key} belongs to provider hosts`);
      if (p.haproxy) issue(["haproxy"], "a playground has no load host for HAProxy; use provider hosts");
      if (p.monitoring)
        issue(
          ["monitoring"],
          "tiperf starts playgrounds with --without-monitor; use provider hosts for monitoring",
        );
      for (const role of ROLES) {
        const r = p.roles[role];
        for (const key of ["numa_node", "resource_control", "instances", "arch", "os"] as const)
          if (r[key] !== undefined)
            issue(
              ["roles", role, key],
              `tiup playground has no ${key} option; use a profile with provider hosts`,
            );
        if (r.count === undefined) issue(["roles", role, "count"], "a playground role needs a count");
      }
      return;
    }
    for (const role of ROLES) {
      const r = p.roles[role];
      if (r.instances && r.count !== undefined && r.count !== r.instances.length)
        issue(["roles", role, "count"], `count ${r.count} but ${r.instances.length} instances listed`);
      const count = r.instances?.length ?? r.count ?? 0;
      if (role !== "tiflash" && count === 0)
        issue(["roles", role, "count"], `a TiDB cluster needs at least one ${role} instance`);
      if (count > 0 && !r.instances && !p.hosts?.[role]?.length)
        issue(["hosts", role], `roles.${role}.count is ${count}: list the ${role} hosts (hosts.${role})`);
    }
    if (p.haproxy && !p.hosts?.load?.length)
      issue(["hosts", "load"], "haproxy: true needs a load host (hosts.load) to run on");
    if (p.ssh?.proxy && !p.hosts?.load?.length)
      issue(
        ["hosts", "load"],
        "ssh.proxy needs a load host (hosts.load): behind a bastion, tiperf's SQL and status checks run there",
      );
  });

export type Profile = z.output<typeof ProfileSchema>;

/** The settings section of a cloud profile (its provider's key), else undefined. */
export const cloudSettings = (p: Profile): CloudSettings | undefined =>
  isCloud(p.provider) ? ((p as Record<string, unknown>)[p.provider] as CloudSettings) : undefined;
export type RoleSettings = Profile["roles"][Role];

/** Reads and validates a profile; every problem names the file, line and key. */
export async function loadProfile(file: string, flag = "target.profile"): Promise<Profile> {
  return parseProfile(await readProfileText(file, flag), file);
}

export function parseProfile(text: string, file: string): Profile {
  const yaml = parseYaml(text, file);
  if (yaml.raw === null || typeof yaml.raw !== "object" || Array.isArray(yaml.raw))
    throw new InputError(`${file}: a profile is a YAML mapping with keys name, provider, hosts, roles`);
  return validateYaml(ProfileSchema, yaml, file);
}
