import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { type Document, isMap, isScalar, isSeq, LineCounter, parseDocument } from "yaml";
import type { z } from "zod";
import { InputError } from "../errors.ts";
import { type Spec, SpecSchema } from "./schema.ts";
import { resolveVariants, type VariantPlan } from "./variants.ts";

export interface LoadedSpec {
  /** Where it came from, as the user named it. */
  path: string;
  spec: Spec;
  /** The variants a comparison runs, resolved and validated; absent when the spec has none. */
  variants?: VariantPlan;
  /** sha256 of the canonical JSON of the validated spec: identical specs compare, others do not. */
  hash: string;
  /** The YAML of a spec composed from several sources (refs, overlay files, tolerance input). */
  composed?: string;
}

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

export function formatIssues(
  file: string,
  issues: readonly z.core.$ZodIssue[],
  locate?: (path: readonly PropertyKey[]) => number | undefined,
  schema?: z.ZodType,
): string {
  const lines = issues.map((issue) => {
    let path = issue.path;
    let message = issue.message;
    if (issue.code === "unrecognized_keys") {
      path = [...issue.path, issue.keys[0] ?? ""];
      const allowed = schema ? allowedKeysAt(schema, issue.path) : [];
      message = `unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.join(", ")}${allowed.length ? ` (allowed: ${allowed.join(", ")})` : ""}`;
    } else if (issue.code === "invalid_key") {
      path = [...issue.path];
      message = issue.issues.map((i) => i.message).join("; ");
    }
    const line = locate?.(path);
    return `${file}${line ? `:${line}` : ""}: ${keyPath(path)}: ${message}`;
  });
  return lines.join("\n");
}

/** Sorted-key JSON, so the hash does not depend on key order in the YAML. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export function hashSpec(spec: unknown): string {
  return createHash("sha256").update(canonicalJson(spec)).digest("hex");
}

/** Parses and validates spec text; every problem names the file, line and key path. */
export function parseSpec(text: string, file: string): LoadedSpec {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: true });
  if (doc.errors.length > 0) {
    // Only the first: one stray character makes the YAML parser report dozens of follow-on errors.
    const e = doc.errors[0] as (typeof doc.errors)[number];
    const more = doc.errors.length > 1 ? " (fix this first; later YAML errors may follow from it)" : "";
    throw new InputError(
      `${file}:${e.linePos?.[0]?.line ?? "?"}: invalid YAML: ${e.message.split("\n")[0]}${more}`,
    );
  }
  const raw = doc.toJS();
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new InputError(
      `${file}: a spec is a YAML mapping with keys name, target, data, workloads, metrics`,
    );
  }
  const parsed = SpecSchema.safeParse(raw);
  if (!parsed.success) {
    throw new InputError(formatIssues(file, parsed.error.issues, (p) => lineOf(doc, counter, p), SpecSchema));
  }
  const loaded: LoadedSpec = { path: file, spec: parsed.data, hash: hashSpec(parsed.data) };
  if (parsed.data.variants) loaded.variants = resolveVariants(file, raw, parsed.data);
  return loaded;
}

export async function loadSpec(file: string): Promise<LoadedSpec> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new InputError(`--spec ${file}: cannot read the file (${(e as NodeJS.ErrnoException).code ?? e})`);
  }
  return parseSpec(text, file);
}
