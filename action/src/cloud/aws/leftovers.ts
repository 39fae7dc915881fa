// `tiperf reap --cloud aws`: finds what tiperf created in a region (everything tagged
// tiperf:run-id) whose tiperf:expires-at is past, and deletes it in dependency order, idempotently:
// EKS node groups and clusters (each waited for until gone: a node group's Auto Scaling group would
// start again any instance terminated under it), instances (waiting until they are gone), spot
// requests, volumes, key pairs, security groups, subnets, route tables, internet gateways, VPCs,
// and last the IAM roles of EKS runs (IAM is global: only roles under tiperf's path whose
// tiperf:region is this region). Untagged or unexpired resources are never touched.
import type { ReapReport as NeutralReport } from "../provider.ts";
import { deleteInOrder, GONE, inOrder } from "./delete.ts";
import { type AwsReapOptions, client, type Found, findTagged } from "./found.ts";

export interface AwsReapReport extends Omit<NeutralReport, "removed" | "kept" | "failed" | "overdue"> {
  removed: Found[];
  kept: Found[];
  failed: (Found & { error: string })[];
  overdue: Found[];
}

/** Finds and (unless a dry run) deletes every expired tiperf resource of a region. */
export async function reapAws(o: AwsReapOptions): Promise<AwsReapReport> {
  const clients = client(o);
  const now = o.now ?? new Date();
  const found = await findTagged(clients, now, o.log);
  const expired = found.filter((f) => f.expired);
  const report: AwsReapReport = {
    format: "tiperf.reap",
    cloud: "aws",
    region: o.region,
    dryRun: o.dryRun,
    removed: [],
    kept: found.filter((f) => !f.expired),
    failed: [],
    overdue: found.filter((f) => f.overdue),
  };
  const line = (f: Found) => `${f.resource} ${f.id} (tiperf:run-id ${f.runId}, expired ${f.expiresAt})`;
  if (o.dryRun)
    for (const f of inOrder(expired)) {
      o.log(`reap: would remove ${line(f)}`);
      report.removed.push(f);
    }
  else
    await deleteInOrder(clients, expired, o, (f, error) => {
      if (error === undefined) o.log(`reap: removed ${line(f)}`);
      else if (GONE.test(error)) o.log(`reap: ${line(f)}: already gone`);
      else {
        o.log(`reap: could not remove ${line(f)}: ${error}`);
        report.failed.push({ ...f, error });
        return;
      }
      report.removed.push(f);
    });
  clients.destroy();
  return report;
}

/**
 * The tag sweep of one run (a stack's recovery, a destroy that failed half-way): everything tagged
 * with this run id, expired or not, deleted in dependency order; says what went.
 */
export async function removeRunByTag(
  o: Pick<AwsReapOptions, "region" | "endpoint" | "log" | "waitMs"> & { runId: string },
): Promise<string[]> {
  const clients = client(o);
  const gone: string[] = [];
  try {
    const mine = (await findTagged(clients, new Date(), o.log)).filter((f) => f.runId === o.runId);
    await deleteInOrder(clients, mine, o, (f, error) => {
      if (error === undefined || GONE.test(error)) gone.push(`${f.resource} ${f.id}`);
      else o.log(`cloud: sweep: could not remove ${f.resource} ${f.id}: ${error}`);
    });
  } finally {
    clients.destroy();
  }
  return gone;
}
