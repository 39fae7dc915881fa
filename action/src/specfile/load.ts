import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { InputError } from "../errors.ts";
import { parseYaml, validateYaml, type YamlFile } from "../yaml/read.ts";
import { type Spec, SpecSchema } from "./schema.ts";

export {
  allowedKeysAt,
  formatIssues,
  keyPath,
  parseYaml,
  validateYaml,
  type YamlFile,
} from "../yaml/read.ts";

import { resolveVariants, type VariantPlan } from "./variants.ts";

export interface LoadedSpec {
  /** Where it came from, as the user named it. */
  path: string;
  spec: Spec;
  /**
   * The spec's mapping as written or composed, before validation converted it (durations,
   * percentages): what overlays, narrowing and builds make new specs from — as values, never as
   * YAML text written and read again.
   */
  raw: Record<string, unknown>;
  /** The variants a comparison runs, resolved and validated; absent when the spec has none. */
  variants?: VariantPlan;
  /** sha256 of the canonical JSON of the validated spec: identical specs compare, others do not. */
  hash: string;
  /** --profile: the cluster profile of a TiDB target, over target.profile. */
  profile?: string;
  /**
   * The YAML of a spec composed from several sources (refs, overlay files, tolerance input, builds),
   * written for the record (a run's spec.yaml, what "reproduce locally" runs); never read back.
   */
  composed?: string;
  /** Builds from source (target.source) this spec's binaries came from. */
  builds?: SpecBuild[];
  /**
   * Base and head resolve to the same target (a PR that changes nothing the spec measures): why.
   * A comparison then measures nothing and passes, saying so.
   */
  same?: string;
  /**
   * The spec is new at the head (absent at the base: the pull request that adopts tiperf): why.
   * The comparison is an A/A of its design that passes whatever it finds and reports the noise.
   */
  adoption?: { why: string; spec: string };
  /** A source change's parts the target cannot judge (its kind's SourceBuilder.unseen). */
  unseen?: { why: string; paths: string[]; needs: string }[];
}

/** One target.source build: which variant ("all": the spec's own target), the commit, its binary. */
export interface SpecBuild {
  variant: string;
  path: string;
  ref: string;
  commit: string;
  subject: string;
  binary: string;
  seconds: number;
  kept: boolean;
  /** How it is built (its command, environment, flags), as the plan says it. */
  how?: string;
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
  return validSpec(parseYaml(text, file), file);
}

/**
 * A spec made as a value (composed from several sources, narrowed, built), validated like a file;
 * problems name `label` and the key path (there are no lines: no file holds it).
 */
export function specOfValue(raw: Record<string, unknown>, label: string): LoadedSpec {
  return validSpec({ raw, line: () => undefined }, label);
}

function validSpec(yaml: YamlFile, file: string): LoadedSpec {
  const raw = yaml.raw;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new InputError(
      `${file}: a spec is a YAML mapping with keys name, target, data, workloads, metrics`,
    );
  }
  const data = validateYaml(SpecSchema, yaml, file);
  const mapping = raw as Record<string, unknown>;
  const loaded: LoadedSpec = { path: file, spec: data, raw: mapping, hash: hashSpec(data) };
  if (data.variants) loaded.variants = resolveVariants(file, mapping, data);
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
