import { join } from "node:path";
import { type CostEstimate, checkBudget, estimateCost } from "../cloud/aws/resources.ts";
import { runHours } from "../cloud/estimate.ts";
import { type CloudCluster, provisionCluster } from "../cloud/provision.ts";
import { driverOf } from "../drivers/registry.ts";
import { EXIT, RunError } from "../errors.ts";
import type { RemoteHost } from "../proc/ssh.ts";
import { runReportMarkdown } from "../report/run-report.ts";
import { hostFacts } from "../result/host.ts";
import type { Result } from "../result/model.ts";
import { newRunId, RunDir, writeAtomic } from "../result/store.ts";
import type { LoadedSpec } from "../specfile/load.ts";
import type { Spec } from "../specfile/schema.ts";
import type { StartOptions, Target } from "../targets/index.ts";
import { record } from "../targets/ledger.ts";
import { planFor } from "../targets/tidb/index.ts";
import type { TidbPlan } from "../targets/tidb/plan.ts";
import { TidbRun, tiupHome } from "../targets/tidb/run.ts";
import { Bench } from "./bench.ts";
import { cellLabel, cellSeconds, maxThreads, planCells } from "./cells.ts";
import { checkOutDir, checkTools, specWarnings } from "./preflight.ts";
import { Progress } from "./progress.ts";

export const TIPERF_VERSION = "0.1.0";

export interface RunOptions {
  outDir: string;
  log: (line: string) => void;
  signal: AbortSignal;
}

export interface RunOutcome {
  result: Result;
  runDir: RunDir;
  exitCode: number;
}

/**
 * Checks what a run needs before anything starts (the results directory, every program), warns
 * where the spec cannot measure what it says, then writes a new result at once, so even a run that
 * dies in startup leaves a record.
 */
export async function startResult(
  loaded: LoadedSpec,
  opts: {
    outDir: string;
    command: "run" | "compare";
    log: (line: string) => void;
    signal: AbortSignal;
  },
): Promise<{ result: Result; runDir: RunDir; tidb?: TidbRun }> {
  await checkOutDir(opts.outDir);
  const runId = newRunId(loaded.spec.name);
  const prefix = `tiperf-${runId.split("-").pop()}`;
  // a TiDB target's plan is made (and its profile and topology validated) before anything starts
  let plan =
    loaded.spec.target.kind === "tidb"
      ? await planFor(loaded, { ...(loaded.profile ? { profile: loaded.profile } : {}), prefix })
      : undefined;
  // an ephemeral cluster over its budget is refused before anything is created
  const estimate = plan?.profile.provider === "aws" ? checkCloudBudget(loaded, plan) : undefined;
  checkTools(loaded.variants ? loaded.variants.all.map((v) => v.spec) : [loaded.spec], {
    remoteLoad: Boolean(plan?.load.user),
  });
  const warnings = specWarnings(loaded, opts.command);
  for (const w of warnings) opts.log(`warning: ${w}`);
  const runDir = await RunDir.create(opts.outDir, runId);
  if (loaded.composed !== undefined) {
    // What ran, as one spec file: the verdict's "reproduce locally" command points at it.
    const file = join(runDir.dir, "spec.yaml");
    await writeAtomic(file, `# composed by tiperf from ${loaded.path}\n${loaded.composed}`);
    loaded.path = file;
  }
  // should this process be killed, `tiperf reap` marks the result interrupted
  runDir.forget = await record({ kind: "run", what: `run ${runId}`, path: runDir.resultPath }).catch(
    () => async () => {},
  );
  const result: Result = {
    format: "tiperf.result",
    version: 2,
    run_id: runId,
    status: "running",
    started_at: new Date().toISOString(),
    spec: { name: loaded.spec.name, path: loaded.path, hash: loaded.hash, body: loaded.spec },
    targets: [],
    host: await hostFacts(),
    tools: { tiperf: TIPERF_VERSION, ...(await toolVersions(loaded.spec)) },
    cells: [],
    ...(warnings.length ? { warnings } : {}),
  };
  try {
    await runDir.writeResult(result);
  } catch (e) {
    await runDir.release();
    await runDir.forget();
    throw e;
  }
  let cloud: CloudCluster | undefined;
  try {
    if (plan && estimate) {
      // the machines first; then the plan again, on their addresses
      cloud = await provisionCluster({
        profile: plan.profile,
        runId,
        runDir: runDir.dir,
        tiupClusters: plan.deployments.filter((d) => d.kind === "cluster").map((d) => d.name),
        tiupHome: tiupHome(),
        log: opts.log,
        signal: opts.signal,
      });
      plan = await planFor(loaded, {
        ...(loaded.profile ? { profile: loaded.profile } : {}),
        prefix,
        cloud: cloud.hosts,
      });
    }
    const tidb = plan
      ? new TidbRun(plan, runDir.dir, join(runDir.dir, "raw"), opts.log, {
          ...(cloud ? { cloud } : {}),
          ...(estimate ? { estimate } : {}),
        })
      : undefined;
    await tidb?.writeFiles();
    return { result, runDir, ...(tidb ? { tidb } : {}) };
  } catch (e) {
    await cloud?.destroy().catch((err: Error) => opts.log(`teardown: ${err.message}`));
    const ended = await finishResult(result, runDir, e, opts.signal, opts.log);
    throw Object.assign(ended as Error, { runDir: runDir.dir });
  }
}

/**
 * A run on an ephemeral cloud cluster: its cost estimated from the dated price table; refused
 * over the profile's budget or ttl, before anything is created.
 */
function checkCloudBudget(loaded: LoadedSpec, plan: TidbPlan): CostEstimate {
  const estimate = estimateCost(plan.profile, runHours(loaded));
  checkBudget(plan.profile, estimate, plan.profileFile);
  return estimate;
}

/** How a bench of a TiDB run starts its variant and where its load tools run. */
export function tidbBench(
  tidb: TidbRun | undefined,
  variant: string,
  signal: AbortSignal,
): { start?: (o: StartOptions) => Promise<Target>; remote?: RemoteHost } {
  if (!tidb) return {};
  const remote = tidb.loadHost();
  return { start: (o) => tidb.target(variant, { ...o, signal }), ...(remote ? { remote } : {}) };
}

/** Each load tool the spec uses, with its version (or the command that runs it). */
async function toolVersions(spec: Spec): Promise<Record<string, string>> {
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

/** `tiperf run`: spec → target → driver → result → report, for one variant. */
export async function runSpec(loaded: LoadedSpec, opts: RunOptions): Promise<RunOutcome> {
  const { spec } = loaded;
  const { result, runDir, tidb } = await startResult(loaded, {
    outDir: opts.outDir,
    command: "run",
    log: opts.log,
    signal: opts.signal,
  });
  opts.log(`run ${result.run_id}: results in ${runDir.dir}`);
  const cells = planCells(spec);
  let error: unknown;
  let bench: Bench | undefined;
  try {
    bench = await Bench.open({
      variant: "base",
      spec,
      targetSpec: spec.target,
      runDir,
      maxConnections: maxThreads(spec),
      log: opts.log,
      signal: opts.signal,
      ...tidbBench(tidb, "base", opts.signal),
    });
    result.targets.push(bench.info());
    await runDir.writeResult(result);
    const progress = new Progress(
      cells.length,
      cells.reduce((s, c) => s + cellSeconds(c), 0),
      opts.log,
    );
    for (const plan of cells) {
      progress.start(cellLabel(plan));
      const cell = await bench.runCell(plan, opts.signal);
      result.cells.push(cell);
      // Written as soon as the cell finishes: a crash loses at most the running cell.
      await runDir.writeResult(result);
      progress.finish(cellSeconds(plan));
      if (cell.status === "failed") throw new RunError(cell.error ?? `cell ${cellLabel(plan)} failed`);
    }
  } catch (e) {
    error = e;
  } finally {
    await bench
      ?.close(opts.signal, error !== undefined)
      .catch((e) => opts.log(`teardown: ${(e as Error).message}`));
    await tidb?.stop();
    error = await finishResult(result, runDir, error, opts.signal, opts.log);
  }
  if (error) {
    if (error instanceof RunError) throw Object.assign(error, { runDir: runDir.dir });
    throw error;
  }
  return { result, runDir, exitCode: EXIT.ok };
}
