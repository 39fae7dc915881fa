import { NUM, numbersOf, plainFields } from "../text.ts";

/**
 * Parser of go-tpc's output (tpcc run, plain, table and json styles; tpch run). go-tpc exits 0 when every
 * worker failed and panics with exit 2 when nothing listens, so the text decides: output that
 * reports a failure is an error quoting go-tpc's own words, never zeros.
 */

/** One `[Summary]` or `[Current]` row: a transaction type's counts and latency buckets. */
export interface GoTpcOperation {
  takes_s: number;
  count: number;
  tpm: number;
  sum_ms: number;
  /** Sum/Count: go-tpc's Avg(ms) and percentiles are read off coarse histogram buckets. */
  avg_ms: number;
  p50_ms: number;
  p90_ms: number;
  p95_ms: number;
  p99_ms: number;
  p999_ms: number;
  max_ms: number;
}

export interface GoTpcInterval extends GoTpcOperation {
  /** 1-based number of the `[Current]` report this row belongs to (one per --interval). */
  n: number;
  operation: string;
}

export interface TpccReport {
  tpmc: number;
  tpm_total: number;
  /** Percent, as go-tpc prints it (tpmC against the TPC-C maximum for the warehouses). */
  efficiency: number;
  /** `[Summary]` rows of successful transactions, by type (NEW_ORDER, PAYMENT, …). */
  operations: Record<string, GoTpcOperation>;
  /** `[Summary]` rows of failed transactions (`NEW_ORDER_ERR` …), by type without the suffix. */
  errors: Record<string, GoTpcOperation>;
  intervals: GoTpcInterval[];
  /** Workers that stopped for a reason other than the run's deadline. */
  worker_errors: string[];
}

export interface TpchReport {
  /** Seconds per query, Q1…Q22, from the `[Summary]` lines. */
  queries: Record<string, number>;
}

export class GoTpcParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GoTpcParseError";
  }
}

const FIELDS: [string, keyof GoTpcOperation][] = [
  ["Takes(s)", "takes_s"],
  ["Count", "count"],
  ["TPM", "tpm"],
  ["Sum(ms)", "sum_ms"],
  ["Avg(ms)", "avg_ms"],
  ["50th(ms)", "p50_ms"],
  ["90th(ms)", "p90_ms"],
  ["95th(ms)", "p95_ms"],
  ["99th(ms)", "p99_ms"],
  ["99.9th(ms)", "p999_ms"],
  ["Max(ms)", "max_ms"],
];

const PLAIN_ROW = /^\[(Summary|Current)\] (\w+) - (.*)$/;

/** The json style's keys, which the table style prints as headers in capitals (tablewriter's Title). */
const TABLE_KEYS = ["Prefix", "Operation", ...FIELDS.map(([k]) => k), "tpmC", "tpmTotal", "efficiency"];

/** One `| a | b |` row of the table style, its cells trimmed; undefined for any other line. */
function tableCells(line: string): string[] | undefined {
  const t = line.trim();
  if (!t.startsWith("|") || !t.endsWith("|") || t.length < 2) return undefined;
  return t
    .slice(1, -1)
    .split("|")
    .map((c) => c.trim());
}

/** A header row of the table style as the json style's keys; undefined if the row is not one. */
function tableHeader(cells: string[]): string[] | undefined {
  const keys = cells.map((c) => TABLE_KEYS.find((k) => k.toUpperCase() === c.toUpperCase()));
  return keys.every((k) => k !== undefined) && keys.some((k) => k === "Operation" || k === "tpmC")
    ? (keys as string[])
    : undefined;
}

function operation(values: Record<string, string | undefined>, where: string): GoTpcOperation {
  const op: GoTpcOperation = numbersOf(values, FIELDS, (why) => new GoTpcParseError(`${where}: ${why}`));
  // The printed Avg(ms) is rounded to 0.1 ms; Sum/Count keeps the precision the count allows.
  if (op.count > 0) op.avg_ms = op.sum_ms / op.count;
  return op;
}

/** The line that says why go-tpc failed, if its output says it did. */
export function goTpcFailure(text: string): string | undefined {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const panic = lines.findIndex((l) => l.startsWith("panic:"));
  if (panic >= 0) {
    const before = lines
      .slice(0, panic)
      .reverse()
      .find((l) => /failed|error/i.test(l));
    return before ? `${before} (${lines[panic]})` : lines[panic];
  }
  return (
    lines.find((l) => /^execute \w+ failed/.test(l)) ??
    lines.find((l) => /^\[[\d-]+ [\d:]+\] execute \w+ failed/.test(l)) ??
    lines.find((l) => /create db .* failed|failed to ping db/.test(l))
  );
}

/** A tpcc report that says what go-tpc measured, or the error its output gives instead of zeros. */
function checked(report: TpccReport, failure: string | undefined): TpccReport {
  if (failure && !(Number.isFinite(report.tpmc) && Object.keys(report.operations).length > 0)) {
    throw new GoTpcParseError(`go-tpc failed: ${failure}`);
  }
  if (!Number.isFinite(report.tpmc)) {
    throw new GoTpcParseError(
      `expected go-tpc's final "tpmC: …, tpmTotal: …, efficiency: …%" line${failure ? ` (go-tpc said: ${failure})` : ""}`,
    );
  }
  if (Object.keys(report.operations).length === 0) {
    throw new GoTpcParseError(
      `go-tpc printed tpmC ${report.tpmc} but no [Summary] row of a successful transaction: every worker failed`,
    );
  }
  return report;
}

/** Parses the output of `go-tpc tpcc … run`, in the plain, table (`--output table`) or json style. */
export function parseTpcc(text: string): TpccReport {
  const failure = goTpcFailure(text);
  const report: TpccReport = {
    tpmc: Number.NaN,
    tpm_total: Number.NaN,
    efficiency: Number.NaN,
    operations: {},
    errors: {},
    intervals: [],
    worker_errors: [],
  };
  let n = 0;
  let seenInGroup = new Set<string>();
  const addRow = (kind: string, name: string, op: GoTpcOperation) => {
    if (kind === "Summary") {
      if (name.endsWith("_ERR")) report.errors[name.slice(0, -4)] = op;
      else report.operations[name] = op;
      return;
    }
    // A [Current] report lists each transaction type once; a repeated type starts the next one.
    if (n === 0 || seenInGroup.has(name)) {
      n++;
      seenInGroup = new Set();
    }
    seenInGroup.add(name);
    report.intervals.push({ n, operation: name, ...op });
  };
  const jsonRows = (rows: Record<string, string>[], where: string) => {
    for (const row of rows) {
      if ("tpmC" in row) {
        report.tpmc = Number(row.tpmC);
        report.tpm_total = Number(row.tpmTotal);
        report.efficiency = Number(String(row.efficiency).replace(/%$/, ""));
      } else if ("Count" in row) {
        const kind = String(row.Prefix ?? "").includes("Summary") ? "Summary" : "Current";
        addRow(kind, String(row.Operation), operation(row, where));
      }
    }
  };
  // the table style: a header row names the columns of the rows under it
  let header: string[] | undefined;
  for (const [i, line] of text.split(/\r?\n/).entries()) {
    const where = `line ${i + 1}`;
    const cells = tableCells(line);
    if (cells) {
      const h = tableHeader(cells);
      if (h) header = h;
      else if (header && cells.length === header.length)
        jsonRows([Object.fromEntries(header.map((k, j) => [k, cells[j] as string]))], where);
      continue;
    }
    const plain = PLAIN_ROW.exec(line);
    if (plain) {
      addRow(plain[1] as string, plain[2] as string, operation(plainFields(plain[3] as string), where));
      continue;
    }
    const total = new RegExp(`^tpmC: ${NUM}, tpmTotal: ${NUM}, efficiency: ${NUM}%`).exec(line);
    if (total) {
      report.tpmc = Number(total[1]);
      report.tpm_total = Number(total[2]);
      report.efficiency = Number(total[3]);
      continue;
    }
    if (line.startsWith("[{")) {
      let rows: Record<string, string>[];
      try {
        rows = JSON.parse(line);
      } catch {
        throw new GoTpcParseError(`${where}: unreadable json output: ${line.slice(0, 120)}`);
      }
      jsonRows(rows, where);
      continue;
    }
    const stopped = /run worker \d+ stopped (?!due to timeout)(.*)$/.exec(line);
    if (stopped) report.worker_errors.push(line.replace(/^\[[\d-]+ [\d:]+\] /, ""));
  }
  return checked(report, failure);
}

/** Parses the output of `go-tpc tpch … run`: `[Summary] Q1: 7.62s` per query. */
export function parseTpch(text: string): TpchReport {
  const failure = goTpcFailure(text);
  if (failure) throw new GoTpcParseError(`go-tpc failed: ${failure}`);
  const queries: Record<string, number> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = new RegExp(String.raw`^\[Summary\] (Q\d+): ${NUM}s$`).exec(line.trim());
    if (m) queries[m[1] as string] = Number(m[2]);
  }
  if (Object.keys(queries).length === 0)
    throw new GoTpcParseError('expected go-tpc tpch\'s "[Summary] Q1: 7.62s" lines');
  return { queries };
}
