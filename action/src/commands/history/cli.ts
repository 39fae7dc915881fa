// `tiperf history` on the command line: its flags read and checked, then the command's steps; the
// synopsis is cli/commands.ts's (`tiperf help history`).

import { flags, githubToken, log, onePositional, required } from "../../cli/args.ts";
import { parseOptions } from "../../cli/commands.ts";
import { setting } from "../../environment.ts";
import { EXIT, InputError } from "../../errors.ts";
import { acceptancesBetween, markAccepted } from "../../history/accepted.ts";
import {
  type ChangePointReport,
  changePointText,
  checkHistory,
  MIN_SEGMENT,
  raised,
} from "../../history/check.ts";
import { historyHtml } from "../../history/html.ts";
import { appendHistory, entryOf } from "../../history/store.ts";
import { writeAtomic } from "../../proc/files.ts";
import { apiUrl, githubClient, requestFailure, untilDeadline } from "../../publish/github.ts";
import { parseRepo } from "../../publish/names.ts";
import { readResult } from "../../result/store.ts";

export async function cmdHistory(args: string[]): Promise<number> {
  const { values, positionals } = flags("history", args, parseOptions("history"));
  const [action, ...rest] = positionals;
  if (action !== "add" && action !== "check")
    throw new InputError(`tiperf history: the action must be add or check (got ${action ?? "nothing"})`);
  const dir = required("history", "dir", values.dir);
  if (action === "add") {
    for (const f of ["since", "pvalue", "permutations", "min-segment", "json", "html", "accepted-in"])
      if (values[f] !== undefined) throw new InputError(`tiperf history add: --${f} goes with check`);
    const file = onePositional("history add", rest, "RESULT file");
    const result = await readResult(file);
    const commit = (values.commit as string | undefined) ?? setting("GITHUB_SHA");
    if (commit !== undefined && !/^[0-9a-f]{7,40}$/.test(commit))
      throw new InputError(
        `tiperf history add: --commit must be a commit SHA (7–40 hex digits) (got ${JSON.stringify(commit)})`,
      );
    const entry = entryOf(result, file, {
      ...(values.variant ? { variant: values.variant as string } : {}),
      ...(values.profile ? { profile: values.profile as string } : {}),
      ...(commit ? { commit } : {}),
      ...(setting("GITHUB_REF_NAME") ? { ref: setting("GITHUB_REF_NAME") } : {}),
    });
    const written = await appendHistory(dir, entry);
    log(`history: run ${entry.run_id} appended to ${written} (${entry.values.length} series values)`);
    process.stdout.write(`${written}\n`);
    return EXIT.ok;
  }
  if (rest.length) throw new InputError(`tiperf history check: unexpected argument ${rest[0]}`);
  for (const f of ["variant", "profile", "commit"])
    if (values[f] !== undefined) throw new InputError(`tiperf history check: --${f} goes with add`);
  const pvalue = Number((values.pvalue as string | undefined) ?? "0.05");
  if (!(pvalue > 0 && pvalue < 1))
    throw new InputError(
      `tiperf history check: --pvalue must be a number between 0 and 1 (got ${JSON.stringify(values.pvalue)})`,
    );
  const permutations = Number((values.permutations as string | undefined) ?? "199");
  if (!Number.isInteger(permutations) || permutations < 19 || permutations > 10_000)
    throw new InputError(
      `tiperf history check: --permutations must be a whole number from 19 to 10000 (got ${JSON.stringify(values.permutations)})`,
    );
  const minSegment = Number((values["min-segment"] as string | undefined) ?? String(MIN_SEGMENT));
  if (!Number.isInteger(minSegment) || minSegment < 1 || minSegment > 52)
    throw new InputError(
      `tiperf history check: --min-segment must be a whole number of runs from 1 to 52 (got ${JSON.stringify(values["min-segment"])})`,
    );
  const report = await checkHistory(dir, {
    pvalue,
    permutations,
    minSegment,
    ...(values.since ? { since: values.since as string } : {}),
  });
  if (values["accepted-in"]) await markAcceptedIn(report, values["accepted-in"] as string);
  process.stdout.write(changePointText(report));
  if (values.json) await writeAtomic(values.json as string, `${JSON.stringify(report, null, 2)}\n`);
  if (values.html) await writeAtomic(values.html as string, historyHtml(report));
  const worseNew = report.files.some((f) => f.series.some((s) => s.points.some(raised)));
  return worseNew ? EXIT.regression : EXIT.ok;
}

/** --accepted-in OWNER/REPO: the new change points for the worse that a merged pull request accepted, marked. */
async function markAcceptedIn(report: ChangePointReport, value: string): Promise<void> {
  const repo = parseRepo(value, "--accepted-in");
  const gh = githubClient(githubToken("history check --accepted-in"), apiUrl(), log);
  const marked = await markAccepted(report, (from, to) =>
    untilDeadline(gh, acceptancesBetween(gh, repo, from, to)).catch((e) => {
      throw requestFailure(gh, e, `cannot read the pull requests merged in ${value} from ${from} to ${to}`);
    }),
  );
  for (const m of marked)
    log(
      `history: ${m.series}: the change point at run ${m.point.run_id} was accepted by ${m.point.accepted?.by} in #${m.point.accepted?.pr} (perf-regression-expected): not raised`,
    );
}
