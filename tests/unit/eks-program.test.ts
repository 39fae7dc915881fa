// The EKS Pulumi program (infra/pulumi/eks-cluster.ts) under pulumi.runtime.setMocks: no provider
// plugin, no AWS. Checks the network per zone, the IAM roles, a managed node group per role (type,
// fixed size, zones), the EBS CSI add-on, TiDB Operator, the run's tags on every AWS resource, the
// kubeconfig through `aws eks get-token`, the resources equal to what `tiperf plan` lists, prices.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import * as pulumi from "@pulumi/pulumi";
import { AWS_EKS } from "../../action/src/cloud/aws/eks.ts";
import { runTags, tagsOf } from "../../action/src/cloud/tags.ts";
import { kubernetesAsk } from "../../action/src/targets/tidb/deployments/kubernetes/cluster.ts";
import { parseProfile } from "../../action/src/targets/tidb/load-profile.ts";
import { ROOT } from "../helpers/paths.ts";

interface Created {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
  provider?: string;
}

const created: Created[] = [];

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
        const state: Record<string, unknown> = { ...args.inputs };
        if (args.type === "aws:eks/cluster:Cluster") {
          state.arn = `arn:aws:eks:us-west-2:123456789012:cluster/${args.inputs.name}`;
          state.endpoint = "https://ABC.gr7.us-west-2.eks.amazonaws.com";
          state.certificateAuthority = { data: "Q0EtREFUQQ==" };
        }
        if (args.type === "aws:iam/role:Role") state.arn = `arn:aws:iam::123456789012:role/${args.name}`;
        if (args.type === "kubernetes:core/v1:Namespace") state.metadata = args.inputs.metadata;
        return { id: `${args.name}-id`, state };
      },
      call: (args) => args.inputs,
    },
    "tiperf",
    "test",
    false,
  );
});

const outputOf = <T>(o: pulumi.Output<T>): Promise<T> => new Promise((resolve) => o.apply(resolve));
const PROFILE = readFileSync(join(ROOT, "infra/profiles/eks-sysbench-3x3.yaml"), "utf8");

async function up(text = PROFILE) {
  created.length = 0;
  const ask = kubernetesAsk(parseProfile(text, "eks.yaml"));
  const tags = tagsOf(
    runTags(ask.settings, {
      runId: "tiperf-9f3c",
      repository: "acme/tidb-configs",
      pr: "7",
      now: new Date("2026-11-26T23:00:00Z"),
    }),
  );
  const program = await AWS_EKS.program({ ask, labels: AWS_EKS.labels(tags) });
  const outputs = (await program()) as { kubeconfig: pulumi.Output<string>; context: pulumi.Output<string> };
  const kubeconfig = await outputOf(outputs.kubeconfig);
  const context = await outputOf(outputs.context);
  await new Promise((r) => setTimeout(r, 50));
  return { ask, tags, kubeconfig, context, created: [...created] };
}

describe("infra/pulumi/eks-cluster.ts (setMocks)", () => {
  test("a subnet per zone, the cluster on them, a fixed-size node group per role and one for the load tools", async () => {
    const { created } = await up();
    const subnets = created.filter((c) => c.type === "aws:ec2/subnet:Subnet");
    assert.deepEqual(
      subnets.map((s) => s.inputs.availabilityZone),
      ["us-west-2a", "us-west-2b"],
    );
    const cluster = created.find((c) => c.type === "aws:eks/cluster:Cluster") as Created;
    assert.equal(cluster.inputs.name, "tiperf-9f3c");
    assert.equal((cluster.inputs.vpcConfig as { subnetIds: string[] }).subnetIds.length, 2);
    const groups = created.filter((c) => c.type === "aws:eks/nodeGroup:NodeGroup");
    const byName = Object.fromEntries(
      groups.map((g) => [
        g.name,
        [
          (g.inputs.instanceTypes as string[])[0],
          (g.inputs.scalingConfig as { desiredSize: number; minSize: number; maxSize: number }).desiredSize,
          (g.inputs.subnetIds as string[]).length,
        ],
      ]),
    );
    assert.deepEqual(byName, {
      pd: ["m6i.xlarge", 3, 2],
      tikv: ["m6i.4xlarge", 3, 2],
      tidb: ["c6i.4xlarge", 3, 2],
      load: ["c6i.8xlarge", 1, 1],
    });
    for (const g of groups) {
      const s = g.inputs.scalingConfig as { desiredSize: number; minSize: number; maxSize: number };
      assert.equal(s.minSize, s.maxSize, `${g.name}: a fixed size (no scaling mid-run)`);
      assert.equal(g.inputs.nodeGroupName, g.name, "the group's name is the node label pods select");
    }
    const roles = created.filter((c) => c.type === "aws:iam/role:Role");
    assert.deepEqual(
      roles.map((r) => [r.inputs.path, (r.inputs.tags as Record<string, string>)["tiperf:region"]]),
      [
        ["/tiperf/", "us-west-2"],
        ["/tiperf/", "us-west-2"],
      ],
      "both roles under the path the reaper lists, with the run's region (IAM is global)",
    );
    const policies = created
      .filter((c) => c.type === "aws:iam/rolePolicyAttachment:RolePolicyAttachment")
      .map((c) => String(c.inputs.policyArn).split("/").pop());
    assert.deepEqual(policies.sort(), [
      "AmazonEBSCSIDriverPolicy",
      "AmazonEC2ContainerRegistryReadOnly",
      "AmazonEKSClusterPolicy",
      "AmazonEKSWorkerNodePolicy",
      "AmazonEKS_CNI_Policy",
    ]);
    assert.ok(
      created.some((c) => c.type === "aws:eks/addon:Addon" && c.inputs.addonName === "aws-ebs-csi-driver"),
    );
    const release = created.find((c) => c.type === "kubernetes:helm.sh/v3:Release") as Created;
    assert.equal(release.inputs.version, "v1.6.5");
  });

  test("the run's tags on every AWS resource; the kubeconfig authenticates through aws eks get-token", async () => {
    const { created, tags, kubeconfig, context } = await up();
    const provider = created.find((c) => c.type === "pulumi:providers:aws") as Created;
    assert.deepEqual(JSON.parse(String(provider.inputs.defaultTags)).tags, tags);
    for (const c of created.filter((x) => x.type.startsWith("aws:")))
      assert.match(c.provider ?? "", /::pulumi:providers:aws::aws::/, `${c.name} uses the tagging provider`);
    assert.equal(context, "arn:aws:eks:us-west-2:123456789012:cluster/tiperf-9f3c");
    assert.match(kubeconfig, /server: https:\/\/ABC\.gr7\.us-west-2\.eks\.amazonaws\.com\n/);
    assert.match(
      kubeconfig,
      /command: aws\n {6}args: \[eks, get-token, --cluster-name, tiperf-9f3c, --region, us-west-2, --output, json\]/,
    );
  });

  test("the resources are the ones tiperf plan lists, in kind and number; prices from the aws table with EKS's fee", async () => {
    const { ask, created } = await up();
    const want = new Map<string, number>();
    for (const r of AWS_EKS.resources(ask)) want.set(r.type, (want.get(r.type) ?? 0) + r.count);
    const got = new Map<string, number>();
    for (const c of created)
      if (!c.type.startsWith("pulumi:providers:")) got.set(c.type, (got.get(c.type) ?? 0) + 1);
    assert.deepEqual(Object.fromEntries(got), Object.fromEntries(want));
    const lines = Object.fromEntries(AWS_EKS.prices(ask).lines.map((l) => [l.what, [l.count, l.perHour]]));
    assert.deepEqual(lines["m6i.4xlarge"], [3, 0.768]);
    assert.deepEqual(lines["c6i.8xlarge"], [1, 1.36]);
    assert.equal(lines["gp3 GB"]?.[0], 10 * 100 + 3 * 10 + 3 * 200, "root volumes and the claimed volumes");
    assert.deepEqual(lines["EKS cluster"], [1, 0.1]);
  });

  test("one zone is refused (EKS asks for two), naming the key", () => {
    assert.throws(
      () =>
        parseProfile(PROFILE.replace("zones: [us-west-2a, us-west-2b]", "zones: [us-west-2a]"), "eks.yaml"),
      /eks\.zones: EKS needs subnets in two zones at least/,
    );
  });
});
