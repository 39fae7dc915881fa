// `tiperf calibrate` on the command line: its flags read and checked, then the command's steps; the
// synopsis is cli/commands.ts's (`tiperf help calibrate`).

import { flags, log, required } from "../../cli/args.ts";
import { parseOptions } from "../../cli/commands.ts";
import { EXIT, InputError } from "../../errors.ts";
import { calibrate } from "./index.ts";

export async function cmdCalibrate(args: string[], signal: AbortSignal): Promise<number> {
  const { values, positionals } = flags("calibrate", args, parseOptions("calibrate"));
  if (positionals.length > 0) throw new InputError(`tiperf calibrate: unexpected argument ${positionals[0]}`);
  const spec = required("calibrate", "spec", values.spec);
  const out = await calibrate(spec, {
    outDir: (values.out as string | undefined) ?? "results",
    ...(values.write ? { into: values.write as string } : {}),
    ...(values["from-result"] ? { fromResult: values["from-result"] as string } : {}),
    log,
    signal,
  });
  process.stdout.write(`${out.written}\n`);
  return EXIT.ok;
}
