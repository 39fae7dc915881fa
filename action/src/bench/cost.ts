// A bench's cost per operation: the target's own counters (observe/cost.ts) read over each cell's
// steady window, less what the idle servers do by themselves (measured after each start and data
// load) and what one reading adds, per operation the load tool counted.
import type { Driver, Workload } from "../drivers/types.ts";
import {
  type Background,
  COUNTERS_TIMEOUT_MS,
  type CounterReading,
  costMetric,
  costOf,
  idleRates,
  idleWindowOf,
} from "../observe/cost.ts";
import type { Cell } from "../result/model.ts";
import { able, type Target } from "../targets/types.ts";

/** A cell's counters over its measured window: started at the load tool's spawn, ended after it. */
export interface CostWindow {
  start(): void;
  end(): Promise<{ before: CounterReading; after: CounterReading } | undefined>;
}

export class BenchCost {
  /** The idle servers' background and one reading's cost, taken off every cell's cost (see measureIdle). */
  private idle: Background | undefined;

  constructor(private readonly o: { variant: string; target: Target; log: (line: string) => void }) {}

  /** Whether the target keeps counters tiperf reads. */
  get readable(): boolean {
    return able(this.o.target.costCounters) !== undefined;
  }

  /** The target's counters now, or undefined when it has none or they cannot be read. */
  private async counters(): Promise<CounterReading | undefined> {
    const read = able(this.o.target.costCounters);
    if (!read) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((res) => {
      timer = setTimeout(() => res(undefined), COUNTERS_TIMEOUT_MS + 1000);
    });
    const counters = await Promise.race([read().catch(() => undefined), late]);
    clearTimeout(timer);
    return counters && Object.keys(counters).length ? { at: performance.now(), counters } : undefined;
  }

  /**
   * What the idle servers' counters grow by per second (background work: statistics, GC, purge,
   * TTL), over IDLE_WINDOW_S (a counting build's statements: CODE_IDLE_WINDOW_S) after each start and data load, and what one reading of them adds;
   * each cell's cost has both taken off (a comparison takes them again with the run's mean,
   * compare/background.ts).
   */
  async measureIdle(signal: AbortSignal): Promise<void> {
    const first = await this.counters();
    // read again at once: the gap is one reading's own cost (observe/cost.ts Background)
    const before = first && (await this.counters());
    if (!first || !before) return;
    const windowS = idleWindowOf(first.counters);
    // the listener goes when the window ends: one per start would pile up on the run's signal
    await new Promise<void>((res) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        res();
      };
      const timer = setTimeout(done, windowS * 1000);
      signal.addEventListener("abort", done, { once: true });
    });
    const after = await this.counters();
    if (!after || signal.aborted) return;
    this.idle = idleRates(first, before, after);
    const cpu = this.idle.per_s.cpu_s;
    if (cpu !== undefined)
      this.o.log(
        `${this.o.variant}: idle servers used ${(cpu * 100).toFixed(1)}% of a CPU over ${windowS}s (taken off each cell's cpu_ms_per_op)`,
      );
  }

  /**
   * A cell's counters over its measured window: read when the load tool's steady window starts
   * (at its spawn; `inRunWarmupS` later where the tool warms up within the run) and when it ends.
   */
  window(inRunWarmupS: number): CostWindow {
    let before: Promise<CounterReading | undefined> | undefined;
    let timer: NodeJS.Timeout | undefined;
    return {
      start: () => {
        before =
          inRunWarmupS > 0
            ? new Promise((res) => {
                timer = setTimeout(() => res(this.counters()), inRunWarmupS * 1000);
              })
            : this.counters();
      },
      end: async () => {
        clearTimeout(timer);
        const b = await before;
        const after = b ? await this.counters() : undefined;
        return b && after ? { before: b, after } : undefined;
      },
    };
  }

  /** A cell's cost metrics from its counters: their growth per operation the tool counted. */
  ofCell(
    w: Workload,
    op: ReturnType<Driver["operations"]>,
    measured: Record<string, number>,
    readings: { before: CounterReading; after: CounterReading },
  ): { metrics: Cell["metrics"]; record: NonNullable<Cell["cost"]> } | undefined {
    const rate = op ? measured[op.metric] : undefined;
    if (!op || rate === undefined || !(rate > 0)) return undefined;
    const { metrics, record } = costOf(
      readings.before,
      readings.after,
      rate * op.perSecond * w.duration,
      this.idle,
      // the server counters the spec judges per operation (statements_per_op, "<counter>/op")
      Object.keys(w.judge),
    );
    const out: Cell["metrics"] = {};
    for (const [name, value] of Object.entries(metrics)) {
      const info = costMetric(name);
      if (info && Number.isFinite(value)) out[name] = { value, unit: info.unit, better: "lower" };
    }
    return { metrics: out, record };
  }
}
