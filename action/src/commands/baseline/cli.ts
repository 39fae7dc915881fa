// `tiperf baseline` on the command line: its flags read and checked, then the command's steps; the
// synopsis is cli/commands.ts's (`tiperf help baseline`).

import { flags, log, onePositional } from "../../cli/args.ts";
import { parseOptions } from "../../cli/commands.ts";
import { EXIT, InputError } from "../../errors.ts";
import { promoteBaseline } from "../../result/baseline.ts";

export async function cmdBaseline(args: string[]): Promise<number> {
  const { values, positionals } = flags("baseline", args, parseOptions("baseline"));
  const [action, ...rest] = positionals;
  if (action !== "update")
    throw new InputError(`tiperf baseline: the action must be update (got ${action ?? "nothing"})`);
  const file = onePositional("baseline update", rest, "RESULT file");
  const written = await promoteBaseline(
    file,
    (values.dir as string | undefined) ?? "baselines",
    values.profile as string | undefined,
  );
  log(`baseline: ${written}`);
  process.stdout.write(`${written}\n`);
  return EXIT.ok;
}
