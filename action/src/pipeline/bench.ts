import { cpus } from "node:os";
import { relative } from "node:path";
import {
  cleanupArgs,
  prepareArgs,
  prewarmArgs,
  runArgs,
  runSysbench,
  supportsPrewarm,
} from "../drivers/sysbench/args.ts";
import { mostSpecificLine, parseSysbench } from "../drivers/sysbench/parse.ts";
import { RunError } from "../errors.ts";
import { processState } from "../proc/process.ts";
import type { ToolRun } from "../proc/tool.ts";
import { measurementProblems, steadyState } from "../result/cell.ts";
import type { Cell, TargetInfo } from "../result/model.ts";
import type { RunDir } from "../result/store.ts";
import type { Spec, TargetSpec } from "../specfile/schema.ts";
import { checkCpus } from "../targets/affinity.ts";
import { startTarget, type Target } from "../targets/index.ts";
import { type CellPlan, cellFileName, cellGraceS, cellLabel, cellSeconds } from "./cells.ts";

const lastLines = (text: string, n = 4) => text.trimEnd().split("\n").slice(-n).join("\n");

function describeFailure(step: string, r: ToolRun, limit: string, server: string): string {
  if (r.timedOut) {
    return `${step}: sysbench did not finish within ${limit} and was stopped after ${r.elapsed_s.toFixed(1)}s; ${server}`;
  }
  if (r.aborted) return `${step} stopped: ${r.aborted}`;
  const cause = mostSpecificLine(r.output);
  return `${step}: sysbench exited ${r.signal ? `on ${r.signal}` : `with code ${r.code}`}${cause ? `: ${cause}` : `:\n${lastLines(r.output)}`}`;
}

/** Seconds a data step may take: generous, since a remote cluster loads far slower than a local server. */
const dataStepLimitS = (spec: Spec) => 120 + Math.ceil((spec.data.tables * spec.data.table_size) / 1000);

/**
 * One variant's private server with the spec's data loaded: start → prepare → prewarm,
 * then any number of cells, then cleanup → stop.
 */
export class Bench {
  private constructor(
    readonly variant: string,
    readonly spec: Spec,
    readonly targetSpec: TargetSpec,
    readonly target: Target,
    private readonly runDir: RunDir,
    private readonly log: (line: string) => void,
  ) {}

  static async open(opts: {
    variant: string;
    spec: Spec;
    targetSpec: TargetSpec;
    runDir: RunDir;
    maxConnections: number;
    log: (line: string) => void;
    signal: AbortSignal;
  }): Promise<Bench> {
    if (opts.spec.driver?.cpus !== undefined) checkCpus("driver.cpus", opts.spec.driver.cpus);
    const target = await startTarget(opts.targetSpec, {
      maxConnections: opts.maxConnections,
      logDir: `${opts.runDir.serverLogDir}/${opts.variant}`,
      log: opts.log,
    });
    const bench = new Bench(opts.variant, opts.spec, opts.targetSpec, target, opts.runDir, opts.log);
    try {
      await bench.step(
        "prepare",
        prepareArgs(opts.spec, target.sysbenchArgs, Math.min(opts.spec.data.tables, cpus().length)),
        opts.signal,
      );
      if (supportsPrewarm(target.sysbenchArgs)) {
        await bench.step(
          "prewarm",
          prewarmArgs(opts.spec, target.sysbenchArgs, Math.min(opts.spec.data.tables, cpus().length)),
          opts.signal,
        );
      } else {
        opts.log(`${opts.variant}: prewarm skipped: sysbench's prewarm is MySQL-only`);
      }
    } catch (e) {
      await target.stop();
      throw e;
    }
    return bench;
  }

  info(): TargetInfo {
    const info: TargetInfo = {
      variant: this.variant,
      kind: this.target.kind,
      version: this.target.version,
      config: this.targetSpec.config,
      effective_config: this.target.effectiveConfig,
    };
    const res = this.targetSpec.resources;
    if (res?.cpu_quota !== undefined || res?.cpus !== undefined) {
      info.resources = {
        ...(res.cpu_quota !== undefined ? { cpu_quota: `${Math.round(res.cpu_quota * 1000) / 10}%` } : {}),
        ...(res.cpus !== undefined ? { cpus: res.cpus } : {}),
      };
    }
    return info;
  }

  /** The server's pid and state, for messages about a step that hung. */
  private serverState(): string {
    return `${this.target.kind} server (pid ${this.target.pid}) is ${processState(this.target.pid)}`;
  }

  /**
   * Runs sysbench, stopping it the moment the server dies or the watchdog's limit passes. A raw
   * log that cannot be written stops the run: what it would have measured could not be kept.
   */
  private async sysbench(
    args: string[],
    logFile: string,
    signal: AbortSignal,
    limitS: number,
  ): Promise<ToolRun> {
    const local = new AbortController();
    const onOuter = () => local.abort(signal.reason);
    signal.addEventListener("abort", onOuter, { once: true });
    if (signal.aborted) onOuter();
    let alive = true;
    void this.target.died.then((why) => {
      if (alive) local.abort(new Error(why));
    });
    try {
      const r = await runSysbench(args, {
        logFile,
        signal: local.signal,
        cpus: this.spec.driver?.cpus,
        limitS,
      });
      if (r.writeError) throw r.writeError;
      return r;
    } finally {
      alive = false;
      signal.removeEventListener("abort", onOuter);
    }
  }

  private async step(name: string, args: string[], signal: AbortSignal): Promise<void> {
    this.log(
      `${this.variant}: ${name} (${this.spec.data.tables} tables × ${this.spec.data.table_size} rows)`,
    );
    const limitS = dataStepLimitS(this.spec);
    const r = await this.sysbench(args, this.runDir.raw(`${this.variant}-${name}.log`), signal, limitS);
    if (r.code !== 0 || r.aborted || r.timedOut) {
      const limit = `${limitS}s (120s + 1s per 1000 rows)`;
      throw new RunError(
        `${this.variant}: ${describeFailure(name, r, limit, this.serverState())} (raw output: ${this.runDir.raw(`${this.variant}-${name}.log`)})`,
      );
    }
  }

  /** Runs one cell; a failure is recorded in the cell, not thrown. */
  async runCell(plan: CellPlan, signal: AbortSignal): Promise<Cell> {
    const logFile = this.runDir.raw(cellFileName(plan));
    const started = new Date().toISOString();
    const seconds = cellSeconds(plan);
    const grace = cellGraceS(plan);
    const r = await this.sysbench(
      runArgs(this.spec, plan.workload, plan.threads, this.target.sysbenchArgs),
      logFile,
      signal,
      seconds + grace,
    );
    const cell: Cell = {
      workload: plan.workload.name,
      script: plan.workload.sysbench,
      threads: plan.threads,
      variant: plan.variant,
      round: plan.round,
      status: "ok",
      started_at: started,
      finished_at: new Date().toISOString(),
      raw_log: relative(this.runDir.dir, logFile),
      warmup_s: plan.workload.warmup,
      duration_s: plan.workload.duration,
      intervals: [],
      metrics: {},
    };
    const fail = (why: string): Cell => ({
      ...cell,
      status: "failed",
      error: `cell ${cellLabel(plan)} failed: ${why}`,
    });
    if (r.aborted || r.timedOut || r.code !== 0)
      return fail(
        `${describeFailure("run", r, `${seconds}s + ${grace}s grace`, this.serverState())} (raw output: ${logFile})`,
      );
    try {
      const report = parseSysbench(r.output);
      const problems = measurementProblems(report, {
        seconds,
        grace_s: grace,
        rate_limited: "rate" in plan.workload.options,
      });
      if (problems.length > 0)
        return fail(`not the measurement asked for: ${problems.join("; ")} (raw output: ${logFile})`);
      const steady = steadyState(report, plan.workload.warmup);
      const { intervals: _omit, ...summary } = report;
      return {
        ...cell,
        summary,
        intervals: steady.intervals,
        metrics: steady.metrics,
        metrics_source: steady.source,
      };
    } catch (e) {
      return fail(`${(e as Error).message} (raw output: ${logFile})`);
    }
  }

  /**
   * Drops the data and stops the server. After a failed run the cleanup is skipped: the server may
   * be what failed (stalled, refusing connections), and its private data directory goes anyway.
   */
  async close(signal: AbortSignal, failed = false): Promise<void> {
    try {
      if (failed)
        this.log(`${this.variant}: cleanup skipped: the run failed (the data goes with the server)`);
      else if (!signal.aborted) {
        const limitS = 60 + 5 * this.spec.data.tables;
        const r = await this.sysbench(
          cleanupArgs(this.spec, this.target.sysbenchArgs),
          this.runDir.raw(`${this.variant}-cleanup.log`),
          signal,
          limitS,
        );
        if (r.code !== 0 || r.timedOut)
          this.log(
            `${this.variant}: cleanup: ${describeFailure("cleanup", r, `${limitS}s`, this.serverState())}`,
          );
      }
    } finally {
      await this.target.stop();
    }
  }
}
