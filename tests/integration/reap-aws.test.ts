// test-lane: parallel (nothing asserted here rests on measured speed: scripts/run-tests.mjs)
// `tiperf reap --cloud aws` against real EC2, EKS and IAM APIs on 127.0.0.1 (moto's server):
// resources of an expired run, of an unexpired run and untagged ones (each with an EKS cluster, its
// node group and IAM roles); only the expired run's go, in dependency order — the node group before
// its cluster, both before the instances, the IAM roles last — and of the (global) IAM roles only
// this region's.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  AssociateRouteTableCommand,
  AttachInternetGatewayCommand,
  CreateInternetGatewayCommand,
  CreateRouteTableCommand,
  CreateSecurityGroupCommand,
  CreateSubnetCommand,
  CreateVolumeCommand,
  CreateVpcCommand,
  DescribeImagesCommand,
  DescribeInstancesCommand,
  EC2Client,
  ImportKeyPairCommand,
  type ResourceType,
  RunInstancesCommand,
} from "@aws-sdk/client-ec2";
import {
  CreateClusterCommand,
  CreateNodegroupCommand,
  EKSClient,
  ListClustersCommand,
} from "@aws-sdk/client-eks";
import {
  AddRoleToInstanceProfileCommand,
  AttachRolePolicyCommand,
  CreateInstanceProfileCommand,
  CreatePolicyCommand,
  CreateRoleCommand,
  IAMClient,
  ListRolesCommand,
  PutRolePolicyCommand,
} from "@aws-sdk/client-iam";
import { AWS_RESOURCES, client, findTagged } from "../../action/src/cloud/aws/found.ts";
import { type AwsReapReport, reapAws } from "../../action/src/cloud/aws/leftovers.ts";
import { generateRunKey } from "../../action/src/cloud/keys.ts";
import { FakeGitHub } from "../helpers/github-server.ts";
import { type Moto, startMoto } from "../helpers/moto.ts";
import { cli, tempDir } from "../helpers/real.ts";

const REGION = "us-west-2";
const NOW = new Date();
const hours = (h: number) => new Date(NOW.getTime() + h * 3_600_000).toISOString().replace(/\.\d{3}Z$/, "Z");
// moto takes any credentials; the SDK wants some
const CREDS = { AWS_ACCESS_KEY_ID: "testing", AWS_SECRET_ACCESS_KEY: "testing", AWS_REGION: REGION };
Object.assign(process.env, CREDS);

let moto: Moto;
let ec2: EC2Client;
/** What each group created: kind → ids. */
const made: Record<string, Record<string, string[]>> = {};

/** A run's worth of resources (VPC, subnet, IGW, route table, SG, key pair, instance, volume). */
async function createRun(group: string, tags: Record<string, string> | undefined, ami: string) {
  const spec = (type: ResourceType) =>
    tags
      ? [
          {
            ResourceType: type,
            Tags: Object.entries({ ...tags, Name: `${group}` }).map(([Key, Value]) => ({ Key, Value })),
          },
        ]
      : undefined;
  const ids: Record<string, string[]> = {};
  const add = (kind: string, id: string | undefined) => {
    ids[kind] = [...(ids[kind] ?? []), id as string];
  };
  const vpc = (
    await ec2.send(new CreateVpcCommand({ CidrBlock: "10.42.0.0/16", TagSpecifications: spec("vpc") }))
  ).Vpc?.VpcId as string;
  add("vpc", vpc);
  const subnet = (
    await ec2.send(
      new CreateSubnetCommand({ VpcId: vpc, CidrBlock: "10.42.1.0/24", TagSpecifications: spec("subnet") }),
    )
  ).Subnet?.SubnetId as string;
  add("subnet", subnet);
  const igw = (
    await ec2.send(new CreateInternetGatewayCommand({ TagSpecifications: spec("internet-gateway") }))
  ).InternetGateway?.InternetGatewayId as string;
  await ec2.send(new AttachInternetGatewayCommand({ InternetGatewayId: igw, VpcId: vpc }));
  add("internet-gateway", igw);
  const rt = (
    await ec2.send(new CreateRouteTableCommand({ VpcId: vpc, TagSpecifications: spec("route-table") }))
  ).RouteTable?.RouteTableId as string;
  await ec2.send(new AssociateRouteTableCommand({ RouteTableId: rt, SubnetId: subnet }));
  add("route-table", rt);
  const sg = (
    await ec2.send(
      new CreateSecurityGroupCommand({
        GroupName: `tiperf-${group}`,
        Description: "test",
        VpcId: vpc,
        TagSpecifications: spec("security-group"),
      }),
    )
  ).GroupId as string;
  add("security-group", sg);
  const key = await ec2.send(
    new ImportKeyPairCommand({
      KeyName: `tiperf-${group}`,
      PublicKeyMaterial: Buffer.from(generateRunKey(group).publicKey),
      TagSpecifications: spec("key-pair"),
    }),
  );
  add("key-pair", key.KeyPairId);
  const run = await ec2.send(
    new RunInstancesCommand({
      ImageId: ami,
      InstanceType: "t3.medium",
      MinCount: 1,
      MaxCount: 1,
      SubnetId: subnet,
      SecurityGroupIds: [sg],
      KeyName: `tiperf-${group}`,
      TagSpecifications: tags ? [...(spec("instance") ?? []), ...(spec("volume") ?? [])] : undefined,
    }),
  );
  add("instance", run.Instances?.[0]?.InstanceId);
  const vol = await ec2.send(
    new CreateVolumeCommand({
      AvailabilityZone: `${REGION}a`,
      Size: 10,
      VolumeType: "gp3",
      TagSpecifications: spec("volume"),
    }),
  );
  add("volume", vol.VolumeId);
  // an EKS cluster of the run and its node group (the node group carries the run's tags as EKS does)
  const eks = new EKSClient({ region: REGION, endpoint: moto.endpoint });
  const cluster = `tiperf-${group}`;
  await eks.send(
    new CreateClusterCommand({
      name: cluster,
      roleArn: "arn:aws:iam::123456789012:role/tiperf-cluster-role",
      resourcesVpcConfig: { subnetIds: [subnet] },
      ...(tags ? { tags } : {}),
    }),
  );
  add("eks-cluster", cluster);
  await eks.send(
    new CreateNodegroupCommand({
      clusterName: cluster,
      nodegroupName: `tikv-${group}`,
      subnets: [subnet],
      nodeRole: "arn:aws:iam::123456789012:role/tiperf-node-role",
      ...(tags ? { tags } : {}),
    }),
  );
  add("eks-nodegroup", `tikv-${group}`);
  eks.destroy();
  // its IAM roles as the EKS program makes them (under /tiperf/, the run's tags and region), with a
  // managed and an inline policy and an instance profile (a role goes only once they are off it)
  const iam = new IAMClient({ region: REGION, endpoint: moto.endpoint });
  try {
    const role = `node-role-${group}`;
    const roleTags = tags ? { ...tags, "tiperf:region": REGION } : undefined;
    await createRole(iam, role, roleTags);
    const policy = await iam.send(
      new CreatePolicyCommand({ PolicyName: `nodes-${group}`, PolicyDocument: ALLOW_DESCRIBE }),
    );
    await iam.send(new AttachRolePolicyCommand({ RoleName: role, PolicyArn: policy.Policy?.Arn }));
    await iam.send(
      new PutRolePolicyCommand({ RoleName: role, PolicyName: "inline", PolicyDocument: ALLOW_DESCRIBE }),
    );
    await iam.send(new CreateInstanceProfileCommand({ InstanceProfileName: `nodes-${group}` }));
    await iam.send(
      new AddRoleToInstanceProfileCommand({ InstanceProfileName: `nodes-${group}`, RoleName: role }),
    );
    add("iam-role", role);
  } finally {
    iam.destroy();
  }
  made[group] = ids;
}

const ALLOW_DESCRIBE = JSON.stringify({
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Action: "ec2:Describe*", Resource: "*" }],
});

async function createRole(iam: IAMClient, name: string, tags: Record<string, string> | undefined) {
  await iam.send(
    new CreateRoleCommand({
      RoleName: name,
      Path: "/tiperf/",
      AssumeRolePolicyDocument: JSON.stringify({
        Version: "2012-10-17",
        Statement: [
          { Effect: "Allow", Principal: { Service: "ec2.amazonaws.com" }, Action: "sts:AssumeRole" },
        ],
      }),
      ...(tags ? { Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })) } : {}),
    }),
  );
}

/** Every IAM role moto has, on any path, tagged or not. */
async function roles(): Promise<Set<string>> {
  const iam = new IAMClient({ region: REGION, endpoint: moto.endpoint });
  try {
    return new Set(((await iam.send(new ListRolesCommand({}))).Roles ?? []).map((r) => r.RoleName as string));
  } finally {
    iam.destroy();
  }
}

/** The EKS clusters moto still has, tagged or not. */
async function eksClusters(): Promise<Set<string>> {
  const eks = new EKSClient({ region: REGION, endpoint: moto.endpoint });
  try {
    return new Set((await eks.send(new ListClustersCommand({}))).clusters ?? []);
  } finally {
    eks.destroy();
  }
}

async function liveInstances(): Promise<Set<string>> {
  const r = await ec2.send(new DescribeInstancesCommand({}));
  return new Set(
    (r.Reservations ?? [])
      .flatMap((x) => x.Instances ?? [])
      .filter((i) => i.State?.Name !== "terminated")
      .map((i) => i.InstanceId as string),
  );
}

/** Every resource id moto still has, tagged or not (the reaper's view plus the untagged). */
async function everything(): Promise<Set<string>> {
  const ids = new Set<string>();
  const clients = client({ region: REGION, endpoint: moto.endpoint });
  try {
    for (const f of await findTagged(clients, NOW)) ids.add(f.id);
  } finally {
    clients.destroy();
  }
  for (const id of await liveInstances()) ids.add(id);
  for (const id of await eksClusters()) ids.add(id);
  for (const id of await roles()) ids.add(id);
  return ids;
}

describe("tiperf reap --cloud aws against moto's EC2 API", () => {
  before(async () => {
    moto = await startMoto();
    ec2 = new EC2Client({ region: REGION, endpoint: moto.endpoint });
    const images = await ec2.send(new DescribeImagesCommand({ Owners: ["amazon"] }));
    const ami = images.Images?.[0]?.ImageId as string;
    const base = { "tiperf:repository": "acme/tidb-configs", "tiperf:pr": "42" };
    await createRun("expired", { ...base, "tiperf:run-id": "run-old", "tiperf:expires-at": hours(-1) }, ami);
    await createRun("unexpired", { ...base, "tiperf:run-id": "run-new", "tiperf:expires-at": hours(2) }, ami);
    await createRun("untagged", undefined, ami);
    // an expired run of another region: IAM is global, its role is that region's reap's
    const iam = new IAMClient({ region: REGION, endpoint: moto.endpoint });
    await createRole(iam, "node-role-elsewhere", {
      ...base,
      "tiperf:run-id": "run-east",
      "tiperf:expires-at": hours(-1),
      "tiperf:region": "us-east-1",
    });
    iam.destroy();
  });
  after(async () => {
    ec2?.destroy();
    await moto?.stop();
  });

  test("--dry-run lists the expired run's resources and deletes nothing", async () => {
    const lines: string[] = [];
    const before = await everything();
    const report = await reapAws({
      region: REGION,
      endpoint: moto.endpoint,
      dryRun: true,
      log: (l) => lines.push(l),
    });
    const expiredIds = Object.values(made.expired ?? {}).flat();
    const listed = new Set(report.removed.map((f) => f.id));
    for (const id of expiredIds) assert.ok(listed.has(id), `${id} listed`);
    // and nothing of another run: the instance's root volume carries the run's tags too
    for (const f of report.removed) assert.equal(f.runId, "run-old");
    assert.ok(
      lines.every((l) => l.startsWith("reap: would remove")),
      lines.join("\n"),
    );
    assert.deepEqual(await everything(), before, "nothing deleted");
  });

  test("removes every expired resource in dependency order; unexpired and untagged ones stay", async () => {
    const lines: string[] = [];
    const report = await reapAws({
      region: REGION,
      endpoint: moto.endpoint,
      dryRun: false,
      log: (l) => lines.push(l),
      waitMs: 30_000,
    });
    assert.deepEqual(report.failed, [], lines.join("\n"));
    const expected = made.expired as Record<string, string[]>;
    const order = report.removed.map((f) => AWS_RESOURCES.indexOf(f.resource));
    assert.deepEqual(
      order,
      [...order].sort((x, y) => x - y),
      "deleted kind by kind in dependency order",
    );
    // the node group first (its Auto Scaling group would start any instance terminated under it
    // again), then its cluster, then the machines and the network
    assert.deepEqual(
      report.removed.slice(0, 3).map((f) => [f.resource, f.id]),
      [
        ["eks-nodegroup", "tikv-expired"],
        ["eks-cluster", "tiperf-expired"],
        ["instance", made.expired?.instance?.[0]],
      ],
    );
    assert.deepEqual(
      report.removed.slice(-2).map((f) => [f.resource, f.id]),
      [
        ["vpc", made.expired?.vpc?.[0]],
        ["iam-role", "node-role-expired"],
      ],
      "the roles last, once the cluster that used them is gone",
    );
    const leftRoles = await roles();
    assert.ok(!leftRoles.has("node-role-expired"), "the expired run's role is gone, its policies detached");
    for (const kept of ["node-role-unexpired", "node-role-untagged", "node-role-elsewhere"])
      assert.ok(leftRoles.has(kept), `${kept} stays (${[...leftRoles].join(", ")})`);
    const clusters = await eksClusters();
    assert.ok(!clusters.has("tiperf-expired"), "the expired run's EKS cluster is gone");
    assert.ok(clusters.has("tiperf-unexpired") && clusters.has("tiperf-untagged"), [...clusters].join(", "));
    for (const [kind, ids] of Object.entries(expected))
      for (const id of ids)
        assert.ok(
          report.removed.some((f) => f.id === id),
          `${kind} ${id} removed`,
        );
    const left = await everything();
    for (const id of Object.values(expected).flat()) assert.ok(!left.has(id), `${id} is gone`);
    for (const [kind, ids] of Object.entries(made.unexpired ?? {}))
      for (const id of ids) assert.ok(left.has(id), `unexpired ${kind} ${id} untouched`);
    const live = await liveInstances();
    assert.ok(live.has(made.unexpired?.instance?.[0] as string), "the unexpired run's instance runs");
    assert.ok(live.has(made.untagged?.instance?.[0] as string), "the untagged instance runs");
    assert.ok(!live.has(made.expired?.instance?.[0] as string), "the expired run's instance is terminated");
    for (const f of report.kept) assert.equal(f.runId, "run-new", "only the unexpired run is kept");
    assert.ok(
      report.kept.length >= 8,
      `the unexpired run's resources are listed as kept (${report.kept.length})`,
    );
  });

  test("a second reap finds nothing expired: deleting is idempotent", async () => {
    const report = await reapAws({ region: REGION, endpoint: moto.endpoint, dryRun: false, log: () => {} });
    assert.deepEqual(report.removed, []);
    assert.deepEqual(report.failed, []);
  });

  test("the CLI: tiperf reap --cloud aws --region R --endpoint URL --json FILE", async () => {
    const dir = tempDir();
    const json = join(dir, "reap.json");
    const run = cli(
      [
        "reap",
        "--cloud",
        "aws",
        "--region",
        REGION,
        "--endpoint",
        moto.endpoint,
        "--dry-run",
        "--json",
        json,
      ],
      CREDS,
    );
    const { code } = await run.done;
    assert.equal(code, 0, run.stderr());
    assert.match(run.stdout(), /would remove 0, kept \d+ \(not expired\), failed 0, overdue 0/);
    const report = JSON.parse(readFileSync(json, "utf8")) as AwsReapReport;
    assert.ok(report.kept.every((f) => f.runId === "run-new"));
    const bad = cli(["reap", "--cloud", "aws"], CREDS);
    assert.equal((await bad.done).code, 2);
    assert.match(bad.stderr(), /--cloud aws needs --region, a region of aws like us-west-2/);
  });

  test("overdue (alive past twice the ttl) goes to tiperf alarm as one issue; nothing overdue, no issue", async () => {
    const dir = tempDir();
    // ten hours on, the unexpired run (created now, expiring in 2 h: ttl 2 h) is 6 h past its expiry
    const later = await reapAws({
      region: REGION,
      endpoint: moto.endpoint,
      dryRun: true,
      now: new Date(NOW.getTime() + 10 * 3_600_000),
      log: () => {},
    });
    assert.ok(later.overdue.length >= 3, "its instance, volumes and key pair know when they were created");
    for (const f of later.overdue) assert.equal(f.runId, "run-new");
    const overdueFile = join(dir, "overdue.json");
    writeFileSync(overdueFile, JSON.stringify(later));
    const gh = await new FakeGitHub().start();
    try {
      const env = { ...CREDS, GITHUB_TOKEN: "ghs_test", GITHUB_API_URL: gh.url };
      const a = cli(["alarm", overdueFile, "--repo", "acme/tidb-configs"], env);
      assert.equal((await a.done).code, 0, a.stderr());
      assert.match(a.stdout(), /^created \d+/);
      assert.equal(gh.issues.length, 1);
      assert.equal(gh.issues[0]?.labels[0]?.name, "tiperf-leftovers");
      assert.match(
        gh.issues[0]?.title ?? "",
        /^tiperf: \d+ cloud resources alive past twice their ttl in us-west-2$/,
      );
      assert.match(gh.issues[0]?.body ?? "", /\| instance \| `i-[0-9a-f]+` \| run-new \|/);
      // now: nothing overdue, so no issue is opened or touched
      const nowFile = join(dir, "now.json");
      writeFileSync(
        nowFile,
        JSON.stringify(
          await reapAws({ region: REGION, endpoint: moto.endpoint, dryRun: true, log: () => {} }),
        ),
      );
      const b = cli(["alarm", nowFile, "--repo", "acme/tidb-configs"], env);
      assert.equal((await b.done).code, 0, b.stderr());
      assert.match(b.stdout(), /nothing overdue: no issue/);
      assert.equal(gh.issues.length, 1);
    } finally {
      await gh.stop();
    }
  });
});
