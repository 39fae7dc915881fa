import type { Verdict } from "../compare/verdict.ts";
import { InputError } from "../errors.ts";
import { commentMarkdown } from "../report/comment.ts";
import {
  apiUrl,
  type CommentOutcome,
  commitOfPullRequest,
  type Deadlines,
  githubClient,
  type PullRequest,
  upsertComment,
} from "./github.ts";
import { writeJobSummary } from "./summary.ts";

export interface PublishOptions {
  /** Where to comment; without it (no PR, or comments off) only the job summary is written. */
  pr?: PullRequest;
  token?: string;
  matrix?: string;
  fullReport?: string;
  /**
   * The commit the verdict is of, when the pull request came with the verdict (handed over from
   * another workflow run): posted only if GitHub has this commit in that pull request.
   */
  ofCommit?: string;
  env?: NodeJS.ProcessEnv;
  deadlines?: Deadlines;
  log: (line: string) => void;
}

/** The verdict where people look: the job summary (when in Actions) and the PR's sticky comment. */
export async function publishVerdict(v: Verdict, o: PublishOptions): Promise<CommentOutcome> {
  const matrix = o.matrix ?? v.spec.name;
  const body = commentMarkdown(v, { matrix, fullReport: o.fullReport });
  if (await writeJobSummary(body, o.env)) o.log("job summary: written");
  if (!o.pr || !o.token) return { status: "skipped", reason: o.pr ? "no token" : "no pull request" };
  const gh = githubClient(o.token, apiUrl(o.env), o.log, undefined, o.deadlines);
  if (o.ofCommit) {
    const where = `${o.pr.owner}/${o.pr.repo}#${o.pr.pr}`;
    const found = await commitOfPullRequest(gh, o.pr, o.ofCommit);
    if (found === "no")
      throw new InputError(
        `not posted: ${o.ofCommit} is no commit of ${where}; the verdict handed over names a pull request its run was not for`,
      );
    o.log(
      found === "head"
        ? `comment: ${o.ofCommit.slice(0, 12)} is the head of ${where}`
        : `comment: ${o.ofCommit.slice(0, 12)} is an earlier commit of ${where} (pushed over since); the verdict is of that commit`,
    );
  }
  // nothing measured (base and head one target): an earlier comment is updated, none is created,
  // so that a busy repository's pull requests that leave the spec alone get no comment
  const quiet = v.same_target !== undefined && !v.shards?.missing.length;
  return upsertComment(gh, o.pr, body, matrix, o.log, quiet);
}
