// Where a cell's time went, stated as measured facts from its resource use: a saturated load
// generator (the cell measured the client, not the server), a CPU-bound server program, a machine
// whose CPUs the server and the load generator share to the full, or no resource saturated.
import type { Cell, ResourceUse } from "../result/model.ts";

/** A program using at least this share of the CPUs it may use over the window is saturated. */
export const SATURATED_PCT = 90;

export type HintBound = "load" | "server" | "machine" | "none";

export interface Hint {
  bound: HintBound;
  text: string;
}

/** A variant's cells of one workload × threads: their resources pooled and what they say (verdict.evidence). */
export interface Evidence {
  variant: string;
  workload: string;
  threads: number;
  hint: Hint;
  resources: ResourceUse[];
}

/** "2 CPUs", "1 CPU", "0.30 CPUs". */
export const cpusText = (n: number) => `${Number.isInteger(n) ? n : n.toFixed(2)} CPU${n === 1 ? "" : "s"}`;
/** A program as the hints name it: with its host where it ran elsewhere (a cluster's machines). */
const nameOf = (r: ResourceUse) => (r.host === "local" ? r.component : `${r.component}@${r.host}`);
const use = (r: ResourceUse) => `${nameOf(r)} ${Math.round(r.cpu_pct.mean)}% of ${cpusText(r.cpus)}`;
const cores = (r: ResourceUse) => ((r.cpu_pct.mean * r.cpus) / 100).toFixed(1);

/** The hint of one cell's (or one variant's cells') resource use; undefined when none was sampled. */
export function bottleneck(resources: readonly ResourceUse[] | undefined): Hint | undefined {
  if (!resources?.length) return undefined;
  const by = (role: ResourceUse["role"]) =>
    resources.filter((r) => r.role === role).sort((a, b) => b.cpu_pct.mean - a.cpu_pct.mean);
  const servers = by("server");
  const loads = by("load");
  const machine = by("machine")[0];
  const saturated = (r: ResourceUse) => r.cpu_pct.mean >= SATURATED_PCT;
  const others = (except: ResourceUse[]) =>
    [...servers, ...loads].filter((r) => !except.includes(r) && r.cpu_pct.mean >= 1).map(use);
  const load = loads.find(saturated);
  if (load) {
    const rest = others([load]);
    return {
      bound: "load",
      text: `load generator saturated (${nameOf(load)} at ${Math.round(load.cpu_pct.mean)}% of its ${cpusText(load.cpus)}): this cell measures the client${rest.length ? `; ${rest.join(", ")}` : ""}`,
    };
  }
  const server = servers.filter(saturated);
  if (server.length) {
    const rest = others(server);
    return {
      bound: "server",
      text: `${server.map((s) => `${nameOf(s)} CPU-bound (${Math.round(s.cpu_pct.mean)}% of its ${cpusText(s.cpus)})`).join(", ")}${rest.length ? `; ${rest.join(", ")}` : ""}`,
    };
  }
  if (machine && saturated(machine)) {
    const here = [...servers, ...loads].filter((r) => r.host === machine.host && r.cpu_pct.mean >= 1);
    const busy = (machine.cpu_pct.mean * machine.cpus) / 100;
    const ours = here.reduce((a, r) => a + (r.cpu_pct.mean * r.cpus) / 100, 0);
    // what the sampled programs do not account for: other programs on the machine
    const other = busy - ours;
    const parts = [
      ...here.map((r) => `${nameOf(r)} ${cores(r)}`),
      ...(other >= 0.3 ? [`other programs ${other.toFixed(1)}`] : []),
    ];
    const both = here.some((r) => r.role === "server") && here.some((r) => r.role === "load");
    const why =
      other >= 0.3 * busy
        ? ": other programs on this machine take part of them"
        : both
          ? ": server and load generator compete for them"
          : "";
    return {
      bound: "machine",
      text: `${machine.host === "local" ? "the machine's" : `${machine.host}'s`} ${cpusText(machine.cpus)} saturated (${Math.round(machine.cpu_pct.mean)}% busy; CPUs used: ${parts.join(", ") || "by other programs"})${why}`,
    };
  }
  const parts = others([]);
  return {
    bound: "none",
    text: `no resource saturated: latency-bound${parts.length ? ` (${parts.join(", ")}${machine ? `; machine ${Math.round(machine.cpu_pct.mean)}% busy` : ""})` : ""}`,
  };
}

/**
 * One variant's cells of a workload × threads (its rounds) as one resource use per program: the
 * mean of the windows' means, the largest maximum; per-second samples left out.
 */
export function pooled(cells: readonly Cell[]): ResourceUse[] {
  const groups = new Map<string, ResourceUse[]>();
  for (const c of cells)
    for (const r of c.resources ?? []) {
      const key = `${r.role}\u0000${r.host}\u0000${r.component}`;
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
  const avg = (xs: number[]) => Math.round((10 * xs.reduce((a, b) => a + b, 0)) / xs.length) / 10;
  const stat = (rs: ResourceUse[], pick: (r: ResourceUse) => { mean: number; max: number } | undefined) => {
    const have = rs.map(pick).filter((s) => s !== undefined);
    return have.length
      ? { mean: avg(have.map((s) => s.mean)), max: Math.max(...have.map((s) => s.max)) }
      : undefined;
  };
  return [...groups.values()].map((rs) => {
    const first = rs[0] as ResourceUse;
    const rss = stat(rs, (r) => r.rss_mib);
    const read = stat(rs, (r) => r.read_mib_s);
    const write = stat(rs, (r) => r.write_mib_s);
    return {
      component: first.component,
      role: first.role,
      host: first.host,
      processes: Math.max(...rs.map((r) => r.processes)),
      cpus: first.cpus,
      cpu_pct: stat(rs, (r) => r.cpu_pct) as { mean: number; max: number },
      ...(rss ? { rss_mib: rss } : {}),
      ...(read ? { read_mib_s: read } : {}),
      ...(write ? { write_mib_s: write } : {}),
      samples: [],
    };
  });
}

/**
 * The evidence of a comparison: per variant × workload × threads, its judged rounds' resources
 * pooled and their hint (none where nothing was sampled: remote targets and load hosts).
 */
export function evidenceOf(cells: readonly Cell[], variants: readonly string[]): Evidence[] {
  const groups = new Map<string, Cell[]>();
  for (const c of cells) {
    if (c.round === 0 || c.status !== "ok" || !c.resources?.length || !variants.includes(c.variant)) continue;
    const key = `${c.variant}\u0000${c.workload}\u0000${c.threads}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const out: Evidence[] = [];
  for (const cs of groups.values()) {
    const first = cs[0] as Cell;
    const resources = pooled(cs);
    const hint = bottleneck(resources);
    if (hint)
      out.push({ variant: first.variant, workload: first.workload, threads: first.threads, hint, resources });
  }
  // variants as given (the control first), workloads in the order the cells ran them (the spec's)
  const workloads = [...new Set(cells.map((c) => c.workload))];
  return out.sort(
    (a, b) =>
      variants.indexOf(a.variant) - variants.indexOf(b.variant) ||
      workloads.indexOf(a.workload) - workloads.indexOf(b.workload) ||
      a.threads - b.threads,
  );
}

/** The verdict's `evidence` key, left out when nothing was sampled. */
export const evidenceField = (e: Evidence[]): { evidence?: Evidence[] } => (e.length ? { evidence: e } : {});
