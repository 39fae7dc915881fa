// What a maintainer accepted, kept in the PR comment for later readers: a hidden line
// `<!-- tiperf:accepted {…} -->` with the commit, who accepted and each accepted judgement's cell,
// metric and size. The weekly history reads it back (history/accepted.ts) so that a change point
// a merged pull request accepted is not raised again.
import type { Verdict } from "../compare/verdict.ts";

export const ACCEPTED_PREFIX = "<!-- tiperf:accepted ";

/** One accepted judgement: its cell, metric and relative change (head against base). */
export interface AcceptedCell {
  workload: string;
  threads: number;
  metric: string;
  change: number;
}

export interface AcceptedRecord {
  /** The pull request's head commit the acceptance was given for. */
  commit: string;
  by: string;
  cells: AcceptedCell[];
}

/** The hidden line of an accepted verdict, or undefined (not accepted, or its commit unknown). */
export function acceptedMarker(v: Verdict): string | undefined {
  const commit = v.provenance?.head_sha;
  if (!v.accepted || !commit) return undefined;
  const cells: AcceptedCell[] = v.cells.flatMap((c) =>
    c.verdict === "regression" && typeof c.change === "number"
      ? [{ workload: c.workload, threads: c.threads, metric: c.metric, change: c.change }]
      : [],
  );
  const record: AcceptedRecord = { commit, by: v.accepted.by, cells };
  // no "-->" can end the comment early: JSON's own escape for ">"
  return `${ACCEPTED_PREFIX}${JSON.stringify(record).replace(/>/g, "\\u003e")} -->`;
}

/** The acceptance a comment's body records, or undefined when it holds none (or a malformed one). */
export function acceptedRecord(body: string): AcceptedRecord | undefined {
  const at = body.indexOf(ACCEPTED_PREFIX);
  if (at < 0) return undefined;
  const end = body.indexOf(" -->", at);
  if (end < 0) return undefined;
  try {
    const r = JSON.parse(body.slice(at + ACCEPTED_PREFIX.length, end)) as AcceptedRecord;
    const cellOk = (c: AcceptedCell) =>
      typeof c?.workload === "string" && typeof c.metric === "string" && Number.isFinite(c.change);
    return typeof r.commit === "string" &&
      typeof r.by === "string" &&
      Array.isArray(r.cells) &&
      r.cells.every(cellOk)
      ? r
      : undefined;
  } catch {
    return undefined;
  }
}
