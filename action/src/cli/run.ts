// `tiperf run` on the command line: its flags read and checked, then the pipeline's step; the
// synopsis is commands.ts's (`tiperf help run`).
import { parseOptions } from "../commands.ts";
import { InputError } from "../errors.ts";
import { runAgainstBaseline } from "../pipeline/baseline-check.ts";
import { checkOutFile } from "../pipeline/preflight.ts";
import { runSpec } from "../pipeline/run.ts";
import { parseShard } from "../pipeline/shard.ts";
import { flags, log, specSource, writeJson } from "./args.ts";

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
