// A TiDB profile on a cloud: the cluster it asks for (a machine per instance of each role, data
// volumes on TiKV and TiFlash), and, once the machines exist, the profile as a hosts profile on
// them. The cloud itself (its machines, prices, program) is a provider of cloud/registry.ts.
import { type CostEstimate, estimateCost } from "../../cloud/cost.ts";
import type { ClusterHosts } from "../../cloud/plan.ts";
import type { CloudProvider, ClusterAsk } from "../../cloud/provider.ts";
import { cloudOf } from "../../cloud/registry.ts";
import { cloudSettings, type Profile, ROLES } from "./profile.ts";

/** The cloud of a cloud profile, else undefined (hosts, playground). */
export function cloudOfProfile(profile: Profile): CloudProvider | undefined {
  return cloudSettings(profile) ? cloudOf(profile.provider) : undefined;
}

/** A cloud cluster's own hours: `up` (~5 min), deploy and start (~10), loading (~10), destroy (~5). */
const CLOUD_SETUP_HOURS = 0.5;

/** The estimate of a cloud profile's run: the cluster's own hours and the matrix's. */
export function cloudEstimate(profile: Profile, matrixSeconds: number): CostEstimate {
  return estimateCost(cloudOf(profile.provider), askOf(profile), {
    setup: CLOUD_SETUP_HOURS,
    matrix: matrixSeconds / 3600,
  });
}

/** What a cloud profile asks its cloud for. */
export function askOf(profile: Profile): ClusterAsk {
  const settings = cloudSettings(profile);
  if (!settings) throw new Error(`profile ${profile.name}: provider ${profile.provider} is not a cloud`);
  return {
    name: profile.name,
    roles: ROLES.map((role) => {
      const r = profile.roles[role];
      return {
        role,
        count: r.count ?? 0,
        ...(r.instance_type ? { instanceType: r.instance_type } : {}),
        data: role === "tikv" || role === "tiflash",
      };
    }),
    settings,
  };
}

/**
 * The profile as a hosts profile on the cluster's machines: each role's private addresses, reached
 * with the run's key as the image's login user through the load host (the bastion: the cloud
 * admits SSH from the runner and nothing else).
 */
export function withHosts(profile: Profile, c: ClusterHosts): Profile {
  const settings = cloudSettings(profile);
  if (!settings) throw new Error(`profile ${profile.name}: provider ${profile.provider} is not a cloud`);
  const list = (role: string) => (c.hosts[role]?.length ? { [role]: c.hosts[role] } : {});
  const port = c.sshPort ?? 22;
  return {
    ...profile,
    hosts: { ...list("pd"), ...list("tikv"), ...list("tidb"), ...list("tiflash"), ...list("load") },
    ssh: {
      user: settings.ssh_user,
      port,
      identity_file: c.identityFile,
      proxy: { host: c.bastion, user: settings.ssh_user, port, identity_file: c.identityFile },
    },
  };
}
