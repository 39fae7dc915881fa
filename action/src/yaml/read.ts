// Reading YAML files for validation: line numbers of key paths, and messages that name the file,
// line and key, with the allowed keys when one is unknown.
import { readFile } from "node:fs/promises";
import { type Document, isMap, isScalar, isSeq, LineCounter, parseDocument } from "yaml";
import type { z } from "zod";
import { InputError } from "../errors.ts";

/** Renders a key path the way people write it: workloads[0].threads. */
export function keyPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || "(top level)";
}

function lineOf(doc: Document, counter: LineCounter, path: readonly PropertyKey[]): number | undefined {
  // Walk down as far as the document goes; the deepest existing node is where the fix is.
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth) as unknown[], true) as
      | { range?: [number, number, number] }
      | undefined;
    if (node && (isScalar(node) || isMap(node) || isSeq(node)) && node.range) {
      return counter.linePos(node.range[0]).line;
    }
  }
  return undefined;
}

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  valueType?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
};

/** The keys a schema allows at `path`, so "unknown key" can say what is allowed. */
export function allowedKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let node: z.ZodType | undefined = schema;
  const unwrap = () => {
    for (
      let def = node?._zod.def as unknown as Def | undefined;
      def;
      def = node?._zod.def as unknown as Def | undefined
    ) {
      const inner =
        def.type === "pipe"
          ? def.in
          : ["optional", "default", "nullable", "prefault"].includes(def.type)
            ? def.innerType
            : undefined;
      if (!inner) return;
      node = inner;
    }
  };
  for (const key of path) {
    unwrap();
    const def = node?._zod.def as unknown as Def | undefined;
    if (!def) return [];
    node =
      def.type === "object"
        ? def.shape?.[String(key)]
        : def.type === "array"
          ? def.element
          : def.type === "record"
            ? def.valueType
            : undefined;
  }
  unwrap();
  const def = node?._zod.def as unknown as Def | undefined;
  return def?.type === "object" && def.shape ? Object.keys(def.shape) : [];
}

/** Edit distance of two short strings (Levenshtein), for "did you mean". */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(
        (prev[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    prev = row;
  }
  return prev[b.length] as number;
}

/** The closest of `names` to `word` (a typo's likely meaning), if close enough to say so. */
export function closest(word: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  for (const n of names) {
    const dd = distance(word, n);
    if (dd < bestD) {
      best = n;
      bestD = dd;
    }
  }
  return best !== undefined && bestD <= Math.max(1, Math.floor(word.length / 3)) && bestD > 0
    ? best
    : undefined;
}

/** The value at a key path of the raw YAML, and whether its parent has that key at all. */
function at(raw: unknown, path: readonly PropertyKey[]): { parent: unknown; present: boolean } {
  let node = raw;
  for (const k of path.slice(0, -1)) {
    if (!node || typeof node !== "object") return { parent: undefined, present: false };
    node = (node as Record<PropertyKey, unknown>)[k as string];
  }
  const last = path[path.length - 1];
  const present = Boolean(node && typeof node === "object" && last !== undefined && (last as string) in node);
  return { parent: node, present };
}

export function formatIssues(
  file: string,
  issues: readonly z.core.$ZodIssue[],
  locate?: (path: readonly PropertyKey[]) => number | undefined,
  schema?: z.ZodType,
  /** The YAML as written: a key it lacks is "required", a near miss "did you mean". */
  raw?: unknown,
): string {
  const lines = issues.map((issue) => {
    let path = issue.path;
    let message = issue.message;
    const where = raw !== undefined && path.length ? at(raw, path) : undefined;
    if (issue.code === "unrecognized_keys") {
      path = [...issue.path, issue.keys[0] ?? ""];
      const allowed = schema ? allowedKeysAt(schema, issue.path) : [];
      const named = issue.keys.map((k) => {
        const near = closest(k, allowed);
        return near ? `${k} (did you mean ${near}?)` : k;
      });
      message = `unknown key${issue.keys.length > 1 ? "s" : ""} ${named.join(", ")}${allowed.length ? ` (allowed: ${allowed.join(", ")})` : ""}`;
    } else if (
      where &&
      !where.present &&
      where.parent &&
      typeof where.parent === "object" &&
      (issue.code === "invalid_type" || /^Invalid input/.test(issue.message))
    ) {
      // a key the spec left out (or misspelled): say so, not "Invalid input"
      const name = String(path[path.length - 1]);
      const written = Object.keys(where.parent as object);
      const typo = written.find((k) => closest(k, [name]) === name);
      message = `required, but missing${typo ? ` (is ${typo} on this line a typo of ${name}?)` : ""}`;
      const line = typo ? locate?.([...path.slice(0, -1), typo]) : undefined;
      if (line) return `${file}:${line}: ${keyPath(path)}: ${message}`;
    } else if (issue.code === "invalid_key") {
      path = [...issue.path];
      message = issue.issues.map((i) => i.message).join("; ");
    }
    const line = locate?.(path);
    return `${file}${line ? `:${line}` : ""}: ${keyPath(path)}: ${message}`;
  });
  return lines.join("\n");
}

/** A YAML file read for validation: its plain value, and a way to find the line of a key path. */
export interface YamlFile {
  raw: unknown;
  line: (path: readonly PropertyKey[]) => number | undefined;
}

/** Parses YAML text; a syntax error names the file and line (only the first: the rest follow from it). */
export function parseYaml(text: string, file: string): YamlFile {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0] as (typeof doc.errors)[number];
    const more = doc.errors.length > 1 ? " (fix this first; later YAML errors may follow from it)" : "";
    throw new InputError(
      `${file}:${e.linePos?.[0]?.line ?? "?"}: invalid YAML: ${e.message.split("\n")[0]}${more}`,
    );
  }
  return { raw: doc.toJS(), line: (p) => lineOf(doc, counter, p) };
}

/** Validates a parsed YAML file against a schema; every problem names the file, line and key path. */
export function validateYaml<S extends z.ZodType>(schema: S, yaml: YamlFile, file: string): z.output<S> {
  const parsed = schema.safeParse(yaml.raw);
  if (!parsed.success)
    throw new InputError(formatIssues(file, parsed.error.issues, yaml.line, schema, yaml.raw));
  return parsed.data;
}

/** A profile file's text; one that cannot be read names the flag or key that named it. */
export async function readProfileText(file: string, flag: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (e) {
    throw new InputError(
      `${flag} ${file}: cannot read the profile (${(e as NodeJS.ErrnoException).code ?? e})`,
    );
  }
}
