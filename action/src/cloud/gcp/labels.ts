// The run's tags in the form GCP takes them (labels), and its GKE cluster's name.

/**
 * A tag as a GCP label: keys and values of lowercase letters, digits, `-` and `_`, at most 63
 * characters ("tiperf:run-id" → "tiperf-run-id", "2026-11-26T20:00:00Z" → "2026-11-26t20-00-00z").
 */
export function gcpLabels(tags: Record<string, string>): Record<string, string> {
  const clean = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9_-]/g, (c) => (c === "/" ? "_" : "-"))
      .slice(0, 63);
  return Object.fromEntries(Object.entries(tags).map(([k, v]) => [clean(k), clean(v)]));
}

/** The run's GKE cluster name: tiperf-<run id>, a DNS label of at most 40 characters. */
export const clusterName = (runId: string) =>
  `tiperf-${runId
    .toLowerCase()
    .replace(/^tiperf-/, "")
    .replace(/[^a-z0-9-]/g, "-")}`
    .slice(0, 40)
    .replace(/-+$/, "");
