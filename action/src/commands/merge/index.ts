// `tiperf merge`: the parts of one comparison run as shards on several runners (compare --shard),
// checked to belong together and judged exactly as one run of the same blocks would be. A shard
// that did not arrive is named, and never lets the check pass.

import { mkdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { missingShards, type Part, partsOfOne } from "../../bench/parts.ts";
import { lookRounds } from "../../bench/schedule.ts";
import { judgeWaves, pendingText } from "../../bench/waves.ts";
import { withPooledBackground } from "../../compare/background.ts";
import { judgeFamily } from "../../compare/judge-results.ts";
import { lookShares } from "../../compare/looks.ts";
import { mean, stddev } from "../../compare/stats.ts";
import { parseVerdict, type Verdict } from "../../compare/verdict.ts";
import { EXIT, InputError } from "../../errors.ts";
import { writeAtomic } from "../../proc/files.ts";
import { type VerdictFiles, writeVerdictFiles } from "../../report/verdict-files.ts";
import type { Cost, Result } from "../../result/model.ts";
import type { LoadedSpec } from "../../specfile/load.ts";
import { adoptionVerdict } from "../compare/adoption.ts";
import { confirmStep } from "../compare/confirm.ts";
import { sameTargetVerdict } from "../compare/same-target.ts";
import { acceptedVerdict, buildVerdict } from "../compare/verdict.ts";
import { exitCodeOf } from "../exit.ts";

/**
 * The cluster cost of a comparison run as shards, one cluster each: every shard's cost (its
 * verdict.json beside its result.json) summed, each shard's share kept; none when no shard had one.
 */
export async function shardCosts(parts: Part[]): Promise<Cost | undefined> {
  const each: { index: number; cost: Cost }[] = [];
  for (const p of parts) {
    const text = await readFile(join(dirname(p.file), "verdict.json"), "utf8").catch(() => undefined);
    // a part without a readable verdict.json (a shard that failed early) adds no cost
    let cost: Cost | undefined;
    try {
      cost = text ? parseVerdict(JSON.parse(text)).data?.cost : undefined;
    } catch {
      cost = undefined;
    }
    if (cost) each.push({ index: p.shard.index, cost });
  }
  const [first] = each;
  if (!first) return undefined;
  return {
    currency: "USD",
    basis: each.every((e) => e.cost.basis === "measured") ? "measured" : "estimate",
    profile: first.cost.profile,
    per_hour: each.reduce((s, e) => s + e.cost.per_hour, 0),
    hours: Math.max(...each.map((e) => e.cost.hours)),
    dollars: each.reduce((s, e) => s + e.cost.dollars, 0),
    prices_as_of: first.cost.prices_as_of,
    shards: each
      .map((e) => ({ index: e.index, hours: e.cost.hours, dollars: e.cost.dollars }))
      .sort((a, b) => a.index - b.index),
  };
}

/** The runner a part ran on, as the comparison's notes name it. */
const runnerOf = (r: Result) => `${r.host.hostname} (${r.host.cpu_model}, ${r.host.cores} cores)`;

/** The parts as one result: every cell, each variant's target as the first part recorded it. */
function mergedResult(parts: Part[]): Result {
  const first = parts[0] as Part;
  const { shard: _s, ...base } = first.result;
  const complete = parts.every((p) => p.result.status === "complete");
  return {
    ...base,
    run_id: `merge-${first.result.run_id}`,
    status: complete ? "complete" : "failed",
    ...(complete ? {} : { error: "a shard did not complete" }),
    targets: parts.flatMap((p) => p.result.targets),
    cells: parts.flatMap((p) => p.result.cells).sort((a, b) => a.round - b.round),
  };
}

/**
 * Runners as a factor, like instances: per judged cell, the mean change of each runner's blocks
 * beside the spread of the blocks within a runner; a runner whose blocks sit apart from the
 * others' by more than 3 times that spread (and 1%) is said to stand out.
 */
export function runnerSpread(parts: Part[], control: string, variant: string, metric: string): string[] {
  const runners = new Map<string, number[]>();
  const keys = new Set<string>();
  for (const p of parts) {
    const by = new Map<string, { base: number[]; head: number[] }>();
    for (const c of p.result.cells) {
      const v = c.metrics[metric]?.value;
      if (c.round === 0 || c.status !== "ok" || v === undefined || v <= 0) continue;
      if (c.variant !== control && c.variant !== variant) continue;
      const key = `${c.workload}\u0000${c.threads}\u0000${c.block ?? 1}`;
      keys.add(key);
      const e = by.get(key) ?? { base: [], head: [] };
      (c.variant === control ? e.base : e.head).push(Math.log(v));
      by.set(key, e);
    }
    const logs = [...by.values()]
      .filter((e) => e.base.length && e.head.length)
      .map((e) => mean(e.head) - mean(e.base));
    const host = p.result.host.hostname;
    runners.set(host, [...(runners.get(host) ?? []), ...logs]);
  }
  if (runners.size < 2) return [];
  const within = Math.sqrt(
    mean([...runners.values()].filter((xs) => xs.length > 1).map((xs) => stddev(xs) ** 2)),
  );
  const pct = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs((Math.exp(x) - 1) * 100).toFixed(1)}%`;
  const shown = [...runners.entries()].map(
    ([host, xs]) => `${host} ${pct(mean(xs))} (${xs.length} block(s))`,
  );
  const out = [
    `runners as a factor (${metric}, ${variant} against ${control}, mean over each runner's blocks of every cell): ${shown.join(", ")}; the blocks within a runner spread ${Number.isFinite(within) ? `±${(within * 100).toFixed(1)}%` : "unknown (one block each)"}`,
  ];
  for (const [host, xs] of runners) {
    const others = [...runners.entries()].filter(([h]) => h !== host).flatMap(([, v]) => v);
    const gap = mean(xs) - mean(others);
    if (Number.isFinite(within) && Math.abs(gap) > Math.max(3 * within, 0.01))
      out.push(
        `runner ${host} stands out: its blocks differ from the other runners' by ${pct(gap)}, beyond 3 times the spread within a runner; its machine may differ (CPU, neighbours): compare its host facts in the parts`,
      );
  }
  return out;
}

/** The merged verdict with its shards said: which arrived, on which runner, and which did not. */
function withShards(
  built: Verdict,
  parts: Part[],
  of: number,
  missing: number[],
  waveMissing: string[] = [],
): Verdict {
  const merged = parts
    .map((p) => ({
      index: p.shard.index,
      ...(p.shard.look ? { look: p.shard.look } : {}),
      blocks: p.shard.blocks,
      status: p.result.status,
      runner: runnerOf(p.result),
      result: p.file,
    }))
    .sort((a, b) => (a.look ?? 1) - (b.look ?? 1) || a.index - b.index);
  const short = missing.length + waveMissing.length > 0;
  const arrived = merged
    .map(
      (m) =>
        `shard ${m.index}${m.look ? ` of look ${m.look}` : ""}: block(s) ${m.blocks.join(", ")} on ${m.runner}${m.status === "complete" ? "" : `, ${m.status}`}`,
    )
    .join("; ");
  return {
    ...built,
    // data that did not arrive can hide a regression: a check never passes without it
    verdict: short && built.verdict === "pass" ? "inconclusive" : built.verdict,
    shards: { of, merged, missing, ...(waveMissing.length ? { missing_in_looks: waveMissing } : {}) },
    notes: [
      `${of - missing.length} of ${of} shards merged (${arrived})${short ? `; missing: ${[...missing, ...waveMissing].map((k) => `shard ${k}`).join(", ")} — its blocks are not judged, and the check cannot pass without them` : ""}`,
      ...runnerSpread(parts, built.base.variant, built.head.variant, built.cells[0]?.metric ?? "tps"),
      ...built.notes,
    ],
  };
}

export interface MergeOutcome extends VerdictFiles {
  verdict: Verdict;
  /** compare.confirm of a regression not yet confirmed: its confirmation runs as shards next (0: none). */
  confirm: number;
  /** compare.looks: the further look to run next as a wave of shards (compare --look-of), if one is due. */
  look?: number;
  resultPath: string;
  exitCode: number;
}

/**
 * Judges the parts as the single comparison they are shares of: the spec each recorded, its
 * compare settings and family, the merged rounds and blocks. Missing or unfinished shards are
 * named; a verdict that would pass without them is inconclusive.
 */
export async function mergeParts(
  files: string[],
  opts: {
    outDir: string;
    log: (line: string) => void;
    /** merge --confirms: these parts are the confirmation (as shards) of this verdict's regression. */
    confirms?: Verdict;
    /** --accepted-by: a regression of this commit accepted as an expected cost by this login. */
    acceptedBy?: string;
    /** --max-looks: the looks the workflow's waves reach, the design's included (default 1: none). */
    maxLooks?: number;
  },
): Promise<MergeOutcome> {
  const { parts, first, loaded, plan } = await partsOfOne(files);
  const { compare } = plan;
  const of = first.shard.of;
  const missing = missingShards(parts, of);
  // a further look's wave short of a shard: its blocks are not all there (never a pass)
  const waves = [...new Set(parts.flatMap((p) => (p.shard.look ? [p.shard.look] : [])))];
  const waveMissing = waves.flatMap((l) => missingShards(parts, of, l).map((k) => `${k} of look ${l}`));
  if (first.result.nothing_measured !== undefined) return mergeNothing(parts, loaded, missing, opts);
  // every part's cells with the background of the whole comparison, taken off once and stored
  const result = withPooledBackground(mergedResult(parts));
  const { judged, looks } = await mergedJudgement(result, parts, loaded, opts);
  const next = looks?.next && !missing.length && !waveMissing.length ? looks.next : undefined;
  const measured = result.cells.filter((c) => c.round > 0);
  await mkdir(opts.outDir, { recursive: true });
  const resultPath = join(opts.outDir, "result.json");
  await writeAtomic(resultPath, `${JSON.stringify(result, null, 2)}\n`);
  const built = builtVerdict(loaded, result, resultPath, first, judged, looks);
  const cost = await shardCosts(parts);
  const shown = withShards(built, parts, of, missing, waveMissing);
  const merged = {
    ...shown,
    ...(next ? { verdict: "inconclusive" as const } : {}),
    ...(cost ? { cost } : {}),
  };
  // a look to come decides first: the confirmation (a regression's) follows the last look's merge
  const confirmed = next
    ? { verdict: merged, confirm: 0 }
    : confirmStep(merged, opts.confirms, compare.confirm, resultPath);
  const { confirm } = confirmed;
  // the spec new at the head: the parts are an A/A of its design, which passes with its noise
  const adoption = first.result.adoption;
  const verdict = acceptedVerdict(
    adoptionVerdict(confirmed.verdict, result, loaded, adoption),
    confirm > 0 ? undefined : opts.acceptedBy,
  );
  const short = missing.length + waveMissing.length > 0;
  const waveText = waves
    .map((l) => `, look ${l}'s wave: ${of - missingShards(parts, of, l).length} of ${of}`)
    .join("");
  opts.log(`merge: ${of - missing.length} of ${of} shards${waveText}, ${measured.length} measured cells`);
  if (next) opts.log(`merge: ${pendingText(next, of)}`);
  if (missing.length || waveMissing.length)
    opts.log(
      `merge: shard(s) ${[...missing, ...waveMissing].join(", ")} of ${of} left no part: the check fails as a run that did not finish (exit 3)`,
    );
  const files_ = await writeVerdictFiles(verdict, opts.outDir, opts.log, [result]);
  return {
    verdict,
    ...files_,
    resultPath,
    confirm,
    ...(next ? { look: next.look } : {}),
    // a regression is one whatever else is missing; short of a shard, the check fails as a run that
    // did not finish does (exit 3), never passes; a look to come decides nothing yet (exit 0)
    exitCode: next
      ? EXIT.ok
      : exitCodeOf(verdict, compare.inconclusive) || (short ? EXIT.runFailed : EXIT.ok),
  };
}

/** The merged verdict as one run's: the spec's compare settings, the parts' seed and order. */
function builtVerdict(
  loaded: LoadedSpec,
  result: Result,
  resultPath: string,
  first: Part,
  judged: Awaited<ReturnType<typeof mergedJudgement>>["judged"],
  looks: Awaited<ReturnType<typeof mergedJudgement>>["looks"],
): Verdict {
  const plan = loaded.variants as NonNullable<LoadedSpec["variants"]>;
  const { compare } = plan;
  const measured = result.cells.filter((c) => c.round > 0);
  const roundsDone = Math.max(0, ...measured.map((c) => c.round));
  const names = plan.all.map((v) => v.name);
  return buildVerdict({
    loaded,
    result,
    resultPath,
    infoOf: (v) => {
      const t = result.targets.find((x) => x.variant === v);
      if (!t) throw new InputError(`tiperf merge: no part recorded variant ${v}'s target`);
      return t;
    },
    compare,
    judged,
    schedule: {
      seed: first.shard.seed,
      order: first.shard.order,
      looks: lookRounds(compare.rounds, compare.rounds),
      blocks: [],
    },
    roundsDone,
    benchmarkSeconds: measured.reduce((s, c) => s + c.duration_s + c.warmup_s, 0) / names.length,
    profiles: [],
    runnerNotes: [],
    ownInstances: true,
    restartable: true,
    ...(looks ? { looks } : {}),
  });
}

/**
 * The merged rounds judged as the single run's family: variants × cells × metrics × its looks (no
 * early looks in shards); with compare.looks, look by look over the design's parts and each
 * further look's wave (bench/waves.ts), naming the wave due next.
 */
async function mergedJudgement(
  result: Result,
  parts: Part[],
  loaded: LoadedSpec,
  opts: { log: (line: string) => void; maxLooks?: number },
) {
  const plan = loaded.variants as NonNullable<LoadedSpec["variants"]>;
  const { compare } = plan;
  const design = lookRounds(compare.rounds, compare.max_rounds ?? compare.rounds).length;
  const waves =
    compare.looks > 1
      ? await judgeWaves({ result, parts, loaded, maxLooks: opts.maxLooks, log: opts.log })
      : undefined;
  if (waves) return waves;
  const shares = lookShares(design, compare.looks);
  const names = plan.all.map((v) => v.name);
  const judged = judgeFamily(
    result,
    plan.base.spec,
    plan.base.name,
    names.slice(1),
    compare.confidence,
    shares.length,
    shares[0],
  );
  return { judged, looks: undefined };
}

/**
 * Parts that measured nothing (base and head one target): the verdict one runner gives, pass, with
 * the shards named; short of a shard, the check fails as a run that did not finish does (exit 3).
 */
async function mergeNothing(
  parts: Part[],
  loaded: LoadedSpec,
  missing: number[],
  opts: { outDir: string; log: (line: string) => void },
): Promise<MergeOutcome> {
  const first = parts[0] as Part;
  const why = first.result.nothing_measured as string;
  const of = first.shard.of;
  const said = `${of - missing.length} of ${of} shard(s) said so (${parts.map((p) => p.shard.index).join(", ")})`;
  const lost = missing.length ? `; shard(s) ${missing.join(", ")} left no part` : "";
  // short of a shard: inconclusive, the missing ones named (withShards), never a pass
  const verdict = withShards(
    sameTargetVerdict(loaded, why, `merge-${first.result.run_id}`, "", first.result.host, [said]),
    parts,
    of,
    missing,
  );
  opts.log(`merge: ${said}${lost}: nothing to measure: ${why}`);
  await mkdir(opts.outDir, { recursive: true });
  const files = await writeVerdictFiles(verdict, opts.outDir, opts.log);
  return {
    verdict,
    ...files,
    resultPath: "",
    confirm: 0,
    exitCode: missing.length ? EXIT.runFailed : EXIT.ok,
  };
}
