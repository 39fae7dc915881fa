// What the private-server kinds (mariadb, postgres) share: their plan (the server's command lines
// with <workdir> and <port>, its read-backs, its CPU limits), one server per variant on 127.0.0.1,
// their needs, warnings and reapers.
import { cpus } from "node:os";
import { anyTool } from "../../proc/env.ts";
import { startOnFreePort } from "../../proc/port.ts";
import { shellCommand } from "../../proc/quote.ts";
import { variantAt } from "../../yaml/keys.ts";
import { planEndpoints } from "../endpoint/deployment.ts";
import type { EndpointServer, EndpointVariant } from "../endpoint/plan.ts";
import { loadEndpointProfile } from "../endpoint/profile.ts";
import { ENDPOINT_PROVIDER, PRIVATE_PROVIDER, profileKey, providerOf } from "../endpoint/provider.ts";
import { ENDPOINT_REAPERS } from "../endpoint/reapers.ts";
import { filledStep, stepOf } from "../plan-step.ts";
import {
  type Connection,
  type Deployment,
  type Need,
  type PlanStep,
  PORT_AT_START,
  PORT_TEXT,
  type StartJob,
  type StartOptions,
  type StartSteps,
  type Target,
  type TargetKind,
  type TargetPlan,
  type TargetPlanInput,
} from "../types.ts";
import { cpuMaxText } from "./cgroup.ts";
import { LOCAL_REAPERS } from "./reapers.ts";
import { type LocalTargetSpec, localTargetSchema } from "./schema.ts";
import { dataDirFacts, dataRoot } from "./server.ts";

export interface LocalServer {
  name: string;
  /** The server as people name it (MariaDB, PostgreSQL). */
  title: string;
  protocol: Connection["protocol"];
  user: string;
  /** The install-time and server command lines for a work directory and port. */
  commands(o: { workDir: string; port: string; maxConnections: number; config: LocalTargetSpec["config"] }): {
    install: string[];
    server: string[];
  };
  /** What it runs to give the run a database, when not `CREATE DATABASE IF NOT EXISTS` (PostgreSQL). */
  databaseSql?(name: string): string[];
  /** The SQL that reads the version, and each setting back. */
  versionSql: string;
  settingSql(key: string): string;
  /** Its servers as existing endpoints (a profile with provider endpoint). */
  endpoint: EndpointServer;
  stopSignal: NodeJS.Signals;
  /** The programs of the server and its client. */
  needs(): Need[];
  /** The cost metrics its own counters give (observe/cost.ts), besides the CPU every private server gives. */
  costMetrics: readonly string[];
  start(spec: LocalTargetSpec, opts: StartOptions): Promise<Target>;
}

/** Each variant's profile (target.profile, or --profile over every variant; none: a private server). */
async function variantProfiles(input: TargetPlanInput) {
  const named = input.variants.map((v) => input.profile ?? (v.target as LocalTargetSpec).profile);
  // a profile of this kind is an endpoint's (its provider checked as it is read)
  const profiles = await Promise.all(
    named.map((file, i) =>
      file === undefined ? undefined : loadEndpointProfile(file, profileKey(input, i)),
    ),
  );
  return profiles.map((p, i) => p && { file: named[i] as string, profile: p, provider: p.provider });
}

type VariantProfiles = Awaited<ReturnType<typeof variantProfiles>>;

/** The variants on their existing servers; a setting or CPU limit is refused (an endpoint runs as it is). */
function endpointVariants(input: TargetPlanInput, profiles: VariantProfiles) {
  const at = (name: string) => variantAt(input.variants.length, name);
  const refusals: string[] = [];
  const variants: EndpointVariant[] = [];
  for (const [i, v] of input.variants.entries()) {
    const { file, profile } = profiles[i] as NonNullable<VariantProfiles[number]>;
    const t = v.target as LocalTargetSpec;
    if (Object.keys(t.config).length)
      refusals.push(
        `${input.file}: ${at(v.name)}target.config: ${file} is an existing server (provider endpoint), which tiperf never reconfigures; compare two endpoints configured as you want them, or a stored baseline (tiperf diff)`,
      );
    if (t.resources)
      refusals.push(
        `${input.file}: ${at(v.name)}target.resources limits a private server tiperf starts; ${file} is an existing server (provider endpoint): remove it`,
      );
    variants.push({ name: v.name, target: v.target, file, profile });
  }
  return { variants, refusals };
}

/** Less room than this where the servers' data go is warned about. */
const LOW_ROOM_BYTES = 2 * 2 ** 30;

/** Where the spec cannot measure what it says on this machine. */
function localWarnings(input: TargetPlanInput, cores: number): string[] {
  const out: string[] = [];
  // a small (or memory-backed) temp directory ends a load in InnoDB's error 28
  const room = dataDirFacts(dataRoot());
  if (room.free_bytes > 0 && room.free_bytes < LOW_ROOM_BYTES)
    out.push(
      `the servers' data go to ${room.path} (${room.filesystem}), which has ${(room.free_bytes / 2 ** 30).toFixed(1)} GiB free: set TIPERF_DATA_DIR to a directory on a larger disk`,
    );
  const at = (name: string) => variantAt(input.variants.length, name);
  for (const v of input.variants) {
    const t = v.target as LocalTargetSpec;
    const quota = t.resources?.cpu_quota;
    if (quota !== undefined && quota > cores)
      out.push(
        `${at(v.name)}target.resources.cpu_quota ${Math.round(quota * 100)}% is more than this machine's ${cores} CPU(s) (${cores * 100}%): the quota cannot bind`,
      );
  }
  return out;
}

/** What cannot work at all: refused (plan exits 2, run starts nothing) instead of failing a cell. */
function localRefusals(input: TargetPlanInput): string[] {
  const out: string[] = [];
  const at = (name: string) => variantAt(input.variants.length, name);
  for (const v of input.variants) {
    const t = v.target as LocalTargetSpec;
    const conn = Object.entries(t.config).find(([k]) => k.replace(/-/g, "_") === "max_connections");
    if (conn && Number(conn[1]) < input.maxConnections + 1)
      out.push(
        `${input.file}: ${at(v.name)}target.config.max_connections is ${conn[1]}, below the largest thread count ${input.maxConnections} (+1 for tiperf's own connection): cells with more threads cannot connect; raise it to at least ${input.maxConnections + 1}, or lower the thread counts`,
      );
  }
  return out;
}

/** The keys of a private server's start steps: the plan adds them, the deployment looks them up. */
const localKey = {
  install: (v: { name: string }) => `install:${v.name}`,
  server: (v: { name: string }) => `server:${v.name}`,
  version: (v: { name: string }) => `version:${v.name}`,
  setting: (v: { name: string }, key: string) => `setting:${v.name}:${key}`,
  cgroup: (v: { name: string }) => `cgroup:${v.name}`,
  pin: (v: { name: string }) => `pin:${v.name}`,
  restart: (v: { name: string }) => `restart:${v.name}`,
};

/** A start's job as its plan key. */
const keyOfJob = (v: { name: string }, job: StartJob) =>
  typeof job === "object" ? localKey.setting(v, job.setting) : localKey[job](v);

/**
 * One private server's start as its plan says it: each step the server takes by its job is the
 * plan's step of that key, filled with this start's work directory, port and PID, and recorded.
 */
function startSteps(plan: TargetPlan, variant: string, executed: PlanStep[]): StartSteps {
  let fill = (a: string) => a;
  return {
    at({ workDir, port }) {
      fill = (a: string) => a.replaceAll(workDirOf(variant), workDir).replaceAll(PORT_TEXT, String(port));
    },
    take(job, pid) {
      const step = filledStep(stepOf(plan.steps, keyOfJob({ name: variant }, job)), (a) =>
        pid === undefined ? fill(a) : fill(a).replaceAll(PID_TEXT, String(pid)),
      );
      executed.push({ ...step, variant });
      return step;
    },
  };
}

/** What a private server's restart step leaves to the run: the PID it stops. */
const PID_TEXT = "<pid>";

/** What a private server's plan leaves to its start: its work directory and port. */
const workDirOf = (variant: string) => `<workdir of ${variant}>`;

/** What a variant's server is asked once it answers: its version, and each setting read back. */
function recordSteps(
  s: LocalServer,
  input: TargetPlanInput,
  v: TargetPlanInput["variants"][number],
): PlanStep[] {
  const t = v.target as LocalTargetSpec;
  const record = (sql: string, about: string, key: string): PlanStep => ({
    key,
    phase: "record",
    variant: v.name,
    where: "runner",
    run: { sql },
    about: `variant ${v.name}: ${about}`,
  });
  const steps = [record(s.versionSql, "the server's version, recorded", localKey.version(v))];
  for (const key of Object.keys(t.config))
    steps.push(record(s.settingSql(key), `target.config.${key}, read back`, localKey.setting(v, key)));
  // what another variant sets and this one leaves at its default: read back too, so the
  // difference shows as two values
  const others = input.variants.filter((o) => o.name !== v.name);
  for (const key of new Set(others.flatMap((o) => Object.keys((o.target as LocalTargetSpec).config))))
    if (!(key in t.config))
      steps.push(
        record(
          s.settingSql(key),
          `${key} as the server has it (another variant sets it), read back`,
          localKey.setting(v, key),
        ),
      );
  return steps;
}

/** A private server per variant, each on its own free port and work directory. */
function localSteps(s: LocalServer, input: TargetPlanInput): PlanStep[] {
  const steps: PlanStep[] = [];
  for (const v of input.variants) {
    const t = v.target as LocalTargetSpec;
    const c = s.commands({
      workDir: workDirOf(v.name),
      port: PORT_TEXT,
      maxConnections: input.maxConnections,
      config: t.config,
    });
    const add = (phase: string, run: PlanStep["run"], about?: string, key?: string) =>
      steps.push({
        ...(key ? { key } : {}),
        phase,
        variant: v.name,
        where: "runner",
        run,
        ...(about ? { about } : {}),
      });
    add("start", { command: c.install }, `variant ${v.name}: a fresh data directory`, localKey.install(v));
    add(
      "start",
      { command: c.server },
      `variant ${v.name}: a port on 127.0.0.1 picked at start; runs until teardown`,
      localKey.server(v),
    );
    steps.push(...recordSteps(s, input, v));
    if (t.resources?.cpu_quota !== undefined)
      add(
        "start",
        { command: ["write", `<cgroup>/cpu.max`, cpuMaxText(t.resources.cpu_quota)] },
        `variant ${v.name}: the server's processes in a cgroup of their own, ${Math.round(t.resources.cpu_quota * 100)}% of a CPU`,
        localKey.cgroup(v),
      );
    if (t.resources?.cpus !== undefined)
      add(
        "start",
        { command: ["taskset", "-a", "-p", "-c", t.resources.cpus, PID_TEXT] },
        `variant ${v.name}: the server's processes pinned to CPU ${t.resources.cpus}`,
        localKey.pin(v),
      );
    if (input.blocks > 1)
      add(
        "restart",
        // two shell lines: the stop, then the server's command line as one quoted line
        { command: [`kill -${s.stopSignal.replace("SIG", "")} ${PID_TEXT}`, shellCommand(c.server)] },
        `before each block after the first: a fresh process on the same data`,
        localKey.restart(v),
      );
  }
  for (const v of input.variants)
    steps.push({
      phase: "teardown",
      variant: v.name,
      where: "runner",
      run: {
        command: [
          `kill -${s.stopSignal.replace("SIG", "")} <pid of ${v.name}>`,
          `rm -rf <workdir of ${v.name}>`,
        ],
      },
      about:
        "always: success, failure, cancel, SIGTERM (logs kept in <run>/server/); `tiperf reap` if tiperf was killed",
    });
  return steps;
}

/** A private server per variant, each started when its variant's turn first comes (on a free port). */
function privateServers(s: LocalServer, plan: TargetPlan, log: (line: string) => void): Deployment {
  const specs = new Map(plan.variants.map((v) => [v.name, v.target as LocalTargetSpec]));
  // each server's own stop, kept apart from the Target (callers may wrap target.stop)
  const stops: (() => Promise<void>)[] = [];
  const deployment: Deployment = {
    executed: [],
    async target(variant, opts) {
      const spec = specs.get(variant);
      if (!spec) throw new Error(`no variant ${variant} in this plan`);
      const t = await startOnFreePort(
        () => s.start(spec, { ...opts, steps: startSteps(plan, variant, deployment.executed) }),
        (line) => opts.log(`${variant}: ${line}`),
      );
      stops.push(t.stop.bind(t));
      return t;
    },
    async stop() {
      for (const stop of stops.splice(0).reverse())
        await stop().catch((e: Error) => log(`teardown: ${e.message}`));
    },
  };
  return deployment;
}

/** The contract of a private-server kind, from what its server module says. */
export function localKind(s: LocalServer): TargetKind {
  return {
    name: s.name,
    schema: localTargetSchema(s.name),
    keyNames: ["kind", "config", "resources", "profile"],
    // config: read back (SELECT @@GLOBAL / SHOW); cpu_quota: its throttling; profile: the endpoint recorded
    shown: ["config", "resources.cpu_quota", "profile"],
    needs(target, o) {
      const t = target as LocalTargetSpec;
      // an existing server needs only the client tiperf's own SQL goes through
      if (o.borrowed) return s.needs().filter((n) => n.client);
      return [
        ...s.needs(),
        ...(t.resources?.cpus !== undefined
          ? [
              {
                found: anyTool(["taskset"]),
                what: "taskset (target.resources.cpus)",
                install: "the Debian package util-linux",
              },
            ]
          : []),
      ];
    },
    async plan(input): Promise<TargetPlan> {
      const profiles = await variantProfiles(input);
      const way = WAYS[providerOf(input, profiles, s.endpoint.title)] as Way;
      return way(s, input, profiles);
    },
    reapers: { ...LOCAL_REAPERS, ...ENDPOINT_REAPERS },
    costMetrics: ["cpu_ms_per_op", ...s.costMetrics],
  };
}

type Way = (s: LocalServer, input: TargetPlanInput, profiles: VariantProfiles) => TargetPlan;

/** How a private-server kind's variants run, by the provider their profiles name: a line per way. */
const WAYS: Record<string, Way> = {
  [PRIVATE_PROVIDER]: (s, input) => privatePlan(s, input),
  [ENDPOINT_PROVIDER]: (s, input, profiles) => {
    const { variants, refusals } = endpointVariants(input, profiles);
    return planEndpoints(s.endpoint, input, variants, refusals);
  },
};

/** A private server per variant on 127.0.0.1, each on its own port and data directory. */
function privatePlan(s: LocalServer, input: TargetPlanInput): TargetPlan {
  const plan: TargetPlan = {
    kind: s.name,
    profile: `local-${s.name}`,
    variants: input.variants,
    about: [
      `target: a private ${s.title} server per variant on 127.0.0.1 (own data directory, port and socket; stopped by PID)`,
    ],
    files: {},
    steps: localSteps(s, input),
    ...(s.databaseSql ? { databaseSql: s.databaseSql } : {}),
    connection: () => ({
      protocol: s.protocol,
      endpoints: [{ host: "127.0.0.1", port: PORT_AT_START }],
      user: s.user,
      password: "",
    }),
    dataOf: (variant) => variant,
    remoteLoad: false,
    ownership: "owned",
    localServers: true,
    overhead: { setupS: 5 * input.variants.length, switchS: 0, restartS: 5 },
    switching: "none",
    warnings: localWarnings(input, input.cores ?? cpus().length),
    refusals: localRefusals(input),
    open: async (o) => privateServers(s, plan, o.log),
  };
  return plan;
}
