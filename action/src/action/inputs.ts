import { existsSync, readFileSync, statSync } from "node:fs";
import type { Shard } from "../bench/cut.ts";
import { type Door, inputDoor, Refusals } from "../commands/door.ts";
import { fileOption, loginOption, refOption, shardOption, specWords } from "../commands/spec-options.ts";
import { InputError } from "../errors.ts";
import { parsePr, parseRepo } from "../publish/names.ts";
import type { CompareOverrides } from "../specfile/prepare.ts";

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

function oneOf<T extends readonly string[]>(name: string, value: string, allowed: T): T[number] {
  if (!(allowed as readonly string[]).includes(value))
    throw new InputError(
      `'${name}' input must be one of ${allowed.join(", ")} (got ${JSON.stringify(value)})`,
    );
  return value as T[number];
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

/** Mode publish's verdict (`verdict-json`, or `verdict-file` as another workflow downloaded it) and `head-sha`. */
function publishInputs(
  get: Get,
  mode: ActionInputs["mode"],
): Pick<ActionInputs, "verdictJson" | "verdictFrom" | "headSha"> {
  const json = get("verdict-json");
  const path = fileOption(inputDoor(mode, get), "verdict-file");
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
  const d = inputDoor(mode, get);
  const r = new Refusals(d.prefix);
  // the spec's words, checked as the command line's are (commands/spec-options.ts)
  const runs = mode !== "publish" && mode !== "merge";
  const words = runs ? specWords(d, r) : undefined;
  const inputs: ActionInputs = {
    mode,
    spec: words?.spec,
    baseRef: words ? words.baseRef : r.check(() => refOption(d, "base-ref")),
    headRef: words ? words.headRef : r.check(() => refOption(d, "head-ref")),
    baseConfig: words?.baseConfig,
    headConfig: words?.headConfig,
    baseVersion: words?.baseVersion,
    headVersion: words?.headVersion,
    baseBinpath: words?.baseBinpath,
    headBinpath: words?.headBinpath,
    baseline: mode === "diff" || mode === "merge" ? r.check(() => fileOption(d, "baseline")) : undefined,
    profile: words?.profile,
    tolerance: words?.tolerance ?? {},
    compare: words?.compare ?? {},
    failOn: r.check(() => oneOf("fail-on", get("fail-on") || "regression", FAIL_ON)) ?? "regression",
    token: get("github-token"),
    comment: r.check(() => bool("comment", get("comment"))) ?? true,
    setup: r.check(() => bool("setup", get("setup"))) ?? true,
    matrix: get("matrix") || undefined,
    out: get("out") || "tiperf-results",
    confirmWithShards:
      get("confirm-with-shards") !== "" &&
      (r.check(() => bool("confirm-with-shards", get("confirm-with-shards"))) ?? false),
    ...r.check(() => publishInputs(get, mode)),
  };
  modeInputs(d, mode, inputs, r);
  if (mode === "diff" && !inputs.baseline && !get("baseline"))
    r.refuse("'baseline' input is required in mode diff (a stored result under baselines/)");
  const repo = get("repository") || env.GITHUB_REPOSITORY || "";
  if (repo) inputs.repo = r.check(() => parseRepo(repo, "'repository' input"));
  const pr = get("pr");
  inputs.pr = pr ? r.check(() => parsePr(pr, "'pr' input")) : eventPr(event);
  r.done();
  return inputs;
}

/** The inputs only some modes take: each refused in another mode, each checked as the command line's flag is. */
function modeInputs(d: Door, mode: ActionInputs["mode"], inputs: ActionInputs, r: Refusals): void {
  const only = (name: string, modes: string[]) => {
    if (!d.get(name)) return false;
    if (modes.includes(mode)) return true;
    r.refuse(
      `'${name}' input is for mode${modes.length > 1 ? "s" : ""} ${modes.join(" and ")} (got mode ${mode})`,
    );
    return false;
  };
  if (only("shard", ["compare", "run"])) inputs.shard = shardOption(d, r);
  if (only("accepted-by", ["compare", "merge"])) inputs.acceptedBy = loginOption(d, r);
  if (only("confirms", ["compare", "merge"])) inputs.confirms = r.check(() => fileOption(d, "confirms"));
  if (only("look-of", ["compare"])) inputs.lookOf = r.check(() => fileOption(d, "look-of"));
  if (only("max-looks", ["merge"])) {
    const n = Number(d.get("max-looks"));
    if (!(Number.isInteger(n) && n >= 1 && n <= 6))
      r.refuse(
        `'max-looks' input must be a whole number of looks from 1 to 6 (got ${JSON.stringify(d.get("max-looks"))})`,
      );
    else inputs.maxLooks = n;
  }
  if (inputs.confirmWithShards && mode !== "merge")
    r.refuse(`'confirm-with-shards' input is for mode merge (got mode ${mode})`);
  if (mode === "merge") {
    const parts = d.get("parts");
    if (!parts || !existsSync(parts) || !statSync(parts).isDirectory())
      r.refuse(
        `'parts' input is required in mode merge: the directory the shards' results were downloaded into (got ${JSON.stringify(parts ?? "")})`,
      );
    else inputs.parts = parts;
  }
}
