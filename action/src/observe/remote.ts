// Resource use on another machine (a cluster's hosts, a profile's load host), over SSH: one
// shell loop per host for the cell's measured run, printing once a second the machine's CPU line
// and, for each watched process, its /proc stat and resident memory. Servers are found by the
// ports they listen on (tiup's ports of the instances on that host), load tools by their program
// name. The loop is bounded (at most `maxS` seconds); tiperf ends it by ending ssh (its next line
// meets a closed pipe).
import { type ChildProcess, spawn } from "node:child_process";
import { cpuIndexes } from "../proc/affinity.ts";
import { parseStat } from "../proc/process.ts";
import { type RemoteHost, sshArgs } from "../proc/ssh.ts";
import type { ResourceUse } from "../result/model.ts";
import { cpuLine } from "./procfs.ts";
import { byRole, type ProcessAt, type Sampler, Series, type Snapshot } from "./sampler.ts";

export interface RemoteWatch {
  remote: RemoteHost;
  /** Ports of the servers on that host: each one's listening process is a server program. */
  ports: number[];
  /** Program names of the load tools there (sysbench, go-tpc, go-ycsb). */
  loads: string[];
  /** Most seconds the loop runs (the cell's limit): it ends by itself if tiperf never stops it. */
  maxS: number;
}

const word = /^[A-Za-z0-9._-]+$/;

/** The loop, as one POSIX sh script; ports and names are checked to be plain words and numbers. */
export function remoteScript(w: Pick<RemoteWatch, "ports" | "loads" | "maxS">): string {
  for (const p of w.ports)
    if (!Number.isInteger(p) || p <= 0 || p > 65535) throw new Error(`not a port: ${p}`);
  for (const n of w.loads) if (!word.test(n)) throw new Error(`not a program name: ${n}`);
  const n = Math.max(1, Math.ceil(w.maxS));
  return [
    `echo "H $(getconf CLK_TCK) $(nproc)"`,
    `servers=""`,
    `for port in ${w.ports.join(" ") || ":"}; do [ "$port" = : ] && continue; servers="$servers $(ss -Hltnp "sport = :$port" 2>/dev/null | grep -o 'pid=[0-9]*' | cut -d= -f2 | sort -u | tr '\\n' ' ')"; done`,
    `i=0`,
    `while [ $i -lt ${n} ]; do`,
    `  echo "T $(cut -d' ' -f1 /proc/uptime)"`,
    `  echo "C $(head -1 /proc/stat)"`,
    `  loads=""`,
    ...(w.loads.length
      ? [`  for name in ${w.loads.join(" ")}; do loads="$loads $(pgrep -x "$name" | tr '\\n' ' ')"; done`]
      : []),
    `  for pid in $servers; do [ -r /proc/$pid/stat ] && echo "P server $pid $(grep -E '^(VmRSS|Cpus_allowed_list):' /proc/$pid/status | tr -s ' \\t' ' ' | tr '\\n' ' ')| $(cat /proc/$pid/stat)"; done`,
    `  for pid in $loads; do [ -r /proc/$pid/stat ] && echo "P load $pid $(grep -E '^(VmRSS|Cpus_allowed_list):' /proc/$pid/status | tr -s ' \\t' ' ' | tr '\\n' ' ')| $(cat /proc/$pid/stat)"; done`,
    `  i=$((i+1))`,
    `  sleep 1`,
    `done`,
  ].join("\n");
}

/** The loop's output as snapshots, with the host's clock ticks and CPU count. */
export function parseRemote(text: string): { tick: number; cpus: number; snapshots: Snapshot[] } {
  let tick = 100;
  let cpus = 1;
  const snapshots: Snapshot[] = [];
  let cur: Snapshot | undefined;
  for (const line of text.split("\n")) {
    const [kind, ...rest] = line.split(" ");
    if (kind === "H") {
      tick = Number(rest[0]) || 100;
      cpus = Number(rest[1]) || 1;
    } else if (kind === "T") {
      cur = { t: Number(rest[0]), processes: [] };
      snapshots.push(cur);
    } else if (kind === "C" && cur) {
      const machine = cpuLine(rest.join(" "));
      if (machine) cur.machine = machine;
    } else if (kind === "P" && cur) {
      const bar = line.indexOf("| ");
      if (bar < 0) continue;
      const head = line.slice(0, bar);
      const stat = line.slice(bar + 2);
      const [, role, pid] = head.split(" ");
      if (!stat.includes(")")) continue;
      const { comm, fields: f } = parseStat(stat);
      const rss = Number(/VmRSS: (\d+)/.exec(head)?.[1] ?? 0);
      const allowed = /Cpus_allowed_list: (\S+)/.exec(head)?.[1];
      let limit: number | undefined;
      try {
        limit = allowed ? cpuIndexes(allowed).length : undefined;
      } catch {}
      const p: ProcessAt = {
        role: role === "load" ? "load" : "server",
        pid: Number(pid),
        comm,
        ticks: Number(f[11]) + Number(f[12]),
        rssBytes: rss * 1024,
        ...(limit ? { cpus: Math.min(limit, cpus) } : {}),
      };
      cur.processes.push(p);
    }
  }
  return { tick, cpus, snapshots };
}

/** Samples one remote host over SSH from construction until stop(). */
export class RemoteSampler implements Sampler {
  private readonly child: ChildProcess;
  private output = "";
  /** Snapshots (T lines) seen so far, counted as whole lines arrive. */
  private snapshots = 0;
  private counted = 0;
  private readonly done: Promise<void>;

  constructor(private readonly w: RemoteWatch) {
    this.child = spawn("ssh", sshArgs(w.remote, remoteScript(w)), { stdio: ["ignore", "pipe", "ignore"] });
    this.child.stdout?.on("data", (d: Buffer) => {
      this.output += d.toString();
      // the complete lines not counted yet
      const end = this.output.lastIndexOf("\n") + 1;
      for (const line of this.output.slice(this.counted, end).split("\n"))
        if (line.startsWith("T ")) this.snapshots++;
      this.counted = Math.max(this.counted, end);
    });
    this.done = new Promise((resolve) => {
      this.child.on("close", () => resolve());
      this.child.on("error", () => resolve());
    });
  }

  addLoad(): void {}

  /** How many seconds the remote loop has reported so far (its snapshots). */
  get sampled(): number {
    return this.snapshots;
  }

  /** Ends the loop (ssh ends), waits for it (bounded) and summarises the host's programs. */
  async stop(): Promise<ResourceUse[]> {
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 5000);
    await this.done;
    clearTimeout(timer);
    const { tick, cpus, snapshots } = parseRemote(this.output);
    const series = new Series(this.w.remote.host, tick, cpus);
    for (const s of snapshots) series.add(s);
    return byRole(series.summaries());
  }
}
