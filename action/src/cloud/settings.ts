// The keys every cloud's settings section has (a profile's `aws:` and the like): region, lifetime,
// budget, state backend, login user, who may SSH in, and the load host's machine type. A cloud's
// schema spreads COMMON_SETTINGS and adds its own keys.
import { z } from "zod";
import { parseAge } from "../yaml/keys.ts";

/** "90m", "3h", "2d": a cluster's time to live (its `tiperf:expires-at` tag is now + ttl); never 0. */
export function parseTtl(value: string): number | undefined {
  const ms = parseAge(value);
  return ms ? ms : undefined;
}

const CIDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;

export const COMMON_SETTINGS = {
  ttl: z
    .string()
    .refine((v) => parseTtl(v) !== undefined, "must be a duration like 90m, 3h or 2d")
    .default("3h"),
  /** Refuse a run whose estimated cost (US dollars) is above this, before anything is created. */
  budget: z.number().positive("must be a positive number of US dollars").optional(),
  /** Where Pulumi keeps the stack's state: a file:// folder (default: the run directory) or s3://. */
  backend: z
    .string()
    .regex(/^(file|s3):\/\/\S+$/, "must be a file:// or s3:// URL")
    .optional(),
  /** Who may SSH in (default the runner's public address, looked up when the run starts, /32). */
  ssh_cidr: z.string().regex(CIDR, "must be an IPv4 CIDR like 203.0.113.7/32").optional(),
  /** The load host (sysbench, go-tpc, go-ycsb, HAProxy; tiup runs from it). */
  load: z.strictObject({ instance_type: z.string().min(1) }),
};

/** The time to live of a settings section, in ms (its schema refused any other). */
export const ttlMs = (ttl: string): number => parseTtl(ttl) as number;

/** The keys of every Kubernetes cloud's section (gcp:, eks:) beside ttl, budget and backend. */
export const KUBERNETES_SETTINGS = {
  /** Who may reach the cluster's API server; default anyone with credentials. */
  api_cidr: z.string().regex(CIDR, "must be an IPv4 CIDR like 203.0.113.7/32").optional(),
  /** TiDB Operator, installed by the program from PingCAP's Helm chart with the release's CRDs. */
  operator: z
    .strictObject({
      version: z
        .string()
        .regex(/^v\d+\.\d+\.\d+$/, "must be a TiDB Operator release like v1.6.5")
        .default("v1.6.5"),
      chart_repo: z
        .string()
        .url("must be a Helm chart repository URL")
        .default("https://charts.pingcap.org/"),
    })
    .prefault({}),
};

/** TiDB Operator's resources in a Kubernetes cloud's stack (infra/pulumi/tidb-operator.ts creates them). */
export function operatorResources(operator: { version: string; chart_repo: string }) {
  return [
    {
      type: "kubernetes:yaml/v2:ConfigFile",
      name: "tidb-operator-crds",
      count: 1,
      about: `TiDB Operator ${operator.version}'s CRDs (its manifests/crd.yaml)`,
    },
    { type: "kubernetes:core/v1:Namespace", name: "tidb-admin", count: 1, about: "" },
    {
      type: "kubernetes:helm.sh/v3:Release",
      name: "tidb-operator",
      count: 1,
      about: `chart tidb-operator ${operator.version} from ${operator.chart_repo}`,
    },
  ];
}
