/**
 * The CLI's commands: the one table that the argument parser, `tiperf help` and docs/cli.md's CLI
 * block (scripts/action-readme.ts) are all made from, so what is documented is what is accepted.
 */

export interface FlagSpec {
  type: "string" | "boolean";
  /** How the value is written in the synopsis (FILE, DIR, N); absent for booleans. */
  value?: string;
  required?: boolean;
}

export interface CommandSpec {
  name: string;
  /** Positional arguments as written in the synopsis, before the flags. */
  args?: string;
  flags: Record<string, FlagSpec>;
  about: string[];
}

const DEADLINES: Record<string, FlagSpec> = {
  timeout: { type: "string", value: "30s" },
  deadline: { type: "string", value: "3m" },
};

/** Spec composition, as the Action does it for a PR (refs) or a dispatch form (config overlays). */
const COMPOSE: Record<string, FlagSpec> = {
  "base-ref": { type: "string", value: "REF" },
  "head-ref": { type: "string", value: "REF" },
  "base-config": { type: "string", value: "FILE" },
  "head-config": { type: "string", value: "FILE" },
  "base-version": { type: "string", value: "VERSION" },
  "head-version": { type: "string", value: "VERSION" },
  "base-binpath": { type: "string", value: "FILE" },
  "head-binpath": { type: "string", value: "FILE" },
  tolerance: { type: "string", value: "METRIC=PCT,…" },
};

/** compare.* over the spec's, to size a comparison to a workflow's time without editing the spec. */
const SIZE: Record<string, FlagSpec> = {
  rounds: { type: "string", value: "N" },
  blocks: { type: "string", value: "N" },
  confidence: { type: "string", value: "0.95" },
  budget: { type: "string", value: "100m" },
};

export const COMMANDS: CommandSpec[] = [
  {
    name: "run",
    flags: {
      spec: { type: "string", value: "FILE", required: true },
      out: { type: "string", value: "DIR" },
      baseline: { type: "string", value: "RESULT" },
      json: { type: "string", value: "OUT" },
      shard: { type: "string", value: "K/N" },
      profile: { type: "string", value: "FILE" },
      ...COMPOSE,
    },
    about: [
      "run a spec's matrix on its target; results in DIR/<run-id>/ (default DIR: results);",
      "with --baseline, judge the run against that stored result (exit 1 on a regression);",
      "--shard K/N runs every N-th cell from the K-th (one runner's share): tiperf merge",
      "[--baseline RESULT] joins the N results into one run",
    ],
  },
  {
    name: "compare",
    flags: {
      spec: { type: "string", value: "FILE", required: true },
      out: { type: "string", value: "DIR" },
      json: { type: "string", value: "OUT" },
      seed: { type: "string", value: "N" },
      shard: { type: "string", value: "K/N" },
      confirms: { type: "string", value: "VERDICT_JSON" },
      "look-of": { type: "string", value: "VERDICT_JSON" },
      "accepted-by": { type: "string", value: "LOGIN" },
      profile: { type: "string", value: "FILE" },
      ...COMPOSE,
      ...SIZE,
    },
    about: [
      "run the spec's variants and judge head against base (--seed repeats an earlier run's",
      "round order); --base-ref/--head-ref compare the spec's target at two git refs,",
      "--base-config/--head-config two overlay files, --tolerance overrides metrics' tolerances,",
      "--rounds/--blocks/--confidence/--budget the spec's compare.*; --shard K/N with --seed",
      "runs every N-th block from the K-th of that comparison (one runner's share; exit 0 on",
      "any verdict of its own blocks): tiperf merge judges the N results as one; --confirms",
      "VERDICT_JSON re-runs that verdict's regressed cells on fresh instances (a confirmation,",
      "as shards too); --look-of VERDICT_JSON with --shard: this runner's share of the further",
      "look that merge's verdict names (looks.next: compare.looks as a wave of shards, its",
      "undecided cells only); --accepted-by LOGIN: a regression of this commit is an expected",
      "cost that LOGIN accepted (the workflow's perf-regression-expected label): named, exit 0",
    ],
  },
  {
    name: "calibrate",
    flags: {
      spec: { type: "string", value: "FILE", required: true },
      out: { type: "string", value: "DIR" },
      write: { type: "string", value: "FILE" },
      "from-result": { type: "string", value: "RESULT_JSON" },
    },
    about: [
      "measure the noise of the spec's own design on this runner: an A/A comparison (its",
      "control's target on both sides, its rounds and blocks), written as compare.noise (dated,",
      "the machine named) into the spec, or into --write FILE; tiperf plan then states the",
      "smallest change each cell detects; --from-result: read an A/A of the design already run",
      "(one target on both sides, every workload of the spec measured) instead of running one",
    ],
  },
  {
    name: "merge",
    args: "PART...",
    flags: {
      out: { type: "string", value: "DIR" },
      json: { type: "string", value: "OUT" },
      confirms: { type: "string", value: "VERDICT_JSON" },
      "max-looks": { type: "string", value: "N" },
      "accepted-by": { type: "string", value: "LOGIN" },
      baseline: { type: "string", value: "RESULT" },
    },
    about: [
      "judge the results of compare --shard K/N (result.json files or run directories) as the",
      "one comparison they are shares of: same spec, seed and N, each block once, or refused;",
      "a missing shard is named and the check cannot pass without it; verdict, report and the",
      "merged result.json in DIR (default: results/merge-<first part's run id>); exit 1 on a",
      "regression; --confirms VERDICT_JSON: the parts are compare --confirms of that verdict,",
      "which they confirm (regression) or not (inconclusive); the results of run --shard K/N",
      "are joined into one run (result.json in DIR), judged against --baseline RESULT if given;",
      "--max-looks N (compare.looks): an undecided judgement that a further look could decide",
      "names that look in verdict.json (looks.next; exit 0) for compare --look-of to run as a",
      "wave of shards; merge the design's parts and every wave's together (default 1: none);",
      "--accepted-by LOGIN as compare's",
    ],
  },
  {
    name: "bisect",
    flags: {
      spec: { type: "string", value: "FILE", required: true },
      good: { type: "string", value: "REF" },
      bad: { type: "string", value: "REF" },
      changes: { type: "string", value: "CHANGEPOINTS_JSON" },
      only: { type: "string", value: "WORKLOAD:THREADS,…" },
      remeasure: { type: "string", value: "N" },
      runners: { type: "string", value: "1" },
      round: { type: "string", value: "R" },
      runner: { type: "string", value: "K" },
      parts: { type: "string", value: "DIR" },
      "max-rounds": { type: "string", value: "N" },
      profile: { type: "string", value: "FILE" },
      out: { type: "string", value: "DIR" },
      json: { type: "string", value: "OUT" },
      tolerance: { type: "string", value: "METRIC=PCT,…" },
      metric: { type: "string", value: "METRIC" },
      ...SIZE,
    },
    about: [
      "find the first bad commit between --good and --bad: each step compares a candidate commit",
      "against the good one (the spec's target at that commit of its repository, or, with source:,",
      "tidb-server built at that commit); exit 1 when found; --changes: good, bad and cell from a change point;",
      "--confidence is the whole search's (Bonferroni shares); --metric judges every step on that",
      "one metric (cpu_ms_per_op); --runners K measures K candidates a round (here one after another),",
      "fewer rounds than halving (31 commits: 3 search rounds with 3, 5 with 1); on runners",
      "(perf-bisect.yml) --round R --runner K --parts DIR is a round's leg: the parts replayed,",
      "its candidate measured, its part written; --parts DIR alone concludes from every part",
      "(--max-rounds N: the workflow's round jobs, so a round that left no part is told from none left)",
    ],
  },
  {
    name: "diff",
    args: "BASE_RESULT HEAD_RESULT",
    flags: {
      json: { type: "string", value: "OUT" },
      force: { type: "boolean" },
      confidence: { type: "string", value: "0.95" },
      "base-variant": { type: "string", value: "NAME" },
      "head-variant": { type: "string", value: "NAME" },
    },
    about: [
      "judge a stored result (e.g. a baseline) against another; a result is its result.json or",
      "the run directory holding it (as for every command that reads one); results of earlier",
      "versions (v1) are migrated on read",
    ],
  },
  {
    name: "baseline",
    args: "update RESULT",
    flags: { dir: { type: "string", value: "baselines" }, profile: { type: "string", value: "NAME" } },
    about: ["promote a complete result into DIR/<profile>/<spec>.json"],
  },
  {
    name: "report",
    args: "VERDICT_JSON",
    flags: {
      format: { type: "string", value: "markdown|html" },
      out: { type: "string", value: "FILE" },
      matrix: { type: "string", value: "NAME" },
      history: { type: "string", value: "CHANGEPOINTS_JSON" },
    },
    about: [
      "the PR comment (markdown, the default) or report.html (+ charts/); --history adds the spec's series",
      "from a `history check --json` report, change points marked (html)",
    ],
  },
  {
    name: "comment",
    args: "VERDICT_JSON",
    flags: {
      repo: { type: "string", value: "OWNER/REPO", required: true },
      pr: { type: "string", value: "N", required: true },
      matrix: { type: "string", value: "NAME" },
      ...DEADLINES,
    },
    about: [
      "create or update the PR's sticky comment (token from GITHUB_TOKEN, API from",
      "GITHUB_API_URL; --timeout per request, --deadline for all of them)",
    ],
  },
  {
    name: "export",
    args: "gab RESULT",
    flags: {
      out: { type: "string", value: "FILE", required: true },
      better: { type: "string", value: "higher|lower" },
      variant: { type: "string", value: "NAME" },
    },
    about: [
      "github-action-benchmark input: higher = throughput metrics (customBiggerIsBetter),",
      "lower = latency metrics (customSmallerIsBetter)",
    ],
  },
  {
    name: "history",
    args: "add RESULT | check",
    flags: {
      dir: { type: "string", value: "DIR", required: true },
      variant: { type: "string", value: "NAME" },
      profile: { type: "string", value: "NAME" },
      commit: { type: "string", value: "SHA" },
      since: { type: "string", value: "RUN_ID" },
      pvalue: { type: "string", value: "0.05" },
      permutations: { type: "string", value: "199" },
      "min-segment": { type: "string", value: "3" },
      json: { type: "string", value: "FILE" },
      html: { type: "string", value: "FILE" },
      "accepted-in": { type: "string", value: "OWNER/REPO" },
    },
    about: [
      "add: append a complete run (the mean of each cell's rounds) to DIR/<profile>/<spec>.jsonl,",
      "append-only and validated (--commit: the commit it measured, default $GITHUB_SHA).",
      "check: change points per workload × threads × metric (E-divisive means, permutation",
      "test): the run where each new level starts, the levels before and after, the change and",
      "p; a level lasts at least --min-segment runs (a single spike is not a change point);",
      "--since RUN_ID marks as new those not found when the history ended at that run (exit 1",
      "if one is for the worse); --json and --html write the report (charts, change points marked);",
      "--accepted-in OWNER/REPO: a new one for the worse that a pull request merged in between",
      "accepted (perf-regression-expected, the same workload and metric, at most twice the size)",
      "is marked accepted and not raised (GITHUB_TOKEN reads the pull requests and their comments)",
    ],
  },
  {
    name: "alarm",
    args: "VERDICT_JSON",
    flags: {
      repo: { type: "string", value: "OWNER/REPO", required: true },
      label: { type: "string", value: "tiperf-regression" },
      ...DEADLINES,
    },
    about: [
      "open or update the one open issue with that label; given a reap report (tiperf reap",
      "--cloud aws --json FILE) instead, the cloud resources alive past twice their ttl",
      "(label tiperf-leftovers; no issue when there are none); given a change-point report",
      "(tiperf history check --json), its new change points for the worse with their first bad",
      "run and the commits between (label tiperf-change-point; none: no issue); given a bisect",
      "report (tiperf bisect --json), its first bad commit (label tiperf-bisect; none found: no issue)",
    ],
  },
  {
    name: "pull-request",
    flags: {
      repo: { type: "string", value: "OWNER/REPO", required: true },
      head: { type: "string", value: "BRANCH", required: true },
      base: { type: "string", value: "BRANCH", required: true },
      title: { type: "string", value: "TEXT", required: true },
      "body-file": { type: "string", value: "FILE" },
      ...DEADLINES,
    },
    about: ["open a pull request (the weekly baseline refresh)"],
  },
  {
    name: "plan",
    flags: {
      spec: { type: "string", value: "FILE", required: true },
      profile: { type: "string", value: "FILE" },
      out: { type: "string", value: "DIR" },
      "run-id": { type: "string", value: "ID" },
      shards: { type: "string", value: "N" },
      seed: { type: "string", value: "N" },
      shard: { type: "string", value: "K/N" },
      "look-of": { type: "string", value: "VERDICT_JSON" },
      ...COMPOSE,
      ...SIZE,
    },
    about: [
      "print (and with --out write) everything a run would do without running anything: for a",
      "comparison (a spec with variants, or --base-*/--head-*) on N runners (--shards N) each",
      "shard's blocks and minutes and what the merge detects; for a TiDB target the topology.yaml",
      "per variant, TOML configs, haproxy.cfg, every tiup, SQL and load-tool command line in phase",
      "order; --profile overrides the spec's target.profile; --run-id ID plans as the run of that id",
      "did (its names, its plan.json); --seed N, --shard K/N and --look-of VERDICT_JSON plan one",
      "runner's share (and a further look's wave) as compare runs it given the same flags;",
      "--tolerance, --rounds/--blocks/--confidence/--budget override the spec's metrics' tolerances",
      "and compare.* as they do for compare, so the plan shows the minutes and detectable change",
      "of that design",
    ],
  },
  {
    name: "reap",
    flags: {
      "max-age": { type: "string", value: "3h" },
      "dry-run": { type: "boolean" },
      ledger: { type: "string", value: "DIR" },
      cloud: { type: "string", value: "aws" },
      region: { type: "string", value: "REGION" },
      endpoint: { type: "string", value: "URL" },
      kubernetes: { type: "boolean" },
      kubeconfig: { type: "string", value: "FILE" },
      context: { type: "string", value: "NAME" },
      json: { type: "string", value: "FILE" },
    },
    about: [
      "stop and remove private servers and cgroups whose tiperf process is gone or that are",
      "older than max-age (their logs kept in the run directory); mark such a run interrupted.",
      "With --cloud aws --region R: delete, in dependency order, every resource tagged",
      "tiperf:run-id whose tiperf:expires-at is past (untagged or unexpired ones are never",
      "touched); --endpoint for another EC2 API; --json writes the report (removed, kept,",
      "overdue: alive past twice their time to live). With --kubernetes: delete the namespaces",
      "labelled app.kubernetes.io/managed-by=tiperf whose tiperf.io/expires-at is past, on the",
      "--kubeconfig file's --context (default: kubectl's); nothing unlabelled is touched",
    ],
  },
  {
    name: "parse",
    args: "TOOL FILE",
    flags: {},
    about: ["print one load tool output (TOOL: sysbench, go-tpc or go-ycsb), parsed, as JSON"],
  },
  {
    name: "init",
    flags: {
      dir: { type: "string", value: "DIR" },
      tidb: { type: "boolean" },
      dispatch: { type: "boolean" },
    },
    about: [
      "write a spec and a workflow into the repository at DIR (default: here) and print the next",
      "steps: the config/version PR check (perf/pr.yaml, .github/workflows/perf-pr.yml); --tidb",
      "the TiDB source PR check for a TiDB repository (.github/tiperf/, tidb-source-pr.yml);",
      "--dispatch ad-hoc comparisons from the Actions tab. Overwrites nothing (exit 2, naming it)",
    ],
  },
  { name: "help", flags: {}, about: ["this text"] },
];

export function commandSpec(name: string): CommandSpec {
  const c = COMMANDS.find((x) => x.name === name);
  if (!c) throw new Error(`no command ${name}`);
  return c;
}

/** parseArgs options of a command. */
export function parseOptions(name: string): Record<string, { type: "string" | "boolean" }> {
  return Object.fromEntries(Object.entries(commandSpec(name).flags).map(([k, f]) => [k, { type: f.type }]));
}
