// The builds stage: a spec whose TiDB target names a source tree (target.source) becomes the same
// spec with tidb-server binpaths — each commit built once and kept (targets/tidb/source.ts) —
// before anything is planned, so the plan a run executes names the binaries it runs.
import { readFile } from "node:fs/promises";
import { parse, stringify } from "yaml";
import { InputError } from "../errors.ts";
import { type LoadedSpec, parseSpec, type SpecBuild } from "../specfile/load.ts";
import { deepMerge } from "../specfile/merge.ts";
import {
  type Build,
  buildAt,
  buildKey,
  keptBuild,
  resolveCommit,
  type SourceSpec,
  treeDir,
} from "../targets/tidb/source.ts";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

export interface BuildOptions {
  log: (line: string) => void;
  signal?: AbortSignal;
  /** Plan only: name each commit's binary (kept or to be built) without building it. */
  dryRun?: boolean;
}

async function rawOf(loaded: LoadedSpec): Promise<Obj> {
  const raw = parse(loaded.composed ?? (await readFile(loaded.path, "utf8")));
  return isObj(raw) ? raw : {};
}

const sourceOf = (target: unknown): Obj | undefined =>
  isObj(target) && isObj(target.source) ? target.source : undefined;

/** Whether any target of the spec (its own or a variant's, as resolved) is built from source. */
export function hasSources(loaded: LoadedSpec): boolean {
  const targets = [loaded.spec.target, ...(loaded.variants?.all.map((v) => v.spec.target) ?? [])];
  return targets.some((t) => t.kind === "tidb" && (t as { source?: unknown }).source !== undefined);
}

/**
 * The spec with every target.source turned into target.binpath (the spec's own and each variant's,
 * a variant's source merged over the spec's), and the builds made or found.
 */
export async function withSourceBuilds(loaded: LoadedSpec, opts: BuildOptions): Promise<LoadedSpec> {
  if (!hasSources(loaded)) return loaded;
  const raw = await rawOf(loaded);
  const builds: SpecBuild[] = [...(loaded.builds ?? [])];
  const made = new Map<string, Promise<Build>>();
  const one = async (source: Obj, where: string, variant: string): Promise<string> => {
    const src = source as unknown as SourceSpec;
    const ref = src.ref ?? "HEAD";
    const { commit, subject } = await resolveCommit(src.path, ref, `${where}.ref`);
    const key = `${commit}\n${buildKey(commit, src)}`;
    let binary: string;
    let seconds = 0;
    let kept = true;
    if (opts.dryRun) {
      binary =
        keptBuild(src.path, commit, src) ?? `${treeDir(src.path)}/${buildKey(commit, src)}/tidb-server`;
    } else {
      if (!made.has(key)) made.set(key, buildAt(src, commit, opts));
      const b = await (made.get(key) as Promise<Build>);
      binary = b.binary;
      seconds = b.seconds;
      kept = b.kept;
    }
    builds.push({ variant, path: src.path, ref, commit, subject, binary, seconds, kept });
    return binary;
  };
  for (const [where, target] of [
    ["target", raw.target],
    ...Object.entries(isObj(raw.variants) ? raw.variants : {}).map(([n, v]) => [
      `variants.${n}.target`,
      isObj(v) ? v.target : undefined,
    ]),
  ] as [string, unknown][])
    if (
      sourceOf(target) &&
      isObj(target) &&
      (typeof target.binpath === "string" || (isObj(target.binpath) && target.binpath.tidb))
    )
      throw new InputError(
        `${loaded.path}: ${where}: source and binpath both name the tidb-server to run: give one`,
      );
  const withBinary = (target: Obj, binary: string): Obj => {
    const { source: _source, ...rest } = target;
    void _source;
    const binpath = isObj(rest.binpath) ? { ...rest.binpath, tidb: binary } : binary;
    return { ...rest, binpath };
  };
  // the defaults (the spec's settings of the source, its ref) with a validated shape
  const parsed = parseSpec(stringify(raw), loaded.path).spec;
  const own = parsed.target.kind === "tidb" ? parsed.target.source : undefined;
  const top = sourceOf(raw.target) ? (own as unknown as Obj) : undefined;
  // builds one after another: a build takes the machine's cores
  const variants = isObj(raw.variants) ? raw.variants : {};
  const names = Object.keys(variants);
  const variantBuilds: [string, string][] = [];
  for (const name of names) {
    const overlay = variants[name];
    const vsrc = isObj(overlay) ? sourceOf(overlay.target) : undefined;
    if (!vsrc) continue;
    if (!top && (!vsrc.path || !vsrc.build))
      throw new InputError(
        `${loaded.path}: variants.${name}.target.source: names no path and build, and the spec's target has no source to take them from`,
      );
    const merged = deepMerge(top ?? { binary: "bin/tidb-server", timeout: "60m" }, vsrc) as Obj;
    variantBuilds.push([name, await one(merged, `variants.${name}.target.source`, name)]);
  }
  if (top) {
    // every variant built its own: the spec's target takes the first's (no build nobody runs)
    const all = names.length > 0 && variantBuilds.length === names.length;
    const binary = all ? (variantBuilds[0] as [string, string])[1] : await one(top, "target.source", "all");
    raw.target = withBinary(raw.target as Obj, binary);
  }
  for (const [name, binary] of variantBuilds) {
    const overlay = variants[name] as Obj;
    overlay.target = withBinary(overlay.target as Obj, binary);
  }
  const text = stringify(raw);
  return {
    ...parseSpec(text, loaded.path),
    path: loaded.path,
    composed: text,
    builds,
    ...(loaded.profile ? { profile: loaded.profile } : {}),
  };
}
