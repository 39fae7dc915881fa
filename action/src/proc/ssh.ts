// Running a program on another machine (a profile's load host) over OpenSSH, with the same
// guarantees as a local child: argument arrays (quoted once, by shellQuote), output streamed back,
// and nothing left running there when tiperf stops it or goes away.
import { shellCommand } from "./quote.ts";

export interface RemoteHost {
  host: string;
  user: string;
  port: number;
  /** Private key file (ssh -i); else ssh's defaults and agent. */
  identity?: string;
  /** known_hosts file; a host seen first is recorded there (ephemeral machines have new keys). */
  knownHosts?: string;
}

/**
 * The remote side. The program runs in its own process group (setsid), stdin closed; a watcher
 * reads signal names from ssh's stdin (fd 3: a plain `&` would give it /dev/null) and forwards each
 * to the group — "INT" is go-ycsb's normal stop. End of input (tiperf stopped the program, or ssh
 * died with tiperf) sends SIGTERM, then SIGKILL 3 s later. Exits with the program's status.
 */
const WRAPPER = [
  "exec 3<&0",
  'setsid "$@" </dev/null 3<&- & p=$!',
  '( while read -r s; do kill -s "$s" -- "-$p" 2>/dev/null; done; kill -s TERM -- "-$p" 2>/dev/null; sleep 3; kill -s KILL -- "-$p" 2>/dev/null ) <&3 & w=$!',
  "exec 3<&-",
  'wait "$p"; s=$?',
  'kill "$w" 2>/dev/null',
  'exit "$s"',
].join("\n");

/** The one command line the remote shell parses: the wrapper with the program's arguments. */
export function remoteCommand(argv: readonly string[]): string {
  return shellCommand(["sh", "-c", WRAPPER, "sh", ...argv]);
}

/** ssh's own arguments: batch mode (never a password prompt), keepalives, the host key policy. */
export function sshArgs(h: RemoteHost, remote: string): string[] {
  return [
    "-o",
    "BatchMode=yes",
    "-o",
    "StrictHostKeyChecking=accept-new",
    ...(h.knownHosts ? ["-o", `UserKnownHostsFile=${h.knownHosts}`] : []),
    "-o",
    "ServerAliveInterval=15",
    "-o",
    "ServerAliveCountMax=4",
    "-o",
    "ConnectTimeout=15",
    "-p",
    String(h.port),
    ...(h.identity ? ["-i", h.identity, "-o", "IdentitiesOnly=yes"] : []),
    "-l",
    h.user,
    h.host,
    "--",
    remote,
  ];
}
