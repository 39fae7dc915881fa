// What a cloud gives tiperf (roachprod's vm.Provider is the model): the settings section of a
// profile named after it, the machines and resources a cluster asks for, their prices, its Pulumi
// program, its tag sweeps, what the Pulumi CLI needs in its environment, how the runner's address
// is learned and the command that says a machine finished preparing itself. Each cloud is a folder
// implementing this and one line of cloud/registry.ts; tags, lifetime, cost, budget and hosts are
// the neutral parts around it (tags.ts, cost.ts, hosts.ts, plan.ts). Nothing here knows TiDB: a
// target kind describes its cluster as a ClusterAsk.
import type { z } from "zod";

type PulumiFn = import("@pulumi/pulumi/automation/index.js").PulumiFn;

/** The keys of every cloud's settings section (each cloud's schema extends settings.ts). */
export interface CloudSettings {
  region: string;
  /** How long the cluster may live ("90m", "3h", "2d"): its expires-at tag is now + ttl. */
  ttl: string;
  /** Refuse a run whose estimated cost (US dollars) is above this, before anything is created. */
  budget?: number;
  /** Where Pulumi keeps the stack's state (file:// or s3://); default the run directory. */
  backend?: string;
  /** The machines' login user. */
  ssh_user: string;
  /** Who may SSH in; default the runner's public address /32. */
  ssh_cidr?: string;
  /** The load host's machine type. */
  load: { instance_type: string };
}

/** What a target kind asks a cloud for: machines per role, and the cloud's settings section. */
export interface ClusterAsk {
  /** The profile's name (stacks are tiperf-<name>-<scope>). */
  name: string;
  /** How many machines per role and their machine type (a load host is added by the cloud). */
  roles: { role: string; count: number; instanceType?: string; data?: boolean }[];
  /** The profile's section named after the cloud, as its schema parsed it. */
  settings: CloudSettings;
}

/** A machine of the cluster: one per instance of a role, plus the load host. */
export interface Machine {
  /** pd-1, tikv-2, load-1: the resource name and the Name tag. */
  name: string;
  role: string;
  instanceType: string;
  /** A data volume beside the root volume, GB. */
  dataVolumeGb?: number;
}

/** One line of the resource list: a Pulumi resource type and how many of it. */
export interface PlannedResource {
  type: string;
  name: string;
  count: number;
  about: string;
}

/** What a cluster costs per hour, line by line, from a dated price table. */
export interface Prices {
  /** Each machine type and the volumes: how many, $/h each. */
  lines: { what: string; count: number; perHour: number }[];
  priceTable: { as_of: string; source: string };
  /** The terms priced ("on-demand in us-west-2; spot instances usually cost less"). */
  terms: string;
}

/** One machine as a cloud program's `machines` output lists it. */
export interface CloudMachine {
  name: string;
  role: string;
  privateIp: string;
  publicIp: string;
  id: string;
  /** Its SSH port, when not 22. */
  sshPort?: number;
}

/** What the hourly reaper found and did in one region. */
export interface ReapReport {
  format: "tiperf.reap";
  cloud?: string;
  region: string;
  dryRun: boolean;
  removed: Leftover[];
  kept: Leftover[];
  failed: (Leftover & { error: string })[];
  overdue: Leftover[];
}

/** A tagged resource of some run, as the reaper sees it. */
export interface Leftover {
  resource: string;
  id: string;
  runId: string;
  expiresAt: string;
  createdAt?: string;
  expired: boolean;
  overdue: boolean;
  name?: string;
}

export interface CloudProvider {
  /** The provider's name: a profile's `provider:` and its settings section's key. */
  name: string;
  /** Its settings section, extending settings.ts's common keys. */
  settings: z.ZodType<CloudSettings>;
  /** A region name of this cloud (for `tiperf reap --cloud`). */
  region: { pattern: RegExp; example: string };
  /** "aws us-west-2 (zone us-west-2a), on-demand": where the cluster will be. */
  where(ask: ClusterAsk): string;
  machines(ask: ClusterAsk): Machine[];
  /** The stack's resources in creation order (the program creates the same ones). */
  resources(ask: ClusterAsk): PlannedResource[];
  /** $/h of the cluster; a machine type missing from the price table is an input error. */
  prices(ask: ClusterAsk): Prices;
  /** The inline program creating the machines; its output `machines` lists them. */
  program(o: {
    ask: ClusterAsk;
    tags: Record<string, string>;
    sshCidr: string;
    publicKey: string;
  }): Promise<PulumiFn>;
  /** Deletes, by tag, what of a run still exists (a stack's recovery); says what went. */
  removeByTag(settings: CloudSettings, runId: string, log: (line: string) => void): Promise<string[]>;
  /** The hourly reaper: deletes what every run left past its expiry in a region. */
  reap(o: {
    region: string;
    endpoint?: string;
    dryRun: boolean;
    log: (line: string) => void;
  }): Promise<ReapReport>;
  /** The Pulumi CLI's extra environment (region). */
  env(settings: CloudSettings): Record<string, string>;
  /** Who may SSH in: the runner's public address as a /32 (or the settings' ssh_cidr). */
  runnerCidr(settings: CloudSettings): Promise<string>;
  /** Run on a machine over SSH, exits 0 once its boot-time preparation (user data) is done. */
  ready(machine: CloudMachine): string[];
}

/** The keys of a managed Kubernetes cloud's settings section (the common keys but SSH and the load host). */
export interface KubernetesCloudSettings {
  region: string;
  ttl: string;
  budget?: number;
  backend?: string;
}

/** A node pool of a Kubernetes cluster tiperf creates: a role's machines, or the load tools' node. */
export interface NodePool {
  /** pd, tikv, tidb, load: the pool's name, and what pods select it by (poolSelector). */
  name: string;
  count: number;
  machineType: string;
}

/** What a target kind asks a managed Kubernetes cloud for: node pools and the cloud's settings section. */
export interface KubernetesAsk {
  /** The profile's name (stacks are tiperf-<name>-<scope>). */
  name: string;
  pools: NodePool[];
  /** The volumes the workloads will claim, GB (priced as the cloud's default disk). */
  volumesGb?: number;
  settings: KubernetesCloudSettings;
}

/**
 * A cloud that creates Kubernetes clusters (GKE, EKS): the cluster, a node pool per role, TiDB
 * Operator installed, every resource labelled with the run; its program's outputs are `kubeconfig`
 * (a file a KubeClient reads, secret) and `context`. VMs reached over SSH are CloudProvider's; a
 * cloud may be either or both, each a capability of its folder.
 */
export interface KubernetesCloud {
  /** The cloud's name: its settings section's key in a `provider: kubernetes` profile. */
  name: string;
  /** The product ("GKE"): the plan's word for the cluster. */
  product: string;
  /** About how long creating the cluster, its pools and TiDB Operator takes (the plan's estimate). */
  createSeconds: number;
  settings: z.ZodType<KubernetesCloudSettings>;
  /** "GKE in us-central1 (zone us-central1-a), project p": where the cluster will be. */
  where(ask: KubernetesAsk): string;
  /** The stack's resources in creation order (the program creates the same ones). */
  resources(ask: KubernetesAsk): PlannedResource[];
  prices(ask: KubernetesAsk): Prices;
  /** The node labels that put a pod on a pool's nodes. */
  poolSelector(pool: string): Record<string, string>;
  /** The cloud's form of the run's tags (label keys and values it accepts). */
  labels(tags: Record<string, string>): Record<string, string>;
  program(o: { ask: KubernetesAsk; labels: Record<string, string> }): Promise<PulumiFn>;
  /** Deletes, by label, what of a run still exists (a stack's recovery); says what went. */
  removeByTag(
    settings: KubernetesCloudSettings,
    runId: string,
    log: (line: string) => void,
  ): Promise<string[]>;
  /** The Pulumi CLI's extra environment (project, region). */
  env(settings: KubernetesCloudSettings): Record<string, string>;
}
