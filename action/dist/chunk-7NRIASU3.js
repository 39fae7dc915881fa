#!/usr/bin/env node
import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path';
const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);
import {
  execKubeconfig,
  installOperator
} from "./chunk-KIMY7Z4I.js";
import "./chunk-3EADY6QU.js";

// infra/pulumi/gke-cluster.ts
import * as gcp from "@pulumi/gcp";
import * as pulumi from "@pulumi/pulumi";
function gkeKubeconfig(o) {
  return execKubeconfig({
    context: o.context,
    server: `https://${o.endpoint}`,
    ca: o.ca,
    exec: [
      "command: gke-gcloud-auth-plugin",
      "installHint: Install gke-gcloud-auth-plugin (gcloud components install gke-gcloud-auth-plugin)",
      "provideClusterInfo: true"
    ]
  });
}
function gkeClusterProgram(args) {
  return async () => {
    const provider = new gcp.Provider("gcp", {
      project: args.project,
      region: args.region,
      defaultLabels: args.labels
    });
    const opts = { provider };
    const location = args.zones.length === 1 ? args.zones[0] : args.region;
    const cluster = new gcp.container.Cluster(
      "cluster",
      {
        name: args.name,
        location,
        ...args.zones.length > 1 ? { nodeLocations: args.zones } : {},
        removeDefaultNodePool: true,
        initialNodeCount: 1,
        deletionProtection: false,
        networkingMode: "VPC_NATIVE",
        ipAllocationPolicy: {},
        resourceLabels: args.labels,
        ...args.apiCidr ? {
          masterAuthorizedNetworksConfig: {
            cidrBlocks: [{ cidrBlock: args.apiCidr, displayName: "tiperf runner" }]
          }
        } : {}
      },
      opts
    );
    const pools = args.pools.map(
      (p) => new gcp.container.NodePool(
        p.name,
        {
          name: p.name,
          cluster: cluster.name,
          location,
          ...args.zones.length > 1 ? { nodeLocations: p.zones } : {},
          nodeCount: p.nodesPerZone,
          management: { autoRepair: false, autoUpgrade: false },
          nodeConfig: {
            machineType: p.machineType,
            diskSizeGb: args.diskGb,
            diskType: args.diskType,
            labels: { "tiperf-pool": p.name },
            resourceLabels: args.labels,
            oauthScopes: ["https://www.googleapis.com/auth/cloud-platform"]
          }
        },
        opts
      )
    );
    const context = pulumi.interpolate`gke_${args.project}_${location}_${cluster.name}`;
    const kubeconfig = pulumi.all([context, cluster.endpoint, cluster.masterAuth.clusterCaCertificate]).apply(([ctx, endpoint, ca]) => gkeKubeconfig({ context: ctx, endpoint, ca: ca ?? "" }));
    installOperator({ kubeconfig, operator: args.operator, dependsOn: pools });
    return { kubeconfig: pulumi.secret(kubeconfig), context };
  };
}
export {
  gkeClusterProgram,
  gkeKubeconfig
};
