// Google Cloud as a cloud of tiperf for Kubernetes: a GKE cluster per run (seed 000's study ran on
// GKE) with a node pool per role, created by infra/pulumi/gke-cluster.ts (loaded on first use, with
// @pulumi/gcp and @pulumi/kubernetes); the run's tags as GCP labels; the per-run sweep through
// GKE's REST API (sweep.ts) when a stack's state has lost a cluster.
import { programOf } from "../infra.ts";
import type { KubernetesCloud } from "../provider.ts";
import { clusterName, gcpLabels } from "./labels.ts";
import { gcpOf, POOL_LABEL, poolsOf, pricesPerHour, resourcesOf, where } from "./resources.ts";
import { type GcpSettings, GcpSettingsSchema, zonesOf } from "./settings.ts";

export const GCP_CLOUD: KubernetesCloud = {
  name: "gcp",
  product: "GKE",
  // a zonal cluster and its pools: GKE's documented few minutes each, the chart after them
  createSeconds: 900,
  settings: GcpSettingsSchema,
  where,
  resources: resourcesOf,
  prices: pricesPerHour,
  poolSelector: (pool) => ({ [POOL_LABEL]: pool }),
  labels: gcpLabels,
  async program(o) {
    const gkeClusterProgram = await programOf("gcp");
    const g = gcpOf(o.ask);
    return gkeClusterProgram({
      project: g.project,
      region: g.region,
      zones: zonesOf(g),
      name: clusterName(o.labels["tiperf-run-id"] ?? o.ask.name),
      pools: poolsOf(o.ask),
      diskGb: g.disk_gb,
      diskType: g.disk_type,
      ...(g.api_cidr ? { apiCidr: g.api_cidr } : {}),
      operator: { version: g.operator.version, chartRepo: g.operator.chart_repo },
      labels: o.labels,
    });
  },
  async removeByTag(settings, runId, log) {
    const { removeGkeByLabel } = await import("./sweep.ts");
    return removeGkeByLabel({ project: (settings as GcpSettings).project, runId, log });
  },
  env: (settings) => ({
    GOOGLE_PROJECT: (settings as GcpSettings).project,
    GOOGLE_REGION: settings.region,
  }),
};
