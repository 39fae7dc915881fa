import { cpus } from "node:os";
import { relative } from "node:path";
import {
  cleanupArgs,
  prepareArgs,
  prewarmArgs,
  runArgs,
  runSysbench,
  type StepResult,
  supportsPrewarm,
} from "../driver/sysbench.ts";
import { parseSysbench } from "../driver/sysbench-parse.ts";
import { RunError } from "../errors.ts";
import { steadyState } from "../result/cell.ts";
import type { Cell, TargetInfo } from "../result/model.ts";
import type { RunDir } from "../result/store.ts";
import type { Spec, TargetSpec } from "../spec/schema.ts";
import { checkCpus } from "../target/affinity.ts";
import { startTarget, type Target } from "../target/index.ts";
import { type CellPlan, cellFileName, cellLabel } from "./cells.ts";

const lastLines = (text: string, n = 4) => text.trimEnd().split("\n").slice(-n).join("\n");

function describeFailure(step: string, r: StepResult): string {
  if (r.aborted) return `${step} stopped: ${r.aborted}`;
  const fatal = r.output.split("\n").find((l) => l.startsWith("FATAL:"));
  return `${step}: sysbench exited ${r.signal ? `on ${r.signal}` : `with code ${r.code}`}${fatal ? `: ${fatal}` : `:\n${lastLines(r.output)}`}`;
}

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

  /** Runs sysbench, stopping it the moment the server dies. */
  private async sysbench(args: string[], logFile: string, signal: AbortSignal): Promise<StepResult> {
    const local = new AbortController();
    const onOuter = () => local.abort(signal.reason);
    signal.addEventListener("abort", onOuter, { once: true });
    if (signal.aborted) onOuter();
    let alive = true;
    void this.target.died.then((why) => {
      if (alive) local.abort(new Error(why));
    });
    try {
      return await runSysbench(args, logFile, local.signal, this.spec.driver?.cpus);
    } finally {
      alive = false;
      signal.removeEventListener("abort", onOuter);
    }
  }

  private async step(name: string, args: string[], signal: AbortSignal): Promise<void> {
    this.log(
      `${this.variant}: ${name} (${this.spec.data.tables} tables × ${this.spec.data.table_size} rows)`,
    );
    const r = await this.sysbench(args, this.runDir.raw(`${this.variant}-${name}.log`), signal);
    if (r.code !== 0 || r.aborted) {
      throw new RunError(
        `${this.variant}: ${describeFailure(name, r)} (raw output: ${this.runDir.raw(`${this.variant}-${name}.log`)})`,
      );
    }
  }

  /** Runs one cell; a failure is recorded in the cell, not thrown. */
  async runCell(plan: CellPlan, signal: AbortSignal): Promise<Cell> {
    const logFile = this.runDir.raw(cellFileName(plan));
    const started = new Date().toISOString();
    const r = await this.sysbench(
      runArgs(this.spec, plan.workload, plan.threads, this.target.sysbenchArgs),
      logFile,
      signal,
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
    if (r.aborted || r.code !== 0) return fail(describeFailure("run", r));
    try {
      const report = parseSysbench(r.output);
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

  async close(signal: AbortSignal): Promise<void> {
    try {
      if (!signal.aborted) {
        const r = await this.sysbench(
          cleanupArgs(this.spec, this.target.sysbenchArgs),
          this.runDir.raw(`${this.variant}-cleanup.log`),
          signal,
        );
        if (r.code !== 0) this.log(`${this.variant}: cleanup: ${describeFailure("cleanup", r)}`);
      }
    } finally {
      await this.target.stop();
    }
  }
}
