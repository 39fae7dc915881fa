// provider hosts: a tiup cluster on machines the profile lists (hosts.<role>, a load host for the
// load tools and HAProxy), reached over SSH, through a bastion if ssh.proxy names one.
import { CLOUDS } from "../../../../cloud/registry.ts";
import { ROLES } from "../../profile.ts";
import { clusterForm } from "../cluster/index.ts";
import { noInstanceTypes, releaseTarget } from "../release.ts";
import type { Deployer, DeploymentForm } from "../types.ts";

export const HOSTS: Deployer = {
  provider: "hosts",
  about: "a tiup cluster on the profile's hosts",
  servers: "tiup",
  form: clusterForm as DeploymentForm,
  checkProfile(p, issue) {
    noInstanceTypes(p, issue, Object.keys(CLOUDS));
    for (const role of ROLES) {
      const r = p.roles[role];
      if (r.instances && r.count !== undefined && r.count !== r.instances.length)
        issue(["roles", role, "count"], `count ${r.count} but ${r.instances.length} instances listed`);
      const count = r.instances?.length ?? r.count ?? 0;
      if (role !== "tiflash" && count === 0)
        issue(["roles", role, "count"], `a TiDB cluster needs at least one ${role} instance`);
      if (count > 0 && !r.instances && !p.hosts?.[role]?.length)
        issue(["hosts", role], `roles.${role}.count is ${count}: list the ${role} hosts (hosts.${role})`);
    }
    if (p.haproxy && !p.hosts?.load?.length)
      issue(["hosts", "load"], "haproxy: true needs a load host (hosts.load) to run on");
    if (p.ssh?.proxy && !p.hosts?.load?.length)
      issue(
        ["hosts", "load"],
        "ssh.proxy needs a load host (hosts.load): behind a bastion, tiperf's SQL and status checks run there",
      );
  },
  checkTarget: releaseTarget("hosts"),
};
