// `tiperf plan` on the command line: its flags read as plan's options (options.ts), the plan
// printed; the synopsis is cli/commands.ts's (`tiperf help plan`).
import { readFile } from "node:fs/promises";
import { planRun, writePlan } from "../../bench/plan.ts";
import { flags, log } from "../../cli/args.ts";
import { parseOptions } from "../../cli/commands.ts";
import { EXIT, InputError } from "../../errors.ts";
import { git } from "../../proc/git.ts";
import { atRef } from "../../specfile/adoption.ts";
import type { LoadedSpec } from "../../specfile/load.ts";
import { specAtRef } from "../../specfile/prepare.ts";
import { flagDoor, Refusals } from "../door.ts";
import type { SpecWords } from "../spec-options.ts";
import { planRequest } from "./options.ts";

export async function cmdPlan(args: string[]): Promise<number> {
  const { values, positionals } = flags("plan", args, parseOptions("plan"));
  if (positionals.length > 0)
    throw new InputError(`tiperf plan: unexpected argument ${positionals[0]}; use --spec FILE`);
  const request = await planRequest(flagDoor("plan", values), log);
  const loaded = request.spec;
  const plan = await planRun(loaded, {
    ...(request.words.profile ? { profile: request.words.profile } : {}),
    ...(request.runId ? { runId: request.runId } : {}),
    ...(request.shards !== undefined ? { shards: request.shards } : {}),
    ...(request.seed !== undefined ? { seed: request.seed } : {}),
    ...(request.shard ? { shard: request.shard } : {}),
    ...(request.look ? { look: request.look } : {}),
  });
  // what the plan is of, on stderr: stdout is the plan, exactly the plan.txt a run of it writes
  for (const line of [...(await uncommittedSpec(request.words)), ...headLines(loaded), ...buildLines(loaded)])
    log(line);
  process.stdout.write(plan.text);
  if (request.out) {
    const written = await writePlan(plan, request.out);
    log(`plan: wrote ${written.length} files to ${request.out}`);
  }
  // after the plan, which shows where each refused step would be: said as every other command's refusals
  const refused = new Refusals("tiperf plan: ");
  for (const r of plan.refusals) refused.refuse(r);
  refused.done();
  return EXIT.ok;
}

/** Each tidb-server a source target builds: which commit, how, and whether it is kept or to be built. */
function buildLines(loaded: LoadedSpec): string[] {
  return (loaded.builds ?? []).map(
    (b) =>
      `build for ${b.variant === "all" ? "every variant" : `variant ${b.variant}`}: commit ${b.commit.slice(0, 10)} "${b.subject}" of the tree ${b.path}: ${b.how ?? "its build command"} → ${b.binary} (${b.kept ? "kept from an earlier build" : "to be built"})`,
  );
}

/** What the plan is of, said first where a reader could take it for something else. */
function headLines(loaded: LoadedSpec): string[] {
  if (loaded.same)
    return [
      `nothing to measure: ${loaded.same}; compare passes in seconds and starts nothing. What it would run if they differed:`,
    ];
  if (loaded.adoption) return [`new spec: ${loaded.adoption.why}.`];
  if (!loaded.variants)
    return [
      `${loaded.path} as \`tiperf run\` runs it: one variant, no comparison. The PR check compares two commits: add --base-ref REF --head-ref REF to plan that.`,
    ];
  return [];
}

/**
 * --head-ref reads the spec as committed: a working copy that differs (an edit, or compare.noise
 * calibrate just wrote) is not what this plan is of, and the plan says so first.
 */
async function uncommittedSpec(words: SpecWords): Promise<string[]> {
  const { spec, headRef: head } = words;
  if (!head) return [];
  // a working copy is an edit of the checked-out commit: --head-ref another commit is not what it edits
  const { dir } = atRef(head, spec);
  const commit = async (ref: string) =>
    (await git(dir, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`])).out;
  if ((await commit(head)) !== (await commit("HEAD"))) return [];
  const committed = await specAtRef(spec, head).catch(() => undefined);
  const working = await readFile(spec, "utf8").catch(() => undefined);
  if (committed === undefined || working === undefined || committed === working) return [];
  return [
    `note: ${spec} differs from its text at ${head}: this plan reads the committed one (--head-ref); commit the change (compare.noise from calibrate, say) to plan it`,
  ];
}
