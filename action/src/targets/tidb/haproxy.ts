// HAProxy on the load host, in front of every TiDB server of a cluster (seed 001's setup): the
// generated config travels as an argument and reaches haproxy on its stdin (`-f /dev/stdin`: no
// file is written on the load host, so none can be left there), haproxy runs in the foreground
// under ssh (the plan's step `haproxy:<deployment>` is its command line), and stopping it is ending
// that ssh session. It counts as started once its port accepts connections on the load host: a load
// tool that connected earlier would fail with "Can't connect … (115)".
import { RunError } from "../../errors.ts";
import type { RemoteHost } from "../../proc/ssh.ts";
import { runTool, type ToolRun } from "../../proc/tool.ts";
import type { Endpoint } from "../types.ts";

export interface RunningHaproxy {
  /** Where the load tools connect, as seen from the load host. */
  endpoint: Endpoint;
  stop(): Promise<void>;
}

/**
 * Bounded: up to `tries` connection attempts to 127.0.0.1:$1, 0.1 s apart; exits 0 on the first that
 * is accepted. Arguments are positional parameters, never part of the script.
 */
const PROBE =
  'i=0; while [ "$i" -lt "$2" ]; do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && exit 0; i=$((i+1)); sleep 0.1; done; exit 1';

/** Pipes `$1` (the config) into the command that follows it (haproxy reading /dev/stdin). */
const CONFIG_ON_STDIN = 'c=$1; shift; printf "%s" "$c" | "$@"';

/** Runs `command` on the load host with `config` on its stdin until stopped; waits until `port` listens. */
export async function startHaproxy(o: {
  remote: RemoteHost;
  config: string;
  /** haproxy's command line (the plan's step), reading its config from stdin. */
  command: string[];
  port: number;
  logFile: string;
  /** How long to wait for the port to accept connections. */
  readyS?: number;
}): Promise<RunningHaproxy> {
  const ac = new AbortController();
  const run: Promise<ToolRun> = runTool("sh", ["-c", CONFIG_ON_STDIN, "sh", o.config, ...o.command], {
    logFile: o.logFile,
    signal: ac.signal,
    remote: o.remote,
  });
  const stop = async () => {
    ac.abort(new Error("teardown"));
    await run;
  };
  const readyS = o.readyS ?? 30;
  const probe = runTool("bash", ["-c", PROBE, "probe", String(o.port), String(readyS * 10)], {
    logFile: `${o.logFile}.probe`,
    remote: o.remote,
    limitS: readyS + 30,
  });
  const first = await Promise.race([run.then((r) => ({ exited: r })), probe.then((r) => ({ probed: r }))]);
  if ("exited" in first)
    throw new RunError(
      `HAProxy on ${o.remote.host} exited at once (code ${first.exited.code}): ${first.exited.output.trim().split("\n").slice(-3).join(" ")} (raw output: ${o.logFile})`,
    );
  if (first.probed.code !== 0) {
    await stop();
    throw new RunError(
      `HAProxy on ${o.remote.host} did not accept connections on 127.0.0.1:${o.port} within ${readyS}s (raw output: ${o.logFile})`,
    );
  }
  return { endpoint: { host: "127.0.0.1", port: o.port }, stop };
}
