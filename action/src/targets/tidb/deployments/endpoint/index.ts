// provider endpoint: a TiDB that already runs (staging, TiDB Cloud, a blue/green pair), at a host
// and port tiperf did not create. Nothing is deployed: it is measured in a database of the run's
// own (targets/endpoint/), never stopped, restarted or reconfigured.
import { ROLES } from "../../profile.ts";
import type { Deployer } from "../types.ts";

export const ENDPOINT: Deployer = {
  provider: "endpoint",
  servers: "borrowed",
  about: "an existing TiDB at a host and port (tiperf owns only a database of its own there)",
  sections: ["endpoint"],
  checkProfile(p, issue) {
    if (!p.endpoint) issue(["endpoint"], "provider endpoint needs an endpoint section (host, port, user)");
    for (const key of ["hosts", "ssh"] as const)
      if (p[key])
        issue(
          [key],
          `an endpoint is a TiDB that already runs: tiperf reaches it at endpoint.host; remove ${key}`,
        );
    if (p.haproxy) issue(["haproxy"], "an endpoint's load balancing is its own: remove haproxy");
    if (p.monitoring) issue(["monitoring"], "tiperf deploys no monitoring on an endpoint: remove monitoring");
    if (Object.keys(p.server_configs).length)
      issue(["server_configs"], "tiperf never reconfigures an endpoint: remove server_configs");
    for (const role of ROLES)
      if ((p.roles[role].count ?? 0) > 0 || p.roles[role].instances)
        issue(["roles", role], "an endpoint's topology is its own: tiperf deploys nothing there");
  },
};
