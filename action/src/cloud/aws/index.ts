// AWS as a cloud of tiperf: the `aws:` settings, the machines, resources and prices of a cluster,
// the program of infra/pulumi/aws-cluster.ts (loaded on first use, with @pulumi/aws, given the
// machines), the per-run tag sweep and the hourly reaper (with the AWS SDK, loaded on first use),
// and the runner's address from the settings or AWS's own "what is my address" service.
import { RunError } from "../../errors.ts";
import { programOf } from "../infra.ts";
import type { CloudProvider, CloudSettings, ClusterAsk } from "../provider.ts";
import { awsOf, machinesOf, pricesPerHour, resourcesOf, where } from "./resources.ts";
import { AwsSettingsSchema, REGION } from "./settings.ts";
import { userData } from "./user-data.ts";

/** AWS's service answering with the caller's public IPv4 address. */
const CHECK_IP = "https://checkip.amazonaws.com";

export const AWS_CLOUD: CloudProvider = {
  name: "aws",
  settings: AwsSettingsSchema,
  region: { pattern: REGION, example: "us-west-2" },
  where,
  machines: machinesOf,
  resources: resourcesOf,
  prices: pricesPerHour,
  async program(o) {
    const awsClusterProgram = await programOf("aws");
    return awsClusterProgram(programArgs(o));
  },
  async removeByTag(settings, runId, log) {
    const { removeRunByTag } = await import("./leftovers.ts");
    return removeRunByTag({ region: settings.region, runId, log });
  },
  async reap(o) {
    const { reapAws } = await import("./leftovers.ts");
    return reapAws(o);
  },
  env: (settings) => ({ AWS_REGION: settings.region }),
  async runnerCidr(settings: CloudSettings) {
    if (settings.ssh_cidr) return settings.ssh_cidr;
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

/** The program's arguments for a cluster: its machines with their first-boot scripts. */
export function programArgs(o: {
  ask: ClusterAsk;
  tags: Record<string, string>;
  sshCidr: string;
  publicKey: string;
  endpoint?: string;
}) {
  return {
    settings: awsOf(o.ask),
    machines: machinesOf(o.ask).map((m) => ({ ...m, userData: userData(m) })),
    tags: o.tags,
    sshCidr: o.sshCidr,
    publicKey: o.publicKey,
    ...(o.endpoint ? { endpoint: o.endpoint } : {}),
  };
}
