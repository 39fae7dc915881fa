// The pull request that adopts tiperf: its spec is new at the head and absent at the base, so
// there is nothing to compare against. The check passes, and measures the head's target against
// itself (an A/A of the spec's design) so that its comment says what the check will detect on
// this runner and gives the noise to commit as compare.noise.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { promisify } from "node:util";
import { stringify } from "yaml";
import { type LoadedSpec, specOfValue } from "./load.ts";

type Obj = Record<string, unknown>;

/**
 * Whether `spec` is absent at `ref` while the ref itself is a commit here: a spec new at the head.
 * A ref that is not fetched is not "absent" (the caller's own error says to fetch it).
 */
export async function absentAt(spec: string, ref: string, cwd?: string): Promise<boolean> {
  const at = atRef(ref, spec, cwd);
  const git = (args: string[]) =>
    promisify(execFile)("git", args, { cwd: at.dir }).then(
      () => true,
      () => false,
    );
  if (!(await git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]))) return false;
  return !(await git(["cat-file", "-e", at.name]));
}

/**
 * Where git reads the spec at a commit, and the spec as git names it there (`ref:./file`): git
 * runs in the spec's own directory (the nearest one on disk), so a path is taken as given (absolute,
 * or relative to `cwd`), not from the repository's top, and the refs are the spec's repository's
 * wherever tiperf runs.
 */
export function atRef(ref: string, spec: string, cwd = process.cwd()): { dir: string; name: string } {
  const file = resolve(cwd, spec);
  let dir = dirname(file);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  return { dir, name: `${ref}:./${relative(dir, file)}` };
}

/**
 * The head's spec as an A/A of its design: its target on both sides, no confirmation or profiles,
 * marked `adoption` with why (the comparison passes whatever it finds, and reports the noise).
 */
export function adoptionSpec(spec: string, baseRef: string, headRef: string, headRaw: Obj): LoadedSpec {
  const { variants: _v, compare, ...rest } = headRaw;
  const given = (compare ?? {}) as Obj;
  const { noise: _n, base: _b, head: _h, control: _c, max_rounds: _m, ...design } = given;
  const raw: Obj = {
    ...rest,
    variants: { base: {}, head: {} },
    compare: { ...design, base: "base", head: "head", confirm: 0, profiles: 0 },
  };
  const loaded = specOfValue(raw, `${spec}@${headRef} (new: an A/A of its design)`);
  return {
    ...loaded,
    path: spec,
    composed: stringify(raw),
    adoption: {
      spec,
      why: `${spec} is new at ${headRef} (absent at ${baseRef}): nothing to compare against, so the check passes; this run measured ${headRef}'s target against itself (an A/A of the spec's design) to show what the check detects on this runner`,
    },
  };
}
