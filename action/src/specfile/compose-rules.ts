// What composing a spec from a door's inputs may not mix (two refs beside overlays or builds), checked
// once for both doors and worded by each: the CLI's flags, the Action's inputs.

/** The fields a door composes a spec from, as both doors name them (--base-ref, the 'base-ref' input). */
export const COMPOSE_FIELDS = [
  "base-ref",
  "head-ref",
  "base-config",
  "head-config",
  "base-version",
  "head-version",
  "base-binpath",
  "head-binpath",
] as const;

export type ComposeField = (typeof COMPOSE_FIELDS)[number];

/** A field as SpecSource and ActionInputs name it (base-ref → baseRef). */
export const camelOf = (f: ComposeField) => f.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

/**
 * What composing a spec may not mix, every issue at once, each in the door's words for its fields
 * (`name` joins them: "--base-ref and --head-ref", "'base-ref' and 'head-ref' inputs"). Two refs
 * take each side's whole spec from its ref: an overlay or a build beside them would be ignored.
 */
export function compositionIssues(
  given: Partial<Record<ComposeField, string | undefined>>,
  name: (fields: ComposeField[], joiner: string) => string,
): string[] {
  const has = (f: ComposeField) => Boolean(given[f]);
  const refs: ComposeField[] = ["base-ref", "head-ref"];
  const out: string[] = [];
  if (has("base-ref") !== has("head-ref"))
    out.push(`${name(refs, " and ")} go together: give both or neither`);
  if (!refs.some(has)) return out;
  const configs = (["base-config", "head-config"] as const).filter(has);
  if (configs.length)
    out.push(
      `${name(refs, "/")} and ${name(configs, "/")} exclude each other: each ref's spec carries its own target`,
    );
  const builds = (["base-version", "head-version", "base-binpath", "head-binpath"] as const).filter(has);
  if (builds.length)
    out.push(
      `${name(refs, "/")} and ${name(builds, "/")} exclude each other: each ref's spec carries its own target`,
    );
  return out;
}
