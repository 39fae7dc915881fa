// What a TiDB deployment is to the rest of the tidb kind: the planned deployments (a private
// tidb-server, a playground, a tiup cluster), a variant's setup on one, the plan they make, and the
// contract every way to deploy TiDB fills (a Deployer): its profile rules, what it plans, the steps
// it adds to the plan, where its SQL and status APIs are, how long it takes. One folder per way
// under deployments/, one line each in deployments/registry.ts; and how the run carries a form out
// (FormRuntime: start, switch variants, restart, watch a cell, keep what it observed).
import type { Reaper } from "../../../lifecycle/ledger.ts";
import type { RemoteHost } from "../../../proc/ssh.ts";
import type { ToolLauncher } from "../../../proc/tool.ts";
import type { Cost, Endpoint, PlanStep } from "../../types.ts";
import type { CodeCounters } from "../counting.ts";
import type { Profile, Role } from "../profile.ts";
import type { TidbTargetSpec } from "../schema.ts";

export interface TidbVariant {
  name: string;
  target: TidbTargetSpec;
}

/**
 * A planned deployment, as every form's is to the rest of the tidb kind: its form, name,
 * place in the plan, version and the variants it runs. What else a form plans (a cluster's
 * topology, a playground's ports, a private server's build) is declared in the form's folder.
 */
export interface TidbDeployment {
  /** The form that planned it (a DeploymentForm's name). */
  form: string;
  name: string;
  index: number;
  /** The TiDB version it runs ("" when only a build says). */
  version: string;
  /** The variants measured on it (more than one: they differ only in configs). */
  variants: string[];
  /** Its tidb-servers are counting builds whose statements tiperf reads (a form that can run them). */
  counting?: true;
}

export interface VariantSetup {
  name: string;
  deployment: number;
  version: string;
  /** topology file of this variant (cluster): the deployed one, or the edit-config target. */
  topologyFile?: string;
  /** Every config key the variant sets, per role, flattened (as SHOW CONFIG names them). */
  configKeys: { role: Role; key: string; value: unknown }[];
  sql: string[];
  split?: { regions: number };
  /** A private server's CPU limits (provider local). */
  resources?: TidbTargetSpec["resources"];
}

export interface TidbPlan {
  profile: Profile;
  profileFile: string;
  deployments: TidbDeployment[];
  variants: VariantSetup[];
  /** How variants sharing hardware take turns. */
  switching:
    | "none"
    | "online"
    | "reload"
    | "stop-start"
    | "separate-playgrounds"
    | "separate-servers"
    | "separate-clusters"
    | "rolling-update";
  /**
   * A switch restarts servers (a reload, or another cluster started): each variant runs a block's
   * cells as a group on a freshly switched instance, instead of switching before every cell.
   */
  grouped: boolean;
  /** File name (under the run's tidb/ directory) → contents. */
  files: Record<string, string>;
  haproxy?: { host: string; port: number; file: string };
  /** Where the load tools run: this machine, or the load host over SSH. */
  load: { host: string; user?: string; port?: number; identity?: string };
  /** Every step in the order the run takes it (the run looks each up by its key). */
  steps: PlanStep[];
}

/** Adds a step to the plan (its key from steps.ts, its phase, what it runs, why). */
export type AddStep = (
  key: string,
  phase: string,
  run: PlanStep["run"],
  about?: string,
  o?: { variant?: string; where?: PlanStep["where"] },
) => void;

/** Names a problem of a profile at a key path (zod's issue, with the file and line added by the loader). */
export type ProfileIssue = (path: PropertyKey[], message: string) => void;

/** What a deployment form plans from. */
export interface FormInput {
  variants: TidbVariant[];
  profile: Profile;
  profileFile: string;
  /** TidbDeployment name prefix (the run id at run time). */
  prefix: string;
  /** The plan's files (TOML configs, topologies, haproxy.cfg): name → contents, added to. */
  files: Record<string, string>;
  /** A variant's setup on deployment `index`. */
  setupOf: (v: TidbVariant, index: number, topologyFile?: string) => VariantSetup;
  /** One role's full config of a variant (server_configs with the role's own over it). */
  roleConfig: (target: TidbTargetSpec, role: Role) => Record<string, unknown>;
}

/**
 * A form whose variants can share one deployment and take turns on it (a tiup cluster's reload or
 * online SET CONFIG, its clusters stopped and started; a TidbCluster's rolling update or SET
 * CONFIG): what taking turns costs and adds to the plan, declared as one capability. A form
 * without it gives each variant a deployment of its own: no switch, no groups, no switch steps.
 */
export interface VariantTurns<D extends TidbDeployment = TidbDeployment> {
  /** Switching restarts servers: each variant runs a block's cells as a group. */
  grouped(switching: TidbPlan["switching"], deployments: D[]): boolean;
  /** Seconds one switch between variants takes. */
  switchSeconds(plan: TidbPlan): number;
  /** How its variants take turns, as the plan says it (else the switching's name). */
  switchingText(plan: TidbPlan): string | undefined;
  /** A variant that switches in on a shared deployment: its steps; true when it did. */
  switchIn(plan: TidbPlan, d: D, v: VariantSetup, add: AddStep): boolean;
  /** At run time, a variant's turn on it; `fresh`: restart what a switch would have. What it did, if anything. */
  switchTo(
    ctx: RunContext,
    d: D,
    setup: VariantSetup,
    r: Running,
    signal: AbortSignal,
    fresh: boolean,
  ): Promise<string | undefined>;
}

/** How a form gives a fresh instance of its servers on the same data (compare.blocks > 1). */
export interface Restart<D extends TidbDeployment = TidbDeployment> {
  /** Seconds per restart of one. */
  seconds: number;
  /** Restarts it; what it did, for the log. */
  restart(
    ctx: RunContext,
    d: D,
    setup: VariantSetup,
    r: Running,
    state: RestartState,
    signal: AbortSignal,
  ): Promise<string>;
}

/**
 * Whether a form restarts its servers and keeps their data: every form says, how (a Restart) or
 * why it cannot ("is a playground, which cannot …", said after the profile's name).
 */
export type Restarts<D extends TidbDeployment = TidbDeployment> = Restart<D> | { cannot: string };

/**
 * A form that runs the load tools itself when its profile asks (a pod of the cluster): the plan's
 * word for the place, and the launcher the run's tools use there.
 */
export interface LoadInPlace<D extends TidbDeployment = TidbDeployment> {
  /** Where, for the plan; undefined: this profile does not ask (this machine or the load host). */
  place(p: Profile): { where: "pod"; about: string; cores: number } | undefined;
  /** The launcher, at run time; undefined: the profile does not ask. */
  launcher(ctx: RunContext, d: D): ToolLauncher | undefined;
}

/**
 * A form whose servers run on other hosts, reached over ssh (a tiup cluster): the hosts the load's
 * resource sampling reads, and what it keeps of them before they go (its monitoring).
 */
export interface ServersOnHosts<D extends TidbDeployment = TidbDeployment> {
  /** Its hosts as ssh reaches them, with the main ports on each. */
  hosts(ctx: RunContext, d: D): { remote: RemoteHost; ports: number[] }[];
  /** Before it goes at teardown: what it observed, kept. */
  beforeStop(ctx: RunContext, d: D, r: Running): Promise<void>;
}

/**
 * A form of deployment (a private tidb-server, a playground, a tiup cluster): how variants become
 * deployments, how they take turns, the steps each adds to the plan, its endpoints and how long
 * its steps take. Several ways to deploy can share a form (hosts and every cloud: tiup clusters).
 */
export interface DeploymentForm<D extends TidbDeployment = TidbDeployment> {
  name: D["form"];
  /** Seconds to deploy and start one (estimates until a measured time replaces them). */
  deploySeconds: number;
  /** A fresh instance of its servers on the same data (compare.blocks), or why it cannot. */
  restarts: Restarts<D>;
  plan(o: FormInput): { deployments: D[]; variants: VariantSetup[]; haproxy?: TidbPlan["haproxy"] };
  switching(variants: number, deployments: D[]): TidbPlan["switching"];
  /** Variants taking turns on one deployment: a capability only some forms have. */
  turns?: VariantTurns<D>;
  /** The load tools run where the deployment places them: a capability only some forms have. */
  loadInPlace?: LoadInPlace<D>;
  /** Where the load tools connect, as seen from where they run. */
  loadEndpoints(plan: TidbPlan, d: D): Endpoint[];
  /** The status APIs of each role (TiDB /status and /config, TiKV /config, PD's config). */
  statusAddresses(d: D): Record<Role, string[]>;
  /**
   * Roles whose status APIs this machine cannot reach (pods of a Kubernetes cluster): their config
   * is read back through TiDB's SHOW CONFIG.
   */
  configBySql?: readonly Role[];
  /** The steps that bring it up, before its first variant's checks. */
  startSteps(plan: TidbPlan, d: D, v: VariantSetup, add: AddStep, about: string): void;
  /** Steps between blocks and cells (restart, switch back, health). */
  blockSteps(plan: TidbPlan, d: D, add: AddStep): void;
  /** Steps that end it: always, on success, failure, cancel and SIGTERM. */
  teardownSteps(plan: TidbPlan, d: D, add: AddStep): void;
  /** What tiup keeps on this machine about it (forgotten when a cloud's machines are gone). */
  records?(d: D): string[];
  /** How the run carries it out. */
  run: FormRuntime<D>;
  /** What `tiperf reap` does with what it recorded in the ledger (by the entry's kind), if tiperf died. */
  reapers?: Record<string, Reaper>;
}

/**
 * One way to deploy TiDB, named by a profile's `provider`: its profile rules, what a variant's
 * target may ask of it, and the form it deploys in (none: a TiDB that already runs, measured as an
 * endpoint, never changed).
 */
export interface Deployer {
  provider: string;
  /** One line: where TiDB runs. */
  about: string;
  /** Profile sections that belong to this provider alone (endpoint:, aws:). */
  sections?: string[];
  /** The profile rules of this provider (keys it needs, keys that belong to another). */
  checkProfile(p: Profile, issue: ProfileIssue): void;
  /** What a variant's target may not ask of it: the message, or undefined. */
  checkTarget?(t: TidbTargetSpec, profileFile: string): string | undefined;
  /** Its deployments; absent: an existing TiDB tiperf did not create (an endpoint). */
  form?: DeploymentForm;
  /**
   * Who starts its servers, and where: `embedded` tiperf's own tidb-server processes on this
   * machine, on TiDB's embedded store (pinned in a duet; what a change does to TiKV and PD is not
   * measured); `tiup` tiup's (a playground here, a cluster on hosts or on created machines);
   * `operator` something else deploys them from the objects tiperf creates (TiDB Operator: no tiup
   * here); `borrowed` a TiDB tiperf did not create (an endpoint: no form).
   */
  servers: "embedded" | "tiup" | "operator" | "borrowed";
  /** The machines it creates before deploying, for the profiles that ask (a cloud's VMs, a managed Kubernetes cluster). */
  machines?: MachineMaker;
}

/**
 * How a deployer creates machines for a run, the one way every cloud does (VMs for a tiup cluster,
 * a managed Kubernetes cluster for TiDB Operator): planned, then created before any deployment,
 * the plan made again on them, destroyed after every deployment stopped.
 */
export interface MachineMaker {
  /** The cloud this profile creates its machines on (the Action then sets Pulumi up); undefined: none. */
  cloudOf(p: Profile): string | undefined;
  /**
   * The plan's lines about them (resources, labels, estimate), what refuses the run (a budget), and
   * about how long creating them takes beyond the form's own deploy time. `provisioned`: the plan
   * made again once they exist (their addresses known).
   */
  plan(
    p: Profile,
    o: { profileFile: string; matrixSeconds: number; runId?: string; provisioned?: boolean },
  ): { about: string; refusals: string[]; seconds: number };
  /** The profile as planned before they exist (each machine's name standing in for its address). */
  placeholders?(p: Profile): Profile;
  /** Creates them and waits until they are ready; on any failure destroys what it made and throws. */
  create(
    p: Profile,
    o: {
      runId: string;
      /** The run's deployments' name prefix (what its namespace and TidbClusters are labelled with). */
      prefix: string;
      runDir: string;
      /** Local records of what will be deployed onto them, removed when they are destroyed. */
      forget: string[];
      /** The run's shard of a comparison spread over runners (K of K/N): machines of its own. */
      shard?: number;
      log: (line: string) => void;
      signal: AbortSignal;
    },
  ): Promise<CreatedMachines>;
}

/** Machines a deployer created for the run. */
export interface CreatedMachines {
  /** The profile on them: their addresses (a cloud's VMs), the created cluster's kubeconfig. */
  onto(p: Profile): Profile;
  /** What they cost, measured: the price table's $/h over the hours they lived (so far, while they live). */
  cost(): Cost | undefined;
  /** Destroys them; idempotent. */
  destroy(): Promise<void>;
  /** Destroyed (the cost is final). */
  readonly gone: boolean;
}

/** A deployment that is up (or was, and waits stopped). */
export interface Running {
  deployment: TidbDeployment;
  /** SQL endpoints (TiDB servers, or HAProxy on the load host). */
  endpoints: Endpoint[];
  /** The TiDB server tiperf itself queries (SQL and status port). */
  sql: Endpoint;
  status: Record<Role, string[]>;
  /** Its servers' processes on this machine (a private server, a playground); absent: none here. */
  pids?(): number[];
  /** Settles, with why, if its servers die while the run still needs them. */
  readonly died: Promise<string>;
  /** A counting build's counters (targets/tidb/counting.ts), one per tidb-server; empty: none counted. */
  counting: CodeCounters[];
  /** What the form knows of it for the target's record (a private server's data directory). */
  facts?(): Record<string, unknown>;
  stop: () => Promise<void>;
  /** The variant whose config is applied now (shared clusters). */
  applied?: string;
  /** Restarts of the whole deployment so far (compare.blocks: variants sharing it restart it once). */
  restarts: number;
  up: boolean;
  loaded: Set<string>;
  users: number;
}

/** What the run lends a form: the plan's steps (recorded as executed), tiup, the checks. */
export interface RunContext {
  readonly plan: TidbPlan;
  /** <run>/tidb: the plan's files. */
  readonly dir: string;
  readonly rawDir: string;
  readonly log: (line: string) => void;
  /** tiperf's own HTTP questions to the components (from here, or from the load host). */
  readonly checks: {
    /** One statement (or a few, `;`-separated) through the MySQL client; its -N -B output. */
    sql(at: Endpoint, query: string, what: string): Promise<string>;
    getJson(url: string): Promise<unknown>;
    postJson(url: string, body: string): Promise<unknown>;
  };
  /** Machines the deployer created for the run (their stack's ledger entry covers tiup's record of them). */
  readonly machines?: CreatedMachines | undefined;
  /** When the run's deployments began (the window monitoring keeps). */
  readonly startedAt: Date;
  /** The running deployments, by index. */
  readonly running: ReadonlyMap<number, Running>;
  /** The plan's step of this key, filled in and recorded as executed. */
  planned(key: string): PlanStep;
  /** The plan's step of this key, filled in, not yet recorded. */
  filled(key: string): PlanStep;
  /** A planned command line, recorded as executed. */
  argv(key: string): string[];
  /** Fills what the plan left to the run (a private server's ports and directory) from now on. */
  addFill(fill: (text: string) => string): void;
  /** Runs a planned tiup command line; throws with tiup's last lines when it fails. */
  tiupRun(argv: string[], what: string, signal: AbortSignal, limitS?: number): Promise<string>;
  /** Where a variant's private server keeps its logs when it stops. */
  logDirOf(variant: string): string | undefined;
  /** The load host as ssh reaches it (hosts profiles), through the bastion if any. */
  loadHost(): RemoteHost | undefined;
  /** Every config key the variant sets, read back. */
  checkConfig(setup: VariantSetup, r: Running): Promise<Record<string, string>>;
  /** The variant whose config a shared deployment has applied (else this one). */
  appliedSetup(setup: VariantSetup, r: Running): VariantSetup;
}

/** What a restart of a variant's deployment sees: restarts it has seen (variants sharing one restart it once). */
export interface RestartState {
  seen: number;
}

/**
 * A form carried out: what every form does at run time. What only some do is a capability declared
 * on the form (`turns`, `restarts`, `loadInPlace`) or here (`onHosts`).
 */
export interface FormRuntime<D extends TidbDeployment = TidbDeployment> {
  /** What the result records as the target's kind (tidb-server, tidb-playground, tidb-cluster). */
  targetKind: string;
  /** The tidb-server build it runs, if not the release's. */
  build(d: D): string | undefined;
  /** Brings it up from its planned steps. */
  start(ctx: RunContext, d: D, setup: VariantSetup, signal: AbortSignal): Promise<Running>;
  /** Its processes and their state, for a message about a step that hung. */
  state(d: D, r: Running): string;
  /** Before a cell: a snapshot; the returned check, after it, names what went wrong. */
  watch(ctx: RunContext, setup: VariantSetup, d: D, r: Running): Promise<() => Promise<string | undefined>>;
  /** Servers on other hosts, reached over ssh: a capability only some forms have. */
  onHosts?: ServersOnHosts<D>;
}
