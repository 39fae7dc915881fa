// `tiperf plan`: everything a run would do, in the order it would do it, written out for review
// before an hour of cluster time. The target's steps are its kind's plan, the very objects the run
// carries out; the load tools' lines are their drivers' own.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { READ_COST } from "../compare/reading.ts";
import { driverOf } from "../drivers/registry.ts";
import { InputError } from "../errors.ts";
import { CODE_IDLE_WINDOW_S, costMetric, IDLE_WINDOW_S, PER_OP } from "../observe/cost.ts";
import { writeAtomic } from "../proc/files.ts";
import type { LoadedSpec } from "../specfile/load.ts";
import { stepLine } from "../targets/plan-step.ts";
import { kindOf } from "../targets/registry.ts";
import type { TargetPlan } from "../targets/types.ts";
import { maxThreads } from "./cells.ts";
import type { Wave } from "./cut.ts";
import { cutOf, type Shard } from "./cut.ts";
import { detectionOf } from "./detection.ts";
import { duetCaveats, duetDesign, resolveOrder, whyNotDuet } from "./duet.ts";
import { cpuSets, duetRefusals, usableCpus } from "./duet-cpus.ts";
import { budgetRefusal, confirmation, estimate, matrixSeconds } from "./estimate.ts";
import { loadsOf } from "./load-steps.ts";
import { looksLine } from "./looks-plan.ts";
import {
  type LoadPlan,
  loadPlanOf,
  type Phases,
  phasesOf,
  stepsJson,
  variantStepsJson,
} from "./plan-phases.ts";
import { specWarnings } from "./preflight.ts";
import { type CompareSchedule, scheduleLines, scheduleOf, seedOf } from "./schedule.ts";

export interface RunPlan extends LoadPlan {
  /** The spec as the run takes it: compare.order resolved (auto → duet or interleaved). */
  loaded: LoadedSpec;
  text: string;
  /** File name → contents (topologies, TOML configs, haproxy.cfg under tidb/, plan.txt). */
  files: Record<string, string>;
  target: TargetPlan;
  /** Why `run` would refuse these inputs: `tiperf plan` prints them and exits 2. */
  refusals: string[];
  /** Seconds the whole run is estimated to take. */
  seconds: number;
  /** Where the spec cannot measure what it says (the target's and the spec's). */
  warnings: string[];
  /** A comparison's order of blocks, rounds and turns (absent: a plain run). */
  schedule?: CompareSchedule;
  /** What it was planned from: the spec as given and a run's id, command and seed. */
  given: LoadedSpec;
  options: PlanOptions;
}

/** How a plan is made: `tiperf plan`'s flags, or a run's id, command and seed. */
export interface PlanOptions {
  profile?: string;
  cores?: number;
  runId?: string;
  command?: "run" | "compare";
  seed?: number;
  /**
   * --shard K/N: this runner's share: every N-th block of a comparison (bench/cut.ts), every N-th
   * cell of a run; what the deployment creates is the shard's own (a cloud stack per shard).
   */
  shard?: Shard;
  /** --look-of: a further look of the comparison, run as a wave of shards (bench/waves.ts). */
  look?: Wave;
  /** plan --shards N: the comparison cut for N runners, each shard's share said. */
  shards?: number;
  /** The target's plan, made already (by the deployment once its machines exist). */
  target?: TargetPlan;
  /** The load host's CPU count, once the run reached it (its data steps load with up to this many threads). */
  loadHostCores?: number;
}

/** The target's plan of a loaded spec: its kind's, for every variant that runs, on one profile. */
export function planTarget(
  loaded: LoadedSpec,
  o: { prefix: string; runId?: string; cores?: number },
): Promise<TargetPlan> {
  const variants = loaded.variants
    ? loaded.variants.all.map((v) => ({ name: v.name, target: v.spec.target }))
    : [{ name: "base", target: loaded.spec.target }];
  const kinds = new Set(variants.map((v) => v.target.kind));
  if (kinds.size > 1)
    throw new InputError(
      `${loaded.path}: target.kind: variants run on one kind of target (here ${[...kinds].join(", ")}); compare versions or configs of one kind`,
    );
  return kindOf(loaded.spec.target.kind).plan({
    file: loaded.path,
    variants,
    ...(loaded.profile ? { profile: loaded.profile } : {}),
    blocks: loaded.variants?.compare.blocks ?? 1,
    prefix: o.prefix,
    matrixSeconds: matrixSeconds(loaded),
    maxConnections: Math.max(
      ...(loaded.variants?.all.map((v) => maxThreads(v.spec)) ?? [maxThreads(loaded.spec)]),
    ),
    ...(loaded.spec.data ? { data: loaded.spec.data } : {}),
    loads: loadsOf(loaded),
    ...(o.runId ? { runId: o.runId } : {}),
    ...(o.cores ? { cores: o.cores } : {}),
  });
}

/** The format tag of plan.json (`tiperf plan --out`). */
export const PLAN_FORMAT = "tiperf.plan/1";

/**
 * Everything a run of `given` would do. A run makes its plan here too, with its run id (names of
 * what it creates carry the id's suffix) and its command: `tiperf plan --run-id ID` prints the plan
 * a run of that id wrote into its directory (plan.json), and that run carried it out.
 */
export async function planRun(given: LoadedSpec, options: PlanOptions): Promise<RunPlan> {
  // the command's choices (seed, shard, look, shards) go only where the schedule is cut; the
  // rest (profile, cores, run id) is where and how the target runs
  const { seed, shard, look, shards, ...o } = options;
  const prefix = o.runId ? `tiperf-${o.runId.split("-").pop()}` : `tiperf-${given.spec.name}`;
  const { target, loaded, designLine } = await targetAndDesign(given, o, prefix);
  const phases = phasesOf(loaded, target, o);
  const warnings = warningsOf(loaded, target, o);
  const est = estimate(loaded, target);
  const confirm = confirmation(loaded, est.seconds);
  const cost = costPlan(loaded.spec, target);
  const design = scheduleOf(
    loaded,
    phases.grouped,
    seed ?? loaded.variants?.compare.seed ?? seedOf(o.runId ?? prefix),
  );
  const detect = design ? detectionOf(loaded, design.looks.length) : undefined;
  const cut = { seed, shard, look, shards, command: o.command };
  const { wave, whole, schedule, shardLine, shardRefused, runners } = cutOf(loaded, design, cut, est.seconds);
  const refusals = [
    ...(wave?.refusals ?? []),
    ...shardRefused,
    ...(runners?.refusals ?? []),
    ...target.refusals,
    ...budgetRefusal(loaded, est.seconds),
    ...duetRefusals(loaded, target, o.cores),
    ...[phases, detect, cost].flatMap((x) => x?.refusals ?? []),
  ];
  const orderLine = orderLineOf(given, loaded, target, o.cores);
  const head = [
    ...target.about,
    ...(orderLine ? [orderLine] : []),
    ...(designLine ? [designLine] : []),
    est.text,
    ...(wave?.line ? [wave.line] : []),
    ...(shardLine ? [shardLine] : []),
    ...(runners?.lines ?? []),
    ...(schedule?.shard
      ? []
      : [...looksLine(loaded, whole, est.seconds, target), ...(confirm ? [confirm.text] : [])]),
    ...(cost.text ? [cost.text] : []),
    ...(detect?.lines ?? []),
    ...warnings.map((w) => `warning: ${w}`),
    ...refusals.map((r) => `REFUSED (tiperf would exit 2 before anything starts): ${r}`),
  ];
  const text = planText(head, phases, loaded, schedule);
  // the same steps as data: what a run's executed.json is checked against
  const json = {
    format: PLAN_FORMAT,
    kind: target.kind,
    profile: target.profile,
    prefix,
    ...(o.runId ? { run_id: o.runId } : {}),
    seconds: est.seconds,
    ...(confirm ? { confirm: { runs: confirm.runs, seconds_at_most: confirm.seconds_at_most } } : {}),
    ...(cost.json ? { cost: cost.json } : {}),
    warnings,
    refusals,
    steps: stepsJson(phases),
    variant_steps: variantStepsJson(phases),
    ...(schedule ? { schedule } : {}),
  };
  return {
    loaded,
    text,
    files: planFiles(text, json, target),
    target,
    refusals,
    seconds: est.seconds,
    warnings,
    ...(schedule ? { schedule } : {}),
    ...loadPlanOf(phases),
    given,
    options,
  };
}

/** The files `tiperf plan --out` and a run write: plan.txt, plan.json and the kind's own. */
function planFiles(text: string, json: unknown, target: TargetPlan): Record<string, string> {
  const files: Record<string, string> = {
    "plan.txt": text,
    "plan.json": `${JSON.stringify(json, null, 2)}\n`,
  };
  for (const [name, body] of Object.entries(target.files)) files[join(target.kind, name)] = body;
  return files;
}

/** Where the spec cannot measure what it says: the target's words and the spec's. */
function warningsOf(loaded: LoadedSpec, target: TargetPlan, o: PlanOptions): string[] {
  // servers that are not tiperf's own processes here (deployed by another, or borrowed)
  const notOwn = target.remoteDeploy === true || target.ownership === "borrowed";
  const command = o.command ?? (loaded.variants ? "compare" : "run");
  return [...target.warnings, ...specWarnings(loaded, command, o.cores, target.remoteLoad, notOwn)];
}

/**
 * The target's plan and the spec as the run takes it: compare.order auto made duet or interleaved
 * as the run will decide it; a duet without compare.blocks written runs fresh pairs (its target
 * planned again for them), and the plan says so.
 */
async function targetAndDesign(
  given: LoadedSpec,
  o: PlanOptions,
  prefix: string,
): Promise<{ target: TargetPlan; loaded: LoadedSpec; designLine?: string }> {
  const targetOpts = {
    prefix,
    ...(o.runId ? { runId: o.runId } : {}),
    ...(o.cores ? { cores: o.cores } : {}),
  };
  const target =
    o.target ?? (await planTarget(o.profile ? { ...given, profile: o.profile } : given, targetOpts));
  const loaded = resolveOrder(given, target, o.cores);
  const design = o.target ? undefined : duetDesign(loaded);
  if (!design) return { target, loaded };
  const again = await planTarget(o.profile ? { ...design, profile: o.profile } : design, targetOpts);
  if (again.refusals.length > target.refusals.length) return { target, loaded };
  const c = design.variants?.compare;
  return {
    target: again,
    loaded: design,
    designLine: `compare.blocks ${c?.blocks}${c?.reload_data ? ", reload_data" : ""}: a duet's design where the spec leaves compare.blocks out — fresh servers${c?.reload_data ? " with their data loaded again" : ""} before each block, since one pair cannot tell a steady gap between two instances from a change (A/A duet banks here were centred only so); compare.blocks: 1 keeps one pair`,
  };
}

/** How the variants are compared, as the plan says it (absent for a plain run). */
function orderLineOf(
  given: LoadedSpec,
  loaded: LoadedSpec,
  target: TargetPlan,
  cores: number | undefined,
): string | undefined {
  const order = loaded.variants?.compare.order;
  if (!order) return undefined;
  const auto =
    given.variants?.compare.order === "auto"
      ? ` (compare.order: auto${order === "interleaved" ? `; no fair duet here: ${whyNotDuet(given, target, cores).join("; ")}` : ""})`
      : "";
  if (order !== "duet") return `variants compared: ${order}${auto}`;
  const sets = cpuSets(usableCpus().slice(0, cores ?? usableCpus().length), loaded.variants?.all.length ?? 2);
  const caveats = duetCaveats(loaded, cores)
    .map(
      (c) =>
        `; ${c}: a quota is a share of one CPU's time, which binds only where the server would take more than that of its pair's set (tiperf reads the servers' cgroup throttling over every measured run and says so where a quota never bound)`,
    )
    .join("");
  return `variants compared: ${order}${auto}, both at once, each pair (server and load generator) on a CPU set of its own (${sets.join(" | ")}), the sets passed round every ${loaded.variants?.compare.swap}s${caveats}`;
}

/** plan.txt: what the plan says of the run, then its steps in the order the run takes them. */
function planText(
  head: string[],
  p: Phases,
  loaded: LoadedSpec,
  schedule: CompareSchedule | undefined,
): string {
  const order = loaded.variants?.compare.order;
  const lines = [
    ...head,
    "",
    "steps, in the order the run takes them:",
    ...p.setup.map(stepLine),
    ...(p.grouped
      ? [
          "  then per block, each variant's rounds as a group (variants in a balanced order over blocks), before each group as needed:",
          ...p.perGroup.map(stepLine),
          "  and per cell of a group:",
        ]
      : [
          `  then every round${loaded.variants ? (order === "duet" ? ", both variants at once" : ", each variant in a balanced order") : ""}, per cell:`,
        ]),
    ...p.perCell.map(stepLine),
    "  then:",
    ...p.end.map(stepLine),
    ...(schedule ? ["", ...scheduleLines(schedule)] : []),
  ];
  return `${lines.join("\n")}\n`;
}

export async function writePlan(plan: RunPlan, dir: string): Promise<string[]> {
  const written: string[] = [];
  for (const [name, text] of Object.entries(plan.files)) {
    await mkdir(join(dir, name, ".."), { recursive: true });
    await writeAtomic(join(dir, name), text);
    written.push(join(dir, name));
  }
  return written;
}

/**
 * How the run measures the cost per operation, where the target's servers keep counters tiperf
 * reads: what is judged, what is only read beside throughput, and how background work is kept out;
 * refused: a judged cost metric the target's servers do not give (an endpoint's CPU).
 */
function costPlan(
  spec: LoadedSpec["spec"],
  target: TargetPlan,
): {
  text?: string;
  json?: { judged: string[]; idle_window_s: number; background: "idle-rate subtracted" };
  refusals: string[];
} {
  const given = target.cost?.metrics ?? kindOf(spec.target.kind).costMetrics ?? [];
  const judged = [
    ...new Set(spec.workloads.flatMap((w) => Object.keys(w.judge).filter((m) => costMetric(m)))),
  ];
  // any server counter per operation, where the target reads its servers' counters at all
  const refusals = judged
    .filter((m) => !given.includes(m) && !(given.length && m.endsWith(PER_OP)))
    .map(
      (m) =>
        `metrics.${m}: ${target.cost?.missing?.[m] ? `${target.cost.missing[m]}; ` : ""}no ${m} from ${target.cost ? target.cost.source : `target.kind ${spec.target.kind}`}; ${given.length ? `it gives ${given.join(", ")}` : "it gives no cost metric"}`,
    );
  const counted = spec.workloads.some((w) => driverOf(w.driver).operations(w) !== undefined);
  if (!given.length || !counted) return { refusals };
  const source = target.cost?.source ?? "the servers' own counters";
  return {
    text: `cost per operation (${given.join(", ")}): ${source} read at each measured window's start and end ÷ the operations the load tool counted; ${judged.length ? `judged (can fail the check): ${judged.join(", ")}` : `${READ_COST} read beside throughput, judged in none (list one under metrics: to fail the check on it)`}; background work kept out: the idle servers' rate over ${given.includes("go_stmts_per_op") ? `${CODE_IDLE_WINDOW_S}s (a counting build: its idle statements come in bursts)` : `${IDLE_WINDOW_S}s`} after each start and data load, and one reading's own cost, taken off every cell (judged with the run's mean over all its servers); every other counter the servers keep is read too, and those that moved beyond their noise are listed per operation (per second where they follow the clock), never judged unless named under metrics ("<counter>/op")${target.cost?.note ? `; ${target.cost.note}` : ""}`,
    json: {
      judged,
      idle_window_s: given.includes("go_stmts_per_op") ? CODE_IDLE_WINDOW_S : IDLE_WINDOW_S,
      background: "idle-rate subtracted",
    },
    refusals,
  };
}
