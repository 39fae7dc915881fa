/**
 * Older result files, migrated on read to the current model, so baselines stored by an earlier
 * tiperf still compare (`tiperf diff v1-baseline.json v2-result.json`). Each step takes one version
 * to the next; nothing is invented: values are moved, renamed and labelled, never estimated.
 */

import { isObj, type Obj } from "../yaml/merge.ts";

/** v1 knew only sysbench: its metrics were tps, qps and p<N>_ms. */
const V1_METRICS: Record<string, { unit: string; better: "higher" | "lower" }> = {
  tps: { unit: "1/s", better: "higher" },
  qps: { unit: "1/s", better: "higher" },
  errors: { unit: "count", better: "lower" },
};
const v1Metric = (name: string) =>
  V1_METRICS[name] ?? (/^p\d+_ms$/.test(name) ? { unit: "ms", better: "lower" } : undefined);

const V1_INTERVAL_KEYS = [
  "tps",
  "qps",
  "reads",
  "writes",
  "other",
  "errors_per_s",
  "reconnects_per_s",
  "queue_length",
  "concurrency",
];

function cellV1toV2(cell: Obj): Obj {
  const { script, summary, intervals, metrics, metrics_source, ...rest } = cell;
  const percentile = isObj(summary) && typeof summary.percentile === "number" ? summary.percentile : null;
  const outMetrics: Obj = {};
  for (const [name, value] of Object.entries(isObj(metrics) ? metrics : {})) {
    const info = v1Metric(name);
    if (info && typeof value === "number") outMetrics[name] = { value, ...info };
  }
  const outIntervals = (Array.isArray(intervals) ? intervals : []).filter(isObj).map((iv) => {
    const values: Obj = {};
    for (const k of V1_INTERVAL_KEYS) if (typeof iv[k] === "number") values[k] = iv[k];
    if (typeof iv.lat_ms === "number" && percentile !== null) values[`p${percentile}_ms`] = iv.lat_ms;
    return { t: iv.t, warmup: iv.warmup === true, values };
  });
  return {
    ...rest,
    driver: "sysbench",
    script,
    metrics: outMetrics,
    ...(metrics_source !== undefined ? { metrics_source } : {}),
    intervals: outIntervals,
    ...(isObj(summary) ? { summary } : {}),
  };
}

/** The stored spec body: v1 workloads named their script with `sysbench:` and had `percentile`. */
function specBodyV1toV2(body: unknown): unknown {
  if (!isObj(body) || !Array.isArray(body.workloads)) return body;
  const rules = isObj(body.metrics) ? body.metrics : {};
  const workloads = body.workloads.filter(isObj).map((w) => {
    const { sysbench, percentile, options, ...rest } = w;
    const p = typeof percentile === "number" ? percentile : 95;
    const provided = new Set(["tps", "qps", "errors", `p${p}_ms`]);
    const judge = Object.fromEntries(Object.entries(rules).filter(([m]) => provided.has(m)));
    return {
      ...rest,
      driver: "sysbench",
      script: sysbench,
      options: { ...(isObj(options) ? options : {}), percentile: p },
      judge,
    };
  });
  return { ...body, workloads };
}

export function resultV1toV2(raw: Obj): Obj {
  const spec = isObj(raw.spec) ? { ...raw.spec, body: specBodyV1toV2(raw.spec.body) } : raw.spec;
  const cells = Array.isArray(raw.cells) ? raw.cells.map((c) => (isObj(c) ? cellV1toV2(c) : c)) : raw.cells;
  return { ...raw, version: 2, spec, cells };
}

/** version → the function taking a file of that version to the next one. */
export const RESULT_MIGRATIONS: Record<number, (raw: Obj) => Obj> = { 1: resultV1toV2 };
