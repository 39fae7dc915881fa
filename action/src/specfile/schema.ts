import { z } from "zod";
import { driverNames, driverOf } from "../drivers/registry.ts";
import type { Workload } from "../drivers/types.ts";
import { costMetric, PER_OP } from "../observe/cost.ts";
import { cpuList, cpuQuota, parsePercent } from "../targets/local/schema.ts";
import { TARGET_KINDS, TargetSchema } from "../targets/registry.ts";
import type { TargetSpec } from "../targets/types.ts";
import { durationSchema, forwardIssues, parseDuration } from "../yaml/keys.ts";
import { NoiseSchema } from "./noise-schema.ts";

export { parseDuration };

const NAME = /^[a-z][a-z0-9_-]{0,62}$/;

const duration = durationSchema;

/** Keys every workload has, whatever its load tool. */
const COMMON_KEYS = ["name", "threads", "duration", "warmup"] as const;

/** The keys every workload has, checked alongside its tool's own so that all problems show at once. */
const CommonWorkloadSchema = z.object({
  name: z.string().regex(NAME, "must be lower-case letters, digits, _ or - (starting with a letter)"),
  threads: z
    .array(z.number().int().positive({ error: "thread counts must be positive integers" }), {
      error: "must be a list of positive integers",
    })
    .min(1, "must list at least one thread count")
    .refine((t) => new Set(t).size === t.length, "thread counts must not repeat"),
  duration: duration(1),
  warmup: duration(0).default(0),
});

export const WorkloadSchema = z.looseObject({}).transform((w, ctx): Workload => {
  const common = CommonWorkloadSchema.safeParse(
    Object.fromEntries(Object.entries(w).filter(([k]) => (COMMON_KEYS as readonly string[]).includes(k))),
  );
  // as they are (a missing key keeps its code: the message then says "required, but missing")
  if (!common.success) for (const issue of common.error.issues) ctx.addIssue({ ...issue } as never);
  const tools = driverNames().filter((k) => k in w);
  if (tools.length !== 1) {
    ctx.addIssue({
      code: "custom",
      message:
        tools.length === 0
          ? `a workload names its load tool with one key: ${driverNames().join(", ")} (e.g. sysbench: oltp_point_select)`
          : `a workload has one load tool, not ${tools.join(" and ")}`,
    });
    return z.NEVER;
  }
  const driver = driverOf(tools[0] as string);
  const own: Record<string, unknown> = {};
  let unknown = false;
  for (const [k, v] of Object.entries(w)) {
    if ((COMMON_KEYS as readonly string[]).includes(k)) continue;
    if (driver.keyNames.includes(k)) own[k] = v;
    else {
      unknown = true;
      ctx.addIssue({
        code: "custom",
        path: [k],
        message: `unknown key ${k} (allowed: ${[...COMMON_KEYS, ...driver.keyNames].join(", ")})`,
      });
    }
  }
  const parsed = driver.keys.safeParse(own);
  if (!parsed.success) forwardIssues(ctx, parsed.error.issues);
  if (!common.success || !parsed.success || unknown) return z.NEVER;
  return {
    name: common.data.name,
    driver: driver.name,
    script: parsed.data.script,
    threads: common.data.threads,
    duration: common.data.duration,
    warmup: common.data.warmup,
    options: parsed.data.options,
    judge: {},
  };
});

/** A tolerance written as a multiple of the metric's measured noise: "3x noise". */
const NOISE_MULTIPLE = /^(\d+(?:\.\d+)?)\s*x\s*noise$/;
const TOLERANCE_WORDS =
  'tolerance must be a percentage like "5%" or a multiple of the measured noise like "3x noise"';

export const MetricRuleSchema = z.strictObject({
  /** Taken from the load tool when left out; must agree with it when given. */
  better: z.enum(["higher", "lower"], { error: "must be higher or lower" }).optional(),
  /**
   * A percentage ("2%"), or a multiple of the per-round noise compare.noise gives for this metric
   * in each workload ("3x noise": three standard deviations of one round's log ratio).
   */
  tolerance: z
    .string({ error: TOLERANCE_WORDS })
    .regex(/^\s*\d+(\.\d+)?\s*(%|x\s*noise)\s*$/, TOLERANCE_WORDS)
    .transform((v, ctx): number | { noise: number } => {
      const times = NOISE_MULTIPLE.exec(v.trim());
      if (times) return { noise: Number(times[1]) };
      const f = parsePercent(v);
      if (f !== undefined && f > 0 && f <= 1) return f;
      ctx.addIssue({
        code: "custom",
        message: `${TOLERANCE_WORDS}, in (0%, 100%] (got ${JSON.stringify(v)})`,
      });
      return z.NEVER;
    }),
});

export const COMPARE_ORDERS = ["auto", "interleaved", "duet"] as const;
export const INCONCLUSIVE_POLICIES = ["fail", "warn", "pass"] as const;

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
  /**
   * interleaved: one variant at a time in a balanced order; duet: both at once, each pair pinned to
   * CPUs of its own, the sets swapped (bench/duet.ts); auto: duet where it can be fair (private
   * servers on this machine, CPUs for every pair, durations a whole number of swap cycles, no CPUs
   * pinned by the spec), else interleaved. Auto is the default: at the same benchmark minutes duet
   * caught a 3% slowdown where interleaved could not (the README's duet table); `tiperf plan` says
   * which order runs.
   */
  order: z.enum(COMPARE_ORDERS, { error: `must be one of ${COMPARE_ORDERS.join(", ")}` }).default("auto"),
  /**
   * duet: seconds each pair holds a CPU set before the sets move on to the next pair (cells last a
   * whole number of cycles: pairs × swap).
   */
  swap: duration(1).default(5),
  /** Familywise confidence over every cell × metric judged. */
  confidence: z.number().gt(0.5).lt(1).default(0.95),
  /**
   * The time the whole comparison may take (like 100m: within its workflow's timeout): `plan`
   * and `compare` refuse a larger estimate, saying how many rounds would fit. Seconds.
   */
  budget: duration(60).optional(),
  /**
   * What an inconclusive cell does to the check: fail it (exit 1), warn (exit 0, a warning with
   * what this run could detect and the rounds that would decide it), or pass silently.
   */
  inconclusive: z
    .enum(INCONCLUSIVE_POLICIES, { error: `must be one of ${INCONCLUSIVE_POLICIES.join(", ")}` })
    .default("warn"),
  /**
   * Regressed cells (the largest drops first, at most this many) run once more per side with a
   * CPU profile of each server taken over the measured run, where the target can take one (TiDB
   * and TiKV pprof); 0: none. Not judged: evidence for the comment.
   */
  profiles: z.number().int().min(0).max(10).default(3),
  /**
   * Confirm before alarming: a regression verdict re-runs the regressed cells this many times on
   * fresh instances (new servers, same data), and stays a regression only if every re-run finds
   * one of them regressed again; 0: the first verdict stands alone.
   */
  confirm: z.number().int().min(0).max(3).default(1),
  base: z.string().default("base"),
  head: z.string().default("head"),
  /**
   * More than two variants: every one runs and each is judged against this one (default: the
   * first declared). Setting it, or declaring more than two variants without compare.base/head,
   * compares them all.
   */
  control: z.string().optional(),
  /** The noise these cells showed in A/A runs (noise-schema.ts). */
  noise: NoiseSchema.optional(),
  /** Seed of the interleaving order (recorded in the verdict, so a run can be replayed). */
  seed: z.number().int().nonnegative().optional(),
  /**
   * Instances as the unit: the rounds split into this many blocks; before each block after the
   * first, every variant's server restarts (fresh process, same data) in random order, and the
   * verdict's interval is taken over block means. 1: one instance per variant, rounds as the unit.
   * Left out of a duet's spec: 3 blocks or more, with reload_data (compare/design.ts duetBlocks).
   */
  blocks: z
    .number()
    .int()
    .min(1)
    .refine((b) => b !== 2, "2 blocks give an interval with 1 degree of freedom: use 1, or 3 or more")
    .default(1),
  /**
   * With blocks: before each block after the first, each variant's data is loaded again (its
   * driver's cleanup, then prepare, prewarm and checks) after its server restarts, so the data is
   * part of the instance a block samples: a gap one variant's data carries (its pages, statistics,
   * the rows an insert cell added) varies over blocks and widens the interval, instead of sitting
   * in every block and the estimate. Costs a data load per variant and block.
   */
  reload_data: z.boolean().default(false),
  /**
   * Look again until decided: after the design's blocks, cells with a judgement still undecided get
   * as many blocks again (fresh server pairs) and are judged over every block so far, up to this
   * many looks in all while compare.budget lasts; the error rate is spent over every look
   * (compare/looks.ts). 1: the design's blocks only. Needs compare.blocks of 3 or more.
   */
  looks: z.number().int().min(1).max(6).default(1),
});

const METRIC_NAME = /^[a-z][a-z0-9_]*$/;

/** A metric name: a known metric (tps, p95_ms, alloc_kb_per_op) or a server counter per operation. */
const metricKey = z
  .string()
  .refine(
    (k) => METRIC_NAME.test(k) || (k.endsWith(PER_OP) && costMetric(k) !== undefined),
    'metric names are lower-case letters, digits and _ (e.g. tps, p95_ms, tpmc), or a server counter per operation ("go_memstats_mallocs_total/op", "tidb:tidb_executor_statement_total{type="Select"}/op")',
  );

export const SpecSchema = z
  .strictObject({
    name: z.string().regex(NAME, "must be lower-case letters, digits, _ or - (starting with a letter)"),
    description: z.string().optional(),
    target: TargetSchema,
    /** The data set of sysbench workloads (the other tools size theirs in their options). */
    data: z
      .strictObject({
        tables: z.number().int().positive(),
        table_size: z.number().int().positive(),
      })
      .optional(),
    /**
     * Where the load generator runs: pinning it off the server's CPUs cuts noise on small machines;
     * cpu_quota ("50%" of one CPU) caps it in a cgroup of its own (a load generator too weak for
     * the server, on purpose: the evidence must then say the cell measured the client).
     */
    driver: z.strictObject({ cpus: cpuList.optional(), cpu_quota: cpuQuota.optional() }).optional(),
    workloads: z.array(WorkloadSchema).min(1, "must list at least one workload"),
    metrics: z.record(metricKey, MetricRuleSchema).default({}),
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
    // Workloads that failed their own validation are reported already; judge the rest.
    if (!spec.workloads.every((w) => typeof w?.driver === "string")) return;
    const names = new Set<string>();
    spec.workloads.forEach((w, i) => {
      if (names.has(w.name))
        ctx.addIssue({
          code: "custom",
          path: ["workloads", i, "name"],
          message: `duplicate workload name "${w.name}"`,
        });
      names.add(w.name);
      for (const problem of driverOf(w.driver).check?.(w, spec.data) ?? [])
        ctx.addIssue({ code: "custom", path: ["data"], message: problem });
    });
    const provided = new Set<string>();
    const costs = TARGET_KINDS[spec.target.kind]?.costMetrics ?? [];
    spec.workloads.forEach((w, i) => {
      const driver = driverOf(w.driver);
      const counted = driver.operations(w) !== undefined;
      const metrics = {
        ...driver.metrics(w),
        ...costMetricsOf(costs, counted),
        // any server counter per operation, where the kind reads its servers' counters
        ...costMetricsOf(
          costs.length ? Object.keys(spec.metrics).filter((m) => m.endsWith(PER_OP)) : [],
          counted,
        ),
      };
      for (const m of Object.keys(metrics)) provided.add(m);
      for (const [m, rule] of Object.entries(spec.metrics)) {
        const info = metrics[m];
        if (!info) continue;
        const tolerance = toleranceOf(
          rule.tolerance,
          m,
          w.name,
          m === driver.defaultMetric(w),
          spec.compare?.noise,
        );
        if (typeof tolerance === "string") {
          ctx.addIssue({ code: "custom", path: ["metrics", m, "tolerance"], message: tolerance });
          continue;
        }
        if (rule.better !== undefined && rule.better !== info.better)
          ctx.addIssue({
            code: "custom",
            path: ["metrics", m, "better"],
            message: `${m} of ${w.driver} is ${info.better}-is-better (workload ${w.name})`,
          });
        w.judge[m] = { better: info.better, tolerance };
      }
      if (Object.keys(w.judge).length === 0) {
        const m = driver.defaultMetric(w);
        const info = metrics[m];
        if (info) w.judge[m] = { better: info.better, tolerance: DEFAULT_TOLERANCE };
      }
      void i;
    });
    for (const m of Object.keys(spec.metrics)) {
      if (!provided.has(m))
        ctx.addIssue({
          code: "custom",
          path: ["metrics", m],
          message: `no workload provides ${m} (metrics that exist: ${[...provided].join(", ")}; a sysbench workload's percentile decides its p<N>_ms)`,
        });
    }
  });

/**
 * A target kind's cost metrics as a workload provides them (lower is better): where its load tool
 * counts operations (TPC-H's queries have no rate to divide by).
 */
function costMetricsOf(names: readonly string[], counted: boolean) {
  const out: Record<string, { unit: string; better: "lower"; label: string }> = {};
  if (!counted) return out;
  for (const n of names) {
    const m = costMetric(n);
    if (m) out[n] = { unit: m.unit, better: "lower", label: m.label };
  }
  return out;
}

/**
 * A metric's tolerance in one workload: a percentage as written, or the multiple of the per-round
 * noise compare.noise gives for it there; a message when that noise is not given or too large.
 */
function toleranceOf(
  t: number | { noise: number },
  metric: string,
  workload: string,
  isDefault: boolean,
  noise: CompareSettings["noise"],
): number | string {
  if (typeof t === "number") return t;
  const w = noise?.workloads[workload];
  const sd = w?.metrics?.[metric]?.rounds ?? (isDefault ? w?.rounds : undefined);
  if (sd === undefined)
    return `"${t.noise}x noise" needs the metric's measured noise: compare.noise.workloads.${workload}.metrics.${metric}.rounds (an A/A run measures it)`;
  const tol = t.noise * sd;
  if (!(tol > 0 && tol <= 1))
    return `"${t.noise}x noise" of ${(sd * 100).toFixed(2)}% in workload ${workload} is ${(tol * 100).toFixed(1)}%: a tolerance lies in (0%, 100%]`;
  return Math.round(tol * 1e6) / 1e6;
}

/** The tolerance of a workload's default metric when the spec names none of its metrics. */
export const DEFAULT_TOLERANCE = 0.05;

export type Spec = z.output<typeof SpecSchema>;
export type CompareSettings = z.output<typeof CompareSchema>;
export type { TargetSpec, Workload };
/** How one metric of a workload is judged (resolved from `metrics:` and the driver). */
export type MetricRule = Workload["judge"][string];
