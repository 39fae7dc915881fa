// `tiperf alarm` on the command line: its flags read and checked, then the command's steps; the
// synopsis is cli/commands.ts's (`tiperf help alarm`).

import { deadlines, flags, githubToken, log, onePositional, required } from "../../cli/args.ts";
import { parseOptions } from "../../cli/commands.ts";
import { leftoversMarkdown, leftoversTitle, readReapReport } from "../../cloud/leftovers.ts";
import { readBisect } from "../../compare/bisect-read.ts";
import { readVerdict } from "../../compare/verdict.ts";
import { EXIT } from "../../errors.ts";
import { changePointIssue, readChangePoints } from "../../history/check.ts";
import { apiUrl, githubClient, upsertIssue } from "../../publish/github.ts";
import { parseRepo } from "../../publish/names.ts";
import { bisectIssue } from "../../report/bisect.ts";
import { commentMarkdown } from "../../report/comment.ts";

export async function cmdAlarm(args: string[]): Promise<number> {
  const { values, positionals } = flags("alarm", args, parseOptions("alarm"));
  const file = onePositional("alarm", positionals, "VERDICT_JSON file (or a reap report)");
  const repo = parseRepo(required("alarm", "repo", values.repo));
  const changes = await readChangePoints(file);
  if (changes) {
    const issue = changePointIssue(changes, `${repo.owner}/${repo.repo}`);
    if (!issue) {
      process.stdout.write("no new change point for the worse: no issue\n");
      return EXIT.ok;
    }
    const label = (values.label as string | undefined) ?? "tiperf-change-point";
    const gh = githubClient(githubToken("alarm"), apiUrl(), log, undefined, deadlines("alarm", values));
    const r = await upsertIssue(gh, repo, { ...issue, label }, log);
    process.stdout.write(`${r.status} ${r.number}\n`);
    return EXIT.ok;
  }
  const leftovers = await readReapReport(file);
  if (leftovers) {
    if (leftovers.overdue.length === 0) {
      process.stdout.write("nothing overdue: no issue\n");
      return EXIT.ok;
    }
    const label = (values.label as string | undefined) ?? "tiperf-leftovers";
    const gh = githubClient(githubToken("alarm"), apiUrl(), log, undefined, deadlines("alarm", values));
    const r = await upsertIssue(
      gh,
      repo,
      { title: leftoversTitle(leftovers), body: leftoversMarkdown(leftovers), label },
      log,
    );
    process.stdout.write(`${r.status} ${r.number}\n`);
    return EXIT.ok;
  }
  const bisected = await readBisect(file);
  if (bisected) {
    const issue = bisectIssue(bisected);
    if (!issue) {
      process.stdout.write(`bisect ${bisected.outcome}: no issue\n`);
      return EXIT.ok;
    }
    const label = (values.label as string | undefined) ?? "tiperf-bisect";
    const gh = githubClient(githubToken("alarm"), apiUrl(), log, undefined, deadlines("alarm", values));
    const r = await upsertIssue(gh, repo, { ...issue, label }, log);
    process.stdout.write(`${r.status} ${r.number}\n`);
    return EXIT.ok;
  }
  const verdict = await readVerdict(file);
  const label = (values.label as string | undefined) ?? "tiperf-regression";
  const gh = githubClient(githubToken("alarm"), apiUrl(), log, undefined, deadlines("alarm", values));
  const title = `tiperf ${verdict.spec.name}: ${verdict.verdict} (${verdict.created_at.slice(0, 10)})`;
  const r = await upsertIssue(
    gh,
    repo,
    { title, body: commentMarkdown(verdict, { matrix: label }), label },
    log,
  );
  process.stdout.write(`${r.status} ${r.number}\n`);
  return EXIT.ok;
}
