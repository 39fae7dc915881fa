import { readFileSync } from "node:fs";
import { sysbench } from "../../action/src/drivers/sysbench/index.ts";
import { measuredWindow } from "../../action/src/drivers/sysbench/measure.ts";
import { parseSysbench } from "../../action/src/drivers/sysbench/parse.ts";
import type { Result } from "../../action/src/result/model.ts";
import { newRunId } from "../../action/src/result/store.ts";
import { parseSpec } from "../../action/src/specfile/load.ts";
import { fixture } from "./paths.ts";

const report = (name: string) => parseSysbench(readFileSync(fixture("sysbench", name), "utf8"));

/** A complete result of one real sysbench output (mysql-point-select.txt) as a measured window. */
export function sampleResult(): Result {
  const r = report("mysql-point-select.txt");
  const steady = measuredWindow(r);
  const loaded = parseSpec(
    "name: t\ntarget: {kind: mariadb}\ndata: {tables: 1, table_size: 10}\nworkloads:\n  - {name: ps, sysbench: oltp_point_select, threads: [2], duration: 2s, warmup: 1s}\n",
    "w.yaml",
  ).spec;
  const info = sysbench.metrics(loaded.workloads[0] as (typeof loaded.workloads)[number]);
  const metrics = Object.fromEntries(
    Object.entries(steady.metrics).map(([k, value]) => [
      k,
      { value, unit: info[k]?.unit ?? "", better: info[k]?.better ?? "higher" },
    ]),
  );
  return {
    format: "tiperf.result",
    version: 2,
    run_id: newRunId("t", new Date("2026-01-02T03:04:05Z")),
    status: "complete",
    started_at: "2026-01-02T03:04:05.000Z",
    finished_at: "2026-01-02T03:05:10.000Z",
    spec: {
      name: "t",
      path: "w.yaml",
      hash: "a".repeat(64),
      body: loaded,
    },
    targets: [
      { variant: "base", kind: "mariadb", version: "10.11", config: { x: 1 }, effective_config: { x: "1" } },
    ],
    host: {
      hostname: "h",
      cpu_model: "cpu",
      cores: 2,
      memory_bytes: 2 ** 34,
      kernel: "6",
      os: "Debian",
      arch: "x64",
    },
    tools: { sysbench: "1.0.20" },
    cells: [
      {
        workload: "ps",
        driver: "sysbench",
        script: "oltp_point_select",
        threads: 2,
        variant: "base",
        round: 1,
        status: "ok",
        started_at: "x",
        finished_at: "y",
        raw_log: "raw/ps-t2.log",
        warmup_s: 1,
        duration_s: 2,
        summary: steady.summary,
        intervals: steady.intervals,
        metrics,
        metrics_source: steady.source,
      },
    ],
  };
}
