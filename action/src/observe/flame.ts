// A CPU profile's stacks as a tree of frames: the pprof protobuf (gzipped, as Go and TiKV serve it)
// decoded with pprof-format, each sample's stack merged root first (report/flame.ts draws it).
import { decodeProfile, sampleIndex } from "./profile-diff.ts";

export interface Frame {
  name: string;
  value: number;
  children: Map<string, Frame>;
}

const num = (x: number | bigint) => Number(x);

/** The profile's stacks as a tree of frames (root first), and the total value. */
export function frameTree(data: Uint8Array): Frame {
  const p = decodeProfile(data);
  const str = (i: number | bigint) => p.stringTable.strings[num(i)] ?? "?";
  // the CPU time of a CPU profile, the allocated bytes of an allocs profile
  const { index } = sampleIndex(p);
  const fn = new Map(p.function.map((f) => [num(f.id), str(f.name)]));
  const loc = new Map(
    p.location.map((l) => [
      num(l.id),
      // a location's lines run innermost (inlined) first: callers are the later ones
      l.line.map((line) => fn.get(num(line.functionId)) ?? "?").reverse(),
    ]),
  );
  const root: Frame = { name: "all", value: 0, children: new Map() };
  for (const s of p.sample) {
    const v = num(s.value[index] ?? 0);
    if (v <= 0) continue;
    root.value += v;
    let node = root;
    // location ids run leaf first: the root of the stack is the last
    for (const id of [...s.locationId].reverse())
      for (const name of loc.get(num(id)) ?? ["?"]) {
        let child = node.children.get(name);
        if (!child) {
          child = { name, value: 0, children: new Map() };
          node.children.set(name, child);
        }
        child.value += v;
        node = child;
      }
  }
  return root;
}
