// TiDB Operator on a Kubernetes cluster a program just created (GKE, EKS), as its install guide
// does it: the release's CRDs (manifests/crd.yaml, applied server-side: they are too large for a
// client-side apply's annotation), a tidb-admin namespace and the tidb-operator Helm chart of the
// same release. Every cloud's program calls this once its nodes exist.
import * as k8s from "@pulumi/kubernetes";
import type * as pulumi from "@pulumi/pulumi";

/**
 * A kubeconfig of one cluster whose credentials come from an exec plugin (gke-gcloud-auth-plugin,
 * `aws eks get-token`), as the clouds' own CLIs write them.
 */
export function execKubeconfig(o: {
  context: string;
  server: string;
  ca: string;
  /** The user's exec lines after its apiVersion (command, args, hints), indented by the caller's six spaces. */
  exec: string[];
}): string {
  return [
    "apiVersion: v1",
    "kind: Config",
    `current-context: ${o.context}`,
    "clusters:",
    `- name: ${o.context}`,
    "  cluster:",
    `    server: ${o.server}`,
    `    certificate-authority-data: ${o.ca}`,
    "contexts:",
    `- name: ${o.context}`,
    "  context:",
    `    cluster: ${o.context}`,
    `    user: ${o.context}`,
    "users:",
    `- name: ${o.context}`,
    "  user:",
    "    exec:",
    "      apiVersion: client.authentication.k8s.io/v1beta1",
    ...o.exec.map((l) => `      ${l}`),
    "",
  ].join("\n");
}

/** TiDB Operator's CRDs of a release, as its install guide applies them. */
export const operatorCrds = (version: string) =>
  `https://raw.githubusercontent.com/pingcap/tidb-operator/${version}/manifests/crd.yaml`;

export function installOperator(o: {
  kubeconfig: pulumi.Input<string>;
  operator: { version: string; chartRepo: string };
  /** What must exist first (the node pools: the operator's pods need nodes). */
  dependsOn: pulumi.Resource[];
}): void {
  const provider = new k8s.Provider(
    "cluster",
    { kubeconfig: o.kubeconfig, enableServerSideApply: true },
    { dependsOn: o.dependsOn },
  );
  const crds = new k8s.yaml.v2.ConfigFile(
    "tidb-operator-crds",
    { file: operatorCrds(o.operator.version) },
    { provider },
  );
  const ns = new k8s.core.v1.Namespace("tidb-admin", { metadata: { name: "tidb-admin" } }, { provider });
  new k8s.helm.v3.Release(
    "tidb-operator",
    {
      name: "tidb-operator",
      chart: "tidb-operator",
      version: o.operator.version,
      repositoryOpts: { repo: o.operator.chartRepo },
      namespace: ns.metadata.name,
      waitForJobs: true,
    },
    { provider, dependsOn: [crds] },
  );
}
