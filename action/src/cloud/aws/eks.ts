// AWS as a cloud that creates Kubernetes clusters (EKS): the `eks:` section of a `provider:
// kubernetes` profile, the cluster's resources and prices (the aws price table), the program of
// infra/pulumi/eks-cluster.ts (loaded on first use), node groups selected by EKS's own node label,
// the run's tags as they are (AWS takes them), and the per-run sweep of its EKS cluster and what EC2 holds of it.
import { z } from "zod";
import { InputError } from "../../errors.ts";
import { poolMachineLines } from "../cost.ts";
import { pricesOf, programOf } from "../infra.ts";
import type { KubernetesAsk, KubernetesCloud, PlannedResource, Prices } from "../provider.ts";
import { COMMON_SETTINGS, KUBERNETES_SETTINGS, operatorResources } from "../settings.ts";
import { IAM_ROLE_PATH, TAG } from "../tags.ts";
import { instancePrice } from "./resources.ts";
import { REGION } from "./settings.ts";

export const EksSettingsSchema = z
  .strictObject({
    ttl: COMMON_SETTINGS.ttl,
    budget: COMMON_SETTINGS.budget,
    backend: COMMON_SETTINGS.backend,
    region: z.string().regex(REGION, "must be an AWS region like us-west-2"),
    /** The zones of its subnets: EKS asks for two at least; default the region's a and b. */
    zones: z.array(z.string().min(1)).min(2, "EKS needs subnets in two zones at least").optional(),
    /** The cluster's Kubernetes version (like 1.33); default EKS's. */
    kubernetes_version: z
      .string()
      .regex(/^1\.\d+$/, "must be a Kubernetes minor version like 1.33")
      .optional(),
    /** Every node's root volume, GB; TiKV's data is on its PersistentVolume (EBS). */
    disk_gb: z.number().int().min(20).max(16384).default(100),
    /** api_cidr (the public endpoint's access CIDRs) and operator. */
    ...KUBERNETES_SETTINGS,
  })
  .superRefine((e, ctx) => {
    for (const [i, zone] of (e.zones ?? []).entries())
      if (!new RegExp(`^${e.region}[a-z]$`).test(zone))
        ctx.addIssue({
          code: "custom",
          path: ["zones", i],
          message: `must be a zone of ${e.region}, like ${e.region}a`,
        });
  });

export type EksSettings = z.output<typeof EksSettingsSchema>;

const eksOf = (ask: KubernetesAsk) => ask.settings as EksSettings;
export const eksZones = (e: EksSettings) => e.zones ?? [`${e.region}a`, `${e.region}b`];

/** EKS's label on every node of a managed node group. */
export const NODEGROUP_LABEL = "eks.amazonaws.com/nodegroup";

/** Each node group's zones: a role's spans them all, the load tools' node sits in the first. */
function groupsOf(ask: KubernetesAsk) {
  const zones = eksZones(eksOf(ask));
  return ask.pools.map((p) => ({
    name: p.name,
    count: p.count,
    instanceType: p.machineType,
    zones: p.name === "load" ? zones.slice(0, 1) : zones,
  }));
}

function resourcesOf(ask: KubernetesAsk): PlannedResource[] {
  const e = eksOf(ask);
  const zones = eksZones(e);
  const list: PlannedResource[] = [
    { type: "aws:ec2/vpc:Vpc", name: "vpc", count: 1, about: "10.43.0.0/16" },
    { type: "aws:ec2/internetGateway:InternetGateway", name: "igw", count: 1, about: "" },
    {
      type: "aws:ec2/routeTable:RouteTable",
      name: "routes",
      count: 1,
      about: "0.0.0.0/0 → the internet gateway",
    },
    {
      type: "aws:ec2/subnet:Subnet",
      name: zones.map((z) => `subnet-${z}`).join(", "),
      count: zones.length,
      about: "a public /24 per zone, tagged for load balancers",
    },
    {
      type: "aws:ec2/routeTableAssociation:RouteTableAssociation",
      name: zones.map((z) => `routes-${z}`).join(", "),
      count: zones.length,
      about: "",
    },
    {
      type: "aws:iam/role:Role",
      name: "cluster-role, node-role",
      count: 2,
      about: "assumed by EKS and by EC2",
    },
    {
      type: "aws:iam/rolePolicyAttachment:RolePolicyAttachment",
      name: "cluster-policy, node-*",
      count: 5,
      about: "AmazonEKSClusterPolicy; worker node, CNI, registry read-only, EBS CSI driver",
    },
    {
      type: "aws:eks/cluster:Cluster",
      name: "cluster",
      count: 1,
      about: `${e.kubernetes_version ? `Kubernetes ${e.kubernetes_version}, ` : ""}public endpoint${e.api_cidr ? ` only from ${e.api_cidr}` : ""}, access entries (the creator is admin)`,
    },
  ];
  for (const g of groupsOf(ask))
    list.push({
      type: "aws:eks/nodeGroup:NodeGroup",
      name: g.name,
      count: 1,
      about: `${g.count} × ${g.instanceType} (fixed size) in ${g.zones.join(", ")}, ${e.disk_gb} GB root, label ${NODEGROUP_LABEL}=${g.name}`,
    });
  list.push(
    { type: "aws:eks/addon:Addon", name: "aws-ebs-csi-driver", count: 1, about: "PersistentVolumes on EBS" },
    ...operatorResources(e.operator),
  );
  return list;
}

/** $/h on demand: each instance type, the nodes' root volumes and the claimed volumes as gp3, EKS's fee. */
function pricesPerHour(ask: KubernetesAsk): Prices {
  const e = eksOf(ask);
  const table = pricesOf("aws");
  const lines = poolMachineLines(ask, (type, key) => instancePrice(e.region, type, key));
  const gb = (table.gp3_gb_month?.[e.region] ?? 0.08) / 730;
  const nodes = ask.pools.reduce((s, p) => s + p.count, 0);
  lines.push({ what: "gp3 GB", count: nodes * e.disk_gb + (ask.volumesGb ?? 0), perHour: gb });
  lines.push({ what: "EKS cluster", count: 1, perHour: table.cluster_hour ?? 0.1 });
  return {
    lines,
    priceTable: { as_of: table.as_of, source: table.source },
    terms: `on-demand in ${e.region}; the TidbClusters' volumes priced as gp3`,
  };
}

/** The run's EKS cluster name: tiperf-<run id> (at most 100 characters; letters, digits, -, _). */
const clusterName = (runId: string) =>
  `tiperf-${runId.replace(/^tiperf-/, "").replace(/[^A-Za-z0-9_-]/g, "-")}`.slice(0, 100);

export const AWS_EKS: KubernetesCloud = {
  name: "eks",
  product: "EKS",
  // the control plane (~10 min) and the node groups after it
  createSeconds: 1200,
  settings: EksSettingsSchema,
  where(ask) {
    const e = eksOf(ask);
    return `EKS in ${e.region} over ${eksZones(e).join(", ")}, on-demand`;
  },
  resources: resourcesOf,
  prices: pricesPerHour,
  poolSelector: (pool) => ({ [NODEGROUP_LABEL]: pool }),
  // AWS takes tiperf's tags as they are
  labels: (tags) => ({ ...tags }),
  async program(o) {
    const e = eksOf(o.ask);
    const runId = o.labels[TAG.runId];
    if (!runId) throw new InputError("eks: the run's tags have no run id");
    const eksClusterProgram = await programOf("eks");
    return eksClusterProgram({
      region: e.region,
      zones: eksZones(e),
      name: clusterName(runId),
      ...(e.kubernetes_version ? { kubernetesVersion: e.kubernetes_version } : {}),
      pools: groupsOf(o.ask),
      diskGb: e.disk_gb,
      ...(e.api_cidr ? { apiCidr: e.api_cidr } : {}),
      operator: { version: e.operator.version, chartRepo: e.operator.chart_repo },
      roles: { path: IAM_ROLE_PATH, tags: { [TAG.region]: e.region } },
      tags: o.labels,
    });
  },
  async removeByTag(settings, runId, log) {
    // the run's EKS node groups and cluster, then what EC2 holds of it (its VPC, subnets, the nodes'
    // instances and volumes), then its IAM roles, by tag
    const { removeRunByTag } = await import("./leftovers.ts");
    return removeRunByTag({ region: settings.region, runId, log });
  },
  env: (settings) => ({ AWS_REGION: settings.region }),
};
