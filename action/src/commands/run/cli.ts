// `tiperf run` on the command line: its flags read and checked, then the command's steps; the
// synopsis is cli/commands.ts's (`tiperf help run`).

import { checkOutFile } from "../../bench/preflight.ts";
import { parseShard } from "../../bench/shard.ts";
import { flags, log, specSource, writeJson } from "../../cli/args.ts";
import { parseOptions } from "../../cli/commands.ts";
import { InputError } from "../../errors.ts";
import { runAgainstBaseline } from "./baseline-check.ts";
import { runSpec } from "./index.ts";

export async function cmdRun(args: string[], signal: AbortSignal): Promise<number> {
  const { values, positionals } = flags("run", args, parseOptions("run"));
  if (positionals.length > 0)
    throw new InputError(`tiperf run: unexpected argument ${positionals[0]}; use --spec FILE`);
  const loaded = await specSource("run", values);
  const shard = values.shard === undefined ? undefined : parseShard(values.shard as string);
  if (shard && typeof values.baseline === "string")
    throw new InputError(
      "tiperf run: --shard runs a share of the matrix, which a baseline cannot judge alone: run each shard without --baseline, then tiperf merge --baseline RESULT PART...",
    );
  const runOpts = { outDir: (values.out as string | undefined) ?? "results", log, signal };
  if (typeof values.baseline === "string") {
    if (values.json) await checkOutFile(values.json as string, "--json");
    const checked = await runAgainstBaseline(loaded, values.baseline, runOpts);
    await writeJson(values.json as string | undefined, checked.verdict);
    log(`verdict: ${checked.verdict.verdict}; report: ${checked.htmlPath}`);
    process.stdout.write(`${checked.verdict.verdict}\n`);
    return checked.exitCode;
  }
  if (values.json)
    throw new InputError("tiperf run: --json is the verdict of --baseline; give --baseline RESULT too");
  const outcome = await runSpec(loaded, { ...runOpts, ...(shard ? { shard } : {}) });
  log(`report: ${outcome.runDir.reportPath}`);
  process.stdout.write(`${outcome.runDir.reportPath}\n`);
  return outcome.exitCode;
}
