// A run's GKE clusters deleted by their label, through GKE's REST API (a stack's recovery, when its
// state lost what it created): list the project's clusters in every location, keep those whose
// resourceLabels carry the run id, delete each. The access token is $GOOGLE_OAUTH_ACCESS_TOKEN
// (what the Pulumi provider reads too), else `gcloud auth print-access-token`.

import { setting } from "../../environment.ts";
import { RunError } from "../../errors.ts";
import { runCommand } from "../../proc/process.ts";
import { gcpLabels } from "./labels.ts";

const GKE_API = "https://container.googleapis.com";

interface GkeCluster {
  name: string;
  location: string;
  resourceLabels?: Record<string, string>;
}

async function accessToken(): Promise<string> {
  const env = setting("GOOGLE_OAUTH_ACCESS_TOKEN");
  if (env) return env;
  const r = await runCommand("gcloud", ["auth", "print-access-token"], { timeoutMs: 60_000 });
  if (r.code !== 0 || !r.stdout.trim())
    throw new RunError(
      `no Google Cloud access token: set GOOGLE_OAUTH_ACCESS_TOKEN or log gcloud in (gcloud auth print-access-token: ${(r.stderr || `exit ${r.code}`).trim().split("\n").pop()})`,
    );
  return r.stdout.trim();
}

export async function removeGkeByLabel(o: {
  project: string;
  runId: string;
  log: (line: string) => void;
  /** GKE's API (tests: a local server). */
  endpoint?: string;
  token?: string;
}): Promise<string[]> {
  const base = o.endpoint ?? GKE_API;
  const token = o.token ?? (await accessToken());
  const headers = { authorization: `Bearer ${token}` };
  const list = await fetch(`${base}/v1/projects/${encodeURIComponent(o.project)}/locations/-/clusters`, {
    headers,
    signal: AbortSignal.timeout(60_000),
  });
  if (!list.ok)
    throw new RunError(
      `GKE: listing the clusters of project ${o.project}: HTTP ${list.status} ${await list.text()}`,
    );
  const runLabel = gcpLabels({ "tiperf:run-id": o.runId });
  const [key, value] = Object.entries(runLabel)[0] as [string, string];
  const clusters = ((await list.json()) as { clusters?: GkeCluster[] }).clusters ?? [];
  const removed: string[] = [];
  for (const c of clusters.filter((x) => x.resourceLabels?.[key] === value)) {
    const url = `${base}/v1/projects/${encodeURIComponent(o.project)}/locations/${encodeURIComponent(c.location)}/clusters/${encodeURIComponent(c.name)}`;
    const r = await fetch(url, { method: "DELETE", headers, signal: AbortSignal.timeout(60_000) });
    if (!r.ok && r.status !== 404)
      throw new RunError(
        `GKE: deleting cluster ${c.name} in ${c.location}: HTTP ${r.status} ${await r.text()}`,
      );
    o.log(`sweep: GKE cluster ${c.name} (${c.location}) of run ${o.runId} deleted`);
    removed.push(`container cluster ${c.name}`);
  }
  return removed;
}
