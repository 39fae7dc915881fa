import { mostSpecificLine } from "../failure.ts";

/**
 * Parser for sysbench 1.0.x text output (the built-in Lua report hooks).
 * Anything it cannot account for is an error that says what was expected: it never fills in zeros.
 */

export interface SysbenchInterval {
  /** Seconds since the start of the run, as sysbench printed it. */
  t: number;
  threads: number;
  tps: number;
  qps: number;
  reads: number;
  writes: number;
  other: number;
  /** The run's percentile latency over this interval; absent when percentiles are disabled. */
  lat_ms?: number;
  errors_per_s: number;
  reconnects_per_s: number;
  /** Only with --rate. */
  queue_length?: number;
  concurrency?: number;
}

export interface SysbenchReport {
  sysbench_version?: string;
  threads: number;
  tps: number;
  qps: number;
  transactions: number;
  queries: { read: number; write: number; other: number; total: number };
  /** "ignored errors" in sysbench's words: errors the script retried past (deadlocks and the like). */
  errors: number;
  errors_per_s: number;
  reconnects: number;
  duration_s: number;
  events: number;
  /** The percentile sysbench computed (--percentile), or null when disabled. */
  percentile: number | null;
  /** min, avg, max, sum and p<N> (when enabled). */
  latency_ms: { min: number; avg: number; max: number; sum: number } & Record<string, number>;
  intervals: SysbenchInterval[];
  histogram?: [number, number][];
}

export class SysbenchParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SysbenchParseError";
  }
}

const NUM = String.raw`(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)`;
// sysbench 1.0 omits the colon after err/s and reconn/s in some builds' Lua reports.
const INTERVAL = new RegExp(
  String.raw`^\[\s*${NUM}s\s*\]\s+thds:\s*(\d+)\s+tps:\s*${NUM}\s+qps:\s*${NUM}\s+\(r/w/o:\s*${NUM}/${NUM}/${NUM}\)\s+lat\s+\(ms,(\d+)%\):\s*${NUM}\s+err/s:?\s*${NUM}\s+reconn/s:?\s*${NUM}\s*$`,
);
const QUEUE = new RegExp(String.raw`^\[\s*${NUM}s\s*\]\s+queue length:\s*(\d+),\s*concurrency:\s*(\d+)\s*$`);
const HIST_ROW = new RegExp(String.raw`^\s*${NUM}\s+\|[* ]*\s(\d+)\s*$`);

function num(s: string | undefined): number {
  const v = Number(s);
  if (s === undefined || !Number.isFinite(v))
    throw new SysbenchParseError(`not a number: ${JSON.stringify(s)}`);
  return v;
}

/** Finds `label: value` in the summary; throws naming what was expected. */
function field(lines: string[], label: string, section: string, re: RegExp): RegExpExecArray {
  for (const line of lines) {
    const m = re.exec(line);
    if (m) return m;
  }
  throw new SysbenchParseError(
    `expected a "${label}" line in sysbench's ${section} block; the output is truncated or not from sysbench 1.0`,
  );
}

function block(lines: string[], header: string, stop: RegExp): string[] | undefined {
  const start = lines.findIndex((l) => l.trim() === header);
  if (start < 0) return undefined;
  const out: string[] = [];
  for (let i = start + 1; i < lines.length; i++) {
    const l = lines[i] as string;
    if (stop.test(l)) break;
    out.push(l);
  }
  return out;
}

/** The --report-interval lines: one per interval, and a queue-length line where sysbench printed one. */
function intervalsOf(lines: string[]): SysbenchInterval[] {
  const intervals: SysbenchInterval[] = [];
  for (const line of lines) {
    if (!line.startsWith("[")) continue;
    const m = INTERVAL.exec(line);
    if (m) {
      const iv: SysbenchInterval = {
        t: num(m[1]),
        threads: num(m[2]),
        tps: num(m[3]),
        qps: num(m[4]),
        reads: num(m[5]),
        writes: num(m[6]),
        other: num(m[7]),
        errors_per_s: num(m[10]),
        reconnects_per_s: num(m[11]),
      };
      // --percentile=0 still prints "lat (ms,0%): 0.00": that is no measurement.
      if (Number(m[8]) > 0) iv.lat_ms = num(m[9]);
      intervals.push(iv);
      continue;
    }
    const q = QUEUE.exec(line);
    if (q) {
      const t = num(q[1]);
      const iv = intervals.findLast((i) => i.t === t);
      if (!iv) throw new SysbenchParseError(`queue length report at ${t}s has no interval line before it`);
      iv.queue_length = num(q[2]);
      iv.concurrency = num(q[3]);
      continue;
    }
    throw new SysbenchParseError(`unrecognised interval line: ${JSON.stringify(line.slice(0, 200))}`);
  }
  return intervals;
}

/** A count and its rate per second: "transactions: 1234 (123.40 per sec.)". */
const perSec = (block: string[], key: string, where: string) =>
  field(block, `${key}:`, where, new RegExp(String.raw`^\s+${key}:\s+(\d+)\s+\(${NUM} per sec\.\)`));

/** The summary's "SQL statistics:" and "General statistics:" blocks. */
function statisticsOf(sql: string[], general: string[]) {
  const count = (key: string) =>
    num(field(sql, `${key}:`, "SQL statistics", new RegExp(String.raw`^\s+${key}:\s+(\d+)`))[1]);
  const tx = perSec(sql, "transactions", "SQL statistics");
  const qs = perSec(sql, "queries", "SQL statistics");
  const errs = perSec(sql, "ignored errors", "SQL statistics");
  const rec = perSec(sql, "reconnects", "SQL statistics");
  const totalTime = field(
    general,
    "total time:",
    "General statistics",
    new RegExp(String.raw`^\s+total time:\s+${NUM}s`),
  );
  const events = field(
    general,
    "total number of events:",
    "General statistics",
    /^\s+total number of events:\s+(\d+)/,
  );
  return {
    tps: num(tx[2]),
    qps: num(qs[2]),
    transactions: num(tx[1]),
    queries: { read: count("read"), write: count("write"), other: count("other"), total: count("total") },
    errors: num(errs[1]),
    errors_per_s: num(errs[2]),
    reconnects: num(rec[1]),
    duration_s: num(totalTime[1]),
    events: num(events[1]),
  };
}

/** The "Latency (ms):" block: min, avg, max, sum and the percentile sysbench was asked for (or none). */
function latencyOf(latency: string[]): { lat: SysbenchReport["latency_ms"]; percentile: number | null } {
  const value = (key: string) =>
    num(field(latency, `${key}:`, "Latency", new RegExp(String.raw`^\s+${key}:\s+${NUM}`))[1]);
  const lat: SysbenchReport["latency_ms"] = {
    min: value("min"),
    avg: value("avg"),
    max: value("max"),
    sum: value("sum"),
  };
  const pctLine = latency.find((l) => /^\s+(\d+)th percentile:/.test(l) || /^\s+percentile stats:/.test(l));
  if (!pctLine)
    throw new SysbenchParseError(
      `expected an "Nth percentile:" or "percentile stats: disabled" line in the Latency block`,
    );
  const pm = new RegExp(String.raw`^\s+(\d+)th percentile:\s+${NUM}`).exec(pctLine);
  if (pm) {
    lat[`p${Number(pm[1])}`] = num(pm[2]);
    return { lat, percentile: Number(pm[1]) };
  }
  if (!/disabled/.test(pctLine))
    throw new SysbenchParseError(`unrecognised percentile line: ${JSON.stringify(pctLine.trim())}`);
  return { lat, percentile: null };
}

/** The latency histogram (--histogram): [value ms, count] rows, when sysbench printed one. */
function histogramOf(lines: string[]): [number, number][] | undefined {
  const histStart = lines.findIndex((l) => l.startsWith("Latency histogram"));
  if (histStart < 0) return undefined;
  const histogram: [number, number][] = [];
  for (let i = histStart + 2; i < lines.length; i++) {
    const l = lines[i] as string;
    if (l.trim() === "") break;
    const h = HIST_ROW.exec(l);
    if (!h) throw new SysbenchParseError(`unrecognised latency histogram row: ${JSON.stringify(l.trim())}`);
    histogram.push([num(h[1]), num(h[2])]);
  }
  return histogram;
}

export function parseSysbench(text: string): SysbenchReport {
  const lines = text.split(/\r?\n/);
  const fatal = mostSpecificLine(lines.filter((l) => l.startsWith("FATAL:")).join("\n"));
  const version = /^sysbench (\d+\.\d+\.\d+)/m.exec(text)?.[1];
  const threadsHeader = /^Number of threads:\s*(\d+)/m.exec(text);
  const intervals = intervalsOf(lines);
  const sql = block(lines, "SQL statistics:", /^General statistics:/);
  if (!sql) {
    if (fatal) throw new SysbenchParseError(`sysbench failed before its summary: ${fatal}`);
    throw new SysbenchParseError(
      `expected sysbench's "SQL statistics:" summary block; the output is truncated or not from a sysbench 1.0 run`,
    );
  }
  const general = block(lines, "General statistics:", /^Latency/) ?? [];
  const latency = block(lines, "Latency (ms):", /^(Threads fairness:|\S)/);
  if (!latency)
    throw new SysbenchParseError(`expected sysbench's "Latency (ms):" block after General statistics`);
  const stats = statisticsOf(sql, general);
  const { lat, percentile } = latencyOf(latency);
  const histogram = histogramOf(lines);
  const threads = threadsHeader ? Number(threadsHeader[1]) : intervals[0]?.threads;
  if (threads === undefined)
    throw new SysbenchParseError(`expected a "Number of threads:" line in sysbench's header`);
  const report: SysbenchReport = { threads, ...stats, percentile, latency_ms: lat, intervals };
  if (version) report.sysbench_version = version;
  if (histogram) report.histogram = histogram;
  return report;
}
