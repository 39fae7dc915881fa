// What a TiDB deployment is to the rest of the tidb kind: the planned deployments (a private
// tidb-server, a playground, a tiup cluster), a variant's setup on one, the plan they make, and the
// contract every way to deploy TiDB fills (a Deployer): its profile rules, what it plans, the steps
// it adds to the plan, where its SQL and status APIs are, how long it takes. One folder per way
// under deployments/, one line each in deployments/registry.ts.
import type { Endpoint, PlanStep } from "../../types.ts";
import type { Profile, Role } from "../profile.ts";
import type { BuildRole, TidbTargetSpec as TargetSpec } from "../schema.ts";
import type { Cluster } from "../topology.ts";

export interface TidbVariant {
  name: string;
  target: TargetSpec;
}

export interface ClusterDeployment {
  kind: "cluster";
  name: string;
  index: number;
  version: string;
  cluster: Cluster;
  /** The variants measured on this cluster (more than one: they differ only in configs). */
  variants: string[];
  /** tiup's --ssh-proxy-* flags (a profile's ssh.proxy), given to every tiup cluster command. */
  proxyFlags: string[];
  /** How its variants take turns (more than one). */
  configSwitch?: ConfigSwitch;
  /** Builds patched in after deploy (`tiup cluster patch --offline`), per role. */
  binpaths: Partial<Record<BuildRole, string>>;
}

/**
 * How variants sharing one cluster take turns: online (the config items that differ posted to the
 * running components, as SET CONFIG does, plus target.sql), or edit-config and a reload of only
 * the roles whose config differs (a restart of those roles).
 */
export type ConfigSwitch =
  | { by: "online"; keys: { role: Role; key: string }[] }
  | { by: "reload"; roles: Role[]; keys: { role: Role; key: string }[]; why: string[] };

export interface PlaygroundDeployment {
  kind: "playground";
  /** tiup playground --tag: its data directory under $TIUP_HOME/data. */
  name: string;
  index: number;
  version: string;
  variants: string[];
  counts: Record<Role, number>;
  portOffset: number;
  /** --db.config, --kv.config, … file names of this playground (in the run's tidb/ directory). */
  configFiles: Partial<Record<Role, string>>;
  /** --db.binpath, --kv.binpath, --pd.binpath: builds to run in place of the release's. */
  binpaths: Partial<Record<BuildRole, string>>;
}

/** A private tidb-server on this machine (provider local): unistore, its own ports and directory. */
export interface ServerDeployment {
  kind: "server";
  name: string;
  index: number;
  /** The version the variant declares ("" when only its binpath says). */
  version: string;
  variants: string[];
  /** target.binpath: the build to run; else tiup's installed tidb component of the version. */
  binpath?: string;
  /** -config: the variant's TiDB config (in the run's tidb/ directory). */
  configFile?: string;
}

export type Deployment = ClusterDeployment | PlaygroundDeployment | ServerDeployment;

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
  resources?: TargetSpec["resources"];
}

export interface TidbPlan {
  profile: Profile;
  profileFile: string;
  deployments: Deployment[];
  variants: VariantSetup[];
  /** How variants sharing hardware take turns. */
  switching: "none" | "online" | "reload" | "stop-start" | "separate-playgrounds" | "separate-servers";
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
  /** Deployment name prefix (the run id at run time). */
  prefix: string;
  /** The plan's files (TOML configs, topologies, haproxy.cfg): name → contents, added to. */
  files: Record<string, string>;
  /** A variant's setup on deployment `index`. */
  setupOf: (v: TidbVariant, index: number, topologyFile?: string) => VariantSetup;
  /** One role's full config of a variant (server_configs with the role's own over it). */
  roleConfig: (target: TargetSpec, role: Role) => Record<string, unknown>;
}

/**
 * A form of deployment (a private tidb-server, a playground, a tiup cluster): how variants become
 * deployments, how they take turns, the steps each adds to the plan, its endpoints and how long
 * its steps take. Several ways to deploy can share a form (hosts and every cloud: tiup clusters).
 */
export interface DeploymentForm<D extends Deployment = Deployment> {
  kind: D["kind"];
  /** Seconds to deploy and start one (estimates until a measured time replaces them). */
  deploySeconds: number;
  /** Seconds per restart of one (compare.blocks). */
  restartSeconds: number;
  plan(o: FormInput): { deployments: D[]; variants: VariantSetup[]; haproxy?: TidbPlan["haproxy"] };
  switching(variants: number, deployments: D[]): TidbPlan["switching"];
  /** Switching restarts servers: each variant runs a block's cells as a group. */
  grouped(switching: TidbPlan["switching"], deployments: D[]): boolean;
  /** Seconds one switch between variants takes. */
  switchSeconds(plan: TidbPlan): number;
  /** Where the load tools connect, as seen from where they run. */
  loadEndpoints(plan: TidbPlan, d: D): Endpoint[];
  /** The status APIs of each role (TiDB /status and /config, TiKV /config, PD's config). */
  statusAddresses(d: D): Record<Role, string[]>;
  /** The steps that bring it up, before its first variant's checks. */
  startSteps(plan: TidbPlan, d: D, v: VariantSetup, add: AddStep, about: string): void;
  /** A variant that switches in on a shared deployment: its steps; true when it did. */
  switchIn?(plan: TidbPlan, d: D, v: VariantSetup, add: AddStep): boolean;
  /** Steps between blocks and cells (restart, switch back, health). */
  blockSteps(plan: TidbPlan, d: D, add: AddStep): void;
  /** Steps that end it: always, on success, failure, cancel and SIGTERM. */
  teardownSteps(plan: TidbPlan, d: D, add: AddStep): void;
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
  checkTarget?(t: TargetSpec, profileFile: string): string | undefined;
  /** Its deployments; absent: an existing TiDB tiperf did not create (an endpoint). */
  form?: DeploymentForm;
  /** Why compare.blocks must be 1 (it cannot restart its servers and keep their data). */
  noRestart?: string;
  /** Its servers run on this machine, tiperf's own processes (pinned in a duet). */
  localServers?: boolean;
  /** TiDB on its embedded store (unistore): what a change does to TiKV and PD is not measured. */
  embeddedStore?: boolean;
  /** A cloud creates its machines first (the cloud registry's provider of that name). */
  cloud?: boolean;
}
