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
] as const;

/** A clean environment: only the variables above, from `from`, plus `extra`. */
export function childEnv(
  extra: Record<string, string> = {},
  from: NodeJS.ProcessEnv = process.env,
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
