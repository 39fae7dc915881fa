// The Pulumi program of an ephemeral GKE cluster for TiDB Operator (an inline program of the
// Automation API; tiperf's gcp cloud drives it through infra/index.ts and gives it the node pools).
// It creates exactly what the gcp cloud's `resourcesOf` lists: a VPC-native cluster (zonal in one
// zone, regional over several) without its default pool, a node pool per role and one for the load
// tools (nodes labelled by the pool's name, no auto-upgrade or auto-repair during a run), TiDB
// Operator's CRDs and its Helm release; every GCP resource labelled with the run (the provider's
// default labels). Its outputs: the kubeconfig (secret; credentials through GKE's
// gke-gcloud-auth-plugin, as `gcloud container clusters get-credentials` writes them) and its context.
import * as gcp from "@pulumi/gcp";
import * as pulumi from "@pulumi/pulumi";
import { execKubeconfig, installOperator } from "./tidb-operator.ts";

/** A node pool: a role's nodes (pd, tikv, tidb) or the load tools' (load). */
export interface GkePool {
  name: string;
  /** Nodes per zone (GKE counts a pool's nodes per zone). */
  nodesPerZone: number;
  machineType: string;
  /** The zones its nodes are in (the cluster's, or the first of them). */
  zones: string[];
}

export interface GkeClusterArgs {
  project: string;
  region: string;
  zones: string[];
  /** The cluster's name (a run's: tiperf-<run id>, at most 40 characters). */
  name: string;
  pools: GkePool[];
  diskGb: number;
  diskType: string;
  /** Who may reach the API server; absent: anyone with credentials. */
  apiCidr?: string;
  operator: { version: string; chartRepo: string };
  /** The run's labels (tiperf-run-id, tiperf-expires-at, …) in GCP's form. */
  labels: Record<string, string>;
}

/** The kubeconfig of a GKE cluster, authenticating through gke-gcloud-auth-plugin. */
export function gkeKubeconfig(o: { context: string; endpoint: string; ca: string }): string {
  return execKubeconfig({
    context: o.context,
    server: `https://${o.endpoint}`,
    ca: o.ca,
    exec: [
      "command: gke-gcloud-auth-plugin",
      "installHint: Install gke-gcloud-auth-plugin (gcloud components install gke-gcloud-auth-plugin)",
      "provideClusterInfo: true",
    ],
  });
}

export function gkeClusterProgram(args: GkeClusterArgs): () => Promise<Record<string, unknown>> {
  return async () => {
    const provider = new gcp.Provider("gcp", {
      project: args.project,
      region: args.region,
      defaultLabels: args.labels,
    });
    const opts = { provider };
    // one zone: a zonal cluster there; several: a regional cluster with its nodes in those zones
    const location = args.zones.length === 1 ? (args.zones[0] as string) : args.region;
    const cluster = new gcp.container.Cluster(
      "cluster",
      {
        name: args.name,
        location,
        ...(args.zones.length > 1 ? { nodeLocations: args.zones } : {}),
        removeDefaultNodePool: true,
        initialNodeCount: 1,
        deletionProtection: false,
        networkingMode: "VPC_NATIVE",
        ipAllocationPolicy: {},
        resourceLabels: args.labels,
        ...(args.apiCidr
          ? {
              masterAuthorizedNetworksConfig: {
                cidrBlocks: [{ cidrBlock: args.apiCidr, displayName: "tiperf runner" }],
              },
            }
          : {}),
      },
      opts,
    );
    const pools = args.pools.map(
      (p) =>
        new gcp.container.NodePool(
          p.name,
          {
            name: p.name,
            cluster: cluster.name,
            location,
            ...(args.zones.length > 1 ? { nodeLocations: p.zones } : {}),
            nodeCount: p.nodesPerZone,
            management: { autoRepair: false, autoUpgrade: false },
            nodeConfig: {
              machineType: p.machineType,
              diskSizeGb: args.diskGb,
              diskType: args.diskType,
              labels: { "tiperf-pool": p.name },
              resourceLabels: args.labels,
              oauthScopes: ["https://www.googleapis.com/auth/cloud-platform"],
            },
          },
          opts,
        ),
    );
    const context = pulumi.interpolate`gke_${args.project}_${location}_${cluster.name}`;
    const kubeconfig = pulumi
      .all([context, cluster.endpoint, cluster.masterAuth.clusterCaCertificate])
      .apply(([ctx, endpoint, ca]) => gkeKubeconfig({ context: ctx, endpoint, ca: ca ?? "" }));
    installOperator({ kubeconfig, operator: args.operator, dependsOn: pools });
    return { kubeconfig: pulumi.secret(kubeconfig), context };
  };
}
