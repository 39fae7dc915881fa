// An ephemeral cluster for one run: the run's key pair, the stack `up` (the cloud's program), the
// machines' addresses as the hosts of a tidb-cluster target, a wait until every machine finished
// preparing itself, and destroy at the end — recorded in the ledger so that a killed run's stack is
// recovered by the Action's post step or `tiperf reap`.
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { inherited, setting } from "../environment.ts";
import { RunError } from "../errors.ts";
import { type LedgerEntry, record } from "../lifecycle/ledger.ts";
import { runCommand } from "../proc/process.ts";
import { shellCommand } from "../proc/quote.ts";
import { type RemoteHost, sshArgs } from "../proc/ssh.ts";
import { generateRunKey, writePrivateKey } from "./keys.ts";
import type { ClusterHosts } from "./plan.ts";
import type { CloudMachine, CloudSettings, ClusterAsk, KubernetesCloudSettings } from "./provider.ts";
import { cloudOf, KUBERNETES_CLOUDS } from "./registry.ts";
import { CloudStack, type StackOptions } from "./stack.ts";
import { runTags, tagsOf } from "./tags.ts";

export interface CloudCluster {
  hosts: ClusterHosts;
  machines: CloudMachine[];
  /** The machines' login user (the image's). */
  user: string;
  stackName: string;
  /** When `up` began and, once destroyed, when destroy ended (ms since the epoch). */
  startedAt: number;
  endedAt?: number;
  /** Destroys the stack (idempotent) and forgets its ledger entry. */
  destroy(): Promise<void>;
}

/** The pull request a GitHub run is for (refs/pull/N/merge), else undefined. */
export function pullRequest(env: NodeJS.ProcessEnv = inherited()): string | undefined {
  return /^refs\/pull\/(\d+)\//.exec(env.GITHUB_REF ?? "")?.[1];
}

/**
 * tiperf-<profile>-<scope>[-shard<K>]: one stack per profile and pull request (pr123), branch or
 * tag, or local run, and per shard K of a comparison spread over runners (each runner's cluster
 * its own). A shared s3:// backend finds there the stack a crashed run of the same scope left.
 */
export function stackName(
  profile: { name: string },
  shard: number | undefined,
  env: NodeJS.ProcessEnv = inherited(),
): string {
  const pr = pullRequest(env);
  const scope = pr
    ? `pr${pr}`
    : (env.GITHUB_REF_NAME ?? "local")
        .toLowerCase()
        .replace(/[^a-z0-9-]+/g, "-")
        .replace(/^-+|-+$/g, "")
        .slice(0, 40) || "local";
  return `tiperf-${profile.name}-${scope}${shard ? `-shard${shard}` : ""}`;
}

/** The ledger's record of a stack: enough to recover it without the run that made it. */
export interface StackRecord {
  name: string;
  backend: string;
  workDir: string;
  provider: string;
  /** "kubernetes": a cluster of KUBERNETES_CLOUDS (absent: machines of CLOUDS). */
  capability?: "kubernetes";
  runId: string;
  /** The cloud's settings section. */
  settings?: CloudSettings | KubernetesCloudSettings;
  /** Written by earlier versions in place of settings. */
  aws?: CloudSettings;
  /**
   * Local records of what was deployed onto the machines (tiup's $TIUP_HOME/storage/cluster/clusters/<name>),
   * removed with them: a destroy through them would only time out once the machines are gone.
   */
  forget: string[];
}

export const stackOptions = (
  s: StackRecord,
  log: (line: string) => void,
  program: StackOptions["program"],
): StackOptions => {
  const kind = s.capability === "kubernetes" ? KUBERNETES_CLOUDS[s.provider] : cloudOf(s.provider);
  if (!kind) throw new RunError(`stack ${s.name}: no ${s.capability ?? "machine"} cloud ${s.provider}`);
  const settings = (s.settings ?? s.aws) as CloudSettings;
  return {
    stack: s.name,
    backend: s.backend,
    workDir: s.workDir,
    runId: s.runId,
    program,
    removeByTag: (runId: string) => kind.removeByTag(settings, runId, log),
    env: kind.env(settings),
    log,
  };
};

/** The tags of a run starting now: its id, expiry, repository and pull request (from GitHub's environment). */
export function tagsNow(settings: { ttl: string }, runId: string): Record<string, string> {
  const pr = pullRequest();
  return tagsOf(
    runTags(settings, {
      runId,
      ...(setting("GITHUB_REPOSITORY") ? { repository: setting("GITHUB_REPOSITORY") } : {}),
      ...(pr ? { pr } : {}),
    }),
  );
}

/** A stack's record: its name, backend (the settings', else <dir>/state) and workspace under <dir>. */
export function stackRecord(o: {
  ask: { name: string; settings: { backend?: string } };
  dir: string;
  provider: string;
  capability?: "kubernetes";
  runId: string;
  /** The run's shard of a comparison spread over runners (K of K/N): a stack of its own. */
  shard?: number;
  forget: string[];
}): StackRecord {
  return {
    name: stackName(o.ask, o.shard),
    backend: o.ask.settings.backend ?? `file://${join(o.dir, "state")}`,
    workDir: join(o.dir, "workspace"),
    provider: o.provider,
    ...(o.capability ? { capability: o.capability } : {}),
    runId: o.runId,
    settings: o.ask.settings as CloudSettings | KubernetesCloudSettings,
    forget: o.forget,
  };
}

/** The stack in the ledger until it is destroyed; the returned function forgets it (a ledger that cannot be written loses nothing else). */
export function recordStack(rec: StackRecord): Promise<() => Promise<void>> {
  return record({ resource: "stack", what: `stack ${rec.name}`, path: rec.workDir, stack: rec }).catch(
    () => async () => {},
  );
}

/** Creates the cluster's machines and waits until each is ready; on any failure destroys them. */
export async function provisionCluster(o: {
  /** The cloud's name (a profile's provider). */
  provider: string;
  ask: ClusterAsk;
  runId: string;
  runDir: string;
  /** Local records of what will be deployed onto the machines, removed when they are destroyed. */
  forget: string[];
  /** The run's shard (K of K/N), if it is one. */
  shard?: number;
  log: (line: string) => void;
  signal: AbortSignal;
}): Promise<CloudCluster> {
  const { ask, log } = o;
  const kind = cloudOf(o.provider);
  const settings = ask.settings;
  const dir = join(o.runDir, "cloud");
  await mkdir(dir, { recursive: true });
  const key = generateRunKey(`tiperf-${o.runId}`);
  const identityFile = join(dir, "id_rsa");
  await writePrivateKey(identityFile, key);
  const sshCidr = await kind.runnerCidr(settings);
  const tags = tagsNow(settings, o.runId);
  const rec = stackRecord({
    ask,
    dir,
    provider: o.provider,
    runId: o.runId,
    forget: o.forget,
    ...(o.shard ? { shard: o.shard } : {}),
  });
  log(
    `cloud: ${o.provider} ${settings.region}: stack ${rec.name}, SSH admitted from ${sshCidr}, expires ${tags["tiperf:expires-at"]}`,
  );
  const forget = await recordStack(rec);
  const startedAt = Date.now();
  const program = await kind.program({ ask, tags, sshCidr, publicKey: key.publicKey });
  let stack: CloudStack | undefined;
  const cluster: CloudCluster = {
    hosts: { hosts: {}, bastion: "", identityFile },
    machines: [],
    user: settings.ssh_user,
    stackName: rec.name,
    startedAt,
    destroy: async () => {
      await stack?.destroy();
      await forgetRecords(rec.forget);
      cluster.endedAt ??= Date.now();
      await forget();
    },
  };
  try {
    stack = await CloudStack.open(stackOptions(rec, log, program));
    const outputs = await stack.up(o.signal);
    cluster.machines = machinesFromOutputs(outputs);
    cluster.hosts = hostsOf(cluster.machines, identityFile);
    log(
      `cloud: ${cluster.machines.length} machines: ${cluster.machines.map((m) => `${m.name} ${m.privateIp}`).join(", ")}; bastion (load host) ${cluster.hosts.bastion}`,
    );
    await waitReady(cluster, kind.ready, join(dir, "known_hosts"), o.signal, log);
  } catch (e) {
    await cluster.destroy().catch((err: Error) => log(`teardown: ${err.message}`));
    throw e;
  }
  return cluster;
}

/** The `machines` output of a cloud program, checked. */
export function machinesFromOutputs(outputs: Record<string, unknown>): CloudMachine[] {
  const list = outputs.machines;
  const ok = (m: unknown): m is CloudMachine => {
    const x = m as Record<string, unknown>;
    return (
      Boolean(x) &&
      ["name", "role", "privateIp", "publicIp", "id"].every((k) => typeof x[k] === "string" && x[k] !== "")
    );
  };
  if (!Array.isArray(list) || list.length === 0 || !list.every(ok))
    throw new RunError(
      `cloud: the stack's output "machines" is not a list of {name, role, privateIp, publicIp, id}: ${JSON.stringify(list)?.slice(0, 300)}`,
    );
  return list;
}

/** Private addresses per role; the load host's public address is the bastion. */
export function hostsOf(machines: CloudMachine[], identityFile: string): ClusterHosts {
  const hosts: Record<string, string[]> = {};
  for (const m of machines) hosts[m.role] = [...(hosts[m.role] ?? []), m.privateIp];
  const load = machines.find((m) => m.role === "load");
  if (!load)
    throw new RunError(
      "cloud: the stack created no load host (role load): nothing to reach the cluster through",
    );
  return {
    hosts,
    bastion: load.publicIp,
    identityFile,
    ...(load.sshPort ? { sshPort: load.sshPort } : {}),
  };
}

/** How the runner reaches each machine: the load host directly, the others through it. */
export function remoteOf(
  m: CloudMachine,
  c: { hosts: ClusterHosts; machines: CloudMachine[] },
  user: string,
  knownHosts: string,
): RemoteHost {
  const load = c.machines.find((x) => x.role === "load") as CloudMachine;
  const bastion: RemoteHost = {
    host: load.publicIp,
    port: load.sshPort ?? 22,
    user,
    identity: c.hosts.identityFile,
    knownHosts,
  };
  if (m === load) return bastion;
  return {
    host: m.privateIp,
    port: m.sshPort ?? 22,
    user,
    identity: c.hosts.identityFile,
    knownHosts,
    jump: bastion,
  };
}

/** The machines boot, then run their user data: polls each (bounded) until `ready` succeeds. */
async function waitReady(
  c: CloudCluster,
  ready: (m: CloudMachine) => string[],
  knownHosts: string,
  signal: AbortSignal,
  log: (line: string) => void,
  limitMs = 20 * 60_000,
): Promise<void> {
  const started = Date.now();
  const user = c.user;
  for (const m of [...c.machines].sort((a, b) => (a.role === "load" ? -1 : b.role === "load" ? 1 : 0))) {
    const remote = remoteOf(m, c, user, knownHosts);
    let last = "";
    for (;;) {
      if (signal.aborted) throw new RunError(`cloud: stopped while waiting for ${m.name}`);
      const r = await runCommand("ssh", sshArgs(remote, shellCommand(ready(m))), { timeoutMs: 60_000 });
      if (r.code === 0) break;
      last = (r.stderr || r.stdout).trim().split("\n").slice(-1)[0] ?? `exit ${r.code}`;
      if (Date.now() - started > limitMs)
        throw new RunError(
          `cloud: ${m.name} (${m.privateIp}) was not ready within ${limitMs / 60_000} min (\`${shellCommand(ready(m))}\` over SSH: ${last || `exit ${r.code}`})`,
        );
      await new Promise((res) => setTimeout(res, 5000));
    }
  }
  log(`cloud: every machine ready ${Math.round((Date.now() - started) / 1000)}s after up`);
}

async function forgetRecords(paths: string[] = []): Promise<void> {
  for (const path of paths) await rm(path, { recursive: true, force: true });
}

/** `tiperf reap` and the post step: recovers the stack of a ledger entry whose run died. */
export async function recoverRecorded(e: LedgerEntry, log: (line: string) => void): Promise<boolean> {
  const s = e.stack as StackRecord;
  // recovery never runs the program (refresh, destroy and remove work on the state)
  const recovered = await CloudStack.recoverLeft(stackOptions(s, log, async () => ({})));
  await forgetRecords(s.forget);
  return recovered;
}
