// What a GKE cluster asks Google Cloud for, before anything is created: the cluster, its node
// pools, TiDB Operator on it, and what it costs per hour. `tiperf plan` prints it, the budget check
// reads it, and the Pulumi program (infra/pulumi/gke-cluster.ts) creates exactly these resources.
import { InputError } from "../../errors.ts";
import { poolMachineLines } from "../cost.ts";
import { pricesOf } from "../infra.ts";
import type { KubernetesAsk, PlannedResource, Prices } from "../provider.ts";
import { operatorResources } from "../settings.ts";
import { type GcpSettings, zonesOf } from "./settings.ts";

export const gcpOf = (ask: KubernetesAsk): GcpSettings => ask.settings as GcpSettings;

/** GKE's label on every node of a pool: what pods select a pool by. */
export const POOL_LABEL = "cloud.google.com/gke-nodepool";

/**
 * Each pool's zones and nodes per zone (GKE counts per zone): a role's pool spreads over every zone
 * (seed 000's three-zone arm), the load tools' node sits in the first; a role's count the zones do
 * not divide is refused.
 */
export function poolsOf(
  ask: KubernetesAsk,
): { name: string; nodesPerZone: number; machineType: string; zones: string[] }[] {
  const zones = zonesOf(gcpOf(ask));
  return ask.pools.map((p) => {
    const at = p.name === "load" ? zones.slice(0, 1) : zones;
    if (p.count % at.length !== 0)
      throw new InputError(
        `roles.${p.name}.count: ${p.count} node(s) cannot be spread evenly over gcp.zones (${zones.join(", ")}): GKE puts the same number in each zone; use a multiple of ${zones.length}`,
      );
    return { name: p.name, nodesPerZone: p.count / at.length, machineType: p.machineType, zones: at };
  });
}

export function where(ask: KubernetesAsk): string {
  const g = gcpOf(ask);
  const zones = zonesOf(g);
  return zones.length === 1
    ? `GKE zonal cluster in ${zones[0]}, project ${g.project}, on-demand`
    : `GKE regional cluster in ${g.region} over ${zones.join(", ")}, project ${g.project}, on-demand`;
}

/** The resources of the stack, in creation order (the program makes the same ones). */
export function resourcesOf(ask: KubernetesAsk): PlannedResource[] {
  const g = gcpOf(ask);
  const list: PlannedResource[] = [
    {
      type: "gcp:container/cluster:Cluster",
      name: "cluster",
      count: 1,
      about: `VPC-native, default node pool removed, deletion protection off${g.api_cidr ? `, API server only from ${g.api_cidr}` : ""}`,
    },
  ];
  for (const p of poolsOf(ask))
    list.push({
      type: "gcp:container/nodePool:NodePool",
      name: p.name,
      count: 1,
      about: `${p.nodesPerZone * p.zones.length} × ${p.machineType} (${p.zones.length > 1 ? `${p.nodesPerZone} in each of ${p.zones.length} zones` : p.zones[0]}), ${g.disk_gb} GB ${g.disk_type} boot disk, no auto-upgrade or auto-repair, label ${POOL_LABEL}=${p.name}`,
    });
  list.push(...operatorResources(g.operator));
  return list;
}

/** The price of one machine type in a region; a type missing from the table is an input error. */
function machinePrice(region: string, type: string, where: string): number {
  const table = pricesOf("gcp").instances[region];
  if (!table)
    throw new InputError(
      `gcp.region ${region}: the price table (infra/prices/gcp.ts) has no prices for it; regions priced: ${Object.keys(pricesOf("gcp").instances).join(", ")}`,
    );
  const price = table[type];
  if (price === undefined)
    throw new InputError(
      `${where}: machine type ${type} has no price in infra/prices/gcp.ts for ${region} (priced: ${Object.keys(table).join(", ")}); add it with its source`,
    );
  return price;
}

/** $/h on demand: each machine type, the nodes' boot disks and the volumes asked for, GKE's fee. */
export function pricesPerHour(ask: KubernetesAsk): Prices {
  const g = gcpOf(ask);
  const table = pricesOf("gcp");
  const lines = poolMachineLines(ask, (type, key) => machinePrice(g.region, type, key));
  const disks = table.disk_gb_month?.[g.region] ?? {};
  const nodes = ask.pools.reduce((s, p) => s + p.count, 0);
  lines.push({
    what: `${g.disk_type} GB`,
    count: nodes * g.disk_gb,
    perHour: (disks[g.disk_type] ?? 0.1) / 730,
  });
  if (ask.volumesGb)
    lines.push({ what: "volume GB", count: ask.volumesGb, perHour: (disks["pd-balanced"] ?? 0.1) / 730 });
  lines.push({ what: "GKE cluster", count: 1, perHour: table.cluster_hour ?? 0.1 });
  return {
    lines,
    priceTable: { as_of: table.as_of, source: table.source },
    terms: `on-demand in ${g.region}${ask.volumesGb ? "; the TidbClusters' volumes priced as pd-balanced, GKE's default class" : ""}`,
  };
}
