import { z } from "zod";

/** sysbench scripts shipped with sysbench 1.0.x that tiperf knows how to drive. */
export const SYSBENCH_SCRIPTS = [
  "oltp_point_select",
  "oltp_read_only",
  "oltp_read_write",
  "oltp_write_only",
  "oltp_update_index",
  "oltp_update_non_index",
  "oltp_insert",
  "oltp_delete",
  "select_random_points",
  "select_random_ranges",
] as const;

export const TARGET_KINDS = ["mariadb", "postgres"] as const;

/** sysbench flags tiperf sets itself; a spec may not override them through `options`. */
export const RESERVED_SYSBENCH_OPTIONS = [
  "threads",
  "time",
  "report-interval",
  "tables",
  "table-size",
  "db-driver",
  "percentile",
  "events",
] as const;

const NAME = /^[a-z][a-z0-9_-]{0,62}$/;
const OPTION_NAME = /^[a-z][a-z0-9_-]*$/;
const SERVER_SETTING = /^[a-z][a-z0-9_.-]*$/i;

const scalar = z.union([z.string(), z.number(), z.boolean()]);

/** "10s", "2m", "1h" or a whole number of seconds; sysbench only takes whole seconds. */
export function parseDuration(value: string | number): number | undefined {
  if (typeof value === "number") return Number.isInteger(value) && value >= 0 ? value : undefined;
  const m = /^(\d+)\s*(s|m|h)$/.exec(value.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  return n * { s: 1, m: 60, h: 3600 }[m[2] as "s" | "m" | "h"];
}

const duration = (min: number) =>
  z.union([z.string(), z.number()]).transform((v, ctx) => {
    const seconds = parseDuration(v);
    if (seconds === undefined || seconds < min) {
      ctx.addIssue({
        code: "custom",
        message: `must be a whole number of seconds ${min > 0 ? "≥ 1" : "≥ 0"}, written like 10s, 2m or 1h (got ${JSON.stringify(v)})`,
      });
      return z.NEVER;
    }
    return seconds;
  });

/** "90%" of one CPU; values above 100% allow more than one CPU. */
export function parsePercent(value: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)%$/.exec(value.trim());
  return m ? Number(m[1]) / 100 : undefined;
}

const percent = (what: string, min: number, max: number) =>
  z.string({ error: `${what} must be a percentage like 5% (a number followed by %)` }).transform((v, ctx) => {
    const f = parsePercent(v);
    if (f === undefined || f <= min || f > max) {
      ctx.addIssue({
        code: "custom",
        message: `${what} must be a percentage like "5%" in (${min * 100}%, ${max * 100}%] (got ${JSON.stringify(v)})`,
      });
      return z.NEVER;
    }
    return f;
  });

const CPU_LIST = /^\d+(-\d+)?(,\d+(-\d+)?)*$/;
const cpuList = z
  .string()
  .regex(CPU_LIST, 'must be a CPU list like "0", "0-1" or "0,2" (as taskset -c takes)');

export const ResourcesSchema = z.strictObject({
  /** CPUs the database server may run on (sched affinity, as tiup's numa/cpu binding). */
  cpus: cpuList.optional(),
  /** Share of one CPU for the database server ("90%"), as tiup's resource_control / systemd CPUQuota. */
  cpu_quota: percent("cpu_quota", 0, 64).optional(),
});

export const TargetSchema = z.strictObject({
  kind: z.enum(TARGET_KINDS, { error: `must be one of ${TARGET_KINDS.join(", ")}` }),
  config: z
    .record(z.string().regex(SERVER_SETTING, "server setting names are letters, digits, _ . -"), scalar)
    .default({}),
  resources: ResourcesSchema.optional(),
});

export const WorkloadSchema = z.strictObject({
  name: z.string().regex(NAME, "must be lower-case letters, digits, _ or - (starting with a letter)"),
  sysbench: z.enum(SYSBENCH_SCRIPTS, { error: `must be one of ${SYSBENCH_SCRIPTS.join(", ")}` }),
  threads: z
    .array(z.number().int().positive({ error: "thread counts must be positive integers" }), {
      error: "must be a list of positive integers",
    })
    .min(1, "must list at least one thread count")
    .refine((t) => new Set(t).size === t.length, "thread counts must not repeat"),
  duration: duration(1),
  warmup: duration(0).default(0),
  percentile: z.number().int().min(1).max(100).default(95),
  options: z
    .record(
      z
        .string()
        .regex(OPTION_NAME, "option names are sysbench flags without the leading --")
        .refine((k) => !(RESERVED_SYSBENCH_OPTIONS as readonly string[]).includes(k), {
          error: (iss) =>
            `--${String(iss.input)} is set by tiperf (use the workload's threads, duration, percentile or the spec's data)`,
        })
        .refine((k) => !/^(mysql|pgsql)-/.test(k), "connection flags are set by the target"),
      scalar,
    )
    .default({}),
});

export const MetricSchema = z.strictObject({
  better: z.enum(["higher", "lower"], { error: "must be higher or lower" }),
  tolerance: percent("tolerance", 0, 1),
});

export const COMPARE_ORDERS = ["interleaved", "duet"] as const;

export const CompareSchema = z.strictObject({
  /** Rounds each variant runs every cell (the minimum, when max_rounds allows early stopping). */
  rounds: z
    .number()
    .int()
    .min(2, "needs at least 2 rounds: one round gives no estimate of the noise")
    .default(6),
  /** With max_rounds > rounds, rounds go on until every cell is decided or max_rounds is reached. */
  max_rounds: z.number().int().min(2).optional(),
  /** Rounds run first and not judged: both servers settle (caches, thread pools) before measuring. */
  warmup_rounds: z.number().int().min(0).max(10).default(1),
  order: z
    .enum(COMPARE_ORDERS, { error: `must be one of ${COMPARE_ORDERS.join(", ")}` })
    .default("interleaved"),
  /** Familywise confidence over every cell × metric judged. */
  confidence: z.number().gt(0.5).lt(1).default(0.95),
  base: z.string().default("base"),
  head: z.string().default("head"),
  /** Seed of the interleaving order (recorded in the verdict, so a run can be replayed). */
  seed: z.number().int().nonnegative().optional(),
});

/** sysbench reports one latency percentile, --percentile=N with N from 1 to 100. */
const METRIC_NAME = /^(tps|qps|p([1-9]\d?|100)_ms)$/;

export const SpecSchema = z
  .strictObject({
    name: z.string().regex(NAME, "must be lower-case letters, digits, _ or - (starting with a letter)"),
    description: z.string().optional(),
    target: TargetSchema,
    data: z.strictObject({
      tables: z.number().int().positive(),
      table_size: z.number().int().positive(),
    }),
    /** Where the load generator runs: pinning it off the server's CPUs cuts noise on small machines. */
    driver: z.strictObject({ cpus: cpuList.optional() }).optional(),
    workloads: z.array(WorkloadSchema).min(1, "must list at least one workload"),
    metrics: z
      .record(
        z
          .string()
          .regex(
            METRIC_NAME,
            "metric names are tps, qps or p<N>_ms with N a whole percentile from 1 to 100 (sysbench's --percentile), e.g. p95_ms or p99_ms",
          ),
        MetricSchema,
      )
      .default({ tps: { better: "higher", tolerance: 0.05 } }),
    /** Named overlays, deep-merged onto the rest of the spec (see spec/variants.ts). */
    variants: z
      .record(
        z.string().regex(NAME, "variant names are lower-case letters, digits, _ or -"),
        z.record(z.string(), z.unknown()),
      )
      .optional(),
    compare: CompareSchema.optional(),
  })
  .superRefine((spec, ctx) => {
    const names = new Set<string>();
    spec.workloads.forEach((w, i) => {
      if (names.has(w.name))
        ctx.addIssue({
          code: "custom",
          path: ["workloads", i, "name"],
          message: `duplicate workload name "${w.name}"`,
        });
      names.add(w.name);
    });
    for (const metric of Object.keys(spec.metrics)) {
      const p = /^p(\d+)_ms$/.exec(metric);
      if (!p) continue;
      spec.workloads.forEach((w, i) => {
        if (w.percentile !== Number(p[1]))
          ctx.addIssue({
            code: "custom",
            path: ["workloads", i, "percentile"],
            message: `metric ${metric} needs percentile ${p[1]} (got ${w.percentile})`,
          });
      });
    }
  });

export type Spec = z.output<typeof SpecSchema>;
export type CompareSettings = z.output<typeof CompareSchema>;
export type Workload = Spec["workloads"][number];
export type TargetSpec = Spec["target"];
export type MetricRule = Spec["metrics"][string];
