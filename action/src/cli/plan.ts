// `tiperf plan` on the command line: its flags read and checked, then the pipeline's step; the
// synopsis is commands.ts's (`tiperf help plan`).
import { parseOptions } from "../commands.ts";
import { EXIT, InputError } from "../errors.ts";
import { withSourceBuilds } from "../pipeline/builds.ts";
import { planRun, writePlan } from "../pipeline/plan.ts";
import { flags, log, specSource } from "./args.ts";

export async function cmdPlan(args: string[]): Promise<number> {
  const { values, positionals } = flags("plan", args, parseOptions("plan"));
  if (positionals.length > 0)
    throw new InputError(`tiperf plan: unexpected argument ${positionals[0]}; use --spec FILE`);
  // a target built from source: the plan names each commit's binary (kept, or to be built)
  const loaded = await withSourceBuilds(await specSource("plan", values), { log, dryRun: true });
  const runId = values["run-id"];
  if (typeof runId === "string" && !/^[A-Za-z0-9._-]{1,200}$/.test(runId))
    throw new InputError(
      `tiperf plan: --run-id must be a run id like 20261125T080000Z-pr-1a2b (letters, digits, . _ -), got ${JSON.stringify(runId)}`,
    );
  const shards = values.shards === undefined ? undefined : Number(values.shards);
  if (shards !== undefined && !(Number.isInteger(shards) && shards >= 1 && shards <= 64))
    throw new InputError(
      `tiperf plan: --shards must be a whole number of runners from 1 to 64 (got ${values.shards})`,
    );
  const plan = await planRun(loaded, {
    ...(typeof values.profile === "string" ? { profile: values.profile } : {}),
    ...(typeof runId === "string" ? { runId } : {}),
    ...(shards !== undefined ? { shards } : {}),
  });
  process.stdout.write(plan.text);
  if (typeof values.out === "string") {
    const written = await writePlan(plan, values.out);
    log(`plan: wrote ${written.length} files to ${values.out}`);
  }
  if (plan.refusals.length) {
    for (const r of plan.refusals) log(`error: ${r}`);
    return EXIT.badInput;
  }
  return EXIT.ok;
}
