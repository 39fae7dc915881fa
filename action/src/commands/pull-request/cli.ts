// `tiperf pull-request` on the command line: its flags read and checked, then the command's steps; the
// synopsis is cli/commands.ts's (`tiperf help pull-request`).
import { readFile } from "node:fs/promises";
import { deadlines, flags, githubToken, log, required } from "../../cli/args.ts";
import { parseOptions } from "../../cli/commands.ts";
import { EXIT, InputError } from "../../errors.ts";
import { apiUrl, githubClient, openPullRequest } from "../../publish/github.ts";
import { parseRepo } from "../../publish/names.ts";

export async function cmdPullRequest(args: string[]): Promise<number> {
  const { values, positionals } = flags("pull-request", args, parseOptions("pull-request"));
  if (positionals.length > 0)
    throw new InputError(`tiperf pull-request: unexpected argument ${positionals[0]}`);
  const repo = parseRepo(required("pull-request", "repo", values.repo));
  const bodyFile = values["body-file"] as string | undefined;
  const body = bodyFile ? await readFile(bodyFile, "utf8") : "";
  const n = await openPullRequest(
    githubClient(githubToken("pull-request"), apiUrl(), log, undefined, deadlines("pull-request", values)),
    repo,
    {
      head: required("pull-request", "head", values.head),
      base: required("pull-request", "base", values.base),
      title: required("pull-request", "title", values.title),
      body,
    },
    log,
  );
  process.stdout.write(`${n}\n`);
  return EXIT.ok;
}
