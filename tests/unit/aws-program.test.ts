// The AWS Pulumi program under pulumi.runtime.setMocks: no provider plugin, no cloud. Checks the
// resources per role, instance types, the security group's sources, tags on every resource and
// the outputs that become the cluster's hosts.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import * as pulumi from "@pulumi/pulumi";
import { programArgs } from "../../action/src/cloud/aws/index.ts";
import { resourcesOf } from "../../action/src/cloud/aws/resources.ts";
import { runTags, tagsOf } from "../../action/src/cloud/tags.ts";
import { askOf } from "../../action/src/targets/tidb/cloud.ts";
import { parseProfile } from "../../action/src/targets/tidb/load-profile.ts";
import { awsClusterProgram, type ClusterOutputs } from "../../infra/pulumi/aws-cluster.ts";
import { ROOT } from "../helpers/paths.ts";

interface Created {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
  provider?: string;
}

const created: Created[] = [];
const calls: { token: string; inputs: Record<string, unknown> }[] = [];
let ip = 10;

before(() => {
  pulumi.runtime.setMocks(
    {
      newResource(args) {
        created.push({
          type: args.type,
          name: args.name,
          inputs: args.inputs,
          ...(args.provider ? { provider: args.provider } : {}),
        });
        const n = ip++;
        const state: Record<string, unknown> = { ...args.inputs };
        if (args.type === "aws:ec2/instance:Instance") {
          state.privateIp = `10.42.1.${n}`;
          state.publicIp = `203.0.113.${n}`;
        }
        if (args.type === "aws:ec2/keyPair:KeyPair") state.keyName = `key-${n}`;
        return { id: `${args.name}-id`, state };
      },
      call(args) {
        calls.push({ token: args.token, inputs: args.inputs });
        if (args.token === "aws:ec2/getAmi:getAmi") return { id: "ami-0123456789abcdef0", ...args.inputs };
        return args.inputs;
      },
    },
    "tiperf",
    "test",
    false,
  );
});

const outputOf = <T>(o: pulumi.Output<T>): Promise<T> => new Promise((resolve) => o.apply(resolve));

async function up(profileFile: string) {
  created.length = 0;
  calls.length = 0;
  const profile = parseProfile(readFileSync(join(ROOT, profileFile), "utf8"), profileFile);
  const ask = askOf(profile);
  const tags = tagsOf(
    runTags(ask.settings, {
      runId: "20261122-170000-abcd",
      repository: "acme/tidb-configs",
      pr: "42",
      now: new Date("2026-11-22T17:00:00Z"),
    }),
  );
  const program = awsClusterProgram(
    programArgs({
      ask,
      tags,
      sshCidr: "198.51.100.7/32",
      publicKey: "ssh-rsa AAAAB3NzaC1yc2E tiperf-test",
    }),
  );
  const outputs = (await program()) as { machines: pulumi.Output<ClusterOutputs["machines"]> };
  const machines = await outputOf(outputs.machines);
  // let every registration reach the mocks
  await new Promise((r) => setTimeout(r, 50));
  return { profile, ask, tags, machines, created: [...created] };
}

describe("infra/pulumi/aws-cluster.ts (setMocks)", () => {
  test("aws-sysbench-3x3: one machine per instance with the role's type, plus the load host", async () => {
    const { created } = await up("infra/profiles/aws-sysbench-3x3.yaml");
    const instances = created.filter((c) => c.type === "aws:ec2/instance:Instance");
    const byName = Object.fromEntries(instances.map((c) => [c.name, c.inputs.instanceType]));
    assert.deepEqual(byName, {
      "pd-1": "m6i.xlarge",
      "pd-2": "m6i.xlarge",
      "pd-3": "m6i.xlarge",
      "tikv-1": "m6id.4xlarge",
      "tikv-2": "m6id.4xlarge",
      "tikv-3": "m6id.4xlarge",
      "tidb-1": "c6i.4xlarge",
      "tidb-2": "c6i.4xlarge",
      "tidb-3": "c6i.4xlarge",
      "load-1": "c6i.8xlarge",
    });
    for (const i of instances) {
      assert.equal(i.inputs.ami, "ami-0123456789abcdef0", `${i.name} boots the looked-up AMI`);
      assert.equal(i.inputs.instanceMarketOptions, undefined, `${i.name} is on-demand`);
      assert.match(String(i.inputs.userData), /vm\.swappiness = 0/);
      assert.match(String(i.inputs.userData), /net\.core\.somaxconn = 32768/);
      assert.match(String(i.inputs.userData), /numactl/);
    }
    const tikv = instances.find((i) => i.name === "tikv-1") as Created;
    assert.match(String(tikv.inputs.userData), /nodelalloc,noatime/, "TiKV's data disk mount options");
    const ami = calls.find((c) => c.token === "aws:ec2/getAmi:getAmi");
    assert.deepEqual(ami?.inputs.owners, ["099720109477"]);
  });

  test("the resources are the ones tiperf plan lists, in kind and number", async () => {
    const { ask, created } = await up("infra/profiles/aws-sysbench-3x3.yaml");
    const want = new Map<string, number>();
    for (const r of resourcesOf(ask)) want.set(r.type, (want.get(r.type) ?? 0) + r.count);
    const got = new Map<string, number>();
    for (const c of created)
      if (c.type !== "pulumi:providers:aws") got.set(c.type, (got.get(c.type) ?? 0) + 1);
    assert.deepEqual(Object.fromEntries(got), Object.fromEntries(want));
  });

  test("the security group admits SSH only from the runner's CIDR, everything else only from itself", async () => {
    const { created } = await up("infra/profiles/aws-sysbench-3x3.yaml");
    const group = created.find((c) => c.type === "aws:ec2/securityGroup:SecurityGroup") as Created;
    const ingress = group.inputs.ingress as Record<string, unknown>[];
    assert.equal(ingress.length, 2);
    for (const rule of ingress) {
      if (rule.self) {
        assert.equal(rule.cidrBlocks, undefined, "cluster traffic: the group only, no CIDR");
        continue;
      }
      assert.deepEqual(rule.cidrBlocks, ["198.51.100.7/32"]);
      assert.equal(rule.protocol, "tcp");
      assert.equal(rule.fromPort, 22);
      assert.equal(rule.toPort, 22);
    }
    assert.equal(ingress.filter((r) => r.self).length, 1);
  });

  test("every resource carries the run's tags (the provider's default tags; volume tags on instances)", async () => {
    const { created, tags } = await up("infra/profiles/aws-sysbench-3x3.yaml");
    assert.equal(tags["tiperf:expires-at"], "2026-11-22T20:00:00Z", "now + ttl 3h");
    const providers = created.filter((c) => c.type === "pulumi:providers:aws");
    assert.equal(providers.length, 1, "one provider");
    const defaultTags = JSON.parse(String((providers[0] as Created).inputs.defaultTags)) as {
      tags: Record<string, string>;
    };
    assert.deepEqual(defaultTags.tags, tags);
    // every resource is created through that provider: none falls back to the default provider
    for (const c of created.filter((x) => x.type !== "pulumi:providers:aws"))
      assert.match(c.provider ?? "", /::pulumi:providers:aws::aws::/, `${c.name} uses the tagging provider`);
    for (const i of created.filter((c) => c.type === "aws:ec2/instance:Instance")) {
      const volumeTags = i.inputs.volumeTags as Record<string, string>;
      for (const [k, v] of Object.entries(tags)) assert.equal(volumeTags[k], v, `${i.name} volume tag ${k}`);
    }
  });

  test("outputs: each machine's role and addresses, which become the hosts of the cluster", async () => {
    const { machines } = await up("infra/profiles/aws-smoke.yaml");
    assert.deepEqual(
      machines.map((m) => [m.name, m.role]),
      [
        ["pd-1", "pd"],
        ["tikv-1", "tikv"],
        ["tidb-1", "tidb"],
        ["load-1", "load"],
      ],
    );
    for (const m of machines) {
      assert.match(m.privateIp, /^10\.42\.1\.\d+$/);
      assert.match(m.publicIp, /^203\.0\.113\.\d+$/);
    }
  });

  test("aws-smoke asks for spot instances", async () => {
    const { created } = await up("infra/profiles/aws-smoke.yaml");
    for (const i of created.filter((c) => c.type === "aws:ec2/instance:Instance"))
      assert.equal((i.inputs.instanceMarketOptions as { marketType: string }).marketType, "spot");
  });
});
