// The `aws:` section of a cluster profile (provider aws): the common keys (ttl, budget, backend,
// ssh_cidr, load) and where in AWS the ephemeral cluster is created, on which image and volumes.
import { z } from "zod";
import { COMMON_SETTINGS } from "../settings.ts";

/** An AWS region name (us-west-2, us-gov-east-1). */
export const REGION = /^[a-z]{2}(-gov)?-[a-z]+-\d$/;

export const AwsSettingsSchema = z
  .strictObject({
    ...COMMON_SETTINGS,
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
