// compare.confirm: a regression is measured again on fresh instances before it alarms. One run
// confirms its own regression (compare.ts); a comparison spread over runners confirms as shards of
// its own: `tiperf compare --confirms VERDICT --shard K/N` re-runs the first verdict's regressed
// cells, and `tiperf merge --confirms VERDICT` judges those parts and answers the first verdict.
import { readFile } from "node:fs/promises";
import { parseVerdict, type Verdict } from "../../compare/verdict.ts";
import { InputError } from "../../errors.ts";
import type { LoadedSpec } from "../../specfile/load.ts";
import { type CellRef, narrowSpec } from "../../specfile/prepare.ts";

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
  let parsed: ReturnType<typeof parseVerdict>;
  try {
    parsed = parseVerdict(JSON.parse(text));
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

/** What a confirmation's comparison answers: its verdict and where its result is. */
export interface Remeasured {
  verdict: Verdict;
  resultPath: string;
}

/**
 * compare.confirm: a regression is re-measured before it alarms. The regressed cells run again on
 * fresh instances (a new comparison: new servers, its own round order); the verdict stays a
 * regression only if every re-run finds one of the same cells regressed, else it is inconclusive.
 * A false alarm then needs every run to err the same way: α^(1+N) if the runs are independent.
 * Yields each narrowed spec to re-measure (the command runs it, under `<dir>/confirm`, and passes
 * back what it found); returns the verdict answered.
 */
export async function* confirmRegression(
  verdict: Verdict,
  loaded: LoadedSpec,
  compare: { confirm: number; budget?: number | undefined },
  spent: { elapsedS: number; cells: number },
  log: (line: string) => void,
): AsyncGenerator<LoadedSpec, Verdict, Remeasured> {
  const confirm = compare.confirm;
  if (verdict.verdict !== "regression" || confirm === 0) return verdict;
  const { cells, keys } = regressedCells(verdict);
  // within compare.budget: a re-run of these cells costs about their share of what the first run took
  const needS = (spent.elapsedS * confirm * cells.length) / Math.max(1, spent.cells);
  if (compare.budget !== undefined && spent.elapsedS + needS > compare.budget) {
    const t = (x: number) => (x < 120 ? `${Math.round(x)} s` : `${Math.round(x / 60)} min`);
    log(
      `not confirming the regression: ~${t(needS)} more would pass compare.budget (${t(compare.budget)}, ${t(spent.elapsedS)} spent)`,
    );
    return {
      ...verdict,
      notes: [
        ...verdict.notes,
        `not confirmed on fresh instances: the re-run of the regressed cells (~${t(needS)}) would not fit compare.budget (${t(compare.budget)}, ${t(spent.elapsedS)} spent); the first run's verdict stands alone`,
      ],
    };
  }
  const runs: ConfirmationRun[] = [];
  for (
    let i = 1;
    i <= confirm && (i === 1 || withConfirmation(verdict, runs, "").verdict === "regression");
    i++
  ) {
    log(`confirming the regression (${i} of ${confirm}): ${[...keys].join(", ")} again on fresh instances`);
    const rerun = yield await confirmationSpec(loaded, verdict, true);
    runs.push({
      run_id: rerun.verdict.head.run_id,
      result: rerun.resultPath,
      verdict: rerun.verdict.verdict,
      cells: rerun.verdict.cells,
    });
  }
  return withConfirmation(verdict, runs, `compare.confirm: ${confirm}`);
}

/**
 * The first verdict answered by its confirmation, run as shards and merged: confirmed only if the
 * merged run regressed one of the same cells; the confirmation's shards are named in its notes.
 */
function confirmed(first: Verdict, run: Verdict, resultPath: string): Verdict {
  const { keys } = regressedCells(first);
  const measured = new Set(run.cells.map(cellKey));
  const absent = [...keys].filter((k) => !measured.has(k));
  if (absent.length === keys.size)
    throw new InputError(
      `tiperf merge --confirms: these parts measured none of the regressed cells they should confirm (${[...keys].join(", ")}): give the parts of \`tiperf compare --confirms\` of that verdict`,
    );
  const of = run.shards?.of ?? 1;
  const lost = run.shards?.missing ?? [];
  const answered = withConfirmation(
    first,
    [{ run_id: run.head.run_id, result: resultPath, verdict: run.verdict, cells: run.cells }],
    `compare.confirm as ${of - lost.length} of ${of} shard(s) on fresh instances`,
  );
  return {
    ...answered,
    ...(answered.confirmation && lost.length
      ? { confirmation: { ...answered.confirmation, missing_shards: lost } }
      : {}),
    notes: [
      ...answered.notes,
      `the confirmation: ${run.notes.find((n) => /shards merged/.test(n)) ?? `${of} shard(s)`}`,
    ],
  };
}

/**
 * Where the merged verdict stands with compare.confirm: these parts answer a first verdict
 * (--confirms), or a regression to be confirmed by shards of its own next (said in its notes).
 */
export function confirmStep(
  merged: Verdict,
  first: Verdict | undefined,
  wanted: number,
  resultPath: string,
): { verdict: Verdict; confirm: number } {
  if (first) return { verdict: confirmed(first, merged, resultPath), confirm: 0 };
  const confirm = merged.verdict === "regression" ? wanted : 0;
  if (confirm === 0) return { verdict: merged, confirm };
  const note = `to be confirmed on fresh instances (compare.confirm: ${confirm}) by shards of its own: \`tiperf compare --confirms\` this verdict on each runner, then \`tiperf merge --confirms\` this verdict with their parts`;
  return { verdict: { ...merged, notes: [...merged.notes, note] }, confirm };
}
