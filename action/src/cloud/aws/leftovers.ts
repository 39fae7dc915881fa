// `tiperf reap --cloud aws`: finds what tiperf created in a region (everything tagged
// tiperf:run-id) whose tiperf:expires-at is past, and deletes it in dependency order, idempotently:
// EKS node groups and clusters (each waited for until gone: a node group's Auto Scaling group would
// start again any instance terminated under it), instances (waiting until they are gone), spot
// requests, volumes, key pairs, security groups, subnets, route tables, internet gateways, VPCs,
// and last the IAM roles of EKS runs (IAM is global: only roles under tiperf's path whose
// tiperf:region is this region). Untagged or unexpired resources are never touched.
import {
  CancelSpotInstanceRequestsCommand,
  DeleteInternetGatewayCommand,
  DeleteKeyPairCommand,
  DeleteRouteTableCommand,
  DeleteSecurityGroupCommand,
  DeleteSubnetCommand,
  DeleteVolumeCommand,
  DeleteVpcCommand,
  DescribeInstancesCommand,
  DescribeInternetGatewaysCommand,
  DescribeKeyPairsCommand,
  DescribeRouteTablesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSpotInstanceRequestsCommand,
  DescribeSubnetsCommand,
  DescribeVolumesCommand,
  DescribeVpcsCommand,
  DetachInternetGatewayCommand,
  DisassociateRouteTableCommand,
  EC2Client,
  type Tag,
  TerminateInstancesCommand,
} from "@aws-sdk/client-ec2";
import {
  DeleteClusterCommand,
  DeleteNodegroupCommand,
  DescribeClusterCommand,
  DescribeNodegroupCommand,
  EKSClient,
  ListClustersCommand,
  ListNodegroupsCommand,
} from "@aws-sdk/client-eks";
import { IAMClient } from "@aws-sdk/client-iam";
import type { ReapReport as NeutralReport } from "../provider.ts";
import { TAG, tagValue } from "../tags.ts";
import { deleteRole, findRoles } from "./iam.ts";

export type Kind =
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
export const KINDS: Kind[] = [
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
  kind: Kind;
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
type Log = AwsReapOptions["log"];

export interface AwsReapReport extends Omit<NeutralReport, "removed" | "kept" | "failed" | "overdue"> {
  removed: Found[];
  kept: Found[];
  failed: (Found & { error: string })[];
  overdue: Found[];
}

const FILTER = [{ Name: "tag-key", Values: [TAG.runId] }];

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
async function findEks(
  eks: EKSClient,
  add: (kind: Kind, id: string, tags: Tag[], created?: Date, name?: string) => void,
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
    kind: Kind,
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
      kind,
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

/** AWS's "already gone" answers (InvalidInstanceID.NotFound, InvalidVpcID.NotFound, IAM's NoSuchEntity, …): deleting twice is not an error. */
const GONE = /NotFound|NoSuchEntity/;
/** Credentials that may not list a service. */
const DENIED = /AccessDenied|UnauthorizedOperation|not authorized/i;

/** A service's listing where the credentials allow it; where they do not, the log says so. */
async function whereAllowed(what: string, listing: Promise<void>, log?: Log): Promise<void> {
  await listing.catch((e: Error) => {
    if (DENIED.test(`${e.name} ${e.message}`))
      log?.(`reap: ${what} not listed (${e.name}: ${e.message}); EC2 resources are`);
    else throw e;
  });
}

async function deleteOne({ ec2, eks, iam }: Clients, f: Found): Promise<void> {
  switch (f.kind) {
    case "iam-role":
      await deleteRole(iam, f.id);
      return;
    case "eks-nodegroup":
      await eks.send(new DeleteNodegroupCommand({ clusterName: f.name, nodegroupName: f.id }));
      return;
    case "eks-cluster":
      await eks.send(new DeleteClusterCommand({ name: f.id }));
      return;
    case "instance":
      await ec2.send(new TerminateInstancesCommand({ InstanceIds: [f.id] }));
      return;
    case "spot-request":
      await ec2.send(new CancelSpotInstanceRequestsCommand({ SpotInstanceRequestIds: [f.id] }));
      return;
    case "volume":
      await ec2.send(new DeleteVolumeCommand({ VolumeId: f.id }));
      return;
    case "key-pair":
      await ec2.send(new DeleteKeyPairCommand(f.name ? { KeyName: f.name } : { KeyPairId: f.id }));
      return;
    case "security-group":
      await ec2.send(new DeleteSecurityGroupCommand({ GroupId: f.id }));
      return;
    case "subnet":
      await ec2.send(new DeleteSubnetCommand({ SubnetId: f.id }));
      return;
    case "route-table": {
      const t = (await ec2.send(new DescribeRouteTablesCommand({ RouteTableIds: [f.id] }))).RouteTables?.[0];
      for (const a of t?.Associations ?? [])
        if (!a.Main && a.RouteTableAssociationId)
          await ec2.send(new DisassociateRouteTableCommand({ AssociationId: a.RouteTableAssociationId }));
      await ec2.send(new DeleteRouteTableCommand({ RouteTableId: f.id }));
      return;
    }
    case "internet-gateway": {
      const g = (await ec2.send(new DescribeInternetGatewaysCommand({ InternetGatewayIds: [f.id] })))
        .InternetGateways?.[0];
      for (const a of g?.Attachments ?? [])
        if (a.VpcId)
          await ec2.send(new DetachInternetGatewayCommand({ InternetGatewayId: f.id, VpcId: a.VpcId }));
      await ec2.send(new DeleteInternetGatewayCommand({ InternetGatewayId: f.id }));
      return;
    }
    case "vpc":
      await ec2.send(new DeleteVpcCommand({ VpcId: f.id }));
      return;
  }
}

/** Waits (bounded) until these instances are terminated: their volumes and groups are in use until then. */
async function waitTerminated(ec2: EC2Client, ids: string[], waitMs: number, log: Log) {
  const deadline = Date.now() + waitMs;
  while (ids.length > 0) {
    const r = await ec2.send(new DescribeInstancesCommand({ InstanceIds: ids }));
    const left = (r.Reservations ?? [])
      .flatMap((x) => x.Instances ?? [])
      .filter((i) => i.State?.Name !== "terminated");
    if (left.length === 0) return;
    if (Date.now() > deadline) {
      log(
        `reap: ${left.length} instance(s) still terminating after ${Math.round(waitMs / 1000)}s; deleting the rest may fail until they are gone`,
      );
      return;
    }
    await new Promise((r) => setTimeout(r, 5000));
  }
}

/**
 * Waits (bounded) until these EKS node groups or clusters are gone: a cluster is not deleted while
 * it has node groups, and a VPC not while a cluster's network interfaces are in it. One whose
 * state cannot be read (AccessDenied, throttled past the SDK's retries) is not waited for: waiting
 * would not change that answer, so the log names it with AWS's words and the sweep goes on.
 */
export async function waitEksGone(
  eks: Pick<EKSClient, "send">,
  gone: Found[],
  waitMs: number,
  log: Log,
  pollMs = 5000,
): Promise<void> {
  const deadline = Date.now() + waitMs;
  const describe = (f: Found): Promise<unknown> =>
    f.kind === "eks-nodegroup"
      ? eks.send(new DescribeNodegroupCommand({ clusterName: f.name, nodegroupName: f.id }))
      : eks.send(new DescribeClusterCommand({ name: f.id }));
  let left = gone;
  while (left.length > 0) {
    const still: Found[] = [];
    for (const f of left)
      await describe(f).then(
        () => still.push(f),
        (e: Error) => {
          if (!GONE.test(e.name))
            log(
              `reap: cannot tell whether ${f.kind} ${f.id} is gone (${e.name}: ${e.message}); not waiting for it`,
            );
        },
      );
    left = still;
    if (left.length === 0) return;
    if (Date.now() > deadline) {
      log(
        `reap: ${left.map((f) => `${f.kind} ${f.id}`).join(", ")} still being deleted after ${Math.round(waitMs / 1000)}s; deleting the rest may fail until they are gone`,
      );
      return;
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** Resources in deletion order: kind by kind as KINDS lists them. */
const inOrder = (found: Found[]) => KINDS.flatMap((kind) => found.filter((f) => f.kind === kind));

/** Deletes in dependency order, telling `done` each outcome; instances end (bounded wait) before what they use. */
async function deleteInOrder(
  clients: Clients,
  found: Found[],
  o: Pick<AwsReapOptions, "waitMs" | "log">,
  done: (f: Found, error?: string) => void,
): Promise<void> {
  for (const kind of KINDS) {
    const deleted: Found[] = [];
    for (const f of found.filter((x) => x.kind === kind)) {
      try {
        await deleteOne(clients, f);
        deleted.push(f);
        done(f);
      } catch (e) {
        const err = e as Error;
        done(f, err.name === "Error" ? err.message : `${err.name}: ${err.message}`);
      }
    }
    if (!deleted.length) continue;
    const waitMs = o.waitMs ?? 600_000;
    if (kind === "instance")
      await waitTerminated(
        clients.ec2,
        deleted.map((f) => f.id),
        waitMs,
        o.log,
      );
    if (kind === "eks-nodegroup" || kind === "eks-cluster")
      await waitEksGone(clients.eks, deleted, waitMs, o.log);
  }
}

/** Finds and (unless a dry run) deletes every expired tiperf resource of a region. */
export async function reapAws(o: AwsReapOptions): Promise<AwsReapReport> {
  const clients = client(o);
  const now = o.now ?? new Date();
  const found = await findTagged(clients, now, o.log);
  const expired = found.filter((f) => f.expired);
  const report: AwsReapReport = {
    format: "tiperf.reap",
    cloud: "aws",
    region: o.region,
    dryRun: o.dryRun,
    removed: [],
    kept: found.filter((f) => !f.expired),
    failed: [],
    overdue: found.filter((f) => f.overdue),
  };
  const line = (f: Found) => `${f.kind} ${f.id} (tiperf:run-id ${f.runId}, expired ${f.expiresAt})`;
  if (o.dryRun)
    for (const f of inOrder(expired)) {
      o.log(`reap: would remove ${line(f)}`);
      report.removed.push(f);
    }
  else
    await deleteInOrder(clients, expired, o, (f, error) => {
      if (error === undefined) o.log(`reap: removed ${line(f)}`);
      else if (GONE.test(error)) o.log(`reap: ${line(f)}: already gone`);
      else {
        o.log(`reap: could not remove ${line(f)}: ${error}`);
        report.failed.push({ ...f, error });
        return;
      }
      report.removed.push(f);
    });
  clients.destroy();
  return report;
}

/**
 * The tag sweep of one run (a stack's recovery, a destroy that failed half-way): everything tagged
 * with this run id, expired or not, deleted in dependency order; says what went.
 */
export async function removeRunByTag(
  o: Pick<AwsReapOptions, "region" | "endpoint" | "log" | "waitMs"> & { runId: string },
): Promise<string[]> {
  const clients = client(o);
  const gone: string[] = [];
  try {
    const mine = (await findTagged(clients, new Date(), o.log)).filter((f) => f.runId === o.runId);
    await deleteInOrder(clients, mine, o, (f, error) => {
      if (error === undefined || GONE.test(error)) gone.push(`${f.kind} ${f.id}`);
      else o.log(`cloud: sweep: could not remove ${f.kind} ${f.id}: ${error}`);
    });
  } finally {
    clients.destroy();
  }
  return gone;
}
