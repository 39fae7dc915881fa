// compare.confirm: a regression is measured again on fresh instances before it alarms. One run
// confirms its own regression (compare.ts); a comparison spread over runners confirms as shards of
// its own: `tiperf compare --confirms VERDICT --shard K/N` re-runs the first verdict's regressed
// cells, and `tiperf merge --confirms VERDICT` judges those parts and answers the first verdict.
import { readFile } from "node:fs/promises";
import { type Verdict, VerdictSchema } from "../compare/verdict.ts";
import { InputError } from "../errors.ts";
import type { LoadedSpec } from "../specfile/load.ts";
import { type CellRef, narrowSpec } from "../specfile/prepare.ts";

export const cellKey = (c: { workload: string; threads: number; metric: string }) =>
  `${c.workload} threads=${c.threads} ${c.metric}`;

/** What a confirmation re-runs: the regressed cells (each workload and thread count once) and their keys. */
export function regressedCells(verdict: Verdict): { cells: CellRef[]; keys: Set<string> } {
  const regressed = verdict.cells.filter((c) => c.verdict === "regression");
  const cells = [...new Map(regressed.map((c) => [`${c.workload}\u0000${c.threads}`, c])).values()].map(
    (c) => ({ workload: c.workload, threads: c.threads }),
  );
  return { cells, keys: new Set(regressed.map(cellKey)) };
}

/**
 * The spec a confirmation runs: only the regressed cells, no confirmation or profiles of its own;
 * `fresh` drops the spec's seed (a new round order), else the seed given with it stays (a
 * confirmation's shards share the one their workflow fixed).
 */
export function confirmationSpec(loaded: LoadedSpec, first: Verdict, fresh = false) {
  const { cells } = regressedCells(first);
  const absent = cells.filter(
    (c) => !loaded.spec.workloads.some((w) => w.name === c.workload && w.threads.includes(c.threads)),
  );
  if (absent.length)
    throw new InputError(
      `--confirms: the verdict's regressed cell(s) ${absent.map((c) => `${c.workload} threads=${c.threads}`).join(", ")} are not cells of ${loaded.path}: give the spec of the run it judged`,
    );
  return narrowSpec(loaded, cells, { confirm: 0, profiles: 0, ...(fresh ? { seed: null } : {}) });
}

export type ConfirmationRun = NonNullable<Verdict["confirmation"]>["runs"][number];

/**
 * The first verdict answered by its confirmation runs: a regression still only if every run
 * regressed one of the same cells, else inconclusive (the check does not fail on an alarm that
 * did not recur). `how` says how the runs were made, for the note.
 */
export function withConfirmation(first: Verdict, runs: ConfirmationRun[], how: string): Verdict {
  const { keys } = regressedCells(first);
  const confirmed =
    runs.length > 0 &&
    runs.every((r) => r.cells.some((c) => c.verdict === "regression" && keys.has(cellKey(c))));
  const alpha = 1 - first.confidence;
  const falseAlarm = alpha ** (1 + runs.length);
  const shown = runs
    .flatMap((r) => r.cells.filter((c) => keys.has(cellKey(c))))
    .map(
      (c) => `${cellKey(c)} ${c.change === null ? "n/a" : `${(c.change * 100).toFixed(1)}%`} (${c.verdict})`,
    )
    .join("; ");
  return {
    ...first,
    verdict: confirmed ? "regression" : "inconclusive",
    confirmation: { confirmed, first: first.verdict, runs, false_alarm: falseAlarm },
    notes: [
      ...first.notes,
      confirmed
        ? `confirmed on fresh instances (${how}): ${shown}; a false alarm needs the first run and ${runs.length === 1 ? "the confirmation" : `all ${runs.length} confirmations`} to err alike: ${(falseAlarm * 100).toPrecision(2)}% if the runs are independent (α = ${(alpha * 100).toPrecision(2)}% each)`
        : `not confirmed: the regression the first run found did not recur on fresh instances (${how}: ${shown || "no cell judged"}); the check does not fail on it`,
    ],
  };
}

/** --confirms FILE: the first run's verdict (a regression) that a confirmation answers. */
export async function readFirstVerdict(file: string, flag: string): Promise<Verdict> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new InputError(`${flag} ${file}: cannot read the file (${(e as NodeJS.ErrnoException).code})`);
  }
  let parsed: ReturnType<typeof VerdictSchema.safeParse>;
  try {
    parsed = VerdictSchema.safeParse(JSON.parse(text));
  } catch {
    throw new InputError(`${flag} ${file}: not JSON: give the verdict.json of the run to confirm`);
  }
  if (!parsed.success)
    throw new InputError(
      `${flag} ${file}: not a tiperf verdict (${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message})`,
    );
  const v = parsed.data;
  if (v.verdict !== "regression" || v.confirmation)
    throw new InputError(
      `${flag} ${file}: its verdict is ${v.verdict}${v.confirmation ? ", already confirmed or not" : ""}: only an unconfirmed regression is confirmed`,
    );
  return v;
}
