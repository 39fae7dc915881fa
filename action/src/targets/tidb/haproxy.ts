// HAProxy on the load host, in front of every TiDB server of a cluster (seed 001's setup): the
// generated config travels as an argument (no file copy step), haproxy runs in the foreground under
// ssh, and stopping it is ending that ssh session.
import { RunError } from "../../errors.ts";
import type { RemoteHost } from "../../proc/ssh.ts";
import { runTool, type ToolRun } from "../../proc/tool.ts";
import type { Endpoint } from "../types.ts";

export interface RunningHaproxy {
  /** Where the load tools connect, as seen from the load host. */
  endpoint: Endpoint;
  stop(): Promise<void>;
}

/** Writes `config` to `file` on the load host and runs `haproxy -db -f file` there until stopped. */
export async function startHaproxy(o: {
  remote: RemoteHost;
  config: string;
  file: string;
  port: number;
  logFile: string;
  /** How long haproxy must stay up to count as started (a bad config exits at once). */
  settleMs?: number;
}): Promise<RunningHaproxy> {
  const ac = new AbortController();
  const run: Promise<ToolRun> = runTool(
    "sh",
    ["-c", 'printf "%s" "$1" > "$2" && exec haproxy -db -f "$2"', "sh", o.config, o.file],
    { logFile: o.logFile, signal: ac.signal, remote: o.remote },
  );
  const early = await Promise.race([run, new Promise<undefined>((r) => setTimeout(r, o.settleMs ?? 1500))]);
  if (early)
    throw new RunError(
      `HAProxy on ${o.remote.host} exited at once (code ${early.code}): ${early.output.trim().split("\n").slice(-3).join(" ")} (raw output: ${o.logFile})`,
    );
  return {
    endpoint: { host: "127.0.0.1", port: o.port },
    stop: async () => {
      ac.abort(new Error("teardown"));
      await run;
    },
  };
}
