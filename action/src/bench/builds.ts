// The builds stage: a spec whose TiDB target names a source tree (target.source) becomes the same
// spec with tidb-server binpaths — each commit built once and kept (targets/tidb/source.ts) —
// before anything is planned, so the plan a run executes names the binaries it runs.
import { existsSync } from "node:fs";
import { stringify } from "yaml";
import { InputError } from "../errors.ts";
import { type LoadedSpec, type SpecBuild, specOfValue } from "../specfile/load.ts";
import { kindOf, TARGET_KINDS } from "../targets/registry.ts";
import type { SourceBuild, SourceBuilder } from "../targets/source-build.ts";
import { deepMerge } from "../yaml/merge.ts";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

export interface BuildOptions {
  log: (line: string) => void;
  signal?: AbortSignal;
  /** Plan only: name each commit's binary (kept or to be built) without building it. */
  dryRun?: boolean;
}

/** The source builder of a target's kind, when the kind builds from source and the target names a tree. */
export function builderOf(target: unknown): SourceBuilder | undefined {
  const name = isObj(target) && typeof target.kind === "string" ? target.kind : undefined;
  const builder = name && TARGET_KINDS[name] ? kindOf(name).source : undefined;
  return builder?.treeOf(target) ? builder : undefined;
}

/** Whether any target of the spec (its own or a variant's, as resolved) is built from source. */
export function hasSources(loaded: LoadedSpec): boolean {
  const targets = [loaded.spec.target, ...(loaded.variants?.all.map((v) => v.spec.target) ?? [])];
  return targets.some((t) => builderOf(t) !== undefined);
}

/**
 * The spec with every target's source turned into the binary its kind builds from it (the spec's
 * own and each variant's, a variant's source merged over the spec's), and the builds made or found.
 */
export async function withSourceBuilds(loaded: LoadedSpec, opts: BuildOptions): Promise<LoadedSpec> {
  if (!hasSources(loaded)) return loaded;
  // a copy of the spec's mapping: the built spec is a new value, the given one stays as it was
  const raw = structuredClone(loaded.raw);
  // variants take the spec's kind (they cannot change it)
  const builder = kindOf(loaded.spec.target.kind).source as SourceBuilder;
  const builds: SpecBuild[] = [...(loaded.builds ?? [])];
  const made = new Map<string, Promise<SourceBuild>>();
  const one = async (source: Obj, where: string, variant: string): Promise<string> => {
    const tree = String(source.path);
    const ref = typeof source.ref === "string" ? source.ref : "HEAD";
    const { commit, subject } = await builder.resolve(tree, ref, `${where}.ref`);
    const key = builder.buildKey(source, commit);
    let binary: string;
    let seconds = 0;
    let kept = true;
    if (opts.dryRun) {
      binary = builder.plannedBinary(source, commit);
      kept = existsSync(binary);
    } else {
      if (!made.has(key)) made.set(key, builder.build(source, commit, opts));
      const b = await (made.get(key) as Promise<SourceBuild>);
      binary = b.binary;
      seconds = b.seconds;
      kept = b.kept;
    }
    const how = builder.howBuilt(source);
    builds.push({ variant, path: tree, ref, commit, subject, binary, seconds, kept, how });
    return binary;
  };
  checkConflicts(loaded.path, raw, builder);
  // the defaults (the spec's settings of the source, its ref) with a validated shape
  const own = builder.treeOf(raw.target) ? (loaded.spec.target as Obj).source : undefined;
  const top = isObj(own) ? own : undefined;
  // builds one after another: a build takes the machine's cores
  const variants = isObj(raw.variants) ? raw.variants : {};
  const names = Object.keys(variants);
  const variantBuilds: [string, string][] = [];
  for (const name of names) {
    const overlay = variants[name];
    const vsrc =
      isObj(overlay) && isObj(overlay.target) && isObj(overlay.target.source)
        ? overlay.target.source
        : undefined;
    if (!vsrc) continue;
    if (!top && (!vsrc.path || !vsrc.build))
      throw new InputError(
        `${loaded.path}: variants.${name}.target.source: names no path and build, and the spec's target has no source to take them from`,
      );
    const merged = deepMerge(top ?? builder.defaults, vsrc) as Obj;
    variantBuilds.push([name, await one(merged, `variants.${name}.target.source`, name)]);
  }
  if (top) {
    // every variant built its own: the spec's target takes the first's (no build nobody runs)
    const all = names.length > 0 && variantBuilds.length === names.length;
    const binary = all ? (variantBuilds[0] as [string, string])[1] : await one(top, "target.source", "all");
    raw.target = builder.withBinary(raw.target as Obj, binary);
  }
  for (const [name, binary] of variantBuilds) {
    const overlay = variants[name] as Obj;
    overlay.target = builder.withBinary(overlay.target as Obj, binary);
  }
  const unseen = await unseenOf(loaded, builder, raw.target as Obj, builds);
  return {
    ...specOfValue(raw, loaded.path),
    path: loaded.path,
    // for the record (the run's spec.yaml): the binaries in place of the sources
    composed: stringify(raw),
    builds,
    ...(unseen.length ? { unseen } : {}),
    ...(loaded.profile ? { profile: loaded.profile } : {}),
    // what the spec's composition found (nothing to measure, a new spec) holds for its builds too
    ...(loaded.same ? { same: loaded.same } : {}),
    ...(loaded.adoption ? { adoption: loaded.adoption } : {}),
  };
}

/** A target (the spec's, a variant's overlay) that names both a source and what it would build: refused by its key. */
function checkConflicts(path: string, raw: Obj, builder: SourceBuilder): void {
  for (const [where, target] of [
    ["target", raw.target],
    ...Object.entries(isObj(raw.variants) ? raw.variants : {}).map(([n, v]) => [
      `variants.${n}.target`,
      isObj(v) ? v.target : undefined,
    ]),
  ] as [string, unknown][]) {
    const why = isObj(target) ? builder.conflict(target) : undefined;
    if (why) throw new InputError(`${path}: ${where}: ${why}`);
  }
}

/** The build a variant's server is (its own, else the spec's target's), as the result records it. */
export function variantBuild(
  loaded: LoadedSpec,
  variant: string,
): { commit: string; subject: string; tree: string; binary: string } | undefined {
  const b =
    loaded.builds?.find((x) => x.variant === variant) ?? loaded.builds?.find((x) => x.variant === "all");
  return b ? { commit: b.commit, subject: b.subject, tree: b.path, binary: b.binary } : undefined;
}

/**
 * Base and head built from one tree at two commits (a source PR check, a bisect step): what of the
 * change between them the target cannot judge where it runs, as its kind says.
 */
async function unseenOf(
  loaded: LoadedSpec,
  builder: SourceBuilder,
  target: Obj,
  builds: SpecBuild[],
): Promise<NonNullable<LoadedSpec["unseen"]>> {
  const names = loaded.variants ? [loaded.variants.base.name, loaded.variants.head.name] : [];
  const [base, head] = names.map((n) => builds.find((b) => b.variant === n));
  if (!builder.unseen || !base || !head || base.path !== head.path || base.commit === head.commit) return [];
  return builder.unseen(target, base.path, base.commit, head.commit, loaded.profile);
}
