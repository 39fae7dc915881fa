// Resource use of one cell's measured window, sampled from /proc once a second: each server
// program and each load-tool program (a process and everything it forked, grouped by the kernel's
// name for the program: mariadbd, postgres, tidb-server, tikv-server, pd-server, sysbench), and
// the machine as a whole. CPU is user + system time as a share of the CPUs the program may use.
import { cpus } from "node:os";
import type { ResourceUse } from "../result/model.ts";
import { clockTicks, cpuLimit, machineTicks, parents, sampleProcess, treeOf } from "./procfs.ts";

type Role = "server" | "load";

interface Seen {
  ticks: number;
  read?: number;
  write?: number;
}

interface Series {
  component: string;
  role: Role | "machine";
  cpus: number;
  processes: number;
  /** Per interval: seconds, CPU seconds, RSS bytes, bytes read and written. */
  points: { t: number; dt: number; cpu_s: number; rss?: number; read?: number; write?: number }[];
}

const mib = (bytes: number) => bytes / 1048576;
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Samples the given server processes (and later the load tool) until stop(). */
export class ResourceSampler {
  private readonly loads: number[] = [];
  private readonly seen = new Map<number, Seen>();
  private readonly series = new Map<string, Series>();
  private readonly started = performance.now();
  private last = performance.now();
  private lastMachine = machineTicks();
  private readonly timer: NodeJS.Timeout;
  private readonly tick = clockTicks();

  constructor(
    private readonly servers: number[],
    private readonly host = "local",
    private readonly intervalMs = 1000,
  ) {
    this.sample(true);
    this.timer = setInterval(() => this.sample(false), intervalMs);
    this.timer.unref();
  }

  /** The load tool's process, once spawned: it and what it forks are sampled from now on. */
  addLoad(pid: number): void {
    this.loads.push(pid);
  }

  private sample(first: boolean): void {
    const now = performance.now();
    const dt = (now - this.last) / 1000;
    const t = (now - this.started) / 1000;
    this.last = now;
    const parentOf = parents();
    const groups: [Role, number[]][] = [
      ["server", this.servers],
      ["load", this.loads],
    ];
    const alive = new Set<number>();
    const perComponent = new Map<
      string,
      {
        role: Role;
        comm: string;
        root: number;
        n: number;
        cpu: number;
        rss: number;
        read?: number;
        write?: number;
      }
    >();
    for (const [role, roots] of groups) {
      if (!roots.length) continue;
      for (const pid of treeOf(roots, parentOf)) {
        const s = sampleProcess(pid);
        if (!s || alive.has(pid)) continue;
        alive.add(pid);
        const before = this.seen.get(pid);
        this.seen.set(pid, {
          ticks: s.ticks,
          ...(s.readBytes !== undefined ? { read: s.readBytes } : {}),
          ...(s.writeBytes !== undefined ? { write: s.writeBytes } : {}),
        });
        // a process first seen after the start was born (or handed over) since the last sample
        const dTicks = s.ticks - (before?.ticks ?? (first ? s.ticks : 0));
        const key = `${role}\u0000${s.comm}`;
        const c = perComponent.get(key) ?? { role, comm: s.comm, root: pid, n: 0, cpu: 0, rss: 0 };
        c.n++;
        c.cpu += Math.max(0, dTicks) / this.tick;
        c.rss += s.rssBytes;
        if (s.readBytes !== undefined)
          c.read = (c.read ?? 0) + Math.max(0, s.readBytes - (before?.read ?? (first ? s.readBytes : 0)));
        if (s.writeBytes !== undefined)
          c.write =
            (c.write ?? 0) + Math.max(0, s.writeBytes - (before?.write ?? (first ? s.writeBytes : 0)));
        perComponent.set(key, c);
      }
    }
    for (const pid of this.seen.keys()) if (!alive.has(pid)) this.seen.delete(pid);
    const machine = machineTicks();
    if (first || dt <= 0) {
      this.lastMachine = machine;
      return;
    }
    for (const [key, c] of perComponent) {
      let s = this.series.get(key);
      if (!s) {
        s = { component: c.comm, role: c.role, cpus: cpuLimit(c.root), processes: 0, points: [] };
        this.series.set(key, s);
      }
      s.processes = Math.max(s.processes, c.n);
      s.points.push({
        t,
        dt,
        cpu_s: c.cpu,
        rss: c.rss,
        ...(c.read !== undefined ? { read: c.read } : {}),
        ...(c.write !== undefined ? { write: c.write } : {}),
      });
    }
    if (machine && this.lastMachine && machine.total > this.lastMachine.total) {
      let m = this.series.get("machine");
      const n = cpus().length;
      if (!m) {
        m = { component: "machine", role: "machine", cpus: n, processes: 0, points: [] };
        this.series.set("machine", m);
      }
      const share = (machine.busy - this.lastMachine.busy) / (machine.total - this.lastMachine.total);
      m.points.push({ t, dt, cpu_s: share * n * dt });
    }
    this.lastMachine = machine;
  }

  /**
   * Stops sampling and summarises each program over the window: one last sample first when at
   * least half an interval has passed (a sliver of a second would be a ratio of small counts).
   */
  stop(): ResourceUse[] {
    clearInterval(this.timer);
    if (performance.now() - this.last >= this.intervalMs / 2) this.sample(false);
    const out: ResourceUse[] = [];
    for (const s of this.series.values()) {
      if (!s.points.length || s.cpus <= 0) continue;
      const time = s.points.reduce((a, p) => a + p.dt, 0);
      const pct = (p: { dt: number; cpu_s: number }) => (100 * p.cpu_s) / p.dt / s.cpus;
      const stat = (values: number[], mean: number) => ({
        mean: round(mean),
        max: round(Math.max(...values)),
      });
      const rate = (pick: (p: Series["points"][number]) => number | undefined) => {
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
    const order = { machine: 0, server: 1, load: 2 } as const;
    return out.sort((a, b) => order[a.role] - order[b.role] || b.cpu_pct.mean - a.cpu_pct.mean);
  }
}
