// An existing server that tiperf did not create (provider endpoint; Rally's benchmark-only
// pipeline). tiperf owns one thing there: a database of the run's own, created at start and
// dropped at the end — on success, failure, cancel and SIGTERM (and by `tiperf reap` when tiperf
// was killed). It never stops, restarts or reconfigures the server, and never touches a database
// it did not create (a profile's own `database` is used, never dropped; one holding tables is
// refused unless allowed).
import { RunError } from "../../errors.ts";
import { record } from "../../lifecycle/ledger.ts";
import { onTeardown } from "../../lifecycle/teardown.ts";
import { addSecret } from "../../proc/secrets.ts";
import { PASSWORD_AT_START, stepOf } from "../plan-step.ts";
import { quotedIdent } from "../tables.ts";
import type {
  BorrowedTarget,
  Connection,
  Deployment,
  LoadedData,
  OpenOptions,
  PlanStep,
  Target,
  TargetPlan,
  TargetPlanInput,
  TargetSpec,
} from "../types.ts";
import { clientArgs, endpointSql, passwordOf, type Sql } from "./client.ts";
import type { EndpointProfile, EndpointSpec } from "./schema.ts";
import { dropDatabaseSql, existsSql, ownDatabaseSql, runDatabase, tablesSql } from "./sql.ts";

/** What a kind says of its servers as endpoints. */
export interface EndpointServer {
  /** The kind (mariadb, postgres, tidb) and the server as people name it. */
  kind: string;
  title: string;
  protocol: Connection["protocol"];
  versionSql: string;
  /** What else the result records (TiDB: tidb_version(), /status when reachable). */
  facts?(sql: Sql, ep: EndpointSpec): Promise<Record<string, unknown>>;
  /** The plan's lines for those facts. */
  factSteps?(ep: EndpointSpec): PlanStep["run"][];
  /** Statements after a data set is loaded into the run's database (TiDB: ANALYZE its tables): planned and run alike. */
  afterLoadSteps?(database: string, tables: string[]): { sql: string }[];
  /**
   * The server's own counters as an endpoint gives them (observe/cost.ts): the cost metrics they
   * make, where they come from, and the reading. An endpoint's counters
   * count every client of the server, not only this run: the plan says so.
   */
  counters?: EndpointCounters;
}

/** How an endpoint's counters are read; `sql` runs in the run's database. */
export interface EndpointCounters {
  metrics(ep: EndpointSpec): string[];
  /** Where they come from, in the plan's words. */
  source(ep: EndpointSpec): string;
  read(sql: Sql, ep: EndpointSpec): Promise<Record<string, number>>;
}

/** A variant's endpoint, as its profile names it. */
export interface EndpointVariant {
  name: string;
  target: TargetSpec;
  /** The profile file (for messages) and the profile. */
  file: string;
  profile: EndpointProfile;
}

/** One endpoint and database the run uses (variants naming the same one share it and its data). */
interface Place {
  key: string;
  file: string;
  profile: EndpointProfile;
  database: string;
  /** The run creates (and drops) the database: the profile named none of its own. */
  owned: boolean;
  variants: string[];
}

/** The keys of a place's own steps: the plan adds them, the run looks them up and runs their words. */
const placeKey = (step: "version" | "exists" | "create" | "tables" | "drop", p: Pick<Place, "key">) =>
  `endpoint-${step}:${p.key}`;

export interface EndpointPlan extends TargetPlan {
  endpoint: { server: EndpointServer; places: Place[]; byVariant: Record<string, number> };
}

/** Where the plan cannot run on an endpoint: the kind's own reasons and these. */
function endpointRefusals(input: TargetPlanInput, places: Place[]): string[] {
  const out: string[] = [];
  if (input.blocks > 1)
    out.push(
      `${input.file}: compare.blocks is ${input.blocks}, but ${places.map((p) => p.file).join(", ")} ${places.length > 1 ? "are existing endpoints" : "is an existing endpoint"}: tiperf never restarts a server it did not start, so there are no fresh instances to compare; use compare.blocks: 1`,
    );
  return out;
}

/** The endpoints and databases the variants name: variants naming the same one share it. */
function placesOf(
  input: TargetPlanInput,
  variants: EndpointVariant[],
): { places: Place[]; byVariant: Record<string, number> } {
  const places: Place[] = [];
  const byVariant: Record<string, number> = {};
  for (const v of variants) {
    const ep = v.profile.endpoint;
    const database = ep.database ?? runDatabase(input.prefix);
    const key = `${ep.host}:${ep.port}/${database}`;
    let i = places.findIndex((p) => p.key === key);
    if (i < 0) {
      i = places.length;
      places.push({ key, file: v.file, profile: v.profile, database, owned: !ep.database, variants: [] });
    }
    places[i]?.variants.push(v.name);
    byVariant[v.name] = i;
  }
  return { places, byVariant };
}

/** One place's planned steps: the version and facts recorded, its database checked or created, its tables analyzed. */
function placeSteps(server: EndpointServer, input: TargetPlanInput, p: Place): PlanStep[] {
  const ep = p.profile.endpoint;
  const variant = p.variants[0] as string;
  const where = "runner" as const;
  const on = `endpoint ${p.profile.name} (${ep.host}:${ep.port}, borrowed)`;
  const steps: PlanStep[] = [
    {
      key: placeKey("version", p),
      phase: "record",
      variant,
      where,
      run: { command: clientArgs(server.protocol, ep, server.versionSql) },
      about: `${on}: the server's version, recorded${ep.password_env ? `; password from $${ep.password_env} in the client's environment` : ""}`,
    },
    ...(server.factSteps?.(ep) ?? []).map((run) => ({ phase: "record", variant, where, run, about: on })),
  ];
  if (p.owned)
    steps.push(
      {
        key: placeKey("exists", p),
        phase: "start",
        variant,
        where,
        run: { sql: existsSql(server.protocol, p.database) },
        about: `${on}: the run's own database must not exist yet (tiperf touches no database it did not create)`,
      },
      {
        key: placeKey("create", p),
        phase: "start",
        variant,
        where,
        run: { sql: ownDatabaseSql(p.database) },
        about: `${on}: the run's own database; every load tool uses it`,
      },
    );
  else
    steps.push({
      key: placeKey("tables", p),
      phase: "start",
      variant,
      where,
      run: { sql: tablesSql(server.protocol, p.database) },
      about: `${on}: endpoint.database ${p.database} is the profile's; ${ep.allow_existing_tables ? "tables there are allowed (allow_existing_tables)" : "refused if it holds tables (endpoint.allow_existing_tables)"}; never dropped`,
    });
  for (const load of input.loads)
    for (const run of server.afterLoadSteps?.(p.database, load.tables) ?? [])
      steps.push({
        phase: "after-load",
        variant,
        where,
        run,
        about: `${on}: after the load, the run's own tables`,
      });
  return steps;
}

/**
 * The plan of a run on endpoints: per endpoint and database, the version recorded, the database
 * checked (and created when the run owns it), and dropped at teardown when it does.
 */
export function planEndpoints(
  server: EndpointServer,
  input: TargetPlanInput,
  variants: EndpointVariant[],
  refusals: string[],
): EndpointPlan {
  const { places, byVariant } = placesOf(input, variants);
  const steps: PlanStep[] = places.flatMap((p) => placeSteps(server, input, p));
  for (const p of places)
    if (p.owned)
      steps.push({
        key: placeKey("drop", p),
        phase: "teardown",
        variant: p.variants[0] as string,
        where: "runner",
        run: { sql: dropDatabaseSql(p.database) },
        about: `endpoint ${p.profile.name}: always (success, failure, cancel, SIGTERM); \`tiperf reap\` if tiperf was killed; nothing else on the server is touched`,
      });
  // the plan never holds a password: the run reads it from the environment
  const connection = (variant: string): Connection =>
    connectionOf(server, places[byVariant[variant] ?? 0] as Place);
  const plan: EndpointPlan = {
    kind: server.kind,
    profile: [...new Set(places.map((p) => p.profile.name))].join("+"),
    variants: input.variants,
    about: places.map(
      (p) =>
        `endpoint ${p.profile.name} (${p.file}): an existing ${server.title} at ${p.profile.endpoint.host}:${p.profile.endpoint.port}${p.profile.endpoint.tls ? " over TLS" : ""}, borrowed: it is never stopped, restarted or reconfigured; ${p.owned ? `the run's own database ${p.database} is created and dropped at the end` : `database ${p.database} (the profile's) is used and never dropped`}; variants ${p.variants.join(", ")}`,
    ),
    files: {},
    steps,
    connection,
    dataOf: (variant) => places[byVariant[variant] ?? 0]?.key ?? variant,
    remoteLoad: false,
    ownership: "borrowed",
    localServers: false,
    cost: endpointCost(server, places),
    overhead: { setupS: 5 * places.length, switchS: 0, restartS: 0 },
    switching: "none",
    warnings: [],
    refusals: [...refusals, ...endpointRefusals(input, places)],
    endpoint: { server, places, byVariant },
    open: (o) => openEndpoints(plan, o),
  };
  return plan;
}

/**
 * The cost metrics every endpoint of the plan gives (a TiDB's only with its status port named) and
 * where they come from; they count the whole server's work, every client's.
 */
function endpointCost(server: EndpointServer, places: Place[]): TargetPlan["cost"] {
  const c = server.counters;
  if (!c) return { metrics: [], source: `an existing ${server.title} gives tiperf no counters it can read` };
  const metrics = places
    .map((p) => c.metrics(p.profile.endpoint))
    .reduce((all, m) => all.filter((x) => m.includes(x)));
  const sources = [...new Set(places.map((p) => c.source(p.profile.endpoint)))];
  return {
    metrics,
    source: `${sources.join("; ")}${metrics.length ? ` of the existing ${server.title}` : ""}`,
    note: "they count every client's work on the server, not only this run's",
  };
}

/** The ledger's kind for a database a run created on an endpoint. */
export const ENDPOINT_DATABASE = "endpoint-database";

/** A borrowed server's tables: listed by the plan's statement, and dropped one by one (only those the run created). */
function tablesOf(
  protocol: Connection["protocol"],
  ep: EndpointSpec,
  password: string,
): Pick<BorrowedTarget, "tablesIn" | "dropTable"> {
  return {
    async tablesIn(database, sql) {
      const out = await endpointSql(protocol, ep, password, database)(sql);
      return out
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => l !== "");
    },
    async dropTable(database, table) {
      const sql = `DROP TABLE ${quotedIdent(protocol, table)}`;
      await endpointSql(protocol, ep, password, database)(sql);
      return sql;
    },
  };
}

/** One variant's view of its endpoint while the run opens it: the SQL, and how each step is recorded. */
interface Opening {
  server: EndpointServer;
  place: Place;
  password: string;
  sql: Sql;
  step: (run: PlanStep["run"], phase?: string) => void;
  /** The plan's SQL step of this key, recorded as executed: what the run runs. */
  planned: (key: string) => string;
  o: OpenOptions;
}

/**
 * Creates the run's own database (it must not exist yet), records it in the ledger for `tiperf
 * reap`, and registers its drop with teardown; returns that drop, safe to call twice.
 */
async function createRunDatabase(x: Opening): Promise<() => Promise<void>> {
  const { server, place: p, password, sql, planned, o } = x;
  const ep = p.profile.endpoint;
  if (Number(await sql(planned(placeKey("exists", p)))) > 0)
    throw new RunError(
      `${p.file}: database ${p.database} already exists on ${ep.host}:${ep.port}; tiperf creates the run's own and touches none it did not create (a run of the same id left it? drop it by hand, or \`tiperf reap\`)`,
    );
  await sql(planned(placeKey("create", p)));
  const forget = await record({
    kind: ENDPOINT_DATABASE,
    what: `database ${p.database} on ${ep.host}:${ep.port} (${p.profile.name})`,
    path: `${ep.host}:${ep.port}/${p.database}`,
    protocol: server.protocol,
    endpoint: ep,
    database: p.database,
  });
  let dropped = false;
  const drop = async () => {
    if (dropped) return;
    dropped = true;
    await endpointSql(server.protocol, ep, password)(planned(placeKey("drop", p)));
    o.log(`teardown: dropped database ${p.database} on ${ep.host}:${ep.port}`);
    await forget();
  };
  const unregister = onTeardown(`drop database ${p.database} on ${ep.host}:${ep.port}`, drop);
  return async () => {
    unregister();
    await drop();
  };
}

/** The profile's own database: used as it is, refused when it holds tables unless allowed. */
async function checkProfileDatabase(x: Opening): Promise<void> {
  const { server, place: p, password, planned } = x;
  const ep = p.profile.endpoint;
  const tables = Number(
    await endpointSql(server.protocol, ep, password, p.database)(planned(placeKey("tables", p))),
  );
  if (tables > 0 && !ep.allow_existing_tables)
    throw new RunError(
      `${p.file}: endpoint.database ${p.database} on ${ep.host}:${ep.port} holds ${tables} table(s); tiperf loads only into an empty database unless endpoint.allow_existing_tables is true (the load tools replace tables of their own names)`,
    );
}

/** The Target a variant gets: the server borrowed, the run's database, its counters where it gives them. */
function borrowedTarget(
  x: Opening,
  variant: string,
  version: string,
  facts: Record<string, unknown>,
): Target {
  const { server, place: p, password, step, o } = x;
  const ep = p.profile.endpoint;
  const inDatabase = endpointSql(server.protocol, ep, password, p.database);
  const counters = server.counters;
  const shared = { loaded: new Set<string>(), users: 0 };
  return {
    owner: "borrowed",
    where: `${ep.host}:${ep.port}`,
    ...tablesOf(server.protocol, ep, password),
    kind: server.kind,
    version,
    connection: { ...connectionOf(server, p), password },
    pids: [],
    state: () =>
      `the existing ${server.title} at ${ep.host}:${ep.port} (borrowed; its state is not known here)`,
    async createDatabase(name) {
      if (name !== p.database)
        throw new RunError(
          `endpoint ${p.profile.name}: the run uses database ${p.database} only, not ${name}`,
        );
    },
    settings: {},
    effectiveConfig: {},
    died: new Promise<string>(() => {}),
    // the server is borrowed: a variant's stop only leaves it; the deployment drops the database
    stop: async () => {
      if (shared.users > 0) shared.users--;
    },
    sharedData: shared,
    ...(counters?.metrics(ep).length ? { costCounters: () => counters.read(inDatabase, ep) } : {}),
    ...(server.afterLoadSteps
      ? {
          afterLoad: async (load: LoadedData) => {
            for (const run of server.afterLoadSteps?.(load.database, load.tables) ?? []) {
              step(run, "after-load");
              await inDatabase(run.sql);
            }
            o.log(`variant ${variant}: ${load.tables.length} tables of ${load.database} analyzed`);
          },
        }
      : {}),
    details: {
      endpoint: `${ep.host}:${ep.port}`,
      profile: p.profile.name,
      ownership: "borrowed",
      database: p.database,
      database_created_by_run: p.owned,
      tls: ep.tls,
      ...facts,
    },
  };
}

/** Where a place's load tools connect (the plan's: a password from the environment as <password>). */
function connectionOf(server: EndpointServer, p: Place): Connection {
  const ep = p.profile.endpoint;
  return {
    protocol: server.protocol,
    endpoints: [{ host: ep.host, port: ep.port }],
    user: ep.user,
    password: ep.password_env ? PASSWORD_AT_START : "",
    database: p.database,
    ...(ep.tls ? { tls: true } : {}),
  };
}

/** Carries an endpoint plan out: a Target per variant on its endpoint; stop drops what it created. */
export async function openEndpoints(plan: EndpointPlan, o: OpenOptions): Promise<Deployment> {
  const { server, places, byVariant } = plan.endpoint;
  const targets = new Map<number, Target>();
  const drops: { what: string; run: () => Promise<void> }[] = [];
  const executed: PlanStep[] = [];
  const open = async (i: number, variant: string): Promise<Target> => {
    const p = places[i] as Place;
    const ep = p.profile.endpoint;
    const password = passwordOf(ep, p.file);
    addSecret(password);
    const sql = endpointSql(server.protocol, ep, password);
    const step = (run: PlanStep["run"], phase = "start") =>
      executed.push({ phase, variant, where: "runner", run });
    const plannedStep = (key: string) => {
      const planned = stepOf(plan.steps, key);
      executed.push({ ...planned, variant });
      return planned.run;
    };
    const planned = (key: string) => (plannedStep(key) as { sql: string }).sql;
    const x: Opening = { server, place: p, password, sql, step, planned, o };
    plannedStep(placeKey("version", p));
    const version = (await sql(server.versionSql)).split("\n")[0] ?? "";
    const facts = (await server.facts?.(sql, ep)) ?? {};
    if (p.owned) drops.push({ what: p.database, run: await createRunDatabase(x) });
    else await checkProfileDatabase(x);
    o.log(
      `target: ${server.title} ${version} at ${ep.host}:${ep.port} (endpoint ${p.profile.name}, borrowed); the run's database ${p.database}${p.owned ? " (created by this run)" : ""}`,
    );
    return borrowedTarget(x, variant, version, facts);
  };
  return {
    executed,
    async target(variant) {
      const i = byVariant[variant];
      if (i === undefined) throw new Error(`no variant ${variant} in this plan`);
      let t = targets.get(i);
      if (!t) {
        t = await open(i, variant);
        targets.set(i, t);
      }
      if (t.sharedData) t.sharedData.users++;
      return t;
    },
    async stop() {
      for (const d of drops.splice(0).reverse())
        await d.run().catch((e: Error) => o.log(`teardown: dropping ${d.what} failed: ${e.message}`));
    },
  };
}
