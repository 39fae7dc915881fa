// Did what the variants differ in take effect while they were measured? A comparison of two CPU
// quotas measures nothing when neither quota ever throttled its server (inside a duet pair the
// server shares its CPUs with the load generator and may never reach its quota): such a cell is
// not a pass. Each kind of difference is checked from what the run recorded.
import type { z } from "zod";
import type { Cell, TargetInfo } from "../result/model.ts";
import type { CellJudgementSchema, Effect, Verdict } from "./verdict.ts";

type Judgement = z.output<typeof CellJudgementSchema>;

/**
 * A quota binds when it throttled its servers in at least this share of the enforcement periods
 * of the measured runs (cgroup cpu.stat nr_throttled / nr_periods). A server below its quota is
 * throttled in no period at all; one held at it in most of them.
 */
export const MIN_THROTTLED_SHARE = 0.01;

/** What a variant's target says of its CPU quota (a share of one CPU; absent: none). */
export interface VariantResources {
  name: string;
  cpu_quota?: number;
}

/** A validated target's CPU quota (target.resources.cpu_quota, a share of one CPU), whatever its kind. */
export function cpuQuotaOf(target: unknown): number | undefined {
  const q = (target as { resources?: { cpu_quota?: unknown } } | undefined)?.resources?.cpu_quota;
  return typeof q === "number" ? q : undefined;
}

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;

/** Throttling of one variant's measured runs of a cell, summed over its rounds. */
function throttleOf(cells: Cell[]): { periods: number; throttled: number; seconds: number } | undefined {
  const seen = cells.filter((c) => c.cpu_throttle);
  if (seen.length === 0) return undefined;
  return {
    periods: seen.reduce((s, c) => s + (c.cpu_throttle?.periods ?? 0), 0),
    throttled: seen.reduce((s, c) => s + (c.cpu_throttle?.throttled_periods ?? 0), 0),
    seconds: seen.reduce((s, c) => s + (c.cpu_throttle?.throttled_s ?? 0), 0),
  };
}

/**
 * Per variant against the control and per workload × threads: whether a CPU quota difference
 * bound. It took effect when a variant with a quota was throttled in at least MIN_THROTTLED_SHARE
 * of its periods (the tighter one held back, or both at their different caps); it did not when
 * neither side's quota ever bound.
 */
export function quotaEffects(cells: Cell[], variants: VariantResources[], control: string): Effect[] {
  const base = variants.find((v) => v.name === control);
  if (!base) return [];
  const out: Effect[] = [];
  const measured = cells.filter((c) => c.round > 0 && c.status === "ok");
  for (const v of variants) {
    if (v.name === control || v.cpu_quota === base.cpu_quota) continue;
    const keys = new Map<string, { workload: string; threads: number }>();
    for (const c of measured)
      keys.set(`${c.workload}\u0000${c.threads}`, { workload: c.workload, threads: c.threads });
    for (const { workload, threads } of keys.values()) {
      const sides = [base, v].map((side) => ({
        side,
        t: throttleOf(
          measured.filter((c) => c.variant === side.name && c.workload === workload && c.threads === threads),
        ),
      }));
      const quoted = sides.filter((s) => s.side.cpu_quota !== undefined);
      const text = (s: (typeof sides)[number]) =>
        s.side.cpu_quota === undefined
          ? `${s.side.name} no quota`
          : s.t
            ? `${s.side.name} ${pct(s.side.cpu_quota)} of a CPU: throttled in ${s.t.throttled} of ${s.t.periods} periods (${pct(s.t.periods ? s.t.throttled / s.t.periods : 0)}, ${s.t.seconds.toFixed(1)} s held back)`
            : `${s.side.name} ${pct(s.side.cpu_quota)} of a CPU: not recorded`;
      // not recorded on a side with a quota: neither shown nor refuted (took_effect absent)
      const recorded = quoted.every((s) => s.t);
      const bound = quoted.some(
        (s) => s.t && s.t.periods > 0 && s.t.throttled / s.t.periods >= MIN_THROTTLED_SHARE,
      );
      out.push({
        variant: v.name,
        against: control,
        difference: "target.resources.cpu_quota",
        workload,
        threads,
        ...(recorded ? { took_effect: bound } : {}),
        detail: sides.map(text).join("; "),
      });
    }
  }
  return out;
}

/** The cells of a comparison by workload and threads (the measured rounds). */
function cellKeys(cells: Cell[]): { workload: string; threads: number }[] {
  const keys = new Map<string, { workload: string; threads: number }>();
  for (const c of cells)
    if (c.round > 0 && c.status === "ok")
      keys.set(`${c.workload}\u0000${c.threads}`, { workload: c.workload, threads: c.threads });
  return [...keys.values()];
}

/**
 * Per variant against the control: each setting the two were given differently (a server option,
 * a TiDB config item, split regions), as each server reported it back. It took effect when the
 * values read back differ; it did not when both servers report the same value (a setting the
 * server clamps, ignores or overrides); absent when either side was not read back.
 */
export function settingEffects(cells: Cell[], infos: TargetInfo[], control: string): Effect[] {
  const base = infos.find((t) => t.variant === control);
  if (!base) return [];
  const out: Effect[] = [];
  const keys = cellKeys(cells);
  for (const v of infos) {
    if (v.variant === control) continue;
    const names = new Set([...Object.keys(base.config), ...Object.keys(v.config)]);
    for (const name of names) {
      const asked = [base.config[name], v.config[name]];
      if (String(asked[0]) === String(asked[1])) continue;
      const read = [base.effective_config[name], v.effective_config[name]];
      const recorded = read.every((x) => x !== undefined);
      const shown = (t: TargetInfo, i: number) =>
        `${t.variant} ${asked[i] === undefined ? "(not set)" : String(asked[i])} → ${read[i] === undefined ? "not read back" : `reads ${read[i]}`}`;
      for (const k of keys)
        out.push({
          variant: v.variant,
          against: control,
          difference: name,
          ...k,
          ...(recorded ? { took_effect: read[0] !== read[1] } : {}),
          detail: `${shown(base, 0)}; ${shown(v, 1)}`,
        });
    }
  }
  return out;
}

/**
 * Differences of the spec that the run does not show at run time (the kind's `shown` keys are
 * read back, recorded or measured): said, never silently passed over. Each is a key path of the
 * variants' validated targets.
 */
export function unshownEffects(
  cells: Cell[],
  targets: { name: string; target: unknown }[],
  control: string,
  shown: readonly string[],
): Effect[] {
  const base = targets.find((t) => t.name === control);
  if (!base) return [];
  const out: Effect[] = [];
  const keys = cellKeys(cells);
  for (const v of targets) {
    if (v.name === control) continue;
    for (const path of differingPaths(base.target, v.target)) {
      if (shown.some((s) => path === s || path.startsWith(`${s}.`) || matchesWildcard(s, path))) continue;
      for (const k of keys)
        out.push({
          variant: v.name,
          against: control,
          difference: `target.${path}`,
          ...k,
          detail: `tiperf does not read target.${path} back from the running servers, so nothing shows that it differed while they were measured`,
        });
    }
  }
  return out;
}

/** `roles.*.config` matches roles.tidb.config and below. */
function matchesWildcard(pattern: string, path: string): boolean {
  if (!pattern.includes("*")) return false;
  const p = pattern.split(".");
  const x = path.split(".");
  return x.length >= p.length && p.every((seg, i) => seg === "*" || seg === x[i]);
}

/** Leaf key paths whose values differ between two plain values (arrays compared whole). */
export function differingPaths(a: unknown, b: unknown, prefix = ""): string[] {
  const isObj = (x: unknown): x is Record<string, unknown> =>
    typeof x === "object" && x !== null && !Array.isArray(x);
  // a section one side leaves out is compared key by key with an empty one (resources.cpus, not resources)
  if ((isObj(a) || a === undefined) && (isObj(b) || b === undefined) && (isObj(a) || isObj(b))) {
    const x = (a ?? {}) as Record<string, unknown>;
    const y = (b ?? {}) as Record<string, unknown>;
    const out: string[] = [];
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)]))
      out.push(...differingPaths(x[k], y[k], prefix ? `${prefix}.${k}` : k));
    return out;
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [prefix];
}

/**
 * The judgements a difference that did not take effect leaves undecided: such a cell measured the
 * same thing twice, so it is not a pass (or an improvement) — inconclusive, saying why. A
 * regression stays what it is: something else changed.
 */
export function withEffects(cells: Judgement[], effects: Effect[]): Judgement[] {
  const none = effects.filter((e) => e.took_effect === false);
  return cells.map((c) => {
    const e = none.find(
      (x) =>
        x.workload === c.workload &&
        x.threads === c.threads &&
        (c.variant === undefined || c.variant === x.variant),
    );
    if (!e || c.verdict === "regression" || c.verdict === "inconclusive") return c;
    return {
      ...c,
      verdict: "inconclusive",
      reason: `${e.difference} did not take effect: ${e.detail}; the variants ran alike, so this measures nothing of the difference`,
    };
  });
}

/** The report's first lines for differences that did not take effect (and those it could not check). */
export function effectLines(effects: readonly Effect[] | undefined): string[] {
  if (!effects?.length) return [];
  const none = effects.filter((e) => e.took_effect === false);
  const unknown = effects.filter((e) => e.took_effect === undefined);
  const cells = (xs: readonly Effect[]) => xs.map((e) => `${e.workload} threads=${e.threads}`).join(", ");
  const out: string[] = [];
  for (const diff of new Set(none.map((e) => e.difference))) {
    const mine = none.filter((e) => e.difference === diff);
    out.push(
      `🚫 ${diff} did not take effect in ${cells(mine)}: ${mine[0]?.detail}. These cells are not a pass: the variants ran alike.${mine.some((e) => e.difference.endsWith("cpu_quota")) ? " (Inside a duet each server shares its pair's CPUs with the load generator, so a quota of one CPU's time may never be reached: compare.order: interleaved.)" : ""}`,
    );
  }
  if (unknown.length)
    out.push(
      `⚠️ ${[...new Set(unknown.map((e) => e.difference))].join(", ")}: not shown to take effect in ${cells(unknown)} (${unknown[0]?.detail})`,
    );
  return out;
}

/** The first lines on what of a source change this run could not judge (verdict.unseen). */
export function unseenLines(unseen: Verdict["unseen"]): string[] {
  if (!unseen?.length) return [];
  const paths = (ps: string[]) =>
    ps.length > 5 ? `${ps.slice(0, 5).join(", ")} and ${ps.length - 5} more` : ps.join(", ");
  return unseen.map(
    (u) =>
      `🔭 Not judged here: ${u.why} (${paths(u.paths)}). A pass says nothing of it; ${u.needs} is needed to judge it.`,
  );
}
