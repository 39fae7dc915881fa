// Which functions got costlier: two profiles of one server program over the same cell (base's and
// head's, CPU or allocations), each function's cumulative cost (itself and what it calls) per
// operation the load tool counted while the profile was taken, head's against base's. A function
// that grew by 2 ms per transaction is named with that figure, not only with its share.
import { gunzipSync } from "node:zlib";
import { Profile } from "pprof-format";

export type ProfileMeasure = "cpu" | "alloc" | "stmts";

/** A profile's cost by function: in the profile's unit (CPU nanoseconds, allocated bytes). */
export interface FunctionCosts {
  /** "cpu" (nanoseconds), "alloc" (bytes) or "stmts" (Go statements a counting build executed). */
  measures: ProfileMeasure;
  total: number;
  /** Function → cost of the samples with it on the stack (once per sample) / with it as the leaf. */
  cum: Map<string, number>;
  flat: Map<string, number>;
}

const num = (x: number | bigint) => Number(x);

/** Decodes a pprof profile (gzipped or not) as Go and TiKV serve it. */
export function decodeProfile(data: Uint8Array): Profile {
  return Profile.decode(data[0] === 0x1f && data[1] === 0x8b ? gunzipSync(data) : data);
}

/**
 * The sample value a profile is read by: CPU time (cpu/nanoseconds) in a CPU profile, allocated
 * bytes (alloc_space) in a heap or allocs profile, statements in a code profile; else its last
 * sample type.
 */
export function sampleIndex(p: Profile): { index: number; measures: ProfileMeasure } {
  const str = (i: number | bigint) => p.stringTable.strings[num(i)] ?? "";
  const types = p.sampleType.map((t) => ({ type: str(t.type), unit: str(t.unit) }));
  const stmts = types.findIndex((t) => t.type === "statements");
  if (stmts >= 0) return { index: stmts, measures: "stmts" };
  const alloc = types.findIndex((t) => t.type === "alloc_space");
  if (alloc >= 0) return { index: alloc, measures: "alloc" };
  const cpu = types.findIndex((t) => t.unit === "nanoseconds");
  return { index: cpu >= 0 ? cpu : types.length - 1, measures: cpu >= 0 ? "cpu" : "alloc" };
}

/** A profile's cost per function (inlined frames included, as pprof lists them). */
export function functionCosts(data: Uint8Array): FunctionCosts {
  const p = decodeProfile(data);
  const { index, measures } = sampleIndex(p);
  const str = (i: number | bigint) => p.stringTable.strings[num(i)] ?? "?";
  const fn = new Map(p.function.map((f) => [num(f.id), str(f.name)]));
  // a location's lines run innermost (inlined) first
  const loc = new Map(
    p.location.map((l) => [num(l.id), l.line.map((x) => fn.get(num(x.functionId)) ?? "?")]),
  );
  const cum = new Map<string, number>();
  const flat = new Map<string, number>();
  let total = 0;
  for (const s of p.sample) {
    const v = num(s.value[index] ?? 0);
    if (v <= 0) continue;
    total += v;
    const names = s.locationId.flatMap((id) => loc.get(num(id)) ?? ["?"]);
    const leaf = names[0];
    if (leaf !== undefined) flat.set(leaf, (flat.get(leaf) ?? 0) + v);
    for (const n of new Set(names)) cum.set(n, (cum.get(n) ?? 0) + v);
  }
  return { measures, total, cum, flat };
}

/** One function's cost on each side, per operation where the operations are known, else as a share. */
export interface Grower {
  name: string;
  base: number;
  head: number;
  /** head − base, in `unit`. */
  delta: number;
  /** head's share of its profile − base's share of its own, in points (what the lists rank by). */
  share_delta: number;
}

export interface ProfileDiff {
  measures: ProfileMeasure;
  /** "ms/op", "KiB/op", "stmts/op" (per operation), or "%" (shares of each profile, where operations are unknown). */
  unit: string;
  /** The whole profile on each side, in `unit` (100 for shares). */
  total: { base: number; head: number };
  /** The functions whose cumulative cost grew most, largest first. */
  growers: Grower[];
  /** The functions whose cumulative cost shrank most. */
  shrinkers: Grower[];
}

/** What a profile measures, per operation: its unit and the scale from the profile's own. */
const PER_OP: Record<ProfileMeasure, { scale: number; unit: string }> = {
  cpu: { scale: 1e-6, unit: "ms/op" },
  alloc: { scale: 1 / 1024, unit: "KiB/op" },
  stmts: { scale: 1, unit: "stmts/op" },
};

/**
 * Base's and head's profiles of one program compared function by function: each function's
 * cumulative cost divided by the operations counted over its profile (`ops` per side), in ms or
 * KiB per operation; without operation counts, as shares of each profile.
 */
export function diffProfiles(
  base: FunctionCosts,
  head: FunctionCosts,
  ops?: { base: number; head: number },
  n = 10,
): ProfileDiff {
  const perOp = ops && ops.base > 0 && ops.head > 0;
  // ns → ms, bytes → KiB, statements as counted
  const { scale, unit: opUnit } = PER_OP[base.measures];
  const unit = perOp ? opUnit : "%";
  const of = (c: FunctionCosts, side: "base" | "head", v: number) =>
    perOp
      ? (v * scale) / (ops as { base: number; head: number })[side]
      : c.total > 0
        ? (100 * v) / c.total
        : 0;
  // frames on (nearly) every stack (runtime.goexit, a server's main loop) grow by the whole change
  // and name nothing: their callees do (a code profile has no stacks: each function stands alone)
  const everywhere = (c: FunctionCosts, name: string) =>
    c.measures !== "stmts" && c.total > 0 && (c.cum.get(name) ?? 0) / c.total > 0.9;
  const names = [...new Set([...base.cum.keys(), ...head.cum.keys()])].filter(
    (name) => !(everywhere(base, name) && everywhere(head, name)),
  );
  const share = (c: FunctionCosts, name: string) =>
    c.total > 0 ? (100 * (c.cum.get(name) ?? 0)) / c.total : 0;
  const rows: Grower[] = names.map((name) => {
    const b = of(base, "base", base.cum.get(name) ?? 0);
    const h = of(head, "head", head.cum.get(name) ?? 0);
    return { name, base: b, head: h, delta: h - b, share_delta: share(head, name) - share(base, name) };
  });
  // ranked by the change of their share: two re-runs' profiles differ in total by the machine's
  // noise (tens of percent), which moves every function's cost per operation alike; a share moves
  // only where a function got costlier than the rest. Statements are counted, not sampled, and
  // the machine does not move them: per operation they rank by their own change
  const counted = perOp && base.measures === "stmts";
  // (a counted change below a tenth of a statement per operation names nothing: left out)
  const key = (r: Grower) => (counted ? (Math.abs(r.delta) < 0.05 ? 0 : r.delta) : r.share_delta);
  const byDelta = [...rows].sort((a, b) => key(b) - key(a));
  return {
    measures: base.measures,
    unit,
    total: { base: of(base, "base", base.total), head: of(head, "head", head.total) },
    growers: byDelta.filter((r) => key(r) > 0).slice(0, n),
    shrinkers: byDelta
      .filter((r) => key(r) < 0)
      .reverse()
      .slice(0, n),
  };
}
