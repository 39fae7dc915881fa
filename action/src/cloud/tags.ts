// Who a cloud resource belongs to and until when: every resource of a run carries these tags, the
// hourly reaper deletes by them, and a stack's recovery sweeps by the run id.
import { ttlMs } from "./settings.ts";

/** Who the run belongs to and until when. */
export interface RunTags {
  runId: string;
  /** ISO 8601 UTC: created + the settings' ttl. */
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
  /** On global resources only (IAM roles): the region of the run that created it. */
  region: "tiperf:region",
} as const;

/**
 * IAM roles are global: every role a run creates lives under this path (IAM lists roles by path,
 * not by tag) and carries TAG.region, so a reap in one region leaves other regions' roles alone.
 */
export const IAM_ROLE_PATH = "/tiperf/";

/** A tag's value in AWS's list form ({Key, Value}, as EC2 and IAM answer tags). */
export const tagValue = (tags: { Key?: string; Value?: string }[] | undefined, key: string) =>
  tags?.find((t) => t.Key === key)?.Value;

export function tagsOf(run: RunTags): Record<string, string> {
  return {
    [TAG.runId]: run.runId,
    [TAG.expiresAt]: run.expiresAt,
    [TAG.repository]: run.repository,
    [TAG.pr]: run.pr,
  };
}

/** The tags of a run starting now (expiry = now + ttl). */
export function runTags(
  settings: { ttl: string },
  o: { runId: string; repository?: string; pr?: string; now?: Date },
): RunTags {
  const now = o.now ?? new Date();
  return {
    runId: o.runId,
    expiresAt: new Date(now.getTime() + ttlMs(settings.ttl)).toISOString().replace(/\.\d{3}Z$/, "Z"),
    repository: o.repository ?? "local",
    pr: o.pr ?? "none",
  };
}
