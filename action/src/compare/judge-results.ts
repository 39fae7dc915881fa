import { z } from "zod";
import { InputError } from "../errors.ts";
import { evidenceField, evidenceOf } from "../observe/hints.ts";
import type { Result } from "../result/model.ts";
import { canonicalJson } from "../specfile/load.ts";
import type { MetricRule, Spec } from "../specfile/schema.ts";
import { withPooledBackground } from "./background.ts";
import { type CellJudgement, overallVerdict } from "./judge.ts";
import { type CellKey, judgeCell, pairedSamples, type Samples, storedSamples } from "./samples.ts";
import { VERDICT_VERSION, type Verdict } from "./verdict.ts";

/** The parts of a stored spec body that a judgement needs (the body is a validated spec). */
const Rule = z.object({ better: z.enum(["higher", "lower"]), tolerance: z.number() });
const StoredSpec = z.object({
  name: z.string(),
  data: z.unknown(),
  workloads: z.array(
    z
      .object({ name: z.string(), threads: z.array(z.number()), judge: z.record(z.string(), Rule) })
      .passthrough(),
  ),
});
type StoredSpec = z.output<typeof StoredSpec>;

export function storedSpec(result: Result, file: string): StoredSpec {
  const parsed = StoredSpec.safeParse(result.spec.body);
  if (!parsed.success)
    throw new InputError(`${file}: spec.body is not a tiperf spec (${parsed.error.issues[0]?.message})`);
  return parsed.data;
}

/** Every cell of a matrix with the metrics judged in it. */
export interface JudgedKey extends CellKey {
  rules: Record<string, MetricRule>;
}

const keysOf = (spec: {
  workloads: { name: string; threads: number[]; judge: Record<string, MetricRule> }[];
}): JudgedKey[] =>
  spec.workloads.flatMap((w) => w.threads.map((threads) => ({ workload: w.name, threads, rules: w.judge })));

/** Cell × metric comparisons in a matrix (one look). */
export const comparisonsOf = (keys: JudgedKey[]) => keys.reduce((n, k) => n + Object.keys(k.rules).length, 0);

/** Bonferroni share of the family's error rate for each cell × metric at each look. */
export function alphaPerCell(confidence: number, comparisons: number): number {
  return (1 - confidence) / Math.max(1, comparisons);
}

export function judgeCells(
  keys: JudgedKey[],
  samplesOf: (key: CellKey, metric: string) => Samples,
  alpha: number,
  paired: boolean,
): CellJudgement[] {
  const out: CellJudgement[] = [];
  for (const { rules, ...key } of keys) {
    for (const [metric, rule] of Object.entries(rules)) {
      out.push(judgeCell(key, metric, rule, samplesOf(key, metric), alpha, paired));
    }
  }
  return out;
}

/**
 * A comparison's family: its judged cells, how many judgements share the error rate, each one's α.
 * `share`: the part of the family's error rate this look spends (compare/looks.ts lookShares;
 * default an equal share per look), split equally over its cells × metrics × variants.
 */
export function familyOf(spec: Spec, confidence: number, looks: number, others: number, share = 1 / looks) {
  const keys = keysOf(spec);
  const perLook = comparisonsOf(keys) * others;
  // an equal share per look: exactly the Bonferroni share over every look's judgements
  const alpha =
    share === 1 / looks
      ? alphaPerCell(confidence, perLook * looks)
      : alphaPerCell(confidence, perLook) * share;
  return { keys, comparisons: perLook * looks, alpha };
}

/**
 * Judges every other variant against the control within one compare run (round r against round r),
 * the error rate controlled over the whole family: variants × cells × metrics × looks (`share`:
 * this look's part of it).
 */
export function judgeFamily(
  result: Result,
  spec: Spec,
  control: string,
  others: string[],
  confidence: number,
  looks: number,
  share = 1 / looks,
): { cells: CellJudgement[]; comparisons: number; alpha: number } {
  const { keys, comparisons, alpha } = familyOf(spec, confidence, looks, others.length, share);
  // costs per operation with each variant's background measured over all its servers
  const pooled = withPooledBackground(result);
  const cells = others.flatMap((variant) =>
    judgeCells(keys, (k, m) => pairedSamples(pooled, control, variant, k, m), alpha, true).map((c) => ({
      ...c,
      variant,
    })),
  );
  return { cells, comparisons, alpha };
}

export interface Comparability {
  ok: boolean;
  reasons: string[];
}

/** Stored results compare only when they ran the same matrix on the same kind of machine. */
export function comparability(base: Result, head: Result, baseFile: string, headFile: string): Comparability {
  const reasons: string[] = [];
  const bs = storedSpec(base, baseFile);
  const hs = storedSpec(head, headFile);
  if (base.spec.name !== head.spec.name) {
    reasons.push(`specs differ: ${baseFile} ran "${base.spec.name}", ${headFile} ran "${head.spec.name}"`);
  }
  const matrix = (s: StoredSpec) => canonicalJson({ data: s.data, workloads: s.workloads });
  if (matrix(bs) !== matrix(hs))
    reasons.push("the workload matrices differ (data, workloads, threads, durations or options)");
  const bh = base.host;
  const hh = head.host;
  if (
    bh.cpu_model !== hh.cpu_model ||
    bh.cores !== hh.cores ||
    Math.abs(bh.memory_bytes - hh.memory_bytes) > 0.05 * bh.memory_bytes
  ) {
    reasons.push(
      `hardware differs: ${bh.cpu_model}, ${bh.cores} cores, ${(bh.memory_bytes / 2 ** 30).toFixed(1)} GiB vs ${hh.cpu_model}, ${hh.cores} cores, ${(hh.memory_bytes / 2 ** 30).toFixed(1)} GiB`,
    );
  }
  return { ok: reasons.length === 0, reasons };
}

/** The variants a stored result measured, in the order its cells hold them. */
export const variantsOf = (result: Result): string[] => [...new Set(result.cells.map((c) => c.variant))];

const soleOr = (result: Result, preferred: string) => {
  const variants = variantsOf(result);
  return variants.length === 1
    ? (variants[0] as string)
    : variants.includes(preferred)
      ? preferred
      : (variants[0] ?? preferred);
};

type StoredSide = { result: Result; file: string; variant?: string };

/**
 * The variant judged on each side, and what the verdict calls it: two runs of one single-variant
 * spec (a run and its stored baseline) share the variant's name, so their columns say `baseline`
 * and `head` instead of one name twice.
 */
export function sidesOf(base: StoredSide, head: StoredSide) {
  const bv = base.variant ?? soleOr(base.result, "base");
  const hv = head.variant ?? soleOr(head.result, "head");
  return bv === hv ? { bv, hv, bl: "baseline", hl: "head" } : { bv, hv, bl: bv, hl: hv };
}

/** A result's variant `from` named `to`, in its targets and cells. */
const renamed = (r: Result, from: string, to: string): Result =>
  from === to
    ? r
    : {
        ...r,
        targets: r.targets.map((t) => (t.variant === from ? { ...t, variant: to } : t)),
        cells: r.cells.map((c) => (c.variant === from ? { ...c, variant: to } : c)),
      };

/** The two stored results with their variants named as judgeStored's verdict names them (report.html's per-second lines). */
export function asJudged(base: StoredSide, head: StoredSide): [Result, Result] {
  const { bv, hv, bl, hl } = sidesOf(base, head);
  return [renamed(base.result, bv, bl), renamed(head.result, hv, hl)];
}

/** `tiperf diff`: a stored base result against a stored head result (unpaired, Welch). */
export function judgeStored(
  base: StoredSide,
  head: StoredSide,
  opts: { confidence: number; force: boolean },
): Verdict {
  const check = comparability(base.result, head.result, base.file, head.file);
  if (!check.ok && !opts.force) {
    throw new InputError(
      `refusing to compare ${base.file} with ${head.file}:\n- ${check.reasons.join("\n- ")}\npass --force to compare anyway`,
    );
  }
  const hs = storedSpec(head.result, head.file);
  const { bv, hv, bl, hl } = sidesOf(base, head);
  const keys = keysOf(hs);
  const comparisons = comparisonsOf(keys);
  const alpha = alphaPerCell(opts.confidence, comparisons);
  const cells = judgeCells(
    keys,
    (k, m) => ({ base: storedSamples(base.result, bv, k, m), head: storedSamples(head.result, hv, k, m) }),
    alpha,
    false,
  );
  const seconds = (r: Result) => r.cells.reduce((s, c) => s + c.duration_s + c.warmup_s, 0);
  const targetOf = (r: Result, v: string) => r.targets.find((t) => t.variant === v);
  const side = (r: Result, v: string, label: string, file: string) => {
    const t = targetOf(r, v);
    return { variant: label, run_id: r.run_id, result: file, ...(t ? { target: t } : {}) };
  };
  return {
    format: "tiperf.verdict",
    version: VERDICT_VERSION,
    verdict: overallVerdict(cells),
    created_at: new Date().toISOString(),
    spec: { name: hs.name, path: head.result.spec.path, hash: head.result.spec.hash },
    base: side(base.result, bv, bl, base.file),
    head: side(head.result, hv, hl, head.file),
    host: head.result.host,
    confidence: opts.confidence,
    alpha_per_cell: alpha,
    comparisons,
    order: "stored",
    rounds: Math.max(...cells.map((c) => c.n), 0),
    max_rounds: Math.max(...cells.map((c) => c.n), 0),
    benchmark_seconds: seconds(base.result) + seconds(head.result),
    saved_seconds: 0,
    cells,
    ...evidenceField([
      ...evidenceOf(base.result.cells, [bv]).map((e) => ({ ...e, variant: bl })),
      ...evidenceOf(head.result.cells, [hv]).map((e) => ({ ...e, variant: hl })),
    ]),
    notes: [
      "stored results are not paired: samples are per-round values, or batch means of the 1-second intervals when a result has one round; Welch t intervals on the log scale",
      ...(check.ok ? [] : check.reasons.map((r) => `compared with --force although ${r}`)),
    ],
  };
}
