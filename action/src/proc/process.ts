import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync, readdirSync, readFileSync } from "node:fs";
import { childEnv } from "./env.ts";

export interface RunAs {
  uid: number;
  gid: number;
}

export interface ServerProcess {
  pid: number;
  /** Resolves when the process is gone, with how it ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  isAlive(): boolean;
  /** Sends `signal`, waits up to `graceMs`, then SIGKILL. Resolves once the process is gone. */
  stop(signal: NodeJS.Signals, graceMs: number): Promise<void>;
}

const STATES: Record<string, string> = {
  R: "running",
  S: "sleeping",
  D: "in uninterruptible I/O wait",
  T: "stopped (SIGSTOP)",
  t: "stopped by a debugger",
  Z: "a zombie",
  X: "dead",
  I: "idle",
};

/**
 * A /proc/PID/stat line: the command between the parentheses (which may itself hold spaces and
 * parentheses) and the fields after it — [0] the state, [1] the parent pid, [11] utime, [12] stime.
 */
export function parseStat(stat: string): { comm: string; fields: string[] } {
  const close = stat.lastIndexOf(")");
  return { comm: stat.slice(stat.indexOf("(") + 1, close), fields: stat.slice(close + 2).split(" ") };
}

/** The fields of /proc/PID/stat after the command (see parseStat); undefined when the process is gone. */
export function procStat(pid: number | string): string[] | undefined {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, "utf8")).fields;
  } catch {
    return undefined;
  }
}

/** Every process's parent, as /proc says now. */
export function parents(): Map<number, number> {
  const out = new Map<number, number>();
  let entries: string[] = [];
  try {
    entries = readdirSync("/proc");
  } catch {
    return out;
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    const ppid = procStat(e)?.[1];
    if (ppid !== undefined) out.set(Number(e), Number(ppid));
  }
  return out;
}

/** The roots and every process they have forked (PostgreSQL's backends, a playground's components). */
export function treeOf(roots: number[], parentOf: Map<number, number>): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parentOf) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const out = [...roots];
  for (let i = 0; i < out.length; i++)
    for (const c of children.get(out[i] as number) ?? []) if (!out.includes(c)) out.push(c);
  return out;
}

/** How the kernel sees a process right now ("stopped (SIGSTOP)", "running", "gone"). */
export function processState(pid: number): string {
  const code = procStat(pid)?.[0];
  return code === undefined ? "gone" : (STATES[code] ?? `in state ${code}`);
}

/**
 * Starts a long-running server in its own process group (so a terminal's Ctrl-C reaches tiperf,
 * which then stops the server in order) with stdout/stderr appended to `logFile`, in a clean
 * environment (proc/env.ts).
 */
export function startServerProcess(
  command: string,
  args: string[],
  opts: { logFile: string; runAs?: RunAs; cwd?: string; env?: Record<string, string> },
): ServerProcess {
  const fd = openSync(opts.logFile, "a");
  let child: ChildProcess;
  try {
    child = spawn(command, args, {
      detached: true,
      stdio: ["ignore", fd, fd],
      cwd: opts.cwd,
      env: childEnv(opts.env),
      ...(opts.runAs ? { uid: opts.runAs.uid, gid: opts.runAs.gid } : {}),
    });
  } finally {
    closeSync(fd);
  }
  let alive = true;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("error", () => {
      alive = false;
      resolve({ code: 127, signal: null });
    });
    child.once("exit", (code, signal) => {
      alive = false;
      resolve({ code, signal });
    });
  });
  const pid = child.pid ?? -1;
  return {
    pid,
    exited,
    isAlive: () => alive,
    async stop(signal, graceMs) {
      if (!alive) return;
      try {
        process.kill(pid, signal);
        // A stopped (SIGSTOP) server would hold the signal until the grace ran out.
        process.kill(pid, "SIGCONT");
      } catch {
        return;
      }
      const timer = new Promise<"timeout">((r) => setTimeout(() => r("timeout"), graceMs).unref());
      if ((await Promise.race([exited, timer])) === "timeout" && alive) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {}
        await exited;
      }
    },
  };
}

export interface CommandResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a short command to completion (argument array, never a shell; clean environment). */
export function runCommand(
  command: string,
  args: string[],
  opts: { runAs?: RunAs; timeoutMs?: number; signal?: AbortSignal; env?: NodeJS.ProcessEnv } = {},
): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: ["ignore", "pipe", "pipe"],
      timeout: opts.timeoutMs ?? 60_000,
      killSignal: "SIGKILL",
      signal: opts.signal,
      env: opts.env ?? childEnv(),
      ...(opts.runAs ? { uid: opts.runAs.uid, gid: opts.runAs.gid } : {}),
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (d) => {
      stdout += d;
    });
    child.stderr?.on("data", (d) => {
      stderr += d;
    });
    child.once("error", (e) => resolve({ code: 127, signal: null, stdout, stderr: stderr + e.message }));
    child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
