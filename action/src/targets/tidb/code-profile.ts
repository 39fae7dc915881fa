// A counting build's code profile: the Go statements each function executed over a regressed
// cell's re-run (its counters read before and after the profile's seconds), less what the idle
// server executes by itself over as long (read over CODE_IDLE_WINDOW_S once the load has ended),
// written as a pprof profile of one sample per function. Compared function by function like the
// CPU profile beside it (observe/profile-diff.ts), it names where the work went, and counts it:
// the counters do not sample.
import { writeFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { Function as Fn, Line, Location, Profile, Sample, StringTable, ValueType } from "pprof-format";
import { CODE_IDLE_WINDOW_S } from "../../observe/cost.ts";
import type { CpuProfile } from "../types.ts";
import type { CodeCounters, FunctionStatements } from "./counting.ts";

/** The sample type of a code profile: Go statements executed. */
export const STATEMENTS_SAMPLE = { type: "statements", unit: "count" } as const;

/** Seconds the load tool runs past a profile's seconds (Bench.profileCell takes duration − 1), and its exit. */
const LOAD_ENDS_S = 3;

/** One sample per function: its statements, its file as the function's file. */
export function statementsProfile(functions: Map<string, FunctionStatements>): Buffer {
  const strings = new StringTable();
  const rows = [...functions].filter(([, f]) => f.n > 0);
  const id = (i: number) => i + 1;
  return Buffer.from(
    new Profile({
      sampleType: [
        new ValueType({
          type: strings.dedup(STATEMENTS_SAMPLE.type),
          unit: strings.dedup(STATEMENTS_SAMPLE.unit),
        }),
      ],
      function: rows.map(
        ([name, f], i) =>
          new Fn({
            id: id(i),
            name: strings.dedup(name),
            systemName: strings.dedup(name),
            filename: strings.dedup(f.file),
          }),
      ),
      location: rows.map((_, i) => new Location({ id: id(i), line: [new Line({ functionId: id(i) })] })),
      sample: rows.map(([, f], i) => new Sample({ locationId: [id(i)], value: [Math.round(f.n)] })),
      stringTable: strings,
    }).encode(),
  );
}

/**
 * What each function executed between two readings `ms` apart, less the idle server's rate over
 * that time (`idle`: two readings `idleMs` apart); a function left at or below zero is dropped.
 */
export function windowStatements(
  before: Map<string, FunctionStatements>,
  after: Map<string, FunctionStatements>,
  ms: number,
  idle?: { before: Map<string, FunctionStatements>; after: Map<string, FunctionStatements>; ms: number },
): Map<string, FunctionStatements> {
  const out = new Map<string, FunctionStatements>();
  for (const [name, f] of after) {
    const ran = f.n - (before.get(name)?.n ?? 0);
    const background =
      idle && idle.ms > 0
        ? (((idle.after.get(name)?.n ?? 0) - (idle.before.get(name)?.n ?? 0)) * ms) / idle.ms
        : 0;
    const n = ran - Math.max(0, background);
    if (n > 0) out.set(name, { file: f.file, n });
  }
  return out;
}

/**
 * A counting tidb-server's code profile over the next `seconds` (the cell's measured run), the
 * idle server's own statements taken off, written to `file`; a reading that fails is reported in
 * the profile, not thrown.
 */
export async function codeProfile(
  counting: CodeCounters,
  o: { seconds: number; file: string; address: string },
): Promise<CpuProfile> {
  const at = async () => {
    const t = performance.now();
    return { t, fns: await counting.functions() };
  };
  const profile = { component: "tidb-server", address: o.address, measures: "stmts" as const };
  try {
    const a = await at();
    await sleep(o.seconds * 1000);
    const b = await at();
    await sleep(LOAD_ENDS_S * 1000);
    const c = await at();
    await sleep(CODE_IDLE_WINDOW_S * 1000);
    const d = await at();
    const fns = windowStatements(a.fns, b.fns, b.t - a.t, { before: c.fns, after: d.fns, ms: d.t - c.t });
    await writeFile(o.file, statementsProfile(fns));
    return { ...profile, file: o.file };
  } catch (e) {
    return { ...profile, error: `counters of a counting build: ${(e as Error).message}` };
  }
}
