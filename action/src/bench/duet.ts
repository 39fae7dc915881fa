// Fair duet (compare.order: duet): both variants run at the same moment on one machine, each pair
// (a variant's server processes and its load generator) pinned to a CPU set of its own, and the sets
// passed round between the pairs every compare.swap seconds, so over a whole number of cycles every
// pair held every set equally long: neither variant keeps the better cores, and both see the
// machine's speed of the same seconds. The round's sample is the ratio of the two throughputs over
// those cycles; fresh pairs (compare.blocks) make instance gaps part of the interval.
import { duetBlocks } from "../compare/design.ts";
import { cpuQuotaOf } from "../compare/effects.ts";
import type { Cell, StalledAttempt } from "../result/model.ts";
import type { LoadedSpec } from "../specfile/load.ts";
import type { TargetPlan } from "../targets/types.ts";
import { CpuSwapper, type DuetPair, duetObstacles, usableCpus } from "./duet-cpus.ts";
import {
  nextAttempt,
  outsideNotes,
  type RoundNext,
  type RoundReruns,
  STALL_RERUNS,
  STARVED_RERUNS,
  stallNotes,
  UNEVEN_RERUNS,
} from "./duet-reruns.ts";
import { type CellRunner, type RoundRunner, stalledLine, stalledNotes, type Turn } from "./rounds.ts";

/**
 * compare.order: auto (the default) is duet where a fair duet can run (every refusal above absent,
 * for the spec as if it said duet), else interleaved. The spec with its order resolved.
 */
/**
 * Why a duet, though it could run, would not measure what the variants differ in: a CPU quota (of
 * one CPU) is a different thing inside a pair's CPU set, where the load generator takes its share
 * of the same CPUs: a server that never reaches its quota there is never throttled, and a quota
 * cut measures nothing. compare.order: auto does not pick duet for such a spec; an explicit duet
 * runs, the plan says what the quota means there, and the effect check judges it.
 */
export function duetCaveats(loaded: LoadedSpec, cores = usableCpus().length): string[] {
  const plan = loaded.variants;
  if (!plan) return [];
  const quotas = plan.all.map((v) => cpuQuotaOf(v.spec.target));
  if (new Set(quotas).size <= 1) return [];
  const per = Math.max(1, Math.floor(cores / plan.all.length));
  const shown = plan.all.map((v, i) => {
    const q = quotas[i];
    return `${v.name} ${q === undefined ? "none" : `${Math.round(q * 100)}%`}`;
  });
  return [
    `the variants differ in target.resources.cpu_quota (${shown.join(", ")}), and inside a duet each server shares its pair's ${per} CPU(s) with its load generator, so a quota may never bind there`,
  ];
}

export function resolveOrder(
  loaded: LoadedSpec,
  target: Pick<TargetPlan, "switching" | "remoteLoad" | "localServers">,
  cores = usableCpus().length,
): LoadedSpec {
  const plan = loaded.variants;
  if (plan?.compare.order !== "auto") return loaded;
  const order =
    whyNotDuet(loaded, target, cores).length === 0 && duetCaveats(loaded, cores).length === 0
      ? "duet"
      : "interleaved";
  return { ...loaded, variants: { ...plan, compare: { ...plan.compare, order } } };
}

/**
 * A duet whose spec leaves compare.blocks out runs in fresh pairs: the blocks duetBlocks picks,
 * and each block's data loaded again (compare.reload_data) unless the spec says otherwise — the
 * design under which this machine's A/A duet banks were centred. Undefined where there is nothing
 * to choose (not a duet, blocks written, or rounds that split into no 3 blocks or more).
 */
export function duetDesign(loaded: LoadedSpec): LoadedSpec | undefined {
  const plan = loaded.variants;
  if (plan?.compare.order !== "duet" || !plan.given || plan.given.includes("blocks")) return undefined;
  const blocks = duetBlocks(plan.compare.rounds, plan.compare.max_rounds);
  if (blocks === undefined) return undefined;
  const reload_data = plan.given.includes("reload_data") ? plan.compare.reload_data : true;
  return {
    ...loaded,
    variants: {
      ...plan,
      compare: { ...plan.compare, blocks, reload_data },
      given: [...plan.given, "blocks"],
    },
  };
}

/**
 * Why a spec does not run as a duet here (duetRefusals of it as if it said duet, each without its
 * advice), and why a duet would not measure its difference (duetCaveats).
 */
export function whyNotDuet(
  loaded: LoadedSpec,
  target: Pick<TargetPlan, "switching" | "remoteLoad" | "localServers">,
  cores = usableCpus().length,
): string[] {
  const plan = loaded.variants;
  if (!plan) return [];
  const asDuet = { ...loaded, variants: { ...plan, compare: { ...plan.compare, order: "duet" as const } } };
  // one line per reason: the variant and workload a refusal names are left out, so repeats merge
  const reasons = duetObstacles(asDuet, target, cores).map((o) => o.reason);
  return [...new Set([...reasons, ...duetCaveats(loaded, cores)])];
}

/**
 * The duet round runner: every pair pinned to its set of the round's first phase, phases from the
 * measured runs' start; a round whose pairs met outside CPU use unevenly runs again (bounded).
 */
export class DuetRunner implements RoundRunner {
  readonly order = "duet";
  private readonly pairs: DuetPair[];
  private readonly swapper: CpuSwapper;
  /** Solo stalls that made a round run again, per variant that stalled. */
  private readonly stalls = new Map<string, number>();

  constructor(
    private readonly names: string[],
    benches: CellRunner[],
    readonly sets: string[],
    private readonly swapS: number,
    private readonly log: (line: string) => void,
  ) {
    this.pairs = benches.map((b) => ({ serverPids: () => b.target.pids, loads: new Set<number>() }));
    this.swapper = new CpuSwapper(sets, this.pairs, swapS);
  }

  private async once(t: Turn): Promise<{ cells: Cell[]; outside: number[] | undefined }> {
    for (const p of this.pairs) p.loads.clear();
    // the pairs' starting sets alternate round by round (a block's rounds hold both)
    await this.swapper.begin(t.round);
    let measuring = false;
    const cells = await Promise.all(
      t.turn.map((n) => {
        const i = this.names.indexOf(n);
        const pair = this.pairs[i] as DuetPair;
        return t.benchOf(n).runCell(t.cellOf(n), t.signal, {
          cpus: this.swapper.setOf(i),
          onLoad: (pid) => pair.loads.add(pid),
          onMeasure: (seconds) => {
            if (measuring) return;
            measuring = true;
            this.swapper.restart(seconds);
          },
        });
      }),
    );
    this.swapper.stop();
    await this.swapper.settled();
    return { cells, outside: this.swapper.outside() };
  }

  /** The raw output of a round's measured runs that is about to run again, kept (`<cell>-rerun-<n>.log`). */
  private async keepRaw(t: Turn, cells: Cell[]): Promise<void> {
    const kept = [];
    for (const c of cells) kept.push((await t.benchOf(c.variant).setAside(c, "rerun")).raw_log);
    const names = kept.filter(Boolean);
    if (names.length) this.log(`duet: the round's raw output kept as ${names.join(", ")}`);
  }

  async run(t: Turn): Promise<void> {
    let { cells, outside } = await this.once(t);
    const spent: RoundReruns = { stalled: 0, starved: 0, uneven: 0, solo: 0 };
    /** Measured runs set aside because they stalled outright, by variant. */
    const stalled = new Map<string, StalledAttempt[]>();
    for (;;) {
      const step = t.signal.aborted
        ? ({ next: "keep" } as const)
        : nextAttempt(cells, outside, this.names, spent);
      if (step.next === "keep") break;
      spent[step.next]++;
      if (step.next === "stalled" || step.next === "starved") {
        for (const c of step.failed) {
          const kept = await t.benchOf(c.variant).setAside(c);
          stalled.set(c.variant, [...(stalled.get(c.variant) ?? []), kept]);
          this.log(
            step.next === "stalled"
              ? stalledLine(kept, "round", spent.stalled)
              : `${kept.error}, while processes of neither pair took ${this.outsideOf(outside, c.variant)}% of its CPUs: starved, not its server's stall; running the round again (${spent.starved} of ${STARVED_RERUNS})`,
          );
        }
        await this.keepRaw(
          t,
          cells.filter((c) => c.status === "ok"),
        );
      } else {
        this.log(this.againLine(step, outside, spent, t.turn));
        await this.keepRaw(t, cells);
      }
      ({ cells, outside } = await this.once(t));
    }
    const o = outside;
    const reruns = spent.uneven;
    await t.record(
      cells.map((c) => ({
        ...c,
        ...(o ? { outside_cpu_pct: Math.round((o[this.names.indexOf(c.variant)] as number) * 10) / 10 } : {}),
        ...(reruns ? { reruns } : {}),
        ...(spent.solo ? { stall_reruns: spent.solo } : {}),
        ...(stalled.has(c.variant) ? { stalled_attempts: stalled.get(c.variant) } : {}),
      })),
    );
  }

  /** Processes of neither pair: their share of a variant's CPUs in the attempt, as the log says it. */
  private outsideOf(outside: number[] | undefined, variant: string): string {
    return ((outside?.[this.names.indexOf(variant)] as number | undefined) ?? 0).toFixed(0);
  }

  /** The log's line for a round run again because outside use was uneven or one pair stalled alone. */
  private againLine(
    step: Extract<RoundNext, { next: "uneven" | "solo" }>,
    outside: number[] | undefined,
    spent: RoundReruns,
    turn: string[],
  ): string {
    if (step.next === "uneven")
      return `duet: processes of neither pair took ${turn.map((n) => `${this.outsideOf(outside, n)}% of ${n}'s CPUs`).join(" and ")}: running the round again (${spent.uneven} of ${UNEVEN_RERUNS})`;
    this.stalls.set(step.stall.variant, (this.stalls.get(step.stall.variant) ?? 0) + 1);
    return `duet: ${step.stall.variant} stalled alone (second ${step.stall.second} at ${Math.round(step.stall.share * 100)}% of its median while the other pair ran on): running the round again (${spent.solo} of ${STALL_RERUNS})`;
  }

  notes(cells: Cell[]): string[] {
    const stalled = [...this.stalls].sort((a, b) => b[1] - a[1]);
    const total = stalled.reduce((n, [, k]) => n + k, 0);
    const [top] = stalled;
    return [
      ...stalledNotes(cells),
      ...stallNotes(cells),
      // a background job strikes either server; the change's own stalls strike one variant only
      ...(top && total >= 3 && top[1] === total
        ? [
            `⚠️ every one of the ${total} solo stalls was ${top[0]}'s: that may be the change itself (a new background job or lock), which re-running rounds would hide; its raw logs show the seconds`,
          ]
        : []),
      `duet: both variants at once, each pair (server processes and load generator) pinned to CPU set ${this.sets.join(" or ")} and the sets passed round every ${this.swapS}s from the start of each measured run, so over its whole number of cycles every pair held every set equally long; a round's sample is the ratio of the two throughputs of the same seconds`,
      ...outsideNotes(cells),
    ];
  }
}
