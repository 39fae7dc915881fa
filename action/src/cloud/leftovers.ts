// The reaper's report (`tiperf reap --cloud aws --json FILE`) as an issue: what is still alive in
// the cloud past twice its time to live — a run that cannot clean up after itself, or a reaper
// that is not allowed to delete.
import { readReport } from "../result/store.ts";
import type { ReapReport } from "./provider.ts";

export const REAP_FORMAT = "tiperf.reap";

/** The report in a file, or undefined when the file is something else (a verdict). */
export function readReapReport(file: string): Promise<ReapReport | undefined> {
  return readReport<ReapReport>(file, REAP_FORMAT, (r) =>
    Array.isArray(r.overdue) && typeof r.region === "string" ? undefined : "region and overdue",
  );
}

export function leftoversTitle(r: ReapReport): string {
  return `tiperf: ${r.overdue.length} cloud resource${r.overdue.length === 1 ? "" : "s"} alive past twice their ttl in ${r.region}`;
}

export function leftoversMarkdown(r: ReapReport): string {
  const lines = [
    `The hourly reaper found ${r.overdue.length} resource${r.overdue.length === 1 ? "" : "s"} in ${r.region} tagged by tiperf runs and still alive past twice their time to live${r.dryRun ? " (the reaper runs as a dry run: it lists, it does not delete)" : ""}.`,
    "",
    "| kind | id | tiperf:run-id | created | expired at |",
    "|---|---|---|---|---|",
    ...r.overdue.map(
      (f) => `| ${f.resource} | \`${f.id}\` | ${f.runId} | ${f.createdAt ?? "?"} | ${f.expiresAt} |`,
    ),
    "",
    `Removed this hour: ${r.removed.length}; could not remove: ${r.failed.length}${r.failed.length ? ` (${r.failed.map((f) => `${f.resource} ${f.id}: ${f.error}`).join("; ")})` : ""}.`,
    "",
    `To delete what has expired: \`tiperf reap --cloud ${r.cloud ?? "aws"} --region ${r.region}\` (add \`--dry-run\` to list only).`,
  ];
  return `${lines.join("\n")}\n`;
}
