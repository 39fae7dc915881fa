// A TiDB that already runs (provider endpoint): what tiperf records of it and what a variant may
// ask of it. Anything that needs a deployment (a version or build, server configs, topology, CPU
// limits) is refused with the reason; the run's own tables are analyzed after the load.
import { COUNTERS_TIMEOUT_MS, goServerCounters } from "../../observe/cost.ts";
import { promCounters } from "../../observe/server-counters.ts";
import { variantAt } from "../../yaml/keys.ts";
import type { Sql } from "../endpoint/client.ts";
import type { EndpointServer, EndpointVariant } from "../endpoint/plan.ts";
import { profileKey } from "../endpoint/provider.ts";
import type { PlanStep, TargetPlanInput } from "../types.ts";
import { loadProfile } from "./load-profile.ts";
import type { TidbTargetSpec } from "./schema.ts";

/** tidb_version()'s first lines and /status (where the plan has its step), as the result records them. */
async function tidbFacts(
  sql: Sql,
  take: (name: string) => PlanStep["run"] | undefined,
): Promise<Record<string, unknown>> {
  const version = await sql((take("tidb_version") as { sql: string }).sql);
  const facts: Record<string, unknown> = {
    tidb_version: version.replace(/\\n/g, "\n").split("\n").slice(0, 4).join("\n"),
  };
  const status = take("status") as { get: string } | undefined;
  if (status) {
    try {
      const r = await fetch(status.get, { signal: AbortSignal.timeout(5000) });
      facts.status = r.ok ? await r.json() : `HTTP ${r.status}`;
    } catch (e) {
      facts.status = `not reachable: ${(e as Error).message}`;
    }
  }
  return facts;
}

export const TIDB_ENDPOINT: EndpointServer = {
  kind: "tidb",
  title: "TiDB",
  protocol: "mysql",
  versionSql: "SELECT VERSION()",
  facts: tidbFacts,
  factSteps: (ep) => ({
    tidb_version: { sql: "SELECT tidb_version()" },
    ...(ep.status_port ? { status: { get: `http://${ep.host}:${ep.status_port}/status` } } : {}),
  }),
  // the run's own tables only: fresh statistics, so auto-analyze does not fire during cells
  afterLoadStep: (database, table) => ({ sql: `ANALYZE TABLE ${database}.${table}` }),
  // the tidb-server's own counters, where the profile names its status port
  counters: {
    metrics: (ep) =>
      ep.status_port ? ["cpu_ms_per_op", "alloc_kb_per_op", "mallocs_per_op", "gc_per_kop"] : [],
    source: (ep) =>
      ep.status_port
        ? `the tidb-server's /metrics at ${ep.host}:${ep.status_port}`
        : "a TiDB endpoint without endpoint.status_port in its profile (the tidb-server's /metrics)",
    read: async (_sql, ep) => {
      const r = await fetch(`http://${ep.host}:${ep.status_port}/metrics`, {
        signal: AbortSignal.timeout(COUNTERS_TIMEOUT_MS),
      });
      if (!r.ok) return {};
      const text = await r.text();
      return { ...goServerCounters(text), ...promCounters(text, "tidb") };
    },
  },
};

/** What a TiDB target may not say on an endpoint, and why. */
const DEPLOYS: { key: keyof TidbTargetSpec; why: string }[] = [
  { key: "version", why: "the version is what the endpoint runs (recorded from tidb_version())" },
  { key: "binpath", why: "a build needs a deployment" },
  { key: "source", why: "a build needs a deployment" },
  { key: "resources", why: "CPU limits bind a private tidb-server tiperf starts" },
  { key: "server_configs", why: "tiperf never reconfigures an endpoint" },
  { key: "roles", why: "an endpoint's topology is its own" },
  {
    key: "sql",
    why: "target.sql changes the cluster for everyone on it; on an endpoint tiperf runs none yet",
  },
  { key: "split", why: "split scatters regions of the whole cluster; on an endpoint tiperf runs none yet" },
];

/** Each variant's profile file and profile (--profile over every variant, else its target.profile). */
export async function tidbVariantProfiles(input: TargetPlanInput, defaultProfile: string) {
  const files = input.variants.map(
    (v) => input.profile ?? (v.target as TidbTargetSpec).profile ?? defaultProfile,
  );
  const profiles = await Promise.all(files.map((f, i) => loadProfile(f, profileKey(input, i))));
  return profiles.map((p, i) => ({ file: files[i] as string, profile: p, provider: p.provider }));
}

/** The variants on their existing TiDBs; what needs a deployment is refused, with the reason. */
export function tidbEndpointVariants(
  input: TargetPlanInput,
  profiles: Awaited<ReturnType<typeof tidbVariantProfiles>>,
): { variants: EndpointVariant[]; refusals: string[] } {
  const at = (name: string) => variantAt(input.variants.length, name);
  const refusals: string[] = [];
  const variants: EndpointVariant[] = [];
  for (const [i, v] of input.variants.entries()) {
    const t = v.target as TidbTargetSpec;
    const { file, profile: p } = profiles[i] as (typeof profiles)[number];
    for (const d of DEPLOYS)
      if (t[d.key] !== undefined)
        refusals.push(
          `${input.file}: ${at(v.name)}target.${d.key}: ${file} is an existing TiDB (provider endpoint): ${d.why}. There tiperf compares a stored baseline (tiperf diff, --baseline) or two endpoints (a profile per variant)`,
        );
    variants.push({
      name: v.name,
      target: v.target,
      file,
      profile: {
        name: p.name,
        ...(p.description ? { description: p.description } : {}),
        provider: "endpoint",
        endpoint: p.endpoint as NonNullable<typeof p.endpoint>,
      },
    });
  }
  return { variants, refusals };
}
