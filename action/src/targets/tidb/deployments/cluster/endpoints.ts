// Where a cluster's components are: its TiDB servers (or HAProxy in front of them on the load host)
// and each role's status API.
import type { Endpoint } from "../../../types.ts";
import type { Role } from "../../profile.ts";
import type { TidbPlan } from "../types.ts";
import type { ClusterDeployment } from "./types.ts";

/** HAProxy's port on the load host for a cluster (clusters side by side: one port each). */
export const haproxyPort = (plan: Pick<TidbPlan, "profile">, d: { index: number }) =>
  plan.profile.haproxy_port + d.index;

/** The TiDB servers of a cluster (what HAProxy balances over, or what the tools connect to). */
export function clusterTidbServers(d: ClusterDeployment): Endpoint[] {
  return d.cluster.instances
    .filter((i) => i.role === "tidb")
    .map((i) => ({ host: i.host, port: i.ports.port as number }));
}

/** The status APIs of each role of a cluster. */
export function clusterStatus(d: ClusterDeployment): Record<Role, string[]> {
  const of = (role: Role, port: string) =>
    d.cluster.instances.filter((i) => i.role === role).map((i) => `${i.host}:${i.ports[port]}`);
  return {
    tidb: of("tidb", "status_port"),
    tikv: of("tikv", "status_port"),
    pd: of("pd", "client_port"),
    tiflash: of("tiflash", "metrics_port"),
  };
}
