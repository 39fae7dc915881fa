// What GitHub names, as a flag or input gives them, checked: a repository, a pull request, a login.
import { InputError } from "../errors.ts";

export function parseRepo(value: string, flag = "--repo"): { owner: string; repo: string } {
  const m = /^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100})$/.exec(value);
  if (!m)
    throw new InputError(`${flag} must be OWNER/REPO, like pingcap/tidb (got ${JSON.stringify(value)})`);
  return { owner: m[1] as string, repo: m[2] as string };
}

export function parsePr(value: string, flag = "--pr"): number {
  if (!/^[1-9][0-9]{0,9}$/.test(value))
    throw new InputError(`${flag} must be a pull request number, like 42 (got ${JSON.stringify(value)})`);
  return Number(value);
}

/**
 * A GitHub login (letters, digits and single hyphens, up to 39; an app's ends in [bot]): who
 * accepted a regression (--accepted-by, the action's accepted-by input).
 */
export function parseLogin(value: string, flag = "--accepted-by"): string {
  if (!/^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}(?:\[bot\])?$/.test(value))
    throw new InputError(
      `${flag} must be a GitHub login (letters, digits and single hyphens, up to 39), the one who accepted the regression (got ${JSON.stringify(value)})`,
    );
  return value;
}
