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
import { stepOf } from "../plan-step.ts";
import { quotedIdent } from "../tables.ts";
import type {
  BorrowedTarget,
  Connection,
  Deployment,
  LoadedData,
  OpenOptions,
  PlanStep,
  Target,
  TargetPlanInput,
} from "../types.ts";
import { endpointSql, passwordOf, type Sql } from "./client.ts";
import {
  afterLoadKey,
  connectionOf,
  type EndpointPlan,
  type EndpointServer,
  type EndpointVariant,
  endpointCost,
  endpointRefusals,
  factKey,
  type Place,
  placeKey,
  placeSteps,
  placesOf,
} from "./plan.ts";
import type { EndpointSpec } from "./schema.ts";
import { dropDatabaseSql } from "./sql.ts";

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
    resource: ENDPOINT_DATABASE,
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
  const { server, place: p, password, planned, o } = x;
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
    restart: { cannot: "is borrowed: tiperf never restarts it" },
    activate: { cannot: "is one existing server every variant shares: there is nothing to switch" },
    watch: { cannot: "is borrowed: its state is not known here" },
    cpuProfiles: { cannot: "is borrowed: tiperf takes no profile of its servers" },
    serverHosts: { cannot: "is reached over SQL only: there is no host to sample" },
    costCounters: counters?.metrics(ep).length
      ? () => counters.read(inDatabase, ep)
      : { cannot: `keeps no counters tiperf reads at ${ep.host}:${ep.port}` },
    afterLoad: server.afterLoadStep
      ? async (load: LoadedData) => {
          // the plan's statement of each table, by its key: nothing made anew at run time
          for (const table of load.tables) await inDatabase(planned(afterLoadKey(table, p)));
          o.log(`variant ${variant}: ${load.tables.length} tables of ${load.database} analyzed`);
        }
      : { cannot: "needs nothing after a load" },
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
    const plannedStep = (key: string) => {
      const planned = stepOf(plan.steps, key);
      executed.push({ ...planned, variant });
      return planned.run;
    };
    // a fact the plan has a step for (TiDB's /status only with endpoint.status_port)
    const fact = (name: string) =>
      plan.steps.some((s) => s.key === factKey(name, p)) ? plannedStep(factKey(name, p)) : undefined;
    const planned = (key: string) => (plannedStep(key) as { sql: string }).sql;
    const x: Opening = { server, place: p, password, sql, planned, o };
    plannedStep(placeKey("version", p));
    const version = (await sql(server.versionSql)).split("\n")[0] ?? "";
    const facts = (await server.facts?.(sql, fact)) ?? {};
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
