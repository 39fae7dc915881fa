// `tiperf comment` on the command line: its flags read and checked, then the command's steps; the
// synopsis is cli/commands.ts's (`tiperf help comment`).

import { deadlines, flags, githubToken, log, onePositional, required } from "../../cli/args.ts";
import { parseOptions } from "../../cli/commands.ts";
import { readVerdict } from "../../compare/verdict.ts";
import { EXIT } from "../../errors.ts";
import { publishVerdict } from "../../publish/index.ts";
import { parsePr, parseRepo } from "../../publish/names.ts";

export async function cmdComment(args: string[]): Promise<number> {
  const { values, positionals } = flags("comment", args, parseOptions("comment"));
  const verdictFile = onePositional("comment", positionals, "VERDICT_JSON file");
  const { owner, repo } = parseRepo(required("comment", "repo", values.repo));
  const pr = parsePr(required("comment", "pr", values.pr));
  const token = githubToken("comment");
  const verdict = await readVerdict(verdictFile);
  const outcome = await publishVerdict(verdict, {
    pr: { owner, repo, pr },
    token,
    matrix: values.matrix as string | undefined,
    fullReport: "the run's report artifact",
    deadlines: deadlines("comment", values),
    log,
  });
  process.stdout.write(`${outcome.status}${outcome.commentId ? ` ${outcome.commentId}` : ""}\n`);
  return EXIT.ok;
}
