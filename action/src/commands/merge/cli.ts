// `tiperf merge` on the command line: its flags read as merge's options (options.ts), the parts
// merged, what follows said; the synopsis is cli/commands.ts's (`tiperf help merge`).
import { basename, dirname, join } from "node:path";
import { flags, log, writeJson } from "../../cli/args.ts";
import { parseOptions } from "../../cli/commands.ts";
import { InputError } from "../../errors.ts";
import { flagDoor } from "../door.ts";
import { mergeEither } from "./either.ts";
import type { MergeOutcome } from "./index.ts";
import { mergeRequest } from "./options.ts";
import type { RunMergeOutcome } from "./runs.ts";

export async function cmdMerge(args: string[]): Promise<number> {
  const { values, positionals } = flags("merge", args, parseOptions("merge"));
  if (positionals.length === 0)
    throw new InputError("tiperf merge: give the parts: PART... (each shard's result.json or run directory)");
  const first = positionals[0] as string;
  const { request, json } = await mergeRequest(flagDoor("merge", values), positionals, {
    out: join("results", `merge-${basename(first.endsWith("result.json") ? dirname(first) : first)}`),
  });
  const { parts, ...options } = request;
  const merged = await mergeEither(parts, {
    ...options,
    log,
    misfit: (option, parts) => {
      throw new InputError(
        parts === "run"
          ? `tiperf merge: --${option === "maxLooks" ? "max-looks" : option} is for the parts of a comparison (compare --shard); these are shares of a run`
          : "tiperf merge: --baseline judges the shares of a run (run --shard); a comparison's parts are judged head against base",
      );
    },
  });
  return merged.parts === "run" ? saidRun(merged.outcome, json) : saidComparison(merged.outcome, json);
}

/** A comparison's parts merged: the verdict, and what runs next (a confirmation, a further look). */
async function saidComparison(outcome: MergeOutcome, json: string | undefined): Promise<number> {
  await writeJson(json, outcome.verdict);
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

/** Shares of a run's matrix joined into one result, judged against --baseline when given. */
async function saidRun(outcome: RunMergeOutcome, json: string | undefined): Promise<number> {
  await writeJson(json, outcome.verdict ?? outcome.result);
  const said = outcome.verdict?.verdict ?? outcome.result.status;
  log(
    `merged run: ${said} (${outcome.resultPath})${outcome.htmlPath ? `; report: ${outcome.htmlPath}` : ""}`,
  );
  process.stdout.write(`${said}\n`);
  return outcome.exitCode;
}
