import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { parse, stringify } from "yaml";
import { InputError } from "../errors.ts";
import { hashSpec, type LoadedSpec, loadSpec, parseSpec } from "./load.ts";
import { CompareSchema } from "./schema.ts";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

export interface SpecSource {
  spec: string;
  /** Compare the spec's target as of two git refs (a PR's base and head). */
  baseRef?: string;
  headRef?: string;
  /** Or: two YAML overlays (e.g. `target: {config: …}`) for the base and head variants. */
  baseConfig?: string;
  headConfig?: string;
  /** metric → tolerance override ("*" = every metric). */
  tolerance?: Record<string, number>;
  /** Where git runs (the checkout). */
  cwd?: string;
}

async function yamlMapping(text: string, where: string): Promise<Obj> {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (e) {
    throw new InputError(`${where}: invalid YAML: ${(e as Error).message.split("\n")[0]}`);
  }
  if (!isObj(raw)) throw new InputError(`${where}: must be a YAML mapping`);
  return raw;
}

async function fileMapping(file: string): Promise<Obj> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new InputError(`${file}: cannot read the file (${(e as NodeJS.ErrnoException).code})`);
  }
  return yamlMapping(text, file);
}

/** The spec file as it was at a git ref: `git show REF:PATH`, arguments passed as an array. */
async function specAtRef(spec: string, ref: string, cwd?: string): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)("git", ["show", `${ref}:${spec.replace(/^\.\//, "")}`], {
      cwd,
      maxBuffer: 8 << 20,
    });
    return stdout;
  } catch (e) {
    throw new InputError(
      `cannot read ${spec} at git ref ${ref}: ${((e as { stderr?: string }).stderr ?? (e as Error).message).trim().split("\n")[0]} (is the ref fetched? actions/checkout needs fetch-depth: 0)`,
    );
  }
}

/** The metrics a spec without `metrics:` judges: each workload's default one (tps, tpmc, ops …). */
function defaultMetrics(raw: Obj, where: string): Obj {
  const out: Obj = {};
  for (const w of parseSpec(stringify(raw), where).spec.workloads)
    for (const [m, rule] of Object.entries(w.judge))
      out[m] = { tolerance: `${Number((rule.tolerance * 100).toFixed(4))}%` };
  return out;
}

function applyTolerance(raw: Obj, tolerance: Record<string, number> | undefined, where: string): void {
  if (!tolerance || Object.keys(tolerance).length === 0) return;
  const metrics = (isObj(raw.metrics) ? raw.metrics : defaultMetrics(raw, where)) as Obj;
  for (const m of Object.keys(tolerance)) {
    if (m !== "*" && !isObj(metrics[m])) {
      throw new InputError(
        `'tolerance' input: ${m} is not judged by ${where} (its metrics: ${Object.keys(metrics).join(", ")})`,
      );
    }
  }
  for (const [m, rule] of Object.entries(metrics)) {
    const t = tolerance[m] ?? tolerance["*"];
    if (t !== undefined && isObj(rule)) rule.tolerance = `${Number((t * 100).toFixed(4))}%`;
  }
  raw.metrics = metrics;
}

/**
 * The spec a run or comparison executes, from the action's or dispatch form's inputs:
 * - refs: the head ref's spec, with the base variant running the base ref's `target` (what a
 *   config PR changes) and the head variant the head ref's;
 * - configs: the spec with the two overlay files as its base and head variants;
 * - neither: the spec as it is (a comparison then needs its own variants).
 */
export async function prepareSpec(src: SpecSource): Promise<LoadedSpec> {
  if (src.baseRef && src.headRef) {
    const label = (ref: string) => `${src.spec}@${ref}`;
    const baseRaw = await yamlMapping(await specAtRef(src.spec, src.baseRef, src.cwd), label(src.baseRef));
    const headRaw = await yamlMapping(await specAtRef(src.spec, src.headRef, src.cwd), label(src.headRef));
    applyTolerance(headRaw, src.tolerance, label(src.headRef));
    delete headRaw.variants;
    const compare = isObj(headRaw.compare) ? headRaw.compare : {};
    headRaw.compare = { ...compare, base: "base", head: "head" };
    const base = parseSpec(stringify({ ...headRaw, target: baseRaw.target }), label(src.baseRef));
    const head = parseSpec(stringify(headRaw), label(src.headRef));
    const spec = { ...head.spec };
    return {
      path: src.spec,
      spec,
      hash: hashSpec({ base: base.spec, head: head.spec }),
      variants: {
        base: { name: "base", spec: base.spec },
        head: { name: "head", spec: head.spec },
        compare: head.spec.compare ?? CompareSchema.parse({}),
      },
    };
  }
  const plain = !src.baseConfig && !src.headConfig && Object.keys(src.tolerance ?? {}).length === 0;
  if (plain) return loadSpec(src.spec); // keeps line numbers in error messages
  const raw = await fileMapping(src.spec);
  applyTolerance(raw, src.tolerance, src.spec);
  if (src.baseConfig || src.headConfig) {
    raw.variants = {
      base: src.baseConfig ? await fileMapping(src.baseConfig) : {},
      head: src.headConfig ? await fileMapping(src.headConfig) : {},
    };
    raw.compare = { ...(isObj(raw.compare) ? raw.compare : {}), base: "base", head: "head" };
    const names = [src.baseConfig, src.headConfig].filter(Boolean).join(" + ");
    return { ...parseSpec(stringify(raw), `${src.spec} (variants from ${names})`), path: src.spec };
  }
  return { ...parseSpec(stringify(raw), src.spec), path: src.spec };
}
