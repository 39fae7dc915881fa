// tiup itself: where it keeps its data, where its program is, and one subcommand run with its
// output kept in raw/ and its failure told in its own last lines.
import { homedir } from "node:os";
import { join } from "node:path";
import { setting } from "../../environment.ts";
import { RunError } from "../../errors.ts";
import { findTool } from "../../proc/env.ts";
import { shellCommand } from "../../proc/quote.ts";
import { runTool } from "../../proc/tool.ts";

/** Where tiup keeps its components and playground data ($TIUP_HOME, else ~/.tiup). */
export const tiupHome = () => setting("TIUP_HOME") || join(homedir(), ".tiup");

export const lastLines = (text: string, n = 6) => text.trimEnd().split("\n").slice(-n).join("\n");

/** The tiup program on the PATH; its absence is named with what to install. */
export function tiupProgram(): string {
  const tiup = findTool("tiup");
  if (!tiup)
    throw new RunError(
      "target.kind tidb: tiup is not installed (install it from tiup.io, then `tiup install playground cluster`)",
    );
  return tiup;
}

/**
 * Runs a planned tiup command line (`tiup cluster deploy …`), its output in raw/tiup-<sub>-<name>.log;
 * throws with tiup's last lines on a non-zero exit, a timeout or a stop.
 */
export async function runTiup(
  argv: string[],
  o: { rawDir: string; what: string; signal: AbortSignal; limitS?: number },
): Promise<string> {
  const limitS = o.limitS ?? 1800;
  const [, ...args] = argv;
  const logFile = join(
    o.rawDir,
    `tiup-${argv[2] ?? argv[1]}-${argv[3] ?? ""}.log`.replace(/-\.log$/, ".log"),
  );
  const r = await runTool(tiupProgram(), args, { logFile, signal: o.signal, limitS });
  if (r.aborted) throw new RunError(`${o.what}: stopped: ${r.aborted}`);
  if (r.timedOut)
    throw new RunError(
      `${o.what}: \`${shellCommand(argv)}\` did not finish within ${limitS}s (raw output: ${logFile})`,
    );
  if (r.code !== 0)
    throw new RunError(
      `${o.what}: \`${shellCommand(argv)}\` exited with code ${r.code}:\n${lastLines(r.output)}\n(raw output: ${logFile})`,
    );
  return r.output;
}
