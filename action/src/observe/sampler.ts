// Resource use of one cell's measured window, sampled once a second: each server program and each
// load-tool program (a process and everything it forked, grouped by the kernel's name for the
// program: mariadbd, postgres, tidb-server, tikv-server, pd-server, sysbench), and the machine as
// a whole. CPU is user + system time as a share of the CPUs the program may use. The snapshots
// come from /proc here (ResourceSampler) or over SSH on a cluster's hosts (remote.ts); Series
// turns a host's snapshots into the summaries the result keeps.
import { cpus } from "node:os";
import { parents, treeOf } from "../proc/process.ts";
import type { ResourceUse } from "../result/model.ts";
import { clockTicks, cpuLimit, machineTicks, sampleProcess } from "./procfs.ts";

export type ProcessRole = "server" | "load";

/** One process at one moment, as a snapshot lists it. */
export interface ProcessAt {
  role: ProcessRole;
  pid: number;
  comm: string;
  /** User + system CPU time in clock ticks. */
  ticks: number;
  rssBytes: number;
  readBytes?: number;
  writeBytes?: number;
  /** CPUs it may use, once known (affinity, capped by its cgroup's quota). */
  cpus?: number;
}

/** Everything sampled on one host at one moment. */
export interface Snapshot {
  /** Seconds, on any clock that only moves forward (differences are what count). */
  t: number;
  machine?: { busy: number; total: number };
  processes: ProcessAt[];
}

interface Seen {
  ticks: number;
  read?: number;
  write?: number;
}

interface Points {
  component: string;
  role: ProcessRole | "machine";
  cpus: number;
  processes: number;
  /** Per interval: seconds since the first snapshot, its length, CPU seconds, RSS and disk bytes. */
  points: { t: number; dt: number; cpu_s: number; rss?: number; read?: number; write?: number }[];
}

const mib = (bytes: number) => bytes / 1048576;
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

/** One host's snapshots, interval by interval, summarised per program. */
export class Series {
  private readonly seen = new Map<number, Seen>();
  private readonly series = new Map<string, Points>();
  private first?: Snapshot;
  private last?: Snapshot;

  constructor(
    private readonly host: string,
    /** Clock ticks per second of the host's /proc. */
    private readonly tick: number,
    /** The host's CPU count (what the machine's share is of). */
    private readonly machineCpus: number,
  ) {}

  add(s: Snapshot): void {
    const prev = this.last;
    this.first ??= s;
    this.last = s;
    const dt = prev ? s.t - prev.t : 0;
    const per = new Map<
      string,
      {
        role: ProcessRole;
        comm: string;
        n: number;
        cpu: number;
        rss: number;
        cpus?: number;
        read?: number;
        write?: number;
      }
    >();
    const alive = new Set<number>();
    for (const p of s.processes) {
      if (alive.has(p.pid)) continue;
      alive.add(p.pid);
      const before = this.seen.get(p.pid);
      this.seen.set(p.pid, {
        ticks: p.ticks,
        ...(p.readBytes !== undefined ? { read: p.readBytes } : {}),
        ...(p.writeBytes !== undefined ? { write: p.writeBytes } : {}),
      });
      // a process first seen after the first snapshot was born (or handed over) since the last one
      const since = (now: number, then: number | undefined) => Math.max(0, now - (then ?? (prev ? 0 : now)));
      const key = `${p.role}\u0000${p.comm}`;
      const c = per.get(key) ?? { role: p.role, comm: p.comm, n: 0, cpu: 0, rss: 0 };
      c.n++;
      c.cpu += since(p.ticks, before?.ticks) / this.tick;
      c.rss += p.rssBytes;
      c.cpus ??= p.cpus;
      if (p.readBytes !== undefined) c.read = (c.read ?? 0) + since(p.readBytes, before?.read);
      if (p.writeBytes !== undefined) c.write = (c.write ?? 0) + since(p.writeBytes, before?.write);
      per.set(key, c);
    }
    for (const pid of this.seen.keys()) if (!alive.has(pid)) this.seen.delete(pid);
    if (!prev || dt <= 0) return;
    const t = s.t - (this.first as Snapshot).t;
    for (const [key, c] of per) {
      let p = this.series.get(key);
      if (!p) {
        p = { component: c.comm, role: c.role, cpus: c.cpus ?? this.machineCpus, processes: 0, points: [] };
        this.series.set(key, p);
      }
      p.processes = Math.max(p.processes, c.n);
      p.points.push({
        t,
        dt,
        cpu_s: c.cpu,
        rss: c.rss,
        ...(c.read !== undefined ? { read: c.read } : {}),
        ...(c.write !== undefined ? { write: c.write } : {}),
      });
    }
    if (s.machine && prev.machine && s.machine.total > prev.machine.total) {
      let m = this.series.get("machine");
      if (!m) {
        m = { component: "machine", role: "machine", cpus: this.machineCpus, processes: 0, points: [] };
        this.series.set("machine", m);
      }
      const share = (s.machine.busy - prev.machine.busy) / (s.machine.total - prev.machine.total);
      m.points.push({ t, dt, cpu_s: share * this.machineCpus * dt });
    }
  }

  /** Seconds since the last snapshot was taken (on the snapshots' clock), given the time now. */
  sinceLast(now: number): number {
    return this.last ? now - this.last.t : Number.POSITIVE_INFINITY;
  }

  /** Each program over the window: window mean and busiest second, per-second samples. */
  summaries(): ResourceUse[] {
    const out: ResourceUse[] = [];
    for (const s of this.series.values()) {
      if (!s.points.length || s.cpus <= 0) continue;
      const time = s.points.reduce((a, p) => a + p.dt, 0);
      const pct = (p: { dt: number; cpu_s: number }) => (100 * p.cpu_s) / p.dt / s.cpus;
      const stat = (values: number[], mean: number) => ({
        mean: round(mean),
        max: round(Math.max(...values)),
      });
      const rate = (pick: (p: Points["points"][number]) => number | undefined) => {
        const have = s.points.filter((p) => pick(p) !== undefined);
        if (!have.length) return undefined;
        const total = have.reduce((a, p) => a + (pick(p) as number), 0);
        return stat(
          have.map((p) => mib(pick(p) as number) / p.dt),
          mib(total) / have.reduce((a, p) => a + p.dt, 0),
        );
      };
      const cpuTotal = s.points.reduce((a, p) => a + p.cpu_s, 0);
      const rss = s.points.filter((p) => p.rss !== undefined).map((p) => mib(p.rss as number));
      const read = rate((p) => p.read);
      const write = rate((p) => p.write);
      out.push({
        component: s.component,
        role: s.role,
        host: this.host,
        processes: s.processes,
        cpus: round(s.cpus, 2),
        cpu_pct: stat(s.points.map(pct), (100 * cpuTotal) / time / s.cpus),
        ...(rss.length ? { rss_mib: stat(rss, rss.reduce((a, b) => a + b, 0) / rss.length) } : {}),
        ...(read ? { read_mib_s: read } : {}),
        ...(write ? { write_mib_s: write } : {}),
        samples: s.points.map((p) => ({
          t: round(p.t, 2),
          cpu_pct: round(pct(p)),
          ...(p.rss !== undefined ? { rss_mib: round(mib(p.rss)) } : {}),
        })),
      });
    }
    return out;
  }
}

const ORDER = { machine: 0, server: 1, load: 2 } as const;
/** Machine first, then servers, then load tools; the busiest first within each. */
export const byRole = (uses: ResourceUse[]) =>
  uses.sort((a, b) => ORDER[a.role] - ORDER[b.role] || b.cpu_pct.mean - a.cpu_pct.mean);

/** What a cell's measured run is watched with: started before the tool, stopped after it. */
export interface Sampler {
  /** The load tool's process (here), once spawned. */
  addLoad(pid: number): void;
  stop(): Promise<ResourceUse[]>;
}

/** Samples server processes here (and later the load tool) from /proc until stop(). */
export class ResourceSampler implements Sampler {
  private readonly loads: number[] = [];
  private readonly series = new Series("local", clockTicks(), cpus().length);
  private readonly limits = new Map<number, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly servers: number[],
    private readonly intervalMs = 1000,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  addLoad(pid: number): void {
    this.loads.push(pid);
  }

  private sample(): void {
    const parentOf = parents();
    const processes: ProcessAt[] = [];
    for (const [role, roots] of [
      ["server", this.servers],
      ["load", this.loads],
    ] as [ProcessRole, number[]][]) {
      if (!roots.length) continue;
      for (const pid of treeOf(roots, parentOf)) {
        const p = sampleProcess(pid);
        if (!p) continue;
        // its CPUs at first sight (a load tool is seen a moment after spawn: its cgroup is set by then)
        if (!this.limits.has(pid)) this.limits.set(pid, cpuLimit(pid));
        const cpusOf = this.limits.get(pid);
        processes.push({
          role,
          pid,
          comm: p.comm,
          ticks: p.ticks,
          rssBytes: p.rssBytes,
          ...(p.readBytes !== undefined ? { readBytes: p.readBytes } : {}),
          ...(p.writeBytes !== undefined ? { writeBytes: p.writeBytes } : {}),
          ...(cpusOf !== undefined ? { cpus: cpusOf } : {}),
        });
      }
    }
    const machine = machineTicks();
    this.series.add({ t: performance.now() / 1000, ...(machine ? { machine } : {}), processes });
  }

  /**
   * Stops sampling and summarises: one last sample first when at least half an interval has
   * passed (a sliver of a second would be a ratio of small counts).
   */
  async stop(): Promise<ResourceUse[]> {
    clearInterval(this.timer);
    if (this.series.sinceLast(performance.now() / 1000) >= this.intervalMs / 2000) this.sample();
    return byRole(this.series.summaries());
  }
}
