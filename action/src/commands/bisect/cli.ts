// `tiperf bisect` on the command line: its flags read as bisect's options (options.ts), the search
// run, its outcome printed; the synopsis is cli/commands.ts's (`tiperf help bisect`).
import { flags, log } from "../../cli/args.ts";
import { parseOptions } from "../../cli/commands.ts";
import { InputError } from "../../errors.ts";
import { writeAtomic } from "../../proc/files.ts";
import { flagDoor } from "../door.ts";
import { bisectSpec } from "./index.ts";
import { bisectRequest } from "./options.ts";

export async function cmdBisect(args: string[], signal: AbortSignal): Promise<number> {
  const { values, positionals } = flags("bisect", args, parseOptions("bisect"));
  if (positionals.length > 0) throw new InputError(`tiperf bisect: unexpected argument ${positionals[0]}`);
  const request = await bisectRequest(flagDoor("bisect", values));
  if ("nothing" in request) return request.nothing;
  const { json, ...options } = request;
  const outcome = await bisectSpec({ ...options, log, signal });
  if (json) await writeAtomic(json, `${JSON.stringify(outcome.report, null, 2)}\n`);
  if (outcome.leg) {
    const m = outcome.leg.measured;
    process.stdout.write(
      `${m ? `measured ${m.candidate.commit} ${m.mark}` : "idle"}\n${outcome.leg.ended ? "ended\n" : ""}`,
    );
    return outcome.exitCode;
  }
  // found: the first bad commit; undecided or unconfirmed: the open range as after..through
  const { first_bad, open_range } = outcome.report;
  const named = first_bad
    ? ` ${first_bad.commit}`
    : open_range
      ? ` ${open_range.after.commit}..${open_range.through.commit}`
      : "";
  process.stdout.write(`${outcome.report.outcome}${named}
`);
  return outcome.exitCode;
}
