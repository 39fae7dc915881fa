// `tiperf parse` on the command line: its flags read and checked, then the command's steps; the
// synopsis is cli/commands.ts's (`tiperf help parse`).
import { readFile } from "node:fs/promises";
import { flags } from "../../cli/args.ts";
import { parseOptions } from "../../cli/commands.ts";
import { DRIVERS, driverNames } from "../../drivers/registry.ts";
import { EXIT, InputError } from "../../errors.ts";

export async function cmdParse(args: string[]): Promise<number> {
  const { positionals } = flags("parse", args, parseOptions("parse"));
  const [tool, file, extra] = positionals;
  const parse = tool === undefined ? undefined : DRIVERS[tool]?.parse;
  if (!parse)
    throw new InputError(
      `tiperf parse: the tool must be ${driverNames().join(" or ")} (got ${tool ?? "nothing"})`,
    );
  if (!file || extra) throw new InputError(`tiperf parse ${tool}: give exactly one FILE`);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new InputError(
      `tiperf parse ${tool}: ${file}: cannot read the file (${(e as NodeJS.ErrnoException).code})`,
    );
  }
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch (e) {
    // Parsers only read text: whatever they refuse is the file's content (a failure it reports).
    throw new InputError(`${file}: ${(e as Error).message}`);
  }
  process.stdout.write(`${JSON.stringify(parsed, null, 2)}\n`);
  return EXIT.ok;
}
