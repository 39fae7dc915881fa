// Test-only: `tiperf ARGS…` with the gcp Kubernetes cloud replaced by the fake one
// (fake-kube-cloud.ts) under the real Pulumi CLI: the cluster it "creates" is the test's API server.
//   kube-cloud-harness.ts CLUSTER_DIR KUBECONFIG ARGS…
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { KUBERNETES_CLOUDS } from "../../action/src/cloud/registry.ts";
import { fakeKubernetesCloud } from "./fake-kube-cloud.ts";

const [dir, kubeconfig, ...rest] = process.argv.slice(2);
const text = readFileSync(kubeconfig as string, "utf8");
const context = (parse(text) as { "current-context": string })["current-context"];
KUBERNETES_CLOUDS.gcp = fakeKubernetesCloud({ dir: dir as string, kubeconfig: text, context });
process.argv = [process.argv[0] as string, "tiperf", ...rest];
await import("../../action/src/cli.ts");
