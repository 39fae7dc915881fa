import { z } from "zod";

/**
 * The one result model that flows through every stage (driver → result → compare → report → publish).
 * Versioned: readers refuse a `version` they do not know and migrate older ones on read
 * (result/migrate.ts). JSON Schema: action/schema/result.v2.schema.json.
 */
export const RESULT_FORMAT = "tiperf.result";
export const RESULT_VERSION = 2;

const num = z.number();

/** One interval sample the tool printed, its values named like the cell's metrics. */
export const IntervalSchema = z.strictObject({
  /** Seconds since the start of the run. */
  t: num,
  /** Inside the workload's warmup window: kept, shown, never judged. */
  warmup: z.boolean(),
  values: z.record(z.string(), num),
});

/** A metric of a cell: its value over the steady window, with its unit and direction. */
export const MetricSchema = z.strictObject({
  value: num,
  unit: z.string(),
  better: z.enum(["higher", "lower"]),
});

const StatSchema = z.strictObject({ mean: num, max: num });

/**
 * What one program used during a cell's measured window (observe/sampler.ts), sampled once a
 * second: a server's or a load tool's processes grouped by program name, or the machine.
 */
export const ResourceUseSchema = z.strictObject({
  /** The program as the kernel names it (mariadbd, postgres, tidb-server, sysbench), or "machine". */
  component: z.string(),
  role: z.enum(["server", "load", "machine"]),
  /** Where it ran: "local" (this machine) or the host it was sampled on. */
  host: z.string(),
  /** The most processes of it seen at once (PostgreSQL: one per backend). */
  processes: z.number().int().nonnegative(),
  /** CPUs it may use: its affinity, capped by its cgroup's quota (the machine: all of them). */
  cpus: num,
  /** User + system CPU time as a percentage of `cpus` (100 = all it may use): window mean and busiest second. */
  cpu_pct: StatSchema,
  /** Resident memory, MiB. */
  rss_mib: StatSchema.optional(),
  /** Bytes it had read from / written to storage, MiB/s (where /proc/PID/io is readable). */
  read_mib_s: StatSchema.optional(),
  write_mib_s: StatSchema.optional(),
  /** Per second: seconds since the measured run started, CPU %, RSS MiB. */
  samples: z.array(z.strictObject({ t: num, cpu_pct: num, rss_mib: num.optional() })),
});

/**
 * What a cell cost the servers (observe/cost.ts): their own counters over the measured window,
 * which the cell's cost metrics (cpu_ms_per_op …) divide by the operations the load tool counted.
 */
export const CellCostSchema = z.strictObject({
  /** Seconds between the two readings of the counters. */
  window_s: num,
  /** Operations the load tool counted in the measured window (its rate × the duration). */
  ops: num,
  /** Each counter's growth over the window (cpu_s, alloc_bytes, handler_reads, cpu_s.tikv …). */
  counters: z.record(z.string(), num),
  /** The idle servers' growth per second of each counter, measured after they started: taken off before dividing. */
  idle_per_s: z.record(z.string(), num).optional(),
  /** What one reading of the counters itself adds to each (a /metrics answer's allocations): taken off once per window. */
  reading_cost: z.record(z.string(), num).optional(),
  /**
   * This cell's own idle readings, where idle_per_s and reading_cost hold the run's background (the
   * mean over every measured server, compare/background.ts): the cost metrics are net of that.
   */
  own_idle_per_s: z.record(z.string(), num).optional(),
  own_reading_cost: z.record(z.string(), num).optional(),
});

export const CellSchema = z.strictObject({
  workload: z.string(),
  /** The load tool (drivers/registry.ts) and what it ran: sysbench script, go-tpc benchmark, go-ycsb workload. */
  driver: z.string(),
  script: z.string(),
  threads: z.number().int().positive(),
  /** Which variant of the spec ran this cell ("base" for a plain run). */
  variant: z.string(),
  /** 1-based repetition number when a comparison repeats cells; 0 marks a warmup round (never judged). */
  round: z.number().int().nonnegative(),
  /** With compare.blocks: the block (1-based) whose server instances measured the cell. */
  block: z.number().int().positive().optional(),
  status: z.enum(["ok", "failed"]),
  error: z.string().optional(),
  /**
   * A failed cell's fault where tiperf acts on it: `stalled`, seconds of the measured run without
   * a finished operation and nothing else wrong (the cell ran again before it failed).
   */
  failure: z.enum(["stalled"]).optional(),
  /**
   * Measured runs of this cell (duet: of its round) set aside because a server stalled, each
   * with its error and its raw output (kept, renamed); the cell's numbers are a later attempt's.
   */
  stalled_attempts: z.array(z.strictObject({ error: z.string(), raw_log: z.string().optional() })).optional(),
  started_at: z.string(),
  finished_at: z.string(),
  /** Raw tool output, relative to the run directory. */
  raw_log: z.string(),
  warmup_s: num,
  duration_s: num,
  /** The values that are judged, over the steady window (after warmup). */
  metrics: z.record(z.string(), MetricSchema),
  metrics_source: z.enum(["summary", "intervals"]).optional(),
  intervals: z.array(IntervalSchema),
  /** The tool's own summary, as its driver parsed it. */
  summary: z.record(z.string(), z.unknown()).optional(),
  /** Per-operation breakdown: TPC-C NEW_ORDER, PAYMENT …; YCSB READ, UPDATE …: field → value. */
  operations: z.record(z.string(), z.record(z.string(), num)).optional(),
  /** Failed operations the tool counted (TPC-C `*_ERR`, YCSB `*_ERROR`), same shape. */
  errors: z.record(z.string(), z.record(z.string(), num)).optional(),
  /** CPU, memory and disk of the servers, the load tool and the machine over the measured window. */
  resources: z.array(ResourceUseSchema).optional(),
  /** The servers' counters over the measured window, behind the cell's cost metrics. */
  cost: CellCostSchema.optional(),
  /**
   * compare.order duet: CPU time of processes of neither pair on the CPUs this cell's pair held
   * over the measured run, % of those CPUs' time (absent where it could not be counted whole).
   */
  outside_cpu_pct: num.optional(),
  /** compare.order duet: how often this round ran again because outside CPU use fell unevenly on the pairs. */
  reruns: z.number().int().positive().optional(),
  /** compare.order duet: how often this round ran again because one pair stalled while the other ran on. */
  stall_reruns: z.number().int().positive().optional(),
  /**
   * target.resources.cpu_quota: the servers' quota cgroup over the measured run (cgroup cpu.stat):
   * enforcement periods, those in which the quota throttled them, the time they waited throttled
   * and the CPU time they used. A quota that never throttled did not bind.
   */
  cpu_throttle: z
    .strictObject({
      periods: z.number().int().nonnegative(),
      throttled_periods: z.number().int().nonnegative(),
      throttled_s: num,
      usage_s: num.optional(),
    })
    .optional(),
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
  /** Built from a source tree (target.source): the commit its server was built at, and the binary. */
  build: z
    .strictObject({ commit: z.string(), subject: z.string(), tree: z.string(), binary: z.string() })
    .optional(),
  /** TiDB targets: deployment, topology file, tidb_version(), /status. */
  details: z.record(z.string(), z.unknown()).optional(),
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
  /**
   * Where the machines came from, named the same in baselines, history and comments: the cluster
   * profile's name (playground, aws-smoke), or local-<kind> for a private server on the runner.
   */
  profile: z.string().optional(),
  targets: z.array(TargetInfoSchema),
  host: HostSchema,
  tools: z.record(z.string(), z.string()),
  cells: z.array(CellSchema),
  /** Where the spec could not measure what it says (warned about when the run started). */
  warnings: z.array(z.string()).optional(),
  /**
   * Why this run measured nothing (base and head resolve to one target): a shard's part says so,
   * so that `tiperf merge` of such parts answers as one runner would.
   */
  nothing_measured: z.string().optional(),
  /** The spec is new at the head: this comparison is an A/A of its design (why), and passes. */
  adoption: z.strictObject({ why: z.string(), spec: z.string() }).optional(),
  /**
   * A share of a comparison (`compare --shard K/N`): `tiperf merge` judges the N parts as one. The
   * spec as given (before builds), so that the merge judges by it; its sha256 and the seed tie the
   * parts together.
   */
  shard: z
    .union([
      z.strictObject({
        index: z.number().int().positive(),
        of: z.number().int().positive(),
        seed: z.number().int().nonnegative(),
        /** The comparison's order as its plan resolved it (compare.order auto → duet or interleaved). */
        order: z.enum(["interleaved", "duet"]),
        /** The blocks of the comparison this part ran (numbered as in the whole). */
        blocks: z.array(z.number().int().positive()),
        /** A further look's wave (compare --look-of): the look it ran (absent: the design's blocks). */
        look: z.number().int().min(2).optional(),
        spec_sha256: z.string(),
        spec: z.record(z.string(), z.unknown()),
      }),
      /** A share of a run's matrix (`run --shard K/N`): every N-th cell, `tiperf merge` joins them. */
      z.strictObject({
        index: z.number().int().positive(),
        of: z.number().int().positive(),
        /** The cells of the matrix this part ran ("workload threads=N"), in the matrix's order. */
        cells: z.array(z.string()),
        spec_sha256: z.string(),
        spec: z.record(z.string(), z.unknown()),
      }),
    ])
    .optional(),
});

export type Interval = z.output<typeof IntervalSchema>;
export type Cell = z.output<typeof CellSchema>;
export type StalledAttempt = NonNullable<Cell["stalled_attempts"]>[number];
export type ResourceUse = z.output<typeof ResourceUseSchema>;
export type Host = z.output<typeof HostSchema>;
export type TargetInfo = z.output<typeof TargetInfoSchema>;
export type Result = z.output<typeof ResultSchema>;

export function resultJsonSchema(): unknown {
  return z.toJSONSchema(ResultSchema, { target: "draft-2020-12" });
}

/**
 * What the run's cluster cost (ephemeral cloud clusters): the profile's on-demand $/h from the
 * dated price table, times the hours the machines lived (or were estimated to, before the run).
 */
export const CostSchema = z.strictObject({
  currency: z.literal("USD"),
  basis: z.enum(["estimate", "measured"]),
  profile: z.string(),
  per_hour: z.number().positive(),
  hours: z.number().nonnegative(),
  dollars: z.number().nonnegative(),
  prices_as_of: z.string(),
  /**
   * A comparison spread over runners, one cluster per shard: each shard's own cost; the totals
   * above are their sum (per_hour: all clusters at once; hours: the longest shard's).
   */
  shards: z
    .array(z.strictObject({ index: z.number().int().positive(), hours: z.number(), dollars: z.number() }))
    .optional(),
});

export type Cost = z.output<typeof CostSchema>;
