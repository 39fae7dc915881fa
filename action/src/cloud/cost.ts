// What a run on a cloud would cost and whether it may start: the cloud's prices per hour times the
// run's hours, checked against the settings' budget and time to live before anything is created.
import { InputError } from "../errors.ts";
import type { KubernetesAsk, Prices } from "./provider.ts";

/** What a cluster is priced and limited by: its ask's settings (ttl, budget). */
export type Asked = { settings: { ttl: string; budget?: number } };

import { ttlMs } from "./settings.ts";

/** Hours of one run: provisioning and deployment, loading, the matrix and teardown. */
export interface RunHours {
  setup: number;
  matrix: number;
}

export interface CostEstimate {
  /** $/h of all machines and volumes together. */
  perHour: number;
  hours: number;
  dollars: number;
  lines: { what: string; count: number; perHour: number }[];
  priceTable: { as_of: string; source: string };
  /** What was priced: "on-demand in us-west-2; …". */
  terms: string;
}

/** The run's estimated cost: each line's $/h times the run's hours (billed per second). */
export function estimateCost<A extends Asked>(
  cloud: { prices(ask: A): Prices },
  ask: A,
  hours: RunHours,
): CostEstimate {
  const prices = cloud.prices(ask);
  const perHour = prices.lines.reduce((sum, l) => sum + l.count * l.perHour, 0);
  const total = hours.setup + hours.matrix;
  return {
    perHour,
    hours: total,
    dollars: perHour * total,
    lines: prices.lines,
    priceTable: prices.priceTable,
    terms: prices.terms,
  };
}

/**
 * What machines cost over the hours they lived (billed per second), from their creation to the end
 * of their deletion (or until now while they live): the result's and the comment's cost line.
 */
export function measuredCost(o: {
  profile: string;
  perHour: number;
  asOf: string;
  startedAt: number;
  endedAt?: number | undefined;
}) {
  const hours = ((o.endedAt ?? Date.now()) - o.startedAt) / 3_600_000;
  return {
    currency: "USD" as const,
    basis: "measured" as const,
    profile: o.profile,
    per_hour: o.perHour,
    hours: Math.round(hours * 1000) / 1000,
    dollars: Math.round(o.perHour * hours * 100) / 100,
    prices_as_of: o.asOf,
  };
}

/** Whether the cluster would expire (and be reaped) before the run is estimated to end. */
export function outlivesTtl(ask: Asked, estimate: CostEstimate): boolean {
  return estimate.hours * 3_600_000 > ttlMs(ask.settings.ttl);
}

/**
 * Refuses, before anything is created, a run whose estimate is above the settings' budget, or
 * that would outlive its ttl (the reaper would remove the cluster in the middle of the matrix).
 * `section` is the settings' key in the file (aws).
 */
export function checkBudget(ask: Asked, estimate: CostEstimate, file: string, section: string): void {
  if (outlivesTtl(ask, estimate))
    throw new InputError(
      `${file}: ${section}.ttl is ${ask.settings.ttl} but this run is estimated at ${estimate.hours.toFixed(2)} h: the reaper would remove the cluster mid-run; nothing was created. Raise the ttl or shorten the matrix`,
    );
  const budget = ask.settings.budget;
  if (budget !== undefined && estimate.dollars > budget)
    throw new InputError(
      `${file}: ${section}.budget is $${budget.toFixed(2)} but this run is estimated at $${estimate.dollars.toFixed(2)} (${estimate.hours.toFixed(2)} h × $${estimate.perHour.toFixed(2)}/h); nothing was created. Raise the budget, shorten the matrix or pick smaller instance types`,
    );
}

export function estimateText(e: CostEstimate): string {
  const lines = [
    `estimated cost: $${e.dollars.toFixed(2)} (${e.hours.toFixed(2)} h × $${e.perHour.toFixed(3)}/h ${e.terms})`,
  ];
  for (const l of e.lines)
    lines.push(
      `  ${String(l.count).padStart(4)} × ${l.what.padEnd(14)} $${l.perHour.toFixed(l.what.includes("GB") ? 5 : 4)}/h`,
    );
  lines.push(`  prices as of ${e.priceTable.as_of}: ${e.priceTable.source}`);
  return lines.join("\n");
}

/**
 * One price line per machine type of a Kubernetes ask's node pools (how many nodes, $/h each);
 * `price` names the profile key a type came from when it has no price.
 */
export function poolMachineLines(
  ask: KubernetesAsk,
  price: (type: string, key: string) => number,
): Prices["lines"] {
  const counts = new Map<string, { count: number; key: string }>();
  for (const p of ask.pools) {
    const c = counts.get(p.machineType);
    counts.set(p.machineType, {
      count: (c?.count ?? 0) + p.count,
      key: c?.key ?? (p.name === "load" ? "kubernetes.load.instance_type" : `roles.${p.name}.instance_type`),
    });
  }
  return [...counts].map(([type, c]) => ({ what: type, count: c.count, perHour: price(type, c.key) }));
}
