// `tiperf calibrate` on the command line: its flags read as calibrate's options (options.ts), the
// calibration run, the file written printed; the synopsis is cli/commands.ts's (`tiperf help calibrate`).

import { flags, log } from "../../cli/args.ts";
import { parseOptions } from "../../cli/commands.ts";
import { EXIT, InputError } from "../../errors.ts";
import { flagDoor } from "../door.ts";
import { execCalibrate } from "./index.ts";
import { calibrateRequest } from "./options.ts";

export async function cmdCalibrate(args: string[], signal: AbortSignal): Promise<number> {
  const { values, positionals } = flags("calibrate", args, parseOptions("calibrate"));
  if (positionals.length > 0) throw new InputError(`tiperf calibrate: unexpected argument ${positionals[0]}`);
  const request = await calibrateRequest(flagDoor("calibrate", values), { out: "results" });
  const out = await execCalibrate(request, { log, signal });
  process.stdout.write(`${out.written}\n`);
  return EXIT.ok;
}
