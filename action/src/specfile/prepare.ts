import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { parse, stringify } from "yaml";
import { InputError } from "../errors.ts";
import { parseDuration } from "../yaml/keys.ts";
import { deepMerge, isObj, type Obj } from "../yaml/merge.ts";
import { absentAt, adoptionSpec, atRef } from "./adoption.ts";
import { canonicalJson, type LoadedSpec, loadSpec, specOfValue } from "./load.ts";

/** The compare keys a workflow or the command line may set over the spec's. */
export interface CompareOverrides {
  rounds?: number;
  /** Set with rounds where a spec's own max_rounds would fall below them (a bisect's re-measure). */
  max_rounds?: number;
  blocks?: number;
  confidence?: number;
  seed?: number;
  budget?: string;
}

/**
 * compare.* overrides from flags or Action inputs (`get` gives the raw text, `name` how to name it
 * in a message): numbers checked here, the rest as the spec's own keys are.
 */
export function compareOverrides(
  get: (key: string) => string | undefined,
  name: (key: string) => string,
): CompareOverrides {
  const refused: string[] = [];
  const num = (key: string, ok: (n: number) => boolean, what: string) => {
    const v = get(key);
    if (v === undefined || v === "") return undefined;
    const n = Number(v);
    if (Number.isFinite(n) && ok(n)) return n;
    refused.push(`${name(key)} must be ${what} (got ${JSON.stringify(v)})`);
    return undefined;
  };
  // compare.budget's own words (at least a minute), checked here so the flag or input is named
  const duration = (key: string) => {
    const v = get(key);
    if (v === undefined || v === "") return undefined;
    const seconds = parseDuration(v);
    if (seconds !== undefined && seconds >= 60) return v;
    refused.push(
      `${name(key)} must be a duration of at least a minute, like 90s, 20m or 2h (got ${JSON.stringify(v)})`,
    );
    return undefined;
  };
  const whole = (min: number) => (n: number) => Number.isInteger(n) && n >= min;
  const out: CompareOverrides = {
    rounds: num("rounds", whole(2), "a whole number of rounds, at least 2"),
    blocks: num("blocks", whole(1), "a whole number of blocks, at least 1"),
    confidence: num("confidence", (n) => n > 0.5 && n < 1, "a confidence between 0.5 and 1, like 0.95"),
    seed: num("seed", (n) => whole(0)(n) && n < 2 ** 31, "a whole number from 0 to 2^31−1"),
    budget: duration("budget"),
  };
  // every bad value said at once
  if (refused.length) throw new InputError(refused.join("\n"));
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as CompareOverrides;
}

/** compare.* overrides written into a raw spec (its own compare section kept beneath). */
function applyCompare(raw: Obj, o: CompareOverrides | undefined): void {
  const set = Object.entries(o ?? {}).filter(([, v]) => v !== undefined);
  if (!set.length) return;
  raw.compare = { ...(isObj(raw.compare) ? raw.compare : {}), ...Object.fromEntries(set) };
}

/** `5%` for every metric, or per metric like `tps=5%,p95_ms=10%` or `tpmc=3%`. */
export function parseTolerance(value: string, name = "'tolerance' input"): Record<string, number> {
  const out: Record<string, number> = {};
  if (value.trim() === "") return out;
  for (const part of value.split(",").map((p) => p.trim())) {
    const m = /^(?:([a-z][a-z0-9_]*)=)?(\d+(?:\.\d+)?)%$/.exec(part);
    if (!m || Number(m[2]) >= 100)
      throw new InputError(
        `${name} must be a percentage like 5% or per metric like tps=5%,p95_ms=10% (got ${JSON.stringify(part)})`,
      );
    out[m[1] ?? "*"] = Number(m[2]) / 100;
  }
  return out;
}

export interface SpecSource {
  spec: string;
  /** Compare the spec's target as of two git refs (a PR's base and head). */
  baseRef?: string;
  headRef?: string;
  /** Or: two YAML overlays (e.g. `target: {config: …}`) for the base and head variants. */
  baseConfig?: string;
  headConfig?: string;
  /** The target's version and build (binpath) per side, for kinds that take them (their schema says). */
  baseVersion?: string;
  headVersion?: string;
  baseBinpath?: string;
  headBinpath?: string;
  /** metric → tolerance override ("*" = every metric). */
  tolerance?: Record<string, number>;
  /** Where the override came from, for messages: `--tolerance`, or the Action's 'tolerance' input. */
  toleranceFrom?: string;
  /**
   * compare.* over the spec's (rounds, blocks, confidence, seed, budget): a workflow sizes a
   * comparison to its own timeout without editing the spec. Validated as the spec's keys are.
   */
  compare?: CompareOverrides;
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
export async function specAtRef(spec: string, ref: string, cwd?: string): Promise<string> {
  const at = atRef(ref, spec, cwd);
  try {
    const { stdout } = await promisify(execFile)("git", ["show", at.name], {
      cwd: at.dir,
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
  for (const w of specOfValue(raw, where).spec.workloads)
    for (const [m, rule] of Object.entries(w.judge))
      out[m] = { tolerance: `${Number((rule.tolerance * 100).toFixed(4))}%` };
  return out;
}

function applyTolerance(
  raw: Obj,
  tolerance: Record<string, number> | undefined,
  where: string,
  from = "'tolerance' input",
): void {
  if (!tolerance || Object.keys(tolerance).length === 0) return;
  const metrics = (isObj(raw.metrics) ? raw.metrics : defaultMetrics(raw, where)) as Obj;
  for (const m of Object.keys(tolerance)) {
    if (m !== "*" && !isObj(metrics[m])) {
      throw new InputError(
        `${from}: ${m} is not judged by ${where} (its metrics: ${Object.keys(metrics).join(", ")})`,
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
    // a target built from source takes the refs as commits of its tree (a TiDB source PR check)
    const file = resolve(src.cwd ?? ".", src.spec);
    const own = existsSync(file) ? await fileMapping(file) : {};
    const source = isObj(own.target) && isObj(own.target.source) ? own.target.source : undefined;
    if (source) return sourceRefs(own, source, src.baseRef, src.headRef, src);
    const label = (ref: string) => `${src.spec}@${ref}`;
    const headRaw = await yamlMapping(await specAtRef(src.spec, src.headRef, src.cwd), label(src.headRef));
    if (await absentAt(src.spec, src.baseRef, src.cwd)) {
      applyTolerance(headRaw, src.tolerance, label(src.headRef), src.toleranceFrom);
      applyCompare(headRaw, src.compare);
      return adoptionSpec(src.spec, src.baseRef, src.headRef, headRaw);
    }
    const baseRaw = await yamlMapping(await specAtRef(src.spec, src.baseRef, src.cwd), label(src.baseRef));
    // Each ref's own target must be valid on its own, named by its ref.
    const { variants: _variants, ...headOwn } = headRaw;
    specOfValue({ ...headOwn, target: baseRaw.target }, label(src.baseRef));
    applyTolerance(headRaw, src.tolerance, label(src.headRef), src.toleranceFrom);
    applyCompare(headRaw, src.compare);
    const compare = isObj(headRaw.compare) ? headRaw.compare : {};
    // One spec file that says it all: the head ref's spec, its base variant patched back to the
    // base ref's target (null removes what the head added), so `compare --spec` repeats it.
    const composed: Obj = {
      ...headRaw,
      variants: { base: { target: mergePatch(headRaw.target, baseRaw.target) }, head: {} },
      compare: { ...compare, base: "base", head: "head" },
    };
    const out = composedSpec(composed, `${src.spec} (${src.baseRef} vs ${src.headRef})`, src.spec);
    const { variants: _bv, compare: _bc, ...baseRest } = baseRaw;
    const { variants: _hv, compare: _hc, ...headRest } = headRaw;
    // the whole spec as each ref has it, but the compare settings the run takes from the head
    if (canonicalJson(baseRest) === canonicalJson(headRest))
      out.same = `${src.spec} is the same at ${src.baseRef} and ${src.headRef} (target, data, workloads, metrics): both sides would run one target`;
    return out;
  }
  const builds = [src.baseVersion, src.headVersion, src.baseBinpath, src.headBinpath].some(Boolean);
  const overlays = Boolean(src.baseConfig || src.headConfig || builds);
  const overrides = Object.values(src.compare ?? {}).some((v) => v !== undefined);
  const plain = !overlays && !overrides && Object.keys(src.tolerance ?? {}).length === 0;
  if (plain) return loadSpec(src.spec); // keeps line numbers in error messages
  const raw = await fileMapping(src.spec);
  applyTolerance(raw, src.tolerance, src.spec, src.toleranceFrom);
  applyCompare(raw, src.compare);
  if (overlays) {
    // a side's build (version, binpath) over its config overlay
    const side = async (
      config: string | undefined,
      version: string | undefined,
      binpath: string | undefined,
    ) =>
      deepMerge(config ? await fileMapping(config) : {}, {
        ...(version || binpath
          ? { target: { ...(version ? { version } : {}), ...(binpath ? { binpath } : {}) } }
          : {}),
      }) as Obj;
    const base = await side(src.baseConfig, src.baseVersion, src.baseBinpath);
    const head = await side(src.headConfig, src.headVersion, src.headBinpath);
    // a spec with variants of its own keeps them: each side's overlay goes over its own variant
    // (a build given for a spec whose head splits its tables still splits them)
    const own = isObj(raw.variants) ? raw.variants : undefined;
    raw.variants =
      own && isObj(own.base) && isObj(own.head)
        ? { ...own, base: deepMerge(own.base, base), head: deepMerge(own.head, head) }
        : { base, head };
    raw.compare = { ...(isObj(raw.compare) ? raw.compare : {}), base: "base", head: "head" };
    const names = [
      src.baseConfig,
      src.headConfig,
      ...(builds ? ["the --base/--head version and binpath"] : []),
    ]
      .filter(Boolean)
      .join(" + ");
    return composedSpec(raw, `${src.spec} (variants from ${names})`, src.spec);
  }
  return composedSpec(raw, src.spec, src.spec);
}

/**
 * A source PR check: the refs are of the target's source tree, not of the spec's repository.
 * Head is the server built at the head ref, base at its merge base with the base ref (what the
 * PR changes, not what the base branch gained since).
 */
async function sourceRefs(
  raw: Obj,
  source: Obj,
  baseRef: string,
  headRef: string,
  src: SpecSource,
): Promise<LoadedSpec> {
  const tree = String(source.path);
  let mergeBase: string;
  try {
    const { stdout } = await promisify(execFile)("git", ["-C", tree, "merge-base", baseRef, headRef]);
    mergeBase = stdout.trim();
  } catch (e) {
    throw new InputError(
      `${src.spec}: target.source ${tree}: no merge base of ${baseRef} and ${headRef} (${((e as { stderr?: string }).stderr ?? (e as Error).message).trim().split("\n")[0] || "unrelated histories"}): both refs must be commits of the source tree`,
    );
  }
  applyTolerance(raw, src.tolerance, src.spec, src.toleranceFrom);
  applyCompare(raw, src.compare);
  raw.variants = {
    base: { target: { source: { ref: mergeBase } } },
    head: { target: { source: { ref: headRef } } },
  };
  raw.compare = { ...(isObj(raw.compare) ? raw.compare : {}), base: "base", head: "head" };
  const out = composedSpec(
    raw,
    `${src.spec} (built at ${headRef} vs its merge base ${mergeBase.slice(0, 10)})`,
    src.spec,
  );
  const same = await sameBuild(tree, mergeBase, headRef);
  if (same) out.same = same;
  return out;
}

/**
 * Files that never reach a built server: documentation, the repository's own CI, and Go's tests
 * (`go build` compiles no _test.go file and no testdata/ directory).
 */
const NOT_BUILT =
  /(^|\/)(docs?|\.github|testdata)\/|\.(md|txt|rst|png|svg)$|_test\.go$|(^|\/)(LICENSE|OWNERS|OWNERS_ALIASES|CODEOWNERS)$/i;

/**
 * Why the server built at `head` is the one built at `base`, or undefined: no file between them
 * changed, or only files no build reads (documentation, CI workflows, Go tests).
 */
async function sameBuild(tree: string, base: string, head: string): Promise<string | undefined> {
  const { stdout } = await promisify(execFile)("git", ["-C", tree, "diff", "--name-only", base, head], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const changed = stdout.split("\n").filter(Boolean);
  if (changed.length === 0)
    return `${head} and its merge base ${base.slice(0, 10)} have the same tree: the server built at both is one`;
  if (changed.every((f) => NOT_BUILT.test(f)))
    return `between ${base.slice(0, 10)} and ${head} only files no build reads changed (${changed.length}: ${changed.slice(0, 5).join(", ")}${changed.length > 5 ? ", …" : ""}): the server built at both is one`;
  return undefined;
}

/**
 * A spec put together from several sources, validated as a value; its YAML written out for the
 * record only (a run stores it, "reproduce locally" repeats it), never parsed again.
 */
export function composedSpec(raw: Obj, label: string, path: string): LoadedSpec {
  return { ...specOfValue(raw, label), path, composed: stringify(raw) };
}

/**
 * The JSON Merge Patch (RFC 7386) that turns `from` into `to`: changed keys with their new value,
 * removed keys as null (deepMerge applies it).
 */
export function mergePatch(from: unknown, to: unknown): unknown {
  if (!isObj(from) || !isObj(to)) return to === undefined ? null : to;
  const patch: Obj = {};
  for (const k of Object.keys(from)) if (!(k in to)) patch[k] = null;
  for (const [k, v] of Object.entries(to)) {
    if (JSON.stringify(from[k]) === JSON.stringify(v)) continue;
    patch[k] = k in from ? mergePatch(from[k], v) : v;
  }
  return patch;
}

/** A cell of the matrix: a workload at one thread count. */
export interface CellRef {
  workload: string;
  threads: number;
}

/**
 * The spec cut down to some of its cells (a confirmation re-runs only the regressed ones; a bisect
 * step only the cells that regressed between good and bad), compare.* set over its own.
 */
export async function narrowSpec(
  loaded: LoadedSpec,
  cells: CellRef[],
  compare: Obj = {},
  /** The metrics judged instead of the spec's own (bisect --metric). */
  metrics?: Obj,
): Promise<LoadedSpec> {
  const raw = structuredClone(loaded.raw);
  const workloads = Array.isArray(raw.workloads) ? (raw.workloads as Obj[]) : [];
  raw.workloads = workloads
    .map((w) => {
      const threads = [...new Set(cells.filter((c) => c.workload === w.name).map((c) => c.threads))].sort(
        (a, b) => a - b,
      );
      return threads.length ? { ...w, threads } : undefined;
    })
    .filter((w) => w !== undefined);
  if ((raw.workloads as unknown[]).length === 0)
    throw new InputError(
      `${loaded.path}: none of ${cells.map((c) => `${c.workload} threads=${c.threads}`).join(", ")} is a cell of its workloads`,
    );
  // null removes a key (the seed of the first run, so a re-run draws its own order)
  raw.compare = deepMerge(isObj(raw.compare) ? raw.compare : {}, compare);
  // the noise of workloads left out goes with them (compare.noise names only the spec's workloads)
  const noise = (raw.compare as Obj).noise;
  if (isObj(noise) && isObj(noise.workloads)) {
    const kept = new Set((raw.workloads as Obj[]).map((w) => w.name));
    noise.workloads = Object.fromEntries(Object.entries(noise.workloads).filter(([name]) => kept.has(name)));
  }
  if (metrics) raw.metrics = metrics;
  const out = composedSpec(raw, loaded.path, loaded.path);
  return {
    ...out,
    ...(loaded.profile ? { profile: loaded.profile } : {}),
    ...(loaded.builds ? { builds: loaded.builds } : {}),
  };
}
