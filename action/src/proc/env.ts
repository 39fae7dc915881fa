import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { inherited } from "../environment.ts";

/**
 * The environment every child of tiperf gets: servers, database clients, load tools. It is built,
 * not inherited: client defaults a user may have set for their own shell (MYSQL_PWD, PGPASSWORD,
 * PGHOST …) must not change what tiperf connects to, and credentials tiperf was given (GITHUB_TOKEN,
 * cloud keys) must not reach a database server or a load generator.
 */
const PASSED = [
  "PATH",
  "HOME",
  "TMPDIR",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "LC_MESSAGES",
  "LC_NUMERIC",
  "TZ",
  "USER",
  "LOGNAME",
  // tiup keeps its components, clusters and playground data under TIUP_HOME (default ~/.tiup)
  "TIUP_HOME",
  "TIUP_MIRRORS",
  // ssh (the load host, tiup's native ssh) may authenticate through an agent
  "SSH_AUTH_SOCK",
] as const;

/** A clean environment: only the variables above, from `from`, plus `extra`. */
export function childEnv(
  extra: Record<string, string> = {},
  from: NodeJS.ProcessEnv = inherited(),
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of PASSED) {
    const value = from[key];
    if (value !== undefined) env[key] = value;
  }
  // sysbench and the database clients print numbers the parsers read: keep them in the C locale.
  env.LC_NUMERIC = "C";
  if (env.PATH === undefined) env.PATH = "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin";
  return { ...env, ...extra };
}

/** An executable on the PATH children get, or an absolute path; undefined if none. */
export function findTool(name: string, path = childEnv().PATH ?? ""): string | undefined {
  const candidates = name.includes("/") ? [name] : path.split(delimiter).map((d) => join(d, name));
  return candidates.find((c) => {
    try {
      accessSync(c, constants.X_OK);
      return statSync(c).isFile();
    } catch {
      return false;
    }
  });
}

/** The first of `names` that is installed (see findTool), else the first name (its spawn fails loudly). */
/** Whether any of these programs is there. */
export const anyTool = (names: readonly string[]): boolean => names.some((n) => findTool(n) !== undefined);

/** The MySQL-protocol command-line client, by either of its names (MariaDB's, MySQL's). */
export const MYSQL_CLIENTS = ["mariadb", "mysql"] as const;

export const firstTool = (names: readonly string[]): string =>
  names.map((n) => findTool(n)).find((t) => t !== undefined) ?? (names[0] as string);

/**
 * How to run tiperf again from here, for a message that tells the user a command: the CLI this
 * process runs (`node /…/cli.js`), or `tiperf` when it runs as something else (the Action, a test).
 */
export function tiperfCommand(): string {
  const script = process.argv[1];
  if (!script || !/cli\.[cm]?[jt]s$/.test(script)) return "tiperf";
  // the sources, as a contributor runs them
  return `node ${script.endsWith("ts") ? "--import tsx " : ""}${resolve(script)}`;
}
