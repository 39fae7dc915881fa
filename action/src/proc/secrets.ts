// Secrets a run was handed (an endpoint's password from the environment): never written out.
// Every place tiperf writes what it ran or saw — log lines, the `$ command` line of a raw log,
// executed.json, error messages — passes its text through `maskSecrets` first.

const secrets = new Set<string>();

/** The mask that stands for a secret wherever one would be written. */
export const MASK = "***";

/** Registers a secret (ignored when too short to be one: masking "a" would mangle every line). */
export function addSecret(value: string | undefined): void {
  if (value && value.length >= 3) secrets.add(value);
}

/** The text with every registered secret replaced by the mask. */
export function maskSecrets(text: string): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join(MASK);
  return out;
}

/** An argument list with secrets masked (for records of what ran). */
export const maskArgs = (args: readonly string[]): string[] => args.map(maskSecrets);
