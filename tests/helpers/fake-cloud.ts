// Test-only: a "cloud" of files standing in for AWS under the real Pulumi engine. Each machine is
// a Pulumi dynamic resource whose create writes <cloud dir>/<name>.json (its tags inside, the way
// an instance exists in AWS as soon as RunInstances returns) and then waits `bootMs` (the boot),
// whose delete removes the file. A machine named in `failAt` fails its create after the file is
// written, as a half-created cloud resource does. Nothing outside tests/ uses this.
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { AWS_CLOUD } from "../../action/src/cloud/aws/index.ts";
import type { CloudProvider } from "../../action/src/cloud/provider.ts";

export interface FakeMachineInputs {
  dir: string;
  name: string;
  tags: Record<string, string>;
  bootMs: number;
  fail: boolean;
  /** As cloud-init installs the run's key pair: appended to this authorized_keys on create. */
  authorizedKeys?: string;
  publicKey?: string;
}

// The provider's methods are serialized into the dynamic provider's own process: they capture
// nothing and import what they use.
const provider: pulumi.dynamic.ResourceProvider = {
  async create(inputs: FakeMachineInputs) {
    const fs = await import("node:fs");
    const path = await import("node:path");
    const file = path.join(inputs.dir, `${inputs.name}.json`);
    fs.writeFileSync(file, JSON.stringify({ name: inputs.name, tags: inputs.tags, pid: process.pid }));
    if (inputs.authorizedKeys && inputs.publicKey)
      fs.appendFileSync(inputs.authorizedKeys, `${inputs.publicKey}\n`);
    if (inputs.bootMs > 0) await new Promise((r) => setTimeout(r, inputs.bootMs));
    if (inputs.fail) throw new Error(`${inputs.name}: capacity not available (fake cloud)`);
    // its user data is done (the real program's machines touch /var/lib/tiperf-ready)
    fs.writeFileSync(path.join(inputs.dir, `${inputs.name}.ready`), "");
    return { id: inputs.name, outs: { ...inputs, address: `127.0.0.1` } };
  },
  async delete(id: string, outs: FakeMachineInputs) {
    const fs = await import("node:fs");
    const path = await import("node:path");
    fs.rmSync(path.join(outs.dir, `${id}.json`), { force: true });
    fs.rmSync(path.join(outs.dir, `${id}.ready`), { force: true });
  },
  async read(id: string, props: FakeMachineInputs) {
    const fs = await import("node:fs");
    const path = await import("node:path");
    // a machine that is gone reads as gone (refresh drops it from the state)
    if (!fs.existsSync(path.join(props.dir, `${id}.json`))) return { id: "", props: {} };
    return { id, props };
  },
  async diff() {
    return { changes: false };
  },
};

class FakeMachine extends pulumi.dynamic.Resource {
  declare readonly address: pulumi.Output<string>;
  constructor(name: string, args: FakeMachineInputs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { ...args, address: undefined }, opts, "tiperf-fake", "Machine");
  }
}

/** A cluster of fake machines, created one after another (each depends on the one before). */
export function fakeCloudProgram(o: {
  dir: string;
  names: string[];
  tags: Record<string, string>;
  /** How long each machine's create takes, by name (default 0). */
  bootMs?: Record<string, number>;
  failAt?: string;
}): () => Promise<Record<string, unknown>> {
  return async () => {
    let previous: FakeMachine | undefined;
    const machines: FakeMachine[] = [];
    for (const name of o.names) {
      previous = new FakeMachine(
        name,
        { dir: o.dir, name, tags: o.tags, bootMs: o.bootMs?.[name] ?? 0, fail: name === o.failAt },
        previous ? { dependsOn: [previous] } : {},
      );
      machines.push(previous);
    }
    return { machines: machines.map((m, i) => ({ name: o.names[i], address: m.address })) };
  };
}

/** The machines that exist in the fake cloud: name → tags. */
export function fakeMachines(dir: string): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const f of readdirSync(dir).filter((x) => x.endsWith(".json")))
    out[f.replace(/\.json$/, "")] = (
      JSON.parse(readFileSync(join(dir, f), "utf8")) as { tags: Record<string, string> }
    ).tags;
  return out;
}

/** The fake cloud's tag sweep: removes every machine tagged with the run id; returns their names. */
export async function fakeRemoveByTag(dir: string, runId: string): Promise<string[]> {
  const gone: string[] = [];
  for (const [name, tags] of Object.entries(fakeMachines(dir)))
    if (tags["tiperf:run-id"] === runId) {
      rmSync(join(dir, `${name}.json`), { force: true });
      rmSync(join(dir, `${name}.ready`), { force: true });
      gone.push(name);
    }
  return gone;
}

/**
 * The fake cloud as a cloud of tiperf (action/src/cloud/provider.ts), for a harness that puts it in
 * place of aws (its settings, machine list and prices are aws's): one fake machine per machine of
 * the cluster (the real program's list), all of them
 * this host, reached by SSH on a test sshd's port with the run's key (installed on create, as
 * cloud-init does); ready once the machine's create finished; swept by tag like the real cloud.
 */
export function fakeCloudProvider(o: {
  dir: string;
  sshPort: number;
  authorizedKeys: string;
  /** How long each machine's create takes, by name (default 0). */
  bootMs?: Record<string, number>;
}): CloudProvider {
  return {
    ...AWS_CLOUD,
    async program(p) {
      const names = AWS_CLOUD.machines(p.ask).map((m) => m.name);
      return async () => {
        let previous: FakeMachine | undefined;
        const created: { name: string; machine: FakeMachine }[] = [];
        for (const name of names) {
          previous = new FakeMachine(
            name,
            {
              dir: o.dir,
              name,
              tags: p.tags,
              bootMs: o.bootMs?.[name] ?? 0,
              fail: false,
              authorizedKeys: o.authorizedKeys,
              publicKey: p.publicKey,
            },
            previous ? { dependsOn: [previous] } : {},
          );
          created.push({ name, machine: previous });
        }
        return {
          machines: AWS_CLOUD.machines(p.ask).map((m, i) => ({
            name: m.name,
            role: m.role,
            id: (created[i] as { machine: FakeMachine }).machine.id,
            privateIp: "127.0.0.1",
            publicIp: (created[i] as { machine: FakeMachine }).machine.address,
            sshPort: o.sshPort,
          })),
        };
      };
    },
    removeByTag: (_settings, runId) => fakeRemoveByTag(o.dir, runId),
    env: () => ({}),
    runnerCidr: async () => "127.0.0.1/32",
    ready: (m) => ["test", "-e", join(o.dir, `${m.name}.ready`)],
  };
}
