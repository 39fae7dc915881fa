import type { Verdict } from "../compare/verdict.ts";
import { commentMarkdown } from "../report/comment.ts";
import {
  apiUrl,
  type CommentOutcome,
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
  return upsertComment(
    githubClient(o.token, apiUrl(o.env), o.log, undefined, o.deadlines),
    o.pr,
    body,
    matrix,
    o.log,
  );
}
