import type { Spec, Workload } from "../specfile/schema.ts";

/** One unit of measurement: a workload at one thread count, for one variant, in one round. */
export interface CellPlan {
  workload: Workload;
  threads: number;
  variant: string;
  round: number;
  /** A cell run for another purpose than judging (profile): its raw log says so in its name. */
  tag?: string;
}

export const cellLabel = (c: {
  workload: Workload | string;
  threads: number;
  variant: string;
  round: number;
}) => {
  const name = typeof c.workload === "string" ? c.workload : c.workload.name;
  return `${name} threads=${c.threads}${c.variant !== "base" || c.round > 1 ? ` variant=${c.variant} round=${c.round}` : ""}`;
};

export const cellFileName = (c: CellPlan) =>
  `${c.workload.name}-t${c.threads}${c.variant !== "base" || c.round > 1 ? `-${c.variant}-r${c.round}` : ""}${c.tag ? `-${c.tag}` : ""}.log`;

/** The spec's matrix in spec order: workloads × thread counts. */
export function planCells(spec: Spec, variant = "base", round = 1): CellPlan[] {
  return spec.workloads.flatMap((workload) =>
    workload.threads.map((threads) => ({ workload, threads, variant, round })),
  );
}

export const maxThreads = (spec: Spec) => Math.max(...spec.workloads.flatMap((w) => w.threads));
export const cellSeconds = (c: CellPlan) => c.workload.duration + c.workload.warmup;
/**
 * How long past its --time a cell may run before the watchdog stops it: sysbench needs a moment
 * to connect its threads and to end them, more with many threads or a remote server.
 */
export const cellGraceS = (c: CellPlan) => Math.max(15, Math.ceil(0.25 * cellSeconds(c)));
