// A private tidb-server's command line: what its plan leaves to its start (ports, work directory),
// the program (a build, or tiup's installed component) and its flags.
import { COUNTERS_SOCKET_ENV } from "../../counting.ts";
import type { Role } from "../../profile.ts";
import type { ServerDeployment } from "./types.ts";

/**
 * What a private server's plan leaves to its start: its ports (free ones on 127.0.0.1) and its
 * work directory (data, socket, log). The run fills them in; `tiperf plan` prints them as they are.
 */
export const serverSlots = (d: ServerDeployment) => ({
  port: `<port of ${d.name}>`,
  status: `<status port of ${d.name}>`,
  dir: `<workdir of ${d.name}>`,
});

/** The tidb-server program of a deployment: its binpath, else tiup's installed component. */
export const serverProgram = (d: ServerDeployment, tiupHome: string) =>
  d.binpath ?? `${tiupHome}/components/tidb/${d.version}/tidb-server`;

/**
 * Where the server runs its program from: a copy of it in its work directory, written afresh at
 * every start and restart. How a binary's file sits in the page cache is part of the instance:
 * two byte-identical copies of one tidb-server build kept a steady +9.7% gap on oltp_insert here
 * over 8 restarts (one file for both: −0.2%), so each instance gets its own fresh copy and the
 * blocks sample that gap instead of taking it for the change.
 */
export const serverCopy = (d: ServerDeployment) => `${serverSlots(d).dir}/bin/tidb-server`;

/**
 * tidb-server alone on its embedded store (unistore, as TiDB developers run it), SQL and status on
 * 127.0.0.1 only (a password-less root), its own ports, socket, data path, temp dir and log file;
 * -config-strict makes a config key it does not know fail the start instead of being logged and
 * ignored.
 */
export function serverArgs(d: ServerDeployment, dir: string): string[] {
  const slot = serverSlots(d);
  return [
    serverCopy(d),
    "-store",
    "unistore",
    "-path",
    `${slot.dir}/data`,
    "-host",
    "127.0.0.1",
    "-P",
    slot.port,
    "-status",
    slot.status,
    "-status-host",
    "127.0.0.1",
    "-temp-dir",
    `${slot.dir}/tmp`,
    "-socket",
    `${slot.dir}/tidb.sock`,
    "-log-file",
    `${slot.dir}/tidb.log`,
    // else TiDB writes tidb-slow.log into whatever directory it was started from
    "-log-slow-query",
    `${slot.dir}/tidb-slow.log`,
    ...(d.configFile ? ["-config", `${dir}/${d.configFile}`, "-config-strict"] : []),
  ];
}

/** The variables a counting build is started with: the socket of its counters, in its work directory. */
export const serverEnv = (d: ServerDeployment): Record<string, string> | undefined =>
  d.counting ? { [COUNTERS_SOCKET_ENV]: countersSocket(d) } : undefined;

/** Where a counting build serves its counters (targets/tidb/counting.ts). */
export const countersSocket = (d: ServerDeployment): string => `${serverSlots(d).dir}/counters.sock`;

/** Its status API (the only role it has). */
export const serverStatus = (d: ServerDeployment): Record<Role, string[]> => ({
  tidb: [`127.0.0.1:${serverSlots(d).status}`],
  tikv: [],
  pd: [],
  tiflash: [],
});
