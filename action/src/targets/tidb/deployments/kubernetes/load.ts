// The load tools in a pod of the cluster (kubernetes.load): the plan's place and the run's launcher.
import { PodLauncher } from "../../../../kubernetes/pod.ts";
import type { LoadInPlace, RunContext } from "../types.ts";
import { kubeSettingsOf } from "./cluster.ts";
import { LOAD_POD_FILE, loadPodManifest } from "./manifests.ts";
import { readyClient } from "./run.ts";
import type { KubernetesDeployment } from "./types.ts";

const launchers = new WeakMap<RunContext, PodLauncher>();

const kubernetesLoadLauncher: LoadInPlace<KubernetesDeployment>["launcher"] = (ctx, d) => {
  if (!ctx.plan.profile.kubernetes) return undefined;
  const k = kubeSettingsOf(ctx.plan.profile);
  if (!k.load) return undefined;
  let l = launchers.get(ctx);
  if (!l) {
    const runId = d.runId;
    l = new PodLauncher({
      client: () => readyClient(ctx),
      namespace: d.namespace,
      manifest: (name, command) =>
        loadPodManifest({ name, namespace: d.namespace, runId, settings: k, command }),
      cores: k.load.cpus,
      startTimeoutMs: k.load.start_timeout * 1000,
      prefix: "tiperf-load",
    });
    launchers.set(ctx, l);
  }
  return l;
};

/** Where a profile with kubernetes.load runs the load tools: a pod per step in the run's namespace. */
export const kubernetesLoad: LoadInPlace<KubernetesDeployment> = {
  place(p) {
    const load = p.kubernetes ? kubeSettingsOf(p).load : undefined;
    if (!load) return undefined;
    const node = [
      ...Object.entries(load.node_selector ?? {}).map(([k, v]) => `${k}=${v}`),
      ...(load.instance_type ? [`node.kubernetes.io/instance-type=${load.instance_type}`] : []),
    ];
    return {
      where: "pod",
      cores: load.cpus,
      about: `a pod per step in the run's namespace (image ${load.image}, ${load.cpus} CPUs requested${node.length ? `, on nodes ${node.join(", ")}` : ""}; tidb/${LOAD_POD_FILE}), reaching TiDB through its Service inside the cluster`,
    };
  },
  launcher: kubernetesLoadLauncher,
};
