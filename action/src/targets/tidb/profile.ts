// Cluster profiles (infra/profiles/*.yaml): which roles a TiDB cluster has, how many of each, with
// which settings, and where the hosts come from (the provider: its rules are its deployer's, applied
// by load-profile.ts).
import { z } from "zod";
import type { CloudSettings } from "../../cloud/provider.ts";
import { CLOUDS, KUBERNETES_CLOUDS } from "../../cloud/registry.ts";
import { EndpointSchema } from "../endpoint/schema.ts";
import { KubernetesSchema } from "./deployments/kubernetes/schema.ts";
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

const CLOUD_NAMES = Object.keys(CLOUDS);
const isCloud = (provider: string) => CLOUD_NAMES.includes(provider);

/** Each cloud's settings section, under the cloud's name (aws:; gcp: creates a Kubernetes cluster). */
const CLOUD_SECTIONS = Object.fromEntries(
  [...Object.values(CLOUDS), ...Object.values(KUBERNETES_CLOUDS)].map((c) => [c.name, c.settings.optional()]),
) as Record<never, never>; // typed as nothing: read through cloudSettings() and the kubernetes deployment

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

export const ProfileSchema = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9_-]{0,62}$/, "must be lower-case letters, digits, _ or -"),
  description: z.string().optional(),
  /** Where its machines come from: a way to deploy of deployments/registry.ts (checked on load). */
  provider: z.string(),
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
  /** provider kubernetes: the cluster (a kubeconfig context) and how its TidbClusters are laid out. */
  kubernetes: KubernetesSchema.optional(),
  /** A cloud's section (aws: region, image, spot, ttl, budget, state backend, the load host's type). */
  ...CLOUD_SECTIONS,
});

export type Profile = z.output<typeof ProfileSchema>;

/** The settings section of a cloud profile (its provider's key), else undefined. */
export const cloudSettings = (p: Profile): CloudSettings | undefined =>
  isCloud(p.provider) ? ((p as Record<string, unknown>)[p.provider] as CloudSettings) : undefined;
export type RoleSettings = Profile["roles"][Role];
