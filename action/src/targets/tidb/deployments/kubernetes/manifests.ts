// What tiperf asks of a Kubernetes cluster, as objects: the run's own namespace (labelled with the
// run id, annotated with its expiry) and a TidbCluster (TiDB Operator's pingcap.com/v1alpha1) per
// deployment — version, replicas, images, storage and its class, node selectors, host network,
// each role's TOML config, and a TiDB Service this machine can reach.
import { stringify } from "yaml";
import { EXPIRES, MANAGED_BY, MANAGER, RUN_LABEL } from "../../../../kubernetes/client.ts";
import type { Profile } from "../../profile.ts";
import type { KubernetesSettings } from "./schema.ts";

export const TIDB_CLUSTER_API = "pingcap.com/v1alpha1";
export const KUBE_ROLES = ["pd", "tikv", "tidb", "tiflash"] as const;
export type KubeRole = (typeof KUBE_ROLES)[number];

/** The components a TidbCluster has: PD, TiKV and TiDB always, TiFlash when it has replicas. */
export const componentsOf = (manifest: { spec: object }): KubeRole[] =>
  KUBE_ROLES.filter((r) => r in manifest.spec);

/** A role's config as the TidbCluster spec holds it: TOML text; TiFlash's under config.config. */
const configField = (role: KubeRole, toml: string | null) =>
  role === "tiflash" && toml !== null ? { config: toml } : toml;

/** A DNS-1123 label from any text: lower case, [a-z0-9-], at most `max` characters, no dash at either end. */
export function dnsLabel(text: string, max = 63): string {
  const out = text
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/-+/g, "-")
    .slice(0, max)
    .replace(/^-+|-+$/g, "");
  return out || "x";
}

/** A label value (at most 63 characters of [A-Za-z0-9_.-], alphanumeric at both ends). */
export const labelValue = (text: string) =>
  text
    .replace(/[^A-Za-z0-9_.-]+/g, "-")
    .slice(0, 63)
    .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, "");

/** The run's namespace: tiperf-<run id>, as a DNS label. */
export const namespaceOf = (prefix: string) =>
  dnsLabel(prefix.startsWith("tiperf-") ? prefix : `tiperf-${prefix}`);

export function namespaceManifest(o: { name: string; runId: string; expiresAt: string }) {
  return {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: {
      name: o.name,
      labels: { [MANAGED_BY]: MANAGER, [RUN_LABEL]: labelValue(o.runId) },
      annotations: { [EXPIRES]: o.expiresAt, "tiperf.io/run": o.runId },
    },
  };
}

/** Default images of each role (the version is the tag). */
const IMAGES: Record<KubeRole, string> = {
  pd: "pingcap/pd",
  tikv: "pingcap/tikv",
  tidb: "pingcap/tidb",
  tiflash: "pingcap/tiflash",
};

export interface TidbClusterInput {
  name: string;
  namespace: string;
  runId: string;
  variants: string[];
  version: string;
  counts: Record<KubeRole, number>;
  /** Each role's TOML config ("" when it sets nothing). */
  configs: Record<KubeRole, string>;
  settings: KubernetesSettings;
  /** roles.<role>.instance_type: the machine type its node pool has. */
  machineTypes: Partial<Record<KubeRole, string>>;
}

/** A TidbCluster of one deployment, as the operator's v1alpha1 API takes it. */
export function tidbClusterManifest(o: TidbClusterInput) {
  const k = o.settings;
  const nodeSelector = (role: KubeRole) => {
    const sel: Record<string, string> = { ...(k.node_selector?.[role] ?? {}) };
    const type = o.machineTypes[role];
    if (type) sel["node.kubernetes.io/instance-type"] = type;
    return Object.keys(sel).length ? { nodeSelector: sel } : {};
  };
  const config = (role: KubeRole) => (o.configs[role] ? { config: configField(role, o.configs[role]) } : {});
  const storage = (role: "pd" | "tikv") => ({
    requests: { storage: k.storage[role] },
    ...(k.storage_class?.[role] ? { storageClassName: k.storage_class[role] } : {}),
  });
  return {
    apiVersion: TIDB_CLUSTER_API,
    kind: "TidbCluster",
    metadata: {
      name: o.name,
      namespace: o.namespace,
      labels: {
        [MANAGED_BY]: MANAGER,
        [RUN_LABEL]: labelValue(o.runId),
        "tiperf.io/variants": labelValue(o.variants.join(".")),
      },
    },
    spec: {
      version: o.version,
      timezone: "UTC",
      // the run's data goes with the run
      pvReclaimPolicy: "Delete",
      configUpdateStrategy: "RollingUpdate",
      enableDynamicConfiguration: true,
      hostNetwork: k.host_network,
      pd: {
        baseImage: k.images.pd ?? IMAGES.pd,
        replicas: o.counts.pd,
        ...storage("pd"),
        ...config("pd"),
        ...nodeSelector("pd"),
      },
      tikv: {
        baseImage: k.images.tikv ?? IMAGES.tikv,
        replicas: o.counts.tikv,
        ...storage("tikv"),
        ...config("tikv"),
        ...nodeSelector("tikv"),
      },
      tidb: {
        baseImage: k.images.tidb ?? IMAGES.tidb,
        replicas: o.counts.tidb,
        service: { type: k.service, exposeStatus: true },
        ...config("tidb"),
        ...nodeSelector("tidb"),
      },
      // TiFlash (the columnar replicas) only when the profile has some: its volumes as storageClaims
      ...(o.counts.tiflash > 0
        ? {
            tiflash: {
              baseImage: k.images.tiflash ?? IMAGES.tiflash,
              replicas: o.counts.tiflash,
              storageClaims: [
                {
                  resources: { requests: { storage: k.storage.tiflash } },
                  ...(k.storage_class?.tiflash ? { storageClassName: k.storage_class.tiflash } : {}),
                },
              ],
              ...config("tiflash"),
              ...nodeSelector("tiflash"),
            },
          }
        : {}),
    },
  };
}

/**
 * TiDB Operator's graceful rolling restart of a component: a new value of this annotation in its
 * spec (the operator's documented way: "Restart a TiDB Cluster on Kubernetes").
 */
export const RESTARTED_AT_ANNOTATION = "tidb.pingcap.com/restartedAt";

/** The merge patch that rolls each of a TidbCluster's components once, stamped `at`. */
export const restartPatch = (roles: readonly KubeRole[], at: string) => ({
  spec: Object.fromEntries(roles.map((r) => [r, { annotations: { [RESTARTED_AT_ANNOTATION]: at } }])),
});

/**
 * The merge patch that switches a shared TidbCluster to a variant: each role whose config differs
 * between the variants gets this variant's TOML (null: none) and a new restart annotation, so the
 * operator replaces its pods even when the config is the one it has (a group's fresh instance).
 */
export const switchPatch = (
  roles: readonly KubeRole[],
  configs: Partial<Record<string, string>>,
  at: string,
) => ({
  spec: Object.fromEntries(
    roles.map((r) => [
      r,
      { config: configField(r, configs[r] || null), annotations: { [RESTARTED_AT_ANNOTATION]: at } },
    ]),
  ),
});

/** The manifests as one YAML file (what `tiperf plan` writes beside the topology files). */
export const manifestsYaml = (objects: unknown[]) => objects.map((o) => stringify(o)).join("---\n");

/** The roles' instance counts and machine types of a kubernetes profile. */
export function rolesOf(p: Profile): {
  counts: Record<KubeRole, number>;
  machineTypes: Partial<Record<KubeRole, string>>;
} {
  const counts = Object.fromEntries(KUBE_ROLES.map((r) => [r, p.roles[r].count ?? 0])) as Record<
    KubeRole,
    number
  >;
  const machineTypes: Partial<Record<KubeRole, string>> = {};
  for (const r of KUBE_ROLES)
    if (p.roles[r].instance_type) machineTypes[r] = p.roles[r].instance_type as string;
  return { counts, machineTypes };
}

/** The TidbCluster's TiDB Service (the operator names it <cluster>-tidb). */
export const tidbServiceName = (cluster: string) => `${cluster}-tidb`;

/** TiDB's SQL port inside the cluster (the Service's mysql-client port). */
export const TIDB_SERVICE_PORT = 4000;

/** Where a pod of the cluster reaches a TidbCluster's TiDB: its Service's DNS name in the namespace. */
export const inClusterAddress = (d: { name: string; namespace: string }) => ({
  host: `${tidbServiceName(d.name)}.${d.namespace}.svc`,
  port: TIDB_SERVICE_PORT,
});

/** Placeholders of the load pod manifest the plan writes (each run fills in its own). */
export const LOAD_POD_NAME = "tiperf-load-<n>";
export const LOAD_COMMAND = "<the step's command>";
/** The file `tiperf plan` writes the load pod into (under tidb/). */
export const LOAD_POD_FILE = "kubernetes-load.yaml";

/**
 * The pod one load tool step runs in (kubernetes.load): the run's namespace and labels, the
 * image, its node (selector and machine type), requests, the cluster's host network when it has
 * one, never restarted, deleted after the step; its command is the step's argument array.
 */
export function loadPodManifest(o: {
  name: string;
  namespace: string;
  runId: string;
  settings: KubernetesSettings;
  command: string[];
}) {
  const load = o.settings.load;
  if (!load) throw new Error("kubernetes.load is not set");
  const sel: Record<string, string> = { ...(load.node_selector ?? {}) };
  if (load.instance_type) sel["node.kubernetes.io/instance-type"] = load.instance_type;
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name: o.name,
      namespace: o.namespace,
      labels: { [MANAGED_BY]: MANAGER, [RUN_LABEL]: labelValue(o.runId), "tiperf.io/role": "load" },
    },
    spec: {
      restartPolicy: "Never",
      ...(Object.keys(sel).length ? { nodeSelector: sel } : {}),
      ...(o.settings.host_network ? { hostNetwork: true, dnsPolicy: "ClusterFirstWithHostNet" } : {}),
      terminationGracePeriodSeconds: 5,
      containers: [
        {
          name: "load",
          image: load.image,
          command: o.command,
          resources: {
            requests: { cpu: String(load.cpus), ...(load.memory ? { memory: load.memory } : {}) },
          },
        },
      ],
    },
  };
}
