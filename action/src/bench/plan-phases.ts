// A plan's steps by when they run — setup, per group of cells, per cell, at the end — from the
// target's steps and each variant's load tool steps (bench/load-steps.ts), with what variants
// share said once; and those load steps by variant, for the benches that carry them out.
import { cpus } from "node:os";
import type { LoadedSpec } from "../specfile/load.ts";
import type { Connection, PlanStep, TargetPlan } from "../targets/types.ts";
import { loadSteps } from "./load-steps.ts";

/** The CPUs the plan's data steps load with: this machine's (plan --cores), a load host's once reached. */
type LoadCores = { cores?: number; loadHostCores?: number };

/** A run's load tool steps, and a variant's planned again on the address its server took. */
export interface LoadPlan {
  /** Every variant's load tool steps by key (bench/load-steps.ts loadKey): the benches carry them out. */
  loadSteps: PlanStep[];
  /**
   * A variant's load tool steps planned again on the connection its server took, where that is
   * not the plan's (a playground that found its port busy and took another, as its output says).
   */
  loadStepsOn: (variant: string, connection: Connection) => PlanStep[];
}

/**
 * The steps of `more` whose commands `have` does not hold yet, named for `variant` when it is not
 * the first (the plan shows the first variant's steps as they are).
 */
function unseen(have: PlanStep[], more: PlanStep[], variant?: string): PlanStep[] {
  const seen = new Set(have.map((x) => JSON.stringify(x.run)));
  return more
    .filter((c) => !seen.has(JSON.stringify(c.run)))
    .map((c) => (variant === undefined ? c : { ...c, variant, about: `${c.about}; variant ${variant}` }));
}

/** The plan's steps by when they run: setup, per group (grouped switching), per cell, at the end. */
export interface Phases {
  setup: PlanStep[];
  perGroup: PlanStep[];
  perCell: PlanStep[];
  end: PlanStep[];
  /** A switch restarts servers: variants take turns per group of cells, not per cell. */
  grouped: boolean;
  refusals: string[];
  /** Every variant's load tool steps, keyed (the phases above show each once). */
  loads: PlanStep[];
  replans: Map<string, (c: Connection) => PlanStep[]>;
}

export function phasesOf(loaded: LoadedSpec, target: TargetPlan, o: LoadCores): Phases {
  const kindSteps = (phase: string[]) => target.steps.filter((s) => phase.includes(s.phase));
  const v = variantSteps(loaded, target, o);
  const grouped = target.switching === "grouped" && Boolean(loaded.variants);
  const blocks = loaded.variants?.compare.blocks ?? 1;
  const switches = kindSteps(["switch"]).filter((s) => !v.setup.includes(s));
  return {
    setup: v.setup,
    perGroup: grouped ? [...switches, ...kindSteps(["restart"])] : [],
    perCell: [
      ...(grouped ? [] : switches),
      ...kindSteps(["cell"]),
      ...v.cells,
      ...(!grouped && blocks > 1 ? [...kindSteps(["restart"]), ...v.reloads] : []),
    ],
    end: [...v.cleanup, ...kindSteps(["teardown"])],
    grouped,
    loads: v.loads,
    replans: v.replans,
    refusals:
      loaded.variants?.compare.reload_data && v.dataSets < (loaded.variants?.all.length ?? 1)
        ? [
            `${loaded.path}: compare.reload_data: variants share one deployment's data here (${target.switching} switching), so one variant's data cannot be loaded again alone: leave reload_data out`,
          ]
        : [],
  };
}

/**
 * Each variant's own steps (its kind's start, switch, SQL and record steps; its data; its cells),
 * with what variants share said once: variants sharing a deployment load its data once and clean
 * it up once (the last to leave: teardown goes in reverse); cell commands where they differ.
 */
function variantSteps(loaded: LoadedSpec, target: TargetPlan, o: LoadCores) {
  const variants = loaded.variants?.all ?? [{ name: "base", spec: loaded.spec }];
  const where: PlanStep["where"] = target.loadWhere ?? (target.remoteLoad ? "load host" : "runner");
  const kindSteps = (phase: string[], variant: string) =>
    target.steps.filter((s) => phase.includes(s.phase) && s.variant === variant);
  const setup: PlanStep[] = [];
  const cells: PlanStep[] = [];
  let cleanup: PlanStep[] = [];
  const data = new Set<string>();
  /** compare.reload_data: each variant's data steps again after its restart between blocks. */
  const reloads: PlanStep[] = [];
  /** Every variant's load tool steps, keyed: what its bench looks up and carries out. */
  const loads: PlanStep[] = [];
  const replans = new Map<string, (connection: Connection) => PlanStep[]>();
  for (const v of variants) {
    setup.push(...kindSteps(["start", "switch", "sql", "record"], v.name));
    // a load host's CPUs once the run reached it (planOnceOpen); before, this machine's
    const cores =
      target.loadCores ?? (where === "load host" ? o.loadHostCores : undefined) ?? o.cores ?? cpus().length;
    const place = {
      where,
      cores,
      borrowed: target.ownership === "borrowed",
      ...(target.databaseSql ? { databaseSql: target.databaseSql } : {}),
    };
    const load = loadSteps(v.name, v.spec, { ...place, connection: target.connection(v.name) });
    replans.set(v.name, (connection) => {
      const again = loadSteps(v.name, v.spec, { ...place, connection });
      return [...again.data, ...again.cells, ...again.cleanup];
    });
    loads.push(...load.data, ...load.cells, ...load.cleanup);
    const other = v === variants[0] ? undefined : v.name;
    if (!data.has(target.dataOf(v.name))) {
      data.add(target.dataOf(v.name));
      setup.push(...load.data.map((s) => ({ ...s, variant: v.name })), ...kindSteps(["after-load"], v.name));
      cleanup = [...unseen(cleanup, load.cleanup, other), ...cleanup];
    }
    cells.push(...unseen(cells, load.cells, other));
    if (loaded.variants?.compare.reload_data)
      reloads.push(
        ...[...load.cleanup, ...load.data].map((s) => ({
          ...s,
          variant: v.name,
          about: `${s.about ? `${s.about}; ` : ""}again after each restart (compare.reload_data)`,
        })),
      );
  }
  return { setup, cells, cleanup, reloads, loads, replans, dataSets: data.size };
}

/** The load tool steps a run's benches carry out, and how a variant's are planned again on another address. */
export function loadPlanOf(phases: Phases): LoadPlan {
  return {
    loadSteps: phases.loads,
    loadStepsOn: (variant, connection) => phases.replans.get(variant)?.(connection) ?? [],
  };
}

/** plan.json's steps: the setup, per group (grouped turns), per cell and at the end. */
export function stepsJson(phases: Phases) {
  return {
    setup: phases.setup,
    ...(phases.grouped ? { per_group: phases.perGroup } : {}),
    per_cell: phases.perCell,
    end: phases.end,
  };
}

/**
 * Each variant's own load steps by key where the phases show another variant's words for them
 * (plan.json's variant_steps): with the phases, every key a run records in executed.json.
 */
export function variantStepsJson(phases: Phases): PlanStep[] {
  const shown = new Set(
    [...phases.setup, ...phases.perGroup, ...phases.perCell, ...phases.end].flatMap((x) =>
      x.key ? [x.key] : [],
    ),
  );
  return phases.loads.filter((x) => x.key && !shown.has(x.key));
}
