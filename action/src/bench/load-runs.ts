// How a bench runs its load tools: only the plan's steps (bench/load-steps.ts), looked up by
// key, with what the plan could not know filled in (the port a private server picked at start, a
// password read from the environment), recorded as they run (executed.json, secrets masked), where
// the profile puts them (here, a load host, a pod), stopped the moment the server dies.

import { RunError } from "../errors.ts";
import { maskArgs } from "../proc/secrets.ts";
import type { RemoteHost } from "../proc/ssh.ts";
import { runTool, type ToolLauncher, type ToolRun } from "../proc/tool.ts";
import type { Spec } from "../specfile/schema.ts";
import { applyResources } from "../targets/local/cgroup.ts";
import { filledStep, stepOf } from "../targets/plan-step.ts";
import { type Connection, type PlanStep, PORT_AT_START, type Target } from "../targets/types.ts";
import { AT_START } from "./load-steps.ts";

/** How one planned step runs: its watchdog, a duet pair's CPUs, each process as it starts. */
export interface ToolRunOptions {
  limitS: number;
  onSpawn?: (pid: number) => void;
  /** A cell's run or warmup: driver.cpu_quota applies. */
  capped?: boolean;
  cpus?: string;
}

export class LoadTools {
  constructor(
    private readonly o: {
      variant: string;
      spec: Spec;
      target: Target;
      /** The run plan's load tool steps (RunPlan.loadSteps). */
      steps: readonly PlanStep[];
      /** Where the plan had the load tools connect, and its steps planned again on another connection. */
      planned?: { connection: Connection; on: (connection: Connection) => PlanStep[] };
      /** Where each step is recorded as it runs (the deployment's executed steps). */
      executed?: PlanStep[];
      remote?: RemoteHost;
      launcher?: ToolLauncher;
      log: (line: string) => void;
    },
  ) {
    this.steps = o.steps;
    const was = o.planned?.connection;
    const now = o.target.connection;
    const where = (c: Connection) =>
      c.endpoints.map((e) => `${e.host}:${e.port === PORT_AT_START ? "*" : e.port}`);
    const moved =
      was &&
      (was.endpoints.length !== now.endpoints.length ||
        was.endpoints.some((e, i) => {
          const n = now.endpoints[i];
          return !n || e.host !== n.host || (e.port !== PORT_AT_START && e.port !== n.port);
        }));
    if (moved && o.planned) {
      // the server took another address than the plan's: the same steps, planned on that one
      this.steps = o.planned.on({ ...now, password: was.password });
      o.log(
        `${o.variant}: the server listens on ${where(now).join(", ")}, not the plan's ${where(was).join(", ")}: its load tool steps planned again on it`,
      );
    }
  }

  private readonly steps: readonly PlanStep[];

  /** The load tools run elsewhere (a load host or a pod): nothing of theirs is pinned, capped or sampled here. */
  get elsewhere(): boolean {
    return this.o.remote !== undefined || this.o.launcher !== undefined;
  }

  get remote(): RemoteHost | undefined {
    return this.o.remote;
  }

  has(key: string): boolean {
    return this.steps.some((s) => s.key === key);
  }

  /** The plan's step of this key, with the port and password the run learned filled in. */
  planned(key: string): PlanStep {
    const c = this.o.target.connection;
    const port = String(c.endpoints[0]?.port ?? "");
    return filledStep(stepOf(this.steps, key), (t) =>
      t.replaceAll(AT_START.port, port).replaceAll(AT_START.password, c.password),
    );
  }

  /** The plan's steps keyed `key(0)`, `key(1)` … in order. */
  plannedAll(key: (i: number) => string): PlanStep[] {
    const out: PlanStep[] = [];
    for (let i = 0; this.has(key(i)); i++) out.push(this.planned(key(i)));
    return out;
  }

  /** Records a step of tiperf's own (SQL) as executed, in the plan's words. */
  record(step: PlanStep): void {
    this.o.executed?.push(step);
  }

  /**
   * Runs a planned load tool step, stopping it the moment the server dies or the watchdog's limit
   * passes. A raw log that cannot be written stops the run: what it measured could not be kept.
   */
  async run(step: PlanStep, logFile: string, signal: AbortSignal, ro: ToolRunOptions): Promise<ToolRun> {
    if (!("command" in step.run)) throw new RunError(`step ${step.key}: not a load tool's command`);
    const [command, ...args] = step.run.command as [string, ...string[]];
    // driver.cpu_quota: the cell's load tool in a cgroup of its own, from the moment it runs
    const quota = ro.capped && !this.elsewhere ? this.o.spec.driver?.cpu_quota : undefined;
    let capped: Promise<{ remove: () => Promise<void> } | undefined> | undefined;
    const onSpawn = (pid: number) => {
      ro.onSpawn?.(pid);
      if (quota !== undefined)
        capped = applyResources(pid, quota, "load").catch((e: Error) => {
          this.o.log(`driver.cpu_quota: ${e.message}`);
          return undefined;
        });
    };
    const local = new AbortController();
    const onOuter = () => local.abort(signal.reason);
    signal.addEventListener("abort", onOuter, { once: true });
    if (signal.aborted) onOuter();
    let alive = true;
    void this.o.target.died.then((why) => {
      if (alive) local.abort(new Error(why));
    });
    this.record({ ...step, variant: this.o.variant, run: { command: maskArgs(step.run.command) } });
    try {
      const r = await runTool(command, args, {
        logFile,
        signal: local.signal,
        ...(this.o.launcher ? {} : { cpus: ro.cpus ?? this.o.spec.driver?.cpus }),
        limitS: ro.limitS,
        ...(this.o.remote ? { remote: this.o.remote } : {}),
        ...(this.o.launcher ? { launcher: this.o.launcher } : {}),
        ...(step.stop_after_s !== undefined ? { stopAfterS: step.stop_after_s } : {}),
        onSpawn,
      });
      if (r.writeError) throw r.writeError;
      return r;
    } finally {
      await (await capped)?.remove();
      alive = false;
      signal.removeEventListener("abort", onOuter);
    }
  }

  /**
   * Whether the server died with the tool's failure: a server killed mid-cell and the client's
   * lost connection happen together, and either may be noticed first; the death names the cause.
   * Bounded: waits at most `ms`.
   */
  async diedWith(r: ToolRun, ms = 2000): Promise<string | undefined> {
    if (r.aborted || r.code === 0) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const quiet = new Promise<undefined>((res) => {
      timer = setTimeout(() => res(undefined), ms);
    });
    try {
      return await Promise.race([this.o.target.died, quiet]);
    } finally {
      clearTimeout(timer);
    }
  }
}
