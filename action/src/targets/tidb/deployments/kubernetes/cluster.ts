// Which Kubernetes cluster a profile's TidbClusters go to: the user's (a kubeconfig context), or
// one tiperf creates for the run when the profile has a section named after a cloud of
// KUBERNETES_CLOUDS (`gcp:`): a node pool per role on its roles.<role>.instance_type (count nodes)
// and one for the load tools, the pods put on them by the cloud's pool labels.
import type { KubernetesAsk, KubernetesCloud, KubernetesCloudSettings } from "../../../../cloud/provider.ts";
import { KUBERNETES_CLOUDS } from "../../../../cloud/registry.ts";
import type { Profile } from "../../profile.ts";
import type { KubernetesSettings } from "./schema.ts";

/** The roles a TidbCluster of tiperf's has (no TiFlash). */
const POOL_ROLES = ["pd", "tikv", "tidb"] as const;

/** The cloud that creates this profile's cluster and its settings section, if it has one. */
export function createdBy(
  p: Profile,
): { cloud: KubernetesCloud; settings: KubernetesCloudSettings } | undefined {
  const sections = p as unknown as Record<string, unknown>;
  for (const cloud of Object.values(KUBERNETES_CLOUDS)) {
    const settings = sections[cloud.name];
    if (settings) return { cloud, settings: settings as KubernetesCloudSettings };
  }
  return undefined;
}

const GI: Record<string, number> = { Ki: 1 / 1024 ** 2, Mi: 1 / 1024, Gi: 1, Ti: 1024, Pi: 1024 ** 2 };
const DEC: Record<string, number> = {
  k: 1e3 / 2 ** 30,
  M: 1e6 / 2 ** 30,
  G: 1e9 / 2 ** 30,
  T: 1e12 / 2 ** 30,
};
/** A Kubernetes quantity (100Gi, 375G) in GiB. */
export function quantityGb(q: string): number {
  const m = /^(\d+(?:\.\d+)?)([KMGTP]i|[kMGT])?$/.exec(q);
  if (!m) return 0;
  const n = Number(m[1]);
  const unit = m[2];
  return unit ? n * (GI[unit] ?? DEC[unit] ?? 0) : n / 2 ** 30;
}

/** What the profile asks its cloud for: a pool per role, the load tools' pool, the volumes claimed. */
export function kubernetesAsk(p: Profile): KubernetesAsk {
  const created = createdBy(p);
  if (!created) throw new Error(`profile ${p.name}: no cloud section creates its Kubernetes cluster`);
  const k = p.kubernetes as KubernetesSettings;
  const pools: KubernetesAsk["pools"] = POOL_ROLES.map((role) => ({
    name: role,
    count: p.roles[role].count ?? 0,
    machineType: p.roles[role].instance_type as string,
  }));
  if (k.load) pools.push({ name: "load", count: 1, machineType: k.load.instance_type as string });
  const volumesGb =
    (p.roles.pd.count ?? 0) * quantityGb(k.storage.pd) +
    (p.roles.tikv.count ?? 0) * quantityGb(k.storage.tikv);
  return { name: p.name, pools, volumesGb: Math.ceil(volumesGb), settings: created.settings };
}

/**
 * The kubernetes section as the run uses it: on a cluster tiperf creates, each role's pods and the
 * load pod on their own pool (the cloud's pool label); on the user's, as written.
 */
export function kubeSettingsOf(p: Profile): KubernetesSettings {
  const k = p.kubernetes as KubernetesSettings;
  const created = createdBy(p);
  if (!created) return k;
  const pool = created.cloud.poolSelector;
  return {
    ...k,
    node_selector: { pd: pool("pd"), tikv: pool("tikv"), tidb: pool("tidb") },
    ...(k.load ? { load: { ...k.load, node_selector: pool("load") } } : {}),
  };
}
