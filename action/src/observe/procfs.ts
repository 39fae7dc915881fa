// What the kernel says about processes on this machine (/proc): each process's CPU time, resident
// memory, disk bytes and parent; the machine's busy CPU time; and how many CPUs a process may use
// (its affinity, and the quota of its cgroup, v2 cpu.max or v1 cpu.cfs_quota_us, up the tree).
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { cpuIndexes } from "../proc/affinity.ts";
import { parseStat } from "../proc/process.ts";

let ticks: number | undefined;
/** Clock ticks per second of /proc's CPU times (getconf CLK_TCK; 100 on every Linux in use). */
export function clockTicks(): number {
  if (ticks === undefined) {
    try {
      ticks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

export interface ProcessSample {
  pid: number;
  ppid: number;
  /** The kernel's name of the program (at most 15 characters: tidb-server, mariadbd, sysbench). */
  comm: string;
  /** User + system CPU time of all its threads, in clock ticks. */
  ticks: number;
  rssBytes: number;
  /** Bytes it caused to be read from and written to storage (absent where /proc/PID/io is closed). */
  readBytes?: number;
  writeBytes?: number;
}

const read = (file: string): string | undefined => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
};

/** One process now, or undefined when it is gone. */
export function sampleProcess(pid: number): ProcessSample | undefined {
  const stat = read(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  const { comm, fields: f } = parseStat(stat);
  const status = read(`/proc/${pid}/status`) ?? "";
  const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  const io = read(`/proc/${pid}/io`);
  const ioField = (name: string) => {
    const m = io && new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(io);
    return m ? Number(m[1]) : undefined;
  };
  const readBytes = ioField("read_bytes");
  const writeBytes = ioField("write_bytes");
  return {
    pid,
    ppid: Number(f[1]),
    comm,
    ticks: Number(f[11]) + Number(f[12]),
    rssBytes: rssKb * 1024,
    ...(readBytes !== undefined ? { readBytes } : {}),
    ...(writeBytes !== undefined ? { writeBytes } : {}),
  };
}

/** /proc/stat's first line ("cpu  user nice system idle iowait irq softirq steal …") as busy and total ticks. */
export function cpuLine(line: string): { busy: number; total: number } | undefined {
  if (!line.startsWith("cpu ")) return undefined;
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  // guest time is already in user
  const total = v.slice(0, 8).reduce((s, x) => s + (x || 0), 0);
  return { busy: total - (v[3] ?? 0) - (v[4] ?? 0), total };
}

/** The machine's CPU time: busy and total ticks over all CPUs. */
export function machineTicks(): { busy: number; total: number } | undefined {
  return cpuLine(read("/proc/stat")?.split("\n")[0] ?? "");
}

/**
 * Every thread of every process but `skip`'s, now: its CPU time (user + system, clock ticks, as
 * precise as the kernel's runtime) and the CPU it last ran on (/proc/PID/task/TID/stat), by TID.
 */
export function threadTimes(skip: Set<number>): Map<number, { ticks: number; cpu: number }> {
  const out = new Map<number, { ticks: number; cpu: number }>();
  let pids: string[] = [];
  try {
    pids = readdirSync("/proc");
  } catch {
    return out;
  }
  for (const pid of pids) {
    if (!/^\d+$/.test(pid) || skip.has(Number(pid))) continue;
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      const stat = read(`/proc/${pid}/task/${tid}/stat`);
      if (!stat) continue;
      const f = parseStat(stat).fields;
      // fields after the command: [11] utime, [12] stime, [36] processor
      out.set(Number(tid), { ticks: Number(f[11]) + Number(f[12]), cpu: Number(f[36]) });
    }
  }
  return out;
}

/** The CPU quota of the cgroup a process is in, as CPUs (tightest up the tree), if it has one. */
function quotaOf(pid: number): number | undefined {
  const lines = (read(`/proc/${pid}/cgroup`) ?? "").trim().split("\n");
  let tightest: number | undefined;
  const take = (q: number | undefined) => {
    if (q !== undefined && q > 0 && (tightest === undefined || q < tightest)) tightest = q;
  };
  const v2 = lines.find((l) => l.startsWith("0::"))?.slice(3);
  if (v2 !== undefined && existsSync("/sys/fs/cgroup/cgroup.controllers")) {
    for (let p = v2; ; p = p.slice(0, p.lastIndexOf("/"))) {
      const [max, period] = (read(join("/sys/fs/cgroup", p, "cpu.max")) ?? "").trim().split(" ");
      if (max && max !== "max") take(Number(max) / Number(period));
      if (p === "" || p === "/") break;
    }
    return tightest;
  }
  const v1 = lines.map((l) => l.split(":")).find(([, c]) => c?.split(",").includes("cpu"));
  if (!v1) return undefined;
  const base = ["cpu", "cpu,cpuacct"].map((d) => join("/sys/fs/cgroup", d)).find((d) => existsSync(d));
  if (!base) return undefined;
  for (let p = v1[2] ?? "/"; ; p = p.slice(0, p.lastIndexOf("/"))) {
    const quota = Number(read(join(base, p, "cpu.cfs_quota_us"))?.trim());
    const period = Number(read(join(base, p, "cpu.cfs_period_us"))?.trim());
    if (quota > 0 && period > 0) take(quota / period);
    if (p === "" || p === "/") break;
  }
  return tightest;
}

/** The CPUs a process may run on (its affinity, /proc/PID/status), in order; undefined if unreadable. */
export function allowedCpus(pid: number | "self"): number[] | undefined {
  const list = /^Cpus_allowed_list:\s+(\S+)/m.exec(read(`/proc/${pid}/status`) ?? "")?.[1];
  if (!list) return undefined;
  try {
    const out = cpuIndexes(list);
    return out.length ? out : undefined;
  } catch {
    return undefined;
  }
}

/** How many CPUs a process may use: its affinity's count, capped by its cgroup's quota. */
export function cpuLimit(pid: number): number {
  const n = allowedCpus(pid)?.length ?? cpus().length;
  const q = quotaOf(pid);
  return q !== undefined ? Math.min(n, q) : n;
}
