// What a cloud gives tiperf (roachprod's vm.Provider is the model): its Pulumi program, its tag
// sweep, what the Pulumi CLI needs in its environment, how the runner's address is learned, and the
// command that says a machine finished preparing itself. Each cloud is a folder implementing this
// and one line of cloud/registry.ts.
import type { Profile } from "../targets/tidb/profile.ts";

type PulumiFn = import("@pulumi/pulumi/automation/index.js").PulumiFn;

/** One machine as a cloud program's `machines` output lists it. */
export interface CloudMachine {
  name: string;
  role: string;
  privateIp: string;
  publicIp: string;
  id: string;
  /** Its SSH port, when not 22. */
  sshPort?: number;
}

export interface CloudProvider {
  /** The inline program creating a profile's machines; its output `machines` lists them. */
  program(o: {
    profile: Profile;
    tags: Record<string, string>;
    sshCidr: string;
    publicKey: string;
  }): Promise<PulumiFn>;
  /** Deletes, by tag, what of a run still exists (a stack's recovery); says what went. */
  sweep(profile: Pick<Profile, "aws">, runId: string, log: (line: string) => void): Promise<string[]>;
  /** The Pulumi CLI's extra environment (region). */
  env(profile: Pick<Profile, "aws">): Record<string, string>;
  /** Who may SSH in: the runner's public address as a /32 (or the profile's setting). */
  runnerCidr(profile: Profile): Promise<string>;
  /** Run on a machine over SSH, exits 0 once its boot-time preparation (user data) is done. */
  ready(machine: CloudMachine): string[];
}
