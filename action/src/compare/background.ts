// One background for the run: what the idle servers grew their counters by per second, and what
// a reading of the counters adds, averaged over every measured server of every variant, taken off
// every cell before a cost per operation is judged. One idle window of 2 s per server reads a
// server's background less precisely than servers differ in it, and a mean per variant would turn
// the chance gap between two such means into a steady difference per operation that no interval
// sees (bench/counters: tidb-server's heap bytes per point_select −0.22% by variant means, +0.48%
// by the run's, +0.34% raw, where its allocations grew +0.6%). Taken off alike on both sides, a
// build's own extra background enters its cost per operation by that work's share of the window;
// the counter list shows it per second where it is most of a counter's growth.
import { type Background, costMetric, netCost } from "../observe/cost.ts";
import type { Cell, Result } from "../result/model.ts";

type Cost = NonNullable<Cell["cost"]>;

const meanOf = (records: readonly Record<string, number>[]): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const r of records)
    for (const [k, v] of Object.entries(r)) out[k] = (out[k] ?? 0) + v / records.length;
  return out;
};

/** A cell's own idle readings: as its bench measured them, before the run's background replaced them. */
const ownOf = (c: Cost) =>
  c.own_idle_per_s
    ? { per_s: c.own_idle_per_s, per_reading: c.own_reading_cost }
    : { per_s: c.idle_per_s, per_reading: c.reading_cost };

/**
 * The run's background: the mean over its measured cells' own idle readings (every variant's);
 * none where no cell has one. Taken from the cells' own readings, so a result it was already
 * taken off gives the same background again, to the digit.
 */
export function pooledBackground(result: Result): Background | undefined {
  const costs = result.cells
    .filter(
      (c) => c.status === "ok" && c.round > 0 && c.cost && Object.keys(ownOf(c.cost).per_s ?? {}).length,
    )
    .map((c) => ownOf(c.cost as Cost));
  if (!costs.length) return undefined;
  return {
    per_s: meanOf(costs.map((c) => c.per_s ?? {})),
    per_reading: meanOf(costs.map((c) => c.per_reading ?? {})),
  };
}

/**
 * The result with every measured cell's cost metrics taken again with the run's background (its
 * cost record then names that background); cells without counters stay as they are.
 */
export function withPooledBackground(result: Result): Result {
  const bg = pooledBackground(result);
  if (!bg) return result;
  const cells = result.cells.map((c): Cell => {
    if (!c.cost || c.round <= 0) return c;
    const cost = c.cost;
    const metrics = Object.fromEntries(
      Object.entries(c.metrics).map(([name, m]) => {
        const value = netCost(name, cost.counters, cost.window_s, cost.ops, bg);
        return [name, value === undefined ? m : { ...m, value }];
      }),
    );
    const own = ownOf(cost);
    return {
      ...c,
      metrics,
      cost: {
        ...cost,
        idle_per_s: bg.per_s,
        reading_cost: bg.per_reading,
        // what it measured itself (nothing, where it measured none): the run's background again from it
        own_idle_per_s: own.per_s ?? {},
        own_reading_cost: own.per_reading ?? {},
      },
    };
  });
  return { ...result, cells };
}

/**
 * The result with these cost metrics taken from each measured cell's recorded counters where the
 * run did not judge them (a metric a spec names after its A/A ran: calibrate --from-result), each
 * net of that cell's own background as the run recorded it; the judge then pools the background.
 */
export function withCounterMetrics(result: Result, names: readonly string[]): Result {
  const wanted = names.filter((n) => costMetric(n));
  if (!wanted.length) return result;
  const cells = result.cells.map((c): Cell => {
    const cost = c.cost;
    const missing = wanted.filter((n) => !c.metrics[n]);
    if (!cost || c.round <= 0 || !missing.length) return c;
    const own = ownOf(cost);
    const bg = { per_s: own.per_s ?? {}, per_reading: own.per_reading ?? {} };
    const added = missing.flatMap((n) => {
      const value = netCost(n, cost.counters, cost.window_s, cost.ops, bg);
      const unit = costMetric(n)?.unit ?? "1/op";
      return value === undefined ? [] : [[n, { value, unit, better: "lower" as const }]];
    });
    return { ...c, metrics: { ...c.metrics, ...Object.fromEntries(added) } };
  });
  return { ...result, cells };
}
