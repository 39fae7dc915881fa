// The `gcp:` section of a `provider: kubernetes` profile whose cluster tiperf creates (GKE): the
// common keys (ttl, budget, backend), the project and where in it, the node disks, and which TiDB
// Operator the program installs. Without this section the profile names a cluster of the user's.
import { z } from "zod";
import { COMMON_SETTINGS, KUBERNETES_SETTINGS } from "../settings.ts";

/** A GCP region name (us-central1, europe-west4). */
export const REGION = /^[a-z]+-[a-z]+\d+$/;

export const GcpSettingsSchema = z
  .strictObject({
    ttl: COMMON_SETTINGS.ttl,
    budget: COMMON_SETTINGS.budget,
    backend: z
      .string()
      .regex(/^(file|gs):\/\/\S+$/, "must be a file:// or gs:// URL")
      .optional(),
    /** The project the cluster is created in (its id, not its name). */
    project: z
      .string()
      .regex(/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/, "must be a GCP project id like tiperf-bench-1"),
    region: z.string().regex(REGION, "must be a GCP region like us-central1"),
    /**
     * The zones of the node pools (seed 000: one zone vs three); default the region's "-a" zone.
     * Each pool puts its count of nodes in every zone listed.
     */
    zones: z.array(z.string().min(1)).min(1).optional(),
    /** Every node's boot disk (GB) and type; TiKV's data is on its PersistentVolume, not here. */
    disk_gb: z.number().int().min(10).max(65536).default(100),
    disk_type: z
      .enum(["pd-standard", "pd-balanced", "pd-ssd"], { error: "must be pd-standard, pd-balanced or pd-ssd" })
      .default("pd-balanced"),
    /** api_cidr (master authorized networks) and operator. */
    ...KUBERNETES_SETTINGS,
  })
  .superRefine((g, ctx) => {
    for (const [i, zone] of (g.zones ?? []).entries())
      if (!new RegExp(`^${g.region}-[a-z]$`).test(zone))
        ctx.addIssue({
          code: "custom",
          path: ["zones", i],
          message: `must be a zone of ${g.region}, like ${g.region}-a`,
        });
    if (new Set(g.zones ?? []).size !== (g.zones ?? []).length)
      ctx.addIssue({ code: "custom", path: ["zones"], message: "names a zone twice" });
  });

export type GcpSettings = z.output<typeof GcpSettingsSchema>;

export const zonesOf = (g: GcpSettings): string[] => g.zones ?? [`${g.region}-a`];
