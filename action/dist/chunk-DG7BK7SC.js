#!/usr/bin/env node
import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path';
const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);
import {
  RunError,
  gcpLabels,
  runCommand,
  setting
} from "./chunk-KJWZ2OYQ.js";
import "./chunk-3EADY6QU.js";

// action/src/cloud/gcp/sweep.ts
var GKE_API = "https://container.googleapis.com";
async function accessToken() {
  const env = setting("GOOGLE_OAUTH_ACCESS_TOKEN");
  if (env) return env;
  const r = await runCommand("gcloud", ["auth", "print-access-token"], { timeoutMs: 6e4 });
  if (r.code !== 0 || !r.stdout.trim())
    throw new RunError(
      `no Google Cloud access token: set GOOGLE_OAUTH_ACCESS_TOKEN or log gcloud in (gcloud auth print-access-token: ${(r.stderr || `exit ${r.code}`).trim().split("\n").pop()})`
    );
  return r.stdout.trim();
}
async function removeGkeByLabel(o) {
  const base = o.endpoint ?? GKE_API;
  const token = o.token ?? await accessToken();
  const headers = { authorization: `Bearer ${token}` };
  const list = await fetch(`${base}/v1/projects/${encodeURIComponent(o.project)}/locations/-/clusters`, {
    headers,
    signal: AbortSignal.timeout(6e4)
  });
  if (!list.ok)
    throw new RunError(
      `GKE: listing the clusters of project ${o.project}: HTTP ${list.status} ${await list.text()}`
    );
  const runLabel = gcpLabels({ "tiperf:run-id": o.runId });
  const [key, value] = Object.entries(runLabel)[0];
  const clusters = (await list.json()).clusters ?? [];
  const removed = [];
  for (const c of clusters.filter((x) => x.resourceLabels?.[key] === value)) {
    const url = `${base}/v1/projects/${encodeURIComponent(o.project)}/locations/${encodeURIComponent(c.location)}/clusters/${encodeURIComponent(c.name)}`;
    const r = await fetch(url, { method: "DELETE", headers, signal: AbortSignal.timeout(6e4) });
    if (!r.ok && r.status !== 404)
      throw new RunError(
        `GKE: deleting cluster ${c.name} in ${c.location}: HTTP ${r.status} ${await r.text()}`
      );
    o.log(`sweep: GKE cluster ${c.name} (${c.location}) of run ${o.runId} deleted`);
    removed.push(`container cluster ${c.name}`);
  }
  return removed;
}
export {
  removeGkeByLabel
};
