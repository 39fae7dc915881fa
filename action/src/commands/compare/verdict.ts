// The verdict builder: what a comparison's judgements, the effect checks and the way its rounds
// ran say, as the verdict file (compare/verdict.ts) has it. compareSpec measures; this decides
// and explains.

import type { CompareSchedule } from "../../bench/schedule.ts";
import { INSTANCE_GAP_SD, singlePairNote } from "../../compare/design.ts";
import {
  cpuQuotaOf,
  quotaEffects,
  settingEffects,
  unshownEffects,
  withEffects,
} from "../../compare/effects.ts";
import { overallVerdict } from "../../compare/judge.ts";
import type { judgeFamily } from "../../compare/judge-results.ts";
import { lookSpendingText } from "../../compare/looks.ts";
import { readings } from "../../compare/reading.ts";
import {
  type CellProfile,
  type ProfileDiffEntry,
  VERDICT_VERSION,
  type Verdict,
} from "../../compare/verdict.ts";
import { whatMoved } from "../../compare/what-moved.ts";
import { evidenceField, evidenceOf } from "../../observe/hints.ts";
import { ciText, pct } from "../../report/rows.ts";
import type { Result, TargetInfo } from "../../result/model.ts";
import type { LoadedSpec } from "../../specfile/load.ts";
import { kindOf } from "../../targets/registry.ts";

type Settings = NonNullable<LoadedSpec["variants"]>["compare"];

export interface VerdictInputs {
  loaded: LoadedSpec;
  result: Result;
  resultPath: string;
  /** Each variant's target as the result records it. */
  infoOf(variant: string): TargetInfo;
  compare: Settings;
  judged: ReturnType<typeof judgeFamily>;
  schedule: CompareSchedule;
  /** The last measured round (an early stop ends before max_rounds). */
  roundsDone: number;
  benchmarkSeconds: number;
  profiles: CellProfile[];
  /** The regressed cells' profiles compared function by function (commands/compare/profiles.ts profileDiffs). */
  profileDiffs?: ProfileDiffEntry[];
  /** What the round runner says of how the rounds ran (duet: the pinning, uneven rounds). */
  runnerNotes: string[];
  /** Grouped turns: how the variants took turns (the plan's words). */
  groupedBy?: string;
  /** The variants ran on instances of their own (not one deployment switched between them). */
  ownInstances: boolean;
  /** tiperf may restart every variant's servers (false: an existing endpoint's). */
  restartable: boolean;
  /** compare.looks > 1: the looks taken (the verdict's `looks`). */
  looks?: NonNullable<Verdict["looks"]>;
}

export function buildVerdict(i: VerdictInputs): Verdict {
  const { loaded, result, compare, judged, schedule, roundsDone } = i;
  const plan = loaded.variants as NonNullable<LoadedSpec["variants"]>;
  const names = plan.all.map((v) => v.name);
  const control = plan.base.name;
  const others = names.slice(1);
  const maxRounds = compare.max_rounds ?? compare.rounds;
  // one instance pair: said among the notes, and in single_pair for the reports' first lines
  const singlePair = singlePairNote(compare.blocks, i.ownInstances, i.restartable);
  const effects = effectsOf(i);

  const cells = withEffects(judged.cells, effects);
  const read = readings(result, control, cells, judged.alpha);
  const keys = loaded.spec.workloads.flatMap((w) =>
    w.threads.map((threads) => ({ workload: w.name, threads })),
  );
  const counters = whatMoved(result, control, others, keys, compare.confidence, judged.cells);
  const side = (variant: string) => ({
    variant,
    run_id: result.run_id,
    result: i.resultPath,
    target: i.infoOf(variant),
  });
  return {
    format: "tiperf.verdict",
    version: VERDICT_VERSION,
    verdict: overallVerdict(cells),
    created_at: new Date().toISOString(),
    spec: { name: loaded.spec.name, path: loaded.path, hash: loaded.hash },
    base: side(control),
    head: side(plan.head.name),
    ...(names.length > 2 ? { variants: others.map(side) } : {}),
    host: result.host,
    confidence: compare.confidence,
    alpha_per_cell: judged.alpha,
    comparisons: judged.comparisons,
    order: schedule.order,
    rounds: roundsDone,
    max_rounds: maxRounds,
    ...(compare.blocks > 1 ? { blocks: Math.ceil(roundsDone / (compare.rounds / compare.blocks)) } : {}),
    seed: schedule.seed,
    benchmark_seconds: Math.round(i.benchmarkSeconds),
    saved_seconds: Math.max(
      0,
      Math.round((maxRounds - roundsDone) * (i.benchmarkSeconds / Math.max(1, roundsDone))),
    ),
    ...(i.looks ? { looks: i.looks } : {}),
    cells,
    inconclusive: compare.inconclusive,
    ...(effects.length ? { effects } : {}),
    ...(singlePair
      ? {
          single_pair: {
            instance_gap_sd: { low: INSTANCE_GAP_SD.low, high: INSTANCE_GAP_SD.high },
            ...(i.restartable ? {} : { restartable: false }),
          },
        }
      : {}),
    ...(loaded.unseen?.length ? { unseen: loaded.unseen } : {}),
    ...evidenceField(evidenceOf(result.cells, names)),
    ...(read.length ? { readings: read } : {}),
    ...(counters ? { counters } : {}),
    ...(i.profiles.length ? { profiles: i.profiles } : {}),
    ...(i.profileDiffs?.length ? { profile_diffs: i.profileDiffs } : {}),
    notes: verdictNotes(i, singlePair),
  };
}

/** What the variants differ in, shown to take effect over the measured runs (or not). */
function effectsOf(i: VerdictInputs) {
  const { loaded, result } = i;
  const plan = loaded.variants as NonNullable<LoadedSpec["variants"]>;
  const control = plan.base.name;
  return [
    ...quotaEffects(
      result.cells,
      plan.all.map((v) => {
        const q = cpuQuotaOf(v.spec.target);
        return { name: v.name, ...(q !== undefined ? { cpu_quota: q } : {}) };
      }),
      control,
    ),
    ...settingEffects(result.cells, plan.all.map((v) => v.name).map(i.infoOf), control),
    ...unshownEffects(
      result.cells,
      plan.all.map((v) => ({ name: v.name, target: v.spec.target })),
      control,
      kindOf(loaded.spec.target.kind).shown,
    ),
  ];
}

/** The verdict's notes: how the comparison ran, what it was built from, how it was judged. */
function verdictNotes(i: VerdictInputs, singlePair: string | undefined): string[] {
  const { loaded, compare, judged, schedule } = i;
  const plan = loaded.variants as NonNullable<LoadedSpec["variants"]>;
  const control = plan.base.name;
  const others = plan.all.slice(1);
  return [
    ...(i.profiles.length
      ? [
          `${new Set(i.profiles.map((p) => `${p.workload}\u0000${p.threads}`)).size} regressed cell(s) ran once more per side with CPU profiles of the servers (compare.profiles; not judged): under profiles/`,
        ]
      : []),
    ...(i.groupedBy !== undefined
      ? [
          `variants took turns in groups: a switch restarts servers (${i.groupedBy}), so in each block every variant ran its cells together on a freshly switched instance, variants in a balanced order over blocks`,
        ]
      : []),
    ...i.runnerNotes,
    ...(singlePair ? [singlePair] : []),
    compare.blocks > 1
      ? `instances as the unit: ${compare.rounds / compare.blocks} rounds per block, every variant's server restarted (fresh process, same data, random order) before each block after the first, warmup rounds again; per cell the mean of log(variant/${control}) in each block, a t interval over the block means (df = blocks − 1); between_share: the part of the round-to-round variance that lay between instances (one-way random effects)`
      : `paired by round: one server instance per variant, rounds as the unit`,
    ...(loaded.builds ?? []).map(
      (b) =>
        `${b.variant === "all" ? "every variant" : b.variant}: its server built from ${b.path} at ${b.commit.slice(0, 10)} (${b.subject})${b.kept ? ", kept from an earlier build" : `, built in ${b.seconds} s`}`,
    ),
    `paired by round: mean of log(variant/${control}) with a t interval; Bonferroni over ${judged.comparisons} judgements (${others.length > 1 ? `${others.length} variants against ${control} × ` : ""}cells × metrics × ${i.looks ? `${i.looks.design + i.looks.max - 1} look(s)` : `${schedule.looks.length} look(s) at rounds ${schedule.looks.join(", ")}`}) for ${Math.round(compare.confidence * 100)}% familywise confidence`,
    ...(i.looks ? [lookSpendingText(i.looks.design, i.looks.max, i.looks.taken)] : []),
  ];
}

/** A judgement as the acceptance names it: cell, metric, change and interval. */
const acceptedText = (c: Verdict["cells"][number]) =>
  `${c.variant && c.variant !== "head" ? `${c.variant} ` : ""}${c.workload} threads=${c.threads} ${c.metric} ${pct(c.change)} ${ciText(c)}`;

/**
 * A regression accepted as an expected cost by `by` (--accepted-by, the workflow's
 * perf-regression-expected label on this commit): its regressed judgements named, the check passes.
 * Anything but a regression is left as it is (nothing to accept).
 */
export function acceptedVerdict(v: Verdict, by: string | undefined): Verdict {
  if (!by || v.verdict !== "regression") return v;
  const cells = v.cells.filter((c) => c.verdict === "regression").map(acceptedText);
  return {
    ...v,
    accepted: { by, cells },
    notes: [
      ...v.notes,
      `accepted by ${by} as an expected cost of this commit: ${cells.join("; ")}; the check passes`,
    ],
  };
}
