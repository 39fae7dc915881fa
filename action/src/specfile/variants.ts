import { InputError } from "../errors.ts";
import { deepMerge } from "../yaml/merge.ts";
import { formatIssues } from "../yaml/read.ts";

export { deepMerge };

import { CompareSchema, type CompareSettings, type Spec, SpecSchema } from "./schema.ts";

export interface ResolvedVariant {
  name: string;
  spec: Spec;
}

export interface VariantPlan {
  /** The control (judged against by every other variant); with two variants, compare.base. */
  base: ResolvedVariant;
  /** With two variants, compare.head; with more, the first of the others. */
  head: ResolvedVariant;
  /** Every variant that runs, the control first, then the others in the order declared. */
  all: ResolvedVariant[];
  compare: CompareSettings;
  /**
   * The compare keys the spec wrote itself; the rest took their defaults, which a design may
   * choose instead (a duet's blocks: compare/design.ts). Absent: every key counts as written.
   */
  given?: string[];
}

const sameMatrix = (a: Spec, b: Spec) =>
  JSON.stringify(a.workloads.map((w) => [w.name, w.threads])) ===
  JSON.stringify(b.workloads.map((w) => [w.name, w.threads]));

/**
 * Resolves the two variants a comparison runs. Each is the spec with its overlay deep-merged in,
 * validated like any spec; both must keep the same matrix (workload names and thread counts),
 * since cells are compared one to one.
 */
export function resolveVariants(file: string, raw: unknown, spec: Spec): VariantPlan {
  const compare = spec.compare ?? CompareSchema.parse({});
  const variants = spec.variants;
  if (!variants) {
    throw new InputError(
      `${file}: variants: a comparison needs variants (for example variants: {base: {}, head: {target: {config: {…}}}})`,
    );
  }
  // Overlays merge onto what the user wrote (before durations and percentages were converted).
  const { variants: _v, compare: _c, ...plain } = raw as Record<string, unknown>;
  const rawCompare = ((raw as Record<string, unknown>).compare ?? {}) as Record<string, unknown>;
  const names = Object.keys(variants);
  // every variant against a control: compare.control, or more than two without base/head named
  const multi =
    compare.control !== undefined || (names.length > 2 && !("base" in rawCompare) && !("head" in rawCompare));
  const resolve = (role: "base" | "head" | "control", name: string = compare[role] as string) => {
    const overlay = variants[name];
    if (!overlay) {
      throw new InputError(
        `${file}: compare.${role}: no variant named "${name}" (variants: ${names.join(", ") || "none"})`,
      );
    }
    if ("variants" in overlay || "compare" in overlay) {
      throw new InputError(`${file}: variants.${name}: a variant cannot set variants or compare`);
    }
    // compare.noise goes along: a tolerance written as "3x noise" is resolved from it per workload
    const noise = rawCompare.noise !== undefined ? { compare: { noise: rawCompare.noise } } : {};
    const parsed = SpecSchema.safeParse(deepMerge({ ...plain, ...noise }, overlay));
    if (!parsed.success) {
      throw new InputError(
        formatIssues(`${file}: variants.${name}`, parsed.error.issues, undefined, SpecSchema),
      );
    }
    const { compare: _noise, ...spec } = parsed.data;
    return { name, spec };
  };
  let all: ResolvedVariant[];
  if (multi) {
    if ("base" in rawCompare || "head" in rawCompare)
      throw new InputError(
        `${file}: compare: base/head name a pair; with compare.control every variant is judged against the control: set one or the other`,
      );
    if (names.length < 2) throw new InputError(`${file}: variants: a comparison needs at least two variants`);
    const control = resolve("control", compare.control ?? (names[0] as string));
    all = [control, ...names.filter((n) => n !== control.name).map((n) => resolve("control", n))];
  } else {
    const base = resolve("base");
    const head = resolve("head");
    if (base.name === head.name)
      throw new InputError(`${file}: compare.base and compare.head name the same variant "${base.name}"`);
    all = [base, head];
  }
  const base = all[0] as ResolvedVariant;
  const head = all[1] as ResolvedVariant;
  for (const v of all.slice(1))
    if (!sameMatrix(base.spec, v.spec)) {
      throw new InputError(
        `${file}: variants.${v.name}: workloads and thread counts must be the same in every variant`,
      );
    }
  checkDesign(file, compare, rawCompare);
  return { base, head, all, compare, given: Object.keys(rawCompare) };
}

/** The comparison's design, checked: rounds, max_rounds, blocks, reload_data and looks agree. */
function checkDesign(file: string, compare: CompareSettings, rawCompare: Record<string, unknown>): void {
  if (compare.max_rounds !== undefined && compare.max_rounds < compare.rounds) {
    throw new InputError(
      `${file}: compare.max_rounds (${compare.max_rounds}) must be ≥ compare.rounds (${compare.rounds})`,
    );
  }
  if (compare.reload_data && compare.blocks < 3)
    throw new InputError(
      `${file}: compare.reload_data loads the data again before each block after the first: it needs compare.blocks of 3 or more (it is ${compare.blocks})`,
    );
  // a duet that leaves compare.blocks out gets its blocks when its order is resolved (duetBlocks)
  if (compare.looks > 1 && compare.blocks < 3 && "blocks" in rawCompare)
    throw new InputError(
      `${file}: compare.looks (${compare.looks}) looks again with new blocks of fresh server pairs: it needs compare.blocks of 3 or more (it is ${compare.blocks}); use compare.max_rounds for more rounds on one pair`,
    );
  if (compare.blocks > 1) {
    if (compare.rounds % compare.blocks !== 0)
      throw new InputError(
        `${file}: compare.rounds (${compare.rounds}) must be a multiple of compare.blocks (${compare.blocks}): every block runs the same number of rounds`,
      );
    const perBlock = compare.rounds / compare.blocks;
    if (compare.max_rounds !== undefined && compare.max_rounds % perBlock !== 0)
      throw new InputError(
        `${file}: compare.max_rounds (${compare.max_rounds}) must be a multiple of the ${perBlock} rounds per block (compare.rounds / compare.blocks): more rounds come as whole blocks`,
      );
  }
}
