// A duet's CPUs: the sets each pair is pinned to, what keeps a machine from a fair duet, and the
// swapper that passes the sets round between the pairs every compare.swap seconds, watching what
// else ran on them.
import { cpus } from "node:os";
import { allowedCpus, clockTicks, threadTimes } from "../observe/procfs.ts";
import { cpuIndexes } from "../proc/affinity.ts";
import { parents, runCommand, treeOf } from "../proc/process.ts";
import type { LoadedSpec } from "../specfile/load.ts";
import type { TargetPlan } from "../targets/types.ts";
import { variantAt } from "../yaml/keys.ts";

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
export interface DuetObstacle {
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
export function duetObstacles(
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
        reason: `${key}: a duet pins each pair itself (and swaps the sets)`,
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
export async function pin(pid: number, list: string): Promise<void> {
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
