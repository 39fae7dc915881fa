import { z } from "zod";

/**
 * The one result model that flows through every stage (driver → result → compare → report → publish).
 * Versioned: readers refuse a `version` they do not know. JSON Schema: action/schema/result.v1.schema.json.
 */
export const RESULT_FORMAT = "tiperf.result";
export const RESULT_VERSION = 1;

const num = z.number();

export const IntervalSchema = z.strictObject({
  t: num,
  threads: z.number().int(),
  tps: num,
  qps: num,
  reads: num,
  writes: num,
  other: num,
  lat_ms: num.optional(),
  errors_per_s: num,
  reconnects_per_s: num,
  queue_length: num.optional(),
  concurrency: num.optional(),
  /** Inside the workload's warmup window: kept, shown, never judged. */
  warmup: z.boolean(),
});

export const SummarySchema = z.strictObject({
  sysbench_version: z.string().optional(),
  threads: z.number().int(),
  tps: num,
  qps: num,
  transactions: num,
  queries: z.strictObject({ read: num, write: num, other: num, total: num }),
  errors: num,
  errors_per_s: num,
  reconnects: num,
  duration_s: num,
  events: num,
  percentile: z.number().int().nullable(),
  latency_ms: z.record(z.string(), num),
  histogram: z.array(z.tuple([num, num])).optional(),
});

export const CellSchema = z.strictObject({
  workload: z.string(),
  script: z.string(),
  threads: z.number().int().positive(),
  /** Which variant of the spec ran this cell ("base" for a plain run). */
  variant: z.string(),
  /** 1-based repetition number when a comparison repeats cells; 0 marks a warmup round (never judged). */
  round: z.number().int().nonnegative(),
  status: z.enum(["ok", "failed"]),
  error: z.string().optional(),
  started_at: z.string(),
  finished_at: z.string(),
  /** Raw sysbench output, relative to the run directory. */
  raw_log: z.string(),
  warmup_s: num,
  duration_s: num,
  summary: SummarySchema.optional(),
  intervals: z.array(IntervalSchema),
  /**
   * The values that are judged: tps, qps, p<N>_ms over the steady window (after warmup),
   * from the interval samples; with no warmup, sysbench's own summary.
   */
  metrics: z.record(z.string(), num),
  metrics_source: z.enum(["summary", "intervals"]).optional(),
});

export const HostSchema = z.strictObject({
  hostname: z.string(),
  cpu_model: z.string(),
  cores: z.number().int(),
  memory_bytes: num,
  kernel: z.string(),
  os: z.string(),
  arch: z.string(),
});

export const TargetInfoSchema = z.strictObject({
  variant: z.string(),
  kind: z.string(),
  version: z.string(),
  config: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  effective_config: z.record(z.string(), z.string()),
  resources: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});

export const ResultSchema = z.strictObject({
  format: z.literal(RESULT_FORMAT),
  version: z.literal(RESULT_VERSION),
  run_id: z.string(),
  status: z.enum(["running", "complete", "failed", "interrupted"]),
  error: z.string().optional(),
  started_at: z.string(),
  finished_at: z.string().optional(),
  spec: z.strictObject({
    name: z.string(),
    path: z.string(),
    hash: z.string(),
    body: z.unknown(),
  }),
  targets: z.array(TargetInfoSchema),
  host: HostSchema,
  tools: z.record(z.string(), z.string()),
  cells: z.array(CellSchema),
  /** Where the spec could not measure what it says (warned about when the run started). */
  warnings: z.array(z.string()).optional(),
});

export type Interval = z.output<typeof IntervalSchema>;
export type Summary = z.output<typeof SummarySchema>;
export type Cell = z.output<typeof CellSchema>;
export type Host = z.output<typeof HostSchema>;
export type TargetInfo = z.output<typeof TargetInfoSchema>;
export type Result = z.output<typeof ResultSchema>;

export function resultJsonSchema(): unknown {
  return z.toJSONSchema(ResultSchema, { target: "draft-2020-12" });
}
