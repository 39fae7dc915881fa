// AWS as a cloud of tiperf: the program of infra/pulumi/aws-cluster.ts (loaded on first use, with
// @pulumi/aws, given the profile's machines), the reaper's per-run sweep, and the runner's address from the profile or AWS's
// own "what is my address" service.
import { RunError } from "../../errors.ts";
import type { Profile } from "../../targets/tidb/profile.ts";
import { programs } from "../infra.ts";
import type { CloudProvider } from "../provider.ts";
import { sweepRun } from "./reap.ts";
import { machinesOf } from "./resources.ts";
import { userData } from "./user-data.ts";

/** AWS's service answering with the caller's public IPv4 address. */
const CHECK_IP = "https://checkip.amazonaws.com";

export const AWS_CLOUD: CloudProvider = {
  async program(o) {
    const awsClusterProgram = await programs.aws();
    return awsClusterProgram(programArgs(o));
  },
  sweep(profile, runId, log) {
    const region = profile.aws?.region;
    if (!region) return Promise.resolve([]);
    return sweepRun({ region, runId, log });
  },
  env(profile): Record<string, string> {
    return profile.aws ? { AWS_REGION: profile.aws.region } : {};
  },
  async runnerCidr(profile) {
    if (profile.aws?.ssh_cidr) return profile.aws.ssh_cidr;
    let text: string;
    try {
      const res = await fetch(CHECK_IP, { signal: AbortSignal.timeout(10_000) });
      text = (await res.text()).trim();
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
    } catch (e) {
      throw new RunError(
        `cannot learn this runner's public address from ${CHECK_IP} (${(e as Error).message}): set aws.ssh_cidr in the profile (the address SSH comes from, like 203.0.113.7/32)`,
      );
    }
    if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(text))
      throw new RunError(
        `${CHECK_IP} answered ${JSON.stringify(text.slice(0, 60))}, not an IPv4 address: set aws.ssh_cidr in the profile`,
      );
    return `${text}/32`;
  },
  ready: () => ["test", "-e", "/var/lib/tiperf-ready"],
};

/** The program's arguments for a profile: its machines with their first-boot scripts. */
export function programArgs(o: {
  profile: Profile;
  tags: Record<string, string>;
  sshCidr: string;
  publicKey: string;
  endpoint?: string;
}) {
  const settings = o.profile.aws;
  if (!settings) throw new Error(`profile ${o.profile.name}: provider aws needs an aws section`);
  return {
    settings,
    machines: machinesOf(o.profile).map((m) => ({ ...m, userData: userData(m) })),
    tags: o.tags,
    sshCidr: o.sshCidr,
    publicKey: o.publicKey,
    ...(o.endpoint ? { endpoint: o.endpoint } : {}),
  };
}
