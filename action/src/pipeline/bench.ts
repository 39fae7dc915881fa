import { existsSync } from "node:fs";
import { rename } from "node:fs/promises";
import { cpus } from "node:os";
import { basename, join, relative } from "node:path";
import { driverOf } from "../drivers/registry.ts";
import {
  type Driver,
  StalledRun,
  type Step,
  type StepContext,
  type ToolCommand,
  type Workload,
} from "../drivers/types.ts";
import { RunError } from "../errors.ts";
import {
  type Background,
  COUNTERS_TIMEOUT_MS,
  type CounterReading,
  costMetric,
  costOf,
  IDLE_WINDOW_S,
  idleRates,
} from "../observe/cost.ts";
import { RemoteSampler } from "../observe/remote.ts";
import { ResourceSampler, type Sampler } from "../observe/sampler.ts";
import { checkCpus } from "../proc/affinity.ts";
import { maskArgs } from "../proc/secrets.ts";
import type { RemoteHost } from "../proc/ssh.ts";
import { runTool, type ToolLauncher, type ToolRun } from "../proc/tool.ts";
import type { Cell, ResourceUse, StalledAttempt, TargetInfo } from "../result/model.ts";
import type { RunDir } from "../result/store.ts";
import type { Spec, TargetSpec } from "../specfile/schema.ts";
import { applyResources, type CpuThrottle, cpuThrottle, throttleBetween } from "../targets/local/cgroup.ts";
import type { CpuProfile, PlanStep, StartOptions, Target } from "../targets/types.ts";
import { type CellPlan, cellFileName, cellGraceS, cellLabel, cellSeconds } from "./cells.ts";
import { type RunTables, tablesOf } from "./tables.ts";
import { describeFailure, findTools, loadHostCores, toolKey } from "./tools.ts";

/** A data set prepared on the target, shared by the workloads whose driver gives the same key. */
interface DataSet {
  driver: Driver;
  workload: Workload;
  tool: ToolCommand;
}

/**
 * One variant's target with every workload's data loaded: start → (per data set) create database →
 * prepare → prewarm → check, then any number of cells, then cleanup → stop. The load tools are
 * drivers (drivers/registry.ts); this class knows none of them.
 */
/** How a cell's load tool runs: on a duet pair's CPUs, each load process told as it starts. */
interface CellRunOptions {
  onMeasure?: (seconds: number) => void;
  cpus?: string;
  onLoad?: (pid: number) => void;
}

/** A cell's measured invocation and what was read over it. */
interface MeasuredRun {
  r: ToolRun;
  readings?: { before: CounterReading; after: CounterReading };
  resources: ResourceUse[];
  throttle?: CpuThrottle;
}

export class Bench {
  private constructor(
    readonly variant: string,
    readonly spec: Spec,
    readonly targetSpec: TargetSpec,
    readonly target: Target,
    private readonly dataSets: DataSet[],
    private readonly tools: Map<string, ToolCommand>,
    private readonly runDir: RunDir,
    private readonly log: (line: string) => void,
    /** CPUs where the load tools run: data steps load with up to this many threads. */
    private readonly cores: number,
    private readonly remote?: RemoteHost,
    /** Where the deployment runs the load tools itself (a pod), instead of here or the load host. */
    private readonly launcher?: ToolLauncher,
  ) {}

  /** The load tools run elsewhere (a load host or a pod): nothing of theirs is pinned, capped or sampled here. */
  private get elsewhere(): boolean {
    return this.remote !== undefined || this.launcher !== undefined;
  }

  /** The source build its server is, if it was built from a tree. */
  private build: TargetInfo["build"];
  /** The load tools' steps as they ran, in the plan's shape (a cell's warmup and run: phase cell). */
  private executed: PlanStep[] | undefined;
  /** The idle servers' background and one reading's cost, taken off every cell's cost (see measureIdle). */
  private idle: Background | undefined;
  /** What the run may drop of the tables its loads wrote, by who owns the server (pipeline/tables.ts). */
  private tables!: RunTables;

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
    const tools = findTools(opts.spec, away !== undefined);
    const dataSets = Bench.dataSets(opts.spec, tools);
    const startOpts: StartOptions = {
      maxConnections: opts.maxConnections,
      logDir: `${opts.runDir.serverLogDir}/${opts.variant}`,
      log: opts.log,
      ...(opts.readBack?.length ? { readBack: opts.readBack } : {}),
    };
    const target = await opts.start(startOpts);
    const cores = opts.launcher
      ? opts.launcher.cores()
      : opts.remote
        ? await loadHostCores(opts.remote, opts.log)
        : cpus().length;
    const bench = new Bench(
      opts.variant,
      opts.spec,
      opts.targetSpec,
      target,
      dataSets,
      tools,
      opts.runDir,
      opts.log,
      cores,
      opts.remote,
      opts.launcher,
    );
    bench.build = opts.build;
    bench.executed = opts.executed;
    bench.tables = tablesOf(target, { variant: opts.variant, spec: opts.spec, log: opts.log });
    try {
      await bench.loadData(opts.signal);
      await bench.measureIdle(opts.signal);
    } catch (e) {
      await bench.tables
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
    return this.target.activate?.(signal, { fresh: true });
  }

  /** Whether the target can start fresh server processes on its data (compare.blocks). */
  canRestart(): boolean {
    return this.target.restart !== undefined;
  }

  /** A fresh instance of the target, same data; says what changed. */
  async restart(signal: AbortSignal): Promise<string> {
    if (!this.target.restart) throw new RunError(`${this.variant}: ${this.target.kind} cannot restart`);
    const said = await this.target.restart(signal);
    // with compare.reload_data the data load that follows measures it, after the load
    if (!this.spec.compare?.reload_data) await this.measureIdle(signal);
    return said;
  }

  /** Every data set loaded: create database → prepare → prewarm → check, then the target's own after-load. */
  private async loadData(signal: AbortSignal): Promise<void> {
    const target = this.target;
    const shared = target.sharedData;
    for (const ds of this.dataSets) {
      // variants on one deployment load its data once
      const key = this.dataKey(ds);
      if (shared?.loaded.has(key)) {
        this.log(`${this.variant}: ${ds.driver.name} data already loaded on this deployment`);
        continue;
      }
      await target.activate?.(signal);
      // an existing server gives the run a database of its own: every data set loads there
      const database = target.connection.database ?? ds.driver.database(ds.workload);
      // a private server's statements, as the plan words them (TiDB's deployments record their own)
      if (target.connection.database === undefined)
        for (const sql of target.databaseSql?.(database) ?? [])
          this.executed?.push({ phase: "load", variant: this.variant, where: "runner", run: { sql } });
      await target.createDatabase(database);
      await this.tables.beforeLoad(key, ds, database);
      for (const step of ds.driver.setup(this.context(ds.workload, Math.max(...ds.workload.threads)))) {
        await this.step(ds, step, signal);
      }
      await this.tables.afterLoad(key);
      await target.afterLoad?.({
        database,
        tables: ds.driver.tables(ds.workload, this.spec.data),
        ...(ds.driver.sizedBySpecData && this.spec.data ? { sysbench: this.spec.data } : {}),
      });
      shared?.loaded.add(key);
    }
  }

  /**
   * compare.reload_data: the data loaded again (each data set's cleanup, then as at open), so the
   * data is part of the instance a block samples. Refused in the plan where variants share data.
   */
  async reloadData(signal: AbortSignal): Promise<void> {
    if (this.target.sharedData && this.target.sharedData.users > 1)
      throw new RunError(
        `${this.variant}: its data is shared with another variant on one deployment: it cannot be loaded again alone`,
      );
    for (const ds of this.dataSets) {
      await this.tables.dropForReload(this.dataKey(ds), async () => {
        for (const step of ds.driver.cleanup(this.context(ds.workload, 1))) await this.step(ds, step, signal);
      });
      this.target.sharedData?.loaded.delete(this.dataKey(ds));
    }
    await this.loadData(signal);
    await this.measureIdle(signal);
  }

  /** The target's counters now, or undefined when it has none or they cannot be read. */
  private async counters(): Promise<CounterReading | undefined> {
    const read = this.target.costCounters;
    if (!read) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((res) => {
      timer = setTimeout(() => res(undefined), COUNTERS_TIMEOUT_MS + 1000);
    });
    const counters = await Promise.race([read.call(this.target).catch(() => undefined), late]);
    clearTimeout(timer);
    return counters && Object.keys(counters).length ? { at: performance.now(), counters } : undefined;
  }

  /**
   * What the idle servers' counters grow by per second (background work: statistics, GC, purge,
   * TTL), over IDLE_WINDOW_S after each start and data load, and what one reading of them adds;
   * each cell's cost has both taken off (a comparison takes them again with the run's mean,
   * compare/background.ts).
   */
  private async measureIdle(signal: AbortSignal): Promise<void> {
    const first = await this.counters();
    // read again at once: the gap is one reading's own cost (observe/cost.ts Background)
    const before = first && (await this.counters());
    if (!first || !before) return;
    // the listener goes when the window ends: one per start would pile up on the run's signal
    await new Promise<void>((res) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        res();
      };
      const timer = setTimeout(done, IDLE_WINDOW_S * 1000);
      signal.addEventListener("abort", done, { once: true });
    });
    const after = await this.counters();
    if (!after || signal.aborted) return;
    this.idle = idleRates(first, before, after);
    const cpu = this.idle.per_s.cpu_s;
    if (cpu !== undefined)
      this.log(
        `${this.variant}: idle servers used ${(cpu * 100).toFixed(1)}% of a CPU over ${IDLE_WINDOW_S}s (taken off each cell's cpu_ms_per_op)`,
      );
  }

  /**
   * A cell's counters over its measured window: read when the load tool's steady window starts
   * (at its spawn; `inRunWarmupS` later where the tool warms up within the run) and when it ends.
   */
  private costWindow(inRunWarmupS: number): {
    start(): void;
    end(): Promise<{ before: CounterReading; after: CounterReading } | undefined>;
  } {
    let before: Promise<CounterReading | undefined> | undefined;
    let timer: NodeJS.Timeout | undefined;
    return {
      start: () => {
        before =
          inRunWarmupS > 0
            ? new Promise((res) => {
                timer = setTimeout(() => res(this.counters()), inRunWarmupS * 1000);
              })
            : this.counters();
      },
      end: async () => {
        clearTimeout(timer);
        const b = await before;
        const after = b ? await this.counters() : undefined;
        return b && after ? { before: b, after } : undefined;
      },
    };
  }

  /** The spec's data sets in workload order, each with the program that loads it. */
  private static dataSets(spec: Spec, tools: Map<string, ToolCommand>): DataSet[] {
    const seen = new Map<string, DataSet>();
    for (const w of spec.workloads) {
      const driver = driverOf(w.driver);
      const key = driver.dataKey(w, spec.data);
      const tool = tools.get(toolKey(w)) as ToolCommand;
      if (!seen.has(key)) seen.set(key, { driver, workload: w, tool });
    }
    return [...seen.values()];
  }

  private context(workload: Workload, threads: number): StepContext {
    return {
      workload,
      threads,
      cores: this.cores,
      connection: this.target.connection,
      ...(this.spec.data ? { data: this.spec.data } : {}),
    };
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

  /**
   * Runs a load tool, stopping it the moment the server dies or the watchdog's limit passes. A raw
   * log that cannot be written stops the run: what it would have measured could not be kept.
   */
  private async tool(
    tool: ToolCommand,
    step: Step,
    logFile: string,
    signal: AbortSignal,
    limitS: number,
    o: { onSpawn?: (pid: number) => void; capped?: boolean; cpus?: string } = {},
  ): Promise<ToolRun> {
    // driver.cpu_quota: the cell's load tool in a cgroup of its own, from the moment it runs
    const quota = o.capped && !this.elsewhere ? this.spec.driver?.cpu_quota : undefined;
    let capped: Promise<{ remove: () => Promise<void> } | undefined> | undefined;
    const onSpawn = (pid: number) => {
      o.onSpawn?.(pid);
      if (quota !== undefined)
        capped = applyResources(pid, quota, "load").catch((e: Error) => {
          this.log(`driver.cpu_quota: ${e.message}`);
          return undefined;
        });
    };
    const local = new AbortController();
    const onOuter = () => local.abort(signal.reason);
    signal.addEventListener("abort", onOuter, { once: true });
    if (signal.aborted) onOuter();
    let alive = true;
    void this.target.died.then((why) => {
      if (alive) local.abort(new Error(why));
    });
    this.executed?.push({
      phase: step.phase === "run" || step.phase === "warmup" ? "cell" : step.phase,
      variant: this.variant,
      where: this.launcher ? this.launcher.where : this.remote ? "load host" : "runner",
      run: { command: maskArgs([tool.command, ...tool.prefix, ...step.args]) },
    });
    try {
      const r = await runTool(tool.command, [...tool.prefix, ...step.args], {
        logFile,
        signal: local.signal,
        ...(this.launcher ? {} : { cpus: o.cpus ?? this.spec.driver?.cpus }),
        limitS,
        ...(this.remote ? { remote: this.remote } : {}),
        ...(this.launcher ? { launcher: this.launcher } : {}),
        ...(step.stopAfterS !== undefined ? { stopAfterS: step.stopAfterS } : {}),
        onSpawn,
      });
      if (r.writeError) throw r.writeError;
      return r;
    } finally {
      await (await capped)?.remove();
      alive = false;
      signal.removeEventListener("abort", onOuter);
    }
  }

  /**
   * Whether the server died with the tool's failure: a server killed mid-cell and the client's
   * lost connection happen together, and either may be noticed first; the death names the cause.
   * Bounded: waits at most `ms`.
   */
  private async diedWith(r: ToolRun, ms = 2000): Promise<string | undefined> {
    if (r.aborted || r.code === 0) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const quiet = new Promise<undefined>((res) => {
      timer = setTimeout(() => res(undefined), ms);
    });
    try {
      return await Promise.race([this.target.died, quiet]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A data step (prepare, prewarm, check): a failure stops the run. */
  private async step(ds: DataSet, step: Step, signal: AbortSignal): Promise<void> {
    this.log(`${this.variant}: ${ds.driver.name} ${step.phase}${step.about ? ` (${step.about})` : ""}`);
    const limitS = step.limitS ?? 600;
    const logFile = this.runDir.raw(`${this.variant}-${ds.driver.name}-${step.phase}.log`);
    const r = await this.tool(ds.tool, step, logFile, signal, limitS);
    const died = await this.diedWith(r);
    if (died)
      throw new RunError(
        `${this.variant}: ${ds.driver.name} ${step.phase} stopped: ${died} (raw output: ${logFile})`,
      );
    const said = ds.driver.failure(r.output);
    if (r.code !== 0 || r.aborted || r.timedOut || said) {
      throw new RunError(
        `${this.variant}: ${describeFailure(ds.driver.name, step.phase, r, said, `${limitS}s`, this.target.state())} (raw output: ${logFile})`,
      );
    }
  }

  /**
   * What watches a cell's measured run: /proc here (servers started here, a load tool run here),
   * and a loop over SSH on every other machine involved — each server host (its servers by port)
   * and the load host (the load tool by its program name).
   */
  private samplers(tool: ToolCommand, limitS: number): Sampler[] {
    const out: Sampler[] = [];
    if (this.target.pids.length || !this.elsewhere) out.push(new ResourceSampler(this.target.pids));
    const hosts = this.target.serverHosts?.() ?? [];
    // the program as the kernel names it (at most 15 characters): sysbench, go-tpc, go-ycsb
    const loadName = basename(tool.command).slice(0, 15);
    const loads = /^[A-Za-z0-9._-]+$/.test(loadName) ? [loadName] : [];
    const remoteLoad = this.remote;
    for (const h of hosts)
      out.push(
        new RemoteSampler({
          remote: h.remote,
          ports: h.ports,
          loads: remoteLoad && remoteLoad.host === h.remote.host ? loads : [],
          maxS: limitS,
        }),
      );
    if (remoteLoad && !hosts.some((h) => h.remote.host === remoteLoad.host))
      out.push(new RemoteSampler({ remote: remoteLoad, ports: [], loads, maxS: limitS }));
    return out;
  }

  /** Whether the target can take CPU profiles of its servers (pprof on TiDB and TiKV). */
  canProfile(): boolean {
    return this.target.cpuProfiles !== undefined;
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
    const take = this.target.cpuProfiles;
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
  async runCell(plan: CellPlan, signal: AbortSignal, o: CellRunOptions = {}): Promise<Cell> {
    const w = plan.workload;
    const driver = driverOf(w.driver);
    const logFile = this.runDir.raw(cellFileName(plan));
    const cell = this.newCell(plan, logFile);
    const fail = (why: string): Cell => ({
      ...cell,
      finished_at: new Date().toISOString(),
      status: "failed",
      error: `cell ${cellLabel(plan)} failed: ${why}`,
    });
    const ctx = this.context(w, plan.threads);
    // a tool that cannot keep the warmup out of its summary warms up in an invocation of its own
    const warmup = driver.warmup?.(ctx);
    const measuredS = warmup ? w.duration : cellSeconds(plan);
    const grace = cellGraceS(plan);
    let check: (() => Promise<string | undefined>) | undefined;
    try {
      await this.target.activate?.(signal);
      check = await this.target.watch?.();
    } catch (e) {
      return fail((e as Error).message);
    }
    if (warmup) {
      const why = await this.warmUp(plan, warmup, logFile, signal, o);
      if (why) return fail(why);
    }
    const run = await this.measuredRun(plan, driver.run(ctx), logFile, signal, {
      ...o,
      measuredS,
      warmedApart: !!warmup,
    });
    cell.finished_at = new Date().toISOString();
    // a component that went Down or restarted (systemd's Restart=always) spoils the measurement
    const unhealthy = await check?.().catch((e: Error) => `health check after the cell failed: ${e.message}`);
    if (unhealthy) return fail(`${unhealthy} (raw output: ${logFile})`);
    const why = await this.runFailure(w, run.r, "run", `${measuredS}s + ${grace}s grace`);
    if (why) return fail(`${why} (raw output: ${logFile})`);
    try {
      return this.measuredCell(cell, w, run, measuredS, grace);
    } catch (e) {
      const failed = fail(`${(e as Error).message} (raw output: ${logFile})`);
      return e instanceof StalledRun ? { ...failed, failure: "stalled" } : failed;
    }
  }

  /** A cell before it runs: what it is, where its raw output goes, no metrics yet. */
  private newCell(plan: CellPlan, logFile: string): Cell {
    const w = plan.workload;
    const started = new Date().toISOString();
    return {
      workload: w.name,
      driver: w.driver,
      script: w.script,
      threads: plan.threads,
      variant: plan.variant,
      round: plan.round,
      status: "ok",
      started_at: started,
      finished_at: started,
      raw_log: relative(this.runDir.dir, logFile),
      warmup_s: w.warmup,
      duration_s: w.duration,
      metrics: {},
      intervals: [],
    };
  }

  /** Why a load tool's invocation failed (the target died, the tool said so, or it was stopped), or undefined. */
  private async runFailure(
    w: Workload,
    r: ToolRun,
    what: "warmup" | "run",
    limit: string,
  ): Promise<string | undefined> {
    const died = await this.diedWith(r);
    if (died) return `${what} stopped: ${died}`;
    const said = driverOf(w.driver).failure(r.output);
    if (r.aborted || r.timedOut || r.code !== 0 || said)
      return describeFailure(w.driver, what, r, said, limit, this.target.state());
    return undefined;
  }

  /** The warmup as an invocation of its own; why it failed, or undefined. */
  private async warmUp(
    plan: CellPlan,
    warmup: Step,
    logFile: string,
    signal: AbortSignal,
    o: CellRunOptions,
  ): Promise<string | undefined> {
    const w = plan.workload;
    const grace = cellGraceS(plan);
    const warmLog = logFile.replace(/\.log$/, "-warmup.log");
    const tool = this.tools.get(toolKey(w)) as ToolCommand;
    const wr = await this.tool(tool, warmup, warmLog, signal, warmup.limitS ?? w.warmup + grace, {
      capped: true,
      ...(o.cpus ? { cpus: o.cpus } : {}),
      ...(o.onLoad ? { onSpawn: o.onLoad } : {}),
    });
    const why = await this.runFailure(w, wr, "warmup", `${w.warmup}s + ${grace}s grace`);
    return why ? `${why} (raw output: ${warmLog})` : undefined;
  }

  /**
   * The measured invocation, with what is read over it: the servers' and load tool's resources
   * (here and over SSH), the servers' counters over the steady window, a CPU quota's throttling.
   */
  private async measuredRun(
    plan: CellPlan,
    step: Step,
    logFile: string,
    signal: AbortSignal,
    o: CellRunOptions & { measuredS: number; warmedApart: boolean },
  ): Promise<MeasuredRun> {
    const w = plan.workload;
    const tool = this.tools.get(toolKey(w)) as ToolCommand;
    const limitS = step.limitS ?? o.measuredS + cellGraceS(plan);
    const samplers = this.samplers(tool, limitS);
    const costing =
      this.target.costCounters && driverOf(w.driver).operations(w)
        ? this.costWindow(o.warmedApart ? 0 : w.warmup)
        : undefined;
    // a CPU quota's counters over the measured run: whether it bound (the effect check)
    const throttledBefore = await cpuThrottle(this.target.pids);
    let out: Omit<MeasuredRun, "resources" | "throttle"> | undefined;
    let resources: ResourceUse[] = [];
    let throttle: CpuThrottle | undefined;
    try {
      const r = await this.tool(tool, step, logFile, signal, limitS, {
        capped: true,
        ...(o.cpus ? { cpus: o.cpus } : {}),
        onSpawn: (pid) => {
          o.onLoad?.(pid);
          o.onMeasure?.(o.measuredS);
          costing?.start();
          if (!this.elsewhere) for (const s of samplers) s.addLoad(pid);
        },
      });
      // a run that failed or was stopped has no cost to read (its server may be what failed)
      out = { r, readings: r.code === 0 && !r.aborted && !r.timedOut ? await costing?.end() : undefined };
    } finally {
      resources = (await Promise.all(samplers.map((s) => s.stop().catch(() => [])))).flat();
      if (throttledBefore) throttle = throttleBetween(throttledBefore, await cpuThrottle(this.target.pids));
    }
    return { ...out, resources, ...(throttle ? { throttle } : {}) };
  }

  /** The cell of a measured run the tool ended well: its metrics, cost, intervals and resources. */
  private measuredCell(cell: Cell, w: Workload, run: MeasuredRun, measuredS: number, grace: number): Cell {
    const driver = driverOf(w.driver);
    const m = driver.measure(w, run.r.output, { seconds: measuredS, grace_s: grace });
    const info = driver.metrics(w);
    const metrics: Cell["metrics"] = {};
    for (const [name, value] of Object.entries(m.metrics)) {
      const i = info[name];
      if (i && Number.isFinite(value)) metrics[name] = { value, unit: i.unit, better: i.better };
    }
    const cost = run.readings && this.costOfCell(w, driver.operations(w), m.metrics, run.readings);
    if (cost) Object.assign(metrics, cost.metrics);
    return {
      ...cell,
      metrics,
      ...(cost ? { cost: cost.record } : {}),
      metrics_source: m.source,
      intervals: m.intervals,
      summary: m.summary,
      ...(m.operations ? { operations: m.operations } : {}),
      ...(m.errors ? { errors: m.errors } : {}),
      ...(run.resources.length ? { resources: run.resources } : {}),
      ...(run.throttle ? { cpu_throttle: run.throttle } : {}),
    };
  }

  /** A cell's cost metrics from its counters: their growth per operation the tool counted. */
  private costOfCell(
    w: Workload,
    op: ReturnType<Driver["operations"]>,
    measured: Record<string, number>,
    readings: { before: CounterReading; after: CounterReading },
  ): { metrics: Cell["metrics"]; record: NonNullable<Cell["cost"]> } | undefined {
    const rate = op ? measured[op.metric] : undefined;
    if (!op || rate === undefined || !(rate > 0)) return undefined;
    const { metrics, record } = costOf(
      readings.before,
      readings.after,
      rate * op.perSecond * w.duration,
      this.idle,
      // the server counters the spec judges per operation (statements_per_op, "<counter>/op")
      Object.keys(w.judge),
    );
    const out: Cell["metrics"] = {};
    for (const [name, value] of Object.entries(metrics)) {
      const info = costMetric(name);
      if (info && Number.isFinite(value)) out[name] = { value, unit: info.unit, better: "lower" };
    }
    return { metrics: out, record };
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

  /**
   * Drops the data as far as its owner allows (pipeline/tables.ts: on a server tiperf created the
   * load tools' cleanup, skipped after a failed run; on a borrowed one the tables this run created)
   * and stops the server.
   */
  async close(signal: AbortSignal, failed = false): Promise<void> {
    try {
      if (this.target.sharedData && this.target.sharedData.users > 1)
        this.log(`${this.variant}: cleanup left to the last variant on this deployment`);
      else await this.tables.dropAtEnd({ failed, signal, cleanup: () => this.cleanupData(signal) });
    } finally {
      await this.target.stop();
    }
  }

  /** The load tools' cleanup of every data set on a server tiperf created; a failure is logged. */
  private async cleanupData(signal: AbortSignal): Promise<void> {
    for (const ds of this.dataSets) {
      for (const step of ds.driver.cleanup(this.context(ds.workload, 1))) {
        const limitS = step.limitS ?? 120;
        const logFile = this.runDir.raw(`${this.variant}-${ds.driver.name}-${step.phase}.log`);
        const r = await this.tool(ds.tool, step, logFile, signal, limitS);
        if (r.code !== 0 || r.timedOut)
          this.log(
            `${this.variant}: ${describeFailure(ds.driver.name, step.phase, r, undefined, `${limitS}s`, this.target.state())}`,
          );
      }
    }
  }

  private dataKey(ds: DataSet): string {
    return `${ds.driver.name}:${ds.driver.dataKey(ds.workload, this.spec.data)}`;
  }
}
