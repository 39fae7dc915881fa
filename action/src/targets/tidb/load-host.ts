// The load host of a TiDB run as ssh reaches it (a hosts profile's load host), through the bastion
// when the profile has one: where the load tools and tiperf's own checks run when not here.

import { join } from "node:path";
import type { RemoteHost } from "../../proc/ssh.ts";
import { expandHome } from "./config.ts";
import type { TidbPlan } from "./deployments/types.ts";

/** The load host as ssh reaches it (hosts profiles), for the load tools; through the bastion if any. */
export function loadHostOf(plan: TidbPlan, dir: string): RemoteHost | undefined {
  const l = plan.load;
  if (!l.user) return undefined;
  const knownHosts = join(dir, "known_hosts");
  const proxy = plan.profile.ssh?.proxy;
  const identity = l.identity ? expandHome(l.identity) : undefined;
  const bastionKey = proxy?.identity_file ? expandHome(proxy.identity_file) : identity;
  return {
    host: l.host,
    user: l.user,
    port: l.port ?? 22,
    ...(identity ? { identity } : {}),
    knownHosts,
    ...(proxy
      ? {
          jump: {
            host: proxy.host,
            user: proxy.user ?? l.user,
            port: proxy.port,
            ...(bastionKey ? { identity: bastionKey } : {}),
            knownHosts,
          },
        }
      : {}),
  };
}
