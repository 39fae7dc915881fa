// An endpoint's plan: each variant's place (its server, database and whether tiperf creates it),
// the steps it takes there (version query, database checks, create and drop), what refuses it, the
// connection a variant gets, and its cost.
import { PASSWORD_AT_START } from "../plan-step.ts";
import type { Connection, PlanStep, TargetPlan, TargetPlanInput, TargetSpec } from "../types.ts";
import { clientArgs, type Sql } from "./client.ts";
import type { EndpointProfile, EndpointSpec } from "./schema.ts";
import { existsSql, ownDatabaseSql, runDatabase, tablesSql } from "./sql.ts";

/** What a kind says of its servers as endpoints. */
export interface EndpointServer {
  /** The kind (mariadb, postgres, tidb) and the server as people name it. */
  kind: string;
  title: string;
  protocol: Connection["protocol"];
  versionSql: string;
  /** The plan's steps of what else the result records, by name (TiDB: tidb_version, and status when its port is named). */
  factSteps?(ep: EndpointSpec): Record<string, PlanStep["run"]>;
  /**
   * Those facts read: `take(name)` records the plan's step of that name as executed and gives its
   * words (undefined: the plan has none of that name), which are what runs.
   */
  facts?(sql: Sql, take: (name: string) => PlanStep["run"] | undefined): Promise<Record<string, unknown>>;
  /** The statement after a data set is loaded, for one table of the run's database (TiDB: ANALYZE it): planned, then run by its key. */
  afterLoadStep?(database: string, table: string): { sql: string };
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
export interface Place {
  key: string;
  file: string;
  profile: EndpointProfile;
  database: string;
  /** The run creates (and drops) the database: the profile named none of its own. */
  owned: boolean;
  variants: string[];
}

/** The keys of a place's own steps: the plan adds them, the run looks them up and runs their words. */
export const placeKey = (step: "version" | "exists" | "create" | "tables" | "drop", p: Pick<Place, "key">) =>
  `endpoint-${step}:${p.key}`;

/** The key of a place's recorded fact (tidb_version, status). */
export const factKey = (name: string, p: Pick<Place, "key">) => `endpoint-fact:${name}:${p.key}`;

/** The key of the statement after a load for one table of the place's database. */
export const afterLoadKey = (table: string, p: Pick<Place, "key">) => `endpoint-after-load:${p.key}:${table}`;

export interface EndpointPlan extends TargetPlan {
  endpoint: { server: EndpointServer; places: Place[]; byVariant: Record<string, number> };
}

/** Where the plan cannot run on an endpoint: the kind's own reasons and these. */
export function endpointRefusals(input: TargetPlanInput, places: Place[]): string[] {
  const out: string[] = [];
  if (input.blocks > 1)
    out.push(
      `${input.file}: compare.blocks is ${input.blocks}, but ${places.map((p) => p.file).join(", ")} ${places.length > 1 ? "are existing endpoints" : "is an existing endpoint"}: tiperf never restarts a server it did not start, so there are no fresh instances to compare; use compare.blocks: 1`,
    );
  return out;
}

/** The endpoints and databases the variants name: variants naming the same one share it. */
export function placesOf(
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
export function placeSteps(server: EndpointServer, input: TargetPlanInput, p: Place): PlanStep[] {
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
    ...Object.entries(server.factSteps?.(ep) ?? {}).map(([name, run]) => ({
      key: factKey(name, p),
      phase: "record",
      variant,
      where,
      run,
      about: `${on}: ${name}, recorded`,
    })),
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
  const tables = new Set(server.afterLoadStep ? input.loads.flatMap((l) => l.tables) : []);
  for (const table of tables)
    if (server.afterLoadStep)
      steps.push({
        key: afterLoadKey(table, p),
        phase: "after-load",
        variant,
        where,
        run: server.afterLoadStep(p.database, table),
        about: `${on}: after the load, the run's own tables`,
      });
  return steps;
}

/**
 * The cost metrics every endpoint of the plan gives (a TiDB's only with its status port named) and
 * where they come from; they count the whole server's work, every client's.
 */
export function endpointCost(server: EndpointServer, places: Place[]): TargetPlan["cost"] {
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

/** Where a place's load tools connect (the plan's: a password from the environment as <password>). */
export function connectionOf(server: EndpointServer, p: Place): Connection {
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
