// Kind tidb: TiDB deployed the way the profile's provider says (deployments/: a private
// tidb-server, a playground, a tiup cluster on hosts or on an ephemeral cloud cluster) or one that
// already runs (an endpoint), planned from the spec's variants and the profile (plan.ts), carried
// out by run.ts.

import { InputError } from "../../errors.ts";
import { anyTool, MYSQL_CLIENTS } from "../../proc/env.ts";
import { variantAt } from "../../yaml/keys.ts";
import { planEndpoints } from "../endpoint/deployment.ts";
import { providerOf } from "../endpoint/provider.ts";
import { ENDPOINT_REAPERS } from "../endpoint/reapers.ts";
import type {
  Connection,
  Deployment,
  OpenOptions,
  TargetKind,
  TargetPlan,
  TargetPlanInput,
} from "../types.ts";
import { deployerOf, formOf, formReapers } from "./deployments/registry.ts";
import type { CreatedMachines, Restarts } from "./deployments/types.ts";
import { deprecationWarnings } from "./deprecated.ts";
import { TIDB_ENDPOINT, tidbEndpointVariants, tidbVariantProfiles } from "./endpoint.ts";
import { loadProfile } from "./load-profile.ts";
import { loadEndpoints, planTidb, type TidbPlan } from "./plan.ts";
import type { Profile } from "./profile.ts";
import { TidbRun } from "./run.ts";
import { binpathsOf, TidbTargetSchema, type TidbTargetSpec } from "./schema.ts";
import { tidbSource } from "./source.ts";

/**
 * go_stmts_per_op is a counting build's (targets/tidb/counting.ts): only private tidb-servers
 * that every variant runs as one (target.source.count, or target.counting with a binpath built so).
 */
function countingCost(p: TidbPlan): Pick<TargetPlan, "cost"> {
  if (p.deployments.every((d) => d.counting)) return {};
  const metrics = (tidb.costMetrics ?? []).filter((m) => m !== "go_stmts_per_op");
  return {
    cost: {
      metrics,
      source: "the servers' own counters",
      missing: {
        go_stmts_per_op:
          "it counts a counting build's statements: target.source.count, or target.counting for a private tidb-server's binpath built so",
      },
    },
  };
}

/** The profile a TiDB spec runs on when neither the spec nor --profile names one. */
export const DEFAULT_PROFILE = "infra/profiles/local.yaml";

export interface TidbTargetPlan extends TargetPlan {
  tidb: TidbPlan;
  input: TargetPlanInput;
}

/**
 * Loads the profile (--profile, else target.profile, else the playground) and plans the run: on the
 * machines the deployer created for it, if given; else, where it creates some, on their
 * placeholders.
 */
async function planFor(input: TargetPlanInput, made?: CreatedMachines): Promise<TidbPlan> {
  const variants = input.variants.map((v) => ({ name: v.name, target: v.target as TidbTargetSpec }));
  const named = new Set(variants.map((v) => v.target.profile ?? DEFAULT_PROFILE));
  if (!input.profile && named.size > 1)
    throw new InputError(
      `${input.file}: variants name different profiles (${[...named].join(", ")}); variants run on the same hardware, so they share one profile`,
    );
  const file = input.profile ?? ([...named][0] as string);
  let profile = await loadProfile(file, input.profile ? "--profile" : "target.profile");
  checkTargets(input.file, variants, profile, file);
  const deployer = deployerOf(profile.provider);
  // created machines' addresses are known once they exist: until then their names stand in
  if (made) profile = made.onto(profile);
  else if (deployer.machines?.cloudOf(profile))
    profile = deployer.machines.placeholders?.(profile) ?? profile;
  const restarts = deployer.form?.restarts;
  if (input.blocks > 1 && restarts && "cannot" in restarts)
    throw new InputError(
      `${input.file}: compare.blocks is ${input.blocks}, but profile ${file} ${restarts.cannot}`,
    );
  return planTidb({
    variants,
    profile,
    profileFile: file,
    prefix: input.prefix,
    ...(input.data ? { data: input.data } : {}),
    loads: input.loads,
  });
}

/** What a variant's target asks of the profile it runs on: a version or build, and the keys that profile takes. */
function checkTargets(
  file: string,
  variants: { name: string; target: TidbTargetSpec }[],
  profile: Profile,
  profileFile: string,
) {
  for (const v of variants) {
    const t = v.target;
    if (!t.version && !binpathsOf(t).tidb && !t.source)
      throw new InputError(
        `${file}: ${variantAt(variants.length, v.name)}target.version: a TiDB target names the version tiup deploys (like v8.5.0), or a build to run (target.binpath)`,
      );
    const refused = deployerOf(profile.provider).checkTarget?.(t, profileFile);
    if (refused) throw new InputError(`${file}: ${variantAt(variants.length, v.name)}${refused}`);
  }
}

/** How the variants take turns, as the plan says it (the form's words, else the switching's name). */
function switchingText(tidb: TidbPlan): string {
  const d = tidb.deployments[0];
  return (d ? formOf(d).turns?.switchingText(tidb) : undefined) ?? tidb.switching;
}

/** Where a variant's load tools connect: its deployment's SQL endpoints (or HAProxy). */
function connectionOf(tidb: TidbPlan, variant: string): Connection {
  const setup = tidb.variants.find((v) => v.name === variant) ?? tidb.variants[0];
  const d = tidb.deployments[setup?.deployment ?? 0];
  return { protocol: "mysql", endpoints: d ? loadEndpoints(tidb, d) : [], user: "root", password: "" };
}

/** Seconds one restart of a form's deployment takes (none: it cannot restart, so the plan has none). */
const secondsOf = (r: Restarts): number => ("seconds" in r ? r.seconds : 0);

function targetPlan(tidb: TidbPlan, input: TargetPlanInput, provisioned = false): TidbTargetPlan {
  const about: string[] = [];
  // a deployment that runs the load tools itself (a pod of the cluster)
  const place = deployerOf(tidb.profile.provider).form?.loadInPlace?.place(tidb.profile);
  const refusals: string[] = [];
  // groups of cells per variant compare instances: blocks say how many, and the interval is over them
  if (tidb.grouped && input.variants.length > 1 && input.blocks < 3)
    refusals.push(
      `${input.file}: compare.blocks is ${input.blocks}, but variants on ${tidb.profileFile} switch by restarting servers (${tidb.switching}): each variant runs a block's cells as a group on a freshly switched instance, so set compare.blocks to 3 or more (with compare.rounds a multiple of it)${tidb.switching === "reload" ? "; or make the variants differ only in items that change online, set in each of them" : ""}`,
    );
  let setupS = tidb.deployments.reduce((s, d) => s + formOf(d).deploySeconds, 0);
  // the machines the deployer creates first (a cloud's VMs, a managed Kubernetes cluster)
  const machines = deployerOf(tidb.profile.provider).machines;
  const creates = machines?.cloudOf(tidb.profile)
    ? machines.plan(tidb.profile, {
        profileFile: tidb.profileFile,
        matrixSeconds: input.matrixSeconds,
        ...(input.runId ? { runId: input.runId } : {}),
        ...(provisioned ? { provisioned } : {}),
      })
    : undefined;
  if (creates) {
    about.push(creates.about);
    refusals.push(...creates.refusals);
    setupS += creates.seconds;
  }
  about.push(
    `profile ${tidb.profileFile} (${tidb.profile.name}, provider ${tidb.profile.provider})`,
    `deployments: ${tidb.deployments.map((d) => `${d.form} ${d.name} (TiDB ${d.version}; variants ${d.variants.join(", ")})`).join("; ")}`,
    `variants take turns by: ${switchingText(tidb)}`,
    `load tools run on: ${place ? place.about : tidb.load.user ? `${tidb.load.user}@${tidb.load.host} over SSH` : "this machine"}`,
  );
  return {
    kind: "tidb",
    profile: tidb.profile.name,
    variants: input.variants,
    about,
    files: tidb.files,
    steps: tidb.steps,
    connection: (variant) => connectionOf(tidb, variant),
    dataOf: (variant) => {
      const setup = tidb.variants.find((v) => v.name === variant);
      return tidb.deployments[setup?.deployment ?? 0]?.name ?? variant;
    },
    remoteLoad: Boolean(tidb.load.user) || place !== undefined,
    ownership: "owned",
    ...(place ? { loadWhere: place.where, loadCores: place.cores } : {}),
    localServers: deployerOf(tidb.profile.provider).servers === "embedded",
    ...(deployerOf(tidb.profile.provider).servers === "operator" ? { remoteDeploy: true } : {}),
    overhead: {
      setupS,
      switchS: tidb.deployments[0] ? (formOf(tidb.deployments[0]).turns?.switchSeconds(tidb) ?? 0) : 0,
      // a measured restart time of this profile replaces these (bench/timings.ts)
      restartS: Math.max(0, ...tidb.deployments.map((d) => secondsOf(formOf(d).restarts))),
      // variants sharing one deployment (online switching) restart it once per block
      restartsPerBlock: tidb.deployments.length,
    },
    ...countingCost(tidb),
    switching: tidb.grouped ? "grouped" : tidb.switching === "online" ? "per-cell" : "none",
    takesTurnsBy: switchingText(tidb),
    warnings: deprecationWarnings(tidb.variants),
    refusals,
    tidb,
    input,
    // the plan again on a cloud's machines is carried out already: its deployment made it
    open: provisioned
      ? () => Promise.reject(new Error("this plan was made on machines a run already provisioned"))
      : (o) => openTidb(tidb, input, o),
  };
}

/**
 * Carries a TiDB plan out: the machines its deployer creates first, if the profile asks for some
 * (then the plan again, on them), then its deployments.
 */
async function openTidb(first: TidbPlan, input: TargetPlanInput, o: OpenOptions): Promise<Deployment> {
  let tidbPlan = first;
  const maker = deployerOf(first.profile.provider).machines;
  let made: CreatedMachines | undefined;
  if (maker?.cloudOf(first.profile)) {
    made = await maker.create(first.profile, {
      runId: o.runId,
      prefix: input.prefix,
      runDir: o.runDir,
      forget: first.deployments.flatMap((d) => formOf(d).records?.(d) ?? []),
      ...(o.shard ? { shard: o.shard } : {}),
      log: o.log,
      signal: o.signal,
    });
    try {
      tidbPlan = await planFor(input, made);
    } catch (e) {
      await made.destroy().catch((err: Error) => o.log(`teardown: ${err.message}`));
      throw e;
    }
  }
  const run = new TidbRun(tidbPlan, o.runDir, o.rawDir, o.log, made);
  try {
    await run.writeFiles();
  } catch (e) {
    await run.stop();
    throw e;
  }
  return {
    executed: run.executed,
    target: (variant, opts) => run.target(variant, opts),
    loadHost: () => run.loadHost(),
    loadLauncher: () => run.loadLauncher(),
    stop: () => run.stop(),
    cost: () => run.cost(),
    // on created machines, the plan made on them is the one that runs
    ...(made ? { plan: targetPlan(tidbPlan, input, true) } : {}),
  };
}

export const tidb: TargetKind = {
  name: "tidb",
  source: tidbSource,
  schema: TidbTargetSchema,
  keyNames: Object.keys(TidbTargetSchema.shape),
  // versions and builds recorded (tidb_version(), the build's commit); configs read back (SHOW
  // CONFIG, /config); SET GLOBAL read back; split regions counted on every variant (SHOW TABLE …
  // REGIONS); a private server's quota by its throttling; an endpoint recorded. Not read back (the
  // verdict says so): instance counts, NUMA, memory limits, cpus
  shown: [
    "version",
    "binpath",
    "source",
    "server_configs",
    "roles.*.config",
    "sql",
    "split",
    "resources.cpu_quota",
    "profile",
  ],
  needs: (target, o) => [
    // a build of one's own (target.binpath) runs without tiup on a local profile; an endpoint needs none
    ...(o.borrowed || o.remoteDeploy || binpathsOf(target as TidbTargetSpec).tidb
      ? []
      : [
          {
            found: anyTool(["tiup"]),
            what: "tiup (target.kind tidb)",
            install:
              "tiup (tiup.io), with its playground and cluster components; or a build as target.binpath",
          },
        ]),
    {
      found: anyTool(MYSQL_CLIENTS),
      what: "the mariadb client (tiperf's SQL to TiDB)",
      install: "the Debian package mariadb-client",
    },
  ],
  async cloudOf(targets, profile) {
    const file = profile ?? (targets[0] as TidbTargetSpec | undefined)?.profile ?? DEFAULT_PROFILE;
    const p = await loadProfile(file, profile ? "--profile" : "target.profile");
    return deployerOf(p.provider).machines?.cloudOf(p);
  },
  async plan(input) {
    // the deployer the variants' profiles name (targets/tidb/deployments/registry.ts): an existing
    // TiDB is measured where it runs, the others deploy their form
    const profiles = await tidbVariantProfiles(input, DEFAULT_PROFILE);
    if (deployerOf(providerOf(input, profiles, "TiDB")).servers !== "borrowed")
      return targetPlan(await planFor(input), input);
    const { variants, refusals } = tidbEndpointVariants(input, profiles);
    return planEndpoints(TIDB_ENDPOINT, input, variants, refusals);
  },
  // read when \`tiperf reap\` runs: every registered form's, and the endpoint's
  get reapers() {
    return { ...formReapers(), ...ENDPOINT_REAPERS };
  },
  costMetrics: [
    "cpu_ms_per_op",
    "alloc_kb_per_op",
    "mallocs_per_op",
    "gc_per_kop",
    "tidb_cpu_ms_per_op",
    "tikv_cpu_ms_per_op",
    "pd_cpu_ms_per_op",
    "statements_per_op",
    "cop_requests_per_op",
    "plan_cache_misses_per_op",
    "tiny_allocs_per_op",
    "sched_events_per_op",
    "go_stmts_per_op",
  ],
};
