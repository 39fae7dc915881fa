// The `aws:` section of a cluster profile (provider aws): where the ephemeral cluster is created,
// what it may cost and how long it may live.
import { z } from "zod";
import { parseAge } from "../../specfile/keys.ts";

/** "90m", "3h", "2d": a cluster's time to live (its `tiperf:expires-at` tag is now + ttl); never 0. */
export function parseTtl(value: string): number | undefined {
  const ms = parseAge(value);
  return ms ? ms : undefined;
}

export const REGION = /^[a-z]{2}(-gov)?-[a-z]+-\d$/;
const CIDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;

export const AwsSettingsSchema = z
  .strictObject({
    region: z.string().regex(REGION, "must be an AWS region like us-west-2"),
    /** The availability zone (default the region's first, `<region>a`). */
    zone: z.string().optional(),
    /** The image every machine boots: the newest AMI of `owner` whose name matches `name`. */
    ami: z
      .strictObject({
        owner: z
          .string()
          .regex(/^(\d{12}|amazon|self)$/, "must be an account id (12 digits), amazon or self"),
        name: z.string().min(1),
      })
      .default({
        // Canonical's Ubuntu 22.04 LTS (tiup supports it; numactl and ext4 tools in its archive)
        owner: "099720109477",
        name: "ubuntu/images/hvm-ssd*/ubuntu-jammy-22.04-amd64-server-*",
      }),
    /** The login user of the AMI (tiup deploys with it and creates the cluster's own user). */
    ssh_user: z
      .string()
      .regex(/^[a-z_][a-z0-9_-]{0,31}$/, "must be a Linux user name")
      .default("ubuntu"),
    spot: z.boolean().default(false),
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
    /** Root volume of every machine (gp3), GB; data goes to a TiKV machine's instance store if it has one. */
    root_volume_gb: z.number().int().min(8).max(16384).default(100),
    /** An extra gp3 data volume per TiKV/TiFlash machine, GB (for instance types without local NVMe). */
    data_volume_gb: z.number().int().min(1).max(16384).optional(),
  })
  .superRefine((a, ctx) => {
    if (a.zone !== undefined && !a.zone.startsWith(a.region))
      ctx.addIssue({
        code: "custom",
        path: ["zone"],
        message: `must be a zone of ${a.region}, like ${a.region}a`,
      });
  });

export type AwsSettings = z.output<typeof AwsSettingsSchema>;
