// tiperf's own SQL to an existing server: the database clients with the password in their
// environment (MYSQL_PWD, PGPASSWORD), never on a command line, and TLS when the profile asks.

import { inherited } from "../../environment.ts";
import { RunError } from "../../errors.ts";
import { childEnv, firstTool, MYSQL_CLIENTS } from "../../proc/env.ts";
import { runCommand } from "../../proc/process.ts";
import { maskSecrets } from "../../proc/secrets.ts";
import type { Connection } from "../types.ts";
import type { EndpointSpec } from "./schema.ts";

export type Sql = (query: string) => Promise<string>;

/** The client command line for one statement (the plan prints it; no password in it). */
export function clientArgs(
  protocol: Connection["protocol"],
  ep: EndpointSpec,
  query: string,
  database?: string,
): string[] {
  if (protocol === "mysql")
    return [
      firstTool(MYSQL_CLIENTS),
      "--no-defaults",
      "-h",
      ep.host,
      "-P",
      String(ep.port),
      "-u",
      ep.user,
      ...(ep.tls ? ["--ssl", "--ssl-verify-server-cert"] : []),
      ...(database ? ["-D", database] : []),
      "-N",
      "-B",
      "-e",
      query,
    ];
  return [
    "psql",
    "-X",
    "-A",
    "-t",
    "-q",
    "-v",
    "ON_ERROR_STOP=1",
    "-h",
    ep.host,
    "-p",
    String(ep.port),
    "-U",
    ep.user,
    "-d",
    database ?? "postgres",
    "-c",
    query,
  ];
}

/** The password the profile names, from the environment; a missing variable names the key. */
export function passwordOf(ep: EndpointSpec, file: string, env: NodeJS.ProcessEnv = inherited()): string {
  if (!ep.password_env) return "";
  const value = env[ep.password_env];
  if (value === undefined)
    throw new RunError(
      `${file}: endpoint.password_env names ${ep.password_env}, which is not set in tiperf's environment`,
    );
  return value;
}

/** Runs statements on the endpoint as tiperf; a failure says which statement and what the server said. */
export function endpointSql(
  protocol: Connection["protocol"],
  ep: EndpointSpec,
  password: string,
  database?: string,
): Sql {
  const env = childEnv(
    protocol === "mysql"
      ? password
        ? { MYSQL_PWD: password }
        : {}
      : {
          ...(password ? { PGPASSWORD: password } : {}),
          PGSSLMODE: ep.tls ? "require" : "prefer",
          PGCONNECT_TIMEOUT: "10",
        },
  );
  return async (query) => {
    const [cmd, ...args] = clientArgs(protocol, ep, query, database);
    const r = await runCommand(cmd as string, args, { timeoutMs: 60_000, env });
    if (r.code !== 0)
      throw new RunError(
        maskSecrets(
          `${ep.user}@${ep.host}:${ep.port}: ${query.slice(0, 120)} failed: ${(r.stderr || r.stdout).trim().slice(-600)}`,
        ),
      );
    return r.stdout.trim();
  };
}
