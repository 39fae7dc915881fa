// git, as tiperf asks it things: an argument array, never a shell; the first line of stderr kept
// for messages.
import { runCommand } from "./process.ts";

export interface GitAnswer {
  code: number | null;
  out: string;
  /** The first line of what git said on stderr. */
  err: string;
}

export async function git(repo: string, args: string[], timeoutMs = 120_000): Promise<GitAnswer> {
  const r = await runCommand("git", ["-C", repo, ...args], { timeoutMs });
  return { code: r.code, out: r.stdout.trim(), err: r.stderr.trim().split("\n")[0] ?? "" };
}

/** A ref of `repo` as its full commit SHA and subject, or git's words when it names no commit. */
export async function commitAt(
  repo: string,
  ref: string,
): Promise<{ commit: string; subject: string } | { error: string }> {
  const r = await git(repo, ["log", "-1", "--format=%H%x00%s", `${ref}^{commit}`, "--"]);
  if (r.code !== 0) return { error: r.err || `git exit ${r.code}` };
  const [commit = "", subject = ""] = r.out.split("\u0000");
  return { commit, subject };
}
