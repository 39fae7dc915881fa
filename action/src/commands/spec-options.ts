// The spec a run or comparison executes, as either door gives it: the file, or composed from two
// git refs, two config overlays, two versions or builds; the tolerance and compare.* over the
// spec's; the cluster profile. One set of checks for the command line and the Action.
import { existsSync, statSync } from "node:fs";
import { parseShard, type Shard } from "../bench/cut.ts";
import { InputError } from "../errors.ts";
import { parseLogin } from "../publish/names.ts";
import { COMPOSE_FIELDS, compositionIssues } from "../specfile/compose-rules.ts";
import type { LoadedSpec } from "../specfile/load.ts";
import { compareOverrides, parseTolerance, prepareSpec, type SpecSource } from "../specfile/prepare.ts";
import { type Door, Refusals } from "./door.ts";

/** The spec's words, checked: what prepareSpec composes, and the profile over the spec's. */
export interface SpecWords extends SpecSource {
  profile?: string;
}

const GIT_REF = /^(?!-)(?!.*\.\.)[A-Za-z0-9._/@^~+-]{1,200}$/;
const VERSION = /^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$|^nightly$/;

/** A file option: a path (never one that reads as a flag) to a file that exists. */
export function fileOption(d: Door, name: string): string | undefined {
  const value = d.get(name);
  if (value === undefined) return undefined;
  if (value.startsWith("-") || value.includes("\0"))
    throw new InputError(`${d.say(name)} must be a file path (got ${JSON.stringify(value)})`);
  if (!existsSync(value) || !statSync(value).isFile())
    throw new InputError(`${d.say(name)}: no file at ${value} (paths are relative to ${d.relativeTo})`);
  return value;
}

/** A shard option, K/N: this runner's share; undefined when not given (or refused, the refusal kept). */
export function shardOption(d: Door, r: Refusals, name = "shard"): Shard | undefined {
  const text = d.get(name);
  return text === undefined ? undefined : r.check(() => parseShard(text, d.say(name)));
}

/** A GitHub login option (who accepted a regression); undefined when not given (or refused, the refusal kept). */
export function loginOption(d: Door, r: Refusals, name = "accepted-by"): string | undefined {
  const text = d.get(name);
  return text === undefined ? undefined : r.check(() => parseLogin(text, d.say(name)));
}

/** A git ref option: a branch, tag or commit, never one that reads as a flag. */
export function refOption(d: Door, name: string): string | undefined {
  const value = d.get(name);
  if (value === undefined) return undefined;
  if (!GIT_REF.test(value))
    throw new InputError(
      `${d.say(name)} must be a git ref: a branch, tag or commit of letters, digits and . _ / @ ^ ~ + -, not starting with - and without .. (got ${JSON.stringify(value)})`,
    );
  return value;
}

/** A TiDB version option: as tiup names releases (v8.5.0, v8.5.0-alpha.20241030) or nightly. */
export function versionOption(d: Door, name: string): string | undefined {
  const value = d.get(name);
  if (value === undefined) return undefined;
  if (!VERSION.test(value))
    throw new InputError(
      `${d.say(name)} must be a TiDB version like v8.5.0 or nightly (got ${JSON.stringify(value)})`,
    );
  return value;
}

/**
 * The spec's words from a door, every refusal kept in `r`: the spec file (required; read at the
 * refs when both are given, so it need not be in the working tree then), the composition fields,
 * tolerance, compare.* and profile.
 */
export function specWords(d: Door, r: Refusals): SpecWords | undefined {
  const refs = d.get("base-ref") !== undefined && d.get("head-ref") !== undefined;
  const spec = d.get("spec");
  if (spec === undefined) r.refuse(d.missing("spec"));
  else if (!refs) r.check(() => fileOption(d, "spec"));
  const words: SpecWords = {
    spec: spec ?? "",
    baseRef: r.check(() => refOption(d, "base-ref")),
    headRef: r.check(() => refOption(d, "head-ref")),
    baseConfig: r.check(() => fileOption(d, "base-config")),
    headConfig: r.check(() => fileOption(d, "head-config")),
    baseVersion: r.check(() => versionOption(d, "base-version")),
    headVersion: r.check(() => versionOption(d, "head-version")),
    baseBinpath: r.check(() => fileOption(d, "base-binpath")),
    headBinpath: r.check(() => fileOption(d, "head-binpath")),
    tolerance: r.check(() => parseTolerance(d.get("tolerance") ?? "", d.say("tolerance"))) ?? {},
    toleranceFrom: d.say("tolerance"),
    compare:
      r.check(() =>
        compareOverrides(
          (k) => d.get(k),
          (k) => d.say(k),
        ),
      ) ?? {},
  };
  const profile = r.check(() => fileOption(d, "profile"));
  if (profile) words.profile = profile;
  for (const issue of compositionIssues(
    Object.fromEntries(COMPOSE_FIELDS.map((f) => [f, d.get(f)])),
    (fields, joiner) => d.sayAll(fields, joiner),
  ))
    r.refuse(`${issue}`);
  return spec === undefined ? undefined : words;
}

/** The spec the words say, composed and loaded (the profile over the spec's). */
export async function loadWords(words: SpecWords): Promise<LoadedSpec> {
  const { profile, ...source } = words;
  const loaded = await prepareSpec(source);
  return profile ? { ...loaded, profile } : loaded;
}

/** The spec a door gives, checked (every refusal at once) and loaded: for commands that take nothing else of it. */
export async function specFrom(d: Door): Promise<LoadedSpec> {
  const r = new Refusals(d.prefix);
  const words = specWords(d, r);
  r.done();
  return loadWords(words as SpecWords);
}
