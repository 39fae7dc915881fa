// A tiup cluster carried out: deployed (builds patched in before the first start), HAProxy on the
// load host, variants switched online or by edit-config and a reload, side-by-side clusters stopped
// while another is measured, every instance watched around each cell, its monitoring kept, and
// destroyed at the end.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { RunError } from "../../../../errors.ts";
import { record } from "../../../../lifecycle/ledger.ts";
import { findTool } from "../../../../proc/env.ts";
import { writeAtomic } from "../../../../proc/files.ts";
import { runCommand } from "../../../../proc/process.ts";
import type { RemoteHost } from "../../../../proc/ssh.ts";
import type { Endpoint } from "../../../types.ts";
import { startHaproxy } from "../../haproxy.ts";
import { snapshotMetrics } from "../../metrics.ts";
import { MAIN_PORT } from "../../profile.ts";
import { stepKey } from "../../steps.ts";
import {
  type Display,
  editConfigOutcome,
  editConfigReason,
  notUp,
  parseDisplayJson,
  restarted,
} from "../../tiup-output.ts";
import type { FormRuntime, Restart, RunContext, Running, VariantSetup } from "../types.ts";
import { clusterTidbServers, haproxyPort } from "./endpoints.ts";
import type { ClusterDeployment } from "./types.ts";

/**
 * A cluster's hosts as ssh reaches them (the profile's user and key, through the bastion if any),
 * each with the main ports of the instances on it (tidb 4000, tikv 20160, pd 2379, …).
 */
function serverHosts(ctx: RunContext, d: ClusterDeployment): { remote: RemoteHost; ports: number[] }[] {
  const load = ctx.loadHost();
  if (!load) return [];
  const byHost = new Map<string, number[]>();
  for (const i of d.cluster.instances) {
    const port = i.ports[MAIN_PORT[i.role]];
    if (port !== undefined) byHost.set(i.host, [...(byHost.get(i.host) ?? []), port]);
  }
  return [...byHost].map(([host, ports]) => ({ remote: { ...load, host }, ports }));
}

/**
 * HAProxy on the load host in front of the cluster's TiDB servers (profile haproxy: true): the
 * load tools connect to it; stopping the deployment stops it first.
 */
async function frontWithHaproxy(ctx: RunContext, d: ClusterDeployment, running: Running): Promise<void> {
  const remote = ctx.loadHost();
  if (!ctx.plan.haproxy || !remote) return;
  const haproxy = await startHaproxy({
    remote,
    config: ctx.plan.files[`haproxy-${d.name}.cfg`] as string,
    command: ctx.argv(stepKey.haproxy(d)),
    port: haproxyPort(ctx.plan, d),
    logFile: join(ctx.rawDir, `haproxy-${d.name}.log`),
    log: ctx.log,
  });
  running.endpoints = [haproxy.endpoint];
  const destroy = running.stop;
  running.stop = async () => {
    await haproxy.stop().catch(() => {});
    await destroy();
  };
  ctx.log(
    `HAProxy on ${remote.host}:${haproxy.endpoint.port} in front of ${clusterTidbServers(d).length} TiDB servers`,
  );
}

/** Prometheus's range queries over the run so far, into <run>/monitoring/<cluster>.json; never fatal. */
async function keepMetrics(ctx: RunContext, d: ClusterDeployment): Promise<void> {
  const m = d.cluster.monitoring;
  if (!m) return;
  const file = join(ctx.dir, "..", "monitoring", `${d.name}.json`);
  try {
    const snap = await snapshotMetrics({
      base: `http://${m.host}:${m.prometheus}`,
      start: ctx.startedAt,
      end: new Date(),
      get: (url) => ctx.checks.getJson(url),
    });
    await mkdir(join(ctx.dir, "..", "monitoring"), { recursive: true });
    await writeAtomic(file, `${JSON.stringify(snap, null, 2)}\n`);
    const kept = Object.values(snap.series).filter((x) => x.data).length;
    ctx.log(`monitoring: ${kept} of ${Object.keys(snap.series).length} series of ${d.name} kept in ${file}`);
  } catch (e) {
    ctx.log(`monitoring: the metrics of ${d.name} could not be kept: ${(e as Error).message}`);
  }
}

/**
 * A shared cluster's turn: another cluster stopped and this one started (stop-start), the
 * variant's config applied — the differing items posted as SET CONFIG does, or edit-config and a
 * reload of the differing roles — and read back. `fresh`: restart what a switch would have.
 */
export async function switchCluster(
  ctx: RunContext,
  d: ClusterDeployment,
  setup: VariantSetup,
  r: Running,
  signal: AbortSignal,
  fresh: boolean,
): Promise<string | undefined> {
  const did: string[] = [];
  let restarted = false;
  if (ctx.plan.switching === "stop-start" && !r.up) {
    await stopOtherClusters(ctx, r, signal);
    await ctx.tiupRun(ctx.argv(stepKey.start(d)), `start ${d.name}`, signal);
    r.up = true;
    restarted = true;
    await display(ctx, d, signal, true);
    did.push(`cluster ${d.name} started (the other stopped)`);
  } else if (fresh && ctx.plan.switching === "stop-start") {
    await ctx.tiupRun(ctx.argv(stepKey.restart(d)), `restart ${d.name}`, signal);
    await display(ctx, d, signal, true);
    restarted = true;
    did.push(`cluster ${d.name} restarted`);
  }
  const cs = d.configSwitch;
  if (cs && r.applied !== setup.name) {
    if (cs.by === "online") {
      for (const k of cs.keys)
        for (const addr of r.status[k.role] ?? []) {
          const step = ctx.planned(stepKey.setConfig(setup, k.role, k.key, addr)).run as {
            post: string;
            body: string;
          };
          await ctx.checks.postJson(step.post, step.body).catch((e: Error) => {
            throw new RunError(`variant ${setup.name}: ${k.role} ${addr} refused ${k.key}: ${e.message}`);
          });
        }
      did.push(
        `variant ${setup.name} applied online (${cs.keys.map((k) => k.key).join(", ") || "target.sql only"})`,
      );
    } else {
      const file = join(ctx.dir, setup.topologyFile as string);
      const out = await ctx.tiupRun(
        ctx.argv(stepKey.editConfig(d, setup)),
        `variant ${setup.name}: edit-config`,
        signal,
      );
      const outcome = editConfigOutcome(out);
      if (outcome === "refused")
        throw new RunError(
          `variant ${setup.name}: tiup refused the topology ${file} ("Nothing changed.", exit 0): ${editConfigReason(out)}`,
        );
      if (outcome === "changed") {
        await ctx.tiupRun(ctx.argv(stepKey.reload(d, setup)), `variant ${setup.name}: reload`, signal);
        restarted = true;
      }
      did.push(`variant ${setup.name} applied by reloading ${cs.roles.join(", ")}`);
    }
    r.applied = setup.name;
    await ctx.checkConfig(setup, r);
  }
  if (fresh && !restarted && cs?.by === "reload") {
    await ctx.tiupRun(
      ctx.argv(stepKey.restart(d, cs.roles)),
      `variant ${setup.name}: restart ${cs.roles.join(", ")}`,
      signal,
    );
    await display(ctx, d, signal, true);
    await ctx.checkConfig(setup, r);
    did.push(`${cs.roles.join(", ")} of ${d.name} restarted (variant ${setup.name} was in already)`);
  }
  return did.length ? did.join("; ") : undefined;
}

async function deployCluster(ctx: RunContext, d: ClusterDeployment, signal: AbortSignal): Promise<Running> {
  const setup = ctx.plan.variants.find((v) => v.deployment === d.index) as VariantSetup;
  // on an ephemeral cluster the stack's ledger entry covers the machines and tiup's record of them
  const ephemeral = Boolean(ctx.machines);
  const forget = ephemeral
    ? async () => {}
    : await record({ resource: "cluster", what: d.name, path: d.name }).catch(() => async () => {});
  let destroyed: Promise<void> | undefined;
  const stop = () => {
    destroyed ??= (async () => {
      // bounded; a destroy that fails leaves the ledger entry for `tiperf reap` (on ephemeral
      // machines, the stack's destroy follows whatever happens here)
      await ctx.tiupRun(
        ctx.argv(stepKey.destroy(d)),
        `destroy ${d.name}`,
        new AbortController().signal,
        ephemeral ? 600 : 900,
      );
      await forget();
    })();
    return destroyed;
  };
  const running: Running = {
    deployment: d,
    endpoints: clusterTidbServers(d),
    sql: clusterTidbServers(d)[0] as Endpoint,
    status: {
      tidb: d.cluster.instances
        .filter((i) => i.role === "tidb")
        .map((i) => `${i.host}:${i.ports.status_port}`),
      tikv: d.cluster.instances
        .filter((i) => i.role === "tikv")
        .map((i) => `${i.host}:${i.ports.status_port}`),
      pd: d.cluster.instances.filter((i) => i.role === "pd").map((i) => `${i.host}:${i.ports.client_port}`),
      tiflash: d.cluster.instances
        .filter((i) => i.role === "tiflash")
        .map((i) => `${i.host}:${i.ports.metrics_port}`),
    },
    died: new Promise<string>(() => {}),
    stop,
    applied: setup.name,
    up: false,
    loaded: new Set(),
    users: 0,
    restarts: 0,
    counting: [],
  };
  try {
    // a build that is not there fails before anything is deployed
    for (const [role, binpath] of Object.entries(d.binpaths))
      if (findTool(binpath) === undefined)
        throw new RunError(
          `variant ${setup.name}: target.binpath of ${role}, ${binpath}: not an executable file`,
        );
    await ctx.tiupRun(ctx.argv(stepKey.deploy(d)), `deploy ${d.name}`, signal);
    for (const role of Object.keys(d.binpaths)) {
      const pack = ctx.argv(stepKey.pack(d, role));
      const packed = await runCommand(pack[0] as string, pack.slice(1), { timeoutMs: 300_000 });
      if (packed.code !== 0)
        throw new RunError(`cannot pack the ${role} build for tiup cluster patch: ${packed.stderr.trim()}`);
      await ctx.tiupRun(ctx.argv(stepKey.patch(d, role)), `patch ${role} of ${d.name}`, signal);
      ctx.log(`cluster ${d.name}: every ${role} runs ${d.binpaths[role as keyof typeof d.binpaths]}`);
    }
    await ctx.tiupRun(ctx.argv(stepKey.start(d)), `start ${d.name}`, signal);
    running.up = true;
    await display(ctx, d, signal, true);
    await frontWithHaproxy(ctx, d, running);
  } catch (e) {
    await stop().catch((err: Error) => ctx.log(`teardown: ${err.message}`));
    throw e;
  }
  // Other side-by-side clusters wait stopped until their variant is measured.
  if (ctx.plan.switching === "stop-start") {
    await stopOtherClusters(ctx, running, signal);
  }
  return running;
}

/** Side-by-side clusters (stop-start): every running one but `r` stopped, so only one is measured. */
async function stopOtherClusters(ctx: RunContext, r: Running, signal: AbortSignal): Promise<void> {
  for (const other of ctx.running.values())
    if (other !== r && other.up && other.deployment.form === "cluster") {
      await ctx.tiupRun(ctx.argv(stepKey.stop(other.deployment)), `stop ${other.deployment.name}`, signal);
      other.up = false;
    }
}

/** `display --format json --uptime`; with `allUp`, a Down instance is an error naming it. */
async function display(
  ctx: RunContext,
  d: ClusterDeployment,
  signal: AbortSignal,
  allUp: boolean,
): Promise<Display> {
  const out = await ctx.tiupRun(ctx.argv(stepKey.display(d)), `display ${d.name}`, signal, 300);
  const display = parseDisplayJson(out);
  const down = notUp(display);
  if (allUp && down.length)
    throw new RunError(
      `cluster ${d.name}: ${down.map((i) => `${i.role} ${i.id} is ${i.status}`).join("; ")}`,
    );
  return display;
}

/** Before a cell: a snapshot of the cluster; after it: a Down instance or a restart fails the cell. */
async function watch(
  ctx: RunContext,
  setup: VariantSetup,
  d: ClusterDeployment,
): Promise<() => Promise<string | undefined>> {
  const signal = new AbortController().signal;
  const before = await display(ctx, d, signal, true);
  const started = Date.now();
  return async () => {
    const after = await display(ctx, d, signal, false);
    const down = notUp(after).map((i) => `${i.role} ${i.id} on ${i.host} is ${i.status}`);
    const again = restarted(before, after, (Date.now() - started) / 1000).map(
      (i) =>
        `${i.role} ${i.id} on ${i.host} restarted during the cell (up ${i.uptime_s}s; systemd brought it back)`,
    );
    const problems = [...down, ...again];
    return problems.length ? `cluster ${d.name} (variant ${setup.name}): ${problems.join("; ")}` : undefined;
  };
}

/** A fresh instance of every component, same data (compare.blocks): the first variant sharing it to restart it this block does. */
export const clusterRestarts: Restart<ClusterDeployment> = {
  seconds: 120,
  async restart(ctx, d, setup, r, state, signal) {
    if (r.restarts > state.seen) {
      state.seen = r.restarts;
      return `cluster ${d.name} restarted already for this block (shared with ${d.variants.join(", ")})`;
    }
    const before = await display(ctx, d, signal, true);
    await ctx.tiupRun(ctx.argv(stepKey.restart(d)), `restart ${d.name}`, signal);
    const after = await display(ctx, d, signal, true);
    r.up = true;
    state.seen = ++r.restarts;
    // TiKV and PD keep items changed online across restarts: the applied variant's config holds
    await ctx.checkConfig(ctx.appliedSetup(setup, r), r);
    const uptime = (x: typeof before) =>
      Math.min(...x.instances.map((i) => i.uptime_s ?? Number.POSITIVE_INFINITY));
    return `cluster ${d.name} restarted (shortest uptime ${uptime(before)}s → ${uptime(after)}s)`;
  },
};

export const clusterRuntime: FormRuntime<ClusterDeployment> = {
  targetKind: "tidb-cluster",
  build: (d) => d.binpaths.tidb,
  start: (ctx, d, _setup, signal) => deployCluster(ctx, d, signal),
  state: (d) => `tiup cluster ${d.name}: see \`tiup cluster display ${d.name}\``,
  watch: (ctx, setup, d) => watch(ctx, setup, d),
  onHosts: {
    hosts: serverHosts,
    // monitoring: true — the run window's metrics are kept before the cluster goes
    beforeStop: async (ctx, d, r) => {
      if (d.cluster.monitoring && r.up) await keepMetrics(ctx, d);
    },
  },
};
