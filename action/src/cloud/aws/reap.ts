// `tiperf reap --cloud aws`: finds what tiperf created in a region (everything tagged
// tiperf:run-id) whose tiperf:expires-at is past, and deletes it in dependency order, idempotently:
// instances (waiting until they are gone), spot requests, volumes, key pairs, security groups,
// subnets, route tables, internet gateways, VPCs. Untagged or unexpired resources are never touched.
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
import type { ReapReport as NeutralReport } from "../provider.ts";
import { TAG } from "../tags.ts";

export type Kind =
  | "instance"
  | "spot-request"
  | "volume"
  | "key-pair"
  | "security-group"
  | "subnet"
  | "route-table"
  | "internet-gateway"
  | "vpc";

/** Deletion order: nothing is deleted before what depends on it. */
export const KINDS: Kind[] = [
  "instance",
  "spot-request",
  "volume",
  "key-pair",
  "security-group",
  "subnet",
  "route-table",
  "internet-gateway",
  "vpc",
];

export interface Found {
  kind: Kind;
  id: string;
  runId: string;
  expiresAt: string;
  /** A key pair's name (deleting by name works on every EC2 API). */
  name?: string;
  /** When it was created, where AWS says (instances, volumes, key pairs). */
  createdAt?: string;
  /** Expired: past tiperf:expires-at. */
  expired: boolean;
  /** Alive past twice its time to live (created + 2 × ttl): someone should look. */
  overdue: boolean;
}

export interface ReapOptions {
  region: string;
  /** An EC2 API other than AWS's own (a local one in tests). */
  endpoint?: string;
  dryRun: boolean;
  now?: Date;
  log: (line: string) => void;
  /** How long to wait for instances to terminate before deleting what they use. */
  waitMs?: number;
}

export interface ReapReport extends Omit<NeutralReport, "removed" | "kept" | "failed" | "overdue"> {
  removed: Found[];
  kept: Found[];
  failed: (Found & { error: string })[];
  overdue: Found[];
}

const tagOf = (tags: Tag[] | undefined, key: string) => tags?.find((t) => t.Key === key)?.Value;
const FILTER = [{ Name: "tag-key", Values: [TAG.runId] }];

export function client(o: Pick<ReapOptions, "region" | "endpoint">): EC2Client {
  return new EC2Client({
    region: o.region,
    ...(o.endpoint ? { endpoint: o.endpoint } : {}),
    maxAttempts: 5,
  });
}

/** Lists every resource tagged tiperf:run-id, with whether it has expired. */
export async function findTagged(ec2: EC2Client, now: Date): Promise<Found[]> {
  const found: Found[] = [];
  const add = (
    kind: Kind,
    id: string | undefined,
    tags: Tag[] | undefined,
    created?: Date,
    name?: string,
  ) => {
    const runId = tagOf(tags, TAG.runId);
    if (!id || !runId) return;
    const expiresAt = tagOf(tags, TAG.expiresAt) ?? "";
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
  return found;
}

/** AWS's "already gone" answers (InvalidInstanceID.NotFound, InvalidVpcID.NotFound, …): deleting twice is not an error. */
const GONE = /NotFound/;

async function deleteOne(ec2: EC2Client, f: Found): Promise<void> {
  switch (f.kind) {
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
async function waitTerminated(ec2: EC2Client, ids: string[], waitMs: number, log: ReapOptions["log"]) {
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

/** Resources in deletion order: kind by kind as KINDS lists them. */
const inOrder = (found: Found[]) => KINDS.flatMap((kind) => found.filter((f) => f.kind === kind));

/**
 * Deletes in dependency order, telling `done` each outcome (error undefined when deleted); waits
 * (bounded) for the instances to terminate before what they use.
 */
async function deleteInOrder(
  ec2: EC2Client,
  found: Found[],
  o: Pick<ReapOptions, "waitMs" | "log">,
  done: (f: Found, error?: string) => void,
): Promise<void> {
  for (const kind of KINDS) {
    const deleted: string[] = [];
    for (const f of found.filter((x) => x.kind === kind)) {
      try {
        await deleteOne(ec2, f);
        deleted.push(f.id);
        done(f);
      } catch (e) {
        const err = e as Error;
        done(f, err.name === "Error" ? err.message : `${err.name}: ${err.message}`);
      }
    }
    if (kind === "instance" && deleted.length) await waitTerminated(ec2, deleted, o.waitMs ?? 600_000, o.log);
  }
}

/** Finds and (unless a dry run) deletes every expired tiperf resource of a region. */
export async function reapAws(o: ReapOptions): Promise<ReapReport> {
  const ec2 = client(o);
  const now = o.now ?? new Date();
  const found = await findTagged(ec2, now);
  const expired = found.filter((f) => f.expired);
  const report: ReapReport = {
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
    await deleteInOrder(ec2, expired, o, (f, error) => {
      if (error === undefined) o.log(`reap: removed ${line(f)}`);
      else if (GONE.test(error)) o.log(`reap: ${line(f)}: already gone`);
      else {
        o.log(`reap: could not remove ${line(f)}: ${error}`);
        report.failed.push({ ...f, error });
        return;
      }
      report.removed.push(f);
    });
  ec2.destroy();
  return report;
}

/**
 * The tag sweep of one run (a stack's recovery, a destroy that failed half-way): everything tagged
 * with this run id, expired or not, deleted in dependency order; says what went.
 */
export async function sweepRun(
  o: Pick<ReapOptions, "region" | "endpoint" | "log" | "waitMs"> & { runId: string },
): Promise<string[]> {
  const ec2 = client(o);
  const gone: string[] = [];
  try {
    const mine = (await findTagged(ec2, new Date())).filter((f) => f.runId === o.runId);
    await deleteInOrder(ec2, mine, o, (f, error) => {
      if (error === undefined || GONE.test(error)) gone.push(`${f.kind} ${f.id}`);
      else o.log(`cloud: sweep: could not remove ${f.kind} ${f.id}: ${error}`);
    });
  } finally {
    ec2.destroy();
  }
  return gone;
}
