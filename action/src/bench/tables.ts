// What a run may do to the tables its loads wrote, by who owns the server: chosen once, when the
// bench opens (tablesOf), so nothing else asks who owns it. On a server tiperf created, the load
// tools' own cleanup drops their data (skipped after a failure: the data goes with the server). On
// a borrowed one (an endpoint), the tables of its database are listed before and after each load,
// and only those the run created are ever dropped, failed or not: the plan's steps of those keys
// (`tables:`, `drop:`), recorded as they run.
import type { Driver, Workload } from "../drivers/types.ts";
import { RunError } from "../errors.ts";
import type { Spec } from "../specfile/schema.ts";
import type { BorrowedTarget, PlanStep, Target } from "../targets/types.ts";
import type { LoadTools } from "./load-runs.ts";
import { loadKey } from "./load-steps.ts";

/** One load tool's data: the workload whose load writes it. */
export interface LoadedSet {
  driver: Driver;
  workload: Workload;
}

export interface RunTables {
  /** Before a data set's load into `database` (the key names the data set). */
  beforeLoad(key: string, set: LoadedSet, database: string): Promise<void>;
  /** After that load. */
  afterLoad(key: string): Promise<void>;
  /** One data set's tables gone before it loads again (compare.reload_data). */
  dropForReload(key: string, cleanup: () => Promise<void>): Promise<void>;
  /** Every data set's tables at the end of the run, as far as its owner allows. */
  dropAtEnd(o: { failed: boolean; signal: AbortSignal; cleanup: () => Promise<void> }): Promise<void>;
}

/** The tables' keeper for this target. */
export function tablesOf(
  target: Target,
  o: {
    variant: string;
    spec: Spec;
    log: (line: string) => void;
    /** The plan's steps by key, and where each is recorded as executed. */
    tools: Pick<LoadTools, "planned" | "record">;
  },
): RunTables {
  return target.owner === "borrowed" ? new BorrowedTables(target, o) : new OwnTables(o);
}

/** A server tiperf created: the load tools' cleanup, not after a failed or cancelled run. */
class OwnTables implements RunTables {
  constructor(private readonly o: { variant: string; log: (line: string) => void }) {}
  async beforeLoad(): Promise<void> {}
  async afterLoad(): Promise<void> {}
  async dropForReload(_key: string, cleanup: () => Promise<void>): Promise<void> {
    await cleanup();
  }
  async dropAtEnd(o: { failed: boolean; signal: AbortSignal; cleanup: () => Promise<void> }): Promise<void> {
    if (o.failed)
      this.o.log(
        `${this.o.variant}: cleanup skipped: the run ${o.signal.aborted ? "was cancelled" : "failed"} (the data goes with the server tiperf created)`,
      );
    else if (!o.signal.aborted) await o.cleanup();
  }
}

/** A borrowed server: the tables each load created, the only ones dropped. */
class BorrowedTables implements RunTables {
  /** Per data set: its database, the tables there before its load, the ones it created. */
  private readonly seen = new Map<
    string,
    { set: LoadedSet; database: string; before: Set<string>; created?: string[] }
  >();

  constructor(
    private readonly target: BorrowedTarget,
    private readonly o: {
      variant: string;
      spec: Spec;
      log: (line: string) => void;
      tools: Pick<LoadTools, "planned" | "record">;
    },
  ) {}

  private names(set: LoadedSet): string[] {
    return set.driver.tables(set.workload, this.o.spec.data);
  }

  /** The tables of the data set's database now, by the plan's listing step (recorded). */
  private async list(key: string, database: string): Promise<string[]> {
    const step = this.o.tools.planned(loadKey.tables(this.o.variant, key));
    if (!("sql" in step.run)) throw new RunError(`plan step ${step.key}: not SQL`);
    this.o.tools.record({ ...step, variant: this.o.variant });
    return this.target.tablesIn(database, step.run.sql);
  }

  /** Drops one table the run created, recorded as the plan's drop step of its data set with that table. */
  private async dropOne(database: string, table: string, step: PlanStep): Promise<void> {
    const sql = await this.target.dropTable(database, table);
    this.o.tools.record({ ...step, variant: this.o.variant, run: { sql } });
  }

  /** One of the load tool's own names already there is refused: its load and cleanup would take it. */
  async beforeLoad(key: string, set: LoadedSet, database: string): Promise<void> {
    const there = await this.list(key, database);
    const lower = new Set(there.map((t) => t.toLowerCase()));
    const taken = this.names(set).filter((t) => lower.has(t.toLowerCase()));
    if (taken.length > 0)
      throw new RunError(
        `${this.o.variant}: database ${database} on ${this.target.where} already holds ${taken.join(", ")}: ${set.driver.name}'s load writes tables of these names and its cleanup drops them, and tiperf touches no table it did not create (drop or rename them, or leave endpoint.database out so the run creates a database of its own)`,
      );
    this.seen.set(key, { set, database, before: new Set(there) });
  }

  async afterLoad(key: string): Promise<void> {
    const seen = this.seen.get(key);
    if (!seen) return;
    seen.created = (await this.list(key, seen.database))
      .filter((t) => !seen.before.has(t))
      .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
    this.o.log(
      `${this.o.variant}: this run created ${seen.created.length} table(s) in ${seen.database} on ${this.target.where}: ${seen.created.join(", ")} (the only ones it drops)`,
    );
  }

  async dropForReload(key: string): Promise<void> {
    await this.drop(key);
  }

  async dropAtEnd(): Promise<void> {
    await this.drop();
  }

  /**
   * Drops the tables this run created (of one data set, or all), never through the load tools'
   * cleanup. A load that failed part-way: the tool's own names that appeared since.
   */
  private async drop(key?: string): Promise<void> {
    for (const [k, seen] of [...this.seen]) {
      if (key !== undefined && k !== key) continue;
      const own = new Set(this.names(seen.set).map((t) => t.toLowerCase()));
      const tables =
        seen.created ??
        (await this.list(k, seen.database)).filter((t) => !seen.before.has(t) && own.has(t.toLowerCase()));
      const dropped: string[] = [];
      const step = this.o.tools.planned(loadKey.drop(this.o.variant, k));
      try {
        for (const t of tables) {
          await this.dropOne(seen.database, t, step);
          dropped.push(t);
        }
      } catch (e) {
        const left = tables.filter((t) => !dropped.includes(t));
        throw new RunError(
          `${this.o.variant}: dropping this run's tables in ${seen.database} on ${this.target.where} failed (${(e as Error).message}); left there: ${left.join(", ")}`,
        );
      }
      this.seen.delete(k);
      this.o.log(
        `${this.o.variant}: dropped the ${dropped.length} table(s) this run created in ${seen.database} on ${this.target.where}${dropped.length ? `: ${dropped.join(", ")}` : ""}; nothing else there was touched`,
      );
    }
  }
}
