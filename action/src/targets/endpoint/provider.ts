// What a kind's variants run on, by the provider their profiles name: one rule for every kind, so
// that each looks its way of running up in its own registry (a private server, an existing one,
// TiDB's deployers) instead of asking first whether the server is tiperf's.
import { InputError } from "../../errors.ts";
import { variantAt } from "../../yaml/keys.ts";
import type { TargetPlanInput } from "../types.ts";

/** A variant's profile as the rule below reads it: its file and its provider. */
export interface NamedProfile {
  file: string;
  provider: string;
}

/** The provider of a server tiperf did not create and only connects to, in every kind's profiles. */
export const ENDPOINT_PROVIDER = "endpoint";

/** Where variant i's profile was named: the --profile flag over every variant, or its target.profile. */
export function profileKey(input: TargetPlanInput, i: number): string {
  if (input.profile) return "--profile";
  return `${variantAt(input.variants.length, input.variants[i]?.name ?? "base")}target.profile`;
}

/** A variant with no profile: tiperf starts a private server for it (a kind's `local` way). */
export const PRIVATE_PROVIDER = "local";

/**
 * The one rule, for every kind, of what its variants run on: the provider their profiles name
 * (none named: PRIVATE_PROVIDER), which the kind looks its way of running up by. A run measures
 * servers tiperf did not create (ENDPOINT_PROVIDER) with every variant or none: a mix compares two
 * machines, not a change, and is refused naming the first variant that differs and what its
 * profile does instead.
 */
export function providerOf(
  input: Pick<TargetPlanInput, "file" | "variants">,
  profiles: (NamedProfile | undefined)[],
  server: string,
): string {
  const existing = profiles.map((p) => p?.provider === ENDPOINT_PROVIDER);
  const differs = existing.findIndex((e) => !e);
  if (differs < 0) return ENDPOINT_PROVIDER;
  if (!existing.some(Boolean)) return profiles[0]?.provider ?? PRIVATE_PROVIDER;
  const at = variantAt(input.variants.length, input.variants[differs]?.name ?? "base");
  const p = profiles[differs];
  throw new InputError(
    `${input.file}: ${at}target.profile${p ? ` ${p.file} deploys ${server} (provider ${p.provider})` : ": none named, so tiperf starts a private server"} while another variant measures an existing one (provider ${ENDPOINT_PROVIDER}): that compares two machines, not a change; give every variant an endpoint profile, or none`,
  );
}
