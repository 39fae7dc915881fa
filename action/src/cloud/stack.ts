// The life of one ephemeral cluster as a Pulumi stack, driven by the Automation API with an inline
// program: up (progress in the log) → the run → destroy, whatever happens. Destroy is registered
// with the teardown (success, failure, cancel, SIGINT/SIGTERM) the moment the stack exists, so a
// failed `up` destroys what it did create. A stack left by a crashed run is recovered in order:
// cancel its lock → refresh, clearing pending creates → destroy, going on past errors → the tag
// sweep (what the state never recorded) → remove the stack.
import { existsSync, readdirSync, rmSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { setting } from "../environment.ts";
import { RunError } from "../errors.ts";
import { holdGrace, onTeardown } from "../lifecycle/teardown.ts";
import { findTool } from "../proc/env.ts";
import { withPulumi } from "./infra.ts";

// The Automation API is loaded on first use: runs without a cloud profile never load Pulumi.
type Automation = typeof import("@pulumi/pulumi/automation/index.js");
type Stack = import("@pulumi/pulumi/automation/index.js").Stack;
type PulumiFn = import("@pulumi/pulumi/automation/index.js").PulumiFn;

let automation: Promise<Automation> | undefined;
const loadAutomation = () => {
  automation ??= withPulumi(import("@pulumi/pulumi/automation/index.js")).then(
    (m) => ((m as { default?: Automation }).default ?? m) as Automation,
  );
  return automation;
};

export const PROJECT = "tiperf";

/** How long a signal's teardown waits for a stack's cancelled `up` and its destroy (bounded). */
export const STACK_GRACE_MS = 15 * 60_000;

export interface StackOptions {
  /** The stack's name in the backend (tiperf-<profile>-<scope>). */
  stack: string;
  /** file:///… or s3://…; a file:// folder is created if missing. */
  backend: string;
  /** The workspace folder (Pulumi.yaml, the stack's settings): under the run directory. */
  workDir: string;
  program: PulumiFn;
  /** This run's id: its resources carry it as the tag tiperf:run-id. */
  runId: string;
  /** Removes, by tag, everything of a run id the state does not know (the recovery's tag sweep). */
  removeByTag?: (runId: string) => Promise<string[]>;
  /** Extra environment of the Pulumi CLI (AWS_REGION, credentials come from the environment). */
  env?: Record<string, string>;
  log: (line: string) => void;
}

/** The Pulumi CLI tiperf drives: $TIPERF_PULUMI, else `pulumi` on PATH, else .tools/bin/pulumi. */
export function pulumiBinary(): string {
  const fromEnv = setting("TIPERF_PULUMI");
  if (fromEnv) return fromEnv;
  const onPath = findTool("pulumi");
  if (onPath) return onPath;
  const tools = resolve(".tools/bin/pulumi");
  if (existsSync(tools)) return tools;
  throw new RunError(
    "the Pulumi CLI is not installed: install it (pulumi.com/docs/install) or run scripts/setup.sh --test, which builds it into .tools/bin",
  );
}

/**
 * Node dynamic providers run as the plugin `pulumi-resource-pulumi-nodejs`, a small script the
 * Pulumi distribution carries: a copy beside the run, pointing at this checkout's @pulumi/pulumi.
 */
async function dynamicProviderPlugin(dir: string): Promise<string> {
  const { writeFile } = await import("node:fs/promises");
  const entry = fileURLToPath(import.meta.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js"));
  await mkdir(dir, { recursive: true });
  const file = join(dir, "pulumi-resource-pulumi-nodejs");
  await writeFile(
    file,
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(entry)} "$@"\n`,
    {
      mode: 0o755,
    },
  );
  return dir;
}

/** Every value under a key named `key` anywhere in a JSON document (the run id in a state). */
function valuesOf(doc: unknown, key: string, out = new Set<string>()): Set<string> {
  if (Array.isArray(doc)) for (const x of doc) valuesOf(x, key, out);
  else if (doc && typeof doc === "object")
    for (const [k, v] of Object.entries(doc)) {
      if (k === key && typeof v === "string") out.add(v);
      else valuesOf(v, key, out);
    }
  else if (typeof doc === "string" && doc.includes(key) && doc.startsWith("{"))
    // a provider's inputs (default tags) are kept as JSON text
    try {
      valuesOf(JSON.parse(doc), key, out);
    } catch {}
  return out;
}

export interface StackState {
  resources: number;
  pendingOperations: number;
  runIds: string[];
}

export class CloudStack {
  private unregister: () => void = () => {};
  private destroyed = false;
  private releaseGrace: (() => void) | undefined;
  private destroying: Promise<void> | undefined;

  private constructor(
    readonly o: StackOptions,
    private readonly stack: Stack,
  ) {}

  /** Creates or selects the stack; a stack a crashed run left behind is recovered first. */
  static async open(o: StackOptions): Promise<CloudStack> {
    const s = await CloudStack.select(o);
    return (await s.recoverIfLeft()) ? CloudStack.select(o) : s;
  }

  /**
   * Recovers the stack if an earlier run left resources, pending operations or a lock in it
   * (the stack is removed); says whether there was anything to recover.
   */
  static async recoverLeft(o: StackOptions): Promise<boolean> {
    return (await CloudStack.select(o)).recoverIfLeft();
  }

  private async recoverIfLeft(): Promise<boolean> {
    const left = await this.state();
    const locked = this.locked();
    if (left.resources === 0 && left.pendingOperations === 0 && !locked) return false;
    this.o.log(
      `cloud: stack ${this.o.stack} was left by an earlier run (${left.resources} resources, ${left.pendingOperations} pending operations${locked ? ", locked" : ""}): recovering it`,
    );
    await this.recover();
    return true;
  }

  private static async select(o: StackOptions): Promise<CloudStack> {
    const auto = await loadAutomation();
    await mkdir(o.workDir, { recursive: true });
    if (o.backend.startsWith("file://")) await mkdir(o.backend.slice("file://".length), { recursive: true });
    const binary = pulumiBinary();
    const pulumiCommand = await auto.PulumiCommand.get({
      root: dirname(dirname(binary)),
      skipVersionCheck: true,
    });
    const plugins = await dynamicProviderPlugin(join(o.workDir, "bin"));
    const envVars: Record<string, string> = {
      // tiperf keeps no secrets in a stack; the passphrase only satisfies the file backend
      PULUMI_CONFIG_PASSPHRASE: setting("PULUMI_CONFIG_PASSPHRASE") ?? "tiperf",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_HOME: setting("PULUMI_HOME") ?? join(o.workDir, "pulumi-home"),
      PATH: `${plugins}:${dirname(binary)}:${setting("PATH") ?? ""}`,
      ...(o.env ?? {}),
    };
    const stack = await auto.LocalWorkspace.createOrSelectStack(
      { stackName: o.stack, projectName: PROJECT, program: o.program },
      {
        workDir: o.workDir,
        pulumiCommand,
        envVars,
        projectSettings: { name: PROJECT, runtime: "nodejs", backend: { url: o.backend } },
      },
    );
    return new CloudStack(o, stack);
  }

  /** What the stack's state holds: resources, pending operations, the run ids in its tags. */
  async state(): Promise<StackState> {
    const d = (await this.stack.exportStack()).deployment as {
      resources?: unknown[];
      pending_operations?: unknown[];
    };
    const resources = (d.resources ?? []).filter(
      (r) => !String((r as { type?: string }).type).startsWith("pulumi:"),
    ).length;
    return {
      resources,
      pendingOperations: (d.pending_operations ?? []).length,
      runIds: [...valuesOf(d, "tiperf:run-id")],
    };
  }

  /** The lock files of a file:// backend (a killed `pulumi up` leaves its lock). */
  private lockDir(): string | undefined {
    if (!this.o.backend.startsWith("file://")) return undefined;
    return join(
      this.o.backend.slice("file://".length),
      ".pulumi",
      "locks",
      "organization",
      PROJECT,
      this.o.stack,
    );
  }

  locked(): boolean {
    const dir = this.lockDir();
    return Boolean(dir && existsSync(dir) && readdirSync(dir).length > 0);
  }

  /** Creates the cluster; the teardown destroys it from here on, even if `up` fails half-way. */
  async up(signal?: AbortSignal): Promise<Record<string, unknown>> {
    this.unregister = onTeardown(`destroy the cloud stack ${this.o.stack}`, () => this.destroy());
    // cancelled, Pulumi lets the creates in flight finish (a machine: a minute or more) and then
    // the destroy runs: a signal's teardown waits for both rather than exiting half-way
    this.releaseGrace ??= holdGrace(STACK_GRACE_MS);
    const started = Date.now();
    this.o.log(`cloud: pulumi up ${this.o.stack} (backend ${this.o.backend})`);
    try {
      const r = await this.stack.up({
        onOutput: (text) => this.progress(text),
        ...(signal ? { signal } : {}),
      });
      const outputs = Object.fromEntries(Object.entries(r.outputs).map(([k, v]) => [k, v.value]));
      this.o.log(`cloud: up done in ${Math.round((Date.now() - started) / 1000)}s`);
      return outputs;
    } catch (e) {
      throw new RunError(`cloud: pulumi up ${this.o.stack} failed: ${lastLines((e as Error).message)}`);
    }
  }

  private progress(text: string): void {
    for (const line of text.split("\n")) if (line.trim()) this.o.log(`  pulumi: ${line.trimEnd()}`);
  }

  /** Destroys every resource and removes the stack; a second call (even a concurrent one) does nothing more. */
  destroy(): Promise<void> {
    // the teardown grace is held from `up` until the stack is gone (or its recovery ran)
    this.destroying ??= this.destroyOnce().finally(() => this.releaseGrace?.());
    return this.destroying;
  }

  private async destroyOnce(): Promise<void> {
    if (this.destroyed) return;
    this.unregister();
    this.o.log(`cloud: pulumi destroy ${this.o.stack}`);
    try {
      await this.stack.destroy({ continueOnError: true, onOutput: (t) => this.progress(t) });
    } catch (e) {
      // a destroy that fails (a lock, a half-created resource) goes the recovery's way
      this.o.log(`cloud: destroy failed (${lastLines((e as Error).message)}): recovering`);
      await this.recover([this.o.runId]);
      this.destroyed = true;
      return;
    }
    // a create that failed half-way leaves a resource the state never recorded: sweep by tag
    await this.removeByTag([this.o.runId]);
    await this.stack.workspace.removeStack(this.o.stack, { force: true });
    this.destroyed = true;
    this.o.log(`cloud: stack ${this.o.stack} destroyed and removed`);
  }

  /** Removes by tag whatever of these runs still exists (the provider's sweep), and says what. */
  private async removeByTag(runIds: string[]): Promise<void> {
    if (!this.o.removeByTag) return;
    for (const runId of runIds) {
      const gone = await this.o.removeByTag(runId);
      if (gone.length) this.o.log(`cloud: swept by tag tiperf:run-id=${runId}: ${gone.join(", ")}`);
    }
  }

  /**
   * Recovery of a stack whose run died: cancel the lock → refresh clearing pending creates →
   * destroy going on past errors → sweep by tag what the state never knew → remove the stack.
   * Each step goes on when the one before fails; the sweep is what makes that safe.
   */
  async recover(alsoRunIds: string[] = []): Promise<void> {
    const inState = (await this.state().catch(() => ({ runIds: [] as string[] }))).runIds;
    const runIds = [...new Set([...inState, ...alsoRunIds])];
    const step = async (what: string, fn: () => Promise<unknown>) => {
      try {
        await fn();
        this.o.log(`cloud: recovery: ${what}: done`);
      } catch (e) {
        this.o.log(`cloud: recovery: ${what}: ${lastLines((e as Error).message)}`);
      }
    };
    await step("cancel the lock", async () => {
      const dir = this.lockDir();
      if (dir) {
        // a self-managed backend's lock is a file; `pulumi cancel` is for Pulumi Cloud only
        const n = existsSync(dir) ? readdirSync(dir).length : 0;
        rmSync(dir, { recursive: true, force: true });
        this.o.log(`cloud: recovery: removed ${n} lock file(s) of ${this.o.stack}`);
      } else await this.stack.cancel();
    });
    await step("refresh, clearing pending creates", () =>
      this.stack.refresh({ clearPendingCreates: true, onOutput: (t) => this.progress(t) }),
    );
    await step("destroy, going on past errors", () =>
      this.stack.destroy({ continueOnError: true, onOutput: (t) => this.progress(t) }),
    );
    await step(`tag sweep of tiperf:run-id ${runIds.join(", ") || "(none in the state)"}`, () =>
      this.removeByTag(runIds),
    );
    await step("remove the stack", () => this.stack.workspace.removeStack(this.o.stack, { force: true }));
  }
}

function lastLines(text: string, n = 8): string {
  return text.trim().split("\n").slice(-n).join("\n");
}
