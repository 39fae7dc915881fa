// `tiperf export` on the command line: its flags read and checked, then the command's steps; the
// synopsis is cli/commands.ts's (`tiperf help export`).

import { flags, log, onePositional, required, writeJson } from "../../cli/args.ts";
import { parseOptions } from "../../cli/commands.ts";
import { EXIT, InputError } from "../../errors.ts";
import { gabEntries } from "../../report/gab.ts";
import { readResult } from "../../result/store.ts";

export async function cmdExport(args: string[]): Promise<number> {
  const { values, positionals } = flags("export", args, parseOptions("export"));
  const [format, ...rest] = positionals;
  if (format !== "gab")
    throw new InputError(`tiperf export: the format must be gab (got ${format ?? "nothing"})`);
  const file = onePositional("export gab", rest, "RESULT file");
  const out = required("export gab", "out", values.out);
  const better = (values.better as string | undefined) ?? "higher";
  if (better !== "higher" && better !== "lower")
    throw new InputError(
      `tiperf export gab: --better must be higher (TPS/QPS, customBiggerIsBetter) or lower (latency, customSmallerIsBetter) (got ${better})`,
    );
  const entries = gabEntries(await readResult(file), better, values.variant as string | undefined);
  if (entries.length === 0)
    throw new InputError(`tiperf export gab: ${file} has no finished cells to export`);
  await writeJson(out, entries);
  log(
    `export: ${entries.length} ${better === "higher" ? "customBiggerIsBetter" : "customSmallerIsBetter"} entries in ${out}`,
  );
  process.stdout.write(`${out}\n`);
  return EXIT.ok;
}
