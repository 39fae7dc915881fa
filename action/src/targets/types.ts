import type { ZodType } from "zod";
import type { Reaper } from "../lifecycle/ledger.ts";
import type { RemoteHost } from "../proc/ssh.ts";
import type { ToolLauncher } from "../proc/tool.ts";
import type { Cost } from "../result/model.ts";
import type { PlanStep } from "./plan-step.ts";
import type { SourceBuilder } from "./source-build.ts";

export interface StartOptions {
  /** The largest thread count any cell will use: the server must accept that many connections. */
  maxConnections: number;
  /** Server logs are copied here before the private data directory is removed. */
  logDir: string;
  log: (line: string) => void;
  /**
   * A run's plan steps of this private server: each taken by its job, filled in and recorded as
   * executed under its plan key. Absent (a server started outside a run): its kind's own words.
   */
  steps?: StartSteps;
  /**
   * Server options another variant of the comparison sets and this one does not: read back too,
   * so that the difference shows as two values (its default here, the other's setting there).
   */
  readBack?: string[];
}

/** What a private server's start does, each a step of the plan (targets/local/kind.ts keys them). */
export type StartJob = "install" | "server" | "version" | { setting: string } | "cgroup" | "pin" | "restart";

/** A private server's start as the plan says it: every step it runs is taken here, by its job. */
export interface StartSteps {
  /** This start's work directory and port, filled into every step taken from now on. */
  at(place: { workDir: string; port: number }): void;
  /** The plan's step of this job, filled in (with the PID it acts on, where it has one), recorded as executed. */
  take(job: StartJob, pid?: number): PlanStep;
}

export interface Endpoint {
  host: string;
  port: number;
}

/** How load tools reach a target: each driver turns this into its own flags. */
export interface Connection {
  protocol: "mysql" | "postgres";
  /** One or more SQL servers (a TiDB cluster has several); tools spread their threads over them. */
  endpoints: Endpoint[];
  user: string;
  password: string;
  /** The database every load tool uses, if the target gives one (an endpoint's); absent: each driver's own. */
  database?: string;
  /** Connect over TLS (an existing server that requires it: TiDB Cloud). */
  tls?: boolean;
}

/**
 * A running database server a run measures: one tiperf started (`CreatedTarget`: it alone may
 * restart it, reconfigure it, drop its data and remove it) or one it only connects to
 * (`BorrowedTarget`, an endpoint: it may drop only the tables this run created there). Code that
 * drops or restarts switches on `owner`; a borrowed server cannot `restart`.
 */
export type Target = CreatedTarget | BorrowedTarget;

/** A server tiperf started (or a database it created) for this run. */
export interface CreatedTarget extends TargetBase {
  owner: "tiperf";
  /**
   * A fresh server instance on the same data (compare.blocks): stops the running processes and
   * starts new ones, settled as at start; says what changed (old → new PIDs). Or why the target
   * cannot restart without losing its data.
   */
  restart: Can<(signal: AbortSignal) => Promise<string>>;
}
/**
 * An existing server tiperf connects to and does not own: the load tools' own cleanup (which drops
 * tables by name) never runs on it; the tables this run created, listed before and after each
 * load, are the only ones dropped.
 */
export interface BorrowedTarget extends TargetBase {
  owner: "borrowed";
  /** A borrowed server is never restarted by tiperf. */
  restart: Cannot;
  /** The tables of `database` now, by the plan's listing statement `sql`. */
  tablesIn(database: string, sql: string): Promise<string[]>;
  /** Drops one table of `database` that this run created; the statement it ran. */
  dropTable(database: string, table: string): Promise<string>;
  /** Where it is, for messages (host:port). */
  where: string;
}

/** What every target gives a run. */
interface TargetBase {
  /** mariadb, postgres, tidb-playground, tidb-cluster: what the result records. */
  kind: string;
  /** Server version as the server reports it (SELECT VERSION() / SHOW server_version). */
  version: string;
  connection: Connection;
  /** Processes tiperf started on this machine for the target (empty for remote ones). */
  pids: number[];
  /** The server's processes and their state, for messages about a step that hung. */
  state(): string;
  /**
   * Gives the run database `name` with the plan's statements (TargetPlan.databaseSql), in order;
   * PostgreSQL's CREATE only where its catalogue check found none.
   */
  createDatabase(name: string, statements: string[]): Promise<void>;
  /** The settings the spec gave it (target.config; a TiDB variant's role.key values). */
  settings?: Record<string, string | number | boolean>;
  /** Each of those settings as the running server reports it back. */
  effectiveConfig: Record<string, string>;
  /** The CPU it was given (target.resources), as the result records it. */
  resources?: { cpu_quota?: string; cpus?: string };
  /** Resolves with a reason if the server goes away before stop() was asked for; otherwise never. */
  died: Promise<string>;
  /**
   * Created: stops the server by PID, keeps its logs, removes its data directory. Borrowed: leaves
   * the server (the deployment drops a database the run created). Safe to call twice.
   */
  stop(): Promise<void>;
  /**
   * Before data steps and each cell: brings this variant in where variants share hardware. With
   * `fresh` (a group of cells where a switch restarts servers), its servers are freshly started or
   * switched when it returns, restarted if need be; it says what it did.
   */
  activate: Can<(signal: AbortSignal, o?: { fresh?: boolean }) => Promise<string | undefined>>;
  /** Before a cell: a health snapshot; the returned check, after the cell, names what went wrong. */
  watch: Can<() => Promise<() => Promise<string | undefined>>>;
  /** Variants on one deployment share its data: loaded once, cleaned up by the last to leave. */
  sharedData?: { loaded: Set<string>; users: number };
  /** After a data set is loaded (TiDB: split and scatter sysbench's tables, analyze every table). */
  afterLoad: Can<(load: LoadedData) => Promise<void>>;
  /** What else the result records about the target (deployment, topology file, tidb_version()). */
  details?: Record<string, unknown>;
  /**
   * CPU profiles of its servers over the next `seconds` (Go's and TiKV's pprof on their status
   * ports), each written to `dir` under a name starting with `prefix`; one entry per server.
   */
  cpuProfiles: Can<(seconds: number, dir: string, prefix: string) => Promise<CpuProfile[]>>;
  /**
   * The servers' own running counters now (observe/cost.ts names them: cpu_s, alloc_bytes,
   * handler_reads …; a cluster's per component as cpu_s.tikv), read at the start and the end of a
   * cell's measured window for its cost per operation. A counter it cannot read is left out.
   */
  costCounters: Can<() => Promise<Record<string, number>>>;
  /** The machines its servers run on when not this one, each with its servers' ports: where a cell's use is sampled over SSH. */
  serverHosts: Can<() => { remote: RemoteHost; ports: number[] }[]>;
}

/**
 * What only some targets can do (restart, take turns, watch a cell, profile, count): every target
 * says, as its deployment forms do, with the function or with why it cannot. `able` gives the
 * function or undefined.
 */
export type Can<F extends (...args: never[]) => unknown> = F | Cannot;

/** A capability a target lacks, and why, in words that follow its kind's name ("is borrowed: …"). */
export interface Cannot {
  cannot: string;
}

/** The capability's function, or undefined when the target cannot. */
export function able<F extends (...args: never[]) => unknown>(c: Can<F>): F | undefined {
  return typeof c === "function" ? c : undefined;
}

/** One server's CPU (or allocation) profile: where it was written, or why it could not be taken. */
export interface CpuProfile {
  /** The program (tidb-server, tikv-server) and its status address. */
  component: string;
  address: string;
  /** cpu (absent: cpu); alloc: a Go server's bytes allocated; stmts: a counting build's statements (code-profile.ts). */
  measures?: "cpu" | "alloc" | "stmts";
  file?: string;
  error?: string;
}

/** A data set a load tool has just loaded: its database and tables (and sysbench's sizes). */
export interface LoadedData {
  database: string;
  tables: string[];
  /** The spec's `data` when the tables are sysbench's (what `split:` divides). */
  sysbench?: { tables: number; table_size: number };
}

/** A target of the spec after validation: its kind's own keys (each kind casts to its type). */
export interface TargetSpec {
  kind: string;
  [key: string]: unknown;
}

/** A program a kind needs on this machine, and how to get it. */
export interface Need {
  found: boolean;
  what: string;
  install: string;
  /** A client tiperf's own SQL uses: all an existing server (an endpoint) needs of the kind. */
  client?: boolean;
}

/** What a kind plans from: the spec's variants on one profile. */
export interface TargetPlanInput {
  /** The spec file, for messages. */
  file: string;
  /** Every variant that runs (a plain run: one, base), each with its validated target. */
  variants: { name: string; target: TargetSpec }[];
  /** --profile, over the spec's own. */
  profile?: string;
  /** compare.blocks: restarts of every variant between blocks. */
  blocks: number;
  /** Names of what the run creates (cluster names, playground tags): the run id's suffix. */
  prefix: string;
  /** Seconds of every cell of every variant and round: what the deployment must last. */
  matrixSeconds: number;
  /** The largest thread count of any cell. */
  maxConnections: number;
  /** The spec's sysbench data (tables × rows), for kinds that split it into regions. */
  data?: { tables: number; table_size: number };
  /** Every data set the load tools create: its database and tables (for kinds that analyze them). */
  loads: { database: string; tables: string[] }[];
  /** This machine's CPUs (what warnings about local servers weigh against); default: all of them. */
  cores?: number;
  /** The run's id, once it has one (tags of cloud resources). */
  runId?: string;
}

/** A kind's plan: everything it would do, decided before anything starts. */
export interface TargetPlan {
  kind: string;
  /** What its servers run to give the run a database (default: createDatabaseSql); Target.createDatabase runs them. */
  databaseSql?(name: string): string[];
  /** Where the machines come from, as baselines, history and comments name it (local-mariadb, aws-smoke). */
  profile: string;
  /** The variants it deploys, each with its validated target. */
  variants: { name: string; target: TargetSpec }[];
  /** The first lines of `tiperf plan`: profile, deployments, how variants take turns, a cloud's cost. */
  about: string[];
  /** Files the run writes before it starts (topologies, configs), by name under <run>/target/. */
  files: Record<string, string>;
  /** The kind's own steps in the order they run, before, around and after the cells. */
  steps: PlanStep[];
  /** Where a variant's load tools connect, as planned (a port picked at start: 0, shown <port>). */
  connection(variant: string): Connection;
  /** Where a variant's data lives: variants that name the same place load their data once. */
  dataOf(variant: string): string;
  /** The load tools run elsewhere (a load host over SSH, a pod of the cluster), not here. */
  remoteLoad: boolean;
  /** Where they run, when not here: the plan's word (absent with remoteLoad: the load host). */
  loadWhere?: "pod";
  /** CPUs they get there when known before the run (a pod's request): data loads use that many threads. */
  loadCores?: number;
  /** Whose its servers are: tiperf's own, or borrowed (an endpoint: never started, stopped or changed). */
  ownership: "owned" | "borrowed";
  /**
   * The cost metrics its servers give and where they come from, when not every one the kind knows
   * (an endpoint: only what it lets tiperf read; `missing`: why). Absent: the kind's, all of them.
   */
  cost?: { metrics: string[]; source: string; note?: string; missing?: Record<string, string> };
  /** Its servers are deployed by something else than a program here (TiDB Operator): no tiup needed. */
  remoteDeploy?: boolean;
  /**
   * Its servers are private processes on this machine (a local MariaDB or PostgreSQL, a private
   * tidb-server): what a fair duet pins. Absent or false: they run elsewhere (a cluster's hosts).
   */
  localServers?: boolean;
  /**
   * Seconds besides the cells: start/deploy (once), per switch between variants, per restart; and
   * how many restarts a block after the first takes (default: one per variant; variants sharing a
   * deployment restart it once).
   */
  overhead: { setupS: number; switchS: number; restartS: number; restartsPerBlock?: number };
  /**
   * How variants sharing hardware take turns: not at all (each has its own), by a switch before a
   * cell whenever the variant changes, or — where a switch restarts servers — in groups: each
   * variant runs a block's cells together on a freshly switched instance.
   */
  switching: "none" | "per-cell" | "grouped";
  /** How variants sharing hardware take turns, in words (the plan's line; a grouped verdict's note). */
  takesTurnsBy?: string;
  /** Where the spec cannot measure what it says: warned about, never refused. */
  warnings: string[];
  /** Why `run` would refuse these inputs (over a budget, past a ttl): `plan` shows them and exits 2. */
  refusals: string[];
  /**
   * Carries this plan out: the object `tiperf plan` printed is the one the run executes (private
   * servers started, a deployment made, an endpoint's database created).
   */
  open(o: OpenOptions): Promise<Deployment>;
}

export interface OpenOptions {
  runId: string;
  runDir: string;
  rawDir: string;
  /** The run's shard K of a comparison or matrix spread over N runners: what it creates is its own. */
  shard?: number;
  log: (line: string) => void;
  signal: AbortSignal;
}

/** A plan being carried out: the targets of its variants, started on first use. */
export interface Deployment {
  /** The Target of one variant (its server started, or its deployment's turn taken). */
  target(variant: string, opts: StartOptions & { signal: AbortSignal }): Promise<Target>;
  /** Where the load tools run, when not here. */
  loadHost?(): RemoteHost | undefined;
  /** Where the load tools run when the deployment places them itself (a pod). */
  loadLauncher?(): ToolLauncher | undefined;
  /** Stops and removes everything the deployment started. Safe to call twice. */
  stop(): Promise<void>;
  /** What the machines cost (ephemeral cloud clusters). */
  cost?(): Cost | undefined;
  /** The plan's steps as they were carried out, in order (each once per time it ran). */
  executed: PlanStep[];
  /**
   * The plan again where opening it learnt what planning could not (an ephemeral cluster's
   * addresses, known after `up`): the run carries this one out, and writes it as its plan.
   */
  plan?: TargetPlan;
}

/**
 * The contract of a target kind (Rally's launchers, roachprod's providers): its spec keys, the
 * programs it needs, its plan, how it carries the plan out, and how its leftovers are reaped.
 * Adding a kind is one folder under targets/ and one line in targets/registry.ts.
 */
export interface TargetKind {
  name: string;
  /** Its `target:` keys, `kind` included as a literal; imports nothing of the project but zod. */
  schema: ZodType<TargetSpec, unknown>;
  /** The key names its schema takes (to say which kind takes a key another kind refused). */
  keyNames: string[];
  /**
   * The programs it needs on this machine: `existing`, servers it does not start at all (an
   * endpoint); `remoteDeploy`, servers something else deploys (an operator on Kubernetes).
   */
  needs(target: TargetSpec, o: { remoteLoad: boolean; borrowed?: boolean; remoteDeploy?: boolean }): Need[];
  /**
   * The cloud the run provisions its machines on (a profile's provider), when it does: the
   * Action's setup then also installs what a cloud run loads (scripts/setup.sh --cloud).
   */
  cloudOf?(targets: TargetSpec[], profile: string | undefined): Promise<string | undefined>;
  plan(input: TargetPlanInput): Promise<TargetPlan>;
  /** Targets of this kind can name a source tree to build the server from. */
  source?: SourceBuilder;
  /**
   * The target key paths (prefixes; `*` for one segment) whose differences between variants a run
   * shows at run time: read back from the servers (TargetInfo.effective_config), recorded (version,
   * build, the endpoint) or measured (a CPU quota's throttling). A difference in any other key is
   * said in the verdict not to be shown, never silently passed over.
   */
  shown: readonly string[];
  /** How its ledger entries are removed when their tiperf died, by entry kind. */
  reapers: Record<string, Reaper>;
  /**
   * The cost metrics (observe/cost.ts) its targets can measure, for the spec's `metrics:`; a
   * deployment that cannot read one (an endpoint's CPU) leaves it out of its cells.
   */
  costMetrics?: readonly string[];
}

export { PASSWORD_AT_START, type PlanStep, PORT_AT_START, PORT_TEXT } from "./plan-step.ts";

/** What an ephemeral cluster's machines cost, measured from `up` to the end of destroy: the verdict's `cost`. */
export type { Cost };
