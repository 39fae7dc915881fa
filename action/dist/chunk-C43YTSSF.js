#!/usr/bin/env node
import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path';
const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);
import {
  InputError,
  ROLES,
  parseTtl
} from "./chunk-KZLFUJ4J.js";

// infra/prices/aws.ts
var AWS_PRICES = {
  as_of: "2026-11-22",
  source: "AWS EC2 On-Demand pricing (aws.amazon.com/ec2/pricing/on-demand/), Linux, shared tenancy; list prices recorded by hand, not read from the Price List API",
  currency: "USD",
  /** $/h per instance type, per region. */
  instances: {
    "us-east-1": {
      "t3.medium": 0.0416,
      "t3.large": 0.0832,
      "m6i.large": 0.096,
      "m6i.xlarge": 0.192,
      "m6i.4xlarge": 0.768,
      "m6id.4xlarge": 0.9492,
      "c6i.4xlarge": 0.68,
      "c6i.8xlarge": 1.36,
      "i3.4xlarge": 1.248
    },
    "us-west-2": {
      "t3.medium": 0.0416,
      "t3.large": 0.0832,
      "m6i.large": 0.096,
      "m6i.xlarge": 0.192,
      "m6i.4xlarge": 0.768,
      "m6id.4xlarge": 0.9492,
      "c6i.4xlarge": 0.68,
      "c6i.8xlarge": 1.36,
      "i3.4xlarge": 1.248
    }
  },
  /** gp3 EBS storage, $ per GB-month (AWS bills a month as 730 hours). */
  gp3_gb_month: { "us-east-1": 0.08, "us-west-2": 0.08 }
};

// action/src/cloud/aws/resources.ts
var TAG = {
  runId: "tiperf:run-id",
  expiresAt: "tiperf:expires-at",
  repository: "tiperf:repository",
  pr: "tiperf:pr"
};
function tagsOf(run) {
  return {
    [TAG.runId]: run.runId,
    [TAG.expiresAt]: run.expiresAt,
    [TAG.repository]: run.repository,
    [TAG.pr]: run.pr
  };
}
function runTags(aws, o) {
  const now = o.now ?? /* @__PURE__ */ new Date();
  return {
    runId: o.runId,
    expiresAt: new Date(now.getTime() + parseTtl(aws.ttl)).toISOString().replace(/\.\d{3}Z$/, "Z"),
    repository: o.repository ?? "local",
    pr: o.pr ?? "none"
  };
}
function awsOf(profile) {
  if (profile.provider !== "aws" || !profile.aws)
    throw new Error(`profile ${profile.name} is not provider aws`);
  return profile.aws;
}
function machinesOf(profile) {
  const aws = awsOf(profile);
  const out = [];
  for (const role of ROLES) {
    const r = profile.roles[role];
    for (let i = 1; i <= (r.count ?? 0); i++)
      out.push({
        name: `${role}-${i}`,
        role,
        instanceType: r.instance_type,
        ...aws.data_volume_gb && (role === "tikv" || role === "tiflash") ? { dataVolumeGb: aws.data_volume_gb } : {}
      });
  }
  out.push({ name: "load-1", role: "load", instanceType: aws.load.instance_type });
  return out;
}
function resourcesOf(profile) {
  const aws = awsOf(profile);
  const machines = machinesOf(profile);
  const byType = /* @__PURE__ */ new Map();
  for (const m of machines) byType.set(m.instanceType, [...byType.get(m.instanceType) ?? [], m]);
  const zone = aws.zone ?? `${aws.region}a`;
  const list = [
    { type: "aws:ec2/vpc:Vpc", name: "vpc", count: 1, about: "10.42.0.0/16, DNS host names on" },
    {
      type: "aws:ec2/internetGateway:InternetGateway",
      name: "igw",
      count: 1,
      about: "for SSH from the runner and package downloads"
    },
    {
      type: "aws:ec2/subnet:Subnet",
      name: "subnet",
      count: 1,
      about: `10.42.1.0/24 in ${zone}, public addresses on launch`
    },
    {
      type: "aws:ec2/routeTable:RouteTable",
      name: "routes",
      count: 1,
      about: "0.0.0.0/0 \u2192 the internet gateway"
    },
    {
      type: "aws:ec2/routeTableAssociation:RouteTableAssociation",
      name: "routes-subnet",
      count: 1,
      about: ""
    },
    {
      type: "aws:ec2/securityGroup:SecurityGroup",
      name: "cluster",
      count: 1,
      about: `SSH (22/tcp) only from ${aws.ssh_cidr ?? "the runner's address/32"}; all traffic only from members of this group; all egress`
    },
    {
      type: "aws:ec2/keyPair:KeyPair",
      name: "key",
      count: 1,
      about: "RSA key generated for this run (private key: <run>/cloud/id_rsa, 0600)"
    }
  ];
  for (const [type, ms] of byType)
    list.push({
      type: "aws:ec2/instance:Instance",
      name: ms.map((m) => m.name).join(", "),
      count: ms.length,
      about: `${type}${aws.spot ? " spot" : " on-demand"}, root ${aws.root_volume_gb} GB gp3${ms[0]?.dataVolumeGb ? `, data ${ms[0].dataVolumeGb} GB gp3` : ""}`
    });
  return list;
}
function instancePrice(region, type, where = "roles") {
  const table = AWS_PRICES.instances[region];
  if (!table)
    throw new InputError(
      `aws.region ${region}: the price table (infra/prices/aws.ts) has no prices for it; regions priced: ${Object.keys(AWS_PRICES.instances).join(", ")}`
    );
  const price = table[type];
  if (price === void 0)
    throw new InputError(
      `${where}: instance type ${type} has no price in infra/prices/aws.ts for ${region} (priced: ${Object.keys(table).join(", ")}); add it with its source`
    );
  return price;
}
function estimateCost(profile, hours) {
  const aws = awsOf(profile);
  const counts = /* @__PURE__ */ new Map();
  for (const m of machinesOf(profile)) counts.set(m.instanceType, (counts.get(m.instanceType) ?? 0) + 1);
  const lines = [];
  for (const [type, count] of counts)
    lines.push({
      what: type,
      count,
      perHour: instancePrice(
        aws.region,
        type,
        type === aws.load.instance_type ? "aws.load.instance_type" : "roles.*.instance_type"
      )
    });
  const gbMonth = AWS_PRICES.gp3_gb_month[aws.region] ?? 0.08;
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
    priceTable: { as_of: AWS_PRICES.as_of, source: AWS_PRICES.source },
    spot: aws.spot
  };
}
function outlivesTtl(profile, estimate) {
  return estimate.hours * 36e5 > parseTtl(awsOf(profile).ttl);
}
function checkBudget(profile, estimate, file) {
  if (outlivesTtl(profile, estimate))
    throw new InputError(
      `${file}: aws.ttl is ${awsOf(profile).ttl} but this run is estimated at ${estimate.hours.toFixed(2)} h: the reaper would remove the cluster mid-run; nothing was created. Raise the ttl or shorten the matrix`
    );
  const budget = profile.aws?.budget;
  if (budget !== void 0 && estimate.dollars > budget)
    throw new InputError(
      `${file}: aws.budget is $${budget.toFixed(2)} but this run is estimated at $${estimate.dollars.toFixed(2)} (${estimate.hours.toFixed(2)} h \xD7 $${estimate.perHour.toFixed(2)}/h); nothing was created. Raise the budget, shorten the matrix or pick smaller instance types`
    );
}
function costText(e) {
  const lines = [
    `estimated cost: $${e.dollars.toFixed(2)} (${e.hours.toFixed(2)} h \xD7 $${e.perHour.toFixed(3)}/h on-demand in ${e.region}${e.spot ? "; spot instances usually cost less" : ""})`
  ];
  for (const l of e.lines)
    lines.push(
      `  ${String(l.count).padStart(4)} \xD7 ${l.what.padEnd(14)} $${l.perHour.toFixed(l.what.includes("GB") ? 5 : 4)}/h`
    );
  lines.push(`  prices as of ${e.priceTable.as_of}: ${e.priceTable.source}`);
  return lines.join("\n");
}
function placeholderHosts(profile) {
  const hosts = {};
  for (const m of machinesOf(profile)) hosts[m.role] = [...hosts[m.role] ?? [], m.name];
  return { hosts, bastion: "<load-1 public address>", identityFile: "<run>/cloud/id_rsa" };
}
function withHosts(profile, c) {
  const aws = awsOf(profile);
  const list = (role) => c.hosts[role]?.length ? { [role]: c.hosts[role] } : {};
  const port = c.sshPort ?? 22;
  return {
    ...profile,
    hosts: { ...list("pd"), ...list("tikv"), ...list("tidb"), ...list("tiflash"), ...list("load") },
    ssh: {
      user: aws.ssh_user,
      port,
      identity_file: c.identityFile,
      proxy: { host: c.bastion, user: aws.ssh_user, port, identity_file: c.identityFile }
    }
  };
}
function cloudPlanText(profile, estimate, tags) {
  const aws = awsOf(profile);
  const lines = [
    `cloud: aws ${aws.region} (zone ${aws.zone ?? `${aws.region}a`}), ${aws.spot ? "spot" : "on-demand"}, ttl ${aws.ttl}, state ${aws.backend ?? "file://<run>/cloud/state"}`,
    `resources Pulumi would create (stack tiperf-${profile.name}-<pr N, branch or local>):`
  ];
  for (const r of resourcesOf(profile))
    lines.push(`  ${String(r.count).padStart(2)} \xD7 ${r.type} ${r.name}${r.about ? `    # ${r.about}` : ""}`);
  lines.push("tags on every resource (the provider's default tags; volumes get them too):");
  for (const [k, v] of Object.entries(tagsOf(tags))) lines.push(`  ${k} = ${v}`);
  lines.push(costText(estimate));
  const budget = aws.budget;
  if (budget !== void 0)
    lines.push(
      estimate.dollars > budget ? `budget: $${budget.toFixed(2)}: OVER: a run would be refused before anything is created` : `budget: $${budget.toFixed(2)}: within (estimate $${estimate.dollars.toFixed(2)})`
    );
  if (outlivesTtl(profile, estimate))
    lines.push(
      `ttl: ${aws.ttl}: SHORTER than the run (${estimate.hours.toFixed(2)} h): a run would be refused before anything is created`
    );
  lines.push("hosts below are the machines' names; at run time they are the private addresses `up` returns");
  return `${lines.join("\n")}

`;
}

export {
  TAG,
  tagsOf,
  runTags,
  machinesOf,
  estimateCost,
  checkBudget,
  placeholderHosts,
  withHosts,
  cloudPlanText
};
