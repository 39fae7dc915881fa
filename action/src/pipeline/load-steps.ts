// The load tools' steps of one variant as the plan lists them: tiperf's SQL that gives the run its
// database, each data set's steps once, a run per thread count, and on an existing server its
// tables listed before and after the load and dropped at the end (the run executes these words).

import { driverOf } from "../drivers/registry.ts";
import type { Spec } from "../specfile/schema.ts";
import { createDatabaseSql, tableNamesSql } from "../targets/tables.ts";
import { type Connection, type PlanStep, PORT_AT_START } from "../targets/types.ts";

/**
 * On a server tiperf does not own: the listing of the run's database before and after each load
 * (a table of the tool's own name there refuses the run; the new ones are the run's) and the DROP
 * of exactly those, instead of the load tool's own cleanup.
 */
function borrowedSteps(w: Spec["workloads"][number], spec: Spec, connection: Connection) {
  const driver = driverOf(w.driver);
  const database = connection.database ?? driver.database(w);
  const listing: PlanStep = {
    phase: "load",
    where: "runner",
    run: { sql: tableNamesSql(connection.protocol, database) },
    about: `workload ${w.name}: before the load (none of ${driver.tables(w, spec.data).join(", ")} may be there: refused) and after it; the new ones are this run's`,
  };
  const drop: PlanStep = {
    phase: "cleanup",
    where: "runner",
    run: { sql: `DROP TABLE <each table this run created in ${database}>` },
    about: `data of ${w.name}, after the last cell (failed or not): the server is not tiperf's, so ${driver.name}'s own cleanup never runs there`,
  };
  return { listing, drop };
}

/** The load tools' steps of one variant: data steps once per data set, then a run per thread count. */
export function loadSteps(
  spec: Spec,
  connection: Connection,
  where: PlanStep["where"],
  cores: number,
  borrowed = false,
  databaseSql: (name: string) => string[] = createDatabaseSql,
) {
  const data: PlanStep[] = [];
  const cells: PlanStep[] = [];
  const cleanup: PlanStep[] = [];
  const seen = new Set<string>();
  for (const w of spec.workloads) {
    const driver = driverOf(w.driver);
    const tool = (where === "runner" && driver.findTool(w.script)) || driver.namedTool(w.script);
    // the CPUs a run's data steps load with (Bench: this machine's; a load host's are its own)
    const ctx = (threads: number) => ({
      workload: w,
      threads,
      connection,
      cores,
      ...(spec.data ? { data: spec.data } : {}),
    });
    // a port picked at start shows as <port>
    const port = (a: string) => a.replace(String(PORT_AT_START), "<port>");
    const step = (phase: string, args: string[], about: string): PlanStep => ({
      phase,
      where,
      run: { command: [tool.command, ...tool.prefix, ...args.map(port)] },
      about,
    });
    const key = `${w.driver}:${driver.dataKey(w, spec.data)}`;
    if (!seen.has(key)) {
      seen.add(key);
      // an existing server's database is the run's (the kind's start steps), never created here
      if (connection.database === undefined)
        for (const sql of databaseSql(driver.database(w)))
          data.push({
            phase: "load",
            // tiperf's own statement: from here, but where the load host is the way in
            where: where === "pod" ? "runner" : where,
            run: { sql },
            about: `workload ${w.name}`,
          });
      if (borrowed) data.push(borrowedSteps(w, spec, connection).listing);
      for (const s of driver.setup(ctx(Math.max(...w.threads))))
        data.push(
          step(
            s.phase,
            s.args,
            where === "load host"
              ? `workload ${w.name}; loading threads up to the load host's CPU count (nproc there at run time; shown for this machine's)`
              : where === "pod"
                ? `workload ${w.name}; loading threads up to the ${cores} CPUs the deployment gives the load tools`
                : `workload ${w.name}`,
          ),
        );
      if (borrowed) cleanup.push(borrowedSteps(w, spec, connection).drop);
      else
        for (const s of driver.cleanup(ctx(1)))
          cleanup.push(step(s.phase, s.args, `data of ${w.name}, after the last cell`));
    }
    for (const t of w.threads) {
      const warm = driver.warmup?.(ctx(t));
      if (warm)
        cells.push(
          step("cell", warm.args, `workload ${w.name}: the ${w.warmup}s warmup, its own run (not measured)`),
        );
      cells.push(step("cell", driver.run(ctx(t)).args, `workload ${w.name}`));
    }
  }
  return { data, cells, cleanup };
}
