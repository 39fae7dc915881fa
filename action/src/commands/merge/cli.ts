// `tiperf merge` on the command line: its flags read and checked, then the command's steps; the
// synopsis is cli/commands.ts's (`tiperf help merge`).
import { basename, dirname, join } from "node:path";
import { isRunPart } from "../../bench/parts.ts";
import { checkOutFile } from "../../bench/preflight.ts";
import { flags, log, writeJson } from "../../cli/args.ts";
import { parseOptions } from "../../cli/commands.ts";
import { InputError } from "../../errors.ts";
import { parseLogin } from "../../publish/names.ts";
import { readFirstVerdict } from "../compare/confirm.ts";
import { mergeParts } from "./index.ts";
import { mergeRunParts } from "./runs.ts";

export async function cmdMerge(args: string[]): Promise<number> {
  const { values, positionals } = flags("merge", args, parseOptions("merge"));
  if (positionals.length === 0)
    throw new InputError("tiperf merge: give the parts: PART... (each shard's result.json or run directory)");
  if (values.json) await checkOutFile(values.json as string, "--json");
  const first = positionals[0] as string;
  const outDir =
    (values.out as string | undefined) ??
    join("results", `merge-${basename(first.endsWith("result.json") ? dirname(first) : first)}`);
  if (await isRunPart(first)) return mergeRuns(positionals, outDir, values);
  if (values.baseline)
    throw new InputError(
      "tiperf merge: --baseline judges the shares of a run (run --shard); a comparison's parts are judged head against base",
    );
  const confirms = values.confirms
    ? await readFirstVerdict(values.confirms as string, "--confirms")
    : undefined;
  const maxLooks = values["max-looks"] === undefined ? undefined : Number(values["max-looks"]);
  if (maxLooks !== undefined && !(Number.isInteger(maxLooks) && maxLooks >= 1 && maxLooks <= 6))
    throw new InputError(
      `tiperf merge: --max-looks must be a whole number of looks from 1 to 6 (got ${values["max-looks"]})`,
    );
  const outcome = await mergeParts(positionals, {
    outDir,
    log,
    ...(maxLooks ? { maxLooks } : {}),
    ...(confirms ? { confirms } : {}),
    ...(values["accepted-by"] ? { acceptedBy: parseLogin(values["accepted-by"] as string) } : {}),
  });
  await writeJson(values.json as string | undefined, outcome.verdict);
  if (outcome.confirm > 0)
    log(
      `to confirm (compare.confirm: ${outcome.confirm}): tiperf compare --confirms ${outcome.verdictPath} --seed N --shard K/N on each runner, then tiperf merge --confirms ${outcome.verdictPath} with their parts`,
    );
  if (outcome.look)
    log(
      `to look again (compare.looks): tiperf compare --look-of ${outcome.verdictPath} --shard K/${outcome.verdict.shards?.of ?? "N"} on each runner (the spec and flags the design's shards ran with), then tiperf merge the design's parts and theirs`,
    );
  log(`verdict: ${outcome.verdict.verdict} (${outcome.verdictPath}); report: ${outcome.reportPath}`);
  process.stdout.write(`${outcome.verdict.verdict}\n`);
  return outcome.exitCode;
}

/** Shares of a run's matrix: joined into one result, judged against --baseline when given. */
async function mergeRuns(parts: string[], outDir: string, values: Record<string, unknown>): Promise<number> {
  for (const flag of ["confirms", "max-looks"])
    if (values[flag] !== undefined)
      throw new InputError(
        `tiperf merge: --${flag} is for the parts of a comparison (compare --shard); these are shares of a run`,
      );
  const baseline = typeof values.baseline === "string" ? values.baseline : undefined;
  const outcome = await mergeRunParts(parts, { outDir, log, ...(baseline ? { baseline } : {}) });
  await writeJson(values.json as string | undefined, outcome.verdict ?? outcome.result);
  const said = outcome.verdict?.verdict ?? outcome.result.status;
  log(
    `merged run: ${said} (${outcome.resultPath})${outcome.htmlPath ? `; report: ${outcome.htmlPath}` : ""}`,
  );
  process.stdout.write(`${said}\n`);
  return outcome.exitCode;
}
