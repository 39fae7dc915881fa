// What an aws profile asks AWS for, before anything is created: the machines per role, the
// network around them, every resource's tags and what the run may cost. `tiperf plan` prints it,
// the budget check reads it, and the Pulumi program (infra/pulumi/aws-cluster.ts) creates exactly
// these resources, so the plan and the stack cannot drift apart.

import { InputError } from "../../errors.ts";
import type { Profile } from "../../targets/tidb/profile.ts";
import { ROLES } from "../../targets/tidb/profile.ts";
import { pricesOf } from "../infra.ts";
import { type AwsSettings, parseTtl } from "./settings.ts";

/** A machine of the cluster: one per TiDB instance, plus the load host. */
export interface Machine {
  /** pd-1, tikv-2, load-1: the resource name and the Name tag. */
  name: string;
  role: "pd" | "tikv" | "tidb" | "tiflash" | "load";
  instanceType: string;
  /** A data volume (gp3) beside the root volume, GB. */
  dataVolumeGb?: number;
}

/** Who the run belongs to and until when: every resource carries these as tags. */
export interface RunTags {
  runId: string;
  /** ISO 8601 UTC: created + the profile's ttl. */
  expiresAt: string;
  repository: string;
  /** The pull request number, or "none" (a scheduled or dispatched run). */
  pr: string;
}

export const TAG = {
  runId: "tiperf:run-id",
  expiresAt: "tiperf:expires-at",
  repository: "tiperf:repository",
  pr: "tiperf:pr",
} as const;

export function tagsOf(run: RunTags): Record<string, string> {
  return {
    [TAG.runId]: run.runId,
    [TAG.expiresAt]: run.expiresAt,
    [TAG.repository]: run.repository,
    [TAG.pr]: run.pr,
  };
}

/** The tags of a run starting now (expiry = now + the profile's ttl). */
export function runTags(
  aws: AwsSettings,
  o: { runId: string; repository?: string; pr?: string; now?: Date },
): RunTags {
  const now = o.now ?? new Date();
  return {
    runId: o.runId,
    expiresAt: new Date(now.getTime() + (parseTtl(aws.ttl) as number))
      .toISOString()
      .replace(/\.\d{3}Z$/, "Z"),
    repository: o.repository ?? "local",
    pr: o.pr ?? "none",
  };
}

export function awsOf(profile: Profile): AwsSettings {
  if (profile.provider !== "aws" || !profile.aws)
    throw new Error(`profile ${profile.name} is not provider aws`);
  return profile.aws;
}

export function machinesOf(profile: Profile): Machine[] {
  const aws = awsOf(profile);
  const out: Machine[] = [];
  for (const role of ROLES) {
    const r = profile.roles[role];
    for (let i = 1; i <= (r.count ?? 0); i++)
      out.push({
        name: `${role}-${i}`,
        role,
        instanceType: r.instance_type as string,
        ...(aws.data_volume_gb && (role === "tikv" || role === "tiflash")
          ? { dataVolumeGb: aws.data_volume_gb }
          : {}),
      });
  }
  out.push({ name: "load-1", role: "load", instanceType: aws.load.instance_type });
  return out;
}

/** One line of the resource list: a Pulumi resource type and how many of it. */
export interface PlannedResource {
  type: string;
  name: string;
  count: number;
  about: string;
}

/** The resources of the stack, in creation order (the Pulumi program makes the same ones). */
export function resourcesOf(profile: Profile): PlannedResource[] {
  const aws = awsOf(profile);
  const machines = machinesOf(profile);
  const byType = new Map<string, Machine[]>();
  for (const m of machines) byType.set(m.instanceType, [...(byType.get(m.instanceType) ?? []), m]);
  const zone = aws.zone ?? `${aws.region}a`;
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
      about: `10.42.1.0/24 in ${zone}, public addresses on launch`,
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

/** Hours of one run: provisioning and deployment, loading, the matrix and teardown. */
export interface RunHours {
  setup: number;
  matrix: number;
}

export interface CostEstimate {
  region: string;
  /** $/h of all machines and volumes together. */
  perHour: number;
  hours: number;
  dollars: number;
  lines: { what: string; count: number; perHour: number }[];
  priceTable: { as_of: string; source: string };
  spot: boolean;
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
 * The run's estimated cost at on-demand prices (spot usually costs less; the estimate stays on
 * the safe side): each machine's $/h and its volumes, times the run's hours, billed per second.
 */
export function estimateCost(profile: Profile, hours: RunHours): CostEstimate {
  const aws = awsOf(profile);
  const counts = new Map<string, number>();
  for (const m of machinesOf(profile)) counts.set(m.instanceType, (counts.get(m.instanceType) ?? 0) + 1);
  const lines: CostEstimate["lines"] = [];
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
  const gbMonth = pricesOf("aws").gp3_gb_month[aws.region] ?? 0.08;
  const machines = machinesOf(profile);
  const gb = machines.reduce((sum, m) => sum + aws.root_volume_gb + (m.dataVolumeGb ?? 0), 0);
  lines.push({ what: "gp3 GB", count: gb, perHour: gbMonth / 730 });
  const perHour = lines.reduce((sum, l) => sum + l.count * l.perHour, 0);
  const total = hours.setup + hours.matrix;
  return {
    region: aws.region,
    perHour,
    hours: total,
    dollars: perHour * total,
    lines,
    priceTable: { as_of: pricesOf("aws").as_of, source: pricesOf("aws").source },
    spot: aws.spot,
  };
}

/** Whether the cluster would expire (and be reaped) before the run is estimated to end. */
export function outlivesTtl(profile: Profile, estimate: CostEstimate): boolean {
  return estimate.hours * 3_600_000 > (parseTtl(awsOf(profile).ttl) as number);
}

/**
 * Refuses, before anything is created, a run whose estimate is above the profile's budget, or
 * that would outlive its ttl (the reaper would remove the cluster in the middle of the matrix).
 */
export function checkBudget(profile: Profile, estimate: CostEstimate, file: string): void {
  if (outlivesTtl(profile, estimate))
    throw new InputError(
      `${file}: aws.ttl is ${awsOf(profile).ttl} but this run is estimated at ${estimate.hours.toFixed(2)} h: the reaper would remove the cluster mid-run; nothing was created. Raise the ttl or shorten the matrix`,
    );
  const budget = profile.aws?.budget;
  if (budget !== undefined && estimate.dollars > budget)
    throw new InputError(
      `${file}: aws.budget is $${budget.toFixed(2)} but this run is estimated at $${estimate.dollars.toFixed(2)} (${estimate.hours.toFixed(2)} h × $${estimate.perHour.toFixed(2)}/h); nothing was created. Raise the budget, shorten the matrix or pick smaller instance types`,
    );
}

export function costText(e: CostEstimate): string {
  const lines = [
    `estimated cost: $${e.dollars.toFixed(2)} (${e.hours.toFixed(2)} h × $${e.perHour.toFixed(3)}/h on-demand in ${e.region}${e.spot ? "; spot instances usually cost less" : ""})`,
  ];
  for (const l of e.lines)
    lines.push(
      `  ${String(l.count).padStart(4)} × ${l.what.padEnd(14)} $${l.perHour.toFixed(l.what.includes("GB") ? 5 : 4)}/h`,
    );
  lines.push(`  prices as of ${e.priceTable.as_of}: ${e.priceTable.source}`);
  return lines.join("\n");
}

/** Where a cluster's machines are, once `up` said so (before it, each machine's name stands in). */
export interface ClusterHosts {
  /** Private addresses per role (load included): what the machines use among themselves. */
  hosts: Record<string, string[]>;
  /** The load host's public address: the bastion, the one machine the runner reaches (SSH only). */
  bastion: string;
  /** The run's private key file. */
  identityFile: string;
  /** The machines' SSH port (22 on EC2). */
  sshPort?: number;
}

/** Before `up`: each machine's name in place of its address (the plan shows where each instance goes). */
export function placeholderHosts(profile: Profile): ClusterHosts {
  const hosts: Record<string, string[]> = {};
  for (const m of machinesOf(profile)) hosts[m.role] = [...(hosts[m.role] ?? []), m.name];
  return { hosts, bastion: "<load-1 public address>", identityFile: "<run>/cloud/id_rsa" };
}

/**
 * The profile as a hosts profile on the cluster's machines: each role's private addresses, reached
 * with the run's key as the AMI's login user through the load host (the bastion: the security
 * group admits SSH from the runner and nothing else).
 */
export function withHosts(profile: Profile, c: ClusterHosts): Profile {
  const aws = awsOf(profile);
  const list = (role: string) => (c.hosts[role]?.length ? { [role]: c.hosts[role] } : {});
  const port = c.sshPort ?? 22;
  return {
    ...profile,
    hosts: { ...list("pd"), ...list("tikv"), ...list("tidb"), ...list("tiflash"), ...list("load") },
    ssh: {
      user: aws.ssh_user,
      port,
      identity_file: c.identityFile,
      proxy: { host: c.bastion, user: aws.ssh_user, port, identity_file: c.identityFile },
    },
  };
}

/** The plan's cloud section: what Pulumi would create, the tags on each resource, the estimate. */
export function cloudPlanText(profile: Profile, estimate: CostEstimate, tags: RunTags): string {
  const aws = awsOf(profile);
  const lines = [
    `cloud: aws ${aws.region} (zone ${aws.zone ?? `${aws.region}a`}), ${aws.spot ? "spot" : "on-demand"}, ttl ${aws.ttl}, state ${aws.backend ?? "file://<run>/cloud/state"}`,
    `resources Pulumi would create (stack tiperf-${profile.name}-<pr N, branch or local>):`,
  ];
  for (const r of resourcesOf(profile))
    lines.push(`  ${String(r.count).padStart(2)} × ${r.type} ${r.name}${r.about ? `    # ${r.about}` : ""}`);
  lines.push("tags on every resource (the provider's default tags; volumes get them too):");
  for (const [k, v] of Object.entries(tagsOf(tags))) lines.push(`  ${k} = ${v}`);
  lines.push(costText(estimate));
  const budget = aws.budget;
  if (budget !== undefined)
    lines.push(
      estimate.dollars > budget
        ? `budget: $${budget.toFixed(2)}: OVER: a run would be refused before anything is created`
        : `budget: $${budget.toFixed(2)}: within (estimate $${estimate.dollars.toFixed(2)})`,
    );
  if (outlivesTtl(profile, estimate))
    lines.push(
      `ttl: ${aws.ttl}: SHORTER than the run (${estimate.hours.toFixed(2)} h): a run would be refused before anything is created`,
    );
  lines.push("hosts below are the machines' names; at run time they are the private addresses `up` returns");
  return `${lines.join("\n")}\n\n`;
}
