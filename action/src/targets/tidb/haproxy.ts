// HAProxy on the load host, in front of every TiDB server of a cluster (seed 001's setup): the
// generated config travels as an argument and reaches haproxy on its stdin (`-f /dev/stdin`: no
// file is written on the load host, so none can be left there), haproxy runs in the foreground
// under ssh (the plan's step `haproxy:<deployment>` is its command line), and stopping it is ending
// that ssh session. It counts as started once its port accepts connections on the load host: a load
// tool that connected earlier would fail with "Can't connect … (115)".
import { RunError } from "../../errors.ts";
import { PORT_TRIES, portTaken, startOnFreePort } from "../../proc/port.ts";
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

/** How long HAProxy must keep running after its port first answers (a failed bind ends it at once). */
const STILL_UP_MS = 500;

/** Pipes `$1` (the config) into the command that follows it (haproxy reading /dev/stdin). */
const CONFIG_ON_STDIN = 'c=$1; shift; printf "%s" "$c" | "$@"';

/**
 * Runs `command` on the load host with `config` on its stdin until stopped; waits until its port
 * listens. The profile's port (haproxy_port) may be taken there — by another job, before or after
 * tiperf looked: HAProxy then starts on the next port (bounded by PORT_TRIES, each try logged), its
 * config's bind line moved with it; the endpoint returned says where the load tools connect.
 */
export async function startHaproxy(o: {
  remote: RemoteHost;
  config: string;
  /** haproxy's command line (the plan's step), reading its config from stdin. */
  command: string[];
  port: number;
  logFile: string;
  log: (line: string) => void;
  /** How long to wait for the port to accept connections. */
  readyS?: number;
}): Promise<RunningHaproxy> {
  const where = `HAProxy on ${o.remote.host}`;
  const taken: number[] = [];
  try {
    return await startOnFreePort(
      async (k) => {
        const port = o.port + k;
        // something listening there already: not HAProxy's bind to wait for
        if (await accepts(o.remote, port, `${o.logFile}.taken`)) {
          taken.push(port);
          throw new Listening(`${where}: port ${port} already accepts connections (something else listens)`);
        }
        return await startOn(o, port, o.config.replace(/^(\s*bind\s+127\.0\.0\.1:)\d+/m, `$1${port}`));
      },
      o.log,
      {
        again: (k, e) =>
          `${where}: port ${o.port + k} ${e instanceof Listening ? "already accepts connections (something else listens)" : "was taken before HAProxy could bind it"}; trying ${o.port + k + 1}`,
        // found listening by the probe, or HAProxy's own failed bind
        retryable: (e) => e instanceof Listening || portTaken(e),
      },
    );
  } catch (e) {
    if (taken.length === PORT_TRIES)
      throw new RunError(
        `${where}: ports ${o.port}–${o.port + PORT_TRIES - 1} already accept connections there (something else listens): set the profile's haproxy_port to a free port`,
      );
    throw e;
  }
}

/** What a try finds when something else already listens on its port: the next port is tried. */
class Listening extends RunError {}

/** Whether something on the load host accepts connections on 127.0.0.1:`port` now. */
async function accepts(remote: RemoteHost, port: number, logFile: string): Promise<boolean> {
  const probe = await runTool("bash", ["-c", PROBE, "probe", String(port), "1"], {
    logFile,
    remote,
    limitS: 30,
  });
  return probe.code === 0;
}

/**
 * HAProxy bound to `port` (its config says so): up once the port accepts connections and HAProxy
 * is still running a moment later (a probe can reach another listener before a failed bind ends it).
 */
async function startOn(
  o: { remote: RemoteHost; command: string[]; logFile: string; readyS?: number },
  port: number,
  config: string,
): Promise<RunningHaproxy> {
  const ac = new AbortController();
  const run: Promise<ToolRun> = runTool("sh", ["-c", CONFIG_ON_STDIN, "sh", config, ...o.command], {
    logFile: o.logFile,
    signal: ac.signal,
    remote: o.remote,
  });
  const stop = async () => {
    ac.abort(new Error("teardown"));
    await run;
  };
  const readyS = o.readyS ?? 30;
  const probe = runTool("bash", ["-c", PROBE, "probe", String(port), String(readyS * 10)], {
    logFile: `${o.logFile}.probe`,
    remote: o.remote,
    limitS: readyS + 30,
  });
  const exited = (r: ToolRun) =>
    new RunError(
      `HAProxy on ${o.remote.host} exited at once (code ${r.code}): ${r.output.trim().split("\n").slice(-3).join(" ")} (raw output: ${o.logFile})`,
    );
  const first = await Promise.race([run.then((r) => ({ exited: r })), probe.then((r) => ({ probed: r }))]);
  if ("exited" in first) throw exited(first.exited);
  if (first.probed.code !== 0) {
    await stop();
    throw new RunError(
      `HAProxy on ${o.remote.host} did not accept connections on 127.0.0.1:${port} within ${readyS}s (raw output: ${o.logFile})`,
    );
  }
  const settled = await Promise.race([
    run.then((r) => ({ exited: r })),
    new Promise<{ up: true }>((res) => setTimeout(() => res({ up: true }), STILL_UP_MS)),
  ]);
  if ("exited" in settled) throw exited(settled.exited);
  return { endpoint: { host: "127.0.0.1", port }, stop };
}
