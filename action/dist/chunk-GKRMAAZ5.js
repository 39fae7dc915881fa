#!/usr/bin/env node
import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path';
const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);
import {
  execKubeconfig,
  installOperator
} from "./chunk-KIMY7Z4I.js";
import "./chunk-3EADY6QU.js";

// infra/pulumi/eks-cluster.ts
import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";
var POLICY = "arn:aws:iam::aws:policy/";
function eksKubeconfig(o) {
  return execKubeconfig({
    context: o.context,
    server: o.endpoint,
    ca: o.ca,
    exec: [
      "command: aws",
      `args: [eks, get-token, --cluster-name, ${o.cluster}, --region, ${o.region}, --output, json]`
    ]
  });
}
var assumeBy = (service) => JSON.stringify({
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Principal: { Service: service }, Action: "sts:AssumeRole" }]
});
function eksClusterProgram(args) {
  return async () => {
    const provider = new aws.Provider("aws", {
      region: args.region,
      defaultTags: { tags: args.tags }
    });
    const opts = { provider };
    const vpc = new aws.ec2.Vpc(
      "vpc",
      { cidrBlock: "10.43.0.0/16", enableDnsHostnames: true, enableDnsSupport: true },
      opts
    );
    const igw = new aws.ec2.InternetGateway("igw", { vpcId: vpc.id }, opts);
    const routes = new aws.ec2.RouteTable(
      "routes",
      { vpcId: vpc.id, routes: [{ cidrBlock: "0.0.0.0/0", gatewayId: igw.id }] },
      opts
    );
    const subnets = /* @__PURE__ */ new Map();
    args.zones.forEach((zone, i) => {
      const subnet = new aws.ec2.Subnet(
        `subnet-${zone}`,
        {
          vpcId: vpc.id,
          cidrBlock: `10.43.${i + 1}.0/24`,
          availabilityZone: zone,
          mapPublicIpOnLaunch: true,
          // where the AWS load balancer controller and the in-tree one put a LoadBalancer Service
          tags: { "kubernetes.io/role/elb": "1" }
        },
        opts
      );
      new aws.ec2.RouteTableAssociation(
        `routes-${zone}`,
        { subnetId: subnet.id, routeTableId: routes.id },
        opts
      );
      subnets.set(zone, subnet);
    });
    const subnetIds = (zones) => zones.map((z) => subnets.get(z).id);
    const clusterRole = new aws.iam.Role(
      "cluster-role",
      { path: args.roles.path, assumeRolePolicy: assumeBy("eks.amazonaws.com"), tags: args.roles.tags },
      opts
    );
    const clusterPolicy = new aws.iam.RolePolicyAttachment(
      "cluster-policy",
      { role: clusterRole.name, policyArn: `${POLICY}AmazonEKSClusterPolicy` },
      opts
    );
    const nodeRole = new aws.iam.Role(
      "node-role",
      { path: args.roles.path, assumeRolePolicy: assumeBy("ec2.amazonaws.com"), tags: args.roles.tags },
      opts
    );
    const nodePolicies = [
      "AmazonEKSWorkerNodePolicy",
      "AmazonEKS_CNI_Policy",
      "AmazonEC2ContainerRegistryReadOnly",
      "service-role/AmazonEBSCSIDriverPolicy"
    ].map(
      (p) => new aws.iam.RolePolicyAttachment(
        `node-${p.split("/").pop()}`,
        { role: nodeRole.name, policyArn: `${POLICY}${p}` },
        opts
      )
    );
    const cluster = new aws.eks.Cluster(
      "cluster",
      {
        name: args.name,
        roleArn: clusterRole.arn,
        ...args.kubernetesVersion ? { version: args.kubernetesVersion } : {},
        vpcConfig: {
          subnetIds: subnetIds(args.zones),
          endpointPublicAccess: true,
          ...args.apiCidr ? { publicAccessCidrs: [args.apiCidr] } : {}
        },
        accessConfig: {
          authenticationMode: "API_AND_CONFIG_MAP",
          bootstrapClusterCreatorAdminPermissions: true
        }
      },
      { provider, dependsOn: [clusterPolicy] }
    );
    const groups = args.pools.map(
      (p) => new aws.eks.NodeGroup(
        p.name,
        {
          clusterName: cluster.name,
          nodeGroupName: p.name,
          nodeRoleArn: nodeRole.arn,
          subnetIds: subnetIds(p.zones),
          instanceTypes: [p.instanceType],
          diskSize: args.diskGb,
          scalingConfig: { desiredSize: p.count, minSize: p.count, maxSize: p.count },
          labels: { "tiperf-pool": p.name }
        },
        { provider, dependsOn: nodePolicies }
      )
    );
    new aws.eks.Addon(
      "aws-ebs-csi-driver",
      { clusterName: cluster.name, addonName: "aws-ebs-csi-driver" },
      { provider, dependsOn: groups }
    );
    const context = pulumi.interpolate`arn:aws:eks:${args.region}:${cluster.arn.apply((a) => a.split(":")[4] ?? "")}:cluster/${cluster.name}`;
    const kubeconfig = pulumi.all([context, cluster.endpoint, cluster.certificateAuthority.data, cluster.name]).apply(
      ([ctx, endpoint, ca, name]) => eksKubeconfig({ context: ctx, endpoint, ca: ca ?? "", cluster: name, region: args.region })
    );
    installOperator({ kubeconfig, operator: args.operator, dependsOn: groups });
    return { kubeconfig: pulumi.secret(kubeconfig), context };
  };
}
export {
  eksClusterProgram,
  eksKubeconfig
};
