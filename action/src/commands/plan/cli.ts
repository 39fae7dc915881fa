// `tiperf plan` on the command line: its flags read and checked, then the command's steps; the
// synopsis is cli/commands.ts's (`tiperf help plan`).
import { readFile } from "node:fs/promises";
import { withSourceBuilds } from "../../bench/builds.ts";
import { planRun, writePlan } from "../../bench/plan.ts";
import { parseShard } from "../../bench/shard.ts";
import { readWave } from "../../bench/waves.ts";
import { flags, log } from "../../cli/args.ts";
import { parseOptions } from "../../cli/commands.ts";
import { EXIT, InputError } from "../../errors.ts";
import type { LoadedSpec } from "../../specfile/load.ts";
import { specAtRef } from "../../specfile/prepare.ts";
import { flagDoor } from "../door.ts";
import { specFrom } from "../spec-options.ts";

export async function cmdPlan(args: string[]): Promise<number> {
  const { values, positionals } = flags("plan", args, parseOptions("plan"));
  if (positionals.length > 0)
    throw new InputError(`tiperf plan: unexpected argument ${positionals[0]}; use --spec FILE`);
  // a target built from source: the plan names each commit's binary (kept, or to be built)
  const loaded = await withSourceBuilds(await specFrom(flagDoor("plan", values)), { log, dryRun: true });
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
  refuseComparisonFlags(loaded, values);
  const plan = await planRun(loaded, {
    ...(typeof values.profile === "string" ? { profile: values.profile } : {}),
    ...(typeof runId === "string" ? { runId } : {}),
    ...(shards !== undefined ? { shards } : {}),
    ...(await shareOfRun(values)),
  });
  // what the plan is of, on stderr: stdout is the plan, exactly the plan.txt a run of it writes
  for (const line of [...(await uncommittedSpec(values)), ...headLines(loaded), ...buildLines(loaded)])
    log(line);
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

type Values = Record<string, string | boolean | undefined>;

/**
 * --seed, --shard K/N and --look-of as `tiperf compare` reads them: the plan of that runner's
 * share (and of a further look's wave), exactly the plan.txt its run writes.
 */
async function shareOfRun(values: Values) {
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && !(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 31))
    throw new InputError(`tiperf plan: --seed must be a whole number from 0 to 2^31−1 (got ${values.seed})`);
  const shard = typeof values.shard === "string" ? parseShard(values.shard) : undefined;
  if (shard && values.shards !== undefined)
    throw new InputError(
      "tiperf plan: --shard K/N plans one runner's share, --shards N every runner's: give one",
    );
  const look =
    typeof values["look-of"] === "string" ? await readWave(values["look-of"], "--look-of") : undefined;
  return { ...(seed !== undefined ? { seed } : {}), ...(shard ? { shard } : {}), ...(look ? { look } : {}) };
}

/** A flag that sizes a comparison, given for a spec that plans none: refused by name, never ignored. */
function refuseComparisonFlags(loaded: LoadedSpec, values: Values): void {
  if (loaded.variants) return;
  const given = ["shards", "shard", "seed", "look-of", "rounds", "blocks", "confidence", "budget"].filter(
    (k) => values[k] !== undefined,
  );
  if (given.length)
    throw new InputError(
      `tiperf plan: ${given.map((k) => `--${k}`).join(", ")} size${given.length === 1 ? "s" : ""} a comparison, and ${loaded.path} plans none (no variants): add --base-ref REF --head-ref REF to plan the PR check's comparison of two commits, or variants: to the spec`,
    );
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
async function uncommittedSpec(values: Values): Promise<string[]> {
  const spec = values.spec;
  const head = values["head-ref"];
  if (typeof spec !== "string" || typeof head !== "string") return [];
  const committed = await specAtRef(spec, head).catch(() => undefined);
  const working = await readFile(spec, "utf8").catch(() => undefined);
  if (committed === undefined || working === undefined || committed === working) return [];
  return [
    `note: ${spec} differs from its text at ${head}: this plan reads the committed one (--head-ref); commit the change (compare.noise from calibrate, say) to plan it`,
  ];
}
