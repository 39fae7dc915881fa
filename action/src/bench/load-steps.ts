// The load tools' steps of one variant as the plan lists them: tiperf's SQL that gives the run its
// database, each data set's steps once, a run per thread count, and on an existing server its
// tables listed before and after the load and dropped at the end. Each has a key (loadKey): the
// run looks these very objects up and carries them out (bench/bench.ts), filling in only what
// the plan cannot know (a port picked at start, a password read from the environment).

import { driverOf } from "../drivers/registry.ts";
import type { Step } from "../drivers/types.ts";
import type { LoadedSpec } from "../specfile/load.ts";
import type { Spec } from "../specfile/schema.ts";
import { createDatabaseSql, tableNamesSql } from "../targets/tables.ts";
import {
  type Connection,
  PASSWORD_AT_START,
  type PlanStep,
  PORT_AT_START,
  PORT_TEXT,
  type TargetPlanInput,
} from "../targets/types.ts";

type Named = { name: string };

/**
 * The keys of the load tools' steps, built here only: the plan that adds a step and the run that
 * looks it up name it with the same function. `set` is a data set's key (driver and data).
 */
export const loadKey = {
  database: (variant: string, database: string, i: number) => `database:${variant}:${database}:${i}`,
  tables: (variant: string, set: string) => `tables:${variant}:${set}`,
  data: (variant: string, set: string, i: number) => `data:${variant}:${set}:${i}`,
  cleanup: (variant: string, set: string, i: number) => `cleanup:${variant}:${set}:${i}`,
  drop: (variant: string, set: string) => `drop:${variant}:${set}`,
  warmup: (variant: string, w: Named, threads: number) => `warmup:${variant}:${w.name}:${threads}`,
  run: (variant: string, w: Named, threads: number) => `run:${variant}:${w.name}:${threads}`,
};

/** A data set's key: the workloads whose driver loads the same data share it. */
export const dataSetKey = (w: Spec["workloads"][number], spec: Spec): string =>
  `${w.driver}:${driverOf(w.driver).dataKey(w, spec.data)}`;

/** What the plan leaves to the run, as the plan writes it: a port picked at start, a password. */
export const AT_START = { port: PORT_TEXT, password: PASSWORD_AT_START } as const;

/**
 * On a server tiperf does not own: the listing of the run's database before and after each load
 * (a table of the tool's own name there refuses the run; the new ones are the run's) and the DROP
 * of exactly those, instead of the load tool's own cleanup.
 */
function borrowedSteps(w: Spec["workloads"][number], spec: Spec, connection: Connection, variant: string) {
  const driver = driverOf(w.driver);
  const database = connection.database ?? driver.database(w);
  const set = dataSetKey(w, spec);
  const listing: PlanStep = {
    key: loadKey.tables(variant, set),
    phase: "load",
    where: "runner",
    run: { sql: tableNamesSql(connection.protocol, database) },
    about: `workload ${w.name}: before the load (none of ${driver.tables(w, spec.data).join(", ")} may be there: refused) and after it; the new ones are this run's`,
  };
  const drop: PlanStep = {
    key: loadKey.drop(variant, set),
    phase: "cleanup",
    where: "runner",
    run: { sql: `DROP TABLE <each table this run created in ${database}>` },
    about: `data of ${w.name}, after the last cell (failed or not): the server is borrowed, so ${driver.name}'s own cleanup never runs there`,
  };
  return { listing, drop };
}

/** Where and how a variant's load tools run, as loadSteps plans them. */
interface LoadPlace {
  connection: Connection;
  where: PlanStep["where"];
  /** CPUs where the load tools run: data steps load with up to this many threads. */
  cores: number;
  borrowed?: boolean;
  databaseSql?: (name: string) => string[];
}

/** One workload's steps: its tool's command lines as plan steps of this variant, keyed. */
function workloadSteps(variant: string, spec: Spec, w: Spec["workloads"][number], o: LoadPlace) {
  const driver = driverOf(w.driver);
  const tool = (o.where === "runner" && driver.findTool(w.script)) || driver.namedTool(w.script);
  // the CPUs a run's data steps load with (this machine's, a pod's, or the load host's own)
  const ctx = (threads: number) => ({
    workload: w,
    threads,
    connection: o.connection,
    cores: o.cores,
    ...(spec.data ? { data: spec.data } : {}),
  });
  // a port picked at start shows as <port>
  const port = (a: string) => a.replace(String(PORT_AT_START), AT_START.port);
  const step = (key: string, phase: string, s: Step, about: string): PlanStep => ({
    key,
    phase,
    variant,
    where: o.where,
    run: { command: [tool.command, ...tool.prefix, ...s.args.map(port)] },
    about,
    ...(s.limitS !== undefined ? { limit_s: s.limitS } : {}),
    ...(s.stopAfterS !== undefined ? { stop_after_s: s.stopAfterS } : {}),
  });
  const set = dataSetKey(w, spec);
  const loading =
    o.where === "load host"
      ? `workload ${w.name}; loading threads up to the load host's CPU count (nproc there once the run reaches it; this machine's before)`
      : o.where === "pod"
        ? `workload ${w.name}; loading threads up to the ${o.cores} CPUs the deployment gives the load tools`
        : `workload ${w.name}`;
  return {
    data: () =>
      driver
        .setup(ctx(Math.max(...w.threads)))
        .map((s, i) => step(loadKey.data(variant, set, i), s.phase, s, loading)),
    cleanup: () =>
      driver
        .cleanup(ctx(1))
        .map((s, i) =>
          step(loadKey.cleanup(variant, set, i), s.phase, s, `data of ${w.name}, after the last cell`),
        ),
    cells: () =>
      w.threads.flatMap((t) => {
        const warm = driver.warmup?.(ctx(t));
        const about = `workload ${w.name}: the ${w.warmup}s warmup, its own run (not measured)`;
        return [
          ...(warm ? [step(loadKey.warmup(variant, w, t), "cell", warm, about)] : []),
          step(loadKey.run(variant, w, t), "cell", driver.run(ctx(t)), `workload ${w.name}`),
        ];
      }),
  };
}

/** tiperf's own statements that give a data set its database (none where the server gives the run one). */
function databaseSteps(variant: string, w: Spec["workloads"][number], o: LoadPlace): PlanStep[] {
  // an existing server's database is the run's (the kind's start steps), never created here
  if (o.connection.database !== undefined) return [];
  const database = driverOf(w.driver).database(w);
  return (o.databaseSql ?? createDatabaseSql)(database).map((sql, i) => ({
    key: loadKey.database(variant, database, i),
    phase: "load",
    variant,
    // tiperf's own statement: from here, but where the load host is the way in
    where: o.where === "pod" ? "runner" : o.where,
    run: { sql },
    about: `workload ${w.name}`,
  }));
}

/** The load tools' steps of one variant: data steps once per data set, then a run per thread count. */
export function loadSteps(variant: string, spec: Spec, o: LoadPlace) {
  const data: PlanStep[] = [];
  const cells: PlanStep[] = [];
  const cleanup: PlanStep[] = [];
  const seen = new Set<string>();
  for (const w of spec.workloads) {
    const steps = workloadSteps(variant, spec, w, o);
    const set = dataSetKey(w, spec);
    if (!seen.has(set)) {
      seen.add(set);
      const borrowed = o.borrowed ? borrowedSteps(w, spec, o.connection, variant) : undefined;
      data.push(...databaseSteps(variant, w, o), ...(borrowed ? [borrowed.listing] : []), ...steps.data());
      cleanup.push(...(borrowed ? [borrowed.drop] : steps.cleanup()));
    }
    cells.push(...steps.cells());
  }
  return { data, cells, cleanup };
}

/** Every data set of every variant's workloads (one per database), with the tables it creates. */
export function loadsOf(loaded: LoadedSpec): TargetPlanInput["loads"] {
  const specs = loaded.variants ? loaded.variants.all.map((v) => v.spec) : [loaded.spec];
  const out = new Map<string, Set<string>>();
  for (const spec of specs)
    for (const w of spec.workloads) {
      const driver = driverOf(w.driver);
      const db = driver.database(w);
      const tables = out.get(db) ?? new Set<string>();
      for (const t of driver.tables(w, spec.data)) tables.add(t);
      out.set(db, tables);
    }
  return [...out].map(([database, tables]) => ({ database, tables: [...tables] }));
}
