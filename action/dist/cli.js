#!/usr/bin/env node
import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path';
const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);
import {
  CellJudgementSchema,
  DEFAULT_DEADLINES,
  DEFAULT_TOLERANCE,
  DRIVERS,
  Refusals,
  Refused,
  TIPERF_VERSION,
  acceptedRecord,
  apiUrl,
  atRef,
  builderOf,
  canonicalJson,
  ciText,
  commentMarkdown,
  compareOverrides,
  compareRequest,
  compareSpec,
  composedSpec,
  driverNames,
  driverOf,
  esc,
  execCompare,
  execRun,
  exitCodeOf,
  fileOption,
  flagDoor,
  githubClient,
  isLatency,
  judgeStored,
  loadSpec,
  loadWords,
  matrixSeconds,
  md,
  mean,
  mergeEither,
  mergeRequest,
  metricName,
  narrowSpec,
  noiseFromResult,
  openPullRequest,
  parsePr,
  parseRepo,
  parseTolerance,
  pct,
  planRun,
  prepareSpec,
  publishVerdict,
  readVerdict,
  readWave,
  renderCharts,
  requestFailure,
  rng,
  runRequest,
  shardOption,
  sidesOf,
  specAtRef,
  specWords,
  stddev,
  untilDeadline,
  upsertIssue,
  variantsOf,
  verdictHtml,
  withSourceBuilds,
  writeHtmlReport,
  writePlan
} from "./chunk-DTOQPKRL.js";
import {
  reapLedger
} from "./chunk-76YY52BG.js";
import {
  EXPIRES,
  KubeClient,
  MANAGED_BY,
  MANAGER,
  checkOutFile,
  closest,
  commitAt,
  formatIssues,
  git,
  kindOf,
  loadKubeContext,
  maskSecrets,
  readReport,
  readResult,
  require_dist,
  resultFileOf,
  writeAtomic,
  writeResult
} from "./chunk-A7W2F75L.js";
import {
  CLOUDS,
  Interrupted,
  installCrashTeardown,
  installSignalTeardown,
  ledgerDir,
  teardownAll
} from "./chunk-3RZOPWDC.js";
import {
  external_exports,
  parseAge,
  parseDuration
} from "./chunk-WCKSSEMK.js";
import {
  BuildFailed,
  EXIT,
  InputError,
  TiperfError,
  errnoText,
  setting
} from "./chunk-KJWZ2OYQ.js";
import {
  __toESM
} from "./chunk-3EADY6QU.js";

// action/src/cli/args.ts
import { parseArgs } from "node:util";
var log = (line) => process.stderr.write(`${maskSecrets(line)}
`);
function flags(command, args, options) {
  const joined = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const name = a.startsWith("--") ? a.slice(2) : "";
    const next = args[i + 1];
    if (options[name]?.type === "string" && next?.startsWith("-") && !next.startsWith("--")) {
      joined.push(`${a}=${next}`);
      i++;
    } else joined.push(a);
  }
  try {
    return parseArgs({ args: joined, options, allowPositionals: true, strict: true });
  } catch (e) {
    const allowed = Object.keys(options).map((k) => `--${k}`).join(", ");
    throw new InputError(
      `tiperf ${command}: ${parseError(e, options)} (allowed: ${allowed || "none"})`
    );
  }
}
function parseError(e, options) {
  const first = e.message.split("\n")[0] ?? "";
  const given = /'(-[^' =]+)/.exec(first)?.[1];
  if (!given) return first;
  const known = options[given.replace(/^-+/, "")] ?? Object.values(options).find((o) => `-${o.short}` === given);
  if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" || !known) {
    const near = given.startsWith("--") ? closest(given.slice(2), Object.keys(options)) : void 0;
    return `unknown flag ${given}${near ? ` (did you mean --${near}?)` : ""}`;
  }
  if (e.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE")
    return known.type === "string" ? `${given} needs a value` : `${given} takes no value (it is a switch)`;
  return first;
}
function required(command, name, value) {
  if (typeof value !== "string" || value === "")
    throw new InputError(`tiperf ${command}: --${name} is required`);
  return value;
}
async function writeJson(file, value) {
  if (file) await writeAtomic(file, `${JSON.stringify(value, null, 2)}
`);
}
function confidenceFlag(command, value) {
  if (value === void 0) return 0.95;
  const c = Number(value);
  if (!(c > 0.5 && c < 1))
    throw new InputError(
      `tiperf ${command}: --confidence must be a number in (0.5, 1), like 0.95 (got ${value})`
    );
  return c;
}
function onePositional(command, positionals, what) {
  const [file, extra] = positionals;
  if (!file || extra) throw new InputError(`tiperf ${command}: give exactly one ${what}`);
  return file;
}
function seconds(command, flag, value, fallbackMs) {
  if (value === void 0) return fallbackMs;
  const m = /^(\d+)(ms|s|m)$/.exec(String(value));
  const ms = m ? Number(m[1]) * { ms: 1, s: 1e3, m: 6e4 }[m[2]] : Number.NaN;
  if (!(ms > 0))
    throw new InputError(
      `tiperf ${command}: --${flag} must be a duration like 500ms, 30s or 3m (got ${value})`
    );
  return ms;
}
function deadlines(command, values) {
  return {
    requestMs: seconds(command, "timeout", values.timeout, DEFAULT_DEADLINES.requestMs),
    overallMs: seconds(command, "deadline", values.deadline, DEFAULT_DEADLINES.overallMs)
  };
}
function githubToken(command) {
  const token = setting("GITHUB_TOKEN");
  if (!token)
    throw new InputError(
      `tiperf ${command}: GITHUB_TOKEN is not set (a token that may write to the repository)`
    );
  return token;
}
function maxAge(value) {
  const ms = parseAge(value);
  if (ms === void 0)
    throw new InputError(`tiperf reap: --max-age must be like 90m, 3h or 2d (got ${value})`);
  return ms;
}

// action/src/cli/commands.ts
var DEADLINES = {
  timeout: { type: "string", value: "30s" },
  deadline: { type: "string", value: "3m" }
};
var COMPOSE = {
  "base-ref": { type: "string", value: "REF" },
  "head-ref": { type: "string", value: "REF" },
  "base-config": { type: "string", value: "FILE" },
  "head-config": { type: "string", value: "FILE" },
  "base-version": { type: "string", value: "VERSION" },
  "head-version": { type: "string", value: "VERSION" },
  "base-binpath": { type: "string", value: "FILE" },
  "head-binpath": { type: "string", value: "FILE" },
  tolerance: { type: "string", value: "METRIC=PCT,\u2026" }
};
var SIZE = {
  rounds: { type: "string", value: "N" },
  blocks: { type: "string", value: "N" },
  confidence: { type: "string", value: "0.95" },
  budget: { type: "string", value: "100m" }
};
var COMMANDS = [
  {
    name: "run",
    flags: {
      spec: { type: "string", value: "FILE", required: true },
      out: { type: "string", value: "DIR" },
      baseline: { type: "string", value: "RESULT" },
      json: { type: "string", value: "OUT" },
      shard: { type: "string", value: "K/N" },
      profile: { type: "string", value: "FILE" },
      ...COMPOSE
    },
    about: [
      "run a spec's matrix on its target; results in DIR/<run-id>/ (default DIR: results);",
      "with --baseline, judge the run against that stored result (exit 1 on a regression);",
      "--shard K/N runs every N-th cell from the K-th (one runner's share): tiperf merge",
      "[--baseline RESULT] joins the N results into one run"
    ]
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
      ...SIZE
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
      "cost that LOGIN accepted (the workflow's perf-regression-expected label): named, exit 0"
    ]
  },
  {
    name: "calibrate",
    flags: {
      spec: { type: "string", value: "FILE", required: true },
      out: { type: "string", value: "DIR" },
      write: { type: "string", value: "FILE" },
      "from-result": { type: "string", value: "RESULT_JSON" }
    },
    about: [
      "measure the noise of the spec's own design on this runner: an A/A comparison (its",
      "control's target on both sides, its rounds and blocks), written as compare.noise (dated,",
      "the machine named) into the spec, or into --write FILE; tiperf plan then states the",
      "smallest change each cell detects; --from-result: read an A/A of the design already run",
      "(one target on both sides, every workload of the spec measured) instead of running one"
    ]
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
      baseline: { type: "string", value: "RESULT" }
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
      "--accepted-by LOGIN as compare's"
    ]
  },
  {
    name: "bisect",
    flags: {
      spec: { type: "string", value: "FILE", required: true },
      good: { type: "string", value: "REF" },
      bad: { type: "string", value: "REF" },
      changes: { type: "string", value: "CHANGEPOINTS_JSON" },
      only: { type: "string", value: "WORKLOAD:THREADS,\u2026" },
      remeasure: { type: "string", value: "N" },
      runners: { type: "string", value: "1" },
      round: { type: "string", value: "R" },
      runner: { type: "string", value: "K" },
      parts: { type: "string", value: "DIR" },
      "max-rounds": { type: "string", value: "N" },
      profile: { type: "string", value: "FILE" },
      out: { type: "string", value: "DIR" },
      json: { type: "string", value: "OUT" },
      tolerance: { type: "string", value: "METRIC=PCT,\u2026" },
      metric: { type: "string", value: "METRIC" },
      ...SIZE
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
      "(--max-rounds N: the workflow's round jobs, so a round that left no part is told from none left)"
    ]
  },
  {
    name: "diff",
    args: "BASE_RESULT HEAD_RESULT",
    flags: {
      json: { type: "string", value: "OUT" },
      force: { type: "boolean" },
      confidence: { type: "string", value: "0.95" },
      "base-variant": { type: "string", value: "NAME" },
      "head-variant": { type: "string", value: "NAME" }
    },
    about: [
      "judge a stored result (e.g. a baseline) against another; a result is its result.json or",
      "the run directory holding it (as for every command that reads one); results of earlier",
      "versions (v1) are migrated on read"
    ]
  },
  {
    name: "baseline",
    args: "update RESULT",
    flags: { dir: { type: "string", value: "baselines" }, profile: { type: "string", value: "NAME" } },
    about: ["promote a complete result into DIR/<profile>/<spec>.json"]
  },
  {
    name: "report",
    args: "VERDICT_JSON",
    flags: {
      format: { type: "string", value: "markdown|html" },
      out: { type: "string", value: "FILE" },
      matrix: { type: "string", value: "NAME" },
      history: { type: "string", value: "CHANGEPOINTS_JSON" }
    },
    about: [
      "the PR comment (markdown, the default) or report.html (+ charts/); --history adds the spec's series",
      "from a `history check --json` report, change points marked (html)"
    ]
  },
  {
    name: "comment",
    args: "VERDICT_JSON",
    flags: {
      repo: { type: "string", value: "OWNER/REPO", required: true },
      pr: { type: "string", value: "N", required: true },
      matrix: { type: "string", value: "NAME" },
      ...DEADLINES
    },
    about: [
      "create or update the PR's sticky comment (token from GITHUB_TOKEN, API from",
      "GITHUB_API_URL; --timeout per request, --deadline for all of them)"
    ]
  },
  {
    name: "export",
    args: "gab RESULT",
    flags: {
      out: { type: "string", value: "FILE", required: true },
      better: { type: "string", value: "higher|lower" },
      variant: { type: "string", value: "NAME" }
    },
    about: [
      "github-action-benchmark input: higher = throughput metrics (customBiggerIsBetter),",
      "lower = latency metrics (customSmallerIsBetter)"
    ]
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
      "accepted-in": { type: "string", value: "OWNER/REPO" }
    },
    about: [
      "add: append a complete run (the mean of each cell's rounds) to DIR/<profile>/<spec>.jsonl,",
      "append-only and validated (--commit: the commit it measured, default $GITHUB_SHA).",
      "check: change points per workload \xD7 threads \xD7 metric (E-divisive means, permutation",
      "test): the run where each new level starts, the levels before and after, the change and",
      "p; a level lasts at least --min-segment runs (a single spike is not a change point);",
      "--since RUN_ID marks as new those not found when the history ended at that run (exit 1",
      "if one is for the worse); --json and --html write the report (charts, change points marked);",
      "--accepted-in OWNER/REPO: a new one for the worse that a pull request merged in between",
      "accepted (perf-regression-expected, the same workload and metric, at most twice the size)",
      "is marked accepted and not raised (GITHUB_TOKEN reads the pull requests and their comments)"
    ]
  },
  {
    name: "alarm",
    args: "VERDICT_JSON",
    flags: {
      repo: { type: "string", value: "OWNER/REPO", required: true },
      label: { type: "string", value: "tiperf-regression" },
      ...DEADLINES
    },
    about: [
      "open or update the one open issue with that label; given a reap report (tiperf reap",
      "--cloud aws --json FILE) instead, the cloud resources alive past twice their ttl",
      "(label tiperf-leftovers; no issue when there are none); given a change-point report",
      "(tiperf history check --json), its new change points for the worse with their first bad",
      "run and the commits between (label tiperf-change-point; none: no issue); given a bisect",
      "report (tiperf bisect --json), its first bad commit (label tiperf-bisect; none found: no issue)"
    ]
  },
  {
    name: "pull-request",
    flags: {
      repo: { type: "string", value: "OWNER/REPO", required: true },
      head: { type: "string", value: "BRANCH", required: true },
      base: { type: "string", value: "BRANCH", required: true },
      title: { type: "string", value: "TEXT", required: true },
      "body-file": { type: "string", value: "FILE" },
      ...DEADLINES
    },
    about: ["open a pull request (the weekly baseline refresh)"]
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
      ...SIZE
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
      "of that design"
    ]
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
      json: { type: "string", value: "FILE" }
    },
    about: [
      "stop and remove private servers and cgroups whose tiperf process is gone or that are",
      "older than max-age (their logs kept in the run directory); mark such a run interrupted.",
      "With --cloud aws --region R: delete, in dependency order, every resource tagged",
      "tiperf:run-id whose tiperf:expires-at is past (untagged or unexpired ones are never",
      "touched); --endpoint for another EC2 API; --json writes the report (removed, kept,",
      "overdue: alive past twice their time to live). With --kubernetes: delete the namespaces",
      "labelled app.kubernetes.io/managed-by=tiperf whose tiperf.io/expires-at is past, on the",
      "--kubeconfig file's --context (default: kubectl's); nothing unlabelled is touched"
    ]
  },
  {
    name: "parse",
    args: "TOOL FILE",
    flags: {},
    about: ["print one load tool output (TOOL: sysbench, go-tpc or go-ycsb), parsed, as JSON"]
  },
  {
    name: "init",
    flags: {
      dir: { type: "string", value: "DIR" },
      tidb: { type: "boolean" },
      dispatch: { type: "boolean" }
    },
    about: [
      "write a spec and a workflow into the repository at DIR (default: here) and print the next",
      "steps: the config/version PR check (perf/pr.yaml, .github/workflows/perf-pr.yml); --tidb",
      "the TiDB source PR check for a TiDB repository (.github/tiperf/, tidb-source-pr.yml);",
      "--dispatch ad-hoc comparisons from the Actions tab. Overwrites nothing (exit 2, naming it)"
    ]
  },
  { name: "help", flags: {}, about: ["this text"] }
];
function commandSpec(name) {
  const c = COMMANDS.find((x) => x.name === name);
  if (!c) throw new Error(`no command ${name}`);
  return c;
}
function parseOptions(name) {
  return Object.fromEntries(Object.entries(commandSpec(name).flags).map(([k, f]) => [k, { type: f.type }]));
}

// action/src/cli/help.ts
function synopsisWords(c) {
  const flags2 = Object.entries(c.flags).map(([k, f]) => {
    const text = `--${k}${f.value ? ` ${f.value}` : ""}`;
    return f.required ? text : `[${text}]`;
  });
  return ["tiperf", c.name, ...c.args ? [c.args] : [], ...flags2];
}
var HELP_WIDTH = 100;
function filled(units, indent2, first) {
  const lines = first === void 0 ? [] : [first];
  for (const unit of units) {
    const last = lines[lines.length - 1];
    if (last !== void 0 && (`${last} ${unit}`.length <= HELP_WIDTH || last === first))
      lines[lines.length - 1] = `${last} ${unit}`;
    else lines.push(`${indent2}${unit}`);
  }
  return lines;
}
function synopsisLines(c, indent2 = "") {
  const [tiperf, name, ...rest] = synopsisWords(c);
  const first = `${indent2}${tiperf} ${name}`;
  return filled(rest, " ".repeat(`${first} `.length), first);
}
var TAKES_VALUE = new Set(
  COMMANDS.flatMap(
    (c) => Object.entries(c.flags).filter(([, f]) => f.type === "string").map(([k]) => k)
  )
);
var VALUE = /^\(?[A-Z][A-Z0-9_/=,…-]*[\])]?[,;:.)]*$/;
function aboutLines(c, indent2) {
  const words = [];
  for (const w of c.about.join(" ").split(/\s+/).filter(Boolean)) {
    const prev = words[words.length - 1];
    const flag = prev === void 0 || prev.includes(" ") ? void 0 : /^[[(]?--([a-z][a-z-]*)$/.exec(prev)?.[1];
    const glued = prev !== void 0 && (flag !== void 0 && (VALUE.test(w) || TAKES_VALUE.has(flag)) || prev === "tiperf" && /^[a-z]/.test(w));
    if (glued) words[words.length - 1] = `${prev} ${w}`;
    else words.push(w);
  }
  return filled(words, indent2);
}
function commandUsage(c) {
  return [...synopsisLines(c), ...aboutLines(c, "    ")].join("\n");
}
function usageText() {
  const lines = ["tiperf \u2014 performance regression checks for TiDB", "", "Usage:"];
  for (const c of COMMANDS) lines.push(...synopsisLines(c, "  "), ...aboutLines(c, "      "));
  lines.push(
    "  tiperf --version",
    "",
    "Exit status: 0 done (no regression), 1 regression (or inconclusive with compare.inconclusive:",
    "fail), 2 bad input, 3 a run failed, 130/143 interrupted."
  );
  return lines.join("\n");
}

// action/src/cloud/leftovers.ts
var REAP_FORMAT = "tiperf.reap";
function readReapReport(file) {
  return readReport(
    file,
    REAP_FORMAT,
    (r) => Array.isArray(r.overdue) && typeof r.region === "string" ? void 0 : "region and overdue"
  );
}
function leftoversTitle(r) {
  return `tiperf: ${r.overdue.length} cloud resource${r.overdue.length === 1 ? "" : "s"} alive past twice their ttl in ${r.region}`;
}
function leftoversMarkdown(r) {
  const lines = [
    `The hourly reaper found ${r.overdue.length} resource${r.overdue.length === 1 ? "" : "s"} in ${r.region} tagged by tiperf runs and still alive past twice their time to live${r.dryRun ? " (the reaper runs as a dry run: it lists, it does not delete)" : ""}.`,
    "",
    "| kind | id | tiperf:run-id | created | expired at |",
    "|---|---|---|---|---|",
    ...r.overdue.map(
      (f) => `| ${f.resource} | \`${f.id}\` | ${f.runId} | ${f.createdAt ?? "?"} | ${f.expiresAt} |`
    ),
    "",
    `Removed this hour: ${r.removed.length}; could not remove: ${r.failed.length}${r.failed.length ? ` (${r.failed.map((f) => `${f.resource} ${f.id}: ${f.error}`).join("; ")})` : ""}.`,
    "",
    `To delete what has expired: \`tiperf reap --cloud ${r.cloud ?? "aws"} --region ${r.region}\` (add \`--dry-run\` to list only).`
  ];
  return `${lines.join("\n")}
`;
}

// action/src/compare/bisect-read.ts
import { readFile } from "node:fs/promises";

// action/src/compare/bisection.ts
function searchRounds(commits, width = 1) {
  let range = Math.max(1, commits);
  let rounds = 0;
  while (range > 1) {
    range = Math.ceil(range / (width + 1));
    rounds++;
  }
  return rounds;
}
function nearest(at, lo, hi, taken) {
  for (let d = 0; d < hi - lo; d++)
    for (const i of d === 0 ? [at] : [at + d, at - d]) if (i > lo && i < hi && !taken.has(i)) return i;
  return void 0;
}
function nextCandidates(lo, hi, skipped, width) {
  const taken = new Set(skipped);
  const out = [];
  for (let k = 1; k <= width; k++) {
    const i = nearest(lo + Math.floor(k * (hi - lo) / (width + 1)), lo, hi, taken);
    if (i === void 0) break;
    taken.add(i);
    out.push(i);
  }
  return out.sort((a, b) => a - b);
}
function narrowed(lo, hi, answers) {
  const bad = answers.find(([, k]) => k === "bad")?.[0] ?? hi;
  const good = answers.filter(([i, k]) => k === "good" && i < bad).at(-1)?.[0] ?? lo;
  const unknown = answers.find(([i, k]) => k === "unknown" && i > good && i < bad)?.[0];
  return { lo: good, hi: bad, ...unknown !== void 0 ? { unknown } : {} };
}
async function bisectSearch(n, measure, width = 1) {
  if (n < 1) throw new Error("bisectSearch: no commits between good and bad");
  if (!Number.isInteger(width) || width < 1) throw new Error(`bisectSearch: width ${width} is not 1 or more`);
  const skipped = /* @__PURE__ */ new Set();
  let round2 = 1;
  const done = (o) => ({ ...o, skipped: [...skipped].sort((a, b) => a - b), rounds: round2 });
  const check = await measure(n, 0, "check", { round: round2, runner: 1 });
  if (check === "skip") throw new Error("bisectSearch: the bad commit itself could not be measured");
  if (check === "good") return done({ outcome: "no-regression" });
  if (check === "unknown") return done({ outcome: "inconclusive", lastGood: 0, firstBad: n, at: n });
  let lo = 0;
  let hi = n;
  while (hi - lo > 1) {
    const candidates = nextCandidates(lo, hi, skipped, width);
    if (candidates.length === 0)
      return done({ outcome: "inconclusive", lastGood: lo, firstBad: hi, at: hi, onlySkipped: true });
    round2++;
    const marks = await Promise.all(
      candidates.map((i, k) => measure(i, 0, "search", { round: round2, runner: k + 1 }))
    );
    const answers = candidates.map((i, k) => [i, marks[k]]);
    for (const [i, mark] of answers) if (mark === "skip") skipped.add(i);
    const next = narrowed(lo, hi, answers);
    if (next.unknown !== void 0)
      return done({ outcome: "inconclusive", lastGood: next.lo, firstBad: next.hi, at: next.unknown });
    ({ lo, hi } = next);
  }
  round2++;
  const confirm = await measure(hi, lo, "confirm", { round: round2, runner: 1 });
  if (confirm === "bad") return done({ outcome: "found", lastGood: lo, firstBad: hi });
  if (confirm === "good") return done({ outcome: "not-confirmed", lastGood: lo, firstBad: hi });
  return done({ outcome: "inconclusive", lastGood: lo, firstBad: hi, at: hi });
}
function stepMark(cells, watched, badEnd) {
  const keys = watched ? new Set(watched.map(stepCellKey)) : void 0;
  const mine = cells.filter((c) => !keys || keys.has(stepCellKey(c)));
  if (mine.length === 0) return "unknown";
  if (badEnd && mine.every((c) => badEnd.has(stepCellKey(c)))) {
    const sides = mine.map((c) => {
      const mid = midpoint(badEnd.get(stepCellKey(c)));
      if (!c.ci) return "unknown";
      const [past, short3] = c.better === "higher" ? [c.ci[1] < mid, c.ci[0] > mid] : [c.ci[0] > mid, c.ci[1] < mid];
      return past ? "bad" : short3 ? "good" : "unknown";
    });
    if (sides.includes("bad")) return "bad";
    return sides.every((s) => s === "good") ? "good" : "unknown";
  }
  if (mine.some((c) => c.verdict === "regression")) return "bad";
  const clear = (c) => c.ci !== null && (c.better === "higher" ? c.ci[0] > -c.tolerance : c.ci[1] < c.tolerance);
  return mine.every(clear) ? "good" : "unknown";
}
var midpoint = (change) => Math.sqrt(1 + change) - 1;
var stepCellKey = (c) => `${c.workload}\0${c.threads}\0${c.metric}`;
var BISECT_FORMAT = "tiperf.bisect";
var CommitSchema = external_exports.strictObject({ commit: external_exports.string(), subject: external_exports.string() });
var AttemptSchema = external_exports.strictObject({
  mark: external_exports.enum(["bad", "good", "unknown"]),
  verdict: external_exports.enum(["pass", "regression", "inconclusive"]),
  rounds: external_exports.number().int(),
  benchmark_seconds: external_exports.number(),
  /** The run directory of the step's comparison (its result, verdict, report and raw logs). */
  run_dir: external_exports.string(),
  cells: external_exports.array(CellJudgementSchema)
});
var BisectStepSchema = external_exports.strictObject({
  role: external_exports.enum(["check", "search", "confirm"]),
  candidate: CommitSchema,
  against: CommitSchema,
  /** skip: the candidate did not build (no attempts; `skip_reason` says why), gone round as git bisect skip does. */
  mark: external_exports.enum(["bad", "good", "unknown", "skip"]),
  skip_reason: external_exports.string().optional(),
  attempts: external_exports.array(AttemptSchema),
  /** Seconds spent building the two sides' tidb-servers (source bisects; kept builds cost 0). */
  build_seconds: external_exports.number().optional(),
  /** The search round it belongs to (1: the check), and which of the round's runners measured it. */
  round: external_exports.number().int().positive().optional(),
  runner: external_exports.number().int().positive().optional(),
  /** Set when the step stopped undecided because its next look would not fit the step's budget. */
  budget_stop: external_exports.string().optional()
});
var OpenRangeSchema = external_exports.strictObject({
  after: CommitSchema,
  through: CommitSchema,
  candidates: external_exports.number().int()
});
var BISECT_VERSION = 3;
var BisectReportSchema = external_exports.strictObject({
  format: external_exports.literal(BISECT_FORMAT),
  /**
   * 2: first_bad/last_good only when found; an undecided or unconfirmed search has open_range.
   * 3: a step's and an attempt's `kind` is its `mark` (bad, good, unknown, skip).
   */
  version: external_exports.literal(BISECT_VERSION),
  created_at: external_exports.string(),
  spec: external_exports.strictObject({ name: external_exports.string(), path: external_exports.string() }),
  /** config: the spec's target at each commit of its repository; source: tidb-server built at each. */
  mode: external_exports.enum(["config", "source"]),
  repository: external_exports.string(),
  good: CommitSchema,
  bad: CommitSchema,
  /** Commits after good up to bad (first-parent line): the candidates. */
  commits: external_exports.array(CommitSchema),
  /** running: steps still under way (the file is rewritten after each); failed: a step failed (see notes). */
  outcome: external_exports.enum(["running", "found", "no-regression", "not-confirmed", "inconclusive", "failed"]),
  /** Only with outcome found: the first bad commit, confirmed against its last good neighbour. */
  first_bad: CommitSchema.optional(),
  last_good: CommitSchema.optional(),
  /** Only with outcome inconclusive or not-confirmed: the range the first bad commit lies in. */
  open_range: OpenRangeSchema.optional(),
  /** Only with outcome not-confirmed: the adjacent pair the halvings ended on, which its confirmation did not bear out. */
  unconfirmed_candidate: external_exports.strictObject({ candidate: CommitSchema, against: CommitSchema }).optional(),
  /**
   * The cells that regressed between good and bad, which every later step judged, with the bad
   * end's change (each later step asks whether its commit is nearer it or no change).
   */
  cells: external_exports.array(
    external_exports.strictObject({
      workload: external_exports.string(),
      threads: external_exports.number().int(),
      metric: external_exports.string(),
      bad_change: external_exports.number().optional()
    })
  ),
  /** The metric the steps judged when bisect --metric named one (a cost per operation: cpu_ms_per_op). */
  metric: external_exports.string().optional(),
  confidence: external_exports.number(),
  step_confidence: external_exports.number(),
  max_measurements: external_exports.number().int(),
  remeasure: external_exports.number().int(),
  /**
   * The time one step may take (compare.budget or --budget), all its looks together: an
   * undecided step measures again with twice the rounds while the next look fits it, up to
   * 1 + remeasure looks (the number the error budget counted before the search began).
   */
  step_budget_seconds: external_exports.number().optional(),
  /** Candidates measured at once per search round, one per runner (1: halving). */
  runners: external_exports.number().int().positive().optional(),
  /**
   * Set on one leg's part of a bisect spread over runners (perf-bisect.yml): the round and runner
   * it was, its steps only the ones it measured (none: the search gave its runner nothing that
   * round); `tiperf bisect --parts` replays every part and concludes.
   */
  part: external_exports.strictObject({
    round: external_exports.number().int().positive(),
    runner: external_exports.number().int().positive(),
    /** --good and --bad as the leg was given them (its good and bad: the commits they named then). */
    refs: external_exports.strictObject({ good: external_exports.string(), bad: external_exports.string() }).optional()
  }).optional(),
  /** Rounds of measurement the search took (each round's steps at once on `runners` runners), and a halving search's most. */
  rounds: external_exports.number().int().optional(),
  halving_rounds: external_exports.number().int().optional(),
  steps: external_exports.array(BisectStepSchema),
  /** Candidates that did not build, gone round (the search measured their neighbours). */
  skipped: external_exports.array(CommitSchema).optional(),
  benchmark_seconds: external_exports.number(),
  build_seconds: external_exports.number(),
  notes: external_exports.array(external_exports.string())
}).superRefine((r, ctx) => {
  const found = r.outcome === "found";
  const open = r.outcome === "inconclusive" || r.outcome === "not-confirmed";
  const wrong = (path, message) => ctx.addIssue({ code: "custom", path: [path], message });
  if (found !== (r.first_bad !== void 0))
    wrong("first_bad", `first_bad is set exactly when outcome is found (outcome ${r.outcome})`);
  if (found !== (r.last_good !== void 0))
    wrong("last_good", `last_good is set exactly when outcome is found (outcome ${r.outcome})`);
  if (open !== (r.open_range !== void 0))
    wrong(
      "open_range",
      `open_range is set exactly when outcome is inconclusive or not-confirmed (outcome ${r.outcome})`
    );
  if (r.outcome === "not-confirmed" !== (r.unconfirmed_candidate !== void 0))
    wrong(
      "unconfirmed_candidate",
      `unconfirmed_candidate is set exactly when outcome is not-confirmed (outcome ${r.outcome})`
    );
});
function roundWaits(steps) {
  const seconds3 = (s) => (s.build_seconds ?? 0) + s.attempts.reduce((sum2, a) => sum2 + a.benchmark_seconds, 0);
  const longest = /* @__PURE__ */ new Map();
  for (const s of steps) longest.set(s.round ?? 0, Math.max(longest.get(s.round ?? 0) ?? 0, seconds3(s)));
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  return { alone: sum(steps.map(seconds3)), atOnce: sum([...longest.values()]) };
}

// action/src/compare/bisect-read.ts
function migrateBisect(doc) {
  return marked(doc.version === 1 ? rangeOpened(doc) : doc);
}
function marked(doc) {
  if (doc.version !== 2) return doc;
  const mark = ({ kind, ...rest }) => kind === void 0 ? rest : { ...rest, mark: kind };
  const steps = Array.isArray(doc.steps) ? doc.steps.map((st) => ({
    ...mark(st),
    ...Array.isArray(st.attempts) ? { attempts: st.attempts.map(mark) } : {}
  })) : doc.steps;
  return { ...doc, version: 3, ...doc.steps !== void 0 ? { steps } : {} };
}
function rangeOpened(doc) {
  const { first_bad, last_good, ...rest } = doc;
  const out = { ...rest, version: 2 };
  if (doc.outcome === "found") Object.assign(out, { first_bad, last_good });
  else if ((doc.outcome === "inconclusive" || doc.outcome === "not-confirmed") && first_bad && last_good) {
    const commits = doc.commits ?? [];
    const at = (c) => commits.findIndex((x) => x.commit === c.commit);
    out.open_range = {
      after: last_good,
      through: first_bad,
      candidates: Math.max(1, at(first_bad) - at(last_good))
    };
    if (doc.outcome === "not-confirmed")
      out.unconfirmed_candidate = { candidate: first_bad, against: last_good };
  }
  return out;
}
function parseBisect(raw) {
  const doc = raw !== null && typeof raw === "object" ? migrateBisect(raw) : raw;
  return BisectReportSchema.safeParse(doc);
}
async function readBisect(file) {
  let doc;
  try {
    doc = JSON.parse(await readFile(file, "utf8"));
  } catch {
    return void 0;
  }
  if (doc?.format !== BISECT_FORMAT) return void 0;
  const parsed = parseBisect(doc);
  if (!parsed.success) throw new InputError(formatIssues(file, parsed.error.issues));
  return parsed.data;
}

// action/src/history/changepoints.ts
function tStatistics(x) {
  const n = x.length;
  const d = (i, j) => Math.abs(x[i] - x[j]);
  const out = new Array(n).fill(0);
  let within = 0;
  let acrossXY = 0;
  let withinY = 0;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) withinY += d(i, j);
  for (let tau = 0; tau < n; tau++) {
    const m = n - tau;
    const xy = tau > 0 && m > 0 ? acrossXY / (tau * m) : 0;
    const xx = tau > 0 ? 2 * within / (tau * tau) : 0;
    const yy = m > 0 ? 2 * withinY / (m * m) : 0;
    out[tau] = tau * m / (tau + m) * (2 * xy - xx - yy);
    let toX = 0;
    for (let i = 0; i < tau; i++) toX += d(i, tau);
    let toY = 0;
    for (let j = tau + 1; j < n; j++) toY += d(tau, j);
    acrossXY += toY - toX;
    within += toX;
    withinY -= toY;
  }
  return out;
}
function bestSplit(stats, min) {
  let best;
  for (let i = min; i <= stats.length - min; i++)
    if (!best || stats[i] > best.q) best = { i, q: stats[i] };
  return best;
}
function eDivisive(series, o = {}) {
  const pvalue = o.pvalue ?? 0.05;
  const permutations = o.permutations ?? 199;
  const min = Math.max(1, Math.floor(o.minSegment ?? 1));
  const random = rng(o.seed ?? 1);
  const found = [];
  const memo = /* @__PURE__ */ new Map();
  for (let pass = 0; pass < series.length; pass++) {
    const cuts = [0, ...found.map((c) => c.index).sort((a, b) => a - b), series.length];
    let best;
    for (let w = 0; w + 1 < cuts.length; w++) {
      const a = cuts[w];
      const b = cuts[w + 1];
      const key2 = `${a}:${b}`;
      let cand = memo.get(key2);
      if (!cand) {
        const split = bestSplit(tStatistics(series.slice(a, b)), min);
        cand = split ? { index: a + split.i, q: split.q } : { index: -1, q: Number.NEGATIVE_INFINITY };
        memo.set(key2, cand);
      }
      if (cand.index >= 0 && (!best || cand.q > best.q)) best = cand;
    }
    if (!best || best.q <= 0) break;
    let atLeast = 0;
    for (let p2 = 0; p2 < permutations; p2++) {
      let max = Number.NEGATIVE_INFINITY;
      for (let w = 0; w + 1 < cuts.length; w++) {
        const part = series.slice(cuts[w], cuts[w + 1]);
        for (let i = part.length - 1; i > 0; i--) {
          const j = Math.floor(random() * (i + 1));
          [part[i], part[j]] = [part[j], part[i]];
        }
        max = Math.max(max, bestSplit(tStatistics(part), min)?.q ?? Number.NEGATIVE_INFINITY);
      }
      if (max >= best.q) atLeast++;
    }
    const p = atLeast / (permutations + 1);
    if (p > pvalue) break;
    found.push({ index: best.index, p, q: best.q });
  }
  return found.sort((a, b) => a.index - b.index);
}
function segmentsOf(series, points) {
  const cuts = [0, ...points.map((p) => p.index), series.length];
  const out = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const part = series.slice(cuts[i], cuts[i + 1]);
    out.push({
      from: cuts[i],
      to: cuts[i + 1],
      mean: part.reduce((s, v) => s + v, 0) / part.length
    });
  }
  return out;
}

// action/src/history/store.ts
import { createHash } from "node:crypto";
import { appendFile, mkdir, readdir, readFile as readFile2 } from "node:fs/promises";
import { dirname, join as join2 } from "node:path";

// action/src/result/baseline.ts
import { join } from "node:path";
function profileOf(result) {
  if (result.profile) return result.profile;
  const t = result.targets[0];
  if (!t) throw new InputError(`result ${result.run_id} has no target`);
  return `local-${t.kind}`;
}
var PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
function plainName(what, name) {
  if (!PLAIN_NAME.test(name) || name.includes(".."))
    throw new InputError(
      `${what} must be a plain name (letters, digits, . _ -; no / and no ..), like local-mariadb (got ${JSON.stringify(name)})`
    );
  return name;
}
var baselinePath = (dir, profile2, specName) => join(dir, plainName("--profile", profile2), `${plainName("the result's spec name", specName)}.json`);
async function promoteBaseline(resultFile, dir, profile2) {
  const result = await readResult(resultFile);
  if (result.status !== "complete") {
    throw new InputError(
      `${resultFile}: status is ${result.status}; only a complete result can become a baseline`
    );
  }
  if (result.cells.some((c) => c.status !== "ok"))
    throw new InputError(`${resultFile}: has failed cells; not a baseline`);
  const file = baselinePath(dir, profile2 ?? profileOf(result), result.spec.name);
  await writeResult(file, result);
  return file;
}

// action/src/history/store.ts
var HISTORY_FORMAT = "tiperf.history";
var HistoryEntrySchema = external_exports.strictObject({
  format: external_exports.literal(HISTORY_FORMAT),
  version: external_exports.literal(1),
  run_id: external_exports.string().min(1),
  started_at: external_exports.string(),
  spec: external_exports.strictObject({
    name: external_exports.string(),
    hash: external_exports.string(),
    /**
     * sha256 of what the run measured — target, data, load-generator placement and workloads
     * (without their tolerances): a description or tolerance edit keeps the history going.
     */
    matrix: external_exports.string().optional()
  }),
  /** The cluster the run measured: a profile's name, or the local target's kind. */
  profile: external_exports.string().regex(/^[a-z][a-z0-9_-]*$/),
  /** The commit and ref the run measured (GitHub's GITHUB_SHA and GITHUB_REF_NAME). */
  commit: external_exports.string().optional(),
  ref: external_exports.string().optional(),
  target: external_exports.strictObject({ kind: external_exports.string(), version: external_exports.string() }).optional(),
  values: external_exports.array(
    external_exports.strictObject({
      workload: external_exports.string(),
      threads: external_exports.number().int().positive(),
      metric: external_exports.string(),
      better: external_exports.enum(["higher", "lower"]),
      value: external_exports.number(),
      /** Rounds averaged. */
      n: external_exports.number().int().positive()
    })
  )
});
var NAME = /^[a-z][a-z0-9_-]*$/;
function matrixHash(body) {
  const b = body ?? {};
  const workloads = (b.workloads ?? []).map((w) => {
    const { judge: _judge, ...rest } = w;
    return rest;
  });
  return createHash("sha256").update(canonicalJson({ target: b.target, data: b.data, driver: b.driver, workloads })).digest("hex");
}
function entryOf(result, file, o) {
  if (result.status !== "complete")
    throw new InputError(
      `${file}: the run is ${result.status}: only complete runs go into a history (a partial one would look like a change)`
    );
  const variants = [...new Set(result.cells.map((c) => c.variant))];
  const variant = o.variant ?? (variants.length === 1 ? variants[0] : void 0);
  if (!variant || !variants.includes(variant))
    throw new InputError(
      `${file}: --variant must name one of the run's variants (${variants.join(", ") || "none"})${o.variant ? `; got ${o.variant}` : ""}`
    );
  const profile2 = o.profile ?? profileOf(result);
  if (!NAME.test(profile2))
    throw new InputError(`--profile ${profile2}: must be lower-case letters, digits, _ or - (a file name)`);
  const groups = /* @__PURE__ */ new Map();
  const cells = result.cells.filter((c) => c.variant === variant && c.status === "ok");
  const judged2 = cells.some((c) => c.round > 0) ? cells.filter((c) => c.round > 0) : cells;
  for (const c of judged2)
    for (const [metric, m] of Object.entries(c.metrics)) {
      const key2 = `${c.workload}\0${c.threads}\0${metric}`;
      const g = groups.get(key2) ?? {
        workload: c.workload,
        threads: c.threads,
        metric,
        better: m.better,
        xs: []
      };
      g.xs.push(m.value);
      groups.set(key2, g);
    }
  if (groups.size === 0) throw new InputError(`${file}: no measured cells of variant ${variant}`);
  const target = result.targets.find((t) => t.variant === variant);
  return {
    format: HISTORY_FORMAT,
    version: 1,
    run_id: result.run_id,
    started_at: result.started_at,
    spec: { name: result.spec.name, hash: result.spec.hash, matrix: matrixHash(result.spec.body) },
    profile: profile2,
    ...o.commit ? { commit: o.commit } : {},
    ...o.ref ? { ref: o.ref } : {},
    ...target ? { target: { kind: target.kind, version: target.version } } : {},
    values: [...groups.values()].map((g) => ({
      workload: g.workload,
      threads: g.threads,
      metric: g.metric,
      better: g.better,
      value: g.xs.reduce((s, v) => s + v, 0) / g.xs.length,
      n: g.xs.length
    }))
  };
}
var historyFile = (dir, e) => join2(dir, e.profile, `${e.spec.name}.jsonl`);
async function readHistory(file) {
  let text;
  try {
    text = await readFile2(file, "utf8");
  } catch (e) {
    if (e.code === "ENOENT") return [];
    throw new InputError(`${file}: cannot read (${e.code ?? e})`);
  }
  const out = [];
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    let raw;
    try {
      raw = JSON.parse(line);
    } catch {
      throw new InputError(`${file}:${i + 1}: not JSON`);
    }
    const parsed = HistoryEntrySchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InputError(
        `${file}:${i + 1}: ${issue?.path.join(".") || "line"}: ${issue?.message} (a ${HISTORY_FORMAT} v1 entry)`
      );
    }
    out.push(parsed.data);
  });
  return out;
}
async function appendHistory(dir, entry) {
  const file = historyFile(dir, entry);
  const existing = await readHistory(file);
  if (existing.some((e) => e.run_id === entry.run_id))
    throw new InputError(`${file}: run ${entry.run_id} is already in the history`);
  const last = existing.at(-1);
  const same = last === void 0 || (last.spec.matrix && entry.spec.matrix ? last.spec.matrix === entry.spec.matrix : last.spec.hash === entry.spec.hash);
  if (last && !same)
    throw new InputError(
      `${file}: run ${entry.run_id} measured a different matrix of spec ${entry.spec.name} (its target, data or workloads changed since the history's last run ${last.run_id}): a changed matrix is not a change point; start a new history (another --dir)`
    );
  await mkdir(dirname(file), { recursive: true });
  await appendFile(file, `${JSON.stringify(entry)}
`);
  return file;
}
async function historyFiles(dir) {
  let profiles;
  try {
    profiles = (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch (e) {
    throw new InputError(`--dir ${dir}: cannot read (${e.code ?? e})`);
  }
  const out = [];
  for (const p of profiles.sort())
    for (const f of (await readdir(join2(dir, p))).sort()) if (f.endsWith(".jsonl")) out.push(join2(dir, p, f));
  return out;
}

// action/src/history/check.ts
var CHANGEPOINTS_FORMAT = "tiperf.changepoints";
var MIN_RUNS = 6;
var MIN_SEGMENT = 3;
var leastRuns = (minSegment) => Math.max(MIN_RUNS, 2 * minSegment);
function seriesReports(entries) {
  const map = /* @__PURE__ */ new Map();
  for (const e of entries)
    for (const v of e.values) {
      const key2 = `${v.workload}\0${v.threads}\0${v.metric}`;
      const s = map.get(key2) ?? {
        workload: v.workload,
        threads: v.threads,
        metric: v.metric,
        better: v.better,
        values: [],
        run_ids: [],
        points: []
      };
      s.values.push(v.value);
      s.run_ids.push(e.run_id);
      map.set(key2, s);
    }
  return [...map.values()];
}
async function checkHistory(dir, o) {
  const report = {
    format: CHANGEPOINTS_FORMAT,
    version: 1,
    created_at: (/* @__PURE__ */ new Date()).toISOString(),
    pvalue: o.pvalue,
    permutations: o.permutations,
    min_segment: o.minSegment ?? MIN_SEGMENT,
    files: []
  };
  let sinceFound = false;
  for (const file of await historyFiles(dir)) {
    const entries = await readHistory(file);
    const byRun = new Map(entries.map((e) => [e.run_id, e]));
    const sinceAt = o.since !== void 0 ? entries.findIndex((e) => e.run_id === o.since) : -1;
    if (sinceAt >= 0) sinceFound = true;
    const series = seriesReports(entries);
    for (const s of series) {
      if (s.values.length < leastRuns(report.min_segment)) continue;
      const detect = (values) => eDivisive(values, {
        pvalue: o.pvalue,
        permutations: o.permutations,
        seed: o.seed ?? 1,
        minSegment: report.min_segment
      });
      const points = detect(s.values);
      const known = /* @__PURE__ */ new Set();
      if (o.since !== void 0) {
        const upto = s.run_ids.indexOf(o.since);
        const seen = sinceAt < 0 ? points : upto + 1 >= leastRuns(report.min_segment) ? detect(s.values.slice(0, upto + 1)) : [];
        for (const p of seen) known.add(s.run_ids[p.index]);
      }
      const segments = segmentsOf(s.values, points);
      s.points = points.map((p, i) => {
        const run = byRun.get(s.run_ids[p.index]);
        const prev = byRun.get(s.run_ids[p.index - 1]);
        const before = segments[i].mean;
        const after = segments[i + 1].mean;
        const change = after / before - 1;
        return {
          index: p.index,
          run_id: run.run_id,
          started_at: run.started_at,
          ...run.commit ? { commit: run.commit } : {},
          previous_run_id: prev.run_id,
          ...prev.commit ? { previous_commit: prev.commit } : {},
          before,
          after,
          change,
          worse: s.better === "higher" ? change < 0 : change > 0,
          p: p.p,
          new: o.since !== void 0 && !known.has(run.run_id)
        };
      });
    }
    const first = entries[0];
    report.files.push({
      file,
      profile: first?.profile ?? "",
      spec: first?.spec.name ?? "",
      runs: entries.length,
      series
    });
  }
  if (o.since !== void 0 && !sinceFound)
    throw new InputError(`--since ${o.since}: no run of that id in any history under ${dir}`);
  return report;
}
var short = (sha) => sha ? sha.slice(0, 12) : "?";
var raised = (p) => p.new && p.worse && !p.accepted;
function changePointText(r) {
  const lines = [];
  for (const f of r.files) {
    const least = leastRuns(r.min_segment ?? 1);
    const tested = f.series.filter((s) => s.values.length >= least).length;
    lines.push(
      `${f.file}: ${f.runs} runs, ${f.series.length} series${tested < f.series.length ? ` (${f.series.length - tested} with fewer than ${least} runs not tested)` : ""}`
    );
    for (const s of f.series)
      for (const p of s.points)
        lines.push(
          `  ${s.workload} threads=${s.threads} ${s.metric}: change point at run ${p.run_id} (#${p.index + 1} of ${s.values.length}${p.commit ? `, commit ${short(p.commit)}` : ""}): ${p.before.toPrecision(5)} \u2192 ${p.after.toPrecision(5)} (${pct(p.change)}${p.worse ? ", worse" : ", better"}), p = ${p.p.toFixed(3)}${p.new ? " [new]" : ""}${p.accepted ? ` [accepted by ${p.accepted.by} in #${p.accepted.pr} at ${pct(p.accepted.change)}]` : ""}`
        );
  }
  const n = r.files.reduce((s, f) => s + f.series.reduce((t, x) => t + x.points.length, 0), 0);
  lines.push(
    `${n} change point(s); E-divisive means, permutation test (${r.permutations} permutations, p \u2264 ${r.pvalue}), levels of at least ${r.min_segment ?? 1} runs`
  );
  return `${lines.join("\n")}
`;
}
function changePointIssue(r, repo) {
  const bad = r.files.flatMap(
    (f) => f.series.flatMap((s) => s.points.filter(raised).map((p) => ({ f, s, p })))
  );
  if (bad.length === 0) return void 0;
  const first = bad.reduce((a, b) => a.p.started_at <= b.p.started_at ? a : b);
  const title = `tiperf history: ${bad.length} new change point(s) for the worse in ${first.f.spec} on ${first.f.profile} (from run ${first.p.run_id})`;
  const body = [
    `**${bad.length} new change point(s) for the worse** (E-divisive means, ${r.permutations} permutations, p \u2264 ${r.pvalue}).`,
    "",
    "| series | first bad run | level before \u2192 after | change | p | commits between |",
    "|---|---|---|---|---|---|",
    ...bad.map(({ s, p }) => {
      const commits = p.commit && p.previous_commit ? `[${short(p.previous_commit)}\u2026${short(p.commit)}](https://github.com/${repo}/compare/${p.previous_commit}...${p.commit})` : "(commits not recorded)";
      return `| ${s.workload} threads=${s.threads} ${s.metric} | ${p.run_id} | ${p.before.toPrecision(5)} \u2192 ${p.after.toPrecision(5)} | ${pct(p.change)} | ${p.p.toFixed(3)} | ${commits} |`;
    }),
    "",
    "<!-- tiperf:changepoints -->"
  ].join("\n");
  return { title, body };
}
function readChangePoints(file) {
  return readReport(
    file,
    CHANGEPOINTS_FORMAT,
    (r) => Array.isArray(r.files) && typeof r.pvalue === "number" ? void 0 : "files and pvalue"
  );
}
function bisectRange(r, spec) {
  for (const f of r.files) {
    if (f.spec !== spec) continue;
    for (const s of f.series)
      for (const p of s.points)
        if (raised(p) && p.commit && p.previous_commit && p.commit !== p.previous_commit)
          return { good: p.previous_commit, bad: p.commit, workload: s.workload, threads: s.threads };
  }
  return void 0;
}

// action/src/report/bisect.ts
var short2 = (c) => c.commit.slice(0, 10);
function judged(r, step) {
  const last = step.attempts.at(-1);
  if (!last) return [];
  const keys = new Set(r.cells.map((c) => `${c.workload}\0${c.threads}\0${c.metric}`));
  const mine = last.cells.filter(
    (c) => keys.size === 0 || keys.has(`${c.workload}\0${c.threads}\0${c.metric}`)
  );
  return mine.length ? mine : last.cells;
}
function headlineCell(r) {
  const step = [...r.steps].reverse().find((s) => s.role === "confirm" && s.mark === "bad") ?? r.steps[0];
  if (!step) return void 0;
  const worse = (c) => c.change === null ? 0 : c.better === "higher" ? -c.change : c.change;
  return judged(r, step).filter((c) => c.verdict === "regression").sort((a, b) => worse(b) - worse(a))[0];
}
function bisectTitle(r) {
  const c = headlineCell(r);
  if (r.outcome !== "found" || !r.first_bad || !c) return `tiperf bisect ${r.spec.name}: ${r.outcome}`;
  const size = c.change === null ? "a" : `${Math.abs(c.change * 100).toFixed(1)}%`;
  return `${size} regression in ${c.workload} threads=${c.threads} after ${short2(r.first_bad)} ${r.first_bad.subject}`;
}
var OUTCOME = {
  found: "\u{1F534} first bad commit found",
  "no-regression": "\u{1F7E2} no regression found between good and bad",
  "not-confirmed": "\u{1F7E1} a candidate was found but not confirmed against its neighbour",
  inconclusive: "\u{1F7E1} inconclusive: stopped at an undecided step",
  running: "\u23F3 running",
  failed: "\u274C failed: a step could not be measured (see the notes)"
};
function prOf(subject) {
  const all = [...subject.matchAll(/\(#(\d+)\)/g)];
  const n = all.at(-1)?.[1];
  return n ? Number(n) : void 0;
}
function botTable(r, good, bad) {
  const confirm = [...r.steps].reverse().find((s) => s.role === "confirm" && s.mark === "bad");
  if (!confirm) return [];
  const cells = judged(r, confirm);
  if (!cells.length) return [];
  const num = (x) => x === null ? "\u2013" : x.toLocaleString("en-US", { maximumFractionDigits: 2 });
  return [
    `| cell | metric | last good \`${short2(good)}\` | first bad \`${short2(bad)}\` | change | interval |`,
    "|---|---|---:|---:|---:|---|",
    ...cells.map(
      (c) => `| ${md(c.workload)} threads=${c.threads} | ${md(c.metric)} | ${num(c.base)} | ${num(c.head)} | ${pct(c.change)} | ${ciText(c)} |`
    ),
    ""
  ];
}
function bisectMarkdown(r) {
  const out = [
    `### tiperf bisect ${md(r.spec.name)}: ${OUTCOME[r.outcome]}`,
    "",
    `${r.mode === "source" ? "tidb-server built at each commit of" : "the spec's target at each commit of"} \`${md(r.repository)}\`: good \`${short2(r.good)}\` ${md(r.good.subject)} \u2026 bad \`${short2(r.bad)}\` ${md(r.bad.subject)} (${r.commits.length} commit(s) after good)`,
    ""
  ];
  if (r.outcome === "found" && r.first_bad && r.last_good) {
    const pr = prOf(r.first_bad.subject);
    out.push(
      `**First bad commit: \`${short2(r.first_bad)}\` ${md(r.first_bad.subject)}**${pr ? ` (PR #${pr})` : ""} (last good: \`${short2(r.last_good)}\` ${md(r.last_good.subject)})`,
      "",
      ...botTable(r, r.last_good, r.first_bad)
    );
  }
  if (r.open_range)
    out.push(
      `**No first bad commit named.** It is one of the ${r.open_range.candidates} commit(s) after \`${short2(r.open_range.after)}\` up to \`${short2(r.open_range.through)}\` (bisect.json: open_range).`,
      ""
    );
  if (r.unconfirmed_candidate)
    out.push(
      `The halvings ended on \`${short2(r.unconfirmed_candidate.candidate)}\` ${md(r.unconfirmed_candidate.candidate.subject)}, but it did not regress against its neighbour \`${short2(r.unconfirmed_candidate.against)}\` (bisect.json: unconfirmed_candidate): not a first bad commit.`,
      ""
    );
  if (r.cells.length)
    out.push(
      `Judged cells: ${r.cells.map((c) => md(`${c.workload} threads=${c.threads} ${c.metric}${c.bad_change !== void 0 ? ` (bad end ${pct(c.bad_change)})` : ""}`)).join(", ")}${r.metric ? ` \xB7 every step judged on ${md(r.metric)} (--metric)` : ""}`,
      ""
    );
  out.push(
    "| step | role | candidate | against | \u0394% | interval | rounds | verdict | step says | build s |",
    "|---:|---|---|---|---:|---|---:|---|---|---:|"
  );
  const where = (s) => r.runners && s.round ? ` \xB7 round ${s.round}, runner ${s.runner}` : "";
  r.steps.forEach((s, i) => {
    if (s.mark === "skip")
      out.push(
        `| ${i + 1} | ${s.role}${where(s)} | \`${short2(s.candidate)}\` ${md(s.candidate.subject)} | \`${short2(s.against)}\` | | | | did not build | skip | |`
      );
    s.attempts.forEach((a, k) => {
      const cells = judged(r, { ...s, attempts: [a] });
      const delta = cells.map((c) => pct(c.change)).join(" / ");
      const ci = cells.map((c) => ciText(c)).join(" / ");
      out.push(
        `| ${i + 1}${k ? `.${k + 1}` : ""} | ${s.role}${where(s)}${k ? " (re-measure)" : ""} | \`${short2(s.candidate)}\` ${md(s.candidate.subject)} | \`${short2(s.against)}\` | ${delta} | ${ci} | ${a.rounds} | ${a.verdict} | ${a.mark} | ${k === 0 && s.build_seconds !== void 0 ? s.build_seconds.toFixed(0) : ""} |`
      );
    });
  });
  out.push(
    "",
    `<sub>${r.steps.reduce((s, x) => s + x.attempts.length, 0)} measurement(s), ${Math.round(r.benchmark_seconds)} s of benchmark${r.mode === "source" ? `, ${Math.round(r.build_seconds)} s of builds` : ""}; confidence ${Math.round(r.confidence * 100)}% over the search (${(r.step_confidence * 100).toFixed(2)}% per measurement, at most ${r.max_measurements})</sub>`,
    ""
  );
  for (const n of r.notes) out.push(`<sub>${md(n)}</sub>`, "");
  out.push(
    "<sub>Each step's comparison (result, verdict, report, raw logs) is under steps/ beside bisect.json.</sub>",
    ""
  );
  return `${out.join("\n")}
`;
}
function bisectIssue(r) {
  if (r.outcome !== "found") return void 0;
  return { title: bisectTitle(r), body: bisectMarkdown(r) };
}

// action/src/commands/alarm/cli.ts
async function cmdAlarm(args) {
  const { values, positionals } = flags("alarm", args, parseOptions("alarm"));
  const file = onePositional("alarm", positionals, "VERDICT_JSON file (or a reap report)");
  const repo = parseRepo(required("alarm", "repo", values.repo));
  const changes = await readChangePoints(file);
  if (changes) {
    const issue = changePointIssue(changes, `${repo.owner}/${repo.repo}`);
    if (!issue) {
      process.stdout.write("no new change point for the worse: no issue\n");
      return EXIT.ok;
    }
    const label3 = values.label ?? "tiperf-change-point";
    const gh2 = githubClient(githubToken("alarm"), apiUrl(), log, void 0, deadlines("alarm", values));
    const r2 = await upsertIssue(gh2, repo, { ...issue, label: label3 }, log);
    process.stdout.write(`${r2.status} ${r2.number}
`);
    return EXIT.ok;
  }
  const leftovers = await readReapReport(file);
  if (leftovers) {
    if (leftovers.overdue.length === 0) {
      process.stdout.write("nothing overdue: no issue\n");
      return EXIT.ok;
    }
    const label3 = values.label ?? "tiperf-leftovers";
    const gh2 = githubClient(githubToken("alarm"), apiUrl(), log, void 0, deadlines("alarm", values));
    const r2 = await upsertIssue(
      gh2,
      repo,
      { title: leftoversTitle(leftovers), body: leftoversMarkdown(leftovers), label: label3 },
      log
    );
    process.stdout.write(`${r2.status} ${r2.number}
`);
    return EXIT.ok;
  }
  const bisected = await readBisect(file);
  if (bisected) {
    const issue = bisectIssue(bisected);
    if (!issue) {
      process.stdout.write(`bisect ${bisected.outcome}: no issue
`);
      return EXIT.ok;
    }
    const label3 = values.label ?? "tiperf-bisect";
    const gh2 = githubClient(githubToken("alarm"), apiUrl(), log, void 0, deadlines("alarm", values));
    const r2 = await upsertIssue(gh2, repo, { ...issue, label: label3 }, log);
    process.stdout.write(`${r2.status} ${r2.number}
`);
    return EXIT.ok;
  }
  const verdict = await readVerdict(file);
  const label2 = values.label ?? "tiperf-regression";
  const gh = githubClient(githubToken("alarm"), apiUrl(), log, void 0, deadlines("alarm", values));
  const title = `tiperf ${verdict.spec.name}: ${verdict.verdict} (${verdict.created_at.slice(0, 10)})`;
  const r = await upsertIssue(
    gh,
    repo,
    { title, body: commentMarkdown(verdict, { matrix: label2 }), label: label2 },
    log
  );
  process.stdout.write(`${r.status} ${r.number}
`);
  return EXIT.ok;
}

// action/src/commands/baseline/cli.ts
async function cmdBaseline(args) {
  const { values, positionals } = flags("baseline", args, parseOptions("baseline"));
  const [action, ...rest] = positionals;
  if (action !== "update")
    throw new InputError(`tiperf baseline: the action must be update (got ${action ?? "nothing"})`);
  const file = onePositional("baseline update", rest, "RESULT file");
  const written = await promoteBaseline(
    file,
    values.dir ?? "baselines",
    values.profile
  );
  log(`baseline: ${written}`);
  process.stdout.write(`${written}
`);
  return EXIT.ok;
}

// action/src/commands/bisect/index.ts
import { mkdirSync } from "node:fs";
import { basename as basename2, dirname as dirname3, join as join5, relative as relative2 } from "node:path";

// action/src/compare/bisect-budget.ts
function maxMeasurements(commits, remeasure, width = 1) {
  return (2 + searchRounds(commits, width) * width) * (1 + remeasure);
}
function looksWithin(budget, first, most = 6) {
  if (!(first > 0) || !(budget > 0)) return 1;
  return Math.max(1, Math.min(most, Math.floor(Math.log2(budget / first + 1))));
}
function nextLookFits(budget, spent, lastSeconds) {
  return spent + 2 * lastSeconds <= budget;
}
function stepConfidence(familyConfidence, measurements) {
  return 1 - (1 - familyConfidence) / measurements;
}

// action/src/commands/bisect/range.ts
import { randomBytes } from "node:crypto";
import { dirname as dirname2, join as join3, resolve } from "node:path";
async function commitOf(repo, ref, flag) {
  const c = await commitAt(repo, ref);
  if ("error" in c)
    throw new InputError(`tiperf bisect: ${flag} ${ref} is not a commit of ${repo} (${c.error})`);
  return c;
}
async function between(repo, good, bad, flags2) {
  const anc = await git(repo, ["merge-base", "--is-ancestor", good.commit, bad.commit]);
  if (anc.code !== 0)
    throw new InputError(
      `tiperf bisect: ${flags2[0]} ${good.commit.slice(0, 10)} is not an ancestor of ${flags2[1]} ${bad.commit.slice(0, 10)} in ${repo}: the good commit must come before the bad one`
    );
  const r = await git(repo, [
    "log",
    "--reverse",
    "--first-parent",
    "--format=%H%x00%s",
    `${good.commit}..${bad.commit}`
  ]);
  const list = r.out.split("\n").filter(Boolean).map((l) => {
    const [commit = "", subject = ""] = l.split("\0");
    return { commit, subject };
  });
  if (list.length === 0)
    throw new InputError(
      `tiperf bisect: ${flags2[0]} and ${flags2[1]} are the same commit: nothing between them`
    );
  return list;
}
var cellsOfSpec = (loaded) => loaded.spec.workloads.flatMap((w) => w.threads.map((threads) => ({ workload: w.name, threads })));
async function repositoryOf(specFile, current) {
  const tree = builderOf(current.spec.target)?.treeOf(current.spec.target);
  if (tree) return { mode: "source", repo: resolve(tree.path) };
  const top = await git(dirname2(resolve(specFile)), ["rev-parse", "--show-toplevel"]);
  if (top.code !== 0)
    throw new InputError(
      `tiperf bisect: ${specFile} is not in a git repository, and its target has no source: (nothing to bisect)`
    );
  return { mode: "config", repo: top.out };
}
async function commitsBetween(specFile, current, good, bad) {
  const { repo } = await repositoryOf(specFile, current);
  const g = await commitOf(repo, good, "--good");
  const b = await commitOf(repo, bad, "--bad");
  return (await between(repo, g, b, ["--good", "--bad"])).length;
}
async function rangeOf(o) {
  const current = await loadSpec(o.spec);
  const { mode, repo } = await repositoryOf(o.spec, current);
  const good = await commitOf(repo, o.good, "--good");
  const bad = await commitOf(repo, o.bad, "--bad");
  const commits = [good, ...await between(repo, good, bad, ["--good", "--bad"])];
  const measurements = maxMeasurements(commits.length - 1, o.remeasure ?? 1, o.runners ?? 1);
  const cells = cellsOfSpec(current);
  const only = o.only ?? cells;
  for (const c of only)
    if (!cells.some((x) => x.workload === c.workload && x.threads === c.threads))
      throw new InputError(
        `tiperf bisect: --only ${c.workload}:${c.threads} is not a cell of ${o.spec} (its cells: ${cells.map((x) => `${x.workload}:${x.threads}`).join(", ")})`
      );
  const given = o.compare?.budget;
  const stepBudget = given !== void 0 ? parseDuration(given) : current.spec.compare?.budget;
  const id = `bisect-${(/* @__PURE__ */ new Date()).toISOString().replace(/[-:]/g, "").replace(/\..*/, "")}-${randomBytes(2).toString("hex")}`;
  return {
    current,
    mode,
    repo,
    commits,
    only,
    measurements,
    perStep: stepConfidence(o.confidence ?? 0.95, measurements),
    dir: join3(o.outDir, id),
    ...stepBudget !== void 0 ? { stepBudget } : {}
  };
}
var looksRule = (r) => (r.current.variants?.compare.looks ?? r.current.spec.compare?.looks ?? 1) > 1;

// action/src/commands/bisect/notes.ts
function roundsNote(report, width, rounds, spread) {
  const { alone, atOnce } = roundWaits(report.steps);
  if (spread)
    return `${width} candidates a round, one per runner: ${rounds} rounds of measurement where a halving search takes up to ${report.halving_rounds}; each round's steps ran at once, each on its own runner (perf-bisect.yml's round jobs): ${Math.round(atOnce)} s of build and benchmark, the longest step of each round, where one runner would have taken ${Math.round(alone)} s`;
  return `${width} candidates a round, one per runner: ${rounds} rounds of measurement where a halving search takes up to ${report.halving_rounds}; here a round's steps ran one after another (${Math.round(alone)} s of build and benchmark), on ${width} runners each round lasts as long as its longest step (${Math.round(atOnce)} s)`;
}
function looksAt(report, r, i) {
  const commit = r.commits[i].commit;
  const step = report.steps.findLast((s) => s.candidate.commit === commit);
  const n = step?.attempts.length ?? 0;
  const open = step?.attempts.at(-1)?.cells.find((c) => c.verdict === "inconclusive" && c.looks !== void 0);
  if (report.remeasure === 0 && open)
    return `its comparison's looks (${open.reason ?? `${open.looks} look(s)`})`;
  const rounds = step?.attempts.map((a) => a.rounds).join(", ");
  const why = step?.budget_stop ?? `the most the error budget counted (${1 + report.remeasure})`;
  return `${n} look(s) of ${rounds} rounds (${why})`;
}
function closingNotes(report, r, width, found, spread = false) {
  const n = r.commits.length - 1;
  const short3 = (i) => r.commits[i].commit.slice(0, 10);
  const notes = [
    `error rate: at most ${r.measurements} measurements ((2 + ${searchRounds(n, width)} rounds \xD7 ${width} candidate(s)) steps \xD7 (1 + ${report.remeasure} re-measure)), each judged at ${(r.perStep * 100).toFixed(2)}% confidence, so the chance that any decided step is wrong is at most ${((1 - report.confidence) * 100).toFixed(0)}% (Bonferroni; a step decides "bad" or "good" only when its interval lies wholly on one side of what it is asked: beyond the tolerance for the check, past or short of halfway to the bad end's change for every later step)`,
    `every step compares the candidate against the good commit on this machine, both sides prepared alike; the last step compares the first bad commit against its last good neighbour directly (the confirmation)`
  ];
  if (width > 1) notes.push(roundsNote(report, width, found.rounds, spread));
  const looks = r.current.variants?.compare.looks ?? r.current.spec.compare?.looks ?? 1;
  if (looksRule(r) && report.remeasure === 0)
    notes.push(
      `each step looked again by the check's rule (compare.looks ${looks}): an undecided cell got new blocks of fresh server pairs${report.step_budget_seconds !== void 0 ? ` while the step budget (${Math.round(report.step_budget_seconds)} s) lasted` : ""}, each step's error rate spent over its looks`
    );
  else if (report.step_budget_seconds !== void 0)
    notes.push(
      `each step had ${Math.round(report.step_budget_seconds)} s (its budget): an undecided step measured again with twice the rounds while the next look fit, up to ${1 + report.remeasure} look(s), every one counted in the error rate above`
    );
  if (found.outcome === "inconclusive" && found.onlySkipped)
    notes.push(
      `only commits that do not build lie between ${short3(found.lastGood)} (good) and ${short3(found.firstBad)} (bad): the first bad commit is one of those ${found.firstBad - found.lastGood}, as git bisect says when only skipped commits are left`
    );
  else if (found.outcome === "inconclusive")
    notes.push(
      `stopped undecided at ${short3(found.at)} after ${looksAt(report, r, found.at)}: the first bad commit is one of the ${found.firstBad - found.lastGood} after ${short3(found.lastGood)} up to ${short3(found.firstBad)}; ${report.step_budget_seconds === void 0 ? "a step budget (--budget, each step's looks within it), more rounds (--rounds)" : "a larger step budget (--budget), more rounds (--rounds)"} or a larger tolerance would decide it`
    );
  if (found.outcome === "not-confirmed")
    notes.push(
      `the first bad commit the search found did not regress against its last good neighbour: the change may be spread over several commits, or one of the earlier steps erred`
    );
  return notes;
}

// action/src/commands/bisect/report.ts
function startReport(o, r, width) {
  const n = r.commits.length - 1;
  return {
    format: BISECT_FORMAT,
    version: BISECT_VERSION,
    created_at: (/* @__PURE__ */ new Date()).toISOString(),
    spec: { name: r.current.spec.name, path: o.spec },
    mode: r.mode,
    repository: r.repo,
    good: r.commits[0],
    bad: r.commits[n],
    commits: r.commits.slice(1),
    outcome: "running",
    cells: [],
    confidence: o.confidence ?? 0.95,
    step_confidence: r.perStep,
    max_measurements: r.measurements,
    // a spec that looks again (compare.looks) decides each step by its looks: no re-measure
    remeasure: o.remeasure ?? (looksRule(r) ? 0 : 1),
    ...r.stepBudget !== void 0 ? { step_budget_seconds: r.stepBudget } : {},
    ...width > 1 ? { runners: width } : {},
    halving_rounds: 2 + searchRounds(n),
    steps: [],
    benchmark_seconds: 0,
    build_seconds: 0,
    notes: o.metric ? [`every step judged ${o.metric} (--metric), not the spec's own metrics`] : [],
    ...o.metric ? { metric: o.metric } : {}
  };
}
function settleReport(report, r, width, found, spread) {
  const at = (i) => r.commits[i];
  report.outcome = found.outcome;
  report.rounds = found.rounds;
  if (found.skipped.length) {
    report.skipped = found.skipped.map(at);
    report.notes.push(
      `${found.skipped.length} commit(s) did not build and were gone round (their neighbours measured instead): ${report.skipped.map((c) => c.commit.slice(0, 10)).join(", ")}; each step's skip_reason names its build log`
    );
  }
  if (found.outcome === "found") {
    report.first_bad = at(found.firstBad);
    report.last_good = at(found.lastGood);
  } else if (found.outcome !== "no-regression") {
    report.open_range = {
      after: at(found.lastGood),
      through: at(found.firstBad),
      candidates: found.firstBad - found.lastGood
    };
    if (found.outcome === "not-confirmed")
      report.unconfirmed_candidate = { candidate: at(found.firstBad), against: at(found.lastGood) };
  }
  report.notes.push(...closingNotes(report, r, width, found, spread));
}

// action/src/commands/bisect/rounds.ts
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join as join4 } from "node:path";
function pinnedRefs(dir, good, bad) {
  let files;
  try {
    files = reportFiles(dir);
  } catch {
    return void 0;
  }
  for (const file of files) {
    const parsed = parseBisect(JSON.parse(readFileSync(file, "utf8")));
    const refs = parsed.success ? parsed.data.part?.refs : void 0;
    if (parsed.success && refs?.good === good && refs.bad === bad)
      return { good: parsed.data.good.commit, bad: parsed.data.bad.commit };
  }
  return void 0;
}
var RoundDone = class extends Error {
  constructor(slot, role) {
    super(`round ${slot.round} runner ${slot.runner} (${role}) is not measured here`);
    this.slot = slot;
    this.role = role;
  }
  slot;
  role;
};
var key = (s) => `${s.round}/${s.runner}`;
function reportFiles(dir, depth = 0) {
  if (depth > 6) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join4(dir, name);
    if (statSync(p).isDirectory()) return reportFiles(p, depth + 1);
    return name === "bisect.json" ? [p] : [];
  });
}
function readParts(dir, expect, before = Number.POSITIVE_INFINITY) {
  const steps = /* @__PURE__ */ new Map();
  const legs = /* @__PURE__ */ new Set();
  let later = 0;
  let files;
  try {
    files = reportFiles(dir);
  } catch (e) {
    throw new InputError(`tiperf bisect: --parts ${dir}: ${e.message}`);
  }
  for (const file of files) {
    const parsed = parseBisect(JSON.parse(readFileSync(file, "utf8")));
    if (!parsed.success || !parsed.data.part) continue;
    const p = parsed.data;
    const part = p.part;
    const same = p.good.commit === expect.good.commit && p.bad.commit === expect.bad.commit && p.spec.name === expect.spec.name && (p.runners ?? 1) === (expect.runners ?? 1) && (p.metric ?? "") === (expect.metric ?? "");
    const what = (r) => `${r.spec.name}, ${r.good.commit.slice(0, 10)}..${r.bad.commit.slice(0, 10)}, ${r.runners ?? 1} runner(s)${r.metric ? `, --metric ${r.metric}` : ""}`;
    if (!same)
      throw new InputError(
        `tiperf bisect: --parts: ${file} is a part of another search (${what(p)}); this one is ${what(expect)} (--runners defaults to 1: give every leg and the conclusion the same --runners, --metric and refs)`
      );
    if (part.round >= before) {
      later++;
      continue;
    }
    legs.add(key(part));
    for (const step of p.steps) {
      const k = key({ round: step.round ?? 0, runner: step.runner ?? 0 });
      const had = steps.get(k);
      if (had && had.step.candidate.commit !== step.candidate.commit)
        throw new InputError(
          `tiperf bisect: --parts: round ${step.round} runner ${step.runner} recorded twice, on ${had.step.candidate.commit.slice(0, 10)} and ${step.candidate.commit.slice(0, 10)}`
        );
      steps.set(k, { step, dir: join4(file, "..") });
    }
  }
  return { steps, legs, later };
}
function roundMeasure(share, recorded, steps) {
  let own;
  return async (i, j, role, slot) => {
    const rec = recorded.get(key(slot));
    if (rec) return steps.replay(rec, i, j, role);
    if (slot.round === share.round && slot.runner === share.runner) {
      own = steps.measure(i, j, role, slot);
      return own;
    }
    await Promise.resolve();
    if (own) await own.catch(() => {
    });
    throw new RoundDone(slot, role);
  };
}
function checkRecorded(rec, candidate, against, role) {
  const s = rec.step;
  if (s.candidate.commit !== candidate || s.against.commit !== against || s.role !== role)
    throw new InputError(
      `tiperf bisect: --parts: round ${s.round} runner ${s.runner} measured ${s.candidate.commit.slice(0, 10)} against ${s.against.commit.slice(0, 10)} (${s.role}); the search asks for ${candidate.slice(0, 10)} against ${against.slice(0, 10)} (${role}) there: parts of another range, spec or runner count`
    );
}
var seconds2 = (steps) => ({
  benchmark_seconds: steps.reduce((t, s) => t + s.attempts.reduce((u, a) => u + a.benchmark_seconds, 0), 0),
  build_seconds: steps.reduce((t, s) => t + (s.build_seconds ?? 0), 0)
});
async function legOutcome(b, share, stop, log2) {
  const { report, r } = b;
  if (stop && stop.slot.round < share.round)
    throw new InputError(
      `tiperf bisect --round ${share.round}: no part under --parts ${share.parts} records round ${stop.slot.round} runner ${stop.slot.runner} (${stop.role}): its job failed or was cancelled, and the search cannot go on without it`
    );
  const mine = report.steps.filter((s) => s.round === share.round && s.runner === share.runner);
  const measured = mine[0];
  const ended = !stop || stop.role === "confirm" && stop.slot.round === share.round;
  const where = `round ${share.round}, runner ${share.runner} of ${report.runners ?? 1}`;
  report.notes.push(
    measured ? `${where}: measured ${measured.candidate.commit.slice(0, 10)} against ${measured.against.commit.slice(0, 10)} (${measured.role}): ${measured.mark}` : stop ? `${where}: the search gives this runner no candidate in this round` : `${where}: the search had ended before this round: nothing to measure`
  );
  Object.assign(report, {
    steps: mine,
    part: { round: share.round, runner: share.runner, ...share.refs ? { refs: share.refs } : {} },
    outcome: "running"
  });
  Object.assign(report, seconds2(mine));
  await b.save();
  log2(`bisect ${basename(r.dir)}: ${report.notes.at(-1)}${ended ? "; the search ends with this round" : ""}`);
  return {
    report,
    dir: r.dir,
    jsonPath: b.jsonPath,
    markdownPath: b.markdownPath,
    exitCode: EXIT.ok,
    leg: { ...measured ? { measured } : {}, ended }
  };
}
async function unfinishedOutcome(b, stop, legs, maxRounds, log2) {
  const { report, r } = b;
  const ran = maxRounds ?? Math.max(0, ...[...legs].map((k) => Number(k.split("/")[0])));
  const at = (i) => r.commits[i];
  const done = async (exitCode) => {
    await b.save();
    log2(`bisect: ${report.outcome} \u2014 ${report.notes.at(-1)}; report: ${b.markdownPath}`);
    return { report, dir: r.dir, jsonPath: b.jsonPath, markdownPath: b.markdownPath, exitCode };
  };
  if (stop.slot.round <= ran) {
    report.outcome = "failed";
    report.notes.push(
      `round ${stop.slot.round} runner ${stop.slot.runner} left no step (${stop.role}): its job failed or was cancelled (its log says why); the search stopped there after ${report.steps.length} step(s)`
    );
    return done(EXIT.runFailed);
  }
  const index = (s) => r.commits.findIndex((c) => c.commit === s.candidate.commit);
  const search = report.steps.filter((s) => s.role !== "confirm");
  const lo = Math.max(0, ...search.filter((s) => s.mark === "good").map(index));
  const hi = Math.min(r.commits.length - 1, ...search.filter((s) => s.mark === "bad").map(index));
  report.outcome = "inconclusive";
  report.open_range = { after: at(lo), through: at(hi), candidates: hi - lo };
  report.notes.push(
    `the workflow's ${ran} round job(s) ended before the search did: the first bad commit is one of the ${hi - lo} after ${at(lo).commit.slice(0, 10)} up to ${at(hi).commit.slice(0, 10)}; run the bisect again with those as good and bad`
  );
  return done(EXIT.ok);
}
async function spreadSearch(b, share) {
  const { steps, legs, later } = readParts(share.parts, b.report, share.round);
  if (later)
    b.log(
      `bisect: ${later} part(s) of round ${share.round} or later under ${share.parts} left out: a leg replays the rounds before its own`
    );
  if (share.round === void 0 && legs.size === 0)
    throw new InputError(
      `tiperf bisect --parts ${share.parts}: no round's part there (bisect.json files of --round legs)`
    );
  const measure = roundMeasure(share, steps, b);
  let found;
  let stop;
  try {
    found = await bisectSearch(b.n, measure, b.width);
  } catch (e) {
    if (!(e instanceof RoundDone)) {
      if (share.round === void 0) await b.failed(e);
      throw e;
    }
    stop = e;
  }
  if (share.round !== void 0 && share.runner !== void 0)
    return legOutcome(b, { ...share, round: share.round, runner: share.runner }, stop, (l) => b.log(l));
  return stop ? unfinishedOutcome(b, stop, legs, share.maxRounds, (l) => b.log(l)) : b.conclude(found, true);
}
function pinRounds(o, share) {
  const pinned = pinnedRefs(share.parts, o.good, o.bad);
  if (pinned && (pinned.good !== o.good || pinned.bad !== o.bad))
    o.log(
      `bisect: --good ${o.good} --bad ${o.bad} as the first round resolved them: ${pinned.good.slice(0, 10)}..${pinned.bad.slice(0, 10)}`
    );
  return { ...o, ...pinned, rounds: { ...share, refs: { good: o.good, bad: o.bad } } };
}

// action/src/commands/bisect/step.ts
import { relative, resolve as resolve2 } from "node:path";
function remeasureCompare(given, spec, attempt) {
  if (attempt === 0) return given;
  const rounds = (given.rounds ?? spec?.rounds ?? 6) * 2 ** attempt;
  const blocks = given.blocks ?? spec?.blocks ?? 1;
  const maxRounds = spec?.max_rounds ? Math.max(spec.max_rounds * 2 ** attempt, rounds) : void 0;
  return {
    ...given,
    rounds,
    ...blocks > 1 ? { blocks: blocks * 2 ** attempt } : {},
    ...maxRounds ? { max_rounds: maxRounds } : {}
  };
}
function sourceStep(specFile, plain, against, candidate) {
  const raw = structuredClone(plain.raw);
  raw.variants = {
    base: { target: { source: { ref: against.commit } } },
    head: { target: { source: { ref: candidate.commit } } }
  };
  raw.compare = { ...raw.compare, base: "base", head: "head" };
  return composedSpec(
    raw,
    `${specFile} (${against.commit.slice(0, 10)} vs ${candidate.commit.slice(0, 10)})`,
    specFile
  );
}
function metricOverride(current, metric, tolerance) {
  const own = current.spec.workloads.map((w) => w.judge[metric]?.tolerance).find((t2) => t2 !== void 0);
  const t = tolerance?.[metric] ?? tolerance?.["*"] ?? own ?? DEFAULT_TOLERANCE;
  const costs = kindOf(current.spec.target.kind).costMetrics ?? [];
  const provided = new Set(
    current.spec.workloads.flatMap((w) => {
      const d = driverOf(w.driver);
      return [...Object.keys(d.metrics(w)), ...d.operations(w) ? costs : []];
    })
  );
  if (!provided.has(metric))
    throw new InputError(
      `tiperf bisect: --metric ${metric} is not a metric of ${current.path}'s workloads on target kind ${current.spec.target.kind} (its metrics: ${[...provided].join(", ")})`
    );
  return { [metric]: { tolerance: `${Number((t * 100).toFixed(4))}%` } };
}
function watchOf(regressed) {
  const watched = regressed.map((c) => ({ workload: c.workload, threads: c.threads, metric: c.metric }));
  const badEnd = /* @__PURE__ */ new Map();
  for (const c of regressed) if (c.change !== null) badEnd.set(stepCellKey(c), c.change);
  const cells = regressed.map((c) => ({
    workload: c.workload,
    threads: c.threads,
    metric: c.metric,
    ...c.change !== null ? { bad_change: c.change } : {}
  }));
  const halfway = regressed.filter((c) => c.change !== null).map(
    (c) => `${c.workload} threads=${c.threads} ${c.metric} ${pct(c.change)}: halfway ${pct(midpoint(c.change))}`
  ).join("; ");
  const note = `each later step asks whether its commit is like the good end or the bad end: bad when its interval lies wholly past halfway (log scale) to the bad end's change (${halfway}), good when it lies wholly short of it, else measured again`;
  return { watched, badEnd, cells, note };
}
async function composeStep(o, r, { candidate, against, attempt }, watched, judgedMetrics) {
  const budget = looksRule(r) && r.stepBudget !== void 0 ? { budget: `${Math.floor(r.stepBudget)}s` } : {};
  const known = remeasureCompare(
    { ...o.compare, ...budget, confidence: r.perStep },
    r.current.spec.compare,
    attempt
  );
  const tolerance = o.tolerance ? { tolerance: o.tolerance, toleranceFrom: "--tolerance" } : {};
  const composed = r.mode === "config" ? await prepareSpec({
    spec: relative(r.repo, resolve2(o.spec)),
    cwd: r.repo,
    baseRef: against.commit,
    headRef: candidate.commit,
    compare: known,
    ...tolerance
  }) : sourceStep(
    o.spec,
    await prepareSpec({ spec: o.spec, compare: known, ...tolerance }),
    against,
    candidate
  );
  const cells = watched ? [...new Map(watched.map((c) => [`${c.workload}\0${c.threads}`, c])).values()] : r.only;
  const step = await narrowSpec(composed, cells, { confirm: 0, profiles: 0 }, judgedMetrics);
  return o.profile ? { ...step, profile: o.profile } : step;
}

// action/src/commands/bisect/index.ts
async function bisectSpec(o) {
  if (o.rounds) {
    const pinned = pinRounds(o, o.rounds);
    return spreadSearch(await Bisection.open(pinned), pinned.rounds);
  }
  const b = await Bisection.open(o);
  let found;
  try {
    found = await bisectSearch(b.n, (i, j, role, slot) => b.measure(i, j, role, slot), b.width);
  } catch (e) {
    await b.failed(e);
    throw e;
  }
  return b.conclude(found);
}
var Bisection = class _Bisection {
  constructor(o, r) {
    this.o = o;
    this.r = r;
    this.log = o.log;
    this.n = r.commits.length - 1;
    this.width = o.runners ?? 1;
    this.jsonPath = join5(r.dir, "bisect.json");
    this.markdownPath = join5(r.dir, "bisect.md");
    this.judgedMetrics = o.metric ? metricOverride(r.current, o.metric, o.tolerance) : void 0;
    this.report = startReport(o, r, this.width);
  }
  o;
  r;
  n;
  width;
  /** One step at a time on this machine: a round's candidates queue here. */
  queue = Promise.resolve();
  report;
  jsonPath;
  markdownPath;
  watched;
  /** Each watched cell's change at the bad end: what later steps ask whether they are like. */
  badEnd = /* @__PURE__ */ new Map();
  judgedMetrics;
  log;
  static async open(o) {
    const r = await rangeOf(o);
    mkdirSync(join5(r.dir, "steps"), { recursive: true });
    const b = new _Bisection(o, r);
    const check = await b.stepSpec(r.commits[b.n], r.commits[0], 0);
    b.sizeLooks(check);
    await b.planCheck(check);
    const { good, bad, confidence } = b.report;
    const here = b.width > 1 && !o.rounds ? `; ${b.width} candidates a round, measured here one after another` : "";
    o.log(
      `bisect ${basename2(r.dir)}: ${b.n} commit(s) after ${good.commit.slice(0, 10)} up to ${bad.commit.slice(0, 10)} (${r.mode}: ${r.repo}); at most ${r.measurements} measurements at ${(r.perStep * 100).toFixed(2)}% each for ${Math.round(confidence * 100)}% over the search${here}`
    );
    await b.save();
    return b;
  }
  /**
   * With a step budget and no --remeasure: how many looks a step may take, sized on the check's
   * benchmark time (its cells × rounds) and counted into the error budget before the first step.
   */
  sizeLooks(check) {
    const { o, r, report } = this;
    if (r.stepBudget === void 0 || o.remeasure !== void 0 || looksRule(r)) return;
    report.remeasure = looksWithin(r.stepBudget, matrixSeconds(check)) - 1;
    r.measurements = maxMeasurements(this.n, report.remeasure, this.width);
    r.perStep = stepConfidence(report.confidence, r.measurements);
    report.max_measurements = r.measurements;
    report.step_confidence = r.perStep;
  }
  /**
   * The check's comparison planned before any build or server: what its run would refuse (a duet's
   * swap cycles, a budget) is refused now, not after minutes of builds.
   */
  async planCheck(check) {
    const plan = await planRun(check, { command: "compare" });
    if (plan.refusals.length)
      throw new InputError(`tiperf bisect: each step would be refused:
${plan.refusals.join("\n")}`);
  }
  /** bisect.json (what a reader is handed is what the schema allows) and bisect.md. */
  async save() {
    BisectReportSchema.parse(this.report);
    await writeAtomic(this.jsonPath, `${JSON.stringify(this.report, null, 2)}
`);
    await writeAtomic(this.markdownPath, bisectMarkdown(this.report));
  }
  /** The step's spec: `against` as base, `candidate` as head, narrowed to the watched cells. */
  stepSpec(candidate, against, attempt) {
    return composeStep(this.o, this.r, { candidate, against, attempt }, this.watched, this.judgedMetrics);
  }
  /** A step an earlier round's leg measured (perf-bisect.yml), taken as the search's answer there. */
  replay(rec, i, j, role) {
    const { r, report } = this;
    checkRecorded(rec, r.commits[i].commit, r.commits[j].commit, role);
    const attempts = rec.step.attempts.map((a) => ({
      ...a,
      run_dir: relative2(r.dir, join5(rec.dir, a.run_dir))
    }));
    const step = { ...rec.step, attempts };
    report.steps.push(step);
    report.rounds = step.round;
    report.benchmark_seconds += attempts.reduce((sum, a) => sum + a.benchmark_seconds, 0);
    report.build_seconds += step.build_seconds ?? 0;
    if (role === "check" && step.mark === "bad")
      this.watch((attempts.at(-1)?.cells ?? []).filter((c) => c.verdict === "regression"));
    return step.mark;
  }
  /** A step: candidate i against j, measured again (more rounds) while it is undecided. */
  measure(i, j, role, slot) {
    const next = this.queue.then(() => this.measureNow(i, j, role, slot));
    this.queue = next.catch(() => {
    });
    return next;
  }
  async measureNow(i, j, role, slot) {
    const { o, report } = this;
    const candidate = this.r.commits[i];
    const against = this.r.commits[j];
    const step = { role, candidate, against, mark: "unknown", attempts: [], ...slot };
    report.rounds = slot.round;
    report.steps.push(step);
    let spent = 0;
    let last = 0;
    for (let attempt = 0; attempt <= report.remeasure; attempt++) {
      if (attempt > 0 && !this.nextLook(step, spent, last)) break;
      const began = Date.now();
      o.log(
        `bisect step ${report.steps.length} (${role}${this.width > 1 ? `, round ${slot.round} runner ${slot.runner}` : ""}${attempt ? `, re-measure ${attempt}` : ""}): ${candidate.commit.slice(0, 10)} ${candidate.subject} against ${against.commit.slice(0, 10)}`
      );
      const spec = await this.built(await this.stepSpec(candidate, against, attempt), step);
      if (spec === "skip") return "skip";
      const outcome = await compareSpec(spec, {
        outDir: join5(this.r.dir, "steps"),
        log: o.log,
        signal: o.signal
      });
      this.recordAttempt(step, outcome);
      last = (Date.now() - began) / 1e3;
      spent += last;
      await this.save();
      o.log(
        `bisect step ${report.steps.length}: ${step.mark} (${outcome.verdict.verdict}, ${outcome.verdict.rounds} rounds)`
      );
      if (step.mark !== "unknown") break;
    }
    return step.mark;
  }
  /**
   * Whether an undecided step looks again: always without a step budget, else only when the next
   * look (twice the rounds, taken as twice the last look's time) fits what is left of it.
   */
  nextLook(step, spent, last) {
    const budget = this.r.stepBudget;
    if (budget === void 0 || nextLookFits(budget, spent, last)) return true;
    step.budget_stop = `after ${step.attempts.length} look(s) in ${Math.round(spent)} s: the next (~${Math.round(2 * last)} s) would pass the step budget of ${Math.round(budget)} s`;
    this.o.log(`bisect step ${this.report.steps.length}: undecided, ${step.budget_stop}`);
    return false;
  }
  /**
   * A source step's builds; a candidate that does not build is gone round (git bisect skip), any
   * other failure stops the search.
   */
  async built(spec, step) {
    if (this.r.mode !== "source") return spec;
    let done;
    try {
      done = await withSourceBuilds(spec, this.o);
    } catch (e) {
      if (!(e instanceof BuildFailed) || e.commit !== step.candidate.commit || step.role === "check") throw e;
      step.mark = "skip";
      step.skip_reason = e.message.split("\n")[0];
      await this.save();
      this.o.log(
        `bisect step ${this.report.steps.length}: skipped, ${step.candidate.commit.slice(0, 10)} does not build`
      );
      return "skip";
    }
    const seconds3 = (done.builds ?? []).filter((b) => !b.kept).reduce((s, b) => s + b.seconds, 0);
    step.build_seconds = (step.build_seconds ?? 0) + seconds3;
    this.report.build_seconds += seconds3;
    return done;
  }
  /** An attempt's comparison, judged as a bisect asks: like the good end, or like the bad end. */
  recordAttempt(step, outcome) {
    const { verdict } = outcome;
    const mark = stepMark(verdict.cells, this.watched, step.role === "check" ? void 0 : this.badEnd);
    step.attempts.push({
      mark,
      verdict: verdict.verdict,
      rounds: verdict.rounds,
      benchmark_seconds: verdict.benchmark_seconds,
      run_dir: relative2(this.r.dir, dirname3(outcome.verdictPath)),
      cells: verdict.cells
    });
    this.report.benchmark_seconds += verdict.benchmark_seconds;
    step.mark = mark;
    if (step.role === "check" && mark === "bad")
      this.watch(verdict.cells.filter((c) => c.verdict === "regression"));
  }
  /** The bad end's regressed cells: watched by every later step, each one's change its yardstick. */
  watch(regressed) {
    const w = watchOf(regressed);
    this.watched = w.watched;
    for (const [k, v] of w.badEnd) this.badEnd.set(k, v);
    this.report.cells = w.cells;
    this.report.notes.push(w.note);
  }
  /** What was measured stays: the steps so far, and why the next one failed. */
  async failed(e) {
    this.report.outcome = "failed";
    this.report.notes.push(`step ${this.report.steps.length} failed: ${e.message}`);
    await this.save();
  }
  /** The search's answer (or the range it leaves), its notes, the report's last save. */
  async conclude(found, spread = false) {
    const { report, r } = this;
    settleReport(report, r, this.width, found, spread);
    await this.save();
    this.o.log(
      `bisect: ${report.outcome}${report.first_bad ? ` \u2014 first bad ${report.first_bad.commit.slice(0, 10)} ${report.first_bad.subject}` : ""}; report: ${this.markdownPath}`
    );
    return {
      report,
      dir: r.dir,
      jsonPath: this.jsonPath,
      markdownPath: this.markdownPath,
      exitCode: report.outcome === "found" ? EXIT.regression : EXIT.ok
    };
  }
};

// action/src/commands/bisect/options.ts
import { existsSync, statSync as statSync2 } from "node:fs";
async function changesRange(file, given, spec, loaded) {
  if (given.good || given.bad || given.only)
    throw new InputError(
      "tiperf bisect: --changes names good, bad and the cell itself: leave out --good, --bad and --only"
    );
  const changes = await readChangePoints(file);
  if (!changes)
    throw new InputError(
      `tiperf bisect: --changes ${file} is not a change-point report (tiperf history check --json)`
    );
  const range = bisectRange(changes, loaded.spec.name);
  if (!range) {
    process.stdout.write(
      `no new change point for the worse with its commits recorded in ${file}: nothing to bisect
`
    );
    return EXIT.ok;
  }
  if (await commitsBetween(spec, loaded, range.good, range.bad) === 1) {
    process.stdout.write(
      `one commit between the runs: ${range.bad} is the first bad one; nothing to bisect
`
    );
    return EXIT.ok;
  }
  return { good: range.good, bad: range.bad, only: [{ workload: range.workload, threads: range.threads }] };
}
function onlyCells(value, spec) {
  if (!value) return void 0;
  return value.split(",").flatMap((part) => {
    const m = /^([A-Za-z0-9_.-]+)(?::(\d+))?$/.exec(part.trim());
    const w = m ? spec.spec.workloads.find((x) => x.name === m[1]) : void 0;
    if (!m || !w)
      throw new InputError(
        `tiperf bisect: --only must be WORKLOAD or WORKLOAD:THREADS, comma-separated, of ${spec.path}'s workloads (${spec.spec.workloads.map((x) => x.name).join(", ")}) (got ${JSON.stringify(part)})`
      );
    return m[2] ? [{ workload: w.name, threads: Number(m[2]) }] : w.threads.map((threads) => ({ workload: w.name, threads }));
  });
}
function roundShare(str, runners) {
  const [round2, runner, parts, most] = [str("round"), str("runner"), str("parts"), str("max-rounds")];
  if (round2 === void 0 && runner === void 0 && parts === void 0 && most === void 0)
    return void 0;
  if (parts === void 0)
    throw new InputError(
      "tiperf bisect: --round, --runner and --max-rounds need --parts DIR (the earlier rounds' parts; an empty folder for round 1)"
    );
  if (!existsSync(parts) || !statSync2(parts).isDirectory())
    throw new InputError(
      `tiperf bisect: --parts ${parts} must be a folder (empty for round 1): ${existsSync(parts) ? "it is a file" : "there is none"}`
    );
  const maxRounds = most === void 0 ? void 0 : Number(most);
  if (maxRounds !== void 0 && (!Number.isInteger(maxRounds) || maxRounds < 1 || maxRounds > 64))
    throw new InputError(
      `tiperf bisect: --max-rounds must be a whole number from 1 to 64 (got ${JSON.stringify(most)})`
    );
  if (round2 === void 0 !== (runner === void 0))
    throw new InputError(
      "tiperf bisect: give --round R and --runner K together (one leg of a round), or neither (--parts alone concludes)"
    );
  if (round2 === void 0) return { parts, ...maxRounds !== void 0 ? { maxRounds } : {} };
  if (maxRounds !== void 0)
    throw new InputError(
      "tiperf bisect: --max-rounds is the conclusion's (--parts alone), not a leg's (--round)"
    );
  const r = Number(round2);
  const k = Number(runner);
  if (!Number.isInteger(r) || r < 1 || r > 64)
    throw new InputError(
      `tiperf bisect: --round must be a whole number from 1 to 64 (got ${JSON.stringify(round2)})`
    );
  if (!Number.isInteger(k) || k < 1 || k > runners)
    throw new InputError(
      `tiperf bisect: --runner must be a whole number from 1 to --runners (${runners}) (got ${JSON.stringify(runner)})`
    );
  return { parts, round: r, runner: k };
}
async function bisectRequest(d) {
  const r = new Refusals(d.prefix);
  const str = (k) => d.get(k);
  const spec = str("spec");
  if (spec === void 0) r.refuse(d.missing("spec"));
  const remeasure = str("remeasure") === void 0 ? void 0 : Number(str("remeasure"));
  if (remeasure !== void 0 && (!Number.isInteger(remeasure) || remeasure < 0 || remeasure > 3))
    r.refuse(
      `tiperf bisect: --remeasure must be a whole number from 0 to 3 (got ${JSON.stringify(str("remeasure"))})`
    );
  const runners = Number(str("runners") ?? "1");
  if (!Number.isInteger(runners) || runners < 1 || runners > 16)
    r.refuse(
      `tiperf bisect: --runners must be a whole number of runners from 1 to 16 (got ${JSON.stringify(str("runners"))})`
    );
  const rounds = r.check(() => roundShare(str, runners));
  const compare = r.check(
    () => compareOverrides(
      (k) => k === "confidence" ? void 0 : str(k),
      (k) => d.say(k)
    )
  );
  const tolerance = r.check(() => parseTolerance(str("tolerance") ?? "", d.say("tolerance")));
  const confidence = r.check(() => confidenceFlag("bisect", str("confidence")));
  const json = str("json");
  if (json !== void 0) await r.checkAsync(() => checkOutFile(json, d.say("json")));
  r.done();
  const loaded = await loadSpec(spec);
  const given = { good: str("good"), bad: str("bad"), only: onlyCells(str("only"), loaded) };
  const range = str("changes") ? await changesRange(str("changes"), given, spec, loaded) : given;
  if (typeof range === "number") return { nothing: range };
  const { good, bad, only } = range;
  if (!good || !bad)
    throw new InputError("tiperf bisect: give --good REF and --bad REF (or --changes CHANGEPOINTS_JSON)");
  return {
    spec,
    good,
    bad,
    ...only ? { only } : {},
    compare: compare ?? {},
    tolerance: tolerance ?? {},
    ...str("metric") ? { metric: str("metric") } : {},
    confidence: confidence ?? 0.95,
    ...remeasure !== void 0 ? { remeasure } : {},
    runners,
    ...rounds ? { rounds } : {},
    ...str("profile") ? { profile: str("profile") } : {},
    outDir: str("out") ?? "results",
    ...json !== void 0 ? { json } : {}
  };
}

// action/src/commands/bisect/cli.ts
async function cmdBisect(args, signal) {
  const { values, positionals } = flags("bisect", args, parseOptions("bisect"));
  if (positionals.length > 0) throw new InputError(`tiperf bisect: unexpected argument ${positionals[0]}`);
  const request = await bisectRequest(flagDoor("bisect", values));
  if ("nothing" in request) return request.nothing;
  const { json, ...options } = request;
  const outcome = await bisectSpec({ ...options, log, signal });
  if (json) await writeAtomic(json, `${JSON.stringify(outcome.report, null, 2)}
`);
  if (outcome.leg) {
    const m = outcome.leg.measured;
    process.stdout.write(
      `${m ? `measured ${m.candidate.commit} ${m.mark}` : "idle"}
${outcome.leg.ended ? "ended\n" : ""}`
    );
    return outcome.exitCode;
  }
  const { first_bad, open_range } = outcome.report;
  const named = first_bad ? ` ${first_bad.commit}` : open_range ? ` ${open_range.after.commit}..${open_range.through.commit}` : "";
  process.stdout.write(`${outcome.report.outcome}${named}
`);
  return outcome.exitCode;
}

// action/src/commands/calibrate/index.ts
var import_yaml2 = __toESM(require_dist(), 1);
import { readFile as readFile3, writeFile } from "node:fs/promises";

// action/src/specfile/noise-edit.ts
var import_yaml = __toESM(require_dist(), 1);
var indent = (text, by) => text.trimEnd().split("\n").map((l) => `${" ".repeat(by)}${l}`).join("\n");
var columnOf = (text, offset) => offset - (text.lastIndexOf("\n", offset - 1) + 1);
function withNoise(text, noise, file) {
  const doc = (0, import_yaml.parseDocument)(text);
  if (doc.errors.length)
    throw new InputError(`${file}: invalid YAML: ${doc.errors[0]?.message.split("\n")[0]}`);
  const block = (0, import_yaml.stringify)({ noise }, { lineWidth: 0 });
  const compare = doc.get("compare", true);
  if (compare === void 0 || compare === null) {
    const sep2 = text === "" || text.endsWith("\n") ? "" : "\n";
    return `${text}${sep2}compare:
${indent(block, 2)}
`;
  }
  if (!(0, import_yaml.isMap)(compare) || !compare.range)
    throw new InputError(`${file}: compare: must be a mapping to take compare.noise`);
  const items = compare.items;
  if (compare.flow) {
    const kept = items.filter((p) => p.key?.value !== "noise").map((p) => {
      const k = p.key.range;
      const v = p.value?.range;
      return text.slice(k?.[0] ?? 0, v?.[1] ?? k?.[1] ?? 0);
    });
    const opened = `
${indent([...kept, block].join("\n"), 2)}`;
    return `${text.slice(0, compare.range[0]).trimEnd()}${opened}${text.slice(compare.range[1])}`;
  }
  const first = items[0]?.key;
  const column = first?.range ? columnOf(text, first.range[0]) : 2;
  const there = items.find((p) => p.key?.value === "noise");
  if (there) {
    const start = there.key.range[0];
    const end2 = there.value.range[1];
    const tail = text.slice(start, end2).endsWith("\n") ? "\n" : "";
    return `${text.slice(0, start)}${indent(block, column).trimStart()}${tail}${text.slice(end2)}`;
  }
  const end = compare.range[1];
  const before = text.slice(0, end);
  const sep = before.endsWith("\n") ? "" : "\n";
  return `${before}${sep}${indent(block, column)}
${text.slice(end)}`;
}

// action/src/commands/calibrate/index.ts
function calibrationSpec(file, raw) {
  const { variants, compare, ...rest } = raw;
  const own = variants ?? {};
  const given = compare ?? {};
  const control = String(given.control ?? given.base ?? Object.keys(own)[0] ?? "base");
  const side = own[control] ?? {};
  const { noise: _n, base: _b, head: _h, control: _c, max_rounds: _m, ...design } = given;
  return composedSpec(
    {
      ...rest,
      variants: { base: side, head: side },
      compare: { ...design, base: "base", head: "head", confirm: 0, profiles: 0 }
    },
    `${file} (A/A of its design, to calibrate)`,
    file
  );
}
function execCalibrate(request, io) {
  const { spec, ...rest } = request;
  return calibrate(spec, { ...rest, ...io });
}
async function calibrate(file, opts) {
  const text = await readFile3(file, "utf8").catch((e) => {
    throw new InputError(
      `tiperf calibrate: --spec ${file}: ${e.code === "ENOENT" ? "no such file" : e.message}`
    );
  });
  const raw = (0, import_yaml2.parseDocument)(text).toJS();
  const loaded = calibrationSpec(file, raw);
  const resultPath = opts.fromResult ?? (await runCalibration(file, loaded, opts)).resultPath;
  const result = await readResult(resultPath);
  if (opts.fromResult) aaOf(result, loaded, opts.fromResult);
  const noise = noiseFromResult(
    result,
    loaded,
    opts.fromResult ? `an A/A of this design (tiperf calibrate --from-result)` : void 0,
    (w, m) => opts.log(
      `calibrate: no noise of ${m} for ${w}: the A/A gave no two rounds of it (its smallest change stays unknown)`
    )
  );
  const into = opts.into ?? file;
  const base = into === file ? text : await readFile3(into, "utf8").catch(() => "");
  await writeFile(into, withNoise(base, noise, into));
  opts.log(
    `calibrate: compare.noise written into ${into}; commit it, and \`tiperf plan\` states the smallest change each cell detects from it`
  );
  return { noise, written: into, resultPath };
}
function runCalibration(file, loaded, opts) {
  opts.log(`calibrate: ${file} against itself, ${loaded.variants?.compare.rounds} rounds`);
  return compareSpec(loaded, { outDir: opts.outDir, log: opts.log, signal: opts.signal });
}
function aaOf(result, loaded, file) {
  const refuse = (why) => {
    throw new InputError(`tiperf calibrate: --from-result ${file} ${why}`);
  };
  if (result.status !== "complete")
    refuse(`is ${result.status}: calibrate reads a complete A/A (every round of its design)`);
  const measured = result.cells.filter((c) => c.round > 0 && c.status === "ok");
  const missing = (loaded.variants?.base.spec ?? loaded.spec).workloads.map((w) => w.name).filter((w) => !["base", "head"].every((v) => measured.some((c) => c.workload === w && c.variant === v)));
  if (missing.length)
    refuse(
      `has no measured base and head cells of ${missing.join(", ")}: it is not an A/A of this spec's design`
    );
  const variants = result.spec.body.variants ?? {};
  const side = (t) => JSON.stringify([t.version, t.build?.commit ?? "", t.config, t.details?.build ?? ""]);
  const sides = new Set(result.targets.filter((t) => t.variant === "base" || t.variant === "head").map(side));
  if (JSON.stringify(variants.base ?? {}) !== JSON.stringify(variants.head ?? {}) || sides.size > 1)
    refuse(
      "ran different targets on its two sides (its variants, version, build, configuration or binary): an A/A runs one on both"
    );
  const compare = loaded.variants?.compare;
  const perBlock = (rounds, blocks2) => rounds / Math.max(1, blocks2);
  const ran = Math.max(0, ...measured.map((c) => c.round));
  const blocks = new Set(measured.map((c) => c.block ?? 1)).size;
  if (compare && perBlock(ran, blocks) !== perBlock(compare.rounds, compare.blocks ?? 1))
    refuse(
      `ran ${perBlock(ran, blocks)} round(s) per block (${ran} in ${blocks}), the spec's design ${perBlock(compare.rounds, compare.blocks ?? 1)}: the noise of one design is not another's`
    );
}

// action/src/commands/calibrate/options.ts
async function calibrateRequest(d, o) {
  const r = new Refusals(d.prefix);
  if (d.get("spec") === void 0) r.refuse(d.missing("spec"));
  const spec = r.check(() => fileOption(d, "spec"));
  const into = d.get("write");
  if (into !== void 0) await r.checkAsync(() => checkOutFile(into, d.say("write")));
  const fromResult = r.check(() => fileOption(d, "from-result"));
  r.done();
  return {
    spec,
    outDir: d.get("out") ?? o.out,
    ...into !== void 0 ? { into } : {},
    ...fromResult !== void 0 ? { fromResult } : {}
  };
}

// action/src/commands/calibrate/cli.ts
async function cmdCalibrate(args, signal) {
  const { values, positionals } = flags("calibrate", args, parseOptions("calibrate"));
  if (positionals.length > 0) throw new InputError(`tiperf calibrate: unexpected argument ${positionals[0]}`);
  const request = await calibrateRequest(flagDoor("calibrate", values), { out: "results" });
  const out = await execCalibrate(request, { log, signal });
  process.stdout.write(`${out.written}
`);
  return EXIT.ok;
}

// action/src/commands/comment/cli.ts
async function cmdComment(args) {
  const { values, positionals } = flags("comment", args, parseOptions("comment"));
  const verdictFile = onePositional("comment", positionals, "VERDICT_JSON file");
  const { owner, repo } = parseRepo(required("comment", "repo", values.repo));
  const pr = parsePr(required("comment", "pr", values.pr));
  const token = githubToken("comment");
  const verdict = await readVerdict(verdictFile);
  const outcome = await publishVerdict(verdict, {
    pr: { owner, repo, pr },
    token,
    matrix: values.matrix,
    fullReport: "the run's report artifact",
    deadlines: deadlines("comment", values),
    log
  });
  process.stdout.write(`${outcome.status}${outcome.commentId ? ` ${outcome.commentId}` : ""}
`);
  return EXIT.ok;
}

// action/src/commands/compare/cli.ts
async function cmdCompare(args, signal) {
  const { values, positionals } = flags("compare", args, parseOptions("compare"));
  if (positionals.length > 0)
    throw new InputError(`tiperf compare: unexpected argument ${positionals[0]}; use --spec FILE`);
  const { request, json } = await compareRequest(flagDoor("compare", values), { out: "results" });
  const outcome = await execCompare(request, { log, signal });
  await writeJson(json, outcome.verdict);
  log(`verdict: ${outcome.verdict.verdict} (${outcome.verdictPath}); report: ${outcome.reportPath}`);
  process.stdout.write(`${outcome.verdict.verdict}
`);
  return outcome.exitCode;
}

// action/src/commands/diff/cli.ts
import { existsSync as existsSync2, realpathSync } from "node:fs";
async function cmdDiff(args) {
  const { values, positionals } = flags("diff", args, parseOptions("diff"));
  const [baseFile, headFile, extra] = positionals;
  if (!baseFile || !headFile || extra)
    throw new InputError(
      "tiperf diff: give exactly two results (result.json files or run directories): BASE_RESULT HEAD_RESULT"
    );
  if (!existsSync2(baseFile)) {
    throw new InputError(
      `tiperf diff: no baseline at ${baseFile} (a missing baseline is never a pass: create one with tiperf baseline update)`
    );
  }
  const base = {
    result: await readResult(baseFile),
    file: baseFile,
    variant: values["base-variant"]
  };
  const head = {
    result: await readResult(headFile),
    file: headFile,
    variant: values["head-variant"]
  };
  const refused = new Refusals("tiperf diff: ");
  for (const [flag, side] of [
    ["--base-variant", base],
    ["--head-variant", head]
  ]) {
    const names = variantsOf(side.result);
    if (side.variant !== void 0 && !names.includes(side.variant))
      refused.refuse(
        `${flag} ${side.variant}: not a variant of ${side.file} (its variants: ${names.join(", ")})`
      );
  }
  refused.done();
  const { bv, hv } = sidesOf(base, head);
  if (realpathSync(resultFileOf(baseFile)) === realpathSync(resultFileOf(headFile)) && bv === hv)
    log(
      `warning: diff: ${baseFile} and ${headFile} are the same file and ${bv} is judged against itself: every change is zero by construction, which says nothing about performance`
    );
  const verdict = judgeStored(base, head, {
    confidence: confidenceFlag("diff", values.confidence),
    force: values.force === true
  });
  await writeJson(values.json, verdict);
  process.stdout.write(commentMarkdown(verdict));
  return exitCodeOf(verdict);
}

// action/src/report/gab.ts
function metricsOf(better, cells) {
  const all = cells.flatMap((c) => Object.entries(c.metrics));
  return [...new Set(all.filter(([, m]) => m.better === better && m.unit !== "count").map(([n]) => n))];
}
var UNITS = {
  tps: "transactions/s",
  qps: "queries/s",
  ops: "operations/s",
  tpmc: "transactions/min",
  tpm_total: "transactions/min"
};
var unitOf = (metric, cells) => UNITS[metric] ?? cells.find((c) => c.metrics[metric])?.metrics[metric]?.unit ?? "";
var label = (metric) => `${metricName(metric)}${isLatency(metric) ? " latency" : ""}`;
var sd = (xs) => xs.length < 2 ? 0 : stddev(xs);
var round = (x) => Number(x.toPrecision(6));
function gabEntries(result, better, variant) {
  const variants = [...new Set(result.cells.map((c) => c.variant))];
  const chosen = variant ?? (variants.includes("head") ? "head" : variants[variants.length - 1]);
  if (chosen === void 0 || !variants.includes(chosen)) {
    throw new InputError(
      `--variant ${variant ?? ""}: the result has ${variants.length ? `variants ${variants.join(", ")}` : "no cells"}`
    );
  }
  const cells = result.cells.filter((c) => c.variant === chosen && c.status === "ok" && c.round > 0);
  const out = [];
  const keys = [...new Map(cells.map((c) => [`${c.workload}\0${c.threads}`, c])).values()];
  for (const metric of metricsOf(better, cells)) {
    for (const k of keys) {
      const same = cells.filter((c) => c.workload === k.workload && c.threads === k.threads);
      const values = same.map((c) => c.metrics[metric]?.value).filter((x) => x !== void 0 && Number.isFinite(x));
      if (values.length === 0) continue;
      const spread = values.length > 1 ? sd(values) : better === "higher" ? sd(
        (same[0]?.intervals ?? []).filter((i) => !i.warmup).map((i) => i.values[metric]).filter((x) => x !== void 0)
      ) : 0;
      out.push({
        name: `${result.spec.name}/${k.workload}/threads=${k.threads}/${label(metric)}`,
        unit: unitOf(metric, same),
        value: round(mean(values)),
        ...spread > 0 ? { range: `\xB1 ${round(spread)}` } : {},
        extra: [
          `${values.length} round(s) of ${k.script}, ${k.duration_s}s each`,
          values.length > 1 ? "range: sd over rounds" : spread > 0 ? "range: sd of the interval samples" : "",
          `run ${result.run_id}, variant ${chosen}`,
          `raw: ${same.map((c) => c.raw_log).join(", ")}`
        ].filter(Boolean).join("\n")
      });
    }
  }
  return out;
}

// action/src/commands/export/cli.ts
async function cmdExport(args) {
  const { values, positionals } = flags("export", args, parseOptions("export"));
  const [format, ...rest] = positionals;
  if (format !== "gab")
    throw new InputError(`tiperf export: the format must be gab (got ${format ?? "nothing"})`);
  const file = onePositional("export gab", rest, "RESULT file");
  const out = required("export gab", "out", values.out);
  const better = values.better ?? "higher";
  if (better !== "higher" && better !== "lower")
    throw new InputError(
      `tiperf export gab: --better must be higher (TPS/QPS, customBiggerIsBetter) or lower (latency, customSmallerIsBetter) (got ${better})`
    );
  const entries = gabEntries(await readResult(file), better, values.variant);
  if (entries.length === 0)
    throw new InputError(`tiperf export gab: ${file} has no finished cells to export`);
  await writeJson(out, entries);
  log(
    `export: ${entries.length} ${better === "higher" ? "customBiggerIsBetter" : "customSmallerIsBetter"} entries in ${out}`
  );
  process.stdout.write(`${out}
`);
  return EXIT.ok;
}

// action/src/history/accepted.ts
var ACCEPTED_SLACK = 2;
var COMMENT_PAGES = 10;
function acceptanceFor(series, point, acceptances) {
  for (const a of acceptances)
    for (const c of a.cells)
      if (c.workload === series.workload && c.metric === series.metric && Math.sign(c.change) === Math.sign(point.change) && Math.abs(point.change) <= ACCEPTED_SLACK * Math.abs(c.change))
        return { by: a.by, pr: a.pr, commit: a.commit, change: c.change };
  return void 0;
}
async function acceptancesBetween(gh, repo, from, to) {
  const compare = await gh.rest.repos.compareCommits({ ...repo, base: from, head: to, per_page: 100 });
  const seen = /* @__PURE__ */ new Set();
  const out = [];
  for (const c of compare.data.commits) {
    const pulls = await gh.rest.repos.listPullRequestsAssociatedWithCommit({ ...repo, commit_sha: c.sha });
    for (const pr of pulls.data) {
      if (!pr.merged_at || seen.has(pr.number)) continue;
      seen.add(pr.number);
      let pages = 0;
      for await (const page of gh.paginate.iterator(gh.rest.issues.listComments, {
        ...repo,
        issue_number: pr.number,
        per_page: 100
      })) {
        for (const comment of page.data) {
          const record = comment.body ? acceptedRecord(comment.body) : void 0;
          if (record && record.commit === pr.head.sha) out.push({ ...record, pr: pr.number });
        }
        if (++pages >= COMMENT_PAGES) break;
      }
    }
  }
  return out;
}
async function markAccepted(report, lookup) {
  const ranges = /* @__PURE__ */ new Map();
  const marked2 = [];
  for (const f of report.files)
    for (const s of f.series)
      for (const p of s.points) {
        if (!p.new || !p.worse || !p.commit || !p.previous_commit || p.commit === p.previous_commit) continue;
        const key2 = `${p.previous_commit}...${p.commit}`;
        if (!ranges.has(key2)) ranges.set(key2, lookup(p.previous_commit, p.commit));
        const accepted = acceptanceFor(s, p, await ranges.get(key2));
        if (!accepted) continue;
        p.accepted = accepted;
        marked2.push({ series: `${s.workload} threads=${s.threads} ${s.metric}`, point: p });
      }
  return marked2;
}

// action/src/history/html.ts
function chart(s) {
  const W = 640;
  const H = 200;
  const pad = { l: 60, r: 10, t: 10, b: 24 };
  const n = s.values.length;
  const lo = Math.min(...s.values);
  const hi = Math.max(...s.values);
  const span = hi - lo || Math.abs(hi) || 1;
  const x = (i) => pad.l + (n > 1 ? i / (n - 1) * (W - pad.l - pad.r) : (W - pad.l - pad.r) / 2);
  const y = (v) => pad.t + (1 - (v - (lo - span * 0.1)) / (span * 1.2)) * (H - pad.t - pad.b);
  const dots = s.values.map(
    (v, i) => `<circle cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3" fill="#0969da"><title>${esc(s.run_ids[i])}: ${v.toPrecision(5)}</title></circle>`
  ).join("");
  const line = `<polyline fill="none" stroke="#0969da" stroke-opacity="0.4" points="${s.values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ")}"/>`;
  const levels = segmentsOf(
    s.values,
    s.points.map((p) => ({ index: p.index, p: p.p, q: 0 }))
  ).map(
    (g) => `<line x1="${x(g.from).toFixed(1)}" x2="${x(g.to - 1).toFixed(1)}" y1="${y(g.mean).toFixed(1)}" y2="${y(g.mean).toFixed(1)}" stroke="#57606a" stroke-dasharray="4 3"/>`
  ).join("");
  const marks = s.points.map((p) => {
    const cx = (x(p.index - 1) + x(p.index)) / 2;
    const color = p.worse ? "#cf222e" : "#1a7f37";
    return `<line class="change-point" data-run="${esc(p.run_id)}" x1="${cx.toFixed(1)}" x2="${cx.toFixed(1)}" y1="${pad.t}" y2="${H - pad.b}" stroke="${color}" stroke-width="2"/><text x="${(cx + 4).toFixed(1)}" y="${pad.t + 12}" font-size="11" fill="${color}">${(p.change * 100).toFixed(1)}% (p ${p.p.toFixed(3)})</text>`;
  }).join("");
  const axis = `<text x="4" y="${y(hi).toFixed(1)}" font-size="11">${hi.toPrecision(4)}</text><text x="4" y="${y(lo).toFixed(1)}" font-size="11">${lo.toPrecision(4)}</text><text x="${pad.l}" y="${H - 6}" font-size="11">${esc(s.run_ids[0] ?? "")}</text><text x="${W - pad.r}" y="${H - 6}" font-size="11" text-anchor="end">${esc(s.run_ids.at(-1) ?? "")}</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" role="img" aria-label="${esc(`${s.workload} threads=${s.threads} ${s.metric}`)}">${axis}${line}${levels}${dots}${marks}</svg>`;
}
var methodLine = (r) => `Change points: E-divisive means, permutation test (${r.permutations} permutations, p \u2264 ${r.pvalue}); red: worse, green: better; dashed: the levels between them.`;
function historySections(r, heading, spec) {
  const sub = heading === "h2" ? "h3" : "h4";
  const parts = [];
  for (const f of r.files) {
    if (spec !== void 0 && f.spec !== spec) continue;
    parts.push(
      `<${heading}>${esc(f.spec)} on ${esc(f.profile)} <small>(${f.runs} runs)</small></${heading}>`
    );
    for (const s of f.series)
      parts.push(
        `<section data-series="${esc(`${s.workload}/${s.threads}/${s.metric}`)}" data-change-points="${s.points.length}"><${sub}>${esc(s.workload)} threads=${s.threads} ${esc(s.metric)} (${s.better} is better)</${sub}>${chart(s)}</section>`
      );
  }
  return parts.length > 0 ? `<p class="method">${esc(methodLine(r))}</p>
${parts.join("\n")}` : "";
}
function historyHtml(r) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>tiperf history</title><style>body{font-family:system-ui,sans-serif;margin:16px;color:#1f2328}small{color:#57606a}section{margin:8px 0 16px}</style></head><body><h1>tiperf history</h1>${historySections(r, "h2")}</body></html>
`;
}

// action/src/commands/history/cli.ts
async function cmdHistory(args) {
  const { values, positionals } = flags("history", args, parseOptions("history"));
  const [action, ...rest] = positionals;
  if (action !== "add" && action !== "check")
    throw new InputError(`tiperf history: the action must be add or check (got ${action ?? "nothing"})`);
  const dir = required("history", "dir", values.dir);
  if (action === "add") {
    for (const f of ["since", "pvalue", "permutations", "min-segment", "json", "html", "accepted-in"])
      if (values[f] !== void 0) throw new InputError(`tiperf history add: --${f} goes with check`);
    const file = onePositional("history add", rest, "RESULT file");
    const result = await readResult(file);
    const commit = values.commit ?? setting("GITHUB_SHA");
    if (commit !== void 0 && !/^[0-9a-f]{7,40}$/.test(commit))
      throw new InputError(
        `tiperf history add: --commit must be a commit SHA (7\u201340 hex digits) (got ${JSON.stringify(commit)})`
      );
    const entry = entryOf(result, file, {
      ...values.variant ? { variant: values.variant } : {},
      ...values.profile ? { profile: values.profile } : {},
      ...commit ? { commit } : {},
      ...setting("GITHUB_REF_NAME") ? { ref: setting("GITHUB_REF_NAME") } : {}
    });
    const written = await appendHistory(dir, entry);
    log(`history: run ${entry.run_id} appended to ${written} (${entry.values.length} series values)`);
    process.stdout.write(`${written}
`);
    return EXIT.ok;
  }
  if (rest.length) throw new InputError(`tiperf history check: unexpected argument ${rest[0]}`);
  for (const f of ["variant", "profile", "commit"])
    if (values[f] !== void 0) throw new InputError(`tiperf history check: --${f} goes with add`);
  const pvalue = Number(values.pvalue ?? "0.05");
  if (!(pvalue > 0 && pvalue < 1))
    throw new InputError(
      `tiperf history check: --pvalue must be a number between 0 and 1 (got ${JSON.stringify(values.pvalue)})`
    );
  const permutations = Number(values.permutations ?? "199");
  if (!Number.isInteger(permutations) || permutations < 19 || permutations > 1e4)
    throw new InputError(
      `tiperf history check: --permutations must be a whole number from 19 to 10000 (got ${JSON.stringify(values.permutations)})`
    );
  const minSegment = Number(values["min-segment"] ?? String(MIN_SEGMENT));
  if (!Number.isInteger(minSegment) || minSegment < 1 || minSegment > 52)
    throw new InputError(
      `tiperf history check: --min-segment must be a whole number of runs from 1 to 52 (got ${JSON.stringify(values["min-segment"])})`
    );
  const report = await checkHistory(dir, {
    pvalue,
    permutations,
    minSegment,
    ...values.since ? { since: values.since } : {}
  });
  if (values["accepted-in"]) await markAcceptedIn(report, values["accepted-in"]);
  process.stdout.write(changePointText(report));
  if (values.json) await writeAtomic(values.json, `${JSON.stringify(report, null, 2)}
`);
  if (values.html) await writeAtomic(values.html, historyHtml(report));
  const worseNew = report.files.some((f) => f.series.some((s) => s.points.some(raised)));
  return worseNew ? EXIT.regression : EXIT.ok;
}
async function markAcceptedIn(report, value) {
  const repo = parseRepo(value, "--accepted-in");
  const gh = githubClient(githubToken("history check --accepted-in"), apiUrl(), log);
  const marked2 = await markAccepted(
    report,
    (from, to) => untilDeadline(gh, acceptancesBetween(gh, repo, from, to)).catch((e) => {
      throw requestFailure(gh, e, `cannot read the pull requests merged in ${value} from ${from} to ${to}`);
    })
  );
  for (const m of marked2)
    log(
      `history: ${m.series}: the change point at run ${m.point.run_id} was accepted by ${m.point.accepted?.by} in #${m.point.accepted?.pr} (perf-regression-expected): not raised`
    );
}

// action/src/commands/init/cli.ts
import { existsSync as existsSync4 } from "node:fs";

// action/src/init/index.ts
import { existsSync as existsSync3, readFileSync as readFileSync2 } from "node:fs";
import { mkdir as mkdir2, writeFile as writeFile2 } from "node:fs/promises";
import { dirname as dirname4, join as join6, resolve as resolve3 } from "node:path";
import { fileURLToPath } from "node:url";
var SPEC_SCHEMA_URL = "https://raw.githubusercontent.com/tiperf/tiperf/v1/action/schema/spec.schema.json";
function tiperfRoot(from = dirname4(fileURLToPath(import.meta.url))) {
  for (let dir = from, i = 0; i < 8; i++, dir = dirname4(dir))
    if (existsSync3(join6(dir, "action/examples/perf-pr.yml"))) return dir;
  throw new Error(`tiperf init: no action/examples/ above ${from} (run it from a tiperf checkout)`);
}
var read = (root, path) => readFileSync2(join6(root, path), "utf8").replace(/^# yaml-language-server: .*\n/, "");
var PR_HEADER = `# The PR check of this repository (written by tiperf init): a pull request that changes target:
# (a TiDB config key, the version) is measured against its base commit's target:, both on the
# runner (a private tidb-server each; tiup installs the release). \`tiperf plan --spec perf/pr.yaml
# --base-ref HEAD --head-ref HEAD\` prints every step of that comparison and the smallest change each
# cell detects; docs/specs.md of tiperf has every key.`;
var DISPATCH_HEADER = `# Ad-hoc comparisons of this repository (written by tiperf init): run perf-dispatch from the
# Actions tab with two TiDB releases (base-version, head-version) or two overlay files (base-config,
# head-config: each \`target: {server_configs: {tidb: {...}}}\`) on this matrix.`;
function tidbSpec(name, header) {
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
function sourceSpec(root, name) {
  const text = read(root, `workloads/tidb-source-${name}.yaml`).replace("profile: infra/profiles/local.yaml", "profile: .github/tiperf/local.yaml").replaceAll(/--spec workloads\/tidb-source-(pr|count)\.yaml/g, "--spec .github/tiperf/source-$1.yaml").replaceAll("workloads/tidb-source-pr.yaml", ".github/tiperf/source-pr.yaml").replaceAll("action/examples/tidb-source-pr.yml", ".github/workflows/tidb-source-pr.yml").replaceAll(/(^|[\s(,;])(bench|docs)\//gm, "$1tiperf's $2/");
  return `# yaml-language-server: $schema=${SPEC_SCHEMA_URL}
${text}`;
}
function profile(root, path) {
  return `# yaml-language-server: $schema=${SPEC_SCHEMA_URL.replace("spec.schema.json", "profile.schema.json")}
${read(root, path)}`;
}
function initFiles(kase, root = tiperfRoot()) {
  switch (kase) {
    case "config":
      return {
        "perf/pr.yaml": tidbSpec("pr", PR_HEADER),
        "perf/local.yaml": profile(root, "infra/profiles/local.yaml"),
        ".github/workflows/perf-pr.yml": read(root, "action/examples/perf-pr.yml"),
        ".github/workflows/perf-pr-comment.yml": read(root, "action/examples/perf-pr-comment.yml")
      };
    case "tidb":
      return {
        ".github/tiperf/source-pr.yaml": sourceSpec(root, "pr"),
        ".github/tiperf/source-count.yaml": sourceSpec(root, "count"),
        ".github/tiperf/local.yaml": profile(root, "infra/profiles/local.yaml"),
        ".github/workflows/tidb-source-pr.yml": read(root, "action/examples/tidb-source-pr.yml"),
        ".github/workflows/perf-pr-comment.yml": read(root, "action/examples/perf-pr-comment.yml")
      };
    case "dispatch":
      return {
        "perf/dispatch.yaml": tidbSpec("dispatch", DISPATCH_HEADER),
        "perf/local.yaml": profile(root, "infra/profiles/local.yaml"),
        ".github/workflows/perf-dispatch.yml": read(root, "action/examples/perf-dispatch.yml")
      };
  }
}
function nextSteps(kase, files, dir, cli) {
  const spec = files.find((f) => f.endsWith(".yaml") && !f.endsWith("local.yaml"));
  const variants = kase === "dispatch" ? "--base-version v8.1.0 --head-version v8.5.0" : "--base-ref HEAD --head-ref HEAD";
  return [
    `wrote ${files.join(", ")}`,
    "next:",
    "  1. commit them, then see what the check would do (every command, its duration; the spec at",
    `     ${kase === "dispatch" ? "two releases" : "two commits, here both HEAD"}):`,
    `     cd ${dir} && node ${cli} plan --spec ${spec} ${variants}`,
    "  2. give a self-hosted runner (2 or more cores, Debian or Ubuntu) the labels self-hosted, tiperf",
    ...kase === "tidb" ? ["     with Go installed; the check builds tidb-server at the PR head and its merge base"] : ["     with tiup on its PATH (it installs the TiDB release the spec names)"],
    "  3. pin the action in the workflow to a tag of the tiperf repository (tiperf/tiperf/action@v1)",
    kase === "dispatch" ? "  4. push, then run perf-dispatch from the Actions tab" : "  4. push; the next pull request gets the check and its comment",
    ...kase === "dispatch" ? [] : ["  5. in branch protection, require the check `tiperf` (one check, for one runner or many)"]
  ];
}
var ACTIONLINT_CONFIG = `# The label of the self-hosted runners that run tiperf's checks (written by tiperf init).
self-hosted-runner:
  labels: [tiperf]
`;
async function initRepository(dir, kase, log2) {
  const all = initFiles(kase);
  const same = (f) => readFileSync2(join6(dir, f), "utf8") === all[f];
  const there = Object.keys(all).filter((f) => existsSync3(join6(dir, f)) && !same(f));
  if (there.length)
    throw new InputError(
      `tiperf init: ${there.map((f) => join6(dir, f)).join(", ")} already exist${there.length === 1 ? "s" : ""} and differ${there.length === 1 ? "s" : ""} from what init writes; init overwrites nothing (move ${there.length === 1 ? "it" : "them"} away, or pass --dir another directory)`
    );
  const files = Object.fromEntries(Object.entries(all).filter(([f]) => !existsSync3(join6(dir, f))));
  for (const f of Object.keys(all).filter((f2) => !(f2 in files))) log2(`kept ${f}: already as init writes it`);
  for (const [path, text] of Object.entries(files)) {
    await mkdir2(dirname4(join6(dir, path)), { recursive: true });
    await writeFile2(join6(dir, path), text, { flag: "wx" });
  }
  const written = Object.keys(files);
  if (await ignoreResults(dir)) written.push(".gitignore");
  const lintConfig = join6(dir, ".github/actionlint.yaml");
  if (existsSync3(lintConfig))
    log2(`kept .github/actionlint.yaml: add the runner label tiperf to its self-hosted-runner.labels`);
  else {
    await writeFile2(lintConfig, ACTIONLINT_CONFIG, { flag: "wx" });
    written.push(".github/actionlint.yaml");
  }
  const cli = process.argv[1] ? resolve3(process.argv[1]) : "action/dist/cli.js";
  for (const line of nextSteps(kase, written, dir, cli)) log2(line);
  return written;
}
async function ignoreResults(dir) {
  const file = join6(dir, ".gitignore");
  const text = existsSync3(file) ? readFileSync2(file, "utf8") : "";
  if (text.split("\n").some((l) => /^\/?results\/?$/.test(l.trim()))) return false;
  const sep = text === "" || text.endsWith("\n") ? "" : "\n";
  await writeFile2(file, `${text}${sep}# tiperf's run results (tiperf init)
results/
`);
  return true;
}

// action/src/commands/init/cli.ts
async function cmdInit(args) {
  const { values, positionals } = flags("init", args, parseOptions("init"));
  if (positionals.length)
    throw new InputError(`tiperf init: unexpected argument ${positionals[0]}; use --dir DIR`);
  if (values.tidb && values.dispatch) throw new InputError("tiperf init: --tidb or --dispatch, not both");
  const kase = values.tidb ? "tidb" : values.dispatch ? "dispatch" : "config";
  const dir = typeof values.dir === "string" ? values.dir : ".";
  if (!existsSync4(dir)) throw new InputError(`tiperf init: --dir ${dir}: no such directory`);
  await initRepository(dir, kase, (line) => process.stdout.write(`${line}
`));
  return EXIT.ok;
}

// action/src/commands/merge/cli.ts
import { basename as basename3, dirname as dirname5, join as join7 } from "node:path";
async function cmdMerge(args) {
  const { values, positionals } = flags("merge", args, parseOptions("merge"));
  if (positionals.length === 0)
    throw new InputError("tiperf merge: give the parts: PART... (each shard's result.json or run directory)");
  const first = positionals[0];
  const { request, json } = await mergeRequest(flagDoor("merge", values), positionals, {
    out: join7("results", `merge-${basename3(first.endsWith("result.json") ? dirname5(first) : first)}`)
  });
  const { parts, ...options } = request;
  const merged = await mergeEither(parts, {
    ...options,
    log,
    misfit: (option, parts2) => {
      throw new InputError(
        parts2 === "run" ? `tiperf merge: --${option === "maxLooks" ? "max-looks" : option} is for the parts of a comparison (compare --shard); these are shares of a run` : "tiperf merge: --baseline judges the shares of a run (run --shard); a comparison's parts are judged head against base"
      );
    }
  });
  return merged.parts === "run" ? saidRun(merged.outcome, json) : saidComparison(merged.outcome, json);
}
async function saidComparison(outcome, json) {
  await writeJson(json, outcome.verdict);
  if (outcome.confirm > 0)
    log(
      `to confirm (compare.confirm: ${outcome.confirm}): tiperf compare --confirms ${outcome.verdictPath} --seed N --shard K/N on each runner, then tiperf merge --confirms ${outcome.verdictPath} with their parts`
    );
  if (outcome.look)
    log(
      `to look again (compare.looks): tiperf compare --look-of ${outcome.verdictPath} --shard K/${outcome.verdict.shards?.of ?? "N"} on each runner (the spec and flags the design's shards ran with), then tiperf merge the design's parts and theirs`
    );
  log(`verdict: ${outcome.verdict.verdict} (${outcome.verdictPath}); report: ${outcome.reportPath}`);
  process.stdout.write(`${outcome.verdict.verdict}
`);
  return outcome.exitCode;
}
async function saidRun(outcome, json) {
  await writeJson(json, outcome.verdict ?? outcome.result);
  const said = outcome.verdict?.verdict ?? outcome.result.status;
  log(
    `merged run: ${said} (${outcome.resultPath})${outcome.htmlPath ? `; report: ${outcome.htmlPath}` : ""}`
  );
  process.stdout.write(`${said}
`);
  return outcome.exitCode;
}

// action/src/commands/parse/cli.ts
import { readFile as readFile4 } from "node:fs/promises";
async function cmdParse(args) {
  const { positionals } = flags("parse", args, parseOptions("parse"));
  const [tool, file, extra] = positionals;
  const parse = tool === void 0 ? void 0 : DRIVERS[tool]?.parse;
  if (!parse)
    throw new InputError(
      `tiperf parse: the tool must be ${driverNames().join(" or ")} (got ${tool ?? "nothing"})`
    );
  if (!file || extra) throw new InputError(`tiperf parse ${tool}: give exactly one FILE`);
  let text;
  try {
    text = await readFile4(file, "utf8");
  } catch (e) {
    throw new InputError(
      `tiperf parse ${tool}: ${file}: cannot read the file (${e.code})`
    );
  }
  let parsed;
  try {
    parsed = parse(text);
  } catch (e) {
    throw new InputError(`${file}: ${e.message}`);
  }
  process.stdout.write(`${JSON.stringify(parsed, null, 2)}
`);
  return EXIT.ok;
}

// action/src/commands/plan/cli.ts
import { readFile as readFile5 } from "node:fs/promises";

// action/src/commands/plan/options.ts
var SIZING = ["shards", "shard", "seed", "look-of", "rounds", "blocks", "confidence", "budget"];
async function planRequest(d, log2) {
  const r = new Refusals(d.prefix);
  const words = specWords(d, r);
  const runId = d.get("run-id");
  if (runId !== void 0 && !/^[A-Za-z0-9._-]{1,200}$/.test(runId))
    r.refuse(
      `${d.say("run-id")} must be a run id like 20261125T080000Z-pr-1a2b (letters, digits, . _ -) (got ${JSON.stringify(runId)})`
    );
  const shardsText = d.get("shards");
  const shards = shardsText === void 0 ? void 0 : Number(shardsText);
  if (shards !== void 0 && !(Number.isInteger(shards) && shards >= 1 && shards <= 64))
    r.refuse(
      `${d.say("shards")} must be a whole number of runners from 1 to 64 (got ${JSON.stringify(shardsText)})`
    );
  const shardText = d.get("shard");
  const shard = shardOption(d, r);
  if (shardText !== void 0 && shardsText !== void 0)
    r.refuse(`${d.say("shard")} K/N plans one runner's share, ${d.say("shards")} N every runner's: give one`);
  const lookOf = d.get("look-of");
  const look = lookOf === void 0 ? void 0 : await r.checkAsync(() => readWave(lookOf, d.say("look-of")));
  r.done();
  const w = words;
  const spec = await withSourceBuilds(await loadWords(w), { log: log2, dryRun: true });
  const sizing = SIZING.filter((k) => d.get(k) !== void 0);
  if (!spec.variants && sizing.length)
    throw new Refused([
      `${d.prefix}${d.sayAll(sizing, sizing.length === 2 ? " and " : ", ")} size${sizing.length === 1 ? "s" : ""} a comparison, and ${spec.path} plans none (no variants): add --base-ref REF --head-ref REF to plan the PR check's comparison of two commits, or variants: to the spec`
    ]);
  const seed = w.compare?.seed;
  return {
    spec,
    words: w,
    ...d.get("out") !== void 0 ? { out: d.get("out") } : {},
    ...runId !== void 0 ? { runId } : {},
    ...shards !== void 0 ? { shards } : {},
    ...seed !== void 0 ? { seed } : {},
    ...shard ? { shard } : {},
    ...look ? { look } : {}
  };
}

// action/src/commands/plan/cli.ts
async function cmdPlan(args) {
  const { values, positionals } = flags("plan", args, parseOptions("plan"));
  if (positionals.length > 0)
    throw new InputError(`tiperf plan: unexpected argument ${positionals[0]}; use --spec FILE`);
  const request = await planRequest(flagDoor("plan", values), log);
  const loaded = request.spec;
  const plan = await planRun(loaded, {
    ...request.words.profile ? { profile: request.words.profile } : {},
    ...request.runId ? { runId: request.runId } : {},
    ...request.shards !== void 0 ? { shards: request.shards } : {},
    ...request.seed !== void 0 ? { seed: request.seed } : {},
    ...request.shard ? { shard: request.shard } : {},
    ...request.look ? { look: request.look } : {}
  });
  for (const line of [...await uncommittedSpec(request.words), ...headLines(loaded), ...buildLines(loaded)])
    log(line);
  process.stdout.write(plan.text);
  if (request.out) {
    const written = await writePlan(plan, request.out);
    log(`plan: wrote ${written.length} files to ${request.out}`);
  }
  const refused = new Refusals("tiperf plan: ");
  for (const r of plan.refusals) refused.refuse(r);
  refused.done();
  return EXIT.ok;
}
function buildLines(loaded) {
  return (loaded.builds ?? []).map(
    (b) => `build for ${b.variant === "all" ? "every variant" : `variant ${b.variant}`}: commit ${b.commit.slice(0, 10)} "${b.subject}" of the tree ${b.path}: ${b.how ?? "its build command"} \u2192 ${b.binary} (${b.kept ? "kept from an earlier build" : "to be built"})`
  );
}
function headLines(loaded) {
  if (loaded.same)
    return [
      `nothing to measure: ${loaded.same}; compare passes in seconds and starts nothing. What it would run if they differed:`
    ];
  if (loaded.adoption) return [`new spec: ${loaded.adoption.why}.`];
  if (!loaded.variants)
    return [
      `${loaded.path} as \`tiperf run\` runs it: one variant, no comparison. The PR check compares two commits: add --base-ref REF --head-ref REF to plan that.`
    ];
  return [];
}
async function uncommittedSpec(words) {
  const { spec, headRef: head } = words;
  if (!head) return [];
  const { dir } = atRef(head, spec);
  const commit = async (ref) => (await git(dir, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`])).out;
  if (await commit(head) !== await commit("HEAD")) return [];
  const committed = await specAtRef(spec, head).catch(() => void 0);
  const working = await readFile5(spec, "utf8").catch(() => void 0);
  if (committed === void 0 || working === void 0 || committed === working) return [];
  return [
    `note: ${spec} differs from its text at ${head}: this plan reads the committed one (--head-ref); commit the change (compare.noise from calibrate, say) to plan it`
  ];
}

// action/src/commands/pull-request/cli.ts
import { readFile as readFile6 } from "node:fs/promises";
async function cmdPullRequest(args) {
  const { values, positionals } = flags("pull-request", args, parseOptions("pull-request"));
  if (positionals.length > 0)
    throw new InputError(`tiperf pull-request: unexpected argument ${positionals[0]}`);
  const repo = parseRepo(required("pull-request", "repo", values.repo));
  const bodyFile = values["body-file"];
  const body = bodyFile ? await readFile6(bodyFile, "utf8") : "";
  const n = await openPullRequest(
    githubClient(githubToken("pull-request"), apiUrl(), log, void 0, deadlines("pull-request", values)),
    repo,
    {
      head: required("pull-request", "head", values.head),
      base: required("pull-request", "base", values.base),
      title: required("pull-request", "title", values.title),
      body
    },
    log
  );
  process.stdout.write(`${n}
`);
  return EXIT.ok;
}

// action/src/kubernetes/leftovers.ts
async function reapKubernetes(o) {
  const ctx = loadKubeContext({
    ...o.kubeconfig ? { kubeconfig: o.kubeconfig } : {},
    ...o.context ? { context: o.context } : {},
    where: "tiperf reap --kubernetes"
  });
  const client = new KubeClient(ctx);
  const now = (o.now ?? /* @__PURE__ */ new Date()).getTime();
  const report = {
    server: ctx.server,
    context: ctx.context,
    dryRun: o.dryRun,
    removed: [],
    kept: [],
    unreadable: [],
    deleting: [],
    failed: []
  };
  for (const ns of await client.namespaces(`${MANAGED_BY}=${MANAGER}`)) {
    const name = ns.metadata.name;
    if (ns.metadata.labels?.[MANAGED_BY] !== MANAGER) continue;
    if (ns.metadata.deletionTimestamp) {
      report.deleting.push(name);
      o.log(`reap: namespace ${name}: being deleted since ${ns.metadata.deletionTimestamp}`);
      continue;
    }
    const expires = Date.parse(ns.metadata.annotations?.[EXPIRES] ?? "");
    if (Number.isNaN(expires)) {
      report.unreadable.push(name);
      o.log(`reap: namespace ${name}: no readable ${EXPIRES} annotation: left alone`);
      continue;
    }
    if (expires > now) {
      report.kept.push(`${name}: ${new Date(expires).toISOString()}`);
      continue;
    }
    if (o.dryRun) {
      report.removed.push(name);
      continue;
    }
    try {
      await client.deleteNamespace(name);
      report.removed.push(name);
      o.log(`reap: namespace ${name} (expired ${new Date(expires).toISOString()}) deleted`);
    } catch (e) {
      report.failed.push({ namespace: name, error: e.message });
    }
  }
  return report;
}

// action/src/commands/reap/cli.ts
async function cmdReap(args) {
  const { values, positionals } = flags("reap", args, parseOptions("reap"));
  if (positionals.length > 0) throw new InputError(`tiperf reap: unexpected argument ${positionals[0]}`);
  if (values.kubernetes === true && values.cloud !== void 0)
    throw new InputError("tiperf reap: --kubernetes and --cloud are two reaps: run one at a time");
  if (values.cloud !== void 0) return reapCloud(values);
  if (values.kubernetes === true) return reapKube(values);
  for (const flag of ["kubeconfig", "context"])
    if (values[flag] !== void 0) throw new InputError(`tiperf reap: --${flag} goes with --kubernetes`);
  for (const flag of ["region", "endpoint", "json"])
    if (values[flag] !== void 0) throw new InputError(`tiperf reap: --${flag} goes with --cloud aws`);
  const { reaped, kept } = await reapLedger({
    dir: values.ledger ?? ledgerDir(),
    maxAgeMs: maxAge(values["max-age"] ?? "3h"),
    dryRun: values["dry-run"] === true,
    log
  });
  process.stdout.write(
    `${values["dry-run"] ? "would reap" : "reaped"} ${reaped.length}, kept ${kept.length} (still owned and younger than max-age)
`
  );
  return EXIT.ok;
}
async function reapKube(values) {
  for (const flag of ["region", "endpoint", "ledger", "max-age"])
    if (values[flag] !== void 0)
      throw new InputError(
        `tiperf reap --kubernetes: --${flag} is not one of its flags (it reaps by each namespace's expiry)`
      );
  const report = await reapKubernetes({
    ...typeof values.kubeconfig === "string" ? { kubeconfig: values.kubeconfig } : {},
    ...typeof values.context === "string" ? { context: values.context } : {},
    dryRun: values["dry-run"] === true,
    log
  });
  if (typeof values.json === "string") await writeAtomic(values.json, `${JSON.stringify(report, null, 2)}
`);
  process.stdout.write(
    `${report.dryRun ? "would delete" : "deleted"} ${report.removed.length} namespace(s), kept ${report.kept.length} (not expired), left ${report.unreadable.length} without an expiry, ${report.deleting.length} already being deleted, failed ${report.failed.length} on ${report.server} (context ${report.context})
`
  );
  return report.failed.length > 0 ? EXIT.runFailed : EXIT.ok;
}
async function reapCloud(values) {
  const name = String(values.cloud);
  const cloud = CLOUDS[name];
  if (!cloud)
    throw new InputError(`tiperf reap: --cloud must be ${Object.keys(CLOUDS).join(" or ")} (got ${name})`);
  const region = values.region;
  if (typeof region !== "string" || !cloud.region.pattern.test(region))
    throw new InputError(
      `tiperf reap: --cloud ${name} needs --region, a region of ${name} like ${cloud.region.example} (got ${String(region ?? "nothing")})`
    );
  const endpoint = values.endpoint;
  if (endpoint !== void 0 && !/^https?:\/\/\S+$/.test(endpoint))
    throw new InputError(`tiperf reap: --endpoint must be an http(s) URL (got ${endpoint})`);
  const report = await cloud.reap({
    region,
    ...endpoint ? { endpoint } : {},
    dryRun: values["dry-run"] === true,
    log
  });
  if (typeof values.json === "string") await writeAtomic(values.json, `${JSON.stringify(report, null, 2)}
`);
  process.stdout.write(
    `${report.dryRun ? "would remove" : "removed"} ${report.removed.length}, kept ${report.kept.length} (not expired), failed ${report.failed.length}, overdue ${report.overdue.length} (alive past twice their ttl) in ${region}
`
  );
  return report.failed.length > 0 ? EXIT.runFailed : EXIT.ok;
}

// action/src/commands/report/cli.ts
import { existsSync as existsSync5 } from "node:fs";
async function historyOfSpec(file, spec) {
  const changes = await readChangePoints(file);
  if (!changes)
    throw new InputError(
      `tiperf report: --history ${file} is not a change-point report (write one with tiperf history check --json)`
    );
  const html = historySections(changes, "h3", spec);
  if (!html)
    throw new InputError(
      `tiperf report: --history ${file} has no history of spec ${spec} (it has ${changes.files.map((f) => f.spec).join(", ") || "none"})`
    );
  return html;
}
async function cmdReport(args) {
  const { values, positionals } = flags("report", args, parseOptions("report"));
  const verdict = await readVerdict(onePositional("report", positionals, "VERDICT_JSON file"));
  const format = values.format ?? "markdown";
  const out = values.out;
  if (format === "markdown") {
    const text = commentMarkdown(verdict, { matrix: values.matrix });
    if (out) await writeAtomic(out, text);
    else process.stdout.write(text);
  } else if (format === "html") {
    const results = [];
    for (const file of /* @__PURE__ */ new Set([verdict.base.result, verdict.head.result]))
      if (existsSync5(file)) results.push(await readResult(file));
    const extra = {
      results,
      ...values.history ? { history: await historyOfSpec(values.history, verdict.spec.name) } : {}
    };
    if (out) {
      const files = await writeHtmlReport(verdict, out, log, extra);
      log(`report: ${out} and ${files.length - 1} chart file(s) under charts/`);
    } else process.stdout.write(verdictHtml(verdict, await renderCharts(verdict, results), extra));
  } else {
    throw new InputError(`tiperf report: --format must be markdown or html (got ${format})`);
  }
  if (out) process.stdout.write(`${out}
`);
  return EXIT.ok;
}

// action/src/commands/run/cli.ts
async function cmdRun(args, signal) {
  const { values, positionals } = flags("run", args, parseOptions("run"));
  if (positionals.length > 0)
    throw new InputError(`tiperf run: unexpected argument ${positionals[0]}; use --spec FILE`);
  const { request, json } = await runRequest(flagDoor("run", values), { out: "results" });
  const done = await execRun(request, { log, signal });
  log(`result: ${done.resultPath}`);
  if (done.verdict) {
    await writeJson(json, done.verdict);
    log(`verdict: ${done.verdict.verdict}; report: ${done.reportPath}`);
    process.stdout.write(`${done.verdict.verdict}
`);
  } else {
    log(`report: ${done.reportPath}`);
    process.stdout.write(`${done.reportPath}
`);
  }
  return done.exitCode;
}

// action/src/cli.ts
function describeError(e) {
  if (e instanceof TiperfError) return e.message;
  const fsError = e;
  if (fsError?.code && fsError.path) return `${fsError.syscall ?? "access"} ${fsError.path}: ${errnoText(e)}`;
  return e?.stack ?? String(e);
}
var RUNNERS = {
  run: cmdRun,
  compare: cmdCompare,
  calibrate: cmdCalibrate,
  merge: cmdMerge,
  bisect: cmdBisect,
  diff: cmdDiff,
  baseline: cmdBaseline,
  report: cmdReport,
  comment: cmdComment,
  export: cmdExport,
  history: cmdHistory,
  alarm: cmdAlarm,
  "pull-request": cmdPullRequest,
  plan: cmdPlan,
  reap: cmdReap,
  parse: cmdParse,
  init: cmdInit
};
var commandList = () => COMMANDS.map((c) => c.name).join(", ");
function answered(command, rest) {
  const asked = COMMANDS.find((c) => c.name === (command === "help" ? rest[0] : command));
  if (asked && (command === "help" || rest.includes("--help") || rest.includes("-h"))) {
    process.stdout.write(`${commandUsage(asked)}
`);
    return EXIT.ok;
  }
  if (command === "--version" || command === "version") {
    process.stdout.write(`tiperf ${TIPERF_VERSION}
`);
    return EXIT.ok;
  }
  if (command === void 0 || ["help", "--help", "-h"].includes(command)) {
    if (command === "help" && rest[0])
      throw new InputError(`tiperf help: no command ${rest[0]}; commands: ${commandList()}`);
    process.stdout.write(`${usageText()}
`);
    return command === void 0 ? EXIT.badInput : EXIT.ok;
  }
  return void 0;
}
async function main(argv) {
  const abort = new AbortController();
  installSignalTeardown(abort, log);
  installCrashTeardown(log, describeError);
  const [command, ...rest] = argv;
  try {
    const done = answered(command, rest);
    if (done !== void 0) return done;
    const runner = RUNNERS[command];
    if (!runner) throw new InputError(`tiperf: unknown command ${command}; commands: ${commandList()}`);
    return await runner(rest, abort.signal);
  } catch (e) {
    if (abort.signal.reason instanceof Interrupted) {
      log(`error: ${e.message}`);
      return abort.signal.reason.exitCode;
    }
    for (const line of e instanceof Refused ? e.lines : [describeError(e)]) log(`error: ${line}`);
    return e instanceof TiperfError ? e.exitCode : EXIT.runFailed;
  } finally {
    await teardownAll(log);
  }
}
main(process.argv.slice(2)).then((code) => process.exit(code));
export {
  main
};
