// What a cluster asks AWS for, before anything is created: the machines, the network around them
// and what they cost per hour. `tiperf plan` prints it, the budget check reads it, and the Pulumi
// program (infra/pulumi/aws-cluster.ts) creates exactly these resources, so the plan and the stack
// cannot drift apart.
import { InputError } from "../../errors.ts";
import { pricesOf } from "../infra.ts";
import type { ClusterAsk, Machine, PlannedResource, Prices } from "../provider.ts";
import type { AwsSettings } from "./settings.ts";

export const awsOf = (ask: ClusterAsk): AwsSettings => ask.settings as AwsSettings;

/** One machine per instance of each role (a data volume on the roles holding data), and the load host. */
export function machinesOf(ask: ClusterAsk): Machine[] {
  const aws = awsOf(ask);
  const out: Machine[] = [];
  for (const r of ask.roles)
    for (let i = 1; i <= r.count; i++)
      out.push({
        name: `${r.role}-${i}`,
        role: r.role,
        instanceType: r.instanceType as string,
        ...(aws.data_volume_gb && r.data ? { dataVolumeGb: aws.data_volume_gb } : {}),
      });
  out.push({ name: "load-1", role: "load", instanceType: aws.load.instance_type });
  return out;
}

export const zoneOf = (aws: AwsSettings) => aws.zone ?? `${aws.region}a`;

export function where(ask: ClusterAsk): string {
  const aws = awsOf(ask);
  return `aws ${aws.region} (zone ${zoneOf(aws)}), ${aws.spot ? "spot" : "on-demand"}`;
}

/** The resources of the stack, in creation order (the Pulumi program makes the same ones). */
export function resourcesOf(ask: ClusterAsk): PlannedResource[] {
  const aws = awsOf(ask);
  const byType = new Map<string, Machine[]>();
  for (const m of machinesOf(ask)) byType.set(m.instanceType, [...(byType.get(m.instanceType) ?? []), m]);
  const list: PlannedResource[] = [
    { type: "aws:ec2/vpc:Vpc", name: "vpc", count: 1, about: "10.42.0.0/16, DNS host names on" },
    {
      type: "aws:ec2/internetGateway:InternetGateway",
      name: "igw",
      count: 1,
      about: "for SSH from the runner and package downloads",
    },
    {
      type: "aws:ec2/subnet:Subnet",
      name: "subnet",
      count: 1,
      about: `10.42.1.0/24 in ${zoneOf(aws)}, public addresses on launch`,
    },
    {
      type: "aws:ec2/routeTable:RouteTable",
      name: "routes",
      count: 1,
      about: "0.0.0.0/0 → the internet gateway",
    },
    {
      type: "aws:ec2/routeTableAssociation:RouteTableAssociation",
      name: "routes-subnet",
      count: 1,
      about: "",
    },
    {
      type: "aws:ec2/securityGroup:SecurityGroup",
      name: "cluster",
      count: 1,
      about: `SSH (22/tcp) only from ${aws.ssh_cidr ?? "the runner's address/32"}; all traffic only from members of this group; all egress`,
    },
    {
      type: "aws:ec2/keyPair:KeyPair",
      name: "key",
      count: 1,
      about: "RSA key generated for this run (private key: <run>/cloud/id_rsa, 0600)",
    },
  ];
  for (const [type, ms] of byType)
    list.push({
      type: "aws:ec2/instance:Instance",
      name: ms.map((m) => m.name).join(", "),
      count: ms.length,
      about: `${type}${aws.spot ? " spot" : " on-demand"}, root ${aws.root_volume_gb} GB gp3${ms[0]?.dataVolumeGb ? `, data ${ms[0].dataVolumeGb} GB gp3` : ""}`,
    });
  return list;
}

/** The price of one instance type in a region; a type missing from the table is an input error. */
export function instancePrice(region: string, type: string, where = "roles"): number {
  const table = pricesOf("aws").instances[region];
  if (!table)
    throw new InputError(
      `aws.region ${region}: the price table (infra/prices/aws.ts) has no prices for it; regions priced: ${Object.keys(pricesOf("aws").instances).join(", ")}`,
    );
  const price = table[type];
  if (price === undefined)
    throw new InputError(
      `${where}: instance type ${type} has no price in infra/prices/aws.ts for ${region} (priced: ${Object.keys(table).join(", ")}); add it with its source`,
    );
  return price;
}

/**
 * $/h at on-demand prices (spot usually costs less; the estimate stays on the safe side): each
 * instance type, and the gp3 volumes at their monthly price over 730 hours.
 */
export function pricesPerHour(ask: ClusterAsk): Prices {
  const aws = awsOf(ask);
  const machines = machinesOf(ask);
  const counts = new Map<string, number>();
  for (const m of machines) counts.set(m.instanceType, (counts.get(m.instanceType) ?? 0) + 1);
  const lines: Prices["lines"] = [];
  for (const [type, count] of counts)
    lines.push({
      what: type,
      count,
      perHour: instancePrice(
        aws.region,
        type,
        type === aws.load.instance_type ? "aws.load.instance_type" : "roles.*.instance_type",
      ),
    });
  const table = pricesOf("aws");
  const gbMonth = table.gp3_gb_month?.[aws.region] ?? 0.08;
  const gb = machines.reduce((sum, m) => sum + aws.root_volume_gb + (m.dataVolumeGb ?? 0), 0);
  lines.push({ what: "gp3 GB", count: gb, perHour: gbMonth / 730 });
  return {
    lines,
    priceTable: { as_of: table.as_of, source: table.source },
    terms: `on-demand in ${aws.region}${aws.spot ? "; spot instances usually cost less" : ""}`,
  };
}
