// A load tool step in a pod of the run's namespace (proc/tool.ts ToolLauncher): the pod created
// with the step's argument array as its command, its log followed through the API server as it
// arrives (the raw log), its exit code read from the container's status, the pod deleted after
// the step — and at once, with the kubelet's SIGTERM, when the step is stopped.
import { RunError } from "../errors.ts";
import type { ToolLauncher } from "../proc/tool.ts";
import type { KubeClient, KubeObject } from "./client.ts";

interface ContainerState {
  waiting?: { reason?: string; message?: string };
  running?: Record<string, unknown>;
  terminated?: { exitCode?: number; signal?: number; reason?: string; message?: string };
}
interface PodStatus {
  phase?: string;
  conditions?: { type?: string; status?: string; reason?: string; message?: string }[];
  containerStatuses?: { name?: string; state?: ContainerState }[];
}

const statusOf = (pod: KubeObject | undefined) => (pod?.status ?? {}) as PodStatus;
const ended = (pod: KubeObject | undefined) => ["Succeeded", "Failed"].includes(statusOf(pod).phase ?? "");
const started = (pod: KubeObject | undefined) => ended(pod) || statusOf(pod).phase === "Running";

/** Why a pod is not running yet, in the cluster's words (unschedulable, image pull, …). */
export function podWaiting(pod: KubeObject | undefined): string {
  if (!pod) return "no such pod";
  const st = statusOf(pod);
  const waiting = st.containerStatuses?.find((c) => c.state?.waiting)?.state?.waiting;
  const unscheduled = st.conditions?.find((c) => c.type === "PodScheduled" && c.status === "False");
  const why = waiting
    ? `${waiting.reason ?? "waiting"}${waiting.message ? `: ${waiting.message}` : ""}`
    : unscheduled
      ? `${unscheduled.reason ?? "not scheduled"}${unscheduled.message ? `: ${unscheduled.message}` : ""}`
      : "";
  return `phase ${st.phase ?? "unknown"}${why ? `, ${why}` : ""}`;
}

/** The exit code the container ended with, if it did. */
export function exitCodeOf(pod: KubeObject | undefined): number | undefined {
  const t = statusOf(pod).containerStatuses?.find((c) => c.state?.terminated)?.state?.terminated;
  return t?.exitCode;
}

export interface PodLauncherOptions {
  /** The API client, asked for when a pod is launched (a cluster created for the run is up by then). */
  client: () => KubeClient;
  namespace: string;
  /** The pod of one step: its name and command (the step's argument array). */
  manifest: (name: string, command: string[]) => unknown;
  /** CPUs the pod requests (data loads use that many threads). */
  cores: number;
  /** How long a pod may take to start running. */
  startTimeoutMs: number;
  /** A name prefix, unique per run (pods are named <prefix>-<n>). */
  prefix: string;
}

export class PodLauncher implements ToolLauncher {
  readonly where = "pod" as const;
  private n = 0;
  private current: string | undefined;

  constructor(private readonly o: PodLauncherOptions) {}

  describe(): string {
    return `pod ${this.current ?? `${this.o.prefix}-${this.n + 1}`} in namespace ${this.o.namespace}`;
  }

  cores(): number {
    return this.o.cores;
  }

  async run(
    argv: string[],
    r: { onData: (chunk: string) => void; signal: AbortSignal; stopAfterS?: number },
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const c = this.o.client();
    const name = `${this.o.prefix}-${++this.n}`;
    this.current = name;
    const path = `/api/v1/namespaces/${this.o.namespace}/pods/${name}`;
    // tools without a time limit (go-ycsb) get SIGINT there, as here: the run ends normally
    const command =
      r.stopAfterS === undefined
        ? argv
        : ["timeout", "--preserve-status", "-s", "INT", String(r.stopAfterS), ...argv];
    await c.create(`/api/v1/namespaces/${this.o.namespace}/pods`, this.o.manifest(name, command));
    try {
      await c.waitFor(path, started, {
        timeoutMs: this.o.startTimeoutMs,
        everyMs: 500,
        signal: r.signal,
        what: `load pod ${name} in ${this.o.namespace} running`,
        describe: podWaiting,
      });
      if (r.signal.aborted) return { code: null, signal: "SIGTERM" };
      await c
        .stream(`${path}/log?container=load&follow=true`, r.onData, { signal: r.signal })
        .catch((e: Error) => {
          if (!r.signal.aborted) throw e;
        });
      if (r.signal.aborted) return { code: null, signal: "SIGTERM" };
      // the log ends with the container; its status follows within moments
      const pod = await c.waitFor(path, ended, {
        timeoutMs: 60_000,
        everyMs: 250,
        what: `load pod ${name} finished`,
        describe: podWaiting,
      });
      const code = exitCodeOf(pod);
      if (code === undefined)
        throw new RunError(`load pod ${name}: ended (${podWaiting(pod)}) without an exit code`);
      return { code, signal: null };
    } finally {
      this.current = undefined;
      // the step's pod goes with it (stopped at once when the step was stopped); one the API
      // would not delete now goes with the run's namespace at teardown, so the step's own
      // outcome stands
      await c.remove(`${path}?gracePeriodSeconds=${r.signal.aborted ? 1 : 0}`).catch(() => undefined);
    }
  }
}
