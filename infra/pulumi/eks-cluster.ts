// The Pulumi program of an ephemeral EKS cluster for TiDB Operator (an inline program of the
// Automation API; tiperf's eks cloud, in the aws folder, drives it through infra/index.ts). It
// creates exactly what that cloud's `resourcesOf` lists: a VPC with a public subnet per zone (EKS
// asks for two zones at least), the cluster's and the nodes' IAM roles, the cluster, a managed node
// group per role and one for the load tools (nodes labelled by the group's name, a fixed size), the
// EBS CSI driver add-on (PersistentVolumes on EBS), TiDB Operator's CRDs and chart; every AWS
// resource tagged with the run (the provider's default tags). Its outputs: the kubeconfig
// (credentials through `aws eks get-token`, as `aws eks update-kubeconfig` writes them) and its context.
import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";
import { execKubeconfig, installOperator } from "./tidb-operator.ts";

export interface EksPool {
  name: string;
  count: number;
  instanceType: string;
  /** Its subnets: every zone's, or the first zone's only (the load tools' node). */
  zones: string[];
}

export interface EksClusterArgs {
  region: string;
  zones: string[];
  /** The cluster's name (a run's: tiperf-<run id>). */
  name: string;
  kubernetesVersion?: string;
  pools: EksPool[];
  diskGb: number;
  apiCidr?: string;
  operator: { version: string; chartRepo: string };
  /** The cluster's and the nodes' IAM roles: their path (where the reaper lists them) and tags
   *  besides the run's (IAM is global: the run's region). */
  roles: { path: string; tags: Record<string, string> };
  /** tiperf:run-id, tiperf:expires-at, tiperf:repository, tiperf:pr. */
  tags: Record<string, string>;
}

const POLICY = "arn:aws:iam::aws:policy/";

/** The kubeconfig of an EKS cluster, authenticating through `aws eks get-token`. */
export function eksKubeconfig(o: {
  context: string;
  endpoint: string;
  ca: string;
  cluster: string;
  region: string;
}): string {
  return execKubeconfig({
    context: o.context,
    server: o.endpoint,
    ca: o.ca,
    exec: [
      "command: aws",
      `args: [eks, get-token, --cluster-name, ${o.cluster}, --region, ${o.region}, --output, json]`,
    ],
  });
}

const assumeBy = (service: string) =>
  JSON.stringify({
    Version: "2012-10-17",
    Statement: [{ Effect: "Allow", Principal: { Service: service }, Action: "sts:AssumeRole" }],
  });

export function eksClusterProgram(args: EksClusterArgs): () => Promise<Record<string, unknown>> {
  return async () => {
    const provider = new aws.Provider("aws", {
      region: args.region as aws.Region,
      defaultTags: { tags: args.tags },
    });
    const opts = { provider };
    const vpc = new aws.ec2.Vpc(
      "vpc",
      { cidrBlock: "10.43.0.0/16", enableDnsHostnames: true, enableDnsSupport: true },
      opts,
    );
    const igw = new aws.ec2.InternetGateway("igw", { vpcId: vpc.id }, opts);
    const routes = new aws.ec2.RouteTable(
      "routes",
      { vpcId: vpc.id, routes: [{ cidrBlock: "0.0.0.0/0", gatewayId: igw.id }] },
      opts,
    );
    const subnets = new Map<string, aws.ec2.Subnet>();
    args.zones.forEach((zone, i) => {
      const subnet = new aws.ec2.Subnet(
        `subnet-${zone}`,
        {
          vpcId: vpc.id,
          cidrBlock: `10.43.${i + 1}.0/24`,
          availabilityZone: zone,
          mapPublicIpOnLaunch: true,
          // where the AWS load balancer controller and the in-tree one put a LoadBalancer Service
          tags: { "kubernetes.io/role/elb": "1" },
        },
        opts,
      );
      new aws.ec2.RouteTableAssociation(
        `routes-${zone}`,
        { subnetId: subnet.id, routeTableId: routes.id },
        opts,
      );
      subnets.set(zone, subnet);
    });
    const subnetIds = (zones: string[]) => zones.map((z) => (subnets.get(z) as aws.ec2.Subnet).id);
    const clusterRole = new aws.iam.Role(
      "cluster-role",
      { path: args.roles.path, assumeRolePolicy: assumeBy("eks.amazonaws.com"), tags: args.roles.tags },
      opts,
    );
    const clusterPolicy = new aws.iam.RolePolicyAttachment(
      "cluster-policy",
      { role: clusterRole.name, policyArn: `${POLICY}AmazonEKSClusterPolicy` },
      opts,
    );
    const nodeRole = new aws.iam.Role(
      "node-role",
      { path: args.roles.path, assumeRolePolicy: assumeBy("ec2.amazonaws.com"), tags: args.roles.tags },
      opts,
    );
    const nodePolicies = [
      "AmazonEKSWorkerNodePolicy",
      "AmazonEKS_CNI_Policy",
      "AmazonEC2ContainerRegistryReadOnly",
      "service-role/AmazonEBSCSIDriverPolicy",
    ].map(
      (p) =>
        new aws.iam.RolePolicyAttachment(
          `node-${p.split("/").pop()}`,
          { role: nodeRole.name, policyArn: `${POLICY}${p}` },
          opts,
        ),
    );
    const cluster = new aws.eks.Cluster(
      "cluster",
      {
        name: args.name,
        roleArn: clusterRole.arn,
        ...(args.kubernetesVersion ? { version: args.kubernetesVersion } : {}),
        vpcConfig: {
          subnetIds: subnetIds(args.zones),
          endpointPublicAccess: true,
          ...(args.apiCidr ? { publicAccessCidrs: [args.apiCidr] } : {}),
        },
        accessConfig: {
          authenticationMode: "API_AND_CONFIG_MAP",
          bootstrapClusterCreatorAdminPermissions: true,
        },
      },
      { provider, dependsOn: [clusterPolicy] },
    );
    const groups = args.pools.map(
      (p) =>
        new aws.eks.NodeGroup(
          p.name,
          {
            clusterName: cluster.name,
            nodeGroupName: p.name,
            nodeRoleArn: nodeRole.arn,
            subnetIds: subnetIds(p.zones),
            instanceTypes: [p.instanceType],
            diskSize: args.diskGb,
            scalingConfig: { desiredSize: p.count, minSize: p.count, maxSize: p.count },
            labels: { "tiperf-pool": p.name },
          },
          { provider, dependsOn: nodePolicies },
        ),
    );
    new aws.eks.Addon(
      "aws-ebs-csi-driver",
      { clusterName: cluster.name, addonName: "aws-ebs-csi-driver" },
      { provider, dependsOn: groups },
    );
    const context = pulumi.interpolate`arn:aws:eks:${args.region}:${cluster.arn.apply((a) => a.split(":")[4] ?? "")}:cluster/${cluster.name}`;
    const kubeconfig = pulumi
      .all([context, cluster.endpoint, cluster.certificateAuthority.data, cluster.name])
      .apply(([ctx, endpoint, ca, name]) =>
        eksKubeconfig({ context: ctx, endpoint, ca: ca ?? "", cluster: name, region: args.region }),
      );
    installOperator({ kubeconfig, operator: args.operator, dependsOn: groups });
    return { kubeconfig: pulumi.secret(kubeconfig), context };
  };
}
