// A cloud of cloud/registry.ts as a way to deploy TiDB: the machines created first (one per
// instance of each role, a load host that is also the bastion), then a tiup cluster on them as on
// provider hosts. A new cloud is a folder under cloud/ and its line in cloud/registry.ts; it becomes
// a provider here by itself.
import { budgetRefusals, cloudPlanText, placeholderHosts, plannedTags } from "../../../../cloud/plan.ts";
import type { CloudProvider } from "../../../../cloud/provider.ts";
import { provisionCluster } from "../../../../cloud/provision.ts";
import { CLOUDS } from "../../../../cloud/registry.ts";
import { askOf, cloudEstimate, cloudOfProfile, withHosts } from "../../cloud.ts";
import { ROLES } from "../../profile.ts";
import { clusterForm } from "../cluster/index.ts";
import { createdMachines } from "../machines.ts";
import { releaseTarget } from "../release.ts";
import type { Deployer, DeploymentForm } from "../types.ts";

export function cloudDeployer(cloud: string): Deployer {
  return {
    provider: cloud,
    about: `a tiup cluster on machines tiperf creates on ${cloud} (and destroys)`,
    sections: [cloud],
    servers: "tiup",
    form: clusterForm as DeploymentForm,
    checkProfile(p, issue) {
      if (!(p as Record<string, unknown>)[cloud])
        issue([cloud], `provider ${cloud} needs a ${cloud} section (region, load.instance_type)`);
      if (p.hosts) issue(["hosts"], `provider ${cloud} creates its hosts; remove hosts`);
      if (p.ssh?.identity_file)
        issue(
          ["ssh", "identity_file"],
          `provider ${cloud} generates a key pair per run; remove identity_file`,
        );
      for (const role of ROLES) {
        const r = p.roles[role];
        if (r.instances)
          issue(["roles", role, "instances"], `provider ${cloud} places one instance per machine; use count`);
        const count = r.count ?? 0;
        if (role !== "tiflash" && count === 0)
          issue(["roles", role, "count"], `a TiDB cluster needs at least one ${role} instance`);
        if (count > 0 && r.instance_type === undefined)
          issue(["roles", role, "instance_type"], `roles.${role}.count is ${count}: name the instance type`);
      }
    },
    checkTarget: releaseTarget(cloud),
    machines: {
      cloudOf: (p) => cloudOfProfile(p)?.name,
      plan(p, o) {
        const provider = cloudOfProfile(p) as CloudProvider;
        const ask = askOf(p);
        const estimate = cloudEstimate(p, o.matrixSeconds);
        const tags = plannedTags(ask.settings.ttl, o.runId);
        const about = cloudPlanText(provider, ask, estimate, tags, o.provisioned ?? false).trimEnd();
        const refusals = budgetRefusals(ask, estimate, o.profileFile, provider.name);
        // the machines' own time is in the cluster form's deploy time (tiup deploy on them)
        return { about, refusals, seconds: 0 };
      },
      // until `up` returns their addresses, each machine's name stands in
      placeholders: (p) => withHosts(p, placeholderHosts(cloudOfProfile(p) as CloudProvider, askOf(p))),
      async create(p, o) {
        const cluster = await provisionCluster({
          provider: p.provider,
          ask: askOf(p),
          runId: o.runId,
          runDir: o.runDir,
          forget: o.forget,
          ...(o.shard ? { shard: o.shard } : {}),
          log: o.log,
          signal: o.signal,
        });
        const estimate = cloudEstimate(p, 0);
        return createdMachines(cluster, {
          profile: p.name,
          perHour: estimate.perHour,
          asOf: estimate.priceTable.as_of,
          onto: (q) => withHosts(q, cluster.hosts),
        });
      },
    },
  };
}

/** Every cloud of the registry as a provider. */
export const CLOUD_DEPLOYERS: Record<string, Deployer> = Object.fromEntries(
  Object.keys(CLOUDS).map((name) => [name, cloudDeployer(name)]),
);
