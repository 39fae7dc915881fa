// Running a program on another machine (a profile's load host) over OpenSSH, with the same
// guarantees as a local child: argument arrays (quoted once, by shellQuote), output streamed back,
// and nothing left running there when tiperf stops it or goes away.
import { RunError } from "../errors.ts";
import { shellCommand } from "./quote.ts";

export interface RemoteHost {
  host: string;
  user: string;
  port: number;
  /** Private key file (ssh -i); else ssh's defaults and agent. */
  identity?: string;
  /** known_hosts file; a host seen first is recorded there (ephemeral machines have new keys). */
  knownHosts?: string;
  /** A bastion ssh goes through first (ProxyCommand `ssh -W`): machines reachable only from it. */
  jump?: RemoteHost;
}

/**
 * The remote side. The program runs in its own process group (setsid), stdin closed; a watcher
 * reads signal names from ssh's stdin (fd 3: a plain `&` would give it /dev/null) and forwards each
 * to the group (to the process itself while setsid has not made the group yet, so an early signal
 * is not lost). End of input (tiperf stopped the program, or ssh died with tiperf) sends SIGTERM,
 * then SIGKILL 3 s later. With a stop time ($1, else empty), SIGINT — go-ycsb's normal end — goes to
 * the group that many seconds after the program started there, so ssh's own connection time does
 * not shorten the run; the timer is a process group of its own, removed when the program ends.
 * Exits with the program's status.
 */
const WRAPPER = [
  "exec 3<&0",
  "n=$1; shift",
  'setsid "$@" </dev/null 3<&- & p=$!',
  '( while read -r s; do kill -s "$s" -- "-$p" 2>/dev/null || kill -s "$s" "$p" 2>/dev/null; done; kill -s TERM -- "-$p" 2>/dev/null; sleep 3; kill -s KILL -- "-$p" 2>/dev/null ) <&3 & w=$!',
  "exec 3<&-",
  't=""',
  'if [ -n "$n" ]; then setsid sh -c \'sleep "$1"; kill -s INT -- "-$2" 2>/dev/null || kill -s INT "$2"\' sh "$n" "$p" </dev/null & t=$!; fi',
  'wait "$p"; s=$?',
  'kill "$w" 2>/dev/null',
  'if [ -n "$t" ]; then kill -- "-$t" 2>/dev/null; fi',
  'exit "$s"',
].join("\n");

/**
 * The one command line the remote shell parses: the wrapper with the program's arguments; with
 * `stopAfterS`, the program gets SIGINT that many seconds after it started there.
 */
export function remoteCommand(argv: readonly string[], stopAfterS?: number): string {
  return shellCommand([
    "sh",
    "-c",
    WRAPPER,
    "sh",
    stopAfterS === undefined ? "" : String(stopAfterS),
    ...argv,
  ]);
}

/**
 * A file path as an ssh option value (IdentityFile, UserKnownHostsFile): in double quotes (spaces),
 * each % doubled (%d, %u… are tokens there). `-i` is not used: ssh checks its path before expanding.
 */
export function sshPath(path: string): string {
  if (/["\n\\]/.test(path))
    throw new RunError(
      `ssh cannot be given the path ${JSON.stringify(path)}: it holds a double quote, backslash or newline`,
    );
  return `"${path.replace(/%/g, "%%")}"`;
}

/** ssh's options for one host: batch mode (never a password prompt), keepalives, key policy, key, user. */
function hostOptions(h: RemoteHost): string[] {
  return [
    "-o",
    "BatchMode=yes",
    "-o",
    "StrictHostKeyChecking=accept-new",
    // "Permanently added … to the list of known hosts" would land in the tool's output
    "-o",
    "LogLevel=ERROR",
    ...(h.knownHosts ? ["-o", `UserKnownHostsFile=${sshPath(h.knownHosts)}`] : []),
    "-o",
    "ServerAliveInterval=15",
    "-o",
    "ServerAliveCountMax=4",
    "-o",
    "ConnectTimeout=15",
    "-p",
    String(h.port),
    ...(h.identity ? ["-o", `IdentityFile=${sshPath(h.identity)}`, "-o", "IdentitiesOnly=yes"] : []),
    "-l",
    h.user,
    ...(h.jump ? ["-o", `ProxyCommand=${proxyCommand(h.jump)}`] : []),
  ];
}

/**
 * The ProxyCommand reaching a host through `jump`: ssh runs it with the user's shell after
 * expanding %-tokens, so each argument is quoted by shellQuote and every % of it doubled; only
 * the target's %h:%p stays a token. A jump of its own chains (bastion behind bastion).
 */
export function proxyCommand(jump: RemoteHost): string {
  const args = ["ssh", ...hostOptions(jump), "-W", "%h:%p", jump.host];
  return args.map((a) => (a === "%h:%p" ? a : shellCommand([a]).replace(/%/g, "%%"))).join(" ");
}

/** ssh's own arguments for running `remote` (one shell command line) on `h`. */
export function sshArgs(h: RemoteHost, remote: string): string[] {
  return [...hostOptions(h), h.host, "--", remote];
}
