// The clouds tiperf creates clusters on: one line per cloud and capability.
import { AWS_EKS } from "./aws/eks.ts";
import { AWS_CLOUD } from "./aws/index.ts";
import { GCP_CLOUD } from "./gcp/index.ts";
import type { CloudProvider, KubernetesCloud } from "./provider.ts";

/** Clouds of machines reached over SSH (a profile's `provider`: a tiup cluster on them). */
export const CLOUDS: Record<string, CloudProvider> = {
  aws: AWS_CLOUD,
};

/** Clouds that create Kubernetes clusters (a `provider: kubernetes` profile's section of that name). */
export const KUBERNETES_CLOUDS: Record<string, KubernetesCloud> = {
  eks: AWS_EKS,
  gcp: GCP_CLOUD,
};

export function cloudOf(provider: string): CloudProvider {
  const kind = CLOUDS[provider];
  if (!kind) throw new Error(`no cloud ${provider} (clouds: ${Object.keys(CLOUDS).join(", ")})`);
  return kind;
}
