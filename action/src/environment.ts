// tiperf's settings from its process environment: the one file that reads `process.env`. Every
// variable tiperf reads by name is listed here with what it sets (docs/cli.md's table is checked
// against this list); a name outside it is a type error. A variable the spec names itself
// (`endpoint.password_env`) is read by `named`; the environment children inherit is `inherited`.
// Nothing in tiperf writes the environment: what a run passes on (its shard, its ledger, its
// seed) travels in options and arguments.

export const VARIABLES = {
  TIPERF_LEDGER:
    "the ledger's folder: what a run created, for `tiperf reap` (default: the temp directory's tiperf-ledger)",
  TIPERF_DATA_DIR: "where private servers keep their data directories (default: the temp directory)",
  TIPERF_PORT_CLAIMS:
    "the folder of port claims shared by tiperf runs on one machine (default: /tmp/tiperf-ports)",
  TIPERF_CGROUP_PREFIX: "the name prefix of the cgroups target.resources creates (default: tiperf-)",
  TIPERF_TIMINGS:
    "the file of measured step times that replace estimates; off: none (default: ~/.cache/tiperf/timings.json)",
  TIPERF_BUILDS: "where target.source builds are kept (default: ~/.cache/tiperf/builds)",
  TIPERF_PULUMI: "the Pulumi CLI to drive (default: pulumi on PATH, else .tools/bin/pulumi)",
  TIUP_HOME: "tiup's home, as tiup reads it (default: ~/.tiup)",
  KUBECONFIG: "the kubeconfig kubectl would read, its first file (default: ~/.kube/config)",
  GOOGLE_OAUTH_ACCESS_TOKEN:
    "a GCP access token for the leftover sweep (default: gcloud auth print-access-token)",
  PULUMI_CONFIG_PASSPHRASE: "the passphrase of local Pulumi stacks (default: tiperf)",
  PULUMI_HOME: "Pulumi's home (default: the run's pulumi-home)",
  XDG_CACHE_HOME: "the cache root of timings and builds (default: ~/.cache)",
  PATH: "where programs are found",
  GITHUB_TOKEN: "the token publish and comment use when --token is not given",
  GITHUB_API_URL: "GitHub's API (a GitHub Enterprise server's)",
  GITHUB_STEP_SUMMARY: "the job summary file a run's report is appended to",
  GITHUB_EVENT_PATH: "the event of the workflow run (the Action's pull request)",
  GITHUB_REF: "the ref of the workflow run: a pull request's number names cloud stacks",
  GITHUB_REF_NAME: "the branch of the workflow run: stack names and history entries",
  GITHUB_REPOSITORY: "owner/name of the workflow run's repository: cloud tags",
  GITHUB_RUN_ID: "the workflow run: the Action's ledger folder, and its link in a verdict",
  GITHUB_SERVER_URL: "GitHub's address: the workflow run's link in a verdict",
  GITHUB_SHA: "the commit of the workflow run: `tiperf history add` without --commit",
} as const;

export type Variable = keyof typeof VARIABLES;

/** A variable of the list, as set (undefined when unset). */
export function setting(name: Variable): string | undefined {
  return process.env[name];
}

/** A variable the spec or a flag names (endpoint.password_env): read as it is set. */
export function named(name: string): string | undefined {
  return process.env[name];
}

/** The whole environment, as children would inherit it (proc/env.ts cleans it for servers and tools). */
export function inherited(): NodeJS.ProcessEnv {
  return process.env;
}
