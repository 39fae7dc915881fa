import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A new git repository in a temporary directory, and git run in it (a fixed author). */
export function newRepo(prefix = "tiperf-repo-"): { dir: string; git: (...args: string[]) => string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
      cwd: dir,
      encoding: "utf8",
    });
  git("init", "-q");
  return { dir, git };
}
