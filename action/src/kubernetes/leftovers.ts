// `tiperf reap --kubernetes`: namespaces tiperf created (labelled managed-by tiperf) whose expiry
// annotation has passed are deleted; an unlabelled namespace, or one without a valid expiry, is
// never touched, whatever its name; one already being deleted (Terminating: its finalizers still
// run) is named as such, neither deleted again nor counted as kept.
import { EXPIRES, KubeClient, MANAGED_BY, MANAGER } from "./client.ts";
import { loadKubeContext } from "./kubeconfig.ts";

export interface KubeReapReport {
  server: string;
  context: string;
  dryRun: boolean;
  removed: string[];
  /** Not expired yet (name: expiry). */
  kept: string[];
  /** Labelled by tiperf but without a readable expiry: left alone, named. */
  unreadable: string[];
  /** Already being deleted (Terminating) when reap looked: nothing to do. */
  deleting: string[];
  failed: { namespace: string; error: string }[];
}

export async function reapKubernetes(o: {
  kubeconfig?: string;
  context?: string;
  dryRun: boolean;
  log: (line: string) => void;
  now?: Date;
}): Promise<KubeReapReport> {
  const ctx = loadKubeContext({
    ...(o.kubeconfig ? { kubeconfig: o.kubeconfig } : {}),
    ...(o.context ? { context: o.context } : {}),
    where: "tiperf reap --kubernetes",
  });
  const client = new KubeClient(ctx);
  const now = (o.now ?? new Date()).getTime();
  const report: KubeReapReport = {
    server: ctx.server,
    context: ctx.context,
    dryRun: o.dryRun,
    removed: [],
    kept: [],
    unreadable: [],
    deleting: [],
    failed: [],
  };
  for (const ns of await client.namespaces(`${MANAGED_BY}=${MANAGER}`)) {
    const name = ns.metadata.name;
    // the list's selector is the server's; the label is checked again here all the same
    if (ns.metadata.labels?.[MANAGED_BY] !== MANAGER) continue;
    if (ns.metadata.deletionTimestamp) {
      report.deleting.push(name);
      o.log(`reap: namespace ${name}: being deleted since ${ns.metadata.deletionTimestamp}`);
      continue;
    }
    const expires = Date.parse(ns.metadata.annotations?.[EXPIRES] ?? "");
    if (Number.isNaN(expires)) {
      report.unreadable.push(name);
      o.log(`reap: namespace ${name}: no readable ${EXPIRES} annotation: left alone`);
      continue;
    }
    if (expires > now) {
      report.kept.push(`${name}: ${new Date(expires).toISOString()}`);
      continue;
    }
    if (o.dryRun) {
      report.removed.push(name);
      continue;
    }
    try {
      await client.deleteNamespace(name);
      report.removed.push(name);
      o.log(`reap: namespace ${name} (expired ${new Date(expires).toISOString()}) deleted`);
    } catch (e) {
      report.failed.push({ namespace: name, error: (e as Error).message });
    }
  }
  return report;
}
