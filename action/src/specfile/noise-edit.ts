// compare.noise written into a spec file as text: the rest of the file — its comments, flow
// mappings, spacing and order — stays byte for byte as it was. Only the noise mapping is new (or
// replaces the one there); a one-line `compare: {…}` is opened into a block to take it, each of its
// entries kept as written.
import { isMap, parseDocument, stringify } from "yaml";
import { InputError } from "../errors.ts";

type Obj = Record<string, unknown>;

const indent = (text: string, by: number) =>
  text
    .trimEnd()
    .split("\n")
    .map((l) => `${" ".repeat(by)}${l}`)
    .join("\n");

/** The column a node starts at (spaces since its line's start). */
const columnOf = (text: string, offset: number) => offset - (text.lastIndexOf("\n", offset - 1) + 1);

/** `text` (a spec file's) with compare.noise set to `noise`, nothing else changed. */
export function withNoise(text: string, noise: Obj, file: string): string {
  const doc = parseDocument(text);
  if (doc.errors.length)
    throw new InputError(`${file}: invalid YAML: ${doc.errors[0]?.message.split("\n")[0]}`);
  const block = stringify({ noise }, { lineWidth: 0 });
  const compare = doc.get("compare", true);
  if (compare === undefined || compare === null) {
    const sep = text === "" || text.endsWith("\n") ? "" : "\n";
    return `${text}${sep}compare:\n${indent(block, 2)}\n`;
  }
  if (!isMap(compare) || !compare.range)
    throw new InputError(`${file}: compare: must be a mapping to take compare.noise`);
  const items = compare.items;
  if (compare.flow) {
    // `compare: {a: 1, b: 2}` opened into a block: each entry as written, then the noise
    const kept = items
      .filter((p) => (p.key as { value?: unknown })?.value !== "noise")
      .map((p) => {
        const k = (p.key as { range?: [number, number, number] }).range;
        const v = (p.value as { range?: [number, number, number] } | null)?.range;
        return text.slice(k?.[0] ?? 0, v?.[1] ?? k?.[1] ?? 0);
      });
    const opened = `\n${indent([...kept, block].join("\n"), 2)}`;
    return `${text.slice(0, compare.range[0]).trimEnd()}${opened}${text.slice(compare.range[1])}`;
  }
  const first = items[0]?.key as { range?: [number, number, number] } | undefined;
  const column = first?.range ? columnOf(text, first.range[0]) : 2;
  const there = items.find((p) => (p.key as { value?: unknown })?.value === "noise");
  if (there) {
    const start = (there.key as { range: [number, number, number] }).range[0];
    const end = (there.value as { range: [number, number, number] }).range[1];
    const tail = text.slice(start, end).endsWith("\n") ? "\n" : "";
    return `${text.slice(0, start)}${indent(block, column).trimStart()}${tail}${text.slice(end)}`;
  }
  // after the block's last entry (its range ends past its last line's newline)
  const end = compare.range[1];
  const before = text.slice(0, end);
  const sep = before.endsWith("\n") ? "" : "\n";
  return `${before}${sep}${indent(block, column)}\n${text.slice(end)}`;
}
