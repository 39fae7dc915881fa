// `tiperf run` on the command line: its flags read as run's options (options.ts), the run (judged
// against --baseline when given), its report or verdict printed; the synopsis is cli/commands.ts's
// (`tiperf help run`).

import { flags, log, writeJson } from "../../cli/args.ts";
import { parseOptions } from "../../cli/commands.ts";
import { InputError } from "../../errors.ts";
import { flagDoor } from "../door.ts";
import { execRun } from "./index.ts";
import { runRequest } from "./options.ts";

export async function cmdRun(args: string[], signal: AbortSignal): Promise<number> {
  const { values, positionals } = flags("run", args, parseOptions("run"));
  if (positionals.length > 0)
    throw new InputError(`tiperf run: unexpected argument ${positionals[0]}; use --spec FILE`);
  const { request, json } = await runRequest(flagDoor("run", values), { out: "results" });
  const done = await execRun(request, { log, signal });
  // the file a later run is judged against (--baseline), or tiperf baseline update promotes
  log(`result: ${done.resultPath}`);
  if (done.verdict) {
    await writeJson(json, done.verdict);
    log(`verdict: ${done.verdict.verdict}; report: ${done.reportPath}`);
    process.stdout.write(`${done.verdict.verdict}\n`);
  } else {
    log(`report: ${done.reportPath}`);
    process.stdout.write(`${done.reportPath}\n`);
  }
  return done.exitCode;
}
