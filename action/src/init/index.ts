// `tiperf init`: a spec and a workflow written into a repository for its case, from the files this
// repository ships and tests (action/examples/*.yml run under act in tests/e2e; the specs and the
// profile are the shipped ones), so what a new user starts from is what CI ran. Nothing is
// overwritten: one file already there refuses the whole init, naming it.
import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { InputError } from "../errors.ts";

export const INIT_CASES = ["config", "tidb", "dispatch"] as const;
export type InitCase = (typeof INIT_CASES)[number];

/** The JSON Schema of specs, as released: the first line of every spec init writes. */
export const SPEC_SCHEMA_URL =
  "https://raw.githubusercontent.com/tiperf/tiperf/v1/action/schema/spec.schema.json";

/** tiperf's own checkout: the directory above this module (sources or bundle) that holds its examples. */
export function tiperfRoot(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from, i = 0; i < 8; i++, dir = dirname(dir))
    if (existsSync(join(dir, "action/examples/perf-pr.yml"))) return dir;
  throw new Error(`tiperf init: no action/examples/ above ${from} (run it from a tiperf checkout)`);
}

/** A shipped file's text, without its own schema line (a relative path here; init writes the URL). */
const read = (root: string, path: string) =>
  readFileSync(join(root, path), "utf8").replace(/^# yaml-language-server: .*\n/, "");

const PR_HEADER = `# The PR check of this repository (written by tiperf init): a pull request that changes target:
# (a TiDB config key, the version) is measured against its base commit's target:, both on the
# runner (a private tidb-server each; tiup installs the release). \`tiperf plan --spec perf/pr.yaml
# --base-ref HEAD --head-ref HEAD\` prints every step of that comparison and the smallest change each
# cell detects; docs/specs.md of tiperf has every key.`;

const DISPATCH_HEADER = `# Ad-hoc comparisons of this repository (written by tiperf init): run perf-dispatch from the
# Actions tab with two TiDB releases (base-version, head-version) or two overlay files (base-config,
# head-config: each \`target: {server_configs: {tidb: {...}}}\`) on this matrix.`;

/** A TiDB config/version spec: tidb-server of a release on the runner, one variant against another. */
function tidbSpec(name: string, header: string): string {
  return `# yaml-language-server: $schema=${SPEC_SCHEMA_URL}
${header}
name: ${name}
description: point_select and read_write, one TiDB variant against another.
target:
  kind: tidb
  profile: perf/local.yaml
  version: v8.5.0
  # the settings a PR changes (a role's TiDB config keys), e.g. performance.max-procs
  server_configs: { tidb: { log.level: error } }
data: { tables: 4, table_size: 10000 }
workloads:
  - name: point_select
    sysbench: oltp_point_select
    threads: [4, 16]
    duration: 10s
    warmup: 2s
    options: { rand-type: uniform }
  - name: read_write
    sysbench: oltp_read_write
    threads: [4, 16]
    duration: 10s
    warmup: 2s
    options: { rand-type: uniform }
metrics:
  tps: { tolerance: 5% }
  p95_ms: { tolerance: 10% }
  cpu_ms_per_op: { tolerance: 10% }
compare: { order: auto, rounds: 8, blocks: 4, budget: 60m }
`;
}

/** A shipped TiDB source check (`name`: pr, or count for its counting phase), its profile beside it (the example workflow's layout). */
function sourceSpec(root: string, name: "pr" | "count"): string {
  // the shipped spec's words, with the paths it has in a TiDB repository
  const text = read(root, `workloads/tidb-source-${name}.yaml`)
    .replace("profile: infra/profiles/local.yaml", "profile: .github/tiperf/local.yaml")
    .replaceAll(/--spec workloads\/tidb-source-(pr|count)\.yaml/g, "--spec .github/tiperf/source-$1.yaml")
    .replaceAll("workloads/tidb-source-pr.yaml", ".github/tiperf/source-pr.yaml")
    .replaceAll("action/examples/tidb-source-pr.yml", ".github/workflows/tidb-source-pr.yml")
    // the measurements and docs it cites are tiperf's, not the TiDB repository's
    .replaceAll(/(^|[\s(,;])(bench|docs)\//gm, "$1tiperf's $2/");
  return `# yaml-language-server: $schema=${SPEC_SCHEMA_URL}\n${text}`;
}

/** A profile as shipped, with its schema line. */
function profile(root: string, path: string): string {
  return `# yaml-language-server: $schema=${SPEC_SCHEMA_URL.replace("spec.schema.json", "profile.schema.json")}\n${read(root, path)}`;
}

/** The files of one case: path in the repository → text. */
export function initFiles(kase: InitCase, root = tiperfRoot()): Record<string, string> {
  switch (kase) {
    case "config":
      return {
        "perf/pr.yaml": tidbSpec("pr", PR_HEADER),
        "perf/local.yaml": profile(root, "infra/profiles/local.yaml"),
        ".github/workflows/perf-pr.yml": read(root, "action/examples/perf-pr.yml"),
        ".github/workflows/perf-pr-comment.yml": read(root, "action/examples/perf-pr-comment.yml"),
      };
    case "tidb":
      return {
        ".github/tiperf/source-pr.yaml": sourceSpec(root, "pr"),
        ".github/tiperf/source-count.yaml": sourceSpec(root, "count"),
        ".github/tiperf/local.yaml": profile(root, "infra/profiles/local.yaml"),
        ".github/workflows/tidb-source-pr.yml": read(root, "action/examples/tidb-source-pr.yml"),
        ".github/workflows/perf-pr-comment.yml": read(root, "action/examples/perf-pr-comment.yml"),
      };
    case "dispatch":
      return {
        "perf/dispatch.yaml": tidbSpec("dispatch", DISPATCH_HEADER),
        "perf/local.yaml": profile(root, "infra/profiles/local.yaml"),
        ".github/workflows/perf-dispatch.yml": read(root, "action/examples/perf-dispatch.yml"),
      };
  }
}

/**
 * What to do after init, per case. The plan is of the comparison the workflow runs (two variants:
 * the spec at two commits, or two releases), with the CLI as this one was started.
 */
function nextSteps(kase: InitCase, files: string[], dir: string, cli: string): string[] {
  const spec = files.find((f) => f.endsWith(".yaml") && !f.endsWith("local.yaml")) as string;
  const variants =
    kase === "dispatch" ? "--base-version v8.1.0 --head-version v8.5.0" : "--base-ref HEAD --head-ref HEAD";
  return [
    `wrote ${files.join(", ")}`,
    "next:",
    "  1. commit them, then see what the check would do (every command, its duration; the spec at",
    `     ${kase === "dispatch" ? "two releases" : "two commits, here both HEAD"}):`,
    `     cd ${dir} && node ${cli} plan --spec ${spec} ${variants}`,
    "  2. give a self-hosted runner (2 or more cores, Debian or Ubuntu) the labels self-hosted, tiperf",
    ...(kase === "tidb"
      ? ["     with Go installed; the check builds tidb-server at the PR head and its merge base"]
      : ["     with tiup on its PATH (it installs the TiDB release the spec names)"]),
    "  3. pin the action in the workflow to a tag of the tiperf repository (tiperf/tiperf/action@v1)",
    kase === "dispatch"
      ? "  4. push, then run perf-dispatch from the Actions tab"
      : "  4. push; the next pull request gets the check and its comment",
    ...(kase === "dispatch"
      ? []
      : ["  5. in branch protection, require the check `tiperf` (one check, for one runner or many)"]),
  ];
}

/** Written when the repository has none: actionlint then knows the runner label the workflows use. */
const ACTIONLINT_CONFIG = `# The label of the self-hosted runners that run tiperf's checks (written by tiperf init).
self-hosted-runner:
  labels: [tiperf]
`;

/** Writes a case's files under `dir`; refuses (writing nothing) if any of them exists. */
export async function initRepository(
  dir: string,
  kase: InitCase,
  log: (line: string) => void,
): Promise<string[]> {
  const all = initFiles(kase);
  // a file already there with these very bytes (an earlier init) is kept; any other is refused
  const same = (f: string) => readFileSync(join(dir, f), "utf8") === all[f];
  const there = Object.keys(all).filter((f) => existsSync(join(dir, f)) && !same(f));
  if (there.length)
    throw new InputError(
      `tiperf init: ${there.map((f) => join(dir, f)).join(", ")} already exist${there.length === 1 ? "s" : ""} and differ${there.length === 1 ? "s" : ""} from what init writes; init overwrites nothing (move ${there.length === 1 ? "it" : "them"} away, or pass --dir another directory)`,
    );
  const files = Object.fromEntries(Object.entries(all).filter(([f]) => !existsSync(join(dir, f))));
  for (const f of Object.keys(all).filter((f) => !(f in files))) log(`kept ${f}: already as init writes it`);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text, { flag: "wx" });
  }
  const written = Object.keys(files);
  // a run's results stay out of the repository
  if (await ignoreResults(dir)) written.push(".gitignore");
  const lintConfig = join(dir, ".github/actionlint.yaml");
  if (existsSync(lintConfig))
    log(`kept .github/actionlint.yaml: add the runner label tiperf to its self-hosted-runner.labels`);
  else {
    await writeFile(lintConfig, ACTIONLINT_CONFIG, { flag: "wx" });
    written.push(".github/actionlint.yaml");
  }
  const cli = process.argv[1] ? resolve(process.argv[1]) : "action/dist/cli.js";
  for (const line of nextSteps(kase, written, dir, cli)) log(line);
  return written;
}

/** Adds `results/` to the repository's .gitignore unless it is there; whether it wrote. */
async function ignoreResults(dir: string): Promise<boolean> {
  const file = join(dir, ".gitignore");
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  if (text.split("\n").some((l) => /^\/?results\/?$/.test(l.trim()))) return false;
  const sep = text === "" || text.endsWith("\n") ? "" : "\n";
  await writeFile(file, `${text}${sep}# tiperf's run results (tiperf init)\nresults/\n`);
  return true;
}
