// `tiperf merge` on the command line: its flags read and checked, then the pipeline's step; the
// synopsis is commands.ts's (`tiperf help merge`).
import { basename, dirname, join } from "node:path";
import { parseOptions } from "../commands.ts";
import { InputError } from "../errors.ts";
import { readFirstVerdict } from "../pipeline/confirm.ts";
import { mergeParts } from "../pipeline/merge.ts";
import { checkOutFile } from "../pipeline/preflight.ts";
import { flags, log, writeJson } from "./args.ts";

export async function cmdMerge(args: string[]): Promise<number> {
  const { values, positionals } = flags("merge", args, parseOptions("merge"));
  if (positionals.length === 0)
    throw new InputError("tiperf merge: give the parts: PART... (each shard's result.json or run directory)");
  if (values.json) await checkOutFile(values.json as string, "--json");
  const first = positionals[0] as string;
  const outDir =
    (values.out as string | undefined) ??
    join("results", `merge-${basename(first.endsWith("result.json") ? dirname(first) : first)}`);
  const confirms = values.confirms
    ? await readFirstVerdict(values.confirms as string, "--confirms")
    : undefined;
  const outcome = await mergeParts(positionals, { outDir, log, ...(confirms ? { confirms } : {}) });
  await writeJson(values.json as string | undefined, outcome.verdict);
  if (outcome.confirm > 0)
    log(
      `to confirm (compare.confirm: ${outcome.confirm}): tiperf compare --confirms ${outcome.verdictPath} --seed N --shard K/N on each runner, then tiperf merge --confirms ${outcome.verdictPath} with their parts`,
    );
  log(`verdict: ${outcome.verdict.verdict} (${outcome.verdictPath}); report: ${outcome.reportPath}`);
  process.stdout.write(`${outcome.verdict.verdict}\n`);
  return outcome.exitCode;
}
