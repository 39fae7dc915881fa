// A Kubernetes cluster created for one run on a cloud of KUBERNETES_CLOUDS: the stack `up` (the
// cloud's program: the cluster, its node pools, TiDB Operator), its kubeconfig written into the run
// directory (0600), and destroy at the end — recorded in the ledger so that a killed run's stack is
// recovered by the Action's post step or `tiperf reap`, as a cluster of machines is.
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { RunError } from "../errors.ts";
import type { KubernetesAsk } from "./provider.ts";
import { recordStack, stackOptions, stackRecord, tagsNow } from "./provision.ts";
import { KUBERNETES_CLOUDS } from "./registry.ts";
import { CloudStack } from "./stack.ts";

export interface CreatedKubernetes {
  /** The kubeconfig file the cluster's API client reads, and its context. */
  kubeconfig: string;
  context: string;
  stackName: string;
  startedAt: number;
  endedAt?: number;
  /** Destroys the stack (idempotent) and forgets its ledger entry. */
  destroy(): Promise<void>;
}

export function kubernetesCloudOf(name: string) {
  const cloud = KUBERNETES_CLOUDS[name];
  if (!cloud)
    throw new Error(`no Kubernetes cloud ${name} (clouds: ${Object.keys(KUBERNETES_CLOUDS).join(", ")})`);
  return cloud;
}

export async function provisionKubernetes(o: {
  /** The cloud's name (the profile's section). */
  cloud: string;
  ask: KubernetesAsk;
  runId: string;
  runDir: string;
  /** The run's shard (K of K/N), if it is one. */
  shard?: number;
  log: (line: string) => void;
  signal: AbortSignal;
}): Promise<CreatedKubernetes> {
  const { ask, log } = o;
  const cloud = kubernetesCloudOf(o.cloud);
  const settings = ask.settings;
  const dir = join(o.runDir, "cloud");
  await mkdir(dir, { recursive: true });
  const tags = tagsNow(settings, o.runId);
  const rec = stackRecord({
    ask,
    dir,
    provider: o.cloud,
    capability: "kubernetes",
    runId: o.runId,
    forget: [],
    ...(o.shard ? { shard: o.shard } : {}),
  });
  log(
    `cloud: ${cloud.product} on ${o.cloud} ${settings.region}: stack ${rec.name}, expires ${tags["tiperf:expires-at"]}`,
  );
  const forget = await recordStack(rec);
  const program = await cloud.program({ ask, labels: cloud.labels(tags) });
  let stack: CloudStack | undefined;
  const created: CreatedKubernetes = {
    kubeconfig: join(dir, "kubeconfig"),
    context: "",
    stackName: rec.name,
    startedAt: Date.now(),
    destroy: async () => {
      await stack?.destroy();
      created.endedAt ??= Date.now();
      await forget();
    },
  };
  try {
    stack = await CloudStack.open(stackOptions(rec, log, program));
    const outputs = await stack.up(o.signal);
    const { kubeconfig, context } = outputs;
    if (typeof kubeconfig !== "string" || !kubeconfig || typeof context !== "string" || !context)
      throw new RunError(
        `cloud: the stack's outputs "kubeconfig" and "context" are not both text (got ${Object.keys(outputs).join(", ") || "no outputs"})`,
      );
    await writeFile(created.kubeconfig, kubeconfig, { mode: 0o600 });
    await chmod(created.kubeconfig, 0o600);
    created.context = context;
    log(
      `cloud: ${cloud.product} cluster up in ${Math.round((Date.now() - created.startedAt) / 1000)}s (context ${context}; kubeconfig <run>/cloud/kubeconfig)`,
    );
  } catch (e) {
    await created.destroy().catch((err: Error) => log(`teardown: ${err.message}`));
    throw e;
  }
  return created;
}
