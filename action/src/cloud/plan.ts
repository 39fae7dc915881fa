// The cloud's part of `tiperf plan`: where the cluster goes, what Pulumi would create, the tags on
// every resource, the estimate against the budget and the ttl; and, before `up`, each machine's
// name standing in for its address.
import { type Asked, type CostEstimate, checkBudget, estimateText, outlivesTtl } from "./cost.ts";
import type { CloudProvider, ClusterAsk, KubernetesAsk, KubernetesCloud } from "./provider.ts";
import { type RunTags, tagsOf } from "./tags.ts";

/** Where a cluster's machines are, once `up` said so (before it, each machine's name stands in). */
export interface ClusterHosts {
  /** Private addresses per role (load included): what the machines use among themselves. */
  hosts: Record<string, string[]>;
  /** The load host's public address: the bastion, the one machine the runner reaches (SSH only). */
  bastion: string;
  /** The run's private key file. */
  identityFile: string;
  /** The machines' SSH port (22 when absent). */
  sshPort?: number;
}

/** Before `up`: each machine's name in place of its address (the plan shows where each instance goes). */
export function placeholderHosts(cloud: CloudProvider, ask: ClusterAsk): ClusterHosts {
  const hosts: Record<string, string[]> = {};
  for (const m of cloud.machines(ask)) hosts[m.role] = [...(hosts[m.role] ?? []), m.name];
  return { hosts, bastion: "<load-1 public address>", identityFile: "<run>/cloud/id_rsa" };
}

/** The plan's cloud section. */
export function cloudPlanText(
  cloud: CloudProvider,
  ask: ClusterAsk,
  estimate: CostEstimate,
  tags: RunTags,
  /** The machines exist: the hosts below are the addresses `up` returned. */
  provisioned = false,
): string {
  const s = ask.settings;
  const lines = [
    `cloud: ${cloud.where(ask)}, ttl ${s.ttl}, state ${s.backend ?? "file://<run>/cloud/state"}`,
    `resources Pulumi would create (stack tiperf-${ask.name}-<pr N, branch or local>):`,
  ];
  for (const r of cloud.resources(ask))
    lines.push(`  ${String(r.count).padStart(2)} × ${r.type} ${r.name}${r.about ? `    # ${r.about}` : ""}`);
  lines.push("tags on every resource (the provider's default tags; volumes get them too):");
  for (const [k, v] of Object.entries(tagsOf(tags))) lines.push(`  ${k} = ${v}`);
  lines.push(...limitLines(ask, estimate));
  lines.push(
    provisioned
      ? "hosts below are the private addresses `up` returned (this is the plan the run carries out)"
      : "hosts below are the machines' names; at run time they are the private addresses `up` returns",
  );
  return `${lines.join("\n")}\n\n`;
}

/** The estimate against the budget and the ttl. */
function limitLines(ask: { settings: { ttl: string; budget?: number } }, estimate: CostEstimate): string[] {
  const s = ask.settings;
  const lines = [estimateText(estimate)];
  if (s.budget !== undefined)
    lines.push(
      estimate.dollars > s.budget
        ? `budget: $${s.budget.toFixed(2)}: OVER: a run would be refused before anything is created`
        : `budget: $${s.budget.toFixed(2)}: within (estimate $${estimate.dollars.toFixed(2)})`,
    );
  if (outlivesTtl(ask, estimate))
    lines.push(
      `ttl: ${s.ttl}: SHORTER than the run (${estimate.hours.toFixed(2)} h): a run would be refused before anything is created`,
    );
  return lines;
}

/** The plan's section of a Kubernetes cluster tiperf creates for the run. */
export function kubernetesCloudPlanText(
  cloud: KubernetesCloud,
  ask: KubernetesAsk,
  estimate: CostEstimate,
  tags: RunTags,
): string {
  const s = ask.settings;
  const lines = [
    `cluster: ${cloud.where(ask)}, created for the run and destroyed after it, ttl ${s.ttl}, state ${s.backend ?? "file://<run>/cloud/state"}`,
    `resources Pulumi would create (stack tiperf-${ask.name}-<pr N, branch or local>):`,
  ];
  for (const r of cloud.resources(ask))
    lines.push(`  ${String(r.count).padStart(2)} × ${r.type} ${r.name}${r.about ? `    # ${r.about}` : ""}`);
  lines.push(
    `the run's tags on every ${cloud.name} resource, as the cloud takes them (the provider's defaults):`,
  );
  // a placeholder of the plan (<run id>) stays one; a value is shown as the cloud will write it
  for (const [tag, value] of Object.entries(tagsOf(tags))) {
    const [k, v] = Object.entries(cloud.labels({ [tag]: value }))[0] as [string, string];
    lines.push(`  ${k} = ${value.startsWith("<") ? value : v}`);
  }
  lines.push(...limitLines(ask, estimate));
  const pools = ask.pools.map(
    (p) => `${p.name} ${Object.entries(cloud.poolSelector(p.name)).map(([k, v]) => `${k}=${v}`)}`,
  );
  lines.push(`pods placed by pool: ${pools.join("; ")}`);
  lines.push("the API server below is the created cluster's (its kubeconfig: <run>/cloud/kubeconfig)");
  return `${lines.join("\n")}\n\n`;
}

/** The tags a plan shows before the run has them: its id (if known), expiry, repository and PR as placeholders. */
export function plannedTags(ttl: string, runId: string | undefined): RunTags {
  return {
    runId: runId ?? "<run id>",
    expiresAt: `<start + ${ttl}>`,
    repository: "<owner/repo>",
    pr: "<pr or none>",
  };
}

/** A budget's or ttl's refusal of the estimate (checkBudget's message), as a plan lists it; none: []. */
export function budgetRefusals(ask: Asked, estimate: CostEstimate, file: string, section: string): string[] {
  try {
    checkBudget(ask, estimate, file, section);
    return [];
  } catch (e) {
    return [(e as Error).message];
  }
}
