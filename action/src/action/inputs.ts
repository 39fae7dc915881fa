import { existsSync, readFileSync, statSync } from "node:fs";
import { parseShard, type Shard } from "../bench/shard.ts";
import { InputError } from "../errors.ts";
import { parseLogin, parsePr, parseRepo } from "../publish/names.ts";
import { COMPOSE_FIELDS, camelOf, compositionIssues } from "../specfile/compose-rules.ts";
import { type CompareOverrides, compareOverrides, parseTolerance } from "../specfile/prepare.ts";

export const MODES = ["compare", "run", "diff", "publish", "merge"] as const;
export const FAIL_ON = ["regression", "inconclusive", "never"] as const;

/** The action's inputs, validated once: every later stage trusts these types. */
export interface ActionInputs {
  mode: (typeof MODES)[number];
  spec?: string;
  baseRef?: string;
  headRef?: string;
  baseConfig?: string;
  baseVersion?: string;
  headVersion?: string;
  baseBinpath?: string;
  headBinpath?: string;
  headConfig?: string;
  baseline?: string;
  /** Cluster profile of a TiDB spec (infra/profiles/*.yaml), overriding target.profile. */
  profile?: string;
  /** metric → tolerance (fraction); "*" applies to every metric of the spec. */
  tolerance: Record<string, number>;
  /** compare.* over the spec's: rounds, blocks, confidence, seed, budget. */
  compare: CompareOverrides;
  failOn: (typeof FAIL_ON)[number];
  token: string;
  comment: boolean;
  /** Install the system packages first (the action's own scripts/setup.sh --system). */
  setup: boolean;
  matrix?: string;
  out: string;
  /** mode publish: the verdict to post, and where it came from (an input or a file). */
  verdictJson?: string;
  verdictFrom?: string;
  /**
   * mode publish from another workflow (workflow_run): the commit the verdict must be of; the
   * pull request is then taken from the verdict and posted on only while its head is this commit.
   */
  headSha?: string;
  /** mode compare: this job's share of the comparison's blocks (K of N runners). */
  shard?: Shard;
  /** mode merge: the directory holding every shard's downloaded results. */
  parts?: string;
  /**
   * modes compare and merge: the verdict (a regression) these shards confirm on fresh instances:
   * compare re-runs its regressed cells, merge answers it with the parts.
   */
  confirms?: string;
  /**
   * mode merge: confirmation shards follow in this workflow (jobs that run mode compare and merge
   * with `confirms`): a regression to be confirmed neither comments nor fails here.
   */
  confirmWithShards: boolean;
  /** mode compare: the merged verdict whose further look (looks.next) this shard runs its share of. */
  lookOf?: string;
  /** mode merge: the looks this workflow's waves reach, the design's included (compare.looks). */
  maxLooks?: number;
  /**
   * modes compare and merge: a regression of this commit accepted as an expected cost by this login
   * (the workflow passes who added the perf-regression-expected label, on that labeled event only).
   */
  acceptedBy?: string;
  repo?: { owner: string; repo: string };
  pr?: number;
}

type Get = (name: string) => string;

const GIT_REF = /^(?!-)(?!.*\.\.)[A-Za-z0-9._/@^~+-]{1,200}$/;

function oneOf<T extends readonly string[]>(name: string, value: string, allowed: T): T[number] {
  if (!(allowed as readonly string[]).includes(value))
    throw new InputError(
      `'${name}' input must be one of ${allowed.join(", ")} (got ${JSON.stringify(value)})`,
    );
  return value as T[number];
}

function file(name: string, value: string): string | undefined {
  if (value === "") return undefined;
  if (value.startsWith("-") || value.includes("\0"))
    throw new InputError(`'${name}' input must be a file path (got ${JSON.stringify(value)})`);
  if (!existsSync(value) || !statSync(value).isFile())
    throw new InputError(`'${name}' input: no file at ${value} (paths are relative to the workspace)`);
  return value;
}

function ref(name: string, value: string): string | undefined {
  if (value === "") return undefined;
  if (!GIT_REF.test(value))
    throw new InputError(
      `'${name}' input must be a git ref (a branch, tag or commit: letters, digits and . _ / @ ^ ~ + -; got ${JSON.stringify(value)})`,
    );
  return value;
}

function bool(name: string, value: string): boolean {
  if (["", "true", "on", "yes"].includes(value)) return true;
  if (["false", "off", "no"].includes(value)) return false;
  throw new InputError(`'${name}' input must be true or false (got ${JSON.stringify(value)})`);
}

/** The pull request the workflow runs for, from the event payload. */
export function eventPr(event: unknown): number | undefined {
  const e = event as { pull_request?: { number?: unknown }; number?: unknown } | null;
  const n = e?.pull_request?.number ?? undefined;
  return typeof n === "number" ? n : undefined;
}

/** A TiDB version input: as tiup names releases (v8.5.0, v8.5.0-alpha.20241030) or nightly. */
function version(name: string, value: string): string | undefined {
  if (!value) return undefined;
  if (!/^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$|^nightly$/.test(value))
    throw new InputError(`'${name}' input must be a TiDB version like v8.5.0 or nightly (got ${value})`);
  return value;
}

/** Mode publish's verdict (`verdict-json`, or `verdict-file` as another workflow downloaded it) and `head-sha`. */
function publishInputs(
  get: Get,
  mode: ActionInputs["mode"],
): Pick<ActionInputs, "verdictJson" | "verdictFrom" | "headSha"> {
  const json = get("verdict-json");
  const path = file("verdict-file", get("verdict-file"));
  const sha = get("head-sha");
  if (mode !== "publish") {
    const given = ["verdict-json", "verdict-file", "head-sha"].filter((k) => get(k));
    if (given.length) throw new InputError(`'${given[0]}' input is for mode publish (got mode ${mode})`);
    return {};
  }
  if (json && path) throw new InputError("'verdict-json' and 'verdict-file' inputs exclude each other");
  if (!json && !path)
    throw new InputError(
      "mode publish needs 'verdict-json' (the verdict output of the benchmark job) or 'verdict-file' (a verdict.json downloaded from its run)",
    );
  if (sha && !/^[0-9a-f]{40}$/.test(sha))
    throw new InputError(
      `'head-sha' input must be a full commit SHA, 40 hex digits (got ${JSON.stringify(sha)})`,
    );
  return {
    verdictJson: path ? readFileSync(path, "utf8") : json,
    verdictFrom: path ? `'verdict-file' input (${path})` : "'verdict-json' input",
    ...(sha ? { headSha: sha } : {}),
  };
}

export function readInputs(get: Get, env: NodeJS.ProcessEnv, event: unknown): ActionInputs {
  const mode = oneOf("mode", get("mode") || "compare", MODES);
  const inputs: ActionInputs = {
    mode,
    spec: mode === "publish" || mode === "merge" ? undefined : file("spec", get("spec")),
    baseRef: ref("base-ref", get("base-ref")),
    headRef: ref("head-ref", get("head-ref")),
    baseConfig: file("base-config", get("base-config")),
    headConfig: file("head-config", get("head-config")),
    baseVersion: version("base-version", get("base-version")),
    headVersion: version("head-version", get("head-version")),
    baseBinpath: file("base-binpath", get("base-binpath")),
    headBinpath: file("head-binpath", get("head-binpath")),
    baseline: mode === "diff" || mode === "merge" ? file("baseline", get("baseline")) : undefined,
    profile: file("profile", get("profile")),
    tolerance: parseTolerance(get("tolerance")),
    compare: compareOverrides(
      (k) => get(k) || undefined,
      (k) => `'${k}' input`,
    ),
    failOn: oneOf("fail-on", get("fail-on") || "regression", FAIL_ON),
    token: get("github-token"),
    comment: bool("comment", get("comment")),
    setup: bool("setup", get("setup")),
    matrix: get("matrix") || undefined,
    out: get("out") || "tiperf-results",
    confirmWithShards:
      get("confirm-with-shards") !== "" && bool("confirm-with-shards", get("confirm-with-shards")),
    ...publishInputs(get, mode),
  };
  if (get("shard")) {
    if (mode !== "compare" && mode !== "run")
      throw new InputError(`'shard' input is for modes compare and run (got mode ${mode})`);
    inputs.shard = parseShard(get("shard"), "'shard' input");
  }
  if (get("accepted-by")) {
    if (mode !== "compare" && mode !== "merge")
      throw new InputError(`'accepted-by' input is for modes compare and merge (got mode ${mode})`);
    inputs.acceptedBy = parseLogin(get("accepted-by"), "'accepted-by' input");
  }
  if (get("confirms")) {
    if (mode !== "compare" && mode !== "merge")
      throw new InputError(`'confirms' input is for modes compare and merge (got mode ${mode})`);
    inputs.confirms = file("confirms", get("confirms"));
  }
  Object.assign(inputs, waveInputs(get, mode));
  if (inputs.confirmWithShards && mode !== "merge")
    throw new InputError(`'confirm-with-shards' input is for mode merge (got mode ${mode})`);
  if (mode === "merge") {
    const parts = get("parts");
    if (!parts || !existsSync(parts) || !statSync(parts).isDirectory())
      throw new InputError(
        `'parts' input is required in mode merge: the directory the shards' results were downloaded into (got ${JSON.stringify(parts)})`,
      );
    inputs.parts = parts;
  }
  if (mode !== "publish" && mode !== "merge" && !inputs.spec)
    throw new InputError(`'spec' input is required in mode ${mode}`);
  if (mode === "diff" && !inputs.baseline)
    throw new InputError("'baseline' input is required in mode diff (a stored result under baselines/)");
  const issues = compositionIssues(
    Object.fromEntries(
      COMPOSE_FIELDS.map((f) => [f, (inputs as unknown as Record<string, string | undefined>)[camelOf(f)]]),
    ),
    (fields, joiner) => `${fields.map((f) => `'${f}'`).join(joiner)} input${fields.length > 1 ? "s" : ""}`,
  );
  if (issues.length) throw new InputError(issues.join("\n"));
  const repo = get("repository") || env.GITHUB_REPOSITORY || "";
  if (repo) inputs.repo = parseRepo(repo, "'repository' input");
  const pr = get("pr");
  inputs.pr = pr ? parsePr(pr, "'pr' input") : eventPr(event);
  return inputs;
}

/** compare.looks as waves of shards: mode compare's look-of, mode merge's max-looks. */
function waveInputs(get: Get, mode: string): Pick<ActionInputs, "lookOf" | "maxLooks"> {
  const out: Pick<ActionInputs, "lookOf" | "maxLooks"> = {};
  if (get("look-of")) {
    if (mode !== "compare") throw new InputError(`'look-of' input is for mode compare (got mode ${mode})`);
    out.lookOf = file("look-of", get("look-of"));
  }
  if (get("max-looks")) {
    const n = Number(get("max-looks"));
    if (mode !== "merge") throw new InputError(`'max-looks' input is for mode merge (got mode ${mode})`);
    if (!(Number.isInteger(n) && n >= 1 && n <= 6))
      throw new InputError(
        `'max-looks' input must be a whole number of looks from 1 to 6 (got ${get("max-looks")})`,
      );
    out.maxLooks = n;
  }
  return out;
}
