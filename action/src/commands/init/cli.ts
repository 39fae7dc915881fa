// `tiperf init` on the command line: its flags read and checked, then the command's steps; the
// synopsis is cli/commands.ts's (`tiperf help init`).
import { existsSync } from "node:fs";
import { flags } from "../../cli/args.ts";
import { parseOptions } from "../../cli/commands.ts";
import { EXIT, InputError } from "../../errors.ts";
import { initRepository } from "../../init/index.ts";

export async function cmdInit(args: string[]): Promise<number> {
  const { values, positionals } = flags("init", args, parseOptions("init"));
  if (positionals.length)
    throw new InputError(`tiperf init: unexpected argument ${positionals[0]}; use --dir DIR`);
  if (values.tidb && values.dispatch) throw new InputError("tiperf init: --tidb or --dispatch, not both");
  const kase = values.tidb ? "tidb" : values.dispatch ? "dispatch" : "config";
  const dir = typeof values.dir === "string" ? values.dir : ".";
  if (!existsSync(dir)) throw new InputError(`tiperf init: --dir ${dir}: no such directory`);
  await initRepository(dir, kase, (line) => process.stdout.write(`${line}\n`));
  return EXIT.ok;
}
