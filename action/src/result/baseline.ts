import { join } from "node:path";
import { InputError } from "../errors.ts";
import type { Result } from "./model.ts";
import { readResult, writeResult } from "./store.ts";

/**
 * The profile a result's baseline and history are kept under: where its machines came from, as the
 * run recorded it (results of earlier versions: local-<kind> of their first target).
 */
export function profileOf(result: Result): string {
  if (result.profile) return result.profile;
  const t = result.targets[0];
  if (!t) throw new InputError(`result ${result.run_id} has no target`);
  return `local-${t.kind}`;
}

const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** A name that becomes one path part: no separators, no "..", nothing hidden. */
export function plainName(what: string, name: string): string {
  if (!PLAIN_NAME.test(name) || name.includes(".."))
    throw new InputError(
      `${what} must be a plain name (letters, digits, . _ -; no / and no ..), like local-mariadb (got ${JSON.stringify(name)})`,
    );
  return name;
}

/** baselines/<profile>/<spec name>.json, never outside `dir`. */
export const baselinePath = (dir: string, profile: string, specName: string) =>
  join(dir, plainName("--profile", profile), `${plainName("the result's spec name", specName)}.json`);

/**
 * Promotes a complete result into baselines/ (schema-validated, atomic). Only complete runs
 * become baselines: a failed or interrupted one would make later comparisons lie.
 */
export async function promoteBaseline(resultFile: string, dir: string, profile?: string): Promise<string> {
  const result = await readResult(resultFile);
  if (result.status !== "complete") {
    throw new InputError(
      `${resultFile}: status is ${result.status}; only a complete result can become a baseline`,
    );
  }
  if (result.cells.some((c) => c.status !== "ok"))
    throw new InputError(`${resultFile}: has failed cells; not a baseline`);
  const file = baselinePath(dir, profile ?? profileOf(result), result.spec.name);
  await writeResult(file, result);
  return file;
}
