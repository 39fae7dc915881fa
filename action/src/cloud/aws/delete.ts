// Deleting what tiperf left in an AWS region in dependency order, idempotently: EKS node groups and
// clusters waited for until gone, instances waited for until terminated, then what they used; a
// resource already gone is done, one the credentials may not touch is named.

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
  DescribeRouteTablesCommand,
  DetachInternetGatewayCommand,
  DisassociateRouteTableCommand,
  type EC2Client,
  TerminateInstancesCommand,
} from "@aws-sdk/client-ec2";
import {
  DeleteClusterCommand,
  DeleteNodegroupCommand,
  DescribeClusterCommand,
  DescribeNodegroupCommand,
  type EKSClient,
} from "@aws-sdk/client-eks";
import { AWS_RESOURCES, type AwsReapOptions, type Clients, type Found, type Log } from "./found.ts";
import { deleteRole } from "./iam.ts";

/** AWS's "already gone" answers (InvalidInstanceID.NotFound, InvalidVpcID.NotFound, IAM's NoSuchEntity, …): deleting twice is not an error. */
export const GONE = /NotFound|NoSuchEntity/;

export async function deleteOne({ ec2, eks, iam }: Clients, f: Found): Promise<void> {
  switch (f.resource) {
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
export async function waitTerminated(ec2: EC2Client, ids: string[], waitMs: number, log: Log) {
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
    f.resource === "eks-nodegroup"
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
              `reap: cannot tell whether ${f.resource} ${f.id} is gone (${e.name}: ${e.message}); not waiting for it`,
            );
        },
      );
    left = still;
    if (left.length === 0) return;
    if (Date.now() > deadline) {
      log(
        `reap: ${left.map((f) => `${f.resource} ${f.id}`).join(", ")} still being deleted after ${Math.round(waitMs / 1000)}s; deleting the rest may fail until they are gone`,
      );
      return;
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** Resources in deletion order: resource by resource as AWS_RESOURCES lists them. */
export const inOrder = (found: Found[]) =>
  AWS_RESOURCES.flatMap((resource) => found.filter((f) => f.resource === resource));

/** Deletes in dependency order, telling `done` each outcome; instances end (bounded wait) before what they use. */
export async function deleteInOrder(
  clients: Clients,
  found: Found[],
  o: Pick<AwsReapOptions, "waitMs" | "log">,
  done: (f: Found, error?: string) => void,
): Promise<void> {
  for (const resource of AWS_RESOURCES) {
    const deleted: Found[] = [];
    for (const f of found.filter((x) => x.resource === resource)) {
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
    if (resource === "instance")
      await waitTerminated(
        clients.ec2,
        deleted.map((f) => f.id),
        waitMs,
        o.log,
      );
    if (resource === "eks-nodegroup" || resource === "eks-cluster")
      await waitEksGone(clients.eks, deleted, waitMs, o.log);
  }
}
