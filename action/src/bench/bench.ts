// One variant's target with every workload's data loaded, then any number of cells, then the data
// dropped and the target stopped. Its jobs live apart: running the plan's load tool steps
// (bench-tools.ts), the data (bench-data.ts), the cells (bench-cells.ts) and their cost per
// operation (bench-cost.ts); the load tools are drivers (drivers/registry.ts): this class knows
// none of them, and runs no step the plan does not list.
import { existsSync } from "node:fs";
import { rename } from "node:fs/promises";
import { join, relative } from "node:path";
import { RunError } from "../errors.ts";
import { checkCpus } from "../proc/affinity.ts";
import type { RemoteHost } from "../proc/ssh.ts";
import type { ToolLauncher } from "../proc/tool.ts";
import type { Cell, StalledAttempt, TargetInfo } from "../result/model.ts";
import type { RunDir } from "../result/store.ts";
import type { Spec, TargetSpec } from "../specfile/schema.ts";
import {
  able,
  type Cannot,
  type Connection,
  type CpuProfile,
  type PlanStep,
  type StartOptions,
  type Target,
} from "../targets/types.ts";
import { BenchCells, type CellRunOptions } from "./cell-run.ts";
import type { CellPlan } from "./cells.ts";
import { BenchCost } from "./cost.ts";
import { BenchData } from "./data.ts";
import { LoadTools } from "./load-runs.ts";
import { findTools } from "./tools.ts";

export class Bench {
  private readonly data: BenchData;
  private readonly cost: BenchCost;
  private readonly cells: BenchCells;

  private constructor(
    readonly variant: string,
    readonly spec: Spec,
    readonly targetSpec: TargetSpec,
    readonly target: Target,
    private readonly runDir: RunDir,
    tools: LoadTools,
    log: (line: string) => void,
    /** The source build its server is, if it was built from a tree. */
    private readonly build: TargetInfo["build"],
  ) {
    this.data = new BenchData({ variant, spec, target, tools, runDir, log });
    this.cost = new BenchCost({ variant, target, log });
    this.cells = new BenchCells({ variant, target, tools, cost: this.cost, runDir });
  }

  static async open(opts: {
    variant: string;
    spec: Spec;
    targetSpec: TargetSpec;
    runDir: RunDir;
    maxConnections: number;
    /** Server options the other variants set (StartOptions.readBack). */
    readBack?: string[];
    log: (line: string) => void;
    signal: AbortSignal;
    /** Starts the variant's target (its deployment's). */
    start: (o: StartOptions) => Promise<Target>;
    /** The run plan's load tool steps (RunPlan.loadSteps): the only ones the bench runs. */
    steps: readonly PlanStep[];
    /** Where the plan had them connect, and them planned again where the server took another address. */
    planned?: { connection: Connection; on: (connection: Connection) => PlanStep[] };
    /** Where the load tools run (a profile's load host); default: this machine. */
    remote?: RemoteHost;
    /** Where the deployment runs the load tools itself (a pod of the cluster). */
    launcher?: ToolLauncher;
    /** The source build the variant's server is (target.source), recorded with the target. */
    build?: TargetInfo["build"];
    /** Where each load tool step is recorded as it runs (the deployment's executed steps). */
    executed?: PlanStep[];
  }): Promise<Bench> {
    const away = opts.launcher ? `in a ${opts.launcher.where}` : opts.remote ? "on its load host" : undefined;
    if (opts.spec.driver?.cpus !== undefined && !away) checkCpus("driver.cpus", opts.spec.driver.cpus);
    if (opts.spec.driver?.cpu_quota !== undefined && away)
      throw new RunError(
        `driver.cpu_quota caps a load tool on this machine, but the profile runs the load tools ${away}: remove it or use a local profile`,
      );
    // each load tool is there (or named with its package) before a server starts
    findTools(opts.spec, away !== undefined);
    const target = await opts.start({
      maxConnections: opts.maxConnections,
      logDir: `${opts.runDir.serverLogDir}/${opts.variant}`,
      log: opts.log,
      ...(opts.readBack?.length ? { readBack: opts.readBack } : {}),
    });
    const tools = new LoadTools({
      variant: opts.variant,
      spec: opts.spec,
      target,
      steps: opts.steps,
      ...(opts.planned ? { planned: opts.planned } : {}),
      ...(opts.executed ? { executed: opts.executed } : {}),
      ...(opts.remote ? { remote: opts.remote } : {}),
      ...(opts.launcher ? { launcher: opts.launcher } : {}),
      log: opts.log,
    });
    const bench = new Bench(
      opts.variant,
      opts.spec,
      opts.targetSpec,
      target,
      opts.runDir,
      tools,
      opts.log,
      opts.build,
    );
    try {
      await bench.data.load(opts.signal);
      await bench.cost.measureIdle(opts.signal);
    } catch (e) {
      await bench.data.tables
        .dropAtEnd({ failed: true, signal: opts.signal, cleanup: async () => {} })
        .catch((d: Error) => opts.log(`${opts.variant}: ${d.message}`));
      await target.stop();
      throw e;
    }
    return bench;
  }

  /**
   * Before a group of cells (variants that switch by restarting servers): this variant in, on
   * freshly switched or restarted servers; what the target did.
   */
  async enterGroup(signal: AbortSignal): Promise<string | undefined> {
    return able(this.target.activate)?.(signal, { fresh: true });
  }

  /** Whether the target can start fresh server processes on its data (compare.blocks). */
  canRestart(): boolean {
    return able(this.target.restart) !== undefined;
  }

  /** A fresh instance of the target, same data; says what changed. */
  async restart(signal: AbortSignal): Promise<string> {
    const restart = able(this.target.restart);
    if (!restart)
      throw new RunError(`${this.variant}: ${this.target.kind} ${(this.target.restart as Cannot).cannot}`);
    const said = await restart(signal);
    // with compare.reload_data the data load that follows measures it, after the load
    if (!this.spec.compare?.reload_data) await this.cost.measureIdle(signal);
    return said;
  }

  /**
   * compare.reload_data: the data loaded again (each data set's cleanup, then as at open), so the
   * data is part of the instance a block samples. Refused in the plan where variants share data.
   */
  async reloadData(signal: AbortSignal): Promise<void> {
    await this.data.reload(signal);
    await this.cost.measureIdle(signal);
  }

  info(): TargetInfo {
    const t = this.target;
    return {
      variant: this.variant,
      kind: t.kind,
      version: t.version,
      config: t.settings ?? {},
      effective_config: t.effectiveConfig,
      ...(t.resources ? { resources: t.resources } : {}),
      ...(this.build ? { build: this.build } : {}),
      ...(t.details ? { details: t.details } : {}),
    };
  }

  /** Whether the target can take CPU profiles of its servers (pprof on TiDB and TiKV). */
  canProfile(): boolean {
    return able(this.target.cpuProfiles) !== undefined;
  }

  /**
   * The cell once more, with a CPU profile of each server taken over its measured run (from its
   * start to a second before its end), written under `dir`; the cell is not judged.
   */
  async profileCell(
    plan: CellPlan,
    signal: AbortSignal,
    dir: string,
  ): Promise<{ cell: Cell; profiles: CpuProfile[]; seconds: number }> {
    const take = able(this.target.cpuProfiles);
    const seconds = Math.max(1, Math.floor(plan.workload.duration) - 1);
    if (!take) return { cell: await this.runCell(plan, signal), profiles: [], seconds };
    let taking: Promise<CpuProfile[]> | undefined;
    const cell = await this.runCell(plan, signal, {
      onMeasure: () => {
        taking = take(seconds, dir, `${plan.workload.name}-t${plan.threads}-${plan.variant}`);
      },
    });
    return { cell, profiles: (await taking) ?? [], seconds };
  }

  /**
   * One cell; a failure is recorded in the cell, not thrown. `o.cpus` runs its load tool there (a
   * duet pair's set, over driver.cpus), `o.onLoad` is told each load tool process (warmup and
   * measured run) as it starts.
   */
  runCell(plan: CellPlan, signal: AbortSignal, o: CellRunOptions = {}): Promise<Cell> {
    return this.cells.run(plan, signal, o);
  }

  /**
   * A cell's measured run set aside before the cell runs again: its raw output renamed
   * `<cell>-stalled-<n>.log` (a run that stalled) or `<cell>-rerun-<n>.log` (a duet round run again
   * for the other pair, or for uneven outside CPU), kept; and what the cell records of the attempt.
   */
  async setAside(cell: Cell, as: "stalled" | "rerun" = "stalled"): Promise<StalledAttempt> {
    const from = join(this.runDir.dir, cell.raw_log);
    const error = cell.error ?? as;
    for (let n = 1; n <= 100; n++) {
      const to = from.replace(/(\.log)?$/, `-${as}-${n}.log`);
      if (existsSync(to)) continue;
      try {
        await rename(from, to);
      } catch {
        return { error }; // no raw output to keep (the tool wrote none)
      }
      return { error: error.replace(from, to), raw_log: relative(this.runDir.dir, to) };
    }
    return { error };
  }

  /** The data dropped as far as its owner allows (bench/data.ts), then the server stopped. */
  async close(signal: AbortSignal, failed = false): Promise<void> {
    try {
      await this.data.dropAtEnd(signal, failed);
    } finally {
      await this.target.stop();
    }
  }
}
