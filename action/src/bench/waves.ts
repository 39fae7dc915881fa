// compare.looks over runners: a comparison spread as shards takes its further looks as waves. The
// merge of the design's parts judges them and, where a judgement is undecided and a look could
// decide it, names the next look and its cells in verdict.json (looks.next); `tiperf compare
// --look-of VERDICT --shard K/N` runs that look's blocks of those cells (a wave), and the merge of
// every part (the design's and each wave's) judges the looks in order, as one process would.
import { readFile } from "node:fs/promises";
import { judgeFamily } from "../compare/judge-results.ts";
import { cellKeyOf, lookedJudgement, lookShares } from "../compare/looks.ts";
import { parseVerdict, type Verdict } from "../compare/verdict.ts";
import { InputError } from "../errors.ts";
import type { Result } from "../result/model.ts";
import type { LoadedSpec } from "../specfile/load.ts";
import { planCells } from "./cells.ts";
import { cellText, type Shard, type Wave } from "./cut.ts";
import { lookAgain } from "./looks-run.ts";
import type { Part } from "./parts.ts";
import { lastRoundOf, scheduleOf } from "./schedule.ts";

/**
 * --look-of FILE for a run: the wave the merged verdict names, checked to be of this comparison:
 * its seed, its spec as the design's shards were given it (flags folded in), its runners.
 */
export async function waveFor(
  file: string,
  flag: string,
  run: { spec: LoadedSpec; shard?: Shard | undefined },
): Promise<Wave> {
  const { wave, verdict } = await readVerdictWave(file, flag);
  const problems: string[] = [];
  const seed = run.spec.variants?.compare.seed;
  if (seed !== undefined && verdict.seed !== undefined && seed !== verdict.seed)
    problems.push(`its comparison's seed is ${verdict.seed}, not ${seed}: give --seed ${verdict.seed}`);
  else if (verdict.spec.hash !== run.spec.hash)
    problems.push(
      `its spec is not ${run.spec.path} as given here: give the spec and the flags (--seed, --tolerance, …) the design's shards ran with`,
    );
  const of = verdict.shards?.of;
  if (run.shard && of !== undefined && run.shard.of !== of)
    problems.push(
      `it merged ${of} shard(s), and this is shard ${run.shard.index}/${run.shard.of}: give --shard K/${of}`,
    );
  if (problems.length) throw new InputError(`${flag} ${file}: ${problems.join("; ")}`);
  return wave;
}

/** --look-of FILE: the merged verdict whose looks.next names the look to run and its cells. */
export async function readWave(file: string, flag: string): Promise<Wave> {
  return (await readVerdictWave(file, flag)).wave;
}

async function readVerdictWave(file: string, flag: string): Promise<{ wave: Wave; verdict: Verdict }> {
  let v: Verdict | undefined;
  try {
    v = parseVerdict(JSON.parse(await readFile(file, "utf8"))).data;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(
      `${flag} ${file}: ${code ? `cannot read the file (${code})` : "not JSON"}: give the verdict.json of \`tiperf merge\``,
    );
  }
  if (!v)
    throw new InputError(`${flag} ${file}: not a tiperf verdict: give the verdict.json of \`tiperf merge\``);
  const next = v.looks?.next;
  if (!next)
    throw new InputError(
      `${flag} ${file}: its verdict (${v.verdict}) names no further look (looks.next): every judgement is decided, or no look left could decide it`,
    );
  return { wave: next, verdict: v };
}

/** The verdict while a wave is due: the cells it looks at again named, nothing decided yet. */
export function pendingText(next: Wave, runners: number): string {
  return `look ${next.look} follows as a wave of ${runners} shard(s) (tiperf compare --look-of this verdict.json): ${next.cells.map(cellText).join(", ")} again; the check's verdict is the merge of every part after it`;
}

/** What the merge needs to judge the looks its parts hold. */
export interface WaveParts {
  result: Result;
  parts: Part[];
  loaded: LoadedSpec;
  /** --max-looks: the looks this workflow's waves reach, the design's included (default 1: none). */
  maxLooks?: number | undefined;
  log: (line: string) => void;
}

/**
 * The merged parts judged look by look as one compare process takes its looks (looks-run.ts):
 * each look over the rounds up to its own (the design's blocks, then each wave's), a judgement
 * final at the look that decided it. Where the next look is not among the parts, it is named
 * (next) while a look is left to take: the wave the workflow runs next.
 */
export async function judgeWaves(w: WaveParts) {
  const { parts, result } = w;
  const plan = w.loaded.variants as NonNullable<LoadedSpec["variants"]>;
  const { compare } = plan;
  const names = plan.all.map((v) => v.name);
  const first = parts[0] as Part;
  const whole = scheduleOf(w.loaded, false, first.shard.seed);
  const f = whole?.further;
  if (!whole || !f) return undefined;
  // the looks the waves reach: as told, and never short of a wave whose parts are here
  const waves = Math.max(1, ...parts.map((p) => p.shard.look ?? 1));
  const allowed = Math.min(compare.looks, Math.max(w.maxLooks ?? 1, waves));
  if (waves > (w.maxLooks ?? 1))
    w.log(`merge: look ${waves}'s wave is among the parts: judged up to look ${allowed}`);
  if ((w.maxLooks ?? 1) > compare.looks)
    w.log(
      `merge: --max-looks ${w.maxLooks} is more than the spec's compare.looks (${compare.looks}): up to look ${compare.looks}`,
    );
  const design = whole.looks.length;
  const shares = lookShares(design, compare.looks);
  const keys = planCells(plan.base.spec).map((c) =>
    cellKeyOf({ workload: c.workload.name, threads: c.threads }),
  );
  const taken = new Set(parts.map((p) => p.shard.look ?? 1));
  // each part's time, a look's as its slowest shard's (compare.budget counts wall time)
  const seconds = (p: Part) =>
    (Date.parse(p.result.finished_at ?? p.result.started_at) - Date.parse(p.result.started_at)) / 1000;
  const lookSeconds = (look: number) =>
    Math.max(0, ...parts.filter((p) => (p.shard.look ?? 1) === look).map(seconds));
  const cellRounds = result.cells.filter((c) => c.variant === plan.base.name).length;
  const looked = await lookAgain({
    schedule: { ...whole, further: { ...f, looks: allowed - 1 } },
    names,
    budget: compare.budget,
    log: w.log,
    runners: first.shard.of,
    judge: (look) => {
      // the rounds up to this look's last: the design's (look index < design), then each wave's
      const upTo = lastRoundOf(whole, look < design ? 1 : look - design + 2);
      const seen = { ...result, cells: result.cells.filter((c) => c.round <= upTo) };
      return judgeFamily(
        seen,
        plan.base.spec,
        plan.base.name,
        names.slice(1),
        compare.confidence,
        shares.length,
        shares[look],
      );
    },
    keys,
    secondsPerCellRound: () => parts.reduce((s, p) => s + seconds(p), 0) / Math.max(1, cellRounds),
    spentSeconds: () => [...taken].reduce((s, l) => s + lookSeconds(l), 0),
    measured: (look) => taken.has(look),
    runBlock: async () => {},
  });
  const next: Wave | undefined = looked.next && {
    look: looked.next.look,
    cells: [...looked.next.cells].map((i) => cellOfKey(keys[i] as string)),
  };
  const reached = looked.stopped?.startsWith("compare.looks (") ?? false;
  const capped = allowed < compare.looks && looked.taken >= allowed && (!looked.stopped || reached);
  if (next) looked.stopped = pendingText(next, first.shard.of);
  else if (capped)
    looked.stopped = `a comparison merged from shards takes its further looks as waves of shards, here up to look ${allowed} (tiperf merge --max-looks; the action's max-looks input)`;
  return {
    judged: lookedJudgement(looked),
    looks: {
      taken: looked.taken,
      max: compare.looks,
      design,
      ...(looked.stopped ? { stopped: looked.stopped } : {}),
      ...(next ? { next } : {}),
    },
  };
}

const cellOfKey = (key: string) => {
  const [, workload, threads] = key.split("\u0000");
  return { workload: workload as string, threads: Number(threads) };
};
