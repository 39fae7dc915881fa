import type { z } from "zod";
import type { Connection } from "../targets/types.ts";

/**
 * The contract every load tool implements. A driver owns its spec keys, its phases, its argument
 * arrays, its parser and its metrics; the pipeline, compare/ and report/ only ever see this shape.
 * Adding a tool is one folder under drivers/ and one line in drivers/registry.ts.
 */

export type Better = "higher" | "lower";

export interface MetricInfo {
  /** "1/s", "1/min", "ms", "us", "s", "%", "count". */
  unit: string;
  better: Better;
  /** Column heading in the reports (the seeds' words: tpmC, NEW_ORDER p95, READ p99). */
  label: string;
}

export type Scalar = string | number | boolean;

/** A workload after validation: the spec's common keys plus what its driver made of its own. */
export interface Workload {
  name: string;
  /** The registry name of the driver, which is also the spec key that named it. */
  driver: string;
  /** The driver key's value: a sysbench script, a go-tpc benchmark, a go-ycsb workload. */
  script: string;
  threads: number[];
  duration: number;
  warmup: number;
  /** The driver's own settings, validated and completed with its defaults. */
  options: Record<string, Scalar>;
  /** The metrics judged in this workload and how (from the spec's `metrics:` or the driver's default). */
  judge: Record<string, { better: Better; tolerance: number }>;
}

/** The data every cell of a spec shares, for drivers whose data set the spec describes (sysbench). */
export interface SpecData {
  tables: number;
  table_size: number;
}

/** How a tool is started: a program found on PATH, or `tiup bench …`. */
export interface ToolCommand {
  command: string;
  /** Arguments that come before the driver's own (`bench tpcc` for tiup). */
  prefix: string[];
}

/** One run of the tool: a phase with its arguments and how long it may take. */
export interface Step {
  /** prepare, prewarm, check, run, cleanup. */
  phase: string;
  args: string[];
  /** The watchdog stops the tool after this many seconds and reports it as hung (a cell: its seconds + grace). */
  limitS?: number;
  /** For tools without a time limit: SIGINT after this many seconds ends the run normally. */
  stopAfterS?: number;
  /** Say what the step is doing, for the log ("2 warehouses", "20000 records"). */
  about?: string;
}

/** What a finished run measured, in the result model's shape. */
export interface Measured {
  /** The judged values over the steady window. */
  metrics: Record<string, number>;
  /** Interval samples, with the metric names as keys; `warmup` marks those never judged. */
  intervals: { t: number; warmup: boolean; values: Record<string, number> }[];
  /** The tool's own summary, as parsed. */
  summary: Record<string, unknown>;
  /** Per-operation breakdown (NEW_ORDER, READ …): name → field → value. */
  operations?: Record<string, Record<string, number>>;
  /** Failed operations the tool counted (NEW_ORDER_ERR, READ_ERROR …): name → field → value. */
  errors?: Record<string, Record<string, number>>;
  /** Where `metrics` came from: the tool's summary, or the steady interval samples. */
  source: "summary" | "intervals";
}

/** What a cell asked for, to check what the tool measured against. */
export interface CellRequest {
  /** warmup + duration. */
  seconds: number;
  /** Seconds the tool may overrun before the cell is not what was asked for. */
  grace_s: number;
}

export interface StepContext {
  workload: Workload;
  data?: SpecData;
  connection: Connection;
  /** For data steps: the threads to load with. */
  threads: number;
  /** CPUs where the tool runs (this machine, or the load host); data steps load with up to this many. */
  cores?: number;
}

/** How the reports lay out a workload's metrics (the seeds' tables). */
/**
 * What `measure` throws when the measured run's only fault is seconds without a finished
 * operation (the server stalled: a background job, a pause of the machine, SIGSTOP) or seconds the
 * tool never reported (it got no CPU itself), within its time: another attempt of the cell may
 * measure, so the pipeline sets this one aside and runs the cell again.
 */
export class StalledRun extends Error {
  constructor(
    message: string,
    /** The seconds (from the measured run's start) with zero throughput (none: seconds not reported). */
    readonly seconds: number[],
  ) {
    super(message);
    this.name = "StalledRun";
  }
}

export interface ReportLayout {
  /** "threads": a row per thread count, a column per metric; "metrics": a row per metric (TPC-H queries). */
  rows: "threads" | "metrics";
  /** Metrics shown, in order; those a cell lacks are left out. */
  columns: string[];
}

export interface Driver {
  /** The spec key (`sysbench:`, `go-tpc:`, `go-ycsb:`) and registry name. */
  name: string;
  /** What to install when the tool is missing. */
  install: string;
  /**
   * The driver's own keys of a workload entry (its key, `options` and any others), validated with
   * its own schema; the output is the workload's `script` and normalized `options`.
   */
  keys: z.ZodType<{ script: string; options: Record<string, Scalar> }>;
  /** Keys this driver accepts besides the common ones (name, threads, duration, warmup). */
  keyNames: readonly string[];
  /** The program to run for a workload, or undefined when none is installed. */
  findTool(script: string): ToolCommand | undefined;
  /** The program called by its own name: on a load host, or in a plan made where it is not installed. */
  namedTool(script: string): ToolCommand;
  /** The tool's version as it reports it, for the result's `tools`. */
  version?(tool: ToolCommand): Promise<string | undefined>;
  /** Every metric a workload provides. */
  metrics(w: Workload): Record<string, MetricInfo>;
  /** What is judged when the spec names none of the workload's metrics. */
  defaultMetric(w: Workload): string;
  /**
   * The operation a cost per operation divides by (observe/cost.ts): the metric that counts them,
   * what one per second of it is (tpm: 1/60), and its noun; undefined where a workload has no
   * steady rate of operations (TPC-H's queries).
   */
  operations(w: Workload): { metric: string; perSecond: number; noun: string } | undefined;
  /** Problems with the spec as a whole for this workload (e.g. sysbench needs `data`). */
  check?(w: Workload, data: SpecData | undefined): string[];
  /** Workloads with the same key share one prepared data set on a target. */
  dataKey(w: Workload, data: SpecData | undefined): string;
  /** The database the driver's tables live in (created on the target before prepare). */
  database(w: Workload): string;
  /** The tables its data set creates in that database (what a target analyzes after the load). */
  tables(w: Workload, data: SpecData | undefined): string[];
  /**
   * Its data set is the spec's `data` (tables × rows: sysbench's), which a target may split into
   * regions after the load; absent: the tool sizes its data in its own options.
   */
  sizedBySpecData?: boolean;
  /** prepare / prewarm / check steps, run once per data set on each target. */
  setup(ctx: StepContext): Step[];
  /**
   * The warmup as its own invocation right before the measured one, for tools that cannot keep a
   * warmup out of their own summary (sysbench 1.0 has no --warmup-time, go-tpc no warmup): `run`
   * then covers the duration alone and its summary is the steady window's. Absent (or undefined
   * for this workload): `run` covers warmup + duration and the tool keeps the warmup out itself
   * (go-ycsb's warmuptime).
   */
  warmup?(ctx: StepContext): Step | undefined;
  /** One cell: the workload at one thread count. */
  run(ctx: StepContext): Step;
  /** Removes the data set; skipped after a failed run. */
  cleanup(ctx: StepContext): Step[];
  /** The line that says a step failed when the tool's output does (tools that exit 0 on failure). */
  failure(output: string): string | undefined;
  /** Parses a finished run and checks it is the measurement asked for; throws with the reason otherwise. */
  measure(w: Workload, output: string, req: CellRequest): Measured;
  /** Parses raw output for `tiperf parse <driver> FILE`. */
  parse(output: string): unknown;
  report(w: Workload): ReportLayout;
}
