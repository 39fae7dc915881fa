// How variants sharing one TidbCluster take turns and how it restarts: TiDB Operator's rolling
// update, asked for by a planned PATCH (a restart annotation, with or without a config) and waited
// for until every rolled role's StatefulSet is on a new revision; or items set online through TiDB.
import { RunError } from "../../../../errors.ts";
import type { KubeObject } from "../../../../kubernetes/client.ts";
import { stepKey } from "../../steps.ts";
import type { Restart, RunContext, Running, VariantSetup, VariantTurns } from "../types.ts";
import { componentsOf, RESTARTED_AT_ANNOTATION } from "./manifests.ts";
import {
  isReady,
  pathOf,
  readiness,
  readyClient,
  readyTimeoutMs,
  restartAt,
  revisions,
  rolling,
} from "./run.ts";
import { API, kubeStep, paths } from "./steps.ts";
import type { KubernetesDeployment } from "./types.ts";

/**
 * A planned PATCH of the TidbCluster that makes TiDB Operator roll `roles` (a restart annotation,
 * with or without a config), sent as a merge patch and waited for until every one of those roles'
 * StatefulSets is on a new revision and Ready is True; its seconds. `instead`: what to use when
 * the cluster cannot show it rolled.
 */
async function roll(
  ctx: RunContext,
  d: KubernetesDeployment,
  key: string,
  roles: readonly string[],
  instead: string,
  signal: AbortSignal,
): Promise<number> {
  const c = readyClient(ctx);
  const path = paths.tidbCluster(d).slice(API.length);
  const before = revisions(await c.get(path));
  if (roles.every((role) => !before[role]?.update))
    throw new RunError(
      `TidbCluster ${d.name}: the operator reports no StatefulSet revisions (status.<role>.statefulSet), so a rolling update could not be seen to finish: use ${instead}`,
    );
  restartAt.set(ctx, new Date().toISOString());
  const step = ctx.planned(key);
  restartAt.delete(ctx);
  if (!("patch" in step.run)) throw new RunError(`step ${step.key} is not a PATCH`);
  const started = Date.now();
  const body = JSON.parse(step.run.body) as { spec: Record<string, { annotations: Record<string, string> }> };
  const patched = await c.request<KubeObject>("PATCH", pathOf(c, step.run.patch), step.run.body, {
    contentType: "application/merge-patch+json",
  });
  // a CRD without the components' annotations prunes them: the operator would never roll
  const spec = (patched.spec ?? {}) as Record<string, { annotations?: Record<string, string> } | undefined>;
  for (const [role, asked] of Object.entries(body.spec))
    if (spec[role]?.annotations?.[RESTARTED_AT_ANNOTATION] !== asked.annotations[RESTARTED_AT_ANNOTATION])
      throw new RunError(
        `TidbCluster ${d.name}: the API server did not keep spec.${role}.annotations.${RESTARTED_AT_ANNOTATION} (the TidbCluster CRD here has no such field), so TiDB Operator would not roll it: use ${instead}`,
      );
  await c.waitFor(path, (tc) => isReady(tc) && rolling(before, tc, roles).length === 0, {
    timeoutMs: readyTimeoutMs(ctx),
    everyMs: 2000,
    signal,
    what: `TidbCluster ${d.name} in ${d.namespace} rolled by TiDB Operator (${roles.join(", ")})`,
    describe: (tc) => `${readiness(tc)}; rolling: ${rolling(before, tc, roles).join(", ") || "done"}`,
  });
  return Math.round((Date.now() - started) / 1000);
}

/**
 * Variants sharing one TidbCluster (config_switch: online): the variant's items set by the planned
 * SET CONFIG statements through TiDB, any warning a failure, then every instance read back.
 */
async function switchOnline(
  ctx: RunContext,
  d: KubernetesDeployment,
  setup: VariantSetup,
  r: Running,
): Promise<string | undefined> {
  // created with the first variant's config; after a restart (applied unknown) every variant applies its own
  if (r.applied === setup.name) return undefined;
  const keys = d.online?.keys ?? [];
  for (const k of keys) {
    const step = ctx.planned(stepKey.setConfigSql(setup, k.role, k.key));
    if (!("sql" in step.run)) throw new RunError(`step ${step.key} is not SQL`);
    const warnings = (await ctx.checks.sql(r.sql, step.run.sql, `variant ${setup.name}: SET CONFIG`)).trim();
    if (warnings)
      throw new RunError(
        `variant ${setup.name}: TiDB did not set ${k.role} ${k.key} online on TidbCluster ${d.name} (\`${step.run.sql}\`): ${warnings.replaceAll("\t", " ")}`,
      );
  }
  r.applied = setup.name;
  await ctx.checkConfig(setup, r);
  return `TidbCluster ${d.name}: variant ${setup.name} applied online (${keys.map((k) => `${k.role} ${k.key}`).join(", ") || "target.sql only"}), read back by SHOW CONFIG`;
}

export const kubernetesRestarts: Restart<KubernetesDeployment> = {
  seconds: 300,
  // a fresh instance of every component on the same volumes (compare.blocks): the operator's
  // graceful rolling restart, asked for by the planned PATCH and waited for until done
  async restart(ctx, d, _setup, r, state, signal) {
    const seconds = await roll(
      ctx,
      d,
      stepKey.restart(d),
      componentsOf(d.manifest),
      "compare.blocks: 1",
      signal,
    );
    state.seen = ++r.restarts;
    // fresh pods start from the spec's config: an item set online is applied again before its cell
    if (d.online) r.applied = undefined;
    return `TidbCluster ${d.name}: rolling restart by TiDB Operator done in ${seconds}s`;
  },
};

// variants sharing one TidbCluster (config_switch: rolling-update): the variant's config by the
// operator's rolling update of the roles that differ, before each group of its cells
export const switchTidbCluster: VariantTurns<KubernetesDeployment>["switchTo"] = async (
  ctx,
  d,
  setup,
  r,
  signal,
  fresh,
) => {
  if (d.online) return switchOnline(ctx, d, setup, r);
  if (!d.rolling) return undefined;
  r.applied ??= d.variants[0];
  if (r.applied === setup.name && !fresh) return undefined;
  const roles = d.rolling.roles;
  const seconds = await roll(
    ctx,
    d,
    kubeStep.switch(d, setup),
    roles,
    "kubernetes.config_switch: side-by-side",
    signal,
  );
  const was = r.applied;
  r.applied = setup.name;
  await ctx.checkConfig(setup, r);
  return `TidbCluster ${d.name}: variant ${setup.name} ${was === setup.name ? "again, on fresh pods" : "switched in"} by TiDB Operator's rolling update of ${roles.join(", ")} in ${seconds}s`;
};
