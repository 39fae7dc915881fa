// A run's start and end, shared by every command that measures: the plan made and checked before
// anything starts, a result written at once (so a run that dies in startup leaves a record), the
// deployment opened as the plan said; each bench's start on it; and at the end the deployment
// closed and the result's final state written.

import { join } from "node:path";
import { driverOf } from "../drivers/registry.ts";
import { InputError } from "../errors.ts";
import { record } from "../lifecycle/ledger.ts";
import { writeAtomic } from "../proc/files.ts";
import type { RemoteHost } from "../proc/ssh.ts";
import type { ToolLauncher } from "../proc/tool.ts";
import { runReportMarkdown } from "../report/run-report.ts";
import { hostFacts } from "../result/host.ts";
import type { Result } from "../result/model.ts";
import { newRunId, RunDir } from "../result/store.ts";
import type { LoadedSpec } from "../specfile/load.ts";
import type { Spec } from "../specfile/schema.ts";
import type { Connection, Deployment, PlanStep, StartOptions, Target, TargetPlan } from "../targets/types.ts";
import { TIPERF_VERSION } from "../version.ts";
import type { Shard, Wave } from "./cut.ts";
import { planRun, type RunPlan, writePlan } from "./plan.ts";
import { checkTools } from "./preflight.ts";
import { loadHostCores as loadHostCoresOf } from "./tools.ts";

export interface RunOptions {
  outDir: string;
  log: (line: string) => void;
  signal: AbortSignal;
}

/**
 * Checks what a run needs before anything starts (the results directory, the target's plan and
 * every program), warns where the spec cannot measure what it says, then writes a new result at
 * once, so even a run that dies in startup leaves a record; then opens the target's deployment.
 */
export async function startResult(
  loaded: LoadedSpec,
  opts: {
    outDir: string;
    command: "run" | "compare";
    log: (line: string) => void;
    signal: AbortSignal;
    /** --seed over compare.seed: the round order of an earlier run. */
    seed?: number;
    /** --shard K/N: every N-th block of the comparison, every N-th cell of a run (bench/cut.ts). */
    shard?: Shard;
    /** --look-of: a further look as a wave of shards (bench/waves.ts). */
    look?: Wave;
  },
): Promise<{ result: Result; runDir: RunDir; deployment: Deployment; plan: TargetPlan; runPlan: RunPlan }> {
  const runId = newRunId(loaded.spec.name);
  // the run's plan, made as `tiperf plan --run-id` makes it (its profile and topology validated,
  // compare.order resolved, refusals gathered) before anything starts; the run carries it out
  const runPlan = await planRun(loaded, {
    runId,
    command: opts.command,
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
    ...(opts.shard ? { shard: opts.shard } : {}),
    ...(opts.look ? { look: opts.look } : {}),
  });
  const plan = runPlan.target;
  if (runPlan.refusals.length) throw new InputError(runPlan.refusals.join("\n"));
  checkTools(loaded.variants ? loaded.variants.all.map((v) => v.spec) : [loaded.spec], {
    remoteLoad: plan.remoteLoad,
    borrowed: plan.ownership === "borrowed",
    remoteDeploy: plan.remoteDeploy ?? false,
  });
  const warnings = runPlan.warnings;
  for (const w of warnings) opts.log(`warning: ${w}`);
  // only a run that starts makes its results directory (checked there): a refused one leaves nothing
  const runDir = await RunDir.create(opts.outDir, runId);
  // what the run is about to do, as `tiperf plan` prints it: plan.txt, plan.json and the kind's files
  await writePlan(runPlan, runDir.dir);
  if (loaded.composed !== undefined) {
    // What ran, as one spec file: the verdict's "reproduce locally" command points at it.
    const file = join(runDir.dir, "spec.yaml");
    await writeAtomic(file, `# composed by tiperf from ${loaded.path}\n${loaded.composed}`);
    loaded.path = file;
    runPlan.loaded.path = file;
  }
  // should this process be killed, `tiperf reap` marks the result interrupted
  runDir.forget = await record({ resource: "run", what: `run ${runId}`, path: runDir.resultPath }).catch(
    () => async () => {},
  );
  const result = await newResult(loaded, runId, plan.profile, warnings);
  try {
    await runDir.writeResult(result);
  } catch (e) {
    await runDir.release();
    await runDir.forget();
    throw e;
  }
  try {
    const deployment = await plan.open({
      runId,
      runDir: runDir.dir,
      rawDir: join(runDir.dir, "raw"),
      // a cloud cluster per shard, as planned: the stack's name carries it (cloud/provision.ts stackName)
      ...(runPlan.options.shard ? { shard: runPlan.options.shard.index } : {}),
      log: opts.log,
      signal: opts.signal,
    });
    const ran = await planOnceOpen(runPlan, deployment, runDir.dir, opts.log).catch(async (e) => {
      await deployment.stop().catch((err: Error) => opts.log(`teardown: ${err.message}`));
      throw e;
    });
    return { result, runDir, deployment, plan: ran.target, runPlan: ran };
  } catch (e) {
    const ended = await finishResult(result, runDir, e, opts.signal, opts.log);
    throw Object.assign(ended as Error, { runDir: runDir.dir });
  }
}

/** A run's result as it begins: no cells, no targets yet, the host and tools it runs with. */
export async function newResult(
  loaded: LoadedSpec,
  runId: string,
  profile: string | undefined,
  warnings: string[],
): Promise<Result> {
  return {
    format: "tiperf.result",
    version: 2,
    run_id: runId,
    status: "running",
    started_at: new Date().toISOString(),
    spec: { name: loaded.spec.name, path: loaded.path, hash: loaded.hash, body: loaded.spec },
    profile,
    targets: [],
    host: await hostFacts(),
    tools: { tiperf: TIPERF_VERSION, ...(await toolVersions(loaded.spec)) },
    cells: [],
    ...(warnings.length ? { warnings } : {}),
  };
}

/**
 * The plan the run carries out: where opening the deployment planned its target again (an
 * ephemeral cluster on the addresses `up` returned), the run's plan made again on it, printed and
 * written over the plan of placeholders (plan.txt, plan.json).
 */
export async function planOnceOpen(
  runPlan: RunPlan,
  deployment: Deployment,
  dir: string,
  log: (line: string) => void,
): Promise<RunPlan> {
  // a load host's CPU count: its data steps load with up to that many threads, as the plan says
  const remote = deployment.loadHost?.();
  const loadHostCores = remote ? await loadHostCoresOf(remote, log) : undefined;
  if (!deployment.plan && loadHostCores === undefined) return runPlan;
  const again = await planRun(runPlan.given, {
    ...runPlan.options,
    ...(deployment.plan ? { target: deployment.plan } : {}),
    ...(loadHostCores !== undefined ? { loadHostCores } : {}),
  });
  await writePlan(again, dir);
  log(
    deployment.plan
      ? "plan: the machines exist; the plan on their addresses (plan.txt, plan.json written again):"
      : `plan: the load host has ${loadHostCores} CPU(s); the plan with its data steps' threads (plan.txt, plan.json written again):`,
  );
  for (const line of again.text.trimEnd().split("\n")) log(`  ${line}`);
  return again;
}

/**
 * How a bench starts its variant's target, where its load tools run, and where the load tools'
 * steps are recorded as they run (beside the kind's, in executed.json).
 */
export function benchStart(
  deployment: Deployment,
  runPlan: RunPlan,
  variant: string,
  signal: AbortSignal,
): {
  start: (o: StartOptions) => Promise<Target>;
  steps: readonly PlanStep[];
  planned: { connection: Connection; on: (connection: Connection) => PlanStep[] };
  remote?: RemoteHost;
  launcher?: ToolLauncher;
  executed: PlanStep[];
} {
  const remote = deployment.loadHost?.();
  const launcher = deployment.loadLauncher?.();
  return {
    start: (o) => deployment.target(variant, { ...o, signal }),
    steps: runPlan.loadSteps,
    planned: {
      connection: runPlan.target.connection(variant),
      on: (connection) => runPlan.loadStepsOn(variant, connection),
    },
    executed: deployment.executed,
    ...(remote ? { remote } : {}),
    ...(launcher ? { launcher } : {}),
  };
}

/** Ends a deployment: everything it started stopped and removed; a failure to do so is logged. */
export async function closeDeployment(
  d: Deployment,
  runDir: RunDir,
  log: (line: string) => void,
): Promise<void> {
  await d.stop().catch((e: Error) => log(`teardown: ${e.message}`));
  // what the run carried out of the plan, beside the plan's own words in the run directory
  await writeAtomic(join(runDir.dir, "executed.json"), `${JSON.stringify(d.executed, null, 2)}\n`).catch(
    () => {},
  );
}

/** Each load tool the spec uses, with its version (or the command that runs it). */
export async function toolVersions(spec: Spec): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const w of spec.workloads) {
    if (w.driver in out) continue;
    const driver = driverOf(w.driver);
    const tool = driver.findTool(w.script);
    if (!tool) continue;
    const version = await driver.version?.(tool).catch(() => undefined);
    out[w.driver] = version ?? [tool.command, ...tool.prefix.filter((p) => p !== w.script)].join(" ");
  }
  return out;
}

/**
 * Marks the result finished and writes report.md and result.json (the reserve given back first,
 * so a full disk still gets the final word). Returns the error the run ends with: the run's own,
 * or, when the run went well but its files could not be written, that write error.
 */
export async function finishResult(
  result: Result,
  runDir: RunDir,
  error: unknown,
  signal: AbortSignal,
  log: (line: string) => void,
): Promise<unknown> {
  let ended = error;
  const settle = () => {
    result.finished_at = new Date().toISOString();
    if (ended) {
      result.status = signal.aborted ? "interrupted" : "failed";
      result.error = (ended as Error).message;
    } else {
      result.status = "complete";
    }
  };
  settle();
  await runDir.release();
  try {
    await writeAtomic(runDir.reportPath, runReportMarkdown(result));
  } catch (e) {
    if (ended) log(`also: ${(e as Error).message}`);
    else {
      ended = e;
      settle();
    }
  }
  try {
    await runDir.writeFinalResult(result);
  } catch (e) {
    if (!ended) ended = e;
    else log(`also: ${(e as Error).message}`);
  }
  await runDir.forget();
  return ended;
}
