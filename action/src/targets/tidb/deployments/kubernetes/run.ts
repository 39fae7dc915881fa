// A Kubernetes deployment carried out through the API server (kubernetes/client.ts) with the plan's
// own requests: the run's namespace created (refused if it exists: tiperf never adopts what it did
// not create), the TidbCluster created, polled until the operator says Ready, its TiDB Service
// read for the address this machine connects to; at the end the TidbCluster and, with the last
// deployment, the namespace deleted and waited for.

import { RunError } from "../../../../errors.ts";
import { KubeClient, type KubeObject } from "../../../../kubernetes/client.ts";
import { loadKubeContext } from "../../../../kubernetes/kubeconfig.ts";
import { parseAge } from "../../../../yaml/keys.ts";
import type { Endpoint } from "../../../types.ts";
import { stepKey } from "../../steps.ts";
import type { FormRuntime, RunContext } from "../types.ts";
import { inClusterAddress, KUBE_ROLES } from "./manifests.ts";
import { API, EXPIRES_AT, kubeStep, paths, RESTARTED_AT, sqlAddress, statusAddress } from "./steps.ts";
import type { KubernetesDeployment } from "./types.ts";

/** One client per run context (its kubeconfig and context), and what is alive in each namespace. */
const clients = new WeakMap<RunContext, Promise<KubeClient>>();
const ready = new WeakMap<RunContext, KubeClient>();
const alive = new Map<string, number>();
/** The restart annotation's value of the restart under way (filled into its planned PATCH). */
export const restartAt = new WeakMap<RunContext, string>();

/**
 * The run's API client, on the cluster the profile names (one the profile's cloud section created
 * for the run is named so once it is up), made once per run, whichever deployment starts first.
 */
function clientOf(ctx: RunContext): Promise<KubeClient> {
  let c = clients.get(ctx);
  if (!c) {
    c = (async () => {
      const k = ctx.plan.profile.kubernetes;
      const where = {
        ...(k?.kubeconfig ? { kubeconfig: k.kubeconfig } : {}),
        ...(k?.context ? { context: k.context } : {}),
      };
      const client = new KubeClient(loadKubeContext({ ...where, where: ctx.plan.profileFile }));
      const server = client.ctx.server;
      const ttl = parseAge(k?.ttl ?? "6h") ?? 6 * 3_600_000;
      const expires = new Date(Date.now() + ttl).toISOString();
      ctx.addFill((t) =>
        t
          .replaceAll(API, server)
          .replaceAll(EXPIRES_AT, expires)
          .replaceAll(RESTARTED_AT, restartAt.get(ctx) ?? RESTARTED_AT),
      );
      ready.set(ctx, client);
      return client;
    })();
    clients.set(ctx, c);
  }
  return c;
}

/** The client of a run whose cluster is up (a deployment started). */
export function readyClient(ctx: RunContext): KubeClient {
  const c = ready.get(ctx);
  if (!c) throw new RunError("kubernetes: the cluster's client is asked for before any TidbCluster started");
  return c;
}

/** A planned request's path on the API server (the plan's URL with <api> filled in). */
export const pathOf = (c: KubeClient, url: string) =>
  url.startsWith(c.ctx.server) ? url.slice(c.ctx.server.length) : url;

type Condition = { type?: string; status?: string; message?: string; reason?: string };
const conditions = (tc: KubeObject | undefined) =>
  ((tc?.status as { conditions?: Condition[] } | undefined)?.conditions ?? []) as Condition[];
export const isReady = (tc: KubeObject | undefined) =>
  conditions(tc).some((c) => c.type === "Ready" && c.status === "True");
/** What the operator's status says of a TidbCluster that is not ready (each role's phase, the Ready condition). */
export function readiness(tc: KubeObject | undefined): string {
  if (!tc) return "no such TidbCluster";
  const st = (tc.status ?? {}) as Record<string, { phase?: string } | undefined>;
  const phases = KUBE_ROLES.filter((r) => r !== "tiflash" || st[r])
    .map((r) => `${r} ${st[r]?.phase ?? "no status"}`)
    .join(", ");
  const ready = conditions(tc).find((c) => c.type === "Ready");
  return `${phases}; Ready ${ready?.status ?? "not reported"}${ready?.message ? `: ${ready.message}` : ready?.reason ? ` (${ready.reason})` : ""}`;
}

/** How long the operator has to report a TidbCluster Ready (kubernetes.ready_timeout), at start and after a restart. */
export const readyTimeoutMs = (ctx: RunContext) =>
  (ctx.plan.profile.kubernetes?.ready_timeout ?? 1800) * 1000;

/** Each role's StatefulSet revisions as the operator reports them (status.<role>.statefulSet). */
type Revisions = Record<string, { current?: string | undefined; update?: string | undefined }>;
export function revisions(tc: KubeObject | undefined): Revisions {
  const st = (tc?.status ?? {}) as Record<
    string,
    { statefulSet?: { currentRevision?: string; updateRevision?: string } } | undefined
  >;
  return Object.fromEntries(
    KUBE_ROLES.map((r) => {
      const set = st[r]?.statefulSet;
      return [r, { current: set?.currentRevision, update: set?.updateRevision }];
    }),
  );
}

/**
 * Roles whose rolling restart since `before` is not done: a role is done once its StatefulSet
 * has a revision it did not have before and all its pods are on it (current = update), which the
 * operator's Ready condition also requires. A role reported without revisions (no such component)
 * is done.
 */
export function rolling(
  before: Revisions,
  now: KubeObject | undefined,
  roles: readonly string[] = KUBE_ROLES,
): string[] {
  const after = revisions(now);
  return roles
    .filter((r) => {
      const b = before[r];
      const a = after[r];
      if (!b?.update && !a?.update) return false;
      return !a?.update || a.update === b?.update || a.current !== a.update;
    })
    .map((r) => {
      const a = after[r];
      return `${r} ${a?.update === before[r]?.update ? "not yet on a new revision" : `${a?.current ?? "?"} → ${a?.update ?? "?"}`}`;
    });
}

interface ServicePort {
  name?: string;
  port: number;
  nodePort?: number;
}

/** Where this machine reaches a TidbCluster's TiDB: the Service's SQL and status endpoints. */
export async function serviceEndpoints(
  c: KubeClient,
  svc: KubeObject,
): Promise<{ sql: Endpoint; status: Endpoint } | { waiting: string }> {
  const spec = (svc.spec ?? {}) as { type?: string; ports?: ServicePort[] };
  const ports = spec.ports ?? [];
  const sqlPort = ports.find((p) => p.name === "mysql-client") ?? ports[0];
  const statusPort = ports.find((p) => p.name === "status");
  if (!sqlPort) return { waiting: `Service ${svc.metadata.name} has no ports` };
  if (spec.type === "NodePort") {
    if (!sqlPort.nodePort) return { waiting: `Service ${svc.metadata.name} has no nodePort yet` };
    const nodes = await c.get<{ items?: { status?: { addresses?: { type: string; address: string }[] } }[] }>(
      "/api/v1/nodes",
    );
    const addrs = (nodes.items ?? []).flatMap((n) => n.status?.addresses ?? []);
    const host = (addrs.find((a) => a.type === "ExternalIP") ?? addrs.find((a) => a.type === "InternalIP"))
      ?.address;
    if (!host) return { waiting: "no node reports an address" };
    return {
      sql: { host, port: sqlPort.nodePort },
      status: { host, port: statusPort?.nodePort ?? 10080 },
    };
  }
  const ingress = (
    svc.status as { loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] } } | undefined
  )?.loadBalancer?.ingress?.[0];
  const host = ingress?.ip ?? ingress?.hostname;
  if (!host)
    return {
      waiting: `Service ${svc.metadata.name} (${spec.type ?? "ClusterIP"}) has no load balancer address yet`,
    };
  return { sql: { host, port: sqlPort.port }, status: { host, port: statusPort?.port ?? 10080 } };
}

/** The run's own namespace, as planned; one of that name tiperf did not just create is never adopted (nor deleted). */
async function createNamespace(ctx: RunContext, c: KubeClient, d: KubernetesDeployment): Promise<void> {
  if (await c.find(`/api/v1/namespaces/${d.namespace}`))
    throw new RunError(
      `namespace ${d.namespace} already exists on ${c.ctx.server} (context ${c.ctx.context}): tiperf creates its own and never touches one it did not create`,
    );
  const step = ctx.planned(kubeStep.namespace(d.namespace));
  if (!("post" in step.run)) throw new RunError(`step ${step.key} is not a POST`);
  await c.create(pathOf(c, step.run.post), JSON.parse(step.run.body));
  ctx.log(`kubernetes: namespace ${d.namespace} created on ${c.ctx.server} (context ${c.ctx.context})`);
}

/**
 * How a TidbCluster goes, once: deleted as planned; the last of the namespace's deletes the
 * namespace (where the plan says so), then the cluster created for the run, if any.
 */
function stopper(ctx: RunContext, c: KubeClient, d: KubernetesDeployment): () => Promise<void> {
  let stopped = false;
  return async () => {
    if (stopped) return;
    stopped = true;
    const del = ctx.planned(stepKey.stop(d));
    // a TidbCluster that cannot be deleted still goes with the namespace below
    let failed: unknown;
    if ("delete" in del.run) await c.remove(pathOf(c, del.run.delete)).catch((e) => (failed = e));
    const left = (alive.get(d.namespace) ?? 1) - 1;
    alive.set(d.namespace, left);
    if (left > 0) {
      if (failed) throw failed;
      return;
    }
    alive.delete(d.namespace);
    if (!ctx.plan.steps.some((s) => s.key === kubeStep.deleteNamespace(d.namespace))) {
      if (failed) throw failed;
      return;
    }
    const ns = ctx.planned(kubeStep.deleteNamespace(d.namespace));
    if ("delete" in ns.run) {
      await c.deleteNamespace(pathOf(c, ns.run.delete).split("/").pop() as string);
      ctx.log(`kubernetes: namespace ${d.namespace} deleted`);
    }
    // a cluster created for the run goes after this (the run destroys its machines last): its
    // volumes were released with the namespace (a GKE cluster's deletion leaves the disks of
    // claims still bound behind)
  };
}

/** The TidbCluster created as planned and waited for until the operator reports it Ready. */
async function createCluster(
  ctx: RunContext,
  c: KubeClient,
  d: KubernetesDeployment,
  signal: AbortSignal,
): Promise<{ sql: Endpoint; status: Endpoint }> {
  const create = ctx.planned(stepKey.start(d));
  if (!("post" in create.run)) throw new RunError(`step ${create.key} is not a POST`);
  // one budget (kubernetes.ready_timeout) for the cluster Ready and its Service's address
  const deadline = Date.now() + readyTimeoutMs(ctx);
  await c.create(pathOf(c, create.run.post), JSON.parse(create.run.body));
  const ready = ctx.planned(kubeStep.ready(d));
  if (!("get" in ready.run)) throw new RunError(`step ${ready.key} is not a GET`);
  ctx.log(
    `kubernetes: TidbCluster ${d.name} created in ${d.namespace}; waiting for the operator to report it Ready`,
  );
  await c.waitFor(pathOf(c, ready.run.get), isReady, {
    timeoutMs: deadline - Date.now(),
    everyMs: 2000,
    signal,
    what: `TidbCluster ${d.name} in ${d.namespace} Ready`,
    describe: readiness,
  });
  const { sql, status } = await serviceAddress(ctx, c, d, signal, deadline);
  ctx.addFill((t) =>
    t.replaceAll(sqlAddress(d), sql.host).replaceAll(statusAddress(d), `${status.host}:${status.port}`),
  );
  ctx.log(
    `kubernetes: TidbCluster ${d.name} Ready; TiDB at ${sql.host}:${sql.port}, status ${status.host}:${status.port}`,
  );
  return { sql, status };
}

/** Where this machine reaches TiDB: the TiDB Service's address, waited for until `deadline` (what is left of the ready budget). */
async function serviceAddress(
  ctx: RunContext,
  c: KubeClient,
  d: KubernetesDeployment,
  signal: AbortSignal,
  deadline: number,
) {
  const svcStep = ctx.planned(kubeStep.service(d));
  if (!("get" in svcStep.run)) throw new RunError(`step ${svcStep.key} is not a GET`);
  for (;;) {
    const svc = await c.find(pathOf(c, svcStep.run.get));
    const where = svc ? await serviceEndpoints(c, svc) : { waiting: "no TiDB Service yet" };
    if (!("waiting" in where)) return where;
    if (signal.aborted || Date.now() > deadline)
      throw new RunError(
        `TidbCluster ${d.name}: no address for this machine to reach TiDB: ${where.waiting}`,
      );
    await new Promise((res) => setTimeout(res, 2000));
  }
}

export const kubernetesRuntime: FormRuntime<KubernetesDeployment> = {
  targetKind: "tidb-operator",
  build: () => undefined,
  async start(ctx, d, _setup, signal) {
    const c = await clientOf(ctx);
    if (d.namespaceManifest) await createNamespace(ctx, c, d);
    alive.set(d.namespace, (alive.get(d.namespace) ?? 0) + 1);
    const stop = stopper(ctx, c, d);
    try {
      const { sql } = await createCluster(ctx, c, d, signal);
      return {
        deployment: d,
        // the load tools connect as planned: from a pod by the Service's name, or from here
        endpoints: ctx.plan.profile.kubernetes?.load ? [inClusterAddress(d)] : [sql],
        sql,
        // as planned: the plan's steps are keyed by these, filled in with the Service's address
        status: { pd: [], tikv: [], tidb: [statusAddress(d)], tiflash: [] },
        died: new Promise<string>(() => {}),
        // a shared TidbCluster is created with its first variant's config
        ...(d.online ? { applied: d.variants[0] } : {}),
        stop,
        up: true,
        loaded: new Set(),
        users: 0,
        restarts: 0,
        counting: [],
      };
    } catch (e) {
      await stop().catch((err: Error) => ctx.log(`teardown: ${err.message}`));
      throw e;
    }
  },
  state: (d) => `TidbCluster ${d.name} in namespace ${d.namespace}`,
  async watch(ctx, _setup, d) {
    const c = readyClient(ctx);
    // the same object the plan's ready step polls (its <api> left off: the client adds the server)
    const path = paths.tidbCluster(d).slice(API.length);
    return async () => {
      const tc = await c.find(path).catch(() => undefined);
      return isReady(tc) ? undefined : `TidbCluster ${d.name} is not Ready after the cell: ${readiness(tc)}`;
    };
  },
};
