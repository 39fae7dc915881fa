// Fair duet (compare.order: duet): both variants run at the same moment on one machine, each pair
// (a variant's server processes and its load generator) pinned to a CPU set of its own, and the sets
// passed round between the pairs every compare.swap seconds, so over a whole number of cycles every
// pair held every set equally long: neither variant keeps the better cores, and both see the
// machine's speed of the same seconds. The round's sample is the ratio of the two throughputs over
// those cycles; fresh pairs (compare.blocks) make instance gaps part of the interval.
import { cpus } from "node:os";
import { allowedCpus } from "../observe/procfs.ts";
import { parents, runCommand, treeOf } from "../proc/process.ts";
import type { LoadedSpec } from "../specfile/load.ts";
import type { TargetPlan } from "../targets/types.ts";

/** The CPUs this process may run on (its affinity), in order. */
export function usableCpus(): number[] {
  return allowedCpus("self") ?? cpus().map((_, i) => i);
}

/** `pairs` equal CPU sets out of `available` (the rest unused), as taskset lists. */
export function cpuSets(available: number[], pairs: number): string[] {
  const per = Math.floor(available.length / pairs);
  return Array.from({ length: pairs }, (_, i) => available.slice(i * per, (i + 1) * per).join(","));
}

/**
 * Why a duet of this spec cannot be fair here, if it cannot (plan time and again before a
 * comparison starts): too few CPUs for a set per pair, variants sharing one deployment, a load run
 * from another machine, or CPUs the spec pins itself (duet pins each pair).
 */
export function duetRefusals(
  loaded: LoadedSpec,
  target: Pick<TargetPlan, "switching" | "remoteLoad" | "localServers">,
  cores = usableCpus().length,
): string[] {
  const plan = loaded.variants;
  const compare = plan?.compare;
  if (!plan || compare?.order !== "duet") return [];
  const out: string[] = [];
  const pairs = plan.all.length;
  if (cores < pairs)
    out.push(
      `compare.order: duet runs ${pairs} pairs (server and load generator) at once, each on CPUs of its own, and this machine gives tiperf ${cores} CPU(s): use compare.order: interleaved`,
    );
  if (target.switching !== "none")
    out.push(
      `compare.order: duet: the variants share one deployment and take turns on it (${target.switching} switching), so they cannot run at once: use compare.order: interleaved`,
    );
  if (!target.localServers)
    out.push(
      "compare.order: duet pins each pair's server processes, and this target's servers are not private processes of this machine (a cluster): use compare.order: interleaved",
    );
  if (target.remoteLoad)
    out.push(
      "compare.order: duet pins each pair's processes on this machine, and the load runs on a load host: use compare.order: interleaved",
    );
  for (const v of plan.all) {
    const where = plan.all.length > 1 ? `variants.${v.name}: ` : "";
    const t = v.spec.target as { resources?: { cpus?: string } };
    if (t.resources?.cpus !== undefined)
      out.push(
        `${where}target.resources.cpus: compare.order: duet pins each pair itself (and swaps the sets): leave cpus out`,
      );
    if (v.spec.driver?.cpus !== undefined)
      out.push(
        `${where}driver.cpus: compare.order: duet pins each pair itself (and swaps the sets): leave cpus out`,
      );
    const cycle = pairs * compare.swap;
    for (const w of v.spec.workloads)
      if (w.duration % cycle !== 0)
        out.push(
          `${where}workloads ${w.name}: duration ${w.duration}s is not a whole number of swap cycles (${pairs} pairs × compare.swap ${compare.swap}s = ${cycle}s): make it a multiple of ${cycle}s, so every pair holds every CPU set equally long`,
        );
  }
  return [...new Set(out)];
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
 * Passes the CPU sets round the pairs: in phase p, pair i holds set (i + p) mod n. `restart()`
 * begins phase 0 again (the measured run's start), then a phase every `swapS` seconds.
 */
export class CpuSwapper {
  private phase = 0;
  private timer: NodeJS.Timeout | undefined;
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

  private apply(): Promise<void> {
    const parentOf = parents();
    const jobs: Promise<void>[] = [];
    this.pairs.forEach((p, i) => {
      const list = this.setOf(i);
      for (const pid of treeOf(p.serverPids(), parentOf)) jobs.push(pin(pid, list));
      for (const pid of p.loads) jobs.push(pin(pid, list));
    });
    return Promise.all(jobs).then(() => undefined);
  }

  /** Pins every pair to its phase-0 set now (before a cell's load starts). */
  async begin(): Promise<void> {
    this.stop();
    this.phase = 0;
    this.phases = 0;
    await this.apply();
  }

  /** The measured run started: phase 0 from now, the next every swapS seconds. */
  restart(): void {
    if (this.timer) clearInterval(this.timer);
    this.phase = 0;
    this.phases = 1;
    this.busy = this.apply();
    this.timer = setInterval(() => {
      this.phase = (this.phase + 1) % this.sets.length;
      this.phases++;
      this.busy = this.busy.then(() => this.apply());
    }, this.swapS * 1000);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  async settled(): Promise<void> {
    await this.busy;
  }
}

/**
 * compare.order: auto (the default) is duet where a fair duet can run (every refusal above absent,
 * for the spec as if it said duet), else interleaved. The spec with its order resolved.
 */
export function resolveOrder(
  loaded: LoadedSpec,
  target: Pick<TargetPlan, "switching" | "remoteLoad" | "localServers">,
  cores = usableCpus().length,
): LoadedSpec {
  const plan = loaded.variants;
  if (plan?.compare.order !== "auto") return loaded;
  const asDuet = { ...loaded, variants: { ...plan, compare: { ...plan.compare, order: "duet" as const } } };
  const order = duetRefusals(asDuet, target, cores).length === 0 ? "duet" : "interleaved";
  return { ...loaded, variants: { ...plan, compare: { ...plan.compare, order } } };
}
