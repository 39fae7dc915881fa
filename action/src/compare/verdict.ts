import { z } from "zod";
import { CostSchema, HostSchema, ResourceUseSchema, TargetInfoSchema } from "../result/model.ts";
import { type Migrations, migrated, readModel } from "../result/store.ts";
import { isObj, type Obj } from "../yaml/merge.ts";
import { CELL_VERDICTS } from "./judge.ts";
import { ReadingSchema } from "./reading.ts";
import { CounterReportSchema } from "./what-moved.ts";

/**
 * The verdict file (`--json`): what `compare`/`diff` decided and everything a report needs to show
 * why. `change`, `ci` and `mde` are relative: −0.05 = 5% lower.
 */
export const VERDICT_FORMAT = "tiperf.verdict";
/**
 * 2: the words that were `kind` say what they are: a hint's `bound`, a profile's `measures`, a
 * reading's `finding` (version 1 files are read through migrateVerdict).
 */
export const VERDICT_VERSION = 2;

export const CellJudgementSchema = z.strictObject({
  /** The variant judged against the control (compare runs; absent in diffs of stored results). */
  variant: z.string().optional(),
  workload: z.string(),
  threads: z.number().int(),
  metric: z.string(),
  better: z.enum(["higher", "lower"]),
  tolerance: z.number(),
  base: z.number().nullable(),
  head: z.number().nullable(),
  change: z.number().nullable(),
  ci: z.tuple([z.number(), z.number()]).nullable(),
  mde: z.number().nullable(),
  /** Inconclusive: samples (rounds, or blocks for block-t) that would decide it at this noise. */
  needed: z.number().int().positive().optional(),
  verdict: z.enum(CELL_VERDICTS),
  n: z.number().int(),
  method: z.enum(["paired-t", "welch-t", "block-t"]),
  /** block-t: blocks (server instances) judged, and the share of the variance between them. */
  blocks: z.number().int().optional(),
  between_share: z.number().min(0).max(1).optional(),
  /** block-t: rounds pulled in to 3 robust standard deviations of the median round (stats.ts winsorize). */
  winsorized: z.number().int().positive().optional(),
  /** compare.looks > 1: the look that decided it (1: the design's blocks), or the looks an undecided one took. */
  looks: z.number().int().positive().optional(),
  reason: z.string().optional(),
});

/**
 * Whether a difference between two variants (a spec key) was shown to take effect while a cell was
 * measured (compare/effects.ts).
 */
export const EffectSchema = z.strictObject({
  /** The variant judged against the control, and the control. */
  variant: z.string(),
  against: z.string(),
  /** The spec key the two differ in. */
  difference: z.string(),
  workload: z.string(),
  threads: z.number().int(),
  /** true: shown to differ at run time; false: shown not to; absent: nothing recorded to tell. */
  took_effect: z.boolean().optional(),
  detail: z.string(),
});

export type Effect = z.output<typeof EffectSchema>;

const SideSchema = z.strictObject({
  variant: z.string(),
  run_id: z.string(),
  result: z.string(),
  target: TargetInfoSchema.optional(),
});

/**
 * Where a variant's cells of one workload × threads spent their time (observe/hints.ts): the
 * resources of its rounds pooled (window means averaged, the largest maximum) and what they say.
 */
export const EvidenceSchema = z.strictObject({
  variant: z.string(),
  workload: z.string(),
  threads: z.number().int(),
  hint: z.strictObject({ bound: z.enum(["load", "server", "machine", "none"]), text: z.string() }),
  resources: z.array(ResourceUseSchema),
});

/** A CPU profile of one server during a regressed cell's re-run (compare.profiles). */
export const CellProfileSchema = z.strictObject({
  variant: z.string(),
  workload: z.string(),
  threads: z.number().int(),
  component: z.string(),
  address: z.string(),
  /** cpu (absent: cpu); alloc: a Go server's allocations over the same seconds; stmts: a counting build's statements per function. */
  measures: z.enum(["cpu", "alloc", "stmts"]).optional(),
  /** Relative to the run directory (profiles/…pprof); absent when it could not be taken. */
  file: z.string().optional(),
  /** Its flame graph (SVG beside the profile), relative to the run directory. */
  flame: z.string().optional(),
  error: z.string().optional(),
  /** The busiest functions (`go tool pprof -top`), where Go's pprof was at hand. */
  top: z.array(z.strictObject({ flat_pct: z.number(), cum_pct: z.number(), name: z.string() })).optional(),
  /** What the re-run measured (its main throughput metric), beside the judged value. */
  measured: z.record(z.string(), z.number()).optional(),
  /** Operations the load tool counted over the profile's seconds (its rate × those seconds). */
  ops: z.number().optional(),
});

export type CellProfile = z.output<typeof CellProfileSchema>;

const GrowerSchema = z.strictObject({
  name: z.string(),
  base: z.number(),
  head: z.number(),
  delta: z.number(),
  share_delta: z.number(),
});

/**
 * A regressed cell's base and head profiles of one server compared function by function
 * (observe/profile-diff.ts): the functions whose cumulative cost per operation grew and shrank most.
 */
export const ProfileDiffSchema = z.strictObject({
  variant: z.string(),
  against: z.string(),
  workload: z.string(),
  threads: z.number().int(),
  component: z.string(),
  measures: z.enum(["cpu", "alloc", "stmts"]),
  /** ms/op, KiB/op, stmts/op, or % (shares of each profile where the operations are unknown). */
  unit: z.string(),
  total: z.strictObject({ base: z.number(), head: z.number() }),
  growers: z.array(GrowerSchema),
  shrinkers: z.array(GrowerSchema),
  /** The differential flame graph (head's stacks; red grew, blue shrank), relative to the run directory. */
  flame: z.string().optional(),
});

export type ProfileDiffEntry = z.output<typeof ProfileDiffSchema>;

export const VerdictSchema = z.strictObject({
  format: z.literal(VERDICT_FORMAT),
  version: z.literal(VERDICT_VERSION),
  verdict: z.enum(["pass", "regression", "inconclusive"]),
  created_at: z.string(),
  spec: z.strictObject({ name: z.string(), path: z.string(), hash: z.string() }),
  base: SideSchema,
  head: SideSchema,
  /** More than two variants: every variant judged against the control (base), head among them. */
  variants: z.array(SideSchema).optional(),
  host: HostSchema,
  /** Familywise confidence; every interval is at the Bonferroni-corrected per-cell level. */
  confidence: z.number(),
  alpha_per_cell: z.number(),
  /** How many cell × metric judgements share the family's error rate (looks included). */
  comparisons: z.number().int(),
  order: z.enum(["interleaved", "duet", "stored"]),
  rounds: z.number().int(),
  max_rounds: z.number().int(),
  /** compare.blocks: fresh server instances per variant, the unit of the intervals (absent: 1). */
  blocks: z.number().int().optional(),
  seed: z.number().int().optional(),
  benchmark_seconds: z.number(),
  /** Benchmark time not spent because every cell was decided before max_rounds. */
  saved_seconds: z.number(),
  /**
   * compare.looks > 1: looks taken (1: the design's blocks alone) of the most allowed, the design's
   * own looks among them, and why a judgement left undecided got no further look.
   */
  looks: z
    .strictObject({
      taken: z.number().int().positive(),
      max: z.number().int().positive(),
      design: z.number().int().positive(),
      stopped: z.string().optional(),
      /**
       * A comparison merged from shards: the further look due next (its number and its undecided
       * cells), run as a wave of shards (compare --look-of); absent when none is.
       */
      next: z
        .strictObject({
          look: z.number().int().min(2),
          cells: z.array(z.strictObject({ workload: z.string(), threads: z.number().int().positive() })),
        })
        .optional(),
    })
    .optional(),
  cells: z.array(CellJudgementSchema),
  /**
   * A comparison spread over runners (`compare --shard`, `tiperf merge`): how many shards it had,
   * which arrived (each with its blocks and runner) and which did not. A missing shard never lets
   * the check pass.
   */
  shards: z
    .strictObject({
      of: z.number().int().positive(),
      merged: z.array(
        z.strictObject({
          index: z.number().int().positive(),
          /** A further look's wave (compare --look-of) this part ran; absent: the design's blocks. */
          look: z.number().int().min(2).optional(),
          blocks: z.array(z.number().int().positive()),
          status: z.string(),
          runner: z.string(),
          result: z.string(),
        }),
      ),
      missing: z.array(z.number().int().positive()),
      /** Shards of a further look's wave that left no part ("K of look L"). */
      missing_in_looks: z.array(z.string()).optional(),
    })
    .optional(),
  /**
   * An expected cost, accepted: a maintainer (`by`, through the workflow's perf-regression-expected
   * label) accepted this commit's regressed judgements (each as the comment says it). The check
   * passes; the verdict stays a regression, and a later commit is judged afresh.
   */
  accepted: z.strictObject({ by: z.string(), cells: z.array(z.string()) }).optional(),
  /** Base and head resolved to one target (nothing the spec measures changed): why; nothing was measured. */
  same_target: z.string().optional(),
  /**
   * The spec is new at the head (the pull request adopting it): why, the noise this A/A of its
   * design measured (compare.noise to commit), and what the check detects at that noise.
   */
  adoption: z
    .strictObject({
      why: z.string(),
      /** The spec file as the pull request adds it (where the noise is to be committed). */
      spec: z.string(),
      noise: z.record(z.string(), z.unknown()),
      detects: z.array(z.string()),
    })
    .optional(),
  /** compare.inconclusive: what an inconclusive cell does to the check (absent: warn). */
  inconclusive: z.enum(["fail", "warn", "pass"]).optional(),
  notes: z.array(z.string()),
  /**
   * One instance pair (compare.blocks 1, each variant on servers of its own): a steady gap between
   * two instances of one configuration cannot be told from a change; the standard deviations such
   * gaps had in tiperf's own A/A banks (bench/); `restartable` false: the servers are borrowed
   * (endpoints), so blocks of restarts are no remedy.
   */
  single_pair: z
    .strictObject({
      instance_gap_sd: z.strictObject({ low: z.number(), high: z.number() }),
      restartable: z.boolean().optional(),
    })
    .optional(),
  /** Resource use and bottleneck hints per variant × workload × threads, where they were sampled. */
  evidence: z.array(EvidenceSchema).optional(),
  /** Per variant difference and cell: shown to take effect, shown not to, or not recorded. */
  effects: z.array(EffectSchema).optional(),
  /**
   * Parts of a source change (base and head built from one tree) the target cannot judge where it
   * ran, the paths that put each there, and what can judge them.
   */
  unseen: z
    .array(z.strictObject({ why: z.string(), paths: z.array(z.string()), needs: z.string() }))
    .optional(),
  /**
   * compare.confirm: the re-runs of the regressed cells on fresh instances, and whether they
   * agreed (a regression not confirmed leaves the verdict inconclusive).
   */
  confirmation: z
    .strictObject({
      confirmed: z.boolean(),
      /** The first run's verdict, before the confirmation judged it. */
      first: z.enum(["pass", "regression", "inconclusive"]),
      runs: z.array(
        z.strictObject({
          run_id: z.string(),
          result: z.string(),
          verdict: z.enum(["pass", "regression", "inconclusive"]),
          cells: z.array(CellJudgementSchema),
        }),
      ),
      /** The chance of a false alarm of the whole procedure (first run and confirmations), if independent. */
      false_alarm: z.number(),
      /** A confirmation run as shards: those that did not arrive (the check cannot pass without them). */
      missing_shards: z.array(z.number().int().positive()).optional(),
    })
    .optional(),
  /**
   * Throughput read with the cost per operation, per judged cell (compare/reading.ts): whether a
   * change in throughput is the code doing more per operation, the same work done slower, or a
   * costlier change hidden by spare capacity.
   */
  readings: z.array(ReadingSchema).optional(),
  /**
   * What the servers did differently (compare/what-moved.ts): every counter they keep, per operation
   * or per second, the ones that moved beyond their noise.
   */
  counters: CounterReportSchema.optional(),
  /** CPU profiles per side of the regressed cells (compare.profiles), for the comment's links. */
  profiles: z.array(CellProfileSchema).optional(),
  /** The regressed cells' profiles, base against head, function by function. */
  profile_diffs: z.array(ProfileDiffSchema).optional(),
  cost: CostSchema.optional(),
  /** Where the verdict came from (the Action fills it in): the commits compared and the workflow run. */
  provenance: z
    .strictObject({
      base_sha: z.string().optional(),
      head_sha: z.string().optional(),
      /** The pull request the comparison ran for (a later publishing job checks it against GitHub). */
      pr: z.number().int().positive().optional(),
      run_url: z.string().optional(),
      artifacts_url: z.string().optional(),
    })
    .optional(),
});

export type Verdict = z.output<typeof VerdictSchema>;

/** An object's fields in their order, the field `from` named `to`. */
const renamedIn = (o: unknown, from: string, to: string): unknown =>
  isObj(o) ? Object.fromEntries(Object.entries(o).map(([k, v]) => [k === from ? to : k, v])) : o;
/** Each entry of a list with its field `from` named `to`. */
const renamed = (list: unknown, from: string, to: string) =>
  Array.isArray(list) ? list.map((e) => renamedIn(e, from, to)) : list;

/** What version 2 renamed in version 1's fields (each a list of entries; evidence: their hints). */
const V1_FIELDS: Record<string, (v: unknown) => unknown> = {
  version: () => VERDICT_VERSION,
  evidence: (list) =>
    Array.isArray(list)
      ? list.map((e) => (isObj(e) ? { ...e, hint: renamedIn(e.hint, "kind", "bound") } : e))
      : list,
  profiles: (list) => renamed(list, "kind", "measures"),
  profile_diffs: (list) => renamed(list, "kind", "measures"),
  readings: (list) => renamed(list, "kind", "finding"),
};

/**
 * A version 1 verdict in today's words: a hint's `kind` is its `bound`, a profile's and a profile
 * diff's `kind` what it `measures`, a reading's `kind` its `finding`. Values and order are kept.
 */
export function migrateVerdict(raw: Obj): Obj {
  if (raw.format !== VERDICT_FORMAT || raw.version !== 1) return raw;
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, V1_FIELDS[k]?.(v) ?? v]));
}

/** The verdicts an older tiperf wrote, each version to the next. */
const VERDICT_MIGRATIONS: Migrations = { 1: migrateVerdict };

/** A verdict's JSON (any version tiperf wrote), migrated and validated. */
export function parseVerdict(raw: unknown) {
  return VerdictSchema.safeParse(migrated(raw, VERDICT_VERSION, VERDICT_MIGRATIONS));
}

/** A verdict file (any version tiperf wrote), migrated and validated; a foreign or corrupt file names itself. */
export function readVerdict(file: string): Promise<Verdict> {
  return readModel(file, "verdict", VERDICT_FORMAT, VERDICT_VERSION, VerdictSchema, VERDICT_MIGRATIONS);
}
