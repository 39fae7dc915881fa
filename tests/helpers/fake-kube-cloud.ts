// Test-only: a "cloud" that creates Kubernetes clusters, standing in for GKE under the real Pulumi
// engine. Its one resource is a Pulumi dynamic resource whose create writes <dir>/cluster.json (the
// labels it was given, the way a GKE cluster exists once its create returns) and whose delete
// removes it; the cluster it "creates" is the test's real API server, whose kubeconfig becomes the
// stack's `kubeconfig` output. Nothing outside tests/ uses this.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { GCP_CLOUD } from "../../action/src/cloud/gcp/index.ts";
import type { KubernetesCloud } from "../../action/src/cloud/provider.ts";

interface FakeClusterInputs {
  dir: string;
  labels: Record<string, string>;
  pools: { name: string; count: number; machineType: string }[];
  kubeconfig: string;
}

// serialized into the dynamic provider's own process: captures nothing, imports what it uses
const provider: pulumi.dynamic.ResourceProvider = {
  async create(inputs: FakeClusterInputs) {
    const fs = await import("node:fs");
    const path = await import("node:path");
    fs.writeFileSync(
      path.join(inputs.dir, "cluster.json"),
      JSON.stringify({ labels: inputs.labels, pools: inputs.pools, pid: process.pid }),
    );
    return { id: "fake-gke-cluster", outs: inputs };
  },
  async delete(_id: string, outs: FakeClusterInputs) {
    const fs = await import("node:fs");
    const path = await import("node:path");
    fs.rmSync(path.join(outs.dir, "cluster.json"), { force: true });
  },
  async read(id: string, props: FakeClusterInputs) {
    const fs = await import("node:fs");
    const path = await import("node:path");
    if (!fs.existsSync(path.join(props.dir, "cluster.json"))) return { id: "", props: {} };
    return { id, props };
  },
  async diff() {
    return { changes: false };
  },
};

class FakeCluster extends pulumi.dynamic.Resource {
  declare readonly kubeconfig: pulumi.Output<string>;
  constructor(name: string, args: FakeClusterInputs) {
    super(provider, name, args, {}, "tiperf-fake", "KubernetesCluster");
  }
}

/** The fake cluster's record in its folder: the labels and pools it was created with, or undefined once deleted. */
export function fakeCluster(dir: string): { labels: Record<string, string>; pools: unknown[] } | undefined {
  const file = join(dir, "cluster.json");
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined;
}

/**
 * GCP's Kubernetes cloud with its program replaced: settings, resources, prices, labels and pool
 * selectors are gcp's; the cluster is the test's API server (`kubeconfig`, `context`).
 */
export function fakeKubernetesCloud(o: {
  dir: string;
  kubeconfig: string;
  context: string;
}): KubernetesCloud {
  return {
    ...GCP_CLOUD,
    async program(p) {
      return async () => {
        const c = new FakeCluster("cluster", {
          dir: o.dir,
          labels: p.labels,
          pools: p.ask.pools,
          kubeconfig: o.kubeconfig,
        });
        return { kubeconfig: pulumi.secret(c.kubeconfig), context: o.context };
      };
    },
    async removeByTag(_settings, runId) {
      const c = fakeCluster(o.dir);
      if (c && c.labels["tiperf-run-id"] === runId.toLowerCase()) {
        rmSync(join(o.dir, "cluster.json"), { force: true });
        return ["fake cluster"];
      }
      return [];
    },
    env: () => ({}),
  };
}
