// `tiperf compare` on the command line: its flags read as compare's options (options.ts), the
// comparison run, its verdict printed; the synopsis is cli/commands.ts's (`tiperf help compare`).

import { flags, log, writeJson } from "../../cli/args.ts";
import { parseOptions } from "../../cli/commands.ts";
import { InputError } from "../../errors.ts";
import { flagDoor } from "../door.ts";
import { execCompare } from "./index.ts";
import { compareRequest } from "./options.ts";

export async function cmdCompare(args: string[], signal: AbortSignal): Promise<number> {
  const { values, positionals } = flags("compare", args, parseOptions("compare"));
  if (positionals.length > 0)
    throw new InputError(`tiperf compare: unexpected argument ${positionals[0]}; use --spec FILE`);
  const { request, json } = await compareRequest(flagDoor("compare", values), { out: "results" });
  const outcome = await execCompare(request, { log, signal });
  await writeJson(json, outcome.verdict);
  log(`verdict: ${outcome.verdict.verdict} (${outcome.verdictPath}); report: ${outcome.reportPath}`);
  process.stdout.write(`${outcome.verdict.verdict}\n`);
  return outcome.exitCode;
}
