#!/usr/bin/env node
import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path';
const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);

// infra/pulumi/tidb-operator.ts
import * as k8s from "@pulumi/kubernetes";
function execKubeconfig(o) {
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
    ""
  ].join("\n");
}
var operatorCrds = (version) => `https://raw.githubusercontent.com/pingcap/tidb-operator/${version}/manifests/crd.yaml`;
function installOperator(o) {
  const provider = new k8s.Provider(
    "cluster",
    { kubeconfig: o.kubeconfig, enableServerSideApply: true },
    { dependsOn: o.dependsOn }
  );
  const crds = new k8s.yaml.v2.ConfigFile(
    "tidb-operator-crds",
    { file: operatorCrds(o.operator.version) },
    { provider }
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
      waitForJobs: true
    },
    { provider, dependsOn: [crds] }
  );
}

export {
  execKubeconfig,
  installOperator
};
