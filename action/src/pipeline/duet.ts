// Fair duet (compare.order: duet): both variants run at the same moment on one machine, each pair
// (a variant's server processes and its load generator) pinned to a CPU set of its own, and the sets
// passed round between the pairs every compare.swap seconds, so over a whole number of cycles every
// pair held every set equally long: neither variant keeps the better cores, and both see the
// machine's speed of the same seconds. The round's sample is the ratio of the two throughputs over
// those cycles; fresh pairs (compare.blocks) make instance gaps part of the interval.
import { cpus } from "node:os";
import { duetBlocks } from "../compare/design.ts";
import { cpuQuotaOf } from "../compare/effects.ts";
import { allowedCpus, clockTicks, threadTimes } from "../observe/procfs.ts";
import { cpuIndexes } from "../proc/affinity.ts";
import { parents, runCommand, treeOf } from "../proc/process.ts";
import type { Cell, StalledAttempt } from "../result/model.ts";
import type { LoadedSpec } from "../specfile/load.ts";
import type { TargetPlan } from "../targets/types.ts";
import { variantAt } from "../yaml/keys.ts";
import {
  type CellRunner,
  type RoundRunner,
  STALLED_RUN_RERUNS,
  stalledLine,
  stalledNotes,
  type Turn,
} from "./rounds.ts";

/** The CPUs this process may run on (its affinity), in order. */
export function usableCpus(): number[] {
  return allowedCpus("self") ?? cpus().map((_, i) => i);
}

/** `pairs` equal CPU sets out of `available` (the rest unused), as taskset lists. */
export function cpuSets(available: number[], pairs: number): string[] {
  const per = Math.floor(available.length / pairs);
  return Array.from({ length: pairs }, (_, i) => available.slice(i * per, (i + 1) * per).join(","));
}

/** Why a duet cannot be fair: the refusal (key, reason, what to do) and its reason alone (the plan's note on compare.order: auto). */
interface DuetObstacle {
  refusal: string;
  reason: string;
}

/**
 * Why a duet of this spec cannot be fair here, if it cannot (plan time and again before a
 * comparison starts): too few CPUs for a set per pair, variants sharing one deployment, a load run
 * from another machine, or CPUs the spec pins itself (duet pins each pair). Where the machine or the
 * target rules a duet out, only those reasons are given: the spec's own (pinned CPUs, durations off
 * the swap cycle) would not make it possible.
 */
function duetObstacles(
  loaded: LoadedSpec,
  target: Pick<TargetPlan, "switching" | "remoteLoad" | "localServers">,
  cores: number,
): DuetObstacle[] {
  const plan = loaded.variants;
  const compare = plan?.compare;
  if (!plan || compare?.order !== "duet") return [];
  const out: DuetObstacle[] = [];
  const pairs = plan.all.length;
  const interleave = (lead: string, reason: string) =>
    out.push({ refusal: `compare.order: duet${lead}${reason}: use compare.order: interleaved`, reason });
  if (cores < pairs)
    interleave(
      " ",
      `runs ${pairs} pairs (server and load generator) at once, each on CPUs of its own, and this machine gives tiperf ${cores} CPU(s)`,
    );
  if (target.switching !== "none")
    interleave(
      ": ",
      `the variants share one deployment and take turns on it (${target.switching} switching), so they cannot run at once`,
    );
  if (!target.localServers)
    interleave(
      " ",
      "pins each pair's server processes, and this target's servers are not private processes of this machine (a cluster)",
    );
  if (target.remoteLoad)
    interleave(" ", "pins each pair's processes on this machine, and the load runs on a load host");
  // where no duet can run at all, what the spec could change would not help: those reasons are enough
  if (out.length > 0) return out;
  for (const v of plan.all) {
    const where = variantAt(plan.all.length, v.name);
    const pinned = (key: string) =>
      out.push({
        refusal: `${where}${key}: compare.order: duet pins each pair itself (and swaps the sets): leave cpus out`,
        reason: `${key}: pins each pair itself (and swaps the sets)`,
      });
    if ((v.spec.target as { resources?: { cpus?: string } }).resources?.cpus !== undefined)
      pinned("target.resources.cpus");
    if (v.spec.driver?.cpus !== undefined) pinned("driver.cpus");
    const cycle = pairs * compare.swap;
    const cycles = `a whole number of swap cycles (${pairs} pairs × compare.swap ${compare.swap}s = ${cycle}s)`;
    for (const w of v.spec.workloads)
      if (w.duration % cycle !== 0)
        out.push({
          refusal: `${where}workloads ${w.name}: duration ${w.duration}s is not ${cycles}: make it a multiple of ${cycle}s, so every pair holds every CPU set equally long`,
          reason: `a duration is not ${cycles}`,
        });
  }
  return out;
}

/** duetObstacles' refusals, each once. */
export function duetRefusals(
  loaded: LoadedSpec,
  target: Pick<TargetPlan, "switching" | "remoteLoad" | "localServers">,
  cores = usableCpus().length,
): string[] {
  return [...new Set(duetObstacles(loaded, target, cores).map((o) => o.refusal))];
}

/** Pins a process and all its threads to a CPU list; a process gone meanwhile is no error. */
async function pin(pid: number, list: string): Promise<void> {
  await runCommand("taskset", ["-a", "-p", "-c", list, String(pid)], { timeoutMs: 5000 });
}

export interface DuetPair {
  /** The server processes tiperf started for this variant (their trees are pinned). */
  serverPids: () => number[];
  /** Load generator processes of the current cell (added as they start). */
  loads: Set<number>;
}

/**
 * CPU time at a phase boundary: every thread outside the pairs (its CPU time and the CPU it last
 * ran on), by thread id.
 */
export interface PhaseSnapshot {
  others: Map<number, { ticks: number; cpu: number }>;
  at: number;
}

/**
 * Passes the CPU sets round the pairs: in phase p, pair i holds set (i + p) mod n. `begin(first)`
 * starts a round at phase `first` (rounds alternate it, so no pair always starts on the same set),
 * `restart()` starts it again with the measured run, then a phase every `swapS` seconds.
 */
export class CpuSwapper {
  private phase = 0;
  private first = 0;
  /** Rotates which pair is pinned first, round by round (apply). */
  private mover = 0;
  /** Snapshots at the measured run's phase boundaries (the first at its start). */
  private snaps: PhaseSnapshot[] = [];
  /** How many phases of the measured run to account (its duration over swapS). */
  private accounted = 0;
  private timer: NodeJS.Timeout | undefined;
  private final: NodeJS.Timeout | undefined;
  private busy: Promise<void> = Promise.resolve();
  /** Seconds each pair spent on each set in the last measured run (phases started). */
  phases = 0;

  constructor(
    private readonly sets: string[],
    private readonly pairs: DuetPair[],
    private readonly swapS: number,
  ) {}

  /** The set pair `i` holds now. */
  setOf(i: number): string {
    return this.sets[(i + this.phase) % this.sets.length] as string;
  }

  private pidsOf(i: number, parentOf: Map<number, number>): number[] {
    const p = this.pairs[i] as DuetPair;
    return [...treeOf(p.serverPids(), parentOf), ...p.loads];
  }

  private snapshot(parentOf: Map<number, number>): void {
    if (this.snaps.length > this.accounted) return;
    const mine = new Set(this.pairs.flatMap((_, i) => this.pidsOf(i, parentOf)));
    this.snaps.push({ others: threadTimes(mine), at: Date.now() });
  }

  /** Per pair, outside CPU use over the measured run (outsideShares), if every boundary was sampled. */
  outside(): number[] | undefined {
    if (this.accounted === 0 || this.snaps.length !== this.accounted + 1) return undefined;
    const n = this.sets.length;
    const sets = this.sets.map((_, j) => this.sets[(j + this.first) % n] as string);
    return outsideShares(this.snaps, sets, clockTicks());
  }

  private apply(parentOf = parents()): Promise<void> {
    // The pins start one after another: which pair moves first rotates with the phase and with
    // every other round (`mover`). By phase alone, with a phase count that is the same in every
    // round (a 2 s cell, 1 s swaps: one swap in the run), the same pair always moved first. This
    // balance did not centre the light A/A bank (bench/duet/duet-centre.md: head −0.9% before and after).
    const jobs: Promise<void>[] = [];
    const n = this.pairs.length;
    for (let j = 0; j < n; j++) {
      const i = (j + this.phases + this.mover) % n;
      const p = this.pairs[i] as DuetPair;
      const list = this.setOf(i);
      for (const pid of treeOf(p.serverPids(), parentOf)) jobs.push(pin(pid, list));
      for (const pid of p.loads) jobs.push(pin(pid, list));
    }
    return Promise.all(jobs).then(() => undefined);
  }

  /**
   * Pins every pair to its set of phase `round` now (before a cell's load starts). Over every
   * n × n rounds each pair starts on each set and is pinned first equally often (n pairs: the
   * starting set follows the round, the mover the round's n-th part).
   */
  async begin(round = 0): Promise<void> {
    this.stop();
    const n = this.sets.length;
    this.first = round % n;
    this.mover = Math.floor(round / n) % n;
    this.phase = this.first;
    this.phases = 0;
    this.snaps = [];
    this.accounted = 0;
    await this.apply();
  }

  /**
   * The measured run (of `seconds`) started: phase 0 from now, the next every swapS seconds; the
   * CPU time of each phase boundary within the run is sampled for outside().
   */
  restart(seconds: number): void {
    this.stop();
    this.phase = this.first;
    this.phases = 1;
    this.snaps = [];
    this.accounted = Math.max(0, Math.round(seconds / this.swapS));
    const parentOf = parents();
    this.snapshot(parentOf);
    this.busy = this.apply(parentOf);
    this.timer = setInterval(() => {
      this.phase = (this.phase + 1) % this.sets.length;
      this.phases++;
      // the boundary is sampled when it is due, before the re-pinning waits its turn; both read
      // the same process tree
      const tree = parents();
      if (this.phases <= this.accounted) this.snapshot(tree);
      this.busy = this.busy.then(() => this.apply(tree));
    }, this.swapS * 1000);
    // the last phase is sampled a little before the run's end, while its load generators still run
    if (this.accounted > 0) {
      const end = seconds * 1000 - Math.min(200, (this.swapS * 1000) / 4);
      this.final = setTimeout(() => this.snapshot(parents()), end);
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.final) clearTimeout(this.final);
    this.timer = undefined;
    this.final = undefined;
  }

  async settled(): Promise<void> {
    await this.busy;
  }
}

/**
 * Per pair, the CPU time others (threads of processes of neither pair: a neighbour, tiperf itself,
 * the kernel's workers) took on the CPU sets it held over the measured run, as a percentage of
 * those CPUs' time: in phase k (between snapshots k and k + 1, pair i on set (i + k) mod n) each
 * such thread's CPU time counts for the pair holding the CPU it last ran on. Threads' own times are
 * the kernel's precise runtimes; /proc/stat's per-CPU busy time is sampled at the timer tick and
 * under a CPU quota strayed from them by 10–20% of a CPU, too much to take the difference.
 */
export function outsideShares(snaps: PhaseSnapshot[], sets: string[], hz: number): number[] {
  const n = sets.length;
  const others = new Array<number>(n).fill(0);
  const capacity = new Array<number>(n).fill(0);
  for (let k = 0; k + 1 < snaps.length; k++) {
    const [a, b] = [snaps[k] as PhaseSnapshot, snaps[k + 1] as PhaseSnapshot];
    const holder = new Map<number, number>();
    for (let i = 0; i < n; i++) {
      const set = cpuIndexes(sets[(i + k) % n] as string);
      for (const c of set) holder.set(c, i);
      capacity[i] = (capacity[i] as number) + ((b.at - a.at) / 1000) * hz * set.length;
    }
    // a thread first seen at b started within the phase: all its time is the phase's
    for (const [tid, t] of b.others) {
      const i = holder.get(t.cpu);
      if (i !== undefined)
        others[i] = (others[i] as number) + Math.max(0, t.ticks - (a.others.get(tid)?.ticks ?? 0));
    }
  }
  return others.map((o, i) => ((capacity[i] as number) > 0 ? (100 * o) / (capacity[i] as number) : 0));
}

/**
 * A round whose pairs met outside CPU use this unevenly (percentage points of their CPUs' time) ran
 * unfairly. Measured here: a busy loop that follows one pair through the swaps (the scheduler keeps
 * moving it to whichever CPU idles) took 25–30% of that pair's CPUs against 0–2% of the other's and
 * cut its throughput by as much; on a quiet machine the 120 rounds of bench/aa-banks/duet-bank.json stayed
 * within 5 points (at most 4.9).
 */
export const OUTSIDE_GAP_PCT = 5;
/** How often a round whose outside CPU use was uneven runs again before it is kept as it is. */
export const UNEVEN_RERUNS = 4;

/**
 * A second of a measured run below this share of the run's median second is a stall. On private
 * tidb-servers a background job of one server (auto-analyze re-analyzing every table: seconds of
 * its CPU) took one side's seconds to 12–50% of its median while the other ran on, and turned
 * rounds of a −21% change into +26% or −54%.
 */
export const STALL_SHARE = 0.5;
/** How often a round in which one pair stalled alone runs again before it is kept as it is. */
export const STALL_RERUNS = 2;

/**
 * A measured run that stalled while processes of neither pair took at least this share of its
 * pair's CPUs (percent of their time) was starved by them, not stalled by its server: sysbench
 * printed no sample for a second because a busy loop beside it held most of its CPU (CI beside a
 * CPU hog: 76–84% of one pair's CPUs, 11–19% of the other's, three stalls in one round). Such a
 * round runs again on its own budget (STARVED_RERUNS) and never counts toward a stall's.
 */
export const STARVED_PCT = 50;
/** How often a round whose measured run was starved runs again before its stall counts as the server's. */
export const STARVED_RERUNS = 4;

/** Re-runs a duet round has spent, by reason. */
export interface RoundReruns {
  /** A measured run stalled outright (no number), its server's doing. */
  stalled: number;
  /** A measured run stalled while others held most of its pair's CPUs. */
  starved: number;
  /** Outside CPU use met the pairs unevenly. */
  uneven: number;
  /** One pair stalled alone (a second far below its median). */
  solo: number;
}

/** What a duet round does after an attempt: keep it (as measured, or failed), or run again, and why. */
export type RoundNext =
  | { next: "keep" }
  | { next: "starved"; failed: Cell[] }
  | { next: "stalled"; failed: Cell[] }
  | { next: "uneven" }
  | { next: "solo"; stall: NonNullable<ReturnType<typeof soloStall>> };

/**
 * The duet's rule after one attempt of a round (`names`: the pairs in the order `outside` gives
 * their shares): a measured run that failed other than by a stall ends the round (failed); a stall
 * under others' CPU use runs again as starved, else as the server's stall; an even, clean attempt,
 * or one whose budget is spent, is kept.
 */
export function nextAttempt(
  cells: readonly Cell[],
  outside: readonly number[] | undefined,
  names: readonly string[],
  spent: RoundReruns,
): RoundNext {
  const failed = cells.filter((c) => c.status !== "ok");
  if (failed.length > 0) {
    if (!failed.every((c) => c.failure === "stalled")) return { next: "keep" };
    const share = (c: Cell) => (outside ? (outside[names.indexOf(c.variant)] ?? 0) : 0);
    if (failed.every((c) => share(c) >= STARVED_PCT) && spent.starved < STARVED_RERUNS)
      return { next: "starved", failed };
    return spent.stalled < STALLED_RUN_RERUNS ? { next: "stalled", failed } : { next: "keep" };
  }
  const gap = outside ? Math.max(...outside) - Math.min(...outside) : 0;
  if (gap > OUTSIDE_GAP_PCT && spent.uneven < UNEVEN_RERUNS) return { next: "uneven" };
  const stall = soloStall(cells);
  return stall && spent.solo < STALL_RERUNS ? { next: "solo", stall } : { next: "keep" };
}

/** The per-second throughput of a cell's measured run (its first higher-is-better metric the intervals carry). */
function perSecond(c: Cell): number[] {
  const measured = c.intervals.filter((i) => !i.warmup);
  const metric = Object.keys(measured[0]?.values ?? {}).find((m) => c.metrics[m]?.better === "higher");
  return metric ? measured.map((i) => i.values[metric] as number) : [];
}

/**
 * The pair that stalled alone in a duet round, if one did: a second of its measured run below
 * STALL_SHARE of its median while every other pair's same second was not. A stall of every pair
 * at once (the machine paused) is shared and fair; one pair's alone is a background job of one
 * server, not the change, and the round runs again (bounded by STALL_RERUNS).
 */
export function soloStall(
  cells: readonly Cell[],
): { variant: string; second: number; share: number } | undefined {
  const series = cells.map((c) => {
    const xs = perSecond(c);
    const sorted = [...xs].sort((a, b) => a - b);
    const median = sorted.length ? (sorted[Math.floor((sorted.length - 1) / 2)] as number) : 0;
    return { c, xs, median };
  });
  if (series.some((s) => s.xs.length < 3 || s.median <= 0)) return undefined;
  const low = (s: (typeof series)[number], t: number) => (s.xs[t] ?? s.median) < STALL_SHARE * s.median;
  for (const s of series)
    for (let t = 0; t < s.xs.length; t++)
      if (low(s, t) && series.every((o) => o === s || !low(o, t)))
        return { variant: s.c.variant, second: t + 1, share: (s.xs[t] as number) / s.median };
  return undefined;
}

/** The stalled rounds' story for a verdict's notes. */
export function stallNotes(cells: Cell[]): string[] {
  const rounds = new Map<string, number>();
  for (const c of cells)
    if (c.stall_reruns)
      rounds.set(`${c.workload}\u0000${c.threads}\u0000${c.round}\u0000${c.block ?? 0}`, c.stall_reruns);
  if (!rounds.size) return [];
  const all = [...rounds.values()];
  return [
    `duet: in ${all.length} round(s) one pair stalled alone (a second below ${STALL_SHARE * 100}% of its median while the other ran on: a background job of one server, not the change) and the round ran again (${all.reduce((s, n) => s + n, 0)} re-run(s) in all; a round still stalled after ${STALL_RERUNS} was kept as measured)`,
  ];
}

/** The uneven rounds' story for a verdict's notes, from the duet cells of a result. */
export function outsideNotes(cells: Cell[]): string[] {
  // a round's cells (both pairs), by workload, threads, round and block
  const byRound = new Map<string, Cell[]>();
  for (const c of cells) {
    if (c.outside_cpu_pct === undefined) continue;
    const key = `${c.workload}\u0000${c.threads}\u0000${c.round}\u0000${c.block ?? 0}`;
    byRound.set(key, [...(byRound.get(key) ?? []), c]);
  }
  const rounds = [...byRound.values()].map((round) => {
    const shares = round.map((c) => c.outside_cpu_pct as number);
    return {
      gap: Math.max(...shares) - Math.min(...shares),
      reruns: Math.max(...round.map((c) => c.reruns ?? 0)),
    };
  });
  const rerun = rounds.filter((r) => r.reruns > 0);
  const kept = rounds.filter((r) => r.gap > OUTSIDE_GAP_PCT);
  if (!rerun.length && !kept.length) return [];
  return [
    `duet: processes of neither pair used the pairs' CPUs unevenly (by more than ${OUTSIDE_GAP_PCT} points of their time) in ${rerun.length} round(s), run again (${rerun.reduce((s, r) => s + r.reruns, 0)} re-run(s) in all)${kept.length ? `; ${kept.length} round(s) still uneven after ${UNEVEN_RERUNS} re-runs were kept as measured (the largest gap ${Math.max(...kept.map((r) => r.gap)).toFixed(0)} points): something else ran on this machine, and the interval may be off by as much` : ""}`,
  ];
}

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
