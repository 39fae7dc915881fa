// The load tools a bench runs: each looked up once when it opens (on PATH here; by name on a load
// host or in a pod), the load host's CPU count, and a failed step in the tool's own words.
import { cpus } from "node:os";
import { mostSpecificLine } from "../drivers/failure.ts";
import { driverOf } from "../drivers/registry.ts";
import type { ToolCommand, Workload } from "../drivers/types.ts";
import { RunError } from "../errors.ts";
import { runCommand } from "../proc/process.ts";
import { type RemoteHost, sshArgs } from "../proc/ssh.ts";
import type { ToolRun } from "../proc/tool.ts";
import type { Spec } from "../specfile/schema.ts";

const lastLines = (text: string, n = 4) => text.trimEnd().split("\n").slice(-n).join("\n");

/** Why a step of a load tool failed, in the tool's own words where it has some. */
export function describeFailure(
  tool: string,
  step: string,
  r: ToolRun,
  said: string | undefined,
  limit: string,
  server: string,
): string {
  if (r.timedOut) {
    return `${step}: ${tool} did not finish within ${limit} and was stopped after ${r.elapsed_s.toFixed(1)}s; ${server}`;
  }
  if (r.aborted) return `${step} stopped: ${r.aborted}`;
  const cause = said ?? mostSpecificLine(r.output);
  const how =
    r.code === 0 && said
      ? "exited 0 but failed"
      : `exited ${r.signal ? `on ${r.signal}` : `with code ${r.code}`}`;
  return `${step}: ${tool} ${how}${cause ? `: ${cause}` : `:\n${lastLines(r.output)}`}`;
}

/** The load host's CPU count (`nproc` over SSH), so data loads there use its cores; this machine's if it cannot say. */
export async function loadHostCores(remote: RemoteHost, log: (line: string) => void): Promise<number> {
  const r = await runCommand("ssh", sshArgs(remote, "nproc"), { timeoutMs: 60_000 });
  const n = Number(r.stdout.trim());
  if (r.code === 0 && Number.isInteger(n) && n > 0) return n;
  log(
    `load host ${remote.host}: nproc did not answer (${(r.stderr || r.stdout).trim().slice(0, 120) || `exit ${r.code}`}); loading with this machine's CPU count`,
  );
  return cpus().length;
}

export const toolKey = (w: Workload) => `${w.driver}:${w.script}`;

/**
 * The program of every workload, looked up on PATH once when the bench opens, not per cell. On a
 * load host or in a pod the tool is called by its name there (a missing one fails its first step, exit 127).
 */
export function findTools(spec: Spec, elsewhere: boolean): Map<string, ToolCommand> {
  const tools = new Map<string, ToolCommand>();
  for (const w of spec.workloads) {
    if (tools.has(toolKey(w))) continue;
    const driver = driverOf(w.driver);
    const tool = elsewhere ? driver.namedTool(w.script) : driver.findTool(w.script);
    if (!tool)
      throw new RunError(`workload ${w.name}: ${w.driver} is not installed (install ${driver.install})`);
    tools.set(toolKey(w), tool);
  }
  return tools;
}
