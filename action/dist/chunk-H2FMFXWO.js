#!/usr/bin/env node
import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path';
const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);
import {
  findTool,
  holdGrace,
  onTeardown,
  record,
  runCommand,
  shellCommand,
  sshArgs
} from "./chunk-GYLYMR6W.js";
import {
  sweepRun
} from "./chunk-7N3WP33W.js";
import {
  runTags,
  tagsOf
} from "./chunk-C43YTSSF.js";
import {
  RunError
} from "./chunk-KZLFUJ4J.js";

// action/src/cloud/provision.ts
import { mkdir as mkdir2, rm } from "node:fs/promises";
import { join as join2 } from "node:path";

// action/src/cloud/keys.ts
import { generateKeyPairSync } from "node:crypto";
import { writeFile } from "node:fs/promises";
function wire(bytes) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(bytes.length);
  return Buffer.concat([len, bytes]);
}
function mpint(b64url) {
  let bytes = Buffer.from(b64url, "base64url");
  if ((bytes[0] ?? 0) & 128) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return wire(bytes);
}
function generateRunKey(comment) {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 3072 });
  const jwk = publicKey.export({ format: "jwk" });
  const blob = Buffer.concat([wire(Buffer.from("ssh-rsa")), mpint(jwk.e), mpint(jwk.n)]);
  return {
    publicKey: `ssh-rsa ${blob.toString("base64")} ${comment}`,
    privateKey: privateKey.export({ format: "pem", type: "pkcs1" }).toString()
  };
}
async function writePrivateKey(file, key) {
  await writeFile(file, key.privateKey, { mode: 384, flag: "wx" });
}

// action/src/cloud/aws/index.ts
var CHECK_IP = "https://checkip.amazonaws.com";
var AWS_CLOUD = {
  async program(o) {
    const { awsClusterProgram } = await import("./chunk-E646XMSP.js");
    return awsClusterProgram(o);
  },
  sweep(profile, runId, log) {
    const region = profile.aws?.region;
    if (!region) return Promise.resolve([]);
    return sweepRun({ region, runId, log });
  },
  env(profile) {
    return profile.aws ? { AWS_REGION: profile.aws.region } : {};
  },
  async runnerCidr(profile) {
    if (profile.aws?.ssh_cidr) return profile.aws.ssh_cidr;
    let text;
    try {
      const res = await fetch(CHECK_IP, { signal: AbortSignal.timeout(1e4) });
      text = (await res.text()).trim();
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
    } catch (e) {
      throw new RunError(
        `cannot learn this runner's public address from ${CHECK_IP} (${e.message}): set aws.ssh_cidr in the profile (the address SSH comes from, like 203.0.113.7/32)`
      );
    }
    if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(text))
      throw new RunError(
        `${CHECK_IP} answered ${JSON.stringify(text.slice(0, 60))}, not an IPv4 address: set aws.ssh_cidr in the profile`
      );
    return `${text}/32`;
  },
  ready: () => ["test", "-e", "/var/lib/tiperf-ready"]
};

// action/src/cloud/kinds.ts
var CLOUDS = {
  aws: AWS_CLOUD
};
function cloudOf(provider) {
  const kind = CLOUDS[provider];
  if (!kind) throw new Error(`no cloud ${provider} (clouds: ${Object.keys(CLOUDS).join(", ")})`);
  return kind;
}

// action/src/cloud/stack.ts
import { existsSync, readdirSync, rmSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
var automation;
var loadAutomation = () => {
  automation ??= import("@pulumi/pulumi/automation/index.js").then(
    (m) => m.default ?? m
  );
  return automation;
};
var PROJECT = "tiperf";
var STACK_GRACE_MS = 15 * 6e4;
function pulumiBinary() {
  const fromEnv = process.env.TIPERF_PULUMI;
  if (fromEnv) return fromEnv;
  const onPath = findTool("pulumi");
  if (onPath) return onPath;
  const tools = resolve(".tools/bin/pulumi");
  if (existsSync(tools)) return tools;
  throw new RunError(
    "the Pulumi CLI is not installed: install it (pulumi.com/docs/install) or run scripts/setup.sh --test, which builds it into .tools/bin"
  );
}
async function dynamicProviderPlugin(dir) {
  const { writeFile: writeFile2 } = await import("node:fs/promises");
  const entry = fileURLToPath(import.meta.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js"));
  await mkdir(dir, { recursive: true });
  const file = join(dir, "pulumi-resource-pulumi-nodejs");
  await writeFile2(
    file,
    `#!/bin/sh
exec ${JSON.stringify(process.execPath)} ${JSON.stringify(entry)} "$@"
`,
    {
      mode: 493
    }
  );
  return dir;
}
function valuesOf(doc, key, out = /* @__PURE__ */ new Set()) {
  if (Array.isArray(doc)) for (const x of doc) valuesOf(x, key, out);
  else if (doc && typeof doc === "object")
    for (const [k, v] of Object.entries(doc)) {
      if (k === key && typeof v === "string") out.add(v);
      else valuesOf(v, key, out);
    }
  else if (typeof doc === "string" && doc.includes(key) && doc.startsWith("{"))
    try {
      valuesOf(JSON.parse(doc), key, out);
    } catch {
    }
  return out;
}
var CloudStack = class _CloudStack {
  constructor(o, stack) {
    this.o = o;
    this.stack = stack;
  }
  o;
  stack;
  unregister = () => {
  };
  destroyed = false;
  releaseGrace;
  destroying;
  /** Creates or selects the stack; a stack a crashed run left behind is recovered first. */
  static async open(o) {
    const s = await _CloudStack.select(o);
    return await s.recoverIfLeft() ? _CloudStack.select(o) : s;
  }
  /**
   * Recovers the stack if an earlier run left resources, pending operations or a lock in it
   * (the stack is removed); says whether there was anything to recover.
   */
  static async recoverLeft(o) {
    return (await _CloudStack.select(o)).recoverIfLeft();
  }
  async recoverIfLeft() {
    const left = await this.state();
    const locked = this.locked();
    if (left.resources === 0 && left.pendingOperations === 0 && !locked) return false;
    this.o.log(
      `cloud: stack ${this.o.stack} was left by an earlier run (${left.resources} resources, ${left.pendingOperations} pending operations${locked ? ", locked" : ""}): recovering it`
    );
    await this.recover();
    return true;
  }
  static async select(o) {
    const auto = await loadAutomation();
    await mkdir(o.workDir, { recursive: true });
    if (o.backend.startsWith("file://")) await mkdir(o.backend.slice("file://".length), { recursive: true });
    const binary = pulumiBinary();
    const pulumiCommand = await auto.PulumiCommand.get({
      root: dirname(dirname(binary)),
      skipVersionCheck: true
    });
    const plugins = await dynamicProviderPlugin(join(o.workDir, "bin"));
    const envVars = {
      // tiperf keeps no secrets in a stack; the passphrase only satisfies the file backend
      PULUMI_CONFIG_PASSPHRASE: process.env.PULUMI_CONFIG_PASSPHRASE ?? "tiperf",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_HOME: process.env.PULUMI_HOME ?? join(o.workDir, "pulumi-home"),
      PATH: `${plugins}:${dirname(binary)}:${process.env.PATH ?? ""}`,
      ...o.env ?? {}
    };
    const stack = await auto.LocalWorkspace.createOrSelectStack(
      { stackName: o.stack, projectName: PROJECT, program: o.program },
      {
        workDir: o.workDir,
        pulumiCommand,
        envVars,
        projectSettings: { name: PROJECT, runtime: "nodejs", backend: { url: o.backend } }
      }
    );
    return new _CloudStack(o, stack);
  }
  /** What the stack's state holds: resources, pending operations, the run ids in its tags. */
  async state() {
    const d = (await this.stack.exportStack()).deployment;
    const resources = (d.resources ?? []).filter(
      (r) => !String(r.type).startsWith("pulumi:")
    ).length;
    return {
      resources,
      pendingOperations: (d.pending_operations ?? []).length,
      runIds: [...valuesOf(d, "tiperf:run-id")]
    };
  }
  /** The lock files of a file:// backend (a killed `pulumi up` leaves its lock). */
  lockDir() {
    if (!this.o.backend.startsWith("file://")) return void 0;
    return join(
      this.o.backend.slice("file://".length),
      ".pulumi",
      "locks",
      "organization",
      PROJECT,
      this.o.stack
    );
  }
  locked() {
    const dir = this.lockDir();
    return Boolean(dir && existsSync(dir) && readdirSync(dir).length > 0);
  }
  /** Creates the cluster; the teardown destroys it from here on, even if `up` fails half-way. */
  async up(signal) {
    this.unregister = onTeardown(`destroy the cloud stack ${this.o.stack}`, () => this.destroy());
    this.releaseGrace ??= holdGrace(STACK_GRACE_MS);
    const started = Date.now();
    this.o.log(`cloud: pulumi up ${this.o.stack} (backend ${this.o.backend})`);
    try {
      const r = await this.stack.up({
        onOutput: (text) => this.progress(text),
        ...signal ? { signal } : {}
      });
      const outputs = Object.fromEntries(Object.entries(r.outputs).map(([k, v]) => [k, v.value]));
      this.o.log(`cloud: up done in ${Math.round((Date.now() - started) / 1e3)}s`);
      return outputs;
    } catch (e) {
      throw new RunError(`cloud: pulumi up ${this.o.stack} failed: ${lastLines(e.message)}`);
    }
  }
  progress(text) {
    for (const line of text.split("\n")) if (line.trim()) this.o.log(`  pulumi: ${line.trimEnd()}`);
  }
  /** Destroys every resource and removes the stack; a second call (even a concurrent one) does nothing more. */
  destroy() {
    this.destroying ??= this.destroyOnce().finally(() => this.releaseGrace?.());
    return this.destroying;
  }
  async destroyOnce() {
    if (this.destroyed) return;
    this.unregister();
    this.o.log(`cloud: pulumi destroy ${this.o.stack}`);
    try {
      await this.stack.destroy({ continueOnError: true, onOutput: (t) => this.progress(t) });
    } catch (e) {
      this.o.log(`cloud: destroy failed (${lastLines(e.message)}): recovering`);
      await this.recover([this.o.runId]);
      this.destroyed = true;
      return;
    }
    await this.sweep([this.o.runId]);
    await this.stack.workspace.removeStack(this.o.stack, { force: true });
    this.destroyed = true;
    this.o.log(`cloud: stack ${this.o.stack} destroyed and removed`);
  }
  /** Removes by tag whatever of these runs still exists (the provider's sweep), and says what. */
  async sweep(runIds) {
    if (!this.o.sweep) return;
    for (const runId of runIds) {
      const gone = await this.o.sweep(runId);
      if (gone.length) this.o.log(`cloud: swept by tag tiperf:run-id=${runId}: ${gone.join(", ")}`);
    }
  }
  /**
   * Recovery of a stack whose run died: cancel the lock → refresh clearing pending creates →
   * destroy going on past errors → sweep by tag what the state never knew → remove the stack.
   * Each step goes on when the one before fails; the sweep is what makes that safe.
   */
  async recover(alsoRunIds = []) {
    const inState = (await this.state().catch(() => ({ runIds: [] }))).runIds;
    const runIds = [.../* @__PURE__ */ new Set([...inState, ...alsoRunIds])];
    const step = async (what, fn) => {
      try {
        await fn();
        this.o.log(`cloud: recovery: ${what}: done`);
      } catch (e) {
        this.o.log(`cloud: recovery: ${what}: ${lastLines(e.message)}`);
      }
    };
    await step("cancel the lock", async () => {
      const dir = this.lockDir();
      if (dir) {
        const n = existsSync(dir) ? readdirSync(dir).length : 0;
        rmSync(dir, { recursive: true, force: true });
        this.o.log(`cloud: recovery: removed ${n} lock file(s) of ${this.o.stack}`);
      } else await this.stack.cancel();
    });
    await step(
      "refresh, clearing pending creates",
      () => this.stack.refresh({ clearPendingCreates: true, onOutput: (t) => this.progress(t) })
    );
    await step(
      "destroy, going on past errors",
      () => this.stack.destroy({ continueOnError: true, onOutput: (t) => this.progress(t) })
    );
    await step(
      `tag sweep of tiperf:run-id ${runIds.join(", ") || "(none in the state)"}`,
      () => this.sweep(runIds)
    );
    await step("remove the stack", () => this.stack.workspace.removeStack(this.o.stack, { force: true }));
  }
};
function lastLines(text, n = 8) {
  return text.trim().split("\n").slice(-n).join("\n");
}

// action/src/cloud/provision.ts
function pullRequest(env = process.env) {
  return /^refs\/pull\/(\d+)\//.exec(env.GITHUB_REF ?? "")?.[1];
}
function stackName(profile, env = process.env) {
  const pr = pullRequest(env);
  const scope = pr ? `pr${pr}` : (env.GITHUB_REF_NAME ?? "local").toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40) || "local";
  return `tiperf-${profile.name}-${scope}`;
}
var stackOptions = (s, log, program) => {
  const kind = cloudOf(s.provider);
  return {
    stack: s.name,
    backend: s.backend,
    workDir: s.workDir,
    runId: s.runId,
    program,
    sweep: (runId) => kind.sweep({ aws: s.aws }, runId, log),
    env: kind.env({ aws: s.aws }),
    log
  };
};
async function provisionCluster(o) {
  const { profile, log } = o;
  const kind = cloudOf(profile.provider);
  const aws = profile.aws;
  if (!aws) throw new RunError(`profile ${profile.name}: provider ${profile.provider} needs its settings`);
  const dir = join2(o.runDir, "cloud");
  await mkdir2(dir, { recursive: true });
  const key = generateRunKey(`tiperf-${o.runId}`);
  const identityFile = join2(dir, "id_rsa");
  await writePrivateKey(identityFile, key);
  const sshCidr = await kind.runnerCidr(profile);
  const pr = pullRequest();
  const tags = tagsOf(
    runTags(aws, {
      runId: o.runId,
      ...process.env.GITHUB_REPOSITORY ? { repository: process.env.GITHUB_REPOSITORY } : {},
      ...pr ? { pr } : {}
    })
  );
  const rec = {
    name: stackName(profile),
    backend: aws.backend ?? `file://${join2(dir, "state")}`,
    workDir: join2(dir, "workspace"),
    provider: profile.provider,
    runId: o.runId,
    aws,
    tiupClusters: o.tiupClusters
  };
  log(
    `cloud: ${profile.provider} ${aws.region}: stack ${rec.name}, SSH admitted from ${sshCidr}, expires ${tags["tiperf:expires-at"]}`
  );
  const forget = await record({
    kind: "stack",
    what: `stack ${rec.name}`,
    path: rec.workDir,
    stack: rec
  }).catch(() => async () => {
  });
  const startedAt = Date.now();
  const program = await kind.program({ profile, tags, sshCidr, publicKey: key.publicKey });
  let stack;
  const cluster = {
    hosts: { hosts: {}, bastion: "", identityFile },
    machines: [],
    user: aws.ssh_user,
    stackName: rec.name,
    startedAt,
    destroy: async () => {
      await stack?.destroy();
      await forgetTiup(o.tiupHome, rec.tiupClusters);
      cluster.endedAt ??= Date.now();
      await forget();
    }
  };
  try {
    stack = await CloudStack.open(stackOptions(rec, log, program));
    const outputs = await stack.up(o.signal);
    cluster.machines = machinesOf(outputs);
    cluster.hosts = hostsOf(cluster.machines, identityFile);
    log(
      `cloud: ${cluster.machines.length} machines: ${cluster.machines.map((m) => `${m.name} ${m.privateIp}`).join(", ")}; bastion (load host) ${cluster.hosts.bastion}`
    );
    await waitReady(cluster, kind.ready, join2(dir, "known_hosts"), o.signal, log);
  } catch (e) {
    await cluster.destroy().catch((err) => log(`teardown: ${err.message}`));
    throw e;
  }
  return cluster;
}
function machinesOf(outputs) {
  const list = outputs.machines;
  const ok = (m) => {
    const x = m;
    return Boolean(x) && ["name", "role", "privateIp", "publicIp", "id"].every((k) => typeof x[k] === "string" && x[k] !== "");
  };
  if (!Array.isArray(list) || list.length === 0 || !list.every(ok))
    throw new RunError(
      `cloud: the stack's output "machines" is not a list of {name, role, privateIp, publicIp, id}: ${JSON.stringify(list)?.slice(0, 300)}`
    );
  return list;
}
function hostsOf(machines, identityFile) {
  const hosts = {};
  for (const m of machines) hosts[m.role] = [...hosts[m.role] ?? [], m.privateIp];
  const load = machines.find((m) => m.role === "load");
  if (!load)
    throw new RunError(
      "cloud: the stack created no load host (role load): nothing to reach the cluster through"
    );
  return {
    hosts,
    bastion: load.publicIp,
    identityFile,
    ...load.sshPort ? { sshPort: load.sshPort } : {}
  };
}
function remoteOf(m, c, user, knownHosts) {
  const load = c.machines.find((x) => x.role === "load");
  const bastion = {
    host: load.publicIp,
    port: load.sshPort ?? 22,
    user,
    identity: c.hosts.identityFile,
    knownHosts
  };
  if (m === load) return bastion;
  return {
    host: m.privateIp,
    port: m.sshPort ?? 22,
    user,
    identity: c.hosts.identityFile,
    knownHosts,
    jump: bastion
  };
}
async function waitReady(c, ready, knownHosts, signal, log, limitMs = 20 * 6e4) {
  const started = Date.now();
  const user = c.user;
  for (const m of [...c.machines].sort((a, b) => a.role === "load" ? -1 : b.role === "load" ? 1 : 0)) {
    const remote = remoteOf(m, c, user, knownHosts);
    let last = "";
    for (; ; ) {
      if (signal.aborted) throw new RunError(`cloud: stopped while waiting for ${m.name}`);
      const r = await runCommand("ssh", sshArgs(remote, shellCommand(ready(m))), { timeoutMs: 6e4 });
      if (r.code === 0) break;
      last = (r.stderr || r.stdout).trim().split("\n").slice(-1)[0] ?? `exit ${r.code}`;
      if (Date.now() - started > limitMs)
        throw new RunError(
          `cloud: ${m.name} (${m.privateIp}) was not ready within ${limitMs / 6e4} min (\`${shellCommand(ready(m))}\` over SSH: ${last || `exit ${r.code}`})`
        );
      await new Promise((res) => setTimeout(res, 5e3));
    }
  }
  log(`cloud: every machine ready ${Math.round((Date.now() - started) / 1e3)}s after up`);
}
async function forgetTiup(tiupHome, names) {
  for (const name of names)
    await rm(join2(tiupHome, "storage", "cluster", "clusters", name), { recursive: true, force: true });
}
async function recoverRecorded(e, tiupHome, log) {
  const s = e.stack;
  const recovered = await CloudStack.recoverLeft(stackOptions(s, log, async () => ({})));
  await forgetTiup(tiupHome, s.tiupClusters);
  return recovered;
}

export {
  pullRequest,
  stackName,
  provisionCluster,
  machinesOf,
  hostsOf,
  remoteOf,
  recoverRecorded
};
