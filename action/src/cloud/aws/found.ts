// What tiperf left in an AWS region: everything tagged tiperf:run-id, each with its resource type (in the
// order deleting them takes), its run, expiry and whether it is overdue; and the region's API clients.

import {
  DescribeInstancesCommand,
  DescribeInternetGatewaysCommand,
  DescribeKeyPairsCommand,
  DescribeRouteTablesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSpotInstanceRequestsCommand,
  DescribeSubnetsCommand,
  DescribeVolumesCommand,
  DescribeVpcsCommand,
  EC2Client,
  type Tag,
} from "@aws-sdk/client-ec2";
import {
  DescribeClusterCommand,
  DescribeNodegroupCommand,
  EKSClient,
  ListClustersCommand,
  ListNodegroupsCommand,
} from "@aws-sdk/client-eks";
import { IAMClient } from "@aws-sdk/client-iam";
import { TAG, tagValue } from "../tags.ts";
import { findRoles } from "./iam.ts";

export type AwsResource =
  | "eks-nodegroup"
  | "eks-cluster"
  | "instance"
  | "spot-request"
  | "volume"
  | "key-pair"
  | "security-group"
  | "subnet"
  | "route-table"
  | "internet-gateway"
  | "vpc"
  | "iam-role";

/** Deletion order: nothing is deleted before what depends on it. */
export const AWS_RESOURCES: AwsResource[] = [
  "eks-nodegroup",
  "eks-cluster",
  "instance",
  "spot-request",
  "volume",
  "key-pair",
  "security-group",
  "subnet",
  "route-table",
  "internet-gateway",
  "vpc",
  "iam-role",
];

export interface Found {
  resource: AwsResource;
  id: string;
  runId: string;
  expiresAt: string;
  /** A key pair's name (deleting by name works on every EC2 API); an EKS node group's cluster. */
  name?: string;
  /** When it was created, where AWS says (instances, volumes, key pairs). */
  createdAt?: string;
  /** Expired: past tiperf:expires-at. */
  expired: boolean;
  /** Alive past twice its time to live (created + 2 × ttl): someone should look. */
  overdue: boolean;
}

export type Log = (line: string) => void;

export const FILTER = [{ Name: "tag-key", Values: [TAG.runId] }];

/** The EC2, EKS and IAM APIs of a region (one endpoint for all in tests). */
export interface Clients {
  /** The region they answer for (IAM, global, is filtered to it). */
  region: string;
  ec2: EC2Client;
  eks: EKSClient;
  iam: IAMClient;
  destroy(): void;
}

export function client(o: Pick<AwsReapOptions, "region" | "endpoint">): Clients {
  const c = { region: o.region, ...(o.endpoint ? { endpoint: o.endpoint } : {}), maxAttempts: 5 };
  const ec2 = new EC2Client(c);
  const eks = new EKSClient(c);
  const iam = new IAMClient(c);
  return {
    region: o.region,
    ec2,
    eks,
    iam,
    destroy: () => {
      ec2.destroy();
      eks.destroy();
      iam.destroy();
    },
  };
}

/** EKS clusters and their node groups tagged tiperf:run-id (EKS answers tags as a map). */
export async function findEks(
  eks: EKSClient,
  add: (resource: AwsResource, id: string, tags: Tag[], created?: Date, name?: string) => void,
) {
  const asTags = (m: Record<string, string> | undefined): Tag[] =>
    Object.entries(m ?? {}).map(([Key, Value]) => ({ Key, Value }));
  let next: string | undefined;
  do {
    const page = await eks.send(new ListClustersCommand({ ...(next ? { nextToken: next } : {}) }));
    for (const name of page.clusters ?? []) {
      const c = (await eks.send(new DescribeClusterCommand({ name }))).cluster;
      if (!c?.tags?.[TAG.runId] || c.status === "DELETING") continue;
      for (const ng of (await eks.send(new ListNodegroupsCommand({ clusterName: name }))).nodegroups ?? []) {
        const g = (await eks.send(new DescribeNodegroupCommand({ clusterName: name, nodegroupName: ng })))
          .nodegroup;
        // a node group carries the cluster's tags when it has none of its own
        if (g && g.status !== "DELETING")
          add("eks-nodegroup", ng, asTags({ ...c.tags, ...g.tags }), g.createdAt, name);
      }
      add("eks-cluster", name, asTags(c.tags), c.createdAt);
    }
    next = page.nextToken;
  } while (next);
}

/** Lists every resource tagged tiperf:run-id, with whether it has expired. */
export async function findTagged(clients: Clients, now: Date, log?: Log): Promise<Found[]> {
  const { ec2 } = clients;
  const found: Found[] = [];
  const add = (
    resource: AwsResource,
    id: string | undefined,
    tags: Tag[] | undefined,
    created?: Date,
    name?: string,
  ) => {
    const runId = tagValue(tags, TAG.runId);
    if (!id || !runId) return;
    const expiresAt = tagValue(tags, TAG.expiresAt) ?? "";
    const expiry = Date.parse(expiresAt);
    // no readable expiry: never expired (a resource tiperf cannot judge is left alone)
    const expired = Number.isFinite(expiry) && expiry < now.getTime();
    const ttl = created && Number.isFinite(expiry) ? expiry - created.getTime() : undefined;
    const overdue = ttl !== undefined && ttl > 0 && now.getTime() > expiry + ttl;
    found.push({
      resource,
      id,
      runId,
      expiresAt,
      ...(name ? { name } : {}),
      ...(created ? { createdAt: created.toISOString() } : {}),
      expired,
      overdue,
    });
  };
  // EKS where the credentials may list it (a runner that only ever made machine clusters may not)
  await whereAllowed("EKS clusters", findEks(clients.eks, add), log);
  for (const r of (await ec2.send(new DescribeInstancesCommand({ Filters: FILTER }))).Reservations ?? [])
    for (const i of r.Instances ?? [])
      if (!["terminated", "shutting-down"].includes(i.State?.Name ?? ""))
        add("instance", i.InstanceId, i.Tags, i.LaunchTime);
  for (const s of (await ec2.send(new DescribeSpotInstanceRequestsCommand({ Filters: FILTER })))
    .SpotInstanceRequests ?? [])
    if (["open", "active"].includes(s.State ?? ""))
      add("spot-request", s.SpotInstanceRequestId, s.Tags, s.CreateTime);
  for (const v of (await ec2.send(new DescribeVolumesCommand({ Filters: FILTER }))).Volumes ?? [])
    if (v.State !== "deleting" && v.State !== "deleted") add("volume", v.VolumeId, v.Tags, v.CreateTime);
  for (const k of (await ec2.send(new DescribeKeyPairsCommand({ Filters: FILTER }))).KeyPairs ?? [])
    add("key-pair", k.KeyPairId, k.Tags, k.CreateTime, k.KeyName);
  for (const g of (await ec2.send(new DescribeSecurityGroupsCommand({ Filters: FILTER }))).SecurityGroups ??
    [])
    add("security-group", g.GroupId, g.Tags);
  for (const s of (await ec2.send(new DescribeSubnetsCommand({ Filters: FILTER }))).Subnets ?? [])
    add("subnet", s.SubnetId, s.Tags);
  for (const t of (await ec2.send(new DescribeRouteTablesCommand({ Filters: FILTER }))).RouteTables ?? [])
    add("route-table", t.RouteTableId, t.Tags);
  for (const g of (await ec2.send(new DescribeInternetGatewaysCommand({ Filters: FILTER })))
    .InternetGateways ?? [])
    add("internet-gateway", g.InternetGatewayId, g.Tags);
  for (const v of (await ec2.send(new DescribeVpcsCommand({ Filters: FILTER }))).Vpcs ?? [])
    add("vpc", v.VpcId, v.Tags);
  // IAM where the credentials may list it, as EKS
  await whereAllowed(
    "IAM roles",
    findRoles(clients.iam, clients.region, (id, tags, created) => add("iam-role", id, tags, created)),
    log,
  );
  return found;
}

/** Credentials that may not list a service. */
export const DENIED = /AccessDenied|UnauthorizedOperation|not authorized/i;

/** A service's listing where the credentials allow it; where they do not, the log says so. */
export async function whereAllowed(what: string, listing: Promise<void>, log?: Log): Promise<void> {
  await listing.catch((e: Error) => {
    if (DENIED.test(`${e.name} ${e.message}`))
      log?.(`reap: ${what} not listed (${e.name}: ${e.message}); EC2 resources are`);
    else throw e;
  });
}

export interface AwsReapOptions {
  region: string;
  /** An EC2 API other than AWS's own (a local one in tests). */
  endpoint?: string;
  dryRun: boolean;
  now?: Date;
  log: (line: string) => void;
  /** How long to wait for instances to terminate before deleting what they use. */
  waitMs?: number;
}
