// A bench's data: every data set of the spec's workloads loaded once (the plan's database
// statements, then its load tool's data steps: prepare → prewarm → check), loaded again where
// compare.reload_data asks, and dropped at the end as far as the server's owner allows
// (bench/tables.ts). Every step is the plan's, looked up by key (bench/load-steps.ts).
import { driverOf } from "../drivers/registry.ts";
import type { Driver, Workload } from "../drivers/types.ts";
import { RunError } from "../errors.ts";
import type { RunDir } from "../result/store.ts";
import type { Spec } from "../specfile/schema.ts";
import { able, type PlanStep, type Target } from "../targets/types.ts";
import type { LoadTools } from "./load-runs.ts";
import { dataSetKey, loadKey } from "./load-steps.ts";
import { type RunTables, tablesOf } from "./tables.ts";
import { describeFailure } from "./tools.ts";

/** A data set prepared on the target, shared by the workloads whose driver gives the same key. */
interface DataSet {
  /** Its key (dataSetKey): the plan's steps of it are keyed by it. */
  key: string;
  driver: Driver;
  workload: Workload;
}

export class BenchData {
  private readonly sets: DataSet[];
  /** What the run may drop of the tables its loads wrote, by who owns the server (bench/tables.ts). */
  readonly tables: RunTables;

  constructor(
    private readonly o: {
      variant: string;
      spec: Spec;
      target: Target;
      tools: LoadTools;
      runDir: RunDir;
      log: (line: string) => void;
    },
  ) {
    const seen = new Map<string, DataSet>();
    for (const w of o.spec.workloads) {
      const key = dataSetKey(w, o.spec);
      if (!seen.has(key)) seen.set(key, { key, driver: driverOf(w.driver), workload: w });
    }
    this.sets = [...seen.values()];
    this.tables = tablesOf(o.target, { variant: o.variant, spec: o.spec, log: o.log, tools: o.tools });
  }

  /** Every data set loaded: the database statements → data steps, then the target's own after-load. */
  async load(signal: AbortSignal): Promise<void> {
    const { target, variant, tools } = this.o;
    const shared = target.sharedData;
    for (const ds of this.sets) {
      // variants on one deployment load its data once
      if (shared?.loaded.has(ds.key)) {
        this.o.log(`${variant}: ${ds.driver.name} data already loaded on this deployment`);
        continue;
      }
      await able(target.activate)?.(signal);
      // an existing server gives the run a database of its own: every data set loads there
      const database = target.connection.database ?? ds.driver.database(ds.workload);
      if (target.connection.database === undefined) {
        const statements = tools.plannedAll((i) => loadKey.database(variant, database, i));
        for (const s of statements) tools.record(s);
        await target.createDatabase(
          database,
          statements.map((s) => (s.run as { sql: string }).sql),
        );
      }
      await this.tables.beforeLoad(ds.key, ds, database);
      for (const step of tools.plannedAll((i) => loadKey.data(variant, ds.key, i)))
        await this.step(ds, step, signal);
      await this.tables.afterLoad(ds.key);
      await able(target.afterLoad)?.({
        database,
        tables: ds.driver.tables(ds.workload, this.o.spec.data),
        ...(ds.driver.sizedBySpecData && this.o.spec.data ? { sysbench: this.o.spec.data } : {}),
      });
      shared?.loaded.add(ds.key);
    }
  }

  /**
   * compare.reload_data: the data loaded again (each data set's cleanup, then as at open), so the
   * data is part of the instance a block samples. Refused in the plan where variants share data.
   */
  async reload(signal: AbortSignal): Promise<void> {
    const { target, variant } = this.o;
    if (target.sharedData && target.sharedData.users > 1)
      throw new RunError(
        `${variant}: its data is shared with another variant on one deployment: it cannot be loaded again alone`,
      );
    for (const ds of this.sets) {
      await this.tables.dropForReload(ds.key, async () => {
        for (const step of this.o.tools.plannedAll((i) => loadKey.cleanup(variant, ds.key, i)))
          await this.step(ds, step, signal);
      });
      target.sharedData?.loaded.delete(ds.key);
    }
    await this.load(signal);
  }

  /**
   * Drops the data as far as its owner allows (on a server tiperf created the load tools' cleanup,
   * skipped after a failed run; on a borrowed one the tables this run created).
   */
  async dropAtEnd(signal: AbortSignal, failed: boolean): Promise<void> {
    const { target, variant } = this.o;
    if (target.sharedData && target.sharedData.users > 1)
      this.o.log(`${variant}: cleanup left to the last variant on this deployment`);
    else await this.tables.dropAtEnd({ failed, signal, cleanup: () => this.cleanup(signal) });
  }

  /** The load tools' cleanup of every data set on a server tiperf created; a failure is logged. */
  private async cleanup(signal: AbortSignal): Promise<void> {
    for (const ds of this.sets)
      for (const step of this.o.tools.plannedAll((i) => loadKey.cleanup(this.o.variant, ds.key, i))) {
        const limitS = step.limit_s ?? 120;
        const r = await this.o.tools.run(step, this.logFile(ds, step), signal, { limitS });
        if (r.code !== 0 || r.timedOut)
          this.o.log(
            `${this.o.variant}: ${describeFailure(ds.driver.name, step.phase, r, undefined, `${limitS}s`, this.o.target.state())}`,
          );
      }
  }

  private logFile(ds: DataSet, step: PlanStep): string {
    return this.o.runDir.raw(`${this.o.variant}-${ds.driver.name}-${step.phase}.log`);
  }

  /** A data step (prepare, prewarm, check, a reload's cleanup): a failure stops the run. */
  private async step(ds: DataSet, step: PlanStep, signal: AbortSignal): Promise<void> {
    const { variant, tools } = this.o;
    this.o.log(`${variant}: ${ds.driver.name} ${step.phase}${step.about ? ` (${step.about})` : ""}`);
    const limitS = step.limit_s ?? 600;
    const logFile = this.logFile(ds, step);
    const r = await tools.run(step, logFile, signal, { limitS });
    const died = await tools.diedWith(r);
    if (died)
      throw new RunError(
        `${variant}: ${ds.driver.name} ${step.phase} stopped: ${died} (raw output: ${logFile})`,
      );
    const said = ds.driver.failure(r.output);
    if (r.code !== 0 || r.aborted || r.timedOut || said) {
      throw new RunError(
        `${variant}: ${describeFailure(ds.driver.name, step.phase, r, said, `${limitS}s`, this.o.target.state())} (raw output: ${logFile})`,
      );
    }
  }
}
