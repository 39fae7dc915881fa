// A bench's cells: a workload at a thread count on the target, its warmup (an invocation of its
// own where the tool cannot keep it out of its summary) and its measured run, each the plan's step
// (bench/load-steps.ts), with what is read over the run: the servers' and load tool's resources
// (here and over SSH), the servers' counters (bench/cost.ts), a CPU quota's throttling.
import { basename, relative } from "node:path";
import { driverOf } from "../drivers/registry.ts";
import { StalledRun, type Workload } from "../drivers/types.ts";
import type { CounterReading } from "../observe/cost.ts";
import { RemoteSampler } from "../observe/remote.ts";
import { ResourceSampler, type Sampler } from "../observe/sampler.ts";
import type { ToolRun } from "../proc/tool.ts";
import type { Cell, ResourceUse } from "../result/model.ts";
import type { RunDir } from "../result/store.ts";
import { type CpuThrottle, cpuThrottle, throttleBetween } from "../targets/local/cgroup.ts";
import { able, type PlanStep, type Target } from "../targets/types.ts";
import { type CellPlan, cellFileName, cellGraceS, cellLabel, cellSeconds } from "./cells.ts";
import type { BenchCost } from "./cost.ts";
import type { LoadTools } from "./load-runs.ts";
import { loadKey } from "./load-steps.ts";
import { describeFailure } from "./tools.ts";

/** How a cell's load tool runs: on a duet pair's CPUs, each load process told as it starts. */
export interface CellRunOptions {
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

export class BenchCells {
  constructor(
    private readonly o: {
      variant: string;
      target: Target;
      tools: LoadTools;
      cost: BenchCost;
      runDir: RunDir;
    },
  ) {}

  /**
   * One cell; a failure is recorded in the cell, not thrown. `o.cpus` runs its load tool there (a
   * duet pair's set, over driver.cpus), `o.onLoad` is told each load tool process (warmup and
   * measured run) as it starts.
   */
  async run(plan: CellPlan, signal: AbortSignal, o: CellRunOptions = {}): Promise<Cell> {
    const w = plan.workload;
    const { tools, target, variant } = this.o;
    const logFile = this.o.runDir.raw(cellFileName(plan));
    const cell = this.newCell(plan, logFile);
    const fail = (why: string): Cell => ({
      ...cell,
      finished_at: new Date().toISOString(),
      status: "failed",
      error: `cell ${cellLabel(plan)} failed: ${why}`,
    });
    // a tool that cannot keep the warmup out of its summary warms up in an invocation of its own
    const warmKey = loadKey.warmup(variant, w, plan.threads);
    const warmup = tools.has(warmKey) ? tools.planned(warmKey) : undefined;
    const measuredS = warmup ? w.duration : cellSeconds(plan);
    const grace = cellGraceS(plan);
    let check: (() => Promise<string | undefined>) | undefined;
    try {
      await able(target.activate)?.(signal);
      check = await able(target.watch)?.();
    } catch (e) {
      return fail((e as Error).message);
    }
    if (warmup) {
      const why = await this.warmUp(plan, warmup, logFile, signal, o);
      if (why) return fail(why);
    }
    const step = tools.planned(loadKey.run(variant, w, plan.threads));
    const run = await this.measuredRun(plan, step, logFile, signal, {
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
      raw_log: relative(this.o.runDir.dir, logFile),
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
    const died = await this.o.tools.diedWith(r);
    if (died) return `${what} stopped: ${died}`;
    const said = driverOf(w.driver).failure(r.output);
    if (r.aborted || r.timedOut || r.code !== 0 || said)
      return describeFailure(w.driver, what, r, said, limit, this.o.target.state());
    return undefined;
  }

  /** The warmup as an invocation of its own; why it failed, or undefined. */
  private async warmUp(
    plan: CellPlan,
    warmup: PlanStep,
    logFile: string,
    signal: AbortSignal,
    o: CellRunOptions,
  ): Promise<string | undefined> {
    const w = plan.workload;
    const grace = cellGraceS(plan);
    const warmLog = logFile.replace(/\.log$/, "-warmup.log");
    const wr = await this.o.tools.run(warmup, warmLog, signal, {
      limitS: warmup.limit_s ?? w.warmup + grace,
      capped: true,
      ...(o.cpus ? { cpus: o.cpus } : {}),
      ...(o.onLoad ? { onSpawn: o.onLoad } : {}),
    });
    const why = await this.runFailure(w, wr, "warmup", `${w.warmup}s + ${grace}s grace`);
    return why ? `${why} (raw output: ${warmLog})` : undefined;
  }

  /**
   * What watches a cell's measured run: /proc here (servers started here, a load tool run here),
   * and a loop over SSH on every other machine involved — each server host (its servers by port)
   * and the load host (the load tool by its program name).
   */
  private samplers(command: string, limitS: number): Sampler[] {
    const { target, tools } = this.o;
    const out: Sampler[] = [];
    if (target.pids.length || !tools.elsewhere) out.push(new ResourceSampler(target.pids));
    const hosts = able(target.serverHosts)?.() ?? [];
    // the program as the kernel names it (at most 15 characters): sysbench, go-tpc, go-ycsb
    const loadName = basename(command).slice(0, 15);
    const loads = /^[A-Za-z0-9._-]+$/.test(loadName) ? [loadName] : [];
    const remoteLoad = tools.remote;
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

  /**
   * The measured invocation, with what is read over it: the servers' and load tool's resources
   * (here and over SSH), the servers' counters over the steady window, a CPU quota's throttling.
   */
  private async measuredRun(
    plan: CellPlan,
    step: PlanStep,
    logFile: string,
    signal: AbortSignal,
    o: CellRunOptions & { measuredS: number; warmedApart: boolean },
  ): Promise<MeasuredRun> {
    const w = plan.workload;
    const { target, tools, cost } = this.o;
    const limitS = step.limit_s ?? o.measuredS + cellGraceS(plan);
    const samplers = this.samplers((step.run as { command: string[] }).command[0] ?? "", limitS);
    const costing =
      cost.readable && driverOf(w.driver).operations(w)
        ? cost.window(o.warmedApart ? 0 : w.warmup)
        : undefined;
    // a CPU quota's counters over the measured run: whether it bound (the effect check)
    const throttledBefore = await cpuThrottle(target.pids);
    let out: Omit<MeasuredRun, "resources" | "throttle"> | undefined;
    let resources: ResourceUse[] = [];
    let throttle: CpuThrottle | undefined;
    try {
      const r = await tools.run(step, logFile, signal, {
        limitS,
        capped: true,
        ...(o.cpus ? { cpus: o.cpus } : {}),
        onSpawn: (pid) => {
          o.onLoad?.(pid);
          o.onMeasure?.(o.measuredS);
          costing?.start();
          if (!tools.elsewhere) for (const s of samplers) s.addLoad(pid);
        },
      });
      // a run that failed or was stopped has no cost to read (its server may be what failed)
      out = { r, readings: r.code === 0 && !r.aborted && !r.timedOut ? await costing?.end() : undefined };
    } finally {
      resources = (await Promise.all(samplers.map((s) => s.stop().catch(() => [])))).flat();
      if (throttledBefore) throttle = throttleBetween(throttledBefore, await cpuThrottle(target.pids));
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
    const cost = run.readings && this.o.cost.ofCell(w, driver.operations(w), m.metrics, run.readings);
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
}
