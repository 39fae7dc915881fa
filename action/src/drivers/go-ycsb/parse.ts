import { numbersOf, plainFields } from "../text.ts";

/**
 * Parser of go-ycsb's output (load and run; plain, json and table output styles). Its periodic
 * blocks are cumulative since measuring began; the block after "Run finished, takes …" is the
 * final one. go-ycsb prints failures in its own words (`create db mysql failed …`) and exits 1 on
 * some, 0 on others, so the text decides: a failure is an error quoting it, never zeros.
 */

/** One row: an operation's count, throughput and latencies (µs) since measuring began. */
export interface YcsbOperation {
  takes_s: number;
  count: number;
  ops: number;
  avg_us: number;
  min_us: number;
  max_us: number;
  p50_us: number;
  p90_us: number;
  p95_us: number;
  p99_us: number;
  p999_us: number;
  p9999_us: number;
}

export interface YcsbInterval extends YcsbOperation {
  /** 1-based number of the periodic block this row belongs to. */
  n: number;
  operation: string;
}

export interface YcsbReport {
  /** Final block, successful operations by name (READ, UPDATE, INSERT …, and TOTAL). */
  operations: Record<string, YcsbOperation>;
  /** Final block, failed operations (`READ_ERROR` …) by name without the suffix. */
  errors: Record<string, YcsbOperation>;
  /** The periodic blocks before the final one (cumulative, as go-ycsb prints them). */
  intervals: YcsbInterval[];
  /** Seconds from "Run finished, takes 11.48s". */
  run_s: number;
  /** The properties go-ycsb printed it ran with. */
  properties: Record<string, string>;
  /** Set when the run was ended by a signal ("Got signal [interrupt] to exit."). */
  signal?: string;
}

export class YcsbParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "YcsbParseError";
  }
}

const FIELDS: [string, keyof YcsbOperation][] = [
  ["takes(s)", "takes_s"],
  ["count", "count"],
  ["ops", "ops"],
  ["avg(us)", "avg_us"],
  ["min(us)", "min_us"],
  ["max(us)", "max_us"],
  ["50th(us)", "p50_us"],
  ["90th(us)", "p90_us"],
  ["95th(us)", "p95_us"],
  ["99th(us)", "p99_us"],
  ["99.9th(us)", "p999_us"],
  ["99.99th(us)", "p9999_us"],
];

const PLAIN = /^([A-Z][A-Z_]*)\s+- (Takes\(s\): .*)$/;

function operation(values: Record<string, string | undefined>, where: string): YcsbOperation {
  // plain and json rows use go-ycsb's labels; table headers are upper-cased by its table writer
  const lower: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(values)) lower[k.toLowerCase()] = v;
  return numbersOf(lower, FIELDS, (why) => new YcsbParseError(`${where}: ${why}`));
}

/** The line that says go-ycsb failed, if its output says so. */
export function ycsbFailure(text: string): string | undefined {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const panic = lines.findIndex((l) => l.startsWith("panic:"));
  if (panic >= 0) return lines[panic];
  return lines.find(
    (l) =>
      /^create db \S+ failed/.test(l) ||
      /^totalOpCount\(/.test(l) ||
      /^(load|run) workload failed/.test(l) ||
      /^Error: /.test(l) ||
      /^unknown (db|workload|command)/i.test(l),
  );
}

/** Parses everything go-ycsb printed for one load or run. */
/** What reading go-ycsb's output collects, line by line. */
interface Reading {
  properties: Record<string, string>;
  /** Each report (a block of operation rows), in order: the intervals', then the final one. */
  blocks: Record<string, YcsbOperation>[];
  current?: Record<string, YcsbOperation>;
  /** The index of the final report's block (the one after "Run finished"). */
  finalFrom?: number;
  run_s: number;
  signal?: string;
  tableHeader?: string[];
}

/** An operation row into the report being read; a name seen again starts the next report. */
function add(r: Reading, name: string, op: YcsbOperation): void {
  if (!r.current || name in r.current) {
    r.current = {};
    r.blocks.push(r.current);
  }
  r.current[name] = op;
}

/** Table style: | OPERATION | TAKES(S) | COUNT | … |, a header then rows, between +---+ rules. */
function tableLine(r: Reading, line: string, where: string): void {
  if (/^\|.*\|$/.test(line.trim())) {
    const cells = line
      .trim()
      .slice(1, -1)
      .split("|")
      .map((c) => c.trim());
    if (cells[0]?.toUpperCase() === "OPERATION") {
      r.tableHeader = cells;
      r.current = undefined;
      return;
    }
    if (r.tableHeader) {
      const row: Record<string, string> = {};
      r.tableHeader.forEach((h, k) => {
        row[h] = cells[k] ?? "";
      });
      add(r, cells[0] as string, operation(row, where));
      return;
    }
  }
  if (!/^\+[-+]+\+$/.test(line.trim())) r.tableHeader = undefined;
}

/** One line of output: a property, the end of the run, a signal, or a report row in any style. */
function readLine(r: Reading, line: string, where: string): void {
  const prop = /^"([^"]+)"="(.*)"$/.exec(line);
  if (prop) {
    r.properties[prop[1] as string] = prop[2] as string;
    return;
  }
  const finished = /^Run finished, takes (\S+)$/.exec(line);
  if (finished) {
    r.run_s = goDuration(finished[1] as string);
    r.finalFrom = r.blocks.length;
    r.current = undefined;
    return;
  }
  const sig = /^Got signal \[(.+)\] to exit\.$/.exec(line.trim());
  if (sig) {
    r.signal = sig[1];
    return;
  }
  const plain = PLAIN.exec(line);
  if (plain) {
    add(r, plain[1] as string, operation(plainFields(plain[2] as string), where));
    return;
  }
  if (line.startsWith("[{")) {
    let rows: Record<string, string>[];
    try {
      rows = JSON.parse(line);
    } catch {
      throw new YcsbParseError(`${where}: unreadable json output: ${line.slice(0, 120)}`);
    }
    r.current = undefined;
    for (const row of rows) add(r, String(row.Operation), operation(row, where));
    r.current = undefined;
    return;
  }
  tableLine(r, line, where);
}

export function parseYcsb(text: string): YcsbReport {
  const r: Reading = { properties: {}, blocks: [], run_s: Number.NaN };
  for (const [i, line] of text.split(/\r?\n/).entries()) readLine(r, line, `line ${i + 1}`);
  const failure = ycsbFailure(text);
  if (r.finalFrom === undefined) {
    throw new YcsbParseError(
      failure
        ? `go-ycsb failed: ${failure}`
        : `expected go-ycsb's "Run finished, takes …" line and its final report (the output ends before it)`,
    );
  }
  const final = r.blocks[r.finalFrom];
  if (!final) throw new YcsbParseError('go-ycsb printed "Run finished" but no final report after it');
  const operations: Record<string, YcsbOperation> = {};
  const errors: Record<string, YcsbOperation> = {};
  for (const [name, op] of Object.entries(final)) {
    if (name.endsWith("_ERROR")) errors[name.slice(0, -"_ERROR".length)] = op;
    else operations[name] = op;
  }
  if (!operations.TOTAL) {
    const why = Object.keys(errors).length
      ? `every operation failed (${Object.entries(errors)
          .map(([k, e]) => `${k}_ERROR ${e.count}`)
          .join(", ")})`
      : "no TOTAL row in the final report";
    throw new YcsbParseError(`go-ycsb measured no successful operation: ${why}`);
  }
  const intervals: YcsbInterval[] = r.blocks
    .slice(0, r.finalFrom)
    .flatMap((b, k) => Object.entries(b).map(([name, op]) => ({ n: k + 1, operation: name, ...op })));
  return {
    operations,
    errors,
    intervals,
    run_s: r.run_s,
    properties: r.properties,
    ...(r.signal ? { signal: r.signal } : {}),
  };
}

/** Go's time.Duration text: 11.484332248s, 1m2.5s, 850ms. */
export function goDuration(text: string): number {
  let total = 0;
  let matched = "";
  const unit: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 1e-3, µs: 1e-6, us: 1e-6, ns: 1e-9 };
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)(h|ms|µs|us|ns|m|s)/g)) {
    total += Number(m[1]) * (unit[m[2] as string] ?? Number.NaN);
    matched += m[0];
  }
  if (matched !== text) throw new YcsbParseError(`unreadable duration ${JSON.stringify(text)}`);
  return total;
}
