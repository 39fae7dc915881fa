import { DRIVERS } from "../drivers/registry.ts";
import type { Workload } from "../drivers/types.ts";
import type { Cell } from "../result/model.ts";
import { metricName } from "./rows.ts";

export interface Column {
  metric: string;
  label: string;
  unit: string;
}

export interface Layout {
  rows: "threads" | "metrics";
  columns: Column[];
}

/**
 * How a workload's table looks in the run report: the driver's choice (the seeds' shapes), with
 * only the columns some cell measured. A workload of a driver this tiperf does not know shows every
 * metric its cells carry.
 */
export function layoutOf(w: Workload, cells: Cell[]): Layout {
  const measured = new Set(cells.flatMap((c) => Object.keys(c.metrics)));
  const unitOf = (m: string) => cells.find((c) => c.metrics[m])?.metrics[m]?.unit ?? "";
  const driver = DRIVERS[w.driver];
  if (!driver) {
    return {
      rows: "threads",
      columns: [...measured].map((m) => ({ metric: m, label: metricName(m), unit: unitOf(m) })),
    };
  }
  const layout = driver.report(w);
  const info = driver.metrics(w);
  return {
    rows: layout.rows,
    columns: layout.columns
      .filter((m) => measured.has(m))
      .map((m) => ({ metric: m, label: info[m]?.label ?? metricName(m), unit: info[m]?.unit ?? unitOf(m) })),
  };
}
