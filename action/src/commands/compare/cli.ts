// `tiperf compare` on the command line: its flags read and checked, then the command's steps; the
// synopsis is cli/commands.ts's (`tiperf help compare`).

import { checkOutFile } from "../../bench/preflight.ts";
import { parseShard } from "../../bench/shard.ts";
import { waveFor } from "../../bench/waves.ts";
import { flags, log, specSource, writeJson } from "../../cli/args.ts";
import { parseOptions } from "../../cli/commands.ts";
import { InputError } from "../../errors.ts";
import { parseLogin } from "../../publish/names.ts";
import { confirmationSpec, readFirstVerdict } from "./confirm.ts";
import { compareSpec } from "./index.ts";

export async function cmdCompare(args: string[], signal: AbortSignal): Promise<number> {
  const { values, positionals } = flags("compare", args, parseOptions("compare"));
  if (positionals.length > 0)
    throw new InputError(`tiperf compare: unexpected argument ${positionals[0]}; use --spec FILE`);
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && !(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 31))
    throw new InputError(
      `tiperf compare: --seed must be a whole number from 0 to 2^31−1 (got ${values.seed})`,
    );
  const shard = values.shard === undefined ? undefined : parseShard(values.shard as string);
  if (values["look-of"] && values.confirms)
    throw new InputError(
      "tiperf compare: --look-of and --confirms: give one (a further look, or a confirmation)",
    );
  const given = await specSource("compare", values);
  // --look-of: a further look of this comparison's shards (its spec and seed, its runners)
  const look = values["look-of"]
    ? await waveFor(values["look-of"] as string, "--look-of", { spec: given, shard })
    : undefined;
  // --confirms: the first run's regressed cells again, on fresh instances (its own seed and shards)
  const loaded = values.confirms
    ? await confirmationSpec(given, await readFirstVerdict(values.confirms as string, "--confirms"))
    : given;
  if (values.json) await checkOutFile(values.json as string, "--json");
  const outcome = await compareSpec(loaded, {
    outDir: (values.out as string | undefined) ?? "results",
    log,
    signal,
    seed,
    ...(shard ? { shard } : {}),
    ...(look ? { look } : {}),
    ...(values["accepted-by"] ? { acceptedBy: parseLogin(values["accepted-by"] as string) } : {}),
  });
  await writeJson(values.json as string | undefined, outcome.verdict);
  log(`verdict: ${outcome.verdict.verdict} (${outcome.verdictPath}); report: ${outcome.reportPath}`);
  process.stdout.write(`${outcome.verdict.verdict}\n`);
  return outcome.exitCode;
}
