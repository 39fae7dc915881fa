// Rooms with one-way doors: no two folders of action/src import each other (A imports from B and
// B from A, type imports included). A file at action/src's top (cli.ts, errors.ts) is a room of
// its own. Import cycles between files are dpdm's (npm run lint:cycles); this is the coarser rule
// that keeps each folder's job its own: a helper both need lives in a folder below them both.
//
//   node --import tsx scripts/folder-pairs.ts
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative, sep } from "node:path";

const SRC = "action/src";

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** The room of a file: its first folder under action/src, or the file itself at the top. */
const roomOf = (src: string, file: string) => relative(src, file).split(sep)[0] as string;

/** room → room → the imports that make the edge ("from.ts → to.ts"). */
export function folderImports(root = "."): Map<string, Map<string, string[]>> {
  const src = join(root, SRC);
  const edges = new Map<string, Map<string, string[]>>();
  for (const f of files(src)) {
    const text = readFileSync(f, "utf8");
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)) {
      const target = normalize(join(dirname(f), m[1] as string));
      if (!target.startsWith(src)) continue;
      const [a, b] = [roomOf(src, f), roomOf(src, target)];
      if (a === b) continue;
      const to = edges.get(a) ?? new Map<string, string[]>();
      to.set(b, [...(to.get(b) ?? []), `${relative(src, f)} → ${relative(src, target)}`]);
      edges.set(a, to);
    }
  }
  return edges;
}

/** Each pair of rooms that import each other, with an import of each way. */
export function mutualPairs(edges: Map<string, Map<string, string[]>>): string[] {
  const out: string[] = [];
  for (const [a, to] of edges)
    for (const [b, why] of to) {
      const back = edges.get(b)?.get(a);
      if (back && a < b) out.push(`${a} ⇄ ${b}: ${why[0]}; ${back[0]}`);
    }
  return out.sort();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const edges = folderImports();
  const pairs = mutualPairs(edges);
  for (const p of pairs) console.error(`${p} (move what both need below them both)`);
  const count = [...edges.values()].reduce((n, to) => n + to.size, 0);
  console.log(
    `folders of ${SRC}: ${count} one-way imports between rooms, ${pairs.length} pairs importing each other`,
  );
  process.exit(pairs.length ? 1 : 0);
}
