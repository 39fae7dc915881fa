#!/usr/bin/env node
import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path';
const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);
import {
  COMMON_SETTINGS,
  IAM_ROLE_PATH,
  KUBERNETES_SETTINGS,
  TAG,
  external_exports,
  operatorResources,
  runTags,
  tagsOf,
  ttlMs
} from "./chunk-WCKSSEMK.js";
import {
  InputError,
  RunError,
  clusterName,
  findTool,
  gcpLabels,
  inherited,
  runCommand,
  setting
} from "./chunk-KJWZ2OYQ.js";

// action/src/cloud/provision.ts
import { mkdir as mkdir3, rm as rm2 } from "node:fs/promises";
import { join as join3 } from "node:path";

// action/src/lifecycle/ledger.ts
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, rmdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, sep } from "node:path";
var defaultLedger = () => join(tmpdir(), "tiperf-ledger");
var chosenLedger;
function useLedger(dir) {
  chosenLedger = dir;
}
var ledgerDir = (env = inherited()) => chosenLedger ?? (env.TIPERF_LEDGER || defaultLedger());
async function record(entry) {
  const dir = ledgerDir();
  const file = join(dir, `${entry.resource}-${randomBytes(4).toString("hex")}.json`);
  const full = { ...entry, owner: process.pid, started_at: (/* @__PURE__ */ new Date()).toISOString() };
  let made;
  for (let attempt = 0; ; attempt++) {
    made = await mkdir(dir, { recursive: true }) ?? made;
    try {
      await writeFile(file, `${JSON.stringify(full)}
`, { flag: "wx" });
      break;
    } catch (e) {
      if (e.code !== "ENOENT" || attempt >= 4) throw e;
    }
  }
  return async () => {
    await rm(file, { force: true });
    await removeEmpty(dir, made);
  };
}
async function removeEmpty(dir, made) {
  const root = defaultLedger();
  const top = made ?? (dir === root || dir.startsWith(`${root}${sep}`) ? root : void 0);
  if (top === void 0) return;
  for (let d = dir; d.length >= top.length; d = dirname(d)) {
    try {
      await rmdir(d);
    } catch (e) {
      const code = e.code;
      if (code === "ENOTEMPTY" || code === "EEXIST" || code === "ENOTDIR") return;
      if (code !== "ENOENT") throw e;
    }
    if (d === top) return;
  }
}
var alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
};
async function entriesIn(dir, log) {
  const files = [];
  for (const f of (await readdir(dir, { withFileTypes: true })).sort(
    (a, b) => a.name.localeCompare(b.name)
  )) {
    if (f.isFile() && f.name.endsWith(".json")) files.push(f.name);
    if (f.isDirectory()) {
      for (const g of (await readdir(join(dir, f.name))).sort())
        if (g.endsWith(".json")) files.push(join(f.name, g));
    }
  }
  const entries = [];
  for (const f of files) {
    try {
      const e = JSON.parse(await readFile(join(dir, f), "utf8"));
      entries.push([join(dir, f), { ...e, resource: e.resource ?? e.kind }]);
    } catch {
      log(`reap: ${join(dir, f)} is not a ledger entry; left alone`);
    }
  }
  return entries;
}
async function reapEntries(opts) {
  const dir = opts.dir ?? ledgerDir();
  const out = { reaped: [], kept: [] };
  if (!existsSync(dir)) return out;
  const orderOf = (e) => opts.reapers[e.resource]?.order ?? Number.POSITIVE_INFINITY;
  const entries = (await entriesIn(dir, opts.log)).sort(([, a], [, b]) => orderOf(a) - orderOf(b));
  for (const [file, e] of entries) {
    const age = Date.now() - Date.parse(e.started_at);
    const due = opts.maxAgeMs === void 0 || !alive(e.owner) || age > opts.maxAgeMs;
    const reaper = opts.reapers[e.resource];
    if (!due || !reaper) {
      if (!reaper) opts.log(`reap: ${file}: no reaper for entries of resource ${e.resource}; left alone`);
      out.kept.push(e);
      continue;
    }
    const ageText = `${Math.round(age / 6e4)} min old, owner ${e.owner} ${alive(e.owner) ? "running" : "gone"}`;
    if (opts.dryRun) {
      opts.log(`reap (dry run): would ${reaper.describe(e)} (${ageText})`);
      out.reaped.push(e);
      continue;
    }
    try {
      opts.log(`reap: ${e.what} (${ageText})`);
      await reaper.reap(e, opts.log);
      await rm(file, { force: true });
      out.reaped.push(e);
    } catch (err) {
      opts.log(`reap: ${e.what}: entry kept: ${err.message.split("\n")[0]}`);
      out.kept.push(e);
    }
  }
  if (!opts.dryRun) for (const sub of await readdir(dir).catch(() => [])) await removeEmpty(join(dir, sub));
  if (!opts.dryRun) await removeEmpty(dir);
  return out;
}

// action/src/proc/quote.ts
function shellQuote(arg) {
  if (arg === "") return "''";
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}
function shellCommand(argv) {
  return argv.map(shellQuote).join(" ");
}

// action/src/proc/ssh.ts
var WRAPPER = [
  "exec 3<&0",
  "n=$1; shift",
  'setsid "$@" </dev/null 3<&- & p=$!',
  '( while read -r s; do kill -s "$s" -- "-$p" 2>/dev/null || kill -s "$s" "$p" 2>/dev/null; done; kill -s TERM -- "-$p" 2>/dev/null; sleep 3; kill -s KILL -- "-$p" 2>/dev/null ) <&3 & w=$!',
  "exec 3<&-",
  't=""',
  `if [ -n "$n" ]; then setsid sh -c 'sleep "$1"; kill -s INT -- "-$2" 2>/dev/null || kill -s INT "$2"' sh "$n" "$p" </dev/null & t=$!; fi`,
  'wait "$p"; s=$?',
  'kill "$w" 2>/dev/null',
  'if [ -n "$t" ]; then kill -- "-$t" 2>/dev/null; fi',
  'exit "$s"'
].join("\n");
function remoteCommand(argv, stopAfterS) {
  return shellCommand([
    "sh",
    "-c",
    WRAPPER,
    "sh",
    stopAfterS === void 0 ? "" : String(stopAfterS),
    ...argv
  ]);
}
function sshPath(path) {
  if (/["\n\\]/.test(path))
    throw new RunError(
      `ssh cannot be given the path ${JSON.stringify(path)}: it holds a double quote, backslash or newline`
    );
  return `"${path.replace(/%/g, "%%")}"`;
}
function hostOptions(h) {
  return [
    "-o",
    "BatchMode=yes",
    "-o",
    "StrictHostKeyChecking=accept-new",
    // "Permanently added … to the list of known hosts" would land in the tool's output
    "-o",
    "LogLevel=ERROR",
    ...h.knownHosts ? ["-o", `UserKnownHostsFile=${sshPath(h.knownHosts)}`] : [],
    "-o",
    "ServerAliveInterval=15",
    "-o",
    "ServerAliveCountMax=4",
    "-o",
    "ConnectTimeout=15",
    "-p",
    String(h.port),
    ...h.identity ? ["-o", `IdentityFile=${sshPath(h.identity)}`, "-o", "IdentitiesOnly=yes"] : [],
    "-l",
    h.user,
    ...h.jump ? ["-o", `ProxyCommand=${proxyCommand(h.jump)}`] : []
  ];
}
function proxyCommand(jump) {
  const args = ["ssh", ...hostOptions(jump), "-W", "%h:%p", jump.host];
  return args.map((a) => a === "%h:%p" ? a : shellCommand([a]).replace(/%/g, "%%")).join(" ");
}
function sshArgs(h, remote) {
  return [...hostOptions(h), h.host, "--", remote];
}

// action/src/cloud/keys.ts
import { generateKeyPairSync } from "node:crypto";
import { writeFile as writeFile2 } from "node:fs/promises";
function wire(bytes) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(bytes.length);
  return Buffer.concat([len, bytes]);
}
function mpint(b64url) {
  let bytes = Buffer.from(b64url, "base64url");
  if ((bytes[0] ?? 0) & 128) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return wire(bytes);
}
function generateRunKey(comment) {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 3072 });
  const jwk = publicKey.export({ format: "jwk" });
  const blob = Buffer.concat([wire(Buffer.from("ssh-rsa")), mpint(jwk.e), mpint(jwk.n)]);
  return {
    publicKey: `ssh-rsa ${blob.toString("base64")} ${comment}`,
    privateKey: privateKey.export({ format: "pem", type: "pkcs1" }).toString()
  };
}
async function writePrivateKey(file, key) {
  await writeFile2(file, key.privateKey, { mode: 384, flag: "wx" });
}

// action/src/cloud/cost.ts
function estimateCost(cloud, ask, hours) {
  const prices = cloud.prices(ask);
  const perHour = prices.lines.reduce((sum, l) => sum + l.count * l.perHour, 0);
  const total = hours.setup + hours.matrix;
  return {
    perHour,
    hours: total,
    dollars: perHour * total,
    lines: prices.lines,
    priceTable: prices.priceTable,
    terms: prices.terms
  };
}
function measuredCost(o) {
  const hours = ((o.endedAt ?? Date.now()) - o.startedAt) / 36e5;
  return {
    currency: "USD",
    basis: "measured",
    profile: o.profile,
    per_hour: o.perHour,
    hours: Math.round(hours * 1e3) / 1e3,
    dollars: Math.round(o.perHour * hours * 100) / 100,
    prices_as_of: o.asOf
  };
}
function outlivesTtl(ask, estimate) {
  return estimate.hours * 36e5 > ttlMs(ask.settings.ttl);
}
function checkBudget(ask, estimate, file, section) {
  if (outlivesTtl(ask, estimate))
    throw new InputError(
      `${file}: ${section}.ttl is ${ask.settings.ttl} but this run is estimated at ${estimate.hours.toFixed(2)} h: the reaper would remove the cluster mid-run; nothing was created. Raise the ttl or shorten the matrix`
    );
  const budget = ask.settings.budget;
  if (budget !== void 0 && estimate.dollars > budget)
    throw new InputError(
      `${file}: ${section}.budget is $${budget.toFixed(2)} but this run is estimated at $${estimate.dollars.toFixed(2)} (${estimate.hours.toFixed(2)} h \xD7 $${estimate.perHour.toFixed(2)}/h); nothing was created. Raise the budget, shorten the matrix or pick smaller instance types`
    );
}
function estimateText(e) {
  const lines = [
    `estimated cost: $${e.dollars.toFixed(2)} (${e.hours.toFixed(2)} h \xD7 $${e.perHour.toFixed(3)}/h ${e.terms})`
  ];
  for (const l of e.lines)
    lines.push(
      `  ${String(l.count).padStart(4)} \xD7 ${l.what.padEnd(14)} $${l.perHour.toFixed(l.what.includes("GB") ? 5 : 4)}/h`
    );
  lines.push(`  prices as of ${e.priceTable.as_of}: ${e.priceTable.source}`);
  return lines.join("\n");
}
function poolMachineLines(ask, price) {
  const counts = /* @__PURE__ */ new Map();
  for (const p of ask.pools) {
    const c = counts.get(p.machineType);
    counts.set(p.machineType, {
      count: (c?.count ?? 0) + p.count,
      key: c?.key ?? (p.name === "load" ? "kubernetes.load.instance_type" : `roles.${p.name}.instance_type`)
    });
  }
  return [...counts].map(([type, c]) => ({ what: type, count: c.count, perHour: price(type, c.key) }));
}

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
  gp3_gb_month: { "us-east-1": 0.08, "us-west-2": 0.08 },
  /** An EKS cluster's own fee (standard Kubernetes version support), $/h (aws.amazon.com/eks/pricing/). */
  cluster_hour: 0.1
};

// infra/prices/gcp.ts
var GCP_PRICES = {
  as_of: "2026-11-26",
  source: "Google Cloud list prices (cloud.google.com/compute/vm-instance-pricing, /compute/disks-image-pricing, /kubernetes-engine/pricing), on-demand; recorded by hand, not read from the Cloud Billing API",
  currency: "USD",
  /** $/h per machine type, per region. */
  instances: {
    "us-central1": {
      "e2-standard-4": 0.134012,
      "n1-standard-4": 0.189999,
      "n1-standard-8": 0.379998,
      "n2-standard-8": 0.388472,
      "c2-standard-8": 0.41744,
      "c2-standard-16": 0.83488,
      "c2-standard-30": 1.5654
    }
  },
  /** Persistent disk, $ per GB-month (a month is 730 hours), per disk type, per region. */
  disk_gb_month: {
    "us-central1": { "pd-standard": 0.04, "pd-balanced": 0.1, "pd-ssd": 0.17 }
  },
  /** GKE's management fee per cluster-hour (Standard edition, zonal or regional). */
  cluster_hour: 0.1
};

// infra/index.ts
var CLOUD_INFRA = {
  aws: {
    prices: AWS_PRICES,
    program: () => import("./chunk-XGCXD4QG.js").then((m) => m.awsClusterProgram)
  },
  eks: {
    prices: AWS_PRICES,
    program: () => import("./chunk-GKRMAAZ5.js").then((m) => m.eksClusterProgram)
  },
  gcp: {
    prices: GCP_PRICES,
    program: () => import("./chunk-7NRIASU3.js").then((m) => m.gkeClusterProgram)
  }
};

// action/src/cloud/infra.ts
function pricesOf(cloud) {
  const table = CLOUD_INFRA[cloud]?.prices;
  if (!table) throw new Error(`infra/index.ts has no price table for cloud ${cloud}`);
  return table;
}
async function withPulumi(load) {
  try {
    return await load;
  } catch (e) {
    const err = e;
    if (err.code !== "ERR_MODULE_NOT_FOUND" || !/@pulumi\//.test(err.message)) throw e;
    throw new RunError(
      `a cloud run loads Pulumi's npm packages as installed, and they are not installed beside tiperf (${err.message.split("\n")[0]}): run scripts/setup.sh --cloud (it installs the versions pinned in action/package.json into action/node_modules; the Action's setup does so when the profile is a cloud)`
    );
  }
}
function programOf(cloud) {
  return withPulumi(CLOUD_INFRA[cloud].program());
}

// action/src/cloud/aws/resources.ts
var awsOf = (ask) => ask.settings;
function machinesOf(ask) {
  const aws = awsOf(ask);
  const out = [];
  for (const r of ask.roles)
    for (let i = 1; i <= r.count; i++)
      out.push({
        name: `${r.role}-${i}`,
        role: r.role,
        instanceType: r.instanceType,
        ...aws.data_volume_gb && r.data ? { dataVolumeGb: aws.data_volume_gb } : {}
      });
  out.push({ name: "load-1", role: "load", instanceType: aws.load.instance_type });
  return out;
}
var zoneOf = (aws) => aws.zone ?? `${aws.region}a`;
function where(ask) {
  const aws = awsOf(ask);
  return `aws ${aws.region} (zone ${zoneOf(aws)}), ${aws.spot ? "spot" : "on-demand"}`;
}
function resourcesOf(ask) {
  const aws = awsOf(ask);
  const byType = /* @__PURE__ */ new Map();
  for (const m of machinesOf(ask)) byType.set(m.instanceType, [...byType.get(m.instanceType) ?? [], m]);
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
      about: `10.42.1.0/24 in ${zoneOf(aws)}, public addresses on launch`
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
function instancePrice(region, type, where3 = "roles") {
  const table = pricesOf("aws").instances[region];
  if (!table)
    throw new InputError(
      `aws.region ${region}: the price table (infra/prices/aws.ts) has no prices for it; regions priced: ${Object.keys(pricesOf("aws").instances).join(", ")}`
    );
  const price = table[type];
  if (price === void 0)
    throw new InputError(
      `${where3}: instance type ${type} has no price in infra/prices/aws.ts for ${region} (priced: ${Object.keys(table).join(", ")}); add it with its source`
    );
  return price;
}
function pricesPerHour(ask) {
  const aws = awsOf(ask);
  const machines = machinesOf(ask);
  const counts = /* @__PURE__ */ new Map();
  for (const m of machines) counts.set(m.instanceType, (counts.get(m.instanceType) ?? 0) + 1);
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
  const table = pricesOf("aws");
  const gbMonth = table.gp3_gb_month?.[aws.region] ?? 0.08;
  const gb = machines.reduce((sum, m) => sum + aws.root_volume_gb + (m.dataVolumeGb ?? 0), 0);
  lines.push({ what: "gp3 GB", count: gb, perHour: gbMonth / 730 });
  return {
    lines,
    priceTable: { as_of: table.as_of, source: table.source },
    terms: `on-demand in ${aws.region}${aws.spot ? "; spot instances usually cost less" : ""}`
  };
}

// action/src/cloud/aws/settings.ts
var REGION = /^[a-z]{2}(-gov)?-[a-z]+-\d$/;
var AwsSettingsSchema = external_exports.strictObject({
  ...COMMON_SETTINGS,
  region: external_exports.string().regex(REGION, "must be an AWS region like us-west-2"),
  /** The availability zone (default the region's first, `<region>a`). */
  zone: external_exports.string().optional(),
  /** The image every machine boots: the newest AMI of `owner` whose name matches `name`. */
  ami: external_exports.strictObject({
    owner: external_exports.string().regex(/^(\d{12}|amazon|self)$/, "must be an account id (12 digits), amazon or self"),
    name: external_exports.string().min(1)
  }).default({
    // Canonical's Ubuntu 22.04 LTS (tiup supports it; numactl and ext4 tools in its archive)
    owner: "099720109477",
    name: "ubuntu/images/hvm-ssd*/ubuntu-jammy-22.04-amd64-server-*"
  }),
  /** The login user of the AMI (tiup deploys with it and creates the cluster's own user). */
  ssh_user: external_exports.string().regex(/^[a-z_][a-z0-9_-]{0,31}$/, "must be a Linux user name").default("ubuntu"),
  spot: external_exports.boolean().default(false),
  /** Root volume of every machine (gp3), GB; data goes to a TiKV machine's instance store if it has one. */
  root_volume_gb: external_exports.number().int().min(8).max(16384).default(100),
  /** An extra gp3 data volume per TiKV/TiFlash machine, GB (for instance types without local NVMe). */
  data_volume_gb: external_exports.number().int().min(1).max(16384).optional()
}).superRefine((a, ctx) => {
  if (a.zone !== void 0 && !a.zone.startsWith(a.region))
    ctx.addIssue({
      code: "custom",
      path: ["zone"],
      message: `must be a zone of ${a.region}, like ${a.region}a`
    });
});

// action/src/cloud/aws/eks.ts
var EksSettingsSchema = external_exports.strictObject({
  ttl: COMMON_SETTINGS.ttl,
  budget: COMMON_SETTINGS.budget,
  backend: COMMON_SETTINGS.backend,
  region: external_exports.string().regex(REGION, "must be an AWS region like us-west-2"),
  /** The zones of its subnets: EKS asks for two at least; default the region's a and b. */
  zones: external_exports.array(external_exports.string().min(1)).min(2, "EKS needs subnets in two zones at least").optional(),
  /** The cluster's Kubernetes version (like 1.33); default EKS's. */
  kubernetes_version: external_exports.string().regex(/^1\.\d+$/, "must be a Kubernetes minor version like 1.33").optional(),
  /** Every node's root volume, GB; TiKV's data is on its PersistentVolume (EBS). */
  disk_gb: external_exports.number().int().min(20).max(16384).default(100),
  /** api_cidr (the public endpoint's access CIDRs) and operator. */
  ...KUBERNETES_SETTINGS
}).superRefine((e, ctx) => {
  for (const [i, zone] of (e.zones ?? []).entries())
    if (!new RegExp(`^${e.region}[a-z]$`).test(zone))
      ctx.addIssue({
        code: "custom",
        path: ["zones", i],
        message: `must be a zone of ${e.region}, like ${e.region}a`
      });
});
var eksOf = (ask) => ask.settings;
var eksZones = (e) => e.zones ?? [`${e.region}a`, `${e.region}b`];
var NODEGROUP_LABEL = "eks.amazonaws.com/nodegroup";
function groupsOf(ask) {
  const zones = eksZones(eksOf(ask));
  return ask.pools.map((p) => ({
    name: p.name,
    count: p.count,
    instanceType: p.machineType,
    zones: p.name === "load" ? zones.slice(0, 1) : zones
  }));
}
function resourcesOf2(ask) {
  const e = eksOf(ask);
  const zones = eksZones(e);
  const list = [
    { type: "aws:ec2/vpc:Vpc", name: "vpc", count: 1, about: "10.43.0.0/16" },
    { type: "aws:ec2/internetGateway:InternetGateway", name: "igw", count: 1, about: "" },
    {
      type: "aws:ec2/routeTable:RouteTable",
      name: "routes",
      count: 1,
      about: "0.0.0.0/0 \u2192 the internet gateway"
    },
    {
      type: "aws:ec2/subnet:Subnet",
      name: zones.map((z) => `subnet-${z}`).join(", "),
      count: zones.length,
      about: "a public /24 per zone, tagged for load balancers"
    },
    {
      type: "aws:ec2/routeTableAssociation:RouteTableAssociation",
      name: zones.map((z) => `routes-${z}`).join(", "),
      count: zones.length,
      about: ""
    },
    {
      type: "aws:iam/role:Role",
      name: "cluster-role, node-role",
      count: 2,
      about: "assumed by EKS and by EC2"
    },
    {
      type: "aws:iam/rolePolicyAttachment:RolePolicyAttachment",
      name: "cluster-policy, node-*",
      count: 5,
      about: "AmazonEKSClusterPolicy; worker node, CNI, registry read-only, EBS CSI driver"
    },
    {
      type: "aws:eks/cluster:Cluster",
      name: "cluster",
      count: 1,
      about: `${e.kubernetes_version ? `Kubernetes ${e.kubernetes_version}, ` : ""}public endpoint${e.api_cidr ? ` only from ${e.api_cidr}` : ""}, access entries (the creator is admin)`
    }
  ];
  for (const g of groupsOf(ask))
    list.push({
      type: "aws:eks/nodeGroup:NodeGroup",
      name: g.name,
      count: 1,
      about: `${g.count} \xD7 ${g.instanceType} (fixed size) in ${g.zones.join(", ")}, ${e.disk_gb} GB root, label ${NODEGROUP_LABEL}=${g.name}`
    });
  list.push(
    { type: "aws:eks/addon:Addon", name: "aws-ebs-csi-driver", count: 1, about: "PersistentVolumes on EBS" },
    ...operatorResources(e.operator)
  );
  return list;
}
function pricesPerHour2(ask) {
  const e = eksOf(ask);
  const table = pricesOf("aws");
  const lines = poolMachineLines(ask, (type, key) => instancePrice(e.region, type, key));
  const gb = (table.gp3_gb_month?.[e.region] ?? 0.08) / 730;
  const nodes = ask.pools.reduce((s, p) => s + p.count, 0);
  lines.push({ what: "gp3 GB", count: nodes * e.disk_gb + (ask.volumesGb ?? 0), perHour: gb });
  lines.push({ what: "EKS cluster", count: 1, perHour: table.cluster_hour ?? 0.1 });
  return {
    lines,
    priceTable: { as_of: table.as_of, source: table.source },
    terms: `on-demand in ${e.region}; the TidbClusters' volumes priced as gp3`
  };
}
var clusterName2 = (runId) => `tiperf-${runId.replace(/^tiperf-/, "").replace(/[^A-Za-z0-9_-]/g, "-")}`.slice(0, 100);
var AWS_EKS = {
  name: "eks",
  product: "EKS",
  // the control plane (~10 min) and the node groups after it
  createSeconds: 1200,
  settings: EksSettingsSchema,
  where(ask) {
    const e = eksOf(ask);
    return `EKS in ${e.region} over ${eksZones(e).join(", ")}, on-demand`;
  },
  resources: resourcesOf2,
  prices: pricesPerHour2,
  poolSelector: (pool) => ({ [NODEGROUP_LABEL]: pool }),
  // AWS takes tiperf's tags as they are
  labels: (tags) => ({ ...tags }),
  async program(o) {
    const e = eksOf(o.ask);
    const runId = o.labels[TAG.runId];
    if (!runId) throw new InputError("eks: the run's tags have no run id");
    const eksClusterProgram = await programOf("eks");
    return eksClusterProgram({
      region: e.region,
      zones: eksZones(e),
      name: clusterName2(runId),
      ...e.kubernetes_version ? { kubernetesVersion: e.kubernetes_version } : {},
      pools: groupsOf(o.ask),
      diskGb: e.disk_gb,
      ...e.api_cidr ? { apiCidr: e.api_cidr } : {},
      operator: { version: e.operator.version, chartRepo: e.operator.chart_repo },
      roles: { path: IAM_ROLE_PATH, tags: { [TAG.region]: e.region } },
      tags: o.labels
    });
  },
  async removeByTag(settings, runId, log) {
    const { removeRunByTag } = await import("./chunk-7SBRMCB5.js");
    return removeRunByTag({ region: settings.region, runId, log });
  },
  env: (settings) => ({ AWS_REGION: settings.region })
};

// action/src/cloud/aws/user-data.ts
function packagesOf(m) {
  const base = ["numactl", "chrony", "curl"];
  return m.role === "load" ? [...base, "sysbench", "haproxy", "mariadb-client"] : base;
}
function userData(m) {
  const lines = [
    "#!/bin/bash",
    `# tiperf: first boot of ${m.name} (${m.role})`,
    "set -euxo pipefail",
    // kernel settings from the seeds (seed 000): no swapping, deep accept queues, no SYN cookies
    "cat > /etc/sysctl.d/90-tiperf.conf <<'EOF'",
    "vm.swappiness = 0",
    "net.core.somaxconn = 32768",
    "net.ipv4.tcp_syncookies = 0",
    "fs.file-max = 1000000",
    "EOF",
    "sysctl --system",
    "swapoff -a",
    "cat > /etc/security/limits.d/90-tiperf.conf <<'EOF'",
    "* soft nofile 1000000",
    "* hard nofile 1000000",
    "* soft stack 32768",
    "* hard stack 32768",
    "EOF",
    // transparent huge pages off, as TiDB's deployment checklist asks
    "echo never > /sys/kernel/mm/transparent_hugepage/enabled || true",
    "echo never > /sys/kernel/mm/transparent_hugepage/defrag || true",
    "export DEBIAN_FRONTEND=noninteractive",
    "apt-get update -qq",
    `apt-get install -y -qq ${packagesOf(m).join(" ")}`
  ];
  if (m.role === "tikv" || m.role === "tiflash")
    lines.push(
      // the first whole disk that is not the root disk and has no partitions: the instance store
      // (NVMe) or the data volume; ext4 mounted nodelalloc,noatime as TiKV's docs and seed 000 do
      'root_disk=$(lsblk -no PKNAME "$(findmnt -no SOURCE /)")',
      `data_disk=$(lsblk -dn -o NAME,TYPE | awk -v r="$root_disk" '$2=="disk" && $1!=r {print $1; exit}')`,
      'if [ -n "$data_disk" ]; then',
      '  mkfs.ext4 -q -F "/dev/$data_disk"',
      "  mkdir -p /tidb-data",
      '  echo "/dev/$data_disk /tidb-data ext4 defaults,nodelalloc,noatime 0 2" >> /etc/fstab',
      "  mount /tidb-data",
      "fi"
    );
  lines.push("touch /var/lib/tiperf-ready");
  return `${lines.join("\n")}
`;
}

// action/src/cloud/aws/index.ts
var CHECK_IP = "https://checkip.amazonaws.com";
var AWS_CLOUD = {
  name: "aws",
  settings: AwsSettingsSchema,
  region: { pattern: REGION, example: "us-west-2" },
  where,
  machines: machinesOf,
  resources: resourcesOf,
  prices: pricesPerHour,
  async program(o) {
    const awsClusterProgram = await programOf("aws");
    return awsClusterProgram(programArgs(o));
  },
  async removeByTag(settings, runId, log) {
    const { removeRunByTag } = await import("./chunk-7SBRMCB5.js");
    return removeRunByTag({ region: settings.region, runId, log });
  },
  async reap(o) {
    const { reapAws } = await import("./chunk-7SBRMCB5.js");
    return reapAws(o);
  },
  env: (settings) => ({ AWS_REGION: settings.region }),
  async runnerCidr(settings) {
    if (settings.ssh_cidr) return settings.ssh_cidr;
    let text;
    try {
      const res = await fetch(CHECK_IP, { signal: AbortSignal.timeout(1e4) });
      text = (await res.text()).trim();
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
    } catch (e) {
      throw new RunError(
        `cannot learn this runner's public address from ${CHECK_IP} (${e.message}): set aws.ssh_cidr in the profile (the address SSH comes from, like 203.0.113.7/32)`
      );
    }
    if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(text))
      throw new RunError(
        `${CHECK_IP} answered ${JSON.stringify(text.slice(0, 60))}, not an IPv4 address: set aws.ssh_cidr in the profile`
      );
    return `${text}/32`;
  },
  ready: () => ["test", "-e", "/var/lib/tiperf-ready"]
};
function programArgs(o) {
  return {
    settings: awsOf(o.ask),
    machines: machinesOf(o.ask).map((m) => ({ ...m, userData: userData(m) })),
    tags: o.tags,
    sshCidr: o.sshCidr,
    publicKey: o.publicKey,
    ...o.endpoint ? { endpoint: o.endpoint } : {}
  };
}

// action/src/cloud/gcp/settings.ts
var REGION2 = /^[a-z]+-[a-z]+\d+$/;
var GcpSettingsSchema = external_exports.strictObject({
  ttl: COMMON_SETTINGS.ttl,
  budget: COMMON_SETTINGS.budget,
  backend: external_exports.string().regex(/^(file|gs):\/\/\S+$/, "must be a file:// or gs:// URL").optional(),
  /** The project the cluster is created in (its id, not its name). */
  project: external_exports.string().regex(/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/, "must be a GCP project id like tiperf-bench-1"),
  region: external_exports.string().regex(REGION2, "must be a GCP region like us-central1"),
  /**
   * The zones of the node pools (seed 000: one zone vs three); default the region's "-a" zone.
   * Each pool puts its count of nodes in every zone listed.
   */
  zones: external_exports.array(external_exports.string().min(1)).min(1).optional(),
  /** Every node's boot disk (GB) and type; TiKV's data is on its PersistentVolume, not here. */
  disk_gb: external_exports.number().int().min(10).max(65536).default(100),
  disk_type: external_exports.enum(["pd-standard", "pd-balanced", "pd-ssd"], { error: "must be pd-standard, pd-balanced or pd-ssd" }).default("pd-balanced"),
  /** api_cidr (master authorized networks) and operator. */
  ...KUBERNETES_SETTINGS
}).superRefine((g, ctx) => {
  for (const [i, zone] of (g.zones ?? []).entries())
    if (!new RegExp(`^${g.region}-[a-z]$`).test(zone))
      ctx.addIssue({
        code: "custom",
        path: ["zones", i],
        message: `must be a zone of ${g.region}, like ${g.region}-a`
      });
  if (new Set(g.zones ?? []).size !== (g.zones ?? []).length)
    ctx.addIssue({ code: "custom", path: ["zones"], message: "names a zone twice" });
});
var zonesOf = (g) => g.zones ?? [`${g.region}-a`];

// action/src/cloud/gcp/resources.ts
var gcpOf = (ask) => ask.settings;
var POOL_LABEL = "cloud.google.com/gke-nodepool";
function poolsOf(ask) {
  const zones = zonesOf(gcpOf(ask));
  return ask.pools.map((p) => {
    const at = p.name === "load" ? zones.slice(0, 1) : zones;
    if (p.count % at.length !== 0)
      throw new InputError(
        `roles.${p.name}.count: ${p.count} node(s) cannot be spread evenly over gcp.zones (${zones.join(", ")}): GKE puts the same number in each zone; use a multiple of ${zones.length}`
      );
    return { name: p.name, nodesPerZone: p.count / at.length, machineType: p.machineType, zones: at };
  });
}
function where2(ask) {
  const g = gcpOf(ask);
  const zones = zonesOf(g);
  return zones.length === 1 ? `GKE zonal cluster in ${zones[0]}, project ${g.project}, on-demand` : `GKE regional cluster in ${g.region} over ${zones.join(", ")}, project ${g.project}, on-demand`;
}
function resourcesOf3(ask) {
  const g = gcpOf(ask);
  const list = [
    {
      type: "gcp:container/cluster:Cluster",
      name: "cluster",
      count: 1,
      about: `VPC-native, default node pool removed, deletion protection off${g.api_cidr ? `, API server only from ${g.api_cidr}` : ""}`
    }
  ];
  for (const p of poolsOf(ask))
    list.push({
      type: "gcp:container/nodePool:NodePool",
      name: p.name,
      count: 1,
      about: `${p.nodesPerZone * p.zones.length} \xD7 ${p.machineType} (${p.zones.length > 1 ? `${p.nodesPerZone} in each of ${p.zones.length} zones` : p.zones[0]}), ${g.disk_gb} GB ${g.disk_type} boot disk, no auto-upgrade or auto-repair, label ${POOL_LABEL}=${p.name}`
    });
  list.push(...operatorResources(g.operator));
  return list;
}
function machinePrice(region, type, where3) {
  const table = pricesOf("gcp").instances[region];
  if (!table)
    throw new InputError(
      `gcp.region ${region}: the price table (infra/prices/gcp.ts) has no prices for it; regions priced: ${Object.keys(pricesOf("gcp").instances).join(", ")}`
    );
  const price = table[type];
  if (price === void 0)
    throw new InputError(
      `${where3}: machine type ${type} has no price in infra/prices/gcp.ts for ${region} (priced: ${Object.keys(table).join(", ")}); add it with its source`
    );
  return price;
}
function pricesPerHour3(ask) {
  const g = gcpOf(ask);
  const table = pricesOf("gcp");
  const lines = poolMachineLines(ask, (type, key) => machinePrice(g.region, type, key));
  const disks = table.disk_gb_month?.[g.region] ?? {};
  const nodes = ask.pools.reduce((s, p) => s + p.count, 0);
  lines.push({
    what: `${g.disk_type} GB`,
    count: nodes * g.disk_gb,
    perHour: (disks[g.disk_type] ?? 0.1) / 730
  });
  if (ask.volumesGb)
    lines.push({ what: "volume GB", count: ask.volumesGb, perHour: (disks["pd-balanced"] ?? 0.1) / 730 });
  lines.push({ what: "GKE cluster", count: 1, perHour: table.cluster_hour ?? 0.1 });
  return {
    lines,
    priceTable: { as_of: table.as_of, source: table.source },
    terms: `on-demand in ${g.region}${ask.volumesGb ? "; the TidbClusters' volumes priced as pd-balanced, GKE's default class" : ""}`
  };
}

// action/src/cloud/gcp/index.ts
var GCP_CLOUD = {
  name: "gcp",
  product: "GKE",
  // a zonal cluster and its pools: GKE's documented few minutes each, the chart after them
  createSeconds: 900,
  settings: GcpSettingsSchema,
  where: where2,
  resources: resourcesOf3,
  prices: pricesPerHour3,
  poolSelector: (pool) => ({ [POOL_LABEL]: pool }),
  labels: gcpLabels,
  async program(o) {
    const gkeClusterProgram = await programOf("gcp");
    const g = gcpOf(o.ask);
    return gkeClusterProgram({
      project: g.project,
      region: g.region,
      zones: zonesOf(g),
      name: clusterName(o.labels["tiperf-run-id"] ?? o.ask.name),
      pools: poolsOf(o.ask),
      diskGb: g.disk_gb,
      diskType: g.disk_type,
      ...g.api_cidr ? { apiCidr: g.api_cidr } : {},
      operator: { version: g.operator.version, chartRepo: g.operator.chart_repo },
      labels: o.labels
    });
  },
  async removeByTag(settings, runId, log) {
    const { removeGkeByLabel } = await import("./chunk-DG7BK7SC.js");
    return removeGkeByLabel({ project: settings.project, runId, log });
  },
  env: (settings) => ({
    GOOGLE_PROJECT: settings.project,
    GOOGLE_REGION: settings.region
  })
};

// action/src/cloud/registry.ts
var CLOUDS = {
  aws: AWS_CLOUD
};
var KUBERNETES_CLOUDS = {
  eks: AWS_EKS,
  gcp: GCP_CLOUD
};
function cloudOf(provider) {
  const kind = CLOUDS[provider];
  if (!kind) throw new Error(`no cloud ${provider} (clouds: ${Object.keys(CLOUDS).join(", ")})`);
  return kind;
}

// action/src/cloud/stack.ts
import { existsSync as existsSync2, readdirSync, rmSync } from "node:fs";
import { mkdir as mkdir2 } from "node:fs/promises";
import { dirname as dirname2, join as join2, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// action/src/lifecycle/teardown.ts
var stack = [];
function onTeardown(name, run) {
  const entry = { name, run };
  stack.push(entry);
  return () => {
    const i = stack.indexOf(entry);
    if (i >= 0) stack.splice(i, 1);
  };
}
async function teardownAll(log = () => {
}) {
  while (stack.length > 0) {
    const entry = stack.pop();
    try {
      await entry.run();
    } catch (e) {
      log(`teardown: ${entry.name} failed: ${e.message}`);
    }
  }
}
var Interrupted = class extends Error {
  constructor(signal, exitCode) {
    super(`interrupted by ${signal}`);
    this.signal = signal;
    this.exitCode = exitCode;
    this.name = "Interrupted";
  }
  signal;
  exitCode;
};
var graces = [];
function holdGrace(ms) {
  const token = { ms };
  graces.push(token);
  return () => {
    const i = graces.indexOf(token);
    if (i >= 0) graces.splice(i, 1);
  };
}
var installed = false;
function installSignalTeardown(abort, log, graceMs = 6e4) {
  if (installed) return;
  installed = true;
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
    ["SIGHUP", 129]
  ]) {
    process.on(signal, () => {
      if (abort.signal.aborted) return;
      log(`tiperf: ${signal} received: stopping and tearing down`);
      abort.abort(new Interrupted(signal, code));
      const grace = Math.max(graceMs, ...graces.map((g) => g.ms));
      setTimeout(() => {
        log(`tiperf: still unwinding after ${grace / 1e3}s: tearing down directly`);
        void teardownAll(log).finally(() => process.exit(code));
      }, grace).unref();
    });
  }
}
function installCrashTeardown(log, describe) {
  let crashed = false;
  const crash = (e) => {
    if (crashed) return;
    crashed = true;
    log(`error: ${describe(e)}`);
    void teardownAll(log).finally(() => process.exit(3));
  };
  process.on("uncaughtException", crash);
  process.on("unhandledRejection", crash);
}

// action/src/cloud/stack.ts
var automation;
var loadAutomation = () => {
  automation ??= withPulumi(import("@pulumi/pulumi/automation/index.js")).then(
    (m) => m.default ?? m
  );
  return automation;
};
var PROJECT = "tiperf";
var STACK_GRACE_MS = 15 * 6e4;
function pulumiBinary() {
  const fromEnv = setting("TIPERF_PULUMI");
  if (fromEnv) return fromEnv;
  const onPath = findTool("pulumi");
  if (onPath) return onPath;
  const tools = resolve(".tools/bin/pulumi");
  if (existsSync2(tools)) return tools;
  throw new RunError(
    "the Pulumi CLI is not installed: install it (pulumi.com/docs/install) or run scripts/setup.sh --test, which builds it into .tools/bin"
  );
}
async function dynamicProviderPlugin(dir) {
  const { writeFile: writeFile3 } = await import("node:fs/promises");
  const entry = fileURLToPath(import.meta.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js"));
  await mkdir2(dir, { recursive: true });
  const file = join2(dir, "pulumi-resource-pulumi-nodejs");
  await writeFile3(
    file,
    `#!/bin/sh
exec ${JSON.stringify(process.execPath)} ${JSON.stringify(entry)} "$@"
`,
    {
      mode: 493
    }
  );
  return dir;
}
function valuesOf(doc, key, out = /* @__PURE__ */ new Set()) {
  if (Array.isArray(doc)) for (const x of doc) valuesOf(x, key, out);
  else if (doc && typeof doc === "object")
    for (const [k, v] of Object.entries(doc)) {
      if (k === key && typeof v === "string") out.add(v);
      else valuesOf(v, key, out);
    }
  else if (typeof doc === "string" && doc.includes(key) && doc.startsWith("{"))
    try {
      valuesOf(JSON.parse(doc), key, out);
    } catch {
    }
  return out;
}
var CloudStack = class _CloudStack {
  constructor(o, stack2) {
    this.o = o;
    this.stack = stack2;
  }
  o;
  stack;
  unregister = () => {
  };
  destroyed = false;
  releaseGrace;
  destroying;
  /** Creates or selects the stack; a stack a crashed run left behind is recovered first. */
  static async open(o) {
    const s = await _CloudStack.select(o);
    return await s.recoverIfLeft() ? _CloudStack.select(o) : s;
  }
  /**
   * Recovers the stack if an earlier run left resources, pending operations or a lock in it
   * (the stack is removed); says whether there was anything to recover.
   */
  static async recoverLeft(o) {
    return (await _CloudStack.select(o)).recoverIfLeft();
  }
  async recoverIfLeft() {
    const left = await this.state();
    const locked = this.locked();
    if (left.resources === 0 && left.pendingOperations === 0 && !locked) return false;
    this.o.log(
      `cloud: stack ${this.o.stack} was left by an earlier run (${left.resources} resources, ${left.pendingOperations} pending operations${locked ? ", locked" : ""}): recovering it`
    );
    await this.recover();
    return true;
  }
  static async select(o) {
    const auto = await loadAutomation();
    await mkdir2(o.workDir, { recursive: true });
    if (o.backend.startsWith("file://")) await mkdir2(o.backend.slice("file://".length), { recursive: true });
    const binary = pulumiBinary();
    const pulumiCommand = await auto.PulumiCommand.get({
      root: dirname2(dirname2(binary)),
      skipVersionCheck: true
    });
    const plugins = await dynamicProviderPlugin(join2(o.workDir, "bin"));
    const envVars = {
      // tiperf keeps no secrets in a stack; the passphrase only satisfies the file backend
      PULUMI_CONFIG_PASSPHRASE: setting("PULUMI_CONFIG_PASSPHRASE") ?? "tiperf",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_HOME: setting("PULUMI_HOME") ?? join2(o.workDir, "pulumi-home"),
      PATH: `${plugins}:${dirname2(binary)}:${setting("PATH") ?? ""}`,
      ...o.env ?? {}
    };
    const stack2 = await auto.LocalWorkspace.createOrSelectStack(
      { stackName: o.stack, projectName: PROJECT, program: o.program },
      {
        workDir: o.workDir,
        pulumiCommand,
        envVars,
        projectSettings: { name: PROJECT, runtime: "nodejs", backend: { url: o.backend } }
      }
    );
    return new _CloudStack(o, stack2);
  }
  /** What the stack's state holds: resources, pending operations, the run ids in its tags. */
  async state() {
    const d = (await this.stack.exportStack()).deployment;
    const resources = (d.resources ?? []).filter(
      (r) => !String(r.type).startsWith("pulumi:")
    ).length;
    return {
      resources,
      pendingOperations: (d.pending_operations ?? []).length,
      runIds: [...valuesOf(d, "tiperf:run-id")]
    };
  }
  /** The lock files of a file:// backend (a killed `pulumi up` leaves its lock). */
  lockDir() {
    if (!this.o.backend.startsWith("file://")) return void 0;
    return join2(
      this.o.backend.slice("file://".length),
      ".pulumi",
      "locks",
      "organization",
      PROJECT,
      this.o.stack
    );
  }
  locked() {
    const dir = this.lockDir();
    return Boolean(dir && existsSync2(dir) && readdirSync(dir).length > 0);
  }
  /** Creates the cluster; the teardown destroys it from here on, even if `up` fails half-way. */
  async up(signal) {
    this.unregister = onTeardown(`destroy the cloud stack ${this.o.stack}`, () => this.destroy());
    this.releaseGrace ??= holdGrace(STACK_GRACE_MS);
    const started = Date.now();
    this.o.log(`cloud: pulumi up ${this.o.stack} (backend ${this.o.backend})`);
    try {
      const r = await this.stack.up({
        onOutput: (text) => this.progress(text),
        ...signal ? { signal } : {}
      });
      const outputs = Object.fromEntries(Object.entries(r.outputs).map(([k, v]) => [k, v.value]));
      this.o.log(`cloud: up done in ${Math.round((Date.now() - started) / 1e3)}s`);
      return outputs;
    } catch (e) {
      throw new RunError(`cloud: pulumi up ${this.o.stack} failed: ${lastLines(e.message)}`);
    }
  }
  progress(text) {
    for (const line of text.split("\n")) if (line.trim()) this.o.log(`  pulumi: ${line.trimEnd()}`);
  }
  /** Destroys every resource and removes the stack; a second call (even a concurrent one) does nothing more. */
  destroy() {
    this.destroying ??= this.destroyOnce().finally(() => this.releaseGrace?.());
    return this.destroying;
  }
  async destroyOnce() {
    if (this.destroyed) return;
    this.unregister();
    this.o.log(`cloud: pulumi destroy ${this.o.stack}`);
    try {
      await this.stack.destroy({ continueOnError: true, onOutput: (t) => this.progress(t) });
    } catch (e) {
      this.o.log(`cloud: destroy failed (${lastLines(e.message)}): recovering`);
      await this.recover([this.o.runId]);
      this.destroyed = true;
      return;
    }
    await this.removeByTag([this.o.runId]);
    await this.stack.workspace.removeStack(this.o.stack, { force: true });
    this.destroyed = true;
    this.o.log(`cloud: stack ${this.o.stack} destroyed and removed`);
  }
  /** Removes by tag whatever of these runs still exists (the provider's sweep), and says what. */
  async removeByTag(runIds) {
    if (!this.o.removeByTag) return;
    for (const runId of runIds) {
      const gone = await this.o.removeByTag(runId);
      if (gone.length) this.o.log(`cloud: swept by tag tiperf:run-id=${runId}: ${gone.join(", ")}`);
    }
  }
  /**
   * Recovery of a stack whose run died: cancel the lock → refresh clearing pending creates →
   * destroy going on past errors → sweep by tag what the state never knew → remove the stack.
   * Each step goes on when the one before fails; the sweep is what makes that safe.
   */
  async recover(alsoRunIds = []) {
    const inState = (await this.state().catch(() => ({ runIds: [] }))).runIds;
    const runIds = [.../* @__PURE__ */ new Set([...inState, ...alsoRunIds])];
    const step = async (what, fn) => {
      try {
        await fn();
        this.o.log(`cloud: recovery: ${what}: done`);
      } catch (e) {
        this.o.log(`cloud: recovery: ${what}: ${lastLines(e.message)}`);
      }
    };
    await step("cancel the lock", async () => {
      const dir = this.lockDir();
      if (dir) {
        const n = existsSync2(dir) ? readdirSync(dir).length : 0;
        rmSync(dir, { recursive: true, force: true });
        this.o.log(`cloud: recovery: removed ${n} lock file(s) of ${this.o.stack}`);
      } else await this.stack.cancel();
    });
    await step(
      "refresh, clearing pending creates",
      () => this.stack.refresh({ clearPendingCreates: true, onOutput: (t) => this.progress(t) })
    );
    await step(
      "destroy, going on past errors",
      () => this.stack.destroy({ continueOnError: true, onOutput: (t) => this.progress(t) })
    );
    await step(
      `tag sweep of tiperf:run-id ${runIds.join(", ") || "(none in the state)"}`,
      () => this.removeByTag(runIds)
    );
    await step("remove the stack", () => this.stack.workspace.removeStack(this.o.stack, { force: true }));
  }
};
function lastLines(text, n = 8) {
  return text.trim().split("\n").slice(-n).join("\n");
}

// action/src/cloud/provision.ts
function pullRequest(env = inherited()) {
  return /^refs\/pull\/(\d+)\//.exec(env.GITHUB_REF ?? "")?.[1];
}
function stackName(profile, shard, env = inherited()) {
  const pr = pullRequest(env);
  const scope = pr ? `pr${pr}` : (env.GITHUB_REF_NAME ?? "local").toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40) || "local";
  return `tiperf-${profile.name}-${scope}${shard ? `-shard${shard}` : ""}`;
}
var stackOptions = (s, log, program) => {
  const kind = s.capability === "kubernetes" ? KUBERNETES_CLOUDS[s.provider] : cloudOf(s.provider);
  if (!kind) throw new RunError(`stack ${s.name}: no ${s.capability ?? "machine"} cloud ${s.provider}`);
  const settings = s.settings ?? s.aws;
  return {
    stack: s.name,
    backend: s.backend,
    workDir: s.workDir,
    runId: s.runId,
    program,
    removeByTag: (runId) => kind.removeByTag(settings, runId, log),
    env: kind.env(settings),
    log
  };
};
function tagsNow(settings, runId) {
  const pr = pullRequest();
  return tagsOf(
    runTags(settings, {
      runId,
      ...setting("GITHUB_REPOSITORY") ? { repository: setting("GITHUB_REPOSITORY") } : {},
      ...pr ? { pr } : {}
    })
  );
}
function stackRecord(o) {
  return {
    name: stackName(o.ask, o.shard),
    backend: o.ask.settings.backend ?? `file://${join3(o.dir, "state")}`,
    workDir: join3(o.dir, "workspace"),
    provider: o.provider,
    ...o.capability ? { capability: o.capability } : {},
    runId: o.runId,
    settings: o.ask.settings,
    forget: o.forget
  };
}
function recordStack(rec) {
  return record({ resource: "stack", what: `stack ${rec.name}`, path: rec.workDir, stack: rec }).catch(
    () => async () => {
    }
  );
}
async function provisionCluster(o) {
  const { ask, log } = o;
  const kind = cloudOf(o.provider);
  const settings = ask.settings;
  const dir = join3(o.runDir, "cloud");
  await mkdir3(dir, { recursive: true });
  const key = generateRunKey(`tiperf-${o.runId}`);
  const identityFile = join3(dir, "id_rsa");
  await writePrivateKey(identityFile, key);
  const sshCidr = await kind.runnerCidr(settings);
  const tags = tagsNow(settings, o.runId);
  const rec = stackRecord({
    ask,
    dir,
    provider: o.provider,
    runId: o.runId,
    forget: o.forget,
    ...o.shard ? { shard: o.shard } : {}
  });
  log(
    `cloud: ${o.provider} ${settings.region}: stack ${rec.name}, SSH admitted from ${sshCidr}, expires ${tags["tiperf:expires-at"]}`
  );
  const forget = await recordStack(rec);
  const startedAt = Date.now();
  const program = await kind.program({ ask, tags, sshCidr, publicKey: key.publicKey });
  let stack2;
  const cluster = {
    hosts: { hosts: {}, bastion: "", identityFile },
    machines: [],
    user: settings.ssh_user,
    stackName: rec.name,
    startedAt,
    destroy: async () => {
      await stack2?.destroy();
      await forgetRecords(rec.forget);
      cluster.endedAt ??= Date.now();
      await forget();
    }
  };
  try {
    stack2 = await CloudStack.open(stackOptions(rec, log, program));
    const outputs = await stack2.up(o.signal);
    cluster.machines = machinesFromOutputs(outputs);
    cluster.hosts = hostsOf(cluster.machines, identityFile);
    log(
      `cloud: ${cluster.machines.length} machines: ${cluster.machines.map((m) => `${m.name} ${m.privateIp}`).join(", ")}; bastion (load host) ${cluster.hosts.bastion}`
    );
    await waitReady(cluster, kind.ready, join3(dir, "known_hosts"), o.signal, log);
  } catch (e) {
    await cluster.destroy().catch((err) => log(`teardown: ${err.message}`));
    throw e;
  }
  return cluster;
}
function machinesFromOutputs(outputs) {
  const list = outputs.machines;
  const ok = (m) => {
    const x = m;
    return Boolean(x) && ["name", "role", "privateIp", "publicIp", "id"].every((k) => typeof x[k] === "string" && x[k] !== "");
  };
  if (!Array.isArray(list) || list.length === 0 || !list.every(ok))
    throw new RunError(
      `cloud: the stack's output "machines" is not a list of {name, role, privateIp, publicIp, id}: ${JSON.stringify(list)?.slice(0, 300)}`
    );
  return list;
}
function hostsOf(machines, identityFile) {
  const hosts = {};
  for (const m of machines) hosts[m.role] = [...hosts[m.role] ?? [], m.privateIp];
  const load = machines.find((m) => m.role === "load");
  if (!load)
    throw new RunError(
      "cloud: the stack created no load host (role load): nothing to reach the cluster through"
    );
  return {
    hosts,
    bastion: load.publicIp,
    identityFile,
    ...load.sshPort ? { sshPort: load.sshPort } : {}
  };
}
function remoteOf(m, c, user, knownHosts) {
  const load = c.machines.find((x) => x.role === "load");
  const bastion = {
    host: load.publicIp,
    port: load.sshPort ?? 22,
    user,
    identity: c.hosts.identityFile,
    knownHosts
  };
  if (m === load) return bastion;
  return {
    host: m.privateIp,
    port: m.sshPort ?? 22,
    user,
    identity: c.hosts.identityFile,
    knownHosts,
    jump: bastion
  };
}
async function waitReady(c, ready, knownHosts, signal, log, limitMs = 20 * 6e4) {
  const started = Date.now();
  const user = c.user;
  for (const m of [...c.machines].sort((a, b) => a.role === "load" ? -1 : b.role === "load" ? 1 : 0)) {
    const remote = remoteOf(m, c, user, knownHosts);
    let last = "";
    for (; ; ) {
      if (signal.aborted) throw new RunError(`cloud: stopped while waiting for ${m.name}`);
      const r = await runCommand("ssh", sshArgs(remote, shellCommand(ready(m))), { timeoutMs: 6e4 });
      if (r.code === 0) break;
      last = (r.stderr || r.stdout).trim().split("\n").slice(-1)[0] ?? `exit ${r.code}`;
      if (Date.now() - started > limitMs)
        throw new RunError(
          `cloud: ${m.name} (${m.privateIp}) was not ready within ${limitMs / 6e4} min (\`${shellCommand(ready(m))}\` over SSH: ${last || `exit ${r.code}`})`
        );
      await new Promise((res) => setTimeout(res, 5e3));
    }
  }
  log(`cloud: every machine ready ${Math.round((Date.now() - started) / 1e3)}s after up`);
}
async function forgetRecords(paths = []) {
  for (const path of paths) await rm2(path, { recursive: true, force: true });
}
async function recoverRecorded(e, log) {
  const s = e.stack;
  const recovered = await CloudStack.recoverLeft(stackOptions(s, log, async () => ({})));
  await forgetRecords(s.forget);
  return recovered;
}

export {
  onTeardown,
  teardownAll,
  Interrupted,
  installSignalTeardown,
  installCrashTeardown,
  shellQuote,
  shellCommand,
  remoteCommand,
  sshArgs,
  useLedger,
  ledgerDir,
  record,
  alive,
  reapEntries,
  estimateCost,
  measuredCost,
  outlivesTtl,
  checkBudget,
  estimateText,
  CLOUDS,
  KUBERNETES_CLOUDS,
  cloudOf,
  CloudStack,
  pullRequest,
  stackName,
  stackOptions,
  tagsNow,
  stackRecord,
  recordStack,
  provisionCluster,
  machinesFromOutputs,
  hostsOf,
  remoteOf,
  recoverRecorded
};
