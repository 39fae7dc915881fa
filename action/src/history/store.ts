// The history of weekly runs: one JSON-lines file per profile and spec, append-only, each line a
// schema-validated summary of one clean run (per workload × threads × metric, the mean of its
// rounds). `tiperf history check` looks for change points in each series (changepoints.ts).
import { createHash } from "node:crypto";
import { appendFile, mkdir, readdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { z } from "zod";
import { InputError } from "../errors.ts";
import { profileOf } from "../result/baseline.ts";
import type { Result } from "../result/model.ts";
import { canonicalJson } from "../specfile/load.ts";

export const HISTORY_FORMAT = "tiperf.history";

export const HistoryEntrySchema = z.strictObject({
  format: z.literal(HISTORY_FORMAT),
  version: z.literal(1),
  run_id: z.string().min(1),
  started_at: z.string(),
  spec: z.strictObject({
    name: z.string(),
    hash: z.string(),
    /**
     * sha256 of what the run measured — target, data, load-generator placement and workloads
     * (without their tolerances): a description or tolerance edit keeps the history going.
     */
    matrix: z.string().optional(),
  }),
  /** The cluster the run measured: a profile's name, or the local target's kind. */
  profile: z.string().regex(/^[a-z][a-z0-9_-]*$/),
  /** The commit and ref the run measured (GitHub's GITHUB_SHA and GITHUB_REF_NAME). */
  commit: z.string().optional(),
  ref: z.string().optional(),
  target: z.strictObject({ kind: z.string(), version: z.string() }).optional(),
  values: z.array(
    z.strictObject({
      workload: z.string(),
      threads: z.number().int().positive(),
      metric: z.string(),
      better: z.enum(["higher", "lower"]),
      value: z.number(),
      /** Rounds averaged. */
      n: z.number().int().positive(),
    }),
  ),
});
export type HistoryEntry = z.output<typeof HistoryEntrySchema>;

const NAME = /^[a-z][a-z0-9_-]*$/;

/** The hash of what a spec measures: its target, data, driver placement and workloads, tolerances left out. */
export function matrixHash(body: unknown): string {
  const b = (body ?? {}) as { target?: unknown; data?: unknown; driver?: unknown; workloads?: unknown[] };
  const workloads = (b.workloads ?? []).map((w) => {
    const { judge: _judge, ...rest } = w as Record<string, unknown>;
    return rest;
  });
  return createHash("sha256")
    .update(canonicalJson({ target: b.target, data: b.data, driver: b.driver, workloads }))
    .digest("hex");
}

/** One clean run as a history line: the mean of each cell's metric over its judged rounds. */
export function entryOf(
  result: Result,
  file: string,
  o: { variant?: string; profile?: string; commit?: string; ref?: string },
): HistoryEntry {
  if (result.status !== "complete")
    throw new InputError(
      `${file}: the run is ${result.status}: only complete runs go into a history (a partial one would look like a change)`,
    );
  const variants = [...new Set(result.cells.map((c) => c.variant))];
  const variant = o.variant ?? (variants.length === 1 ? variants[0] : undefined);
  if (!variant || !variants.includes(variant))
    throw new InputError(
      `${file}: --variant must name one of the run's variants (${variants.join(", ") || "none"})${o.variant ? `; got ${o.variant}` : ""}`,
    );
  const profile = o.profile ?? profileOf(result);
  if (!NAME.test(profile))
    throw new InputError(`--profile ${profile}: must be lower-case letters, digits, _ or - (a file name)`);
  const groups = new Map<
    string,
    { workload: string; threads: number; metric: string; better: "higher" | "lower"; xs: number[] }
  >();
  const cells = result.cells.filter((c) => c.variant === variant && c.status === "ok");
  const judged = cells.some((c) => c.round > 0) ? cells.filter((c) => c.round > 0) : cells;
  for (const c of judged)
    for (const [metric, m] of Object.entries(c.metrics)) {
      const key = `${c.workload}\u0000${c.threads}\u0000${metric}`;
      const g = groups.get(key) ?? {
        workload: c.workload,
        threads: c.threads,
        metric,
        better: m.better,
        xs: [],
      };
      g.xs.push(m.value);
      groups.set(key, g);
    }
  if (groups.size === 0) throw new InputError(`${file}: no measured cells of variant ${variant}`);
  const target = result.targets.find((t) => t.variant === variant);
  return {
    format: HISTORY_FORMAT,
    version: 1,
    run_id: result.run_id,
    started_at: result.started_at,
    spec: { name: result.spec.name, hash: result.spec.hash, matrix: matrixHash(result.spec.body) },
    profile,
    ...(o.commit ? { commit: o.commit } : {}),
    ...(o.ref ? { ref: o.ref } : {}),
    ...(target ? { target: { kind: target.kind, version: target.version } } : {}),
    values: [...groups.values()].map((g) => ({
      workload: g.workload,
      threads: g.threads,
      metric: g.metric,
      better: g.better,
      value: g.xs.reduce((s, v) => s + v, 0) / g.xs.length,
      n: g.xs.length,
    })),
  };
}

/** <dir>/<profile>/<spec>.jsonl */
export const historyFile = (dir: string, e: Pick<HistoryEntry, "profile" | "spec">) =>
  join(dir, e.profile, `${e.spec.name}.jsonl`);

/** Every line of a history file, each validated; a bad line names the file and line. */
export async function readHistory(file: string): Promise<HistoryEntry[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new InputError(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? e})`);
  }
  const out: HistoryEntry[] = [];
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      throw new InputError(`${file}:${i + 1}: not JSON`);
    }
    const parsed = HistoryEntrySchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InputError(
        `${file}:${i + 1}: ${issue?.path.join(".") || "line"}: ${issue?.message} (a ${HISTORY_FORMAT} v1 entry)`,
      );
    }
    out.push(parsed.data);
  });
  return out;
}

/** Appends one entry (never rewrites); a run already in the history is refused. */
export async function appendHistory(dir: string, entry: HistoryEntry): Promise<string> {
  const file = historyFile(dir, entry);
  const existing = await readHistory(file);
  if (existing.some((e) => e.run_id === entry.run_id))
    throw new InputError(`${file}: run ${entry.run_id} is already in the history`);
  const last = existing.at(-1);
  // what was measured must be the same; a description or a tolerance may change (older entries
  // without a matrix hash compare by the whole spec's)
  const same =
    last === undefined ||
    (last.spec.matrix && entry.spec.matrix
      ? last.spec.matrix === entry.spec.matrix
      : last.spec.hash === entry.spec.hash);
  if (last && !same)
    throw new InputError(
      `${file}: run ${entry.run_id} measured a different matrix of spec ${entry.spec.name} (its target, data or workloads changed since the history's last run ${last.run_id}): a changed matrix is not a change point; start a new history (another --dir)`,
    );
  await mkdir(dirname(file), { recursive: true });
  await appendFile(file, `${JSON.stringify(entry)}\n`);
  return file;
}

/** The history files under a directory (<profile>/<spec>.jsonl). */
export async function historyFiles(dir: string): Promise<string[]> {
  let profiles: string[];
  try {
    profiles = (await readdir(dir, { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch (e) {
    throw new InputError(`--dir ${dir}: cannot read (${(e as NodeJS.ErrnoException).code ?? e})`);
  }
  const out: string[] = [];
  for (const p of profiles.sort())
    for (const f of (await readdir(join(dir, p))).sort()) if (f.endsWith(".jsonl")) out.push(join(dir, p, f));
  return out;
}
