// bisect.json as stored: an older report (any version tiperf wrote) migrated to today's shape,
// validated, read; the alarm tells a bisect report from a verdict by its format.
import { readFile } from "node:fs/promises";
import { InputError } from "../errors.ts";
import type { Obj } from "../yaml/merge.ts";
import { formatIssues } from "../yaml/read.ts";
import { BISECT_FORMAT, type BisectReport, BisectReportSchema } from "./bisection.ts";

/**
 * An older report in today's shape, version by version: v1 put the ends of an undecided range in
 * first_bad and last_good, the fields a found commit uses (they move to open_range and, not
 * confirmed, to unconfirmed_candidate); v2 named a step's mark its `kind`.
 */
export function migrateBisect(doc: Record<string, unknown>): Record<string, unknown> {
  return marked(doc.version === 1 ? rangeOpened(doc) : doc);
}

/** A version 2 report's steps and attempts: their `kind` is their `mark` (the values kept). */
function marked(doc: Record<string, unknown>): Record<string, unknown> {
  if (doc.version !== 2) return doc;
  const mark = ({ kind, ...rest }: Obj): Obj => (kind === undefined ? rest : { ...rest, mark: kind });
  const steps = Array.isArray(doc.steps)
    ? doc.steps.map((st: Obj) => ({
        ...mark(st),
        ...(Array.isArray(st.attempts) ? { attempts: st.attempts.map(mark) } : {}),
      }))
    : doc.steps;
  return { ...doc, version: 3, ...(doc.steps !== undefined ? { steps } : {}) };
}

/** Version 1's undecided range, moved where version 2 keeps it. */
function rangeOpened(doc: Record<string, unknown>): Record<string, unknown> {
  const { first_bad, last_good, ...rest } = doc as Record<string, unknown> & {
    first_bad?: { commit: string; subject: string };
    last_good?: { commit: string; subject: string };
  };
  const out: Record<string, unknown> = { ...rest, version: 2 };
  if (doc.outcome === "found") Object.assign(out, { first_bad, last_good });
  else if ((doc.outcome === "inconclusive" || doc.outcome === "not-confirmed") && first_bad && last_good) {
    const commits = (doc.commits ?? []) as { commit: string }[];
    const at = (c: { commit: string }) => commits.findIndex((x) => x.commit === c.commit);
    out.open_range = {
      after: last_good,
      through: first_bad,
      candidates: Math.max(1, at(first_bad) - at(last_good)),
    };
    if (doc.outcome === "not-confirmed")
      out.unconfirmed_candidate = { candidate: first_bad, against: last_good };
  }
  return out;
}

/** A bisect report's JSON (any version tiperf wrote), migrated and validated. */
export function parseBisect(raw: unknown) {
  const doc = raw !== null && typeof raw === "object" ? migrateBisect(raw as Record<string, unknown>) : raw;
  return BisectReportSchema.safeParse(doc);
}

/** A bisect report, validated; undefined when the file is not one (the alarm tries each format). */
export async function readBisect(file: string): Promise<BisectReport | undefined> {
  let doc: unknown;
  try {
    doc = JSON.parse(await readFile(file, "utf8"));
  } catch {
    return undefined;
  }
  if ((doc as { format?: unknown } | null)?.format !== BISECT_FORMAT) return undefined;
  const parsed = parseBisect(doc);
  if (!parsed.success) throw new InputError(formatIssues(file, parsed.error.issues));
  return parsed.data;
}
