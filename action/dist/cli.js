#!/usr/bin/env node
import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path';
const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);
import {
  DEFAULT_DEADLINES,
  apiUrl,
  checkOutFile,
  commentMarkdown,
  compareSpec,
  githubClient,
  isLatency,
  judgeStored,
  metricName,
  openPullRequest,
  parsePr,
  parseRepo,
  parseTolerance,
  planFor,
  prepareSpec,
  publishVerdict,
  readVerdict,
  renderCharts,
  runAgainstBaseline,
  runHours,
  runSpec,
  upsertIssue,
  verdictHtml,
  writeHtmlReport
} from "./chunk-YLQ5YRNT.js";
import "./chunk-MGIBCHQ5.js";
import {
  loadEndpoints,
  planText
} from "./chunk-FEOBXTE7.js";
import {
  DRIVERS,
  Interrupted,
  driverNames,
  driverOf,
  installCrashTeardown,
  installSignalTeardown,
  ledgerDir,
  mean,
  readResult,
  shellCommand,
  stddev,
  sweep,
  teardownAll,
  writeAtomic,
  writeResult
} from "./chunk-SNRGTOY6.js";
import "./chunk-7N3WP33W.js";
import {
  cloudPlanText,
  estimateCost
} from "./chunk-C43YTSSF.js";
import {
  EXIT,
  InputError,
  REGION,
  TiperfError,
  errnoText,
  parseAge
} from "./chunk-KZLFUJ4J.js";
import "./chunk-NFEUZB2Z.js";
import "./chunk-3EADY6QU.js";

// action/src/cli.ts
import { existsSync, realpathSync } from "node:fs";
import { readFile as readFile2 } from "node:fs/promises";
import { parseArgs } from "node:util";

// action/src/cloud/leftovers.ts
import { readFile } from "node:fs/promises";
var REAP_FORMAT = "tiperf.reap";
async function readReapReport(file) {
  let doc;
  try {
    doc = JSON.parse(await readFile(file, "utf8"));
  } catch {
    return void 0;
  }
  const r = doc;
  if (r?.format !== REAP_FORMAT) return void 0;
  if (!Array.isArray(r.overdue) || typeof r.region !== "string")
    throw new InputError(`${file}: a ${REAP_FORMAT} report needs region and overdue`);
  return r;
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
      (f) => `| ${f.kind} | \`${f.id}\` | ${f.runId} | ${f.createdAt ?? "?"} | ${f.expiresAt} |`
    ),
    "",
    `Removed this hour: ${r.removed.length}; could not remove: ${r.failed.length}${r.failed.length ? ` (${r.failed.map((f) => `${f.kind} ${f.id}: ${f.error}`).join("; ")})` : ""}.`,
    "",
    `To delete what has expired: \`tiperf reap --cloud aws --region ${r.region}\` (add \`--dry-run\` to list only).`
  ];
  return `${lines.join("\n")}
`;
}

// action/src/commands.ts
var DEADLINES = {
  timeout: { type: "string", value: "30s" },
  deadline: { type: "string", value: "3m" }
};
var COMPOSE = {
  "base-ref": { type: "string", value: "REF" },
  "head-ref": { type: "string", value: "REF" },
  "base-config": { type: "string", value: "FILE" },
  "head-config": { type: "string", value: "FILE" },
  tolerance: { type: "string", value: "METRIC=PCT,\u2026" }
};
var COMMANDS = [
  {
    name: "run",
    flags: {
      spec: { type: "string", value: "FILE", required: true },
      out: { type: "string", value: "DIR" },
      baseline: { type: "string", value: "RESULT" },
      json: { type: "string", value: "OUT" },
      profile: { type: "string", value: "FILE" },
      ...COMPOSE
    },
    about: [
      "run a spec's matrix on its target; results in DIR/<run-id>/ (default DIR: results);",
      "with --baseline, judge the run against that stored result (exit 1 on a regression)"
    ]
  },
  {
    name: "compare",
    flags: {
      spec: { type: "string", value: "FILE", required: true },
      out: { type: "string", value: "DIR" },
      json: { type: "string", value: "OUT" },
      seed: { type: "string", value: "N" },
      profile: { type: "string", value: "FILE" },
      ...COMPOSE
    },
    about: [
      "run the spec's variants and judge head against base (--seed repeats an earlier run's",
      "round order); --base-ref/--head-ref compare the spec's target at two git refs,",
      "--base-config/--head-config two overlay files, --tolerance overrides metrics' tolerances"
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
      "judge a stored result (e.g. a baseline) against another; results of earlier versions",
      "(v1) are migrated on read"
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
      format: { type: "string", value: "markdown|html", required: true },
      out: { type: "string", value: "FILE" },
      matrix: { type: "string", value: "NAME" }
    },
    about: ["the PR comment (markdown) or report.html (+ charts/)"]
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
      "(label tiperf-leftovers; no issue when there are none)"
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
      ...COMPOSE
    },
    about: [
      "print (and with --out write) everything a run would do without running anything: for a",
      "TiDB target the topology.yaml per variant, TOML configs, haproxy.cfg, every tiup, SQL and",
      "load-tool command line in phase order; --profile overrides the spec's target.profile"
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
      json: { type: "string", value: "FILE" }
    },
    about: [
      "stop and remove private servers and cgroups whose tiperf process is gone or that are",
      "older than max-age (their logs kept in the run directory); mark such a run interrupted.",
      "With --cloud aws --region R: delete, in dependency order, every resource tagged",
      "tiperf:run-id whose tiperf:expires-at is past (untagged or unexpired ones are never",
      "touched); --endpoint for another EC2 API; --json writes the report (removed, kept,",
      "overdue: alive past twice their time to live)"
    ]
  },
  {
    name: "parse",
    args: "TOOL FILE",
    flags: {},
    about: ["print one load tool output (TOOL: sysbench, go-tpc or go-ycsb), parsed, as JSON"]
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
function synopsis(c) {
  const flags2 = Object.entries(c.flags).map(([k, f]) => {
    const text = `--${k}${f.value ? ` ${f.value}` : ""}`;
    return f.required ? text : `[${text}]`;
  });
  return ["tiperf", c.name, ...c.args ? [c.args] : [], ...flags2].join(" ");
}
function usageText() {
  const lines = ["tiperf \u2014 performance regression checks for TiDB", "", "Usage:"];
  for (const c of COMMANDS) {
    lines.push(`  ${synopsis(c)}`);
    for (const a of c.about) lines.push(`      ${a}`);
  }
  lines.push(
    "",
    "Exit status: 0 done (no regression), 1 regression, 2 bad input, 3 a run failed,",
    "130/143 interrupted."
  );
  return lines.join("\n");
}

// action/src/pipeline/plan.ts
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
function planConnection(plan) {
  const d = plan.deployments[0];
  return { protocol: "mysql", endpoints: loadEndpoints(plan, d), user: "root", password: "" };
}
function loadCommands(spec, connection, where) {
  const lines = [];
  const cleanups = /* @__PURE__ */ new Map();
  for (const w of spec.workloads) {
    const driver = driverOf(w.driver);
    const tool = driver.findTool(w.script) ?? { command: w.driver, prefix: [] };
    const ctx = (threads) => ({
      workload: w,
      threads,
      connection,
      ...spec.data ? { data: spec.data } : {}
    });
    const line = (phase, args, about = `workload ${w.name}`) => lines.push(
      `  [${phase}]${where} ${shellCommand([tool.command, ...tool.prefix, ...args])}    # ${about}`
    );
    const key = `${w.driver}:${driver.dataKey(w, spec.data)}`;
    if (!cleanups.has(key)) {
      for (const s of driver.setup(ctx(Math.max(...w.threads)))) line(s.phase, s.args);
      cleanups.set(key, () => {
        for (const s of driver.cleanup(ctx(1))) line(s.phase, s.args, `data of ${w.name}`);
      });
    }
    for (const t of w.threads) line("cell", driver.run(ctx(t)).args);
  }
  for (const cleanup of cleanups.values()) cleanup();
  return lines;
}
async function planRun(loaded, o) {
  const spec = loaded.spec;
  if (spec.target.kind !== "tidb") {
    const connection = {
      protocol: spec.target.kind === "postgres" ? "postgres" : "mysql",
      endpoints: [{ host: "127.0.0.1", port: 0 }],
      user: spec.target.kind === "postgres" ? "postgres" : "root",
      password: ""
    };
    const text2 = `target: a private ${spec.target.kind} server on 127.0.0.1 (port chosen at start; shown as 0)

commands:
${loadCommands(spec, connection, "").join("\n")}
`;
    return { text: text2, files: { "plan.txt": text2 } };
  }
  const tidb = await planFor(loaded, {
    ...o.profile ? { profile: o.profile } : {},
    prefix: `tiperf-${spec.name}`
  });
  const where = tidb.load.user ? " (load host)" : "";
  const cloud = tidb.profile.provider === "aws" ? cloudPlanText(tidb.profile, estimateCost(tidb.profile, runHours(loaded)), {
    runId: "<run id>",
    expiresAt: `<start + ${tidb.profile.aws?.ttl}>`,
    repository: "<owner/repo>",
    pr: "<pr or none>"
  }) : "";
  const text = `${cloud}${planText(tidb)}${loadCommands(spec, planConnection(tidb), where).join("\n")}
`;
  return { text, files: { ...tidb.files, "plan.txt": text }, tidb };
}
async function writePlan(plan, dir) {
  await mkdir(dir, { recursive: true });
  const written = [];
  for (const [name, text] of Object.entries(plan.files)) {
    await writeAtomic(join(dir, name), text);
    written.push(join(dir, name));
  }
  return written;
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

// action/src/result/baseline.ts
import { join as join2 } from "node:path";
function profileOf(result, variant) {
  const t = variant ? result.targets.find((x) => x.variant === variant) : result.targets[0];
  if (!t)
    throw new InputError(`result ${result.run_id} has no target${variant ? ` for variant ${variant}` : ""}`);
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
var baselinePath = (dir, profile, specName) => join2(dir, plainName("--profile", profile), `${plainName("the result's spec name", specName)}.json`);
async function promoteBaseline(resultFile, dir, profile) {
  const result = await readResult(resultFile);
  if (result.status !== "complete") {
    throw new InputError(
      `${resultFile}: status is ${result.status}; only a complete result can become a baseline`
    );
  }
  if (result.cells.some((c) => c.status !== "ok"))
    throw new InputError(`${resultFile}: has failed cells; not a baseline`);
  const file = baselinePath(dir, profile ?? profileOf(result), result.spec.name);
  await writeResult(file, result);
  return file;
}

// action/src/cli.ts
var log = (line) => process.stderr.write(`${line}
`);
function flags(command, args, options) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    const allowed = Object.keys(options).map((k) => `--${k}`).join(", ");
    throw new InputError(
      `tiperf ${command}: ${e.message.split("\n")[0]} (allowed: ${allowed || "none"})`
    );
  }
}
function required(command, name, value) {
  if (typeof value !== "string" || value === "")
    throw new InputError(`tiperf ${command}: --${name} is required`);
  return value;
}
function specSource(command, values) {
  const str = (k) => typeof values[k] === "string" ? values[k] : void 0;
  if (Boolean(str("base-ref")) !== Boolean(str("head-ref")))
    throw new InputError(`tiperf ${command}: --base-ref and --head-ref go together`);
  const profile = str("profile");
  return prepareSpec({
    spec: required(command, "spec", values.spec),
    baseRef: str("base-ref"),
    headRef: str("head-ref"),
    baseConfig: str("base-config"),
    headConfig: str("head-config"),
    tolerance: parseTolerance(str("tolerance") ?? "", "--tolerance")
  }).then((loaded) => profile ? { ...loaded, profile } : loaded);
}
async function cmdRun(args, signal) {
  const { values, positionals } = flags("run", args, parseOptions("run"));
  if (positionals.length > 0)
    throw new InputError(`tiperf run: unexpected argument ${positionals[0]}; use --spec FILE`);
  const loaded = await specSource("run", values);
  const runOpts = { outDir: values.out ?? "results", log, signal };
  if (typeof values.baseline === "string") {
    if (values.json) await checkOutFile(values.json, "--json");
    const checked = await runAgainstBaseline(loaded, values.baseline, runOpts);
    await writeJson(values.json, checked.verdict);
    log(`verdict: ${checked.verdict.verdict}; report: ${checked.htmlPath}`);
    process.stdout.write(`${checked.verdict.verdict}
`);
    return checked.exitCode;
  }
  if (values.json)
    throw new InputError("tiperf run: --json is the verdict of --baseline; give --baseline RESULT too");
  const outcome = await runSpec(loaded, runOpts);
  log(`report: ${outcome.runDir.reportPath}`);
  process.stdout.write(`${outcome.runDir.reportPath}
`);
  return outcome.exitCode;
}
async function writeJson(file, value) {
  if (file) await writeAtomic(file, `${JSON.stringify(value, null, 2)}
`);
}
async function cmdCompare(args, signal) {
  const { values, positionals } = flags("compare", args, parseOptions("compare"));
  if (positionals.length > 0)
    throw new InputError(`tiperf compare: unexpected argument ${positionals[0]}; use --spec FILE`);
  const seed = values.seed === void 0 ? void 0 : Number(values.seed);
  if (seed !== void 0 && !(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 31))
    throw new InputError(
      `tiperf compare: --seed must be a whole number from 0 to 2^31\u22121 (got ${values.seed})`
    );
  const loaded = await specSource("compare", values);
  if (values.json) await checkOutFile(values.json, "--json");
  const outcome = await compareSpec(loaded, {
    outDir: values.out ?? "results",
    log,
    signal,
    seed
  });
  await writeJson(values.json, outcome.verdict);
  log(`verdict: ${outcome.verdict.verdict} (${outcome.verdictPath}); report: ${outcome.reportPath}`);
  process.stdout.write(`${outcome.verdict.verdict}
`);
  return outcome.exitCode;
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
async function cmdDiff(args) {
  const { values, positionals } = flags("diff", args, parseOptions("diff"));
  const [baseFile, headFile, extra] = positionals;
  if (!baseFile || !headFile || extra)
    throw new InputError("tiperf diff: give exactly two result files: BASE_RESULT HEAD_RESULT");
  if (!existsSync(baseFile)) {
    throw new InputError(
      `tiperf diff: no baseline at ${baseFile} (a missing baseline is never a pass: create one with tiperf baseline update)`
    );
  }
  if (existsSync(headFile) && realpathSync(baseFile) === realpathSync(headFile))
    log(
      `warning: diff: ${baseFile} and ${headFile} are the same file: every change is zero by construction, which says nothing about performance`
    );
  const verdict = judgeStored(
    {
      result: await readResult(baseFile),
      file: baseFile,
      variant: values["base-variant"]
    },
    {
      result: await readResult(headFile),
      file: headFile,
      variant: values["head-variant"]
    },
    { confidence: confidenceFlag("diff", values.confidence), force: values.force === true }
  );
  await writeJson(values.json, verdict);
  process.stdout.write(commentMarkdown(verdict));
  return verdict.verdict === "regression" ? EXIT.regression : EXIT.ok;
}
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
function onePositional(command, positionals, what) {
  const [file, extra] = positionals;
  if (!file || extra) throw new InputError(`tiperf ${command}: give exactly one ${what}`);
  return file;
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
    if (out) {
      const files = await writeHtmlReport(verdict, out, log);
      log(`report: ${out} and ${files.length - 1} chart file(s) under charts/`);
    } else process.stdout.write(verdictHtml(verdict, await renderCharts(verdict)));
  } else {
    throw new InputError(`tiperf report: --format must be markdown or html (got ${format})`);
  }
  if (out) process.stdout.write(`${out}
`);
  return EXIT.ok;
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
function githubToken(command) {
  const token = process.env.GITHUB_TOKEN;
  if (!token)
    throw new InputError(
      `tiperf ${command}: GITHUB_TOKEN is not set (a token that may write to the repository)`
    );
  return token;
}
async function cmdAlarm(args) {
  const { values, positionals } = flags("alarm", args, parseOptions("alarm"));
  const file = onePositional("alarm", positionals, "VERDICT_JSON file (or a reap report)");
  const repo = parseRepo(required("alarm", "repo", values.repo));
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
async function cmdPullRequest(args) {
  const { values, positionals } = flags("pull-request", args, parseOptions("pull-request"));
  if (positionals.length > 0)
    throw new InputError(`tiperf pull-request: unexpected argument ${positionals[0]}`);
  const repo = parseRepo(required("pull-request", "repo", values.repo));
  const bodyFile = values["body-file"];
  const body = bodyFile ? await readFile2(bodyFile, "utf8") : "";
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
function maxAge(value) {
  const ms = parseAge(value);
  if (ms === void 0)
    throw new InputError(`tiperf reap: --max-age must be like 90m, 3h or 2d (got ${value})`);
  return ms;
}
async function cmdPlan(args) {
  const { values, positionals } = flags("plan", args, parseOptions("plan"));
  if (positionals.length > 0)
    throw new InputError(`tiperf plan: unexpected argument ${positionals[0]}; use --spec FILE`);
  const loaded = await specSource("plan", values);
  const plan = await planRun(loaded, {
    ...typeof values.profile === "string" ? { profile: values.profile } : {}
  });
  process.stdout.write(plan.text);
  if (typeof values.out === "string") {
    const written = await writePlan(plan, values.out);
    log(`plan: wrote ${written.length} files to ${values.out}`);
  }
  return EXIT.ok;
}
async function cmdReap(args) {
  const { values, positionals } = flags("reap", args, parseOptions("reap"));
  if (positionals.length > 0) throw new InputError(`tiperf reap: unexpected argument ${positionals[0]}`);
  if (values.cloud !== void 0) return reapCloud(values);
  for (const flag of ["region", "endpoint", "json"])
    if (values[flag] !== void 0) throw new InputError(`tiperf reap: --${flag} goes with --cloud aws`);
  const { swept, kept } = await sweep({
    dir: values.ledger ?? ledgerDir(),
    maxAgeMs: maxAge(values["max-age"] ?? "3h"),
    dryRun: values["dry-run"] === true,
    log
  });
  process.stdout.write(
    `${values["dry-run"] ? "would reap" : "reaped"} ${swept.length}, kept ${kept.length} (still owned and younger than max-age)
`
  );
  return EXIT.ok;
}
async function reapCloud(values) {
  if (values.cloud !== "aws")
    throw new InputError(`tiperf reap: --cloud must be aws (got ${String(values.cloud)})`);
  const region = values.region;
  if (typeof region !== "string" || !REGION.test(region))
    throw new InputError(
      `tiperf reap: --cloud aws needs --region, an AWS region like us-west-2 (got ${String(region ?? "nothing")})`
    );
  const endpoint = values.endpoint;
  if (endpoint !== void 0 && !/^https?:\/\/\S+$/.test(endpoint))
    throw new InputError(`tiperf reap: --endpoint must be an http(s) URL (got ${endpoint})`);
  const { reapAws } = await import("./chunk-FYPTO5LQ.js");
  const report = await reapAws({
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
    text = await readFile2(file, "utf8");
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
function describeError(e) {
  if (e instanceof TiperfError) return e.message;
  const fsError = e;
  if (fsError?.code && fsError.path) return `${fsError.syscall ?? "access"} ${fsError.path}: ${errnoText(e)}`;
  return e?.stack ?? String(e);
}
async function main(argv) {
  const abort = new AbortController();
  installSignalTeardown(abort, log);
  installCrashTeardown(log, describeError);
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "run":
        return await cmdRun(rest, abort.signal);
      case "compare":
        return await cmdCompare(rest, abort.signal);
      case "diff":
        return await cmdDiff(rest);
      case "baseline":
        return await cmdBaseline(rest);
      case "report":
        return await cmdReport(rest);
      case "comment":
        return await cmdComment(rest);
      case "export":
        return await cmdExport(rest);
      case "alarm":
        return await cmdAlarm(rest);
      case "pull-request":
        return await cmdPullRequest(rest);
      case "plan":
        return await cmdPlan(rest);
      case "reap":
        return await cmdReap(rest);
      case "parse":
        return await cmdParse(rest);
      case void 0:
      case "help":
      case "--help":
      case "-h":
        process.stdout.write(`${usageText()}
`);
        return command === void 0 ? EXIT.badInput : EXIT.ok;
      default:
        throw new InputError(
          `tiperf: unknown command ${command}; commands: ${COMMANDS.map((c) => c.name).join(", ")}`
        );
    }
  } catch (e) {
    if (abort.signal.reason instanceof Interrupted) {
      log(`error: ${e.message}`);
      return abort.signal.reason.exitCode;
    }
    log(`error: ${describeError(e)}`);
    return e instanceof TiperfError ? e.exitCode : EXIT.runFailed;
  } finally {
    await teardownAll(log);
  }
}
main(process.argv.slice(2)).then((code) => process.exit(code));
export {
  main
};
