// TiDB targets: a playground on this machine or a tiup cluster on a profile's hosts, planned from
// the spec's variants and the profile (plan.ts), carried out by run.ts.

import { type ClusterHosts, placeholderHosts, withHosts } from "../../cloud/aws/resources.ts";
import { InputError } from "../../errors.ts";
import type { LoadedSpec } from "../../specfile/load.ts";
import { planTidb, type TidbPlan, type TidbVariant } from "./plan.ts";
import { loadProfile } from "./profile.ts";

/** The profile a TiDB spec runs on when neither the spec nor --profile names one. */
export const DEFAULT_PROFILE = "infra/profiles/playground.yaml";

/** The variants of a loaded spec, in the order they are set up (a plain run has one: base). */
export function variantsOf(loaded: LoadedSpec): TidbVariant[] {
  if (loaded.variants) return loaded.variants.all.map((v) => ({ name: v.name, target: v.spec.target }));
  return [{ name: "base", target: loaded.spec.target }];
}

/** Loads the profile (--profile, else target.profile, else the playground) and plans the run. */
export async function planFor(
  loaded: LoadedSpec,
  o: { profile?: string; prefix: string; cloud?: ClusterHosts },
): Promise<TidbPlan> {
  const variants = variantsOf(loaded);
  if (variants.some((v) => v.target.kind !== "tidb"))
    throw new InputError(`${loaded.path}: target.kind: every variant of a TiDB comparison is kind tidb`);
  const named = new Set(variants.map((v) => v.target.profile ?? DEFAULT_PROFILE));
  if (!o.profile && named.size > 1)
    throw new InputError(
      `${loaded.path}: variants name different profiles (${[...named].join(", ")}); variants run on the same hardware, so they share one profile`,
    );
  const file = o.profile ?? ([...named][0] as string);
  let profile = await loadProfile(file, o.profile ? "--profile" : "target.profile");
  // an ephemeral cluster's addresses are known after `up`: until then each machine's name stands in
  if (profile.provider === "aws") profile = withHosts(profile, o.cloud ?? placeholderHosts(profile));
  const blocks = loaded.spec.compare?.blocks ?? 1;
  if (blocks > 1 && profile.provider === "playground")
    throw new InputError(
      `${loaded.path}: compare.blocks is ${blocks}, but profile ${file} is a playground, which cannot restart its servers without losing its data: use compare.blocks: 1, or a profile with provider hosts or aws`,
    );
  return planTidb({ variants, profile, profileFile: file, prefix: o.prefix });
}
