import { existsSync, realpathSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { leftoversMarkdown, leftoversTitle, readReapReport } from "./cloud/leftovers.ts";
import { CLOUDS } from "./cloud/registry.ts";
import { COMMANDS, commandUsage, parseOptions, usageText } from "./commands.ts";
import { readBisect } from "./compare/bisection.ts";
import { judgeStored } from "./compare/judge-results.ts";
import { readVerdict } from "./compare/verdict.ts";
import { DRIVERS, driverNames } from "./drivers/registry.ts";
import { EXIT, errnoText, InputError, TiperfError } from "./errors.ts";
import {
  bisectRange,
  changePointIssue,
  changePointText,
  checkHistory,
  MIN_SEGMENT,
  readChangePoints,
} from "./history/check.ts";
import { historyHtml, historySections } from "./history/html.ts";
import { appendHistory, entryOf } from "./history/store.ts";
import { initRepository } from "./init/index.ts";
import { reapKubernetes } from "./kubernetes/reap.ts";
import { ledgerDir } from "./lifecycle/ledger.ts";
import {
  Interrupted,
  installCrashTeardown,
  installSignalTeardown,
  teardownAll,
} from "./lifecycle/teardown.ts";
import { runAgainstBaseline } from "./pipeline/baseline-check.ts";
import { bisectSpec, commitsBetween } from "./pipeline/bisect.ts";
import { withSourceBuilds } from "./pipeline/builds.ts";
import { calibrate } from "./pipeline/calibrate.ts";
import { compareSpec } from "./pipeline/compare.ts";
import { mergeParts } from "./pipeline/merge.ts";
import { planRun, writePlan } from "./pipeline/plan.ts";
import { checkOutFile } from "./pipeline/preflight.ts";
import { reapLedger } from "./pipeline/reap.ts";
import { runSpec, TIPERF_VERSION } from "./pipeline/run.ts";
import { parseShard } from "./pipeline/shard.ts";
import { maskSecrets } from "./proc/secrets.ts";
import {
  apiUrl,
  DEFAULT_DEADLINES,
  type Deadlines,
  githubClient,
  openPullRequest,
  parsePr,
  parseRepo,
  upsertIssue,
} from "./publish/github.ts";
import { publishVerdict } from "./publish/index.ts";
import { bisectIssue } from "./report/bisect.ts";
import { commentMarkdown } from "./report/comment.ts";
import { gabEntries } from "./report/gab.ts";
import { renderCharts, verdictHtml, writeHtmlReport } from "./report/html.ts";
import { promoteBaseline } from "./result/baseline.ts";
import type { Result } from "./result/model.ts";
import { readResult, writeAtomic } from "./result/store.ts";
import { parseAge } from "./specfile/keys.ts";
import { type LoadedSpec, loadSpec } from "./specfile/load.ts";
import { type CellRef, compareOverrides, parseTolerance, prepareSpec } from "./specfile/prepare.ts";

const log = (line: string) => process.stderr.write(`${maskSecrets(line)}\n`);

type Flags = Record<string, { type: "string" | "boolean"; short?: string }>;

function flags<T extends Flags>(command: string, args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    const allowed = Object.keys(options)
      .map((k) => `--${k}`)
      .join(", ");
    throw new InputError(
      `tiperf ${command}: ${(e as Error).message.split("\n")[0]} (allowed: ${allowed || "none"})`,
    );
  }
}

function required(command: string, name: string, value: string | boolean | undefined): string {
  if (typeof value !== "string" || value === "")
    throw new InputError(`tiperf ${command}: --${name} is required`);
  return value;
}

/** The spec a run or comparison executes: the file, or composed as the Action composes it. */
function specSource(command: string, values: Record<string, string | boolean | undefined>) {
  const str = (k: string) => (typeof values[k] === "string" ? (values[k] as string) : undefined);
  if (Boolean(str("base-ref")) !== Boolean(str("head-ref")))
    throw new InputError(`tiperf ${command}: --base-ref and --head-ref go together`);
  const builds = ["base-version", "head-version", "base-binpath", "head-binpath"].filter((k) => str(k));
  if (str("base-ref") && builds.length)
    throw new InputError(`tiperf ${command}: --base-ref/--head-ref and --${builds[0]} exclude each other`);
  const profile = str("profile");
  return prepareSpec({
    spec: required(command, "spec", values.spec),
    baseRef: str("base-ref"),
    headRef: str("head-ref"),
    baseConfig: str("base-config"),
    headConfig: str("head-config"),
    baseVersion: str("base-version"),
    headVersion: str("head-version"),
    baseBinpath: str("base-binpath"),
    headBinpath: str("head-binpath"),
    tolerance: parseTolerance(str("tolerance") ?? "", "--tolerance"),
    toleranceFrom: "--tolerance",
    compare: compareOverrides(
      (k) => str(k),
      (k) => `--${k}`,
    ),
  }).then((loaded) => (profile ? { ...loaded, profile } : loaded));
}

async function cmdRun(args: string[], signal: AbortSignal): Promise<number> {
  const { values, positionals } = flags("run", args, parseOptions("run"));
  if (positionals.length > 0)
    throw new InputError(`tiperf run: unexpected argument ${positionals[0]}; use --spec FILE`);
  const loaded = await specSource("run", values);
  const runOpts = { outDir: (values.out as string | undefined) ?? "results", log, signal };
  if (typeof values.baseline === "string") {
    if (values.json) await checkOutFile(values.json as string, "--json");
    const checked = await runAgainstBaseline(loaded, values.baseline, runOpts);
    await writeJson(values.json as string | undefined, checked.verdict);
    log(`verdict: ${checked.verdict.verdict}; report: ${checked.htmlPath}`);
    process.stdout.write(`${checked.verdict.verdict}\n`);
    return checked.exitCode;
  }
  if (values.json)
    throw new InputError("tiperf run: --json is the verdict of --baseline; give --baseline RESULT too");
  const outcome = await runSpec(loaded, runOpts);
  log(`report: ${outcome.runDir.reportPath}`);
  process.stdout.write(`${outcome.runDir.reportPath}\n`);
  return outcome.exitCode;
}

async function cmdCalibrate(args: string[], signal: AbortSignal): Promise<number> {
  const { values, positionals } = flags("calibrate", args, parseOptions("calibrate"));
  if (positionals.length > 0) throw new InputError(`tiperf calibrate: unexpected argument ${positionals[0]}`);
  const spec = required("calibrate", "spec", values.spec);
  const out = await calibrate(spec, {
    outDir: (values.out as string | undefined) ?? "results",
    ...(values.write ? { into: values.write as string } : {}),
    log,
    signal,
  });
  process.stdout.write(`${out.written}\n`);
  return EXIT.ok;
}

async function cmdMerge(args: string[]): Promise<number> {
  const { values, positionals } = flags("merge", args, parseOptions("merge"));
  if (positionals.length === 0)
    throw new InputError("tiperf merge: give the parts: PART... (each shard's result.json or run directory)");
  if (values.json) await checkOutFile(values.json as string, "--json");
  const first = positionals[0] as string;
  const outDir =
    (values.out as string | undefined) ??
    join("results", `merge-${basename(first.endsWith("result.json") ? dirname(first) : first)}`);
  const outcome = await mergeParts(positionals, { outDir, log });
  await writeJson(values.json as string | undefined, outcome.verdict);
  log(`verdict: ${outcome.verdict.verdict} (${outcome.verdictPath}); report: ${outcome.reportPath}`);
  process.stdout.write(`${outcome.verdict.verdict}\n`);
  return outcome.exitCode;
}

async function writeJson(file: string | undefined, value: unknown): Promise<void> {
  if (file) await writeAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}

async function cmdCompare(args: string[], signal: AbortSignal): Promise<number> {
  const { values, positionals } = flags("compare", args, parseOptions("compare"));
  if (positionals.length > 0)
    throw new InputError(`tiperf compare: unexpected argument ${positionals[0]}; use --spec FILE`);
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && !(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 31))
    throw new InputError(
      `tiperf compare: --seed must be a whole number from 0 to 2^31−1 (got ${values.seed})`,
    );
  const shard = values.shard === undefined ? undefined : parseShard(values.shard as string);
  const loaded = await specSource("compare", values);
  if (values.json) await checkOutFile(values.json as string, "--json");
  const outcome = await compareSpec(loaded, {
    outDir: (values.out as string | undefined) ?? "results",
    log,
    signal,
    seed,
    ...(shard ? { shard } : {}),
  });
  await writeJson(values.json as string | undefined, outcome.verdict);
  log(`verdict: ${outcome.verdict.verdict} (${outcome.verdictPath}); report: ${outcome.reportPath}`);
  process.stdout.write(`${outcome.verdict.verdict}\n`);
  return outcome.exitCode;
}

function confidenceFlag(command: string, value: unknown): number {
  if (value === undefined) return 0.95;
  const c = Number(value);
  if (!(c > 0.5 && c < 1))
    throw new InputError(
      `tiperf ${command}: --confidence must be a number in (0.5, 1), like 0.95 (got ${value})`,
    );
  return c;
}

/** --only workload:threads,… (threads optional: every thread count of the workload). */
function onlyCells(value: string | undefined, spec: LoadedSpec): CellRef[] | undefined {
  if (!value) return undefined;
  return value.split(",").flatMap((part) => {
    const m = /^([A-Za-z0-9_.-]+)(?::(\d+))?$/.exec(part.trim());
    const w = m ? spec.spec.workloads.find((x) => x.name === m[1]) : undefined;
    if (!m || !w)
      throw new InputError(
        `tiperf bisect: --only must be WORKLOAD or WORKLOAD:THREADS, comma-separated, of ${spec.path}'s workloads (${spec.spec.workloads.map((x) => x.name).join(", ")}); got ${JSON.stringify(part)}`,
      );
    return m[2]
      ? [{ workload: w.name, threads: Number(m[2]) }]
      : w.threads.map((threads) => ({ workload: w.name, threads }));
  });
}

async function cmdBisect(args: string[], signal: AbortSignal): Promise<number> {
  const { values, positionals } = flags("bisect", args, parseOptions("bisect"));
  if (positionals.length > 0) throw new InputError(`tiperf bisect: unexpected argument ${positionals[0]}`);
  const spec = required("bisect", "spec", values.spec);
  const str = (k: string) => (typeof values[k] === "string" ? (values[k] as string) : undefined);
  let good = str("good");
  let bad = str("bad");
  const loaded = await loadSpec(spec);
  let only = onlyCells(str("only"), loaded);
  if (str("changes")) {
    if (good || bad || only)
      throw new InputError(
        "tiperf bisect: --changes names good, bad and the cell itself: leave out --good, --bad and --only",
      );
    const file = str("changes") as string;
    const changes = await readChangePoints(file);
    if (!changes)
      throw new InputError(
        `tiperf bisect: --changes ${file} is not a change-point report (tiperf history check --json)`,
      );
    const range = bisectRange(changes, loaded.spec.name);
    if (!range) {
      process.stdout.write(
        `no new change point for the worse with its commits recorded in ${file}: nothing to bisect\n`,
      );
      return EXIT.ok;
    }
    if ((await commitsBetween(spec, loaded, range.good, range.bad)) === 1) {
      process.stdout.write(
        `one commit between the runs: ${range.bad} is the first bad one; nothing to bisect\n`,
      );
      return EXIT.ok;
    }
    ({ good, bad } = range);
    only = [{ workload: range.workload, threads: range.threads }];
  }
  if (!good || !bad)
    throw new InputError("tiperf bisect: give --good REF and --bad REF (or --changes CHANGEPOINTS_JSON)");
  const remeasure = Number(str("remeasure") ?? "1");
  if (!Number.isInteger(remeasure) || remeasure < 0 || remeasure > 3)
    throw new InputError(
      `tiperf bisect: --remeasure must be a whole number from 0 to 3 (got ${str("remeasure")})`,
    );
  const runners = Number(str("runners") ?? "1");
  if (!Number.isInteger(runners) || runners < 1 || runners > 16)
    throw new InputError(
      `tiperf bisect: --runners must be a whole number of runners from 1 to 16 (got ${str("runners")})`,
    );
  const overrides = compareOverrides(
    (k) => (k === "confidence" ? undefined : str(k)),
    (k) => `--${k}`,
  );
  if (values.json) await checkOutFile(values.json as string, "--json");
  const outcome = await bisectSpec({
    spec,
    good,
    bad,
    ...(only ? { only } : {}),
    compare: overrides,
    tolerance: parseTolerance(str("tolerance") ?? "", "--tolerance"),
    ...(str("metric") ? { metric: str("metric") as string } : {}),
    confidence: confidenceFlag("bisect", values.confidence),
    remeasure,
    runners,
    ...(str("profile") ? { profile: str("profile") } : {}),
    outDir: str("out") ?? "results",
    log,
    signal,
  });
  if (values.json) await writeAtomic(values.json as string, `${JSON.stringify(outcome.report, null, 2)}\n`);
  // found: the first bad commit; undecided or unconfirmed: the open range as after..through
  const { first_bad, open_range } = outcome.report;
  const named = first_bad
    ? ` ${first_bad.commit}`
    : open_range
      ? ` ${open_range.after.commit}..${open_range.through.commit}`
      : "";
  process.stdout.write(`${outcome.report.outcome}${named}
`);
  return outcome.exitCode;
}

async function cmdDiff(args: string[]): Promise<number> {
  const { values, positionals } = flags("diff", args, parseOptions("diff"));
  const [baseFile, headFile, extra] = positionals;
  if (!baseFile || !headFile || extra)
    throw new InputError("tiperf diff: give exactly two result files: BASE_RESULT HEAD_RESULT");
  if (!existsSync(baseFile)) {
    throw new InputError(
      `tiperf diff: no baseline at ${baseFile} (a missing baseline is never a pass: create one with tiperf baseline update)`,
    );
  }
  if (existsSync(headFile) && realpathSync(baseFile) === realpathSync(headFile))
    log(
      `warning: diff: ${baseFile} and ${headFile} are the same file: every change is zero by construction, which says nothing about performance`,
    );
  const verdict = judgeStored(
    {
      result: await readResult(baseFile),
      file: baseFile,
      variant: values["base-variant"] as string | undefined,
    },
    {
      result: await readResult(headFile),
      file: headFile,
      variant: values["head-variant"] as string | undefined,
    },
    { confidence: confidenceFlag("diff", values.confidence), force: values.force === true },
  );
  await writeJson(values.json as string | undefined, verdict);
  process.stdout.write(commentMarkdown(verdict));
  return verdict.verdict === "regression" ? EXIT.regression : EXIT.ok;
}

async function cmdBaseline(args: string[]): Promise<number> {
  const { values, positionals } = flags("baseline", args, parseOptions("baseline"));
  const [action, ...rest] = positionals;
  if (action !== "update")
    throw new InputError(`tiperf baseline: the action must be update (got ${action ?? "nothing"})`);
  const file = onePositional("baseline update", rest, "RESULT file");
  const written = await promoteBaseline(
    file,
    (values.dir as string | undefined) ?? "baselines",
    values.profile as string | undefined,
  );
  log(`baseline: ${written}`);
  process.stdout.write(`${written}\n`);
  return EXIT.ok;
}

function onePositional(command: string, positionals: string[], what: string): string {
  const [file, extra] = positionals;
  if (!file || extra) throw new InputError(`tiperf ${command}: give exactly one ${what}`);
  return file;
}

/** report --history: the series of this spec in a `history check --json` report, as HTML sections. */
async function historyOfSpec(file: string, spec: string): Promise<string> {
  const changes = await readChangePoints(file);
  if (!changes)
    throw new InputError(
      `tiperf report: --history ${file} is not a change-point report (write one with tiperf history check --json)`,
    );
  const html = historySections(changes, "h3", spec);
  if (!html)
    throw new InputError(
      `tiperf report: --history ${file} has no history of spec ${spec} (it has ${changes.files.map((f) => f.spec).join(", ") || "none"})`,
    );
  return html;
}

async function cmdReport(args: string[]): Promise<number> {
  const { values, positionals } = flags("report", args, parseOptions("report"));
  const verdict = await readVerdict(onePositional("report", positionals, "VERDICT_JSON file"));
  const format = (values.format as string | undefined) ?? "markdown";
  const out = values.out as string | undefined;
  if (format === "markdown") {
    const text = commentMarkdown(verdict, { matrix: values.matrix as string | undefined });
    if (out) await writeAtomic(out, text);
    else process.stdout.write(text);
  } else if (format === "html") {
    // the judged results, where they still are, give the per-second charts
    const results: Result[] = [];
    for (const file of new Set([verdict.base.result, verdict.head.result]))
      if (existsSync(file)) results.push(await readResult(file));
    const extra = {
      results,
      ...(values.history
        ? { history: await historyOfSpec(values.history as string, verdict.spec.name) }
        : {}),
    };
    if (out) {
      const files = await writeHtmlReport(verdict, out, log, extra);
      log(`report: ${out} and ${files.length - 1} chart file(s) under charts/`);
    } else process.stdout.write(verdictHtml(verdict, await renderCharts(verdict, results), extra));
  } else {
    throw new InputError(`tiperf report: --format must be markdown or html (got ${format})`);
  }
  if (out) process.stdout.write(`${out}\n`);
  return EXIT.ok;
}

function seconds(command: string, flag: string, value: unknown, fallbackMs: number): number {
  if (value === undefined) return fallbackMs;
  const m = /^(\d+)(ms|s|m)$/.exec(String(value));
  const ms = m ? Number(m[1]) * { ms: 1, s: 1000, m: 60_000 }[m[2] as "ms" | "s" | "m"] : Number.NaN;
  if (!(ms > 0))
    throw new InputError(
      `tiperf ${command}: --${flag} must be a duration like 500ms, 30s or 3m (got ${value})`,
    );
  return ms;
}

/** --timeout (per request) and --deadline (all requests, retries included) of a GitHub command. */
function deadlines(command: string, values: Record<string, unknown>): Deadlines {
  return {
    requestMs: seconds(command, "timeout", values.timeout, DEFAULT_DEADLINES.requestMs),
    overallMs: seconds(command, "deadline", values.deadline, DEFAULT_DEADLINES.overallMs),
  };
}

async function cmdComment(args: string[]): Promise<number> {
  const { values, positionals } = flags("comment", args, parseOptions("comment"));
  const verdictFile = onePositional("comment", positionals, "VERDICT_JSON file");
  const { owner, repo } = parseRepo(required("comment", "repo", values.repo));
  const pr = parsePr(required("comment", "pr", values.pr));
  const token = githubToken("comment");
  const verdict = await readVerdict(verdictFile);
  const outcome = await publishVerdict(verdict, {
    pr: { owner, repo, pr },
    token,
    matrix: values.matrix as string | undefined,
    fullReport: "the run's report artifact",
    deadlines: deadlines("comment", values),
    log,
  });
  process.stdout.write(`${outcome.status}${outcome.commentId ? ` ${outcome.commentId}` : ""}\n`);
  return EXIT.ok;
}

async function cmdExport(args: string[]): Promise<number> {
  const { values, positionals } = flags("export", args, parseOptions("export"));
  const [format, ...rest] = positionals;
  if (format !== "gab")
    throw new InputError(`tiperf export: the format must be gab (got ${format ?? "nothing"})`);
  const file = onePositional("export gab", rest, "RESULT file");
  const out = required("export gab", "out", values.out);
  const better = (values.better as string | undefined) ?? "higher";
  if (better !== "higher" && better !== "lower")
    throw new InputError(
      `tiperf export gab: --better must be higher (TPS/QPS, customBiggerIsBetter) or lower (latency, customSmallerIsBetter) (got ${better})`,
    );
  const entries = gabEntries(await readResult(file), better, values.variant as string | undefined);
  if (entries.length === 0)
    throw new InputError(`tiperf export gab: ${file} has no finished cells to export`);
  await writeJson(out, entries);
  log(
    `export: ${entries.length} ${better === "higher" ? "customBiggerIsBetter" : "customSmallerIsBetter"} entries in ${out}`,
  );
  process.stdout.write(`${out}\n`);
  return EXIT.ok;
}

function githubToken(command: string): string {
  const token = process.env.GITHUB_TOKEN;
  if (!token)
    throw new InputError(
      `tiperf ${command}: GITHUB_TOKEN is not set (a token that may write to the repository)`,
    );
  return token;
}

async function cmdAlarm(args: string[]): Promise<number> {
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
    const label = (values.label as string | undefined) ?? "tiperf-change-point";
    const gh = githubClient(githubToken("alarm"), apiUrl(), log, undefined, deadlines("alarm", values));
    const r = await upsertIssue(gh, repo, { ...issue, label }, log);
    process.stdout.write(`${r.status} ${r.number}\n`);
    return EXIT.ok;
  }
  const leftovers = await readReapReport(file);
  if (leftovers) {
    if (leftovers.overdue.length === 0) {
      process.stdout.write("nothing overdue: no issue\n");
      return EXIT.ok;
    }
    const label = (values.label as string | undefined) ?? "tiperf-leftovers";
    const gh = githubClient(githubToken("alarm"), apiUrl(), log, undefined, deadlines("alarm", values));
    const r = await upsertIssue(
      gh,
      repo,
      { title: leftoversTitle(leftovers), body: leftoversMarkdown(leftovers), label },
      log,
    );
    process.stdout.write(`${r.status} ${r.number}\n`);
    return EXIT.ok;
  }
  const bisected = await readBisect(file);
  if (bisected) {
    const issue = bisectIssue(bisected);
    if (!issue) {
      process.stdout.write(`bisect ${bisected.outcome}: no issue\n`);
      return EXIT.ok;
    }
    const label = (values.label as string | undefined) ?? "tiperf-bisect";
    const gh = githubClient(githubToken("alarm"), apiUrl(), log, undefined, deadlines("alarm", values));
    const r = await upsertIssue(gh, repo, { ...issue, label }, log);
    process.stdout.write(`${r.status} ${r.number}\n`);
    return EXIT.ok;
  }
  const verdict = await readVerdict(file);
  const label = (values.label as string | undefined) ?? "tiperf-regression";
  const gh = githubClient(githubToken("alarm"), apiUrl(), log, undefined, deadlines("alarm", values));
  const title = `tiperf ${verdict.spec.name}: ${verdict.verdict} (${verdict.created_at.slice(0, 10)})`;
  const r = await upsertIssue(
    gh,
    repo,
    { title, body: commentMarkdown(verdict, { matrix: label }), label },
    log,
  );
  process.stdout.write(`${r.status} ${r.number}\n`);
  return EXIT.ok;
}

async function cmdPullRequest(args: string[]): Promise<number> {
  const { values, positionals } = flags("pull-request", args, parseOptions("pull-request"));
  if (positionals.length > 0)
    throw new InputError(`tiperf pull-request: unexpected argument ${positionals[0]}`);
  const repo = parseRepo(required("pull-request", "repo", values.repo));
  const bodyFile = values["body-file"] as string | undefined;
  const body = bodyFile ? await readFile(bodyFile, "utf8") : "";
  const n = await openPullRequest(
    githubClient(githubToken("pull-request"), apiUrl(), log, undefined, deadlines("pull-request", values)),
    repo,
    {
      head: required("pull-request", "head", values.head),
      base: required("pull-request", "base", values.base),
      title: required("pull-request", "title", values.title),
      body,
    },
    log,
  );
  process.stdout.write(`${n}\n`);
  return EXIT.ok;
}

function maxAge(value: string): number {
  const ms = parseAge(value);
  if (ms === undefined)
    throw new InputError(`tiperf reap: --max-age must be like 90m, 3h or 2d (got ${value})`);
  return ms;
}

async function cmdPlan(args: string[]): Promise<number> {
  const { values, positionals } = flags("plan", args, parseOptions("plan"));
  if (positionals.length > 0)
    throw new InputError(`tiperf plan: unexpected argument ${positionals[0]}; use --spec FILE`);
  // a target built from source: the plan names each commit's binary (kept, or to be built)
  const loaded = await withSourceBuilds(await specSource("plan", values), { log, dryRun: true });
  const runId = values["run-id"];
  if (typeof runId === "string" && !/^[A-Za-z0-9._-]{1,200}$/.test(runId))
    throw new InputError(
      `tiperf plan: --run-id must be a run id like 20261125T080000Z-pr-1a2b (letters, digits, . _ -), got ${JSON.stringify(runId)}`,
    );
  const shards = values.shards === undefined ? undefined : Number(values.shards);
  if (shards !== undefined && !(Number.isInteger(shards) && shards >= 1 && shards <= 64))
    throw new InputError(
      `tiperf plan: --shards must be a whole number of runners from 1 to 64 (got ${values.shards})`,
    );
  const plan = await planRun(loaded, {
    ...(typeof values.profile === "string" ? { profile: values.profile } : {}),
    ...(typeof runId === "string" ? { runId } : {}),
    ...(shards !== undefined ? { shards } : {}),
  });
  process.stdout.write(plan.text);
  if (typeof values.out === "string") {
    const written = await writePlan(plan, values.out);
    log(`plan: wrote ${written.length} files to ${values.out}`);
  }
  if (plan.refusals.length) {
    for (const r of plan.refusals) log(`error: ${r}`);
    return EXIT.badInput;
  }
  return EXIT.ok;
}

async function cmdHistory(args: string[]): Promise<number> {
  const { values, positionals } = flags("history", args, parseOptions("history"));
  const [action, ...rest] = positionals;
  const dir = required("history", "dir", values.dir);
  if (action === "add") {
    for (const f of ["since", "pvalue", "permutations", "min-segment", "json", "html"])
      if (values[f] !== undefined) throw new InputError(`tiperf history add: --${f} goes with check`);
    const file = onePositional("history add", rest, "RESULT file");
    const result = await readResult(file);
    const commit = (values.commit as string | undefined) ?? process.env.GITHUB_SHA;
    if (commit !== undefined && !/^[0-9a-f]{7,40}$/.test(commit))
      throw new InputError(
        `tiperf history add: --commit must be a commit SHA (7–40 hex digits), got ${commit}`,
      );
    const entry = entryOf(result, file, {
      ...(values.variant ? { variant: values.variant as string } : {}),
      ...(values.profile ? { profile: values.profile as string } : {}),
      ...(commit ? { commit } : {}),
      ...(process.env.GITHUB_REF_NAME ? { ref: process.env.GITHUB_REF_NAME } : {}),
    });
    const written = await appendHistory(dir, entry);
    log(`history: run ${entry.run_id} appended to ${written} (${entry.values.length} series values)`);
    process.stdout.write(`${written}\n`);
    return EXIT.ok;
  }
  if (action !== "check")
    throw new InputError(`tiperf history: the action must be add or check (got ${action ?? "nothing"})`);
  if (rest.length) throw new InputError(`tiperf history check: unexpected argument ${rest[0]}`);
  for (const f of ["variant", "profile", "commit"])
    if (values[f] !== undefined) throw new InputError(`tiperf history check: --${f} goes with add`);
  const pvalue = Number((values.pvalue as string | undefined) ?? "0.05");
  if (!(pvalue > 0 && pvalue < 1))
    throw new InputError(
      `tiperf history check: --pvalue must be a number between 0 and 1 (got ${values.pvalue})`,
    );
  const permutations = Number((values.permutations as string | undefined) ?? "199");
  if (!Number.isInteger(permutations) || permutations < 19 || permutations > 10_000)
    throw new InputError(
      `tiperf history check: --permutations must be a whole number from 19 to 10000 (got ${values.permutations})`,
    );
  const minSegment = Number((values["min-segment"] as string | undefined) ?? String(MIN_SEGMENT));
  if (!Number.isInteger(minSegment) || minSegment < 1 || minSegment > 52)
    throw new InputError(
      `tiperf history check: --min-segment must be a whole number of runs from 1 to 52 (got ${values["min-segment"]})`,
    );
  const report = await checkHistory(dir, {
    pvalue,
    permutations,
    minSegment,
    ...(values.since ? { since: values.since as string } : {}),
  });
  process.stdout.write(changePointText(report));
  if (values.json) await writeAtomic(values.json as string, `${JSON.stringify(report, null, 2)}\n`);
  if (values.html) await writeAtomic(values.html as string, historyHtml(report));
  const worseNew = report.files.some((f) => f.series.some((s) => s.points.some((p) => p.new && p.worse)));
  return worseNew ? EXIT.regression : EXIT.ok;
}

async function cmdReap(args: string[]): Promise<number> {
  const { values, positionals } = flags("reap", args, parseOptions("reap"));
  if (positionals.length > 0) throw new InputError(`tiperf reap: unexpected argument ${positionals[0]}`);
  if (values.kubernetes === true && values.cloud !== undefined)
    throw new InputError("tiperf reap: --kubernetes and --cloud are two reaps: run one at a time");
  if (values.cloud !== undefined) return reapCloud(values);
  if (values.kubernetes === true) return reapKube(values);
  for (const flag of ["kubeconfig", "context"])
    if (values[flag] !== undefined) throw new InputError(`tiperf reap: --${flag} goes with --kubernetes`);
  for (const flag of ["region", "endpoint", "json"])
    if (values[flag] !== undefined) throw new InputError(`tiperf reap: --${flag} goes with --cloud aws`);
  const { swept, kept } = await reapLedger({
    dir: (values.ledger as string | undefined) ?? ledgerDir(),
    maxAgeMs: maxAge((values["max-age"] as string | undefined) ?? "3h"),
    dryRun: values["dry-run"] === true,
    log,
  });
  process.stdout.write(
    `${values["dry-run"] ? "would reap" : "reaped"} ${swept.length}, kept ${kept.length} (still owned and younger than max-age)\n`,
  );
  return EXIT.ok;
}

async function reapKube(values: Record<string, unknown>): Promise<number> {
  for (const flag of ["region", "endpoint", "ledger", "max-age"])
    if (values[flag] !== undefined)
      throw new InputError(
        `tiperf reap --kubernetes: --${flag} is not one of its flags (it reaps by each namespace's expiry)`,
      );
  const report = await reapKubernetes({
    ...(typeof values.kubeconfig === "string" ? { kubeconfig: values.kubeconfig } : {}),
    ...(typeof values.context === "string" ? { context: values.context } : {}),
    dryRun: values["dry-run"] === true,
    log,
  });
  if (typeof values.json === "string") await writeAtomic(values.json, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(
    `${report.dryRun ? "would delete" : "deleted"} ${report.removed.length} namespace(s), kept ${report.kept.length} (not expired), left ${report.unreadable.length} without an expiry, ${report.deleting.length} already being deleted, failed ${report.failed.length} on ${report.server} (context ${report.context})\n`,
  );
  return report.failed.length > 0 ? EXIT.runFailed : EXIT.ok;
}

async function reapCloud(values: Record<string, unknown>): Promise<number> {
  const name = String(values.cloud);
  const cloud = CLOUDS[name];
  if (!cloud)
    throw new InputError(`tiperf reap: --cloud must be ${Object.keys(CLOUDS).join(" or ")} (got ${name})`);
  const region = values.region;
  if (typeof region !== "string" || !cloud.region.pattern.test(region))
    throw new InputError(
      `tiperf reap: --cloud ${name} needs --region, a region of ${name} like ${cloud.region.example} (got ${String(region ?? "nothing")})`,
    );
  const endpoint = values.endpoint as string | undefined;
  if (endpoint !== undefined && !/^https?:\/\/\S+$/.test(endpoint))
    throw new InputError(`tiperf reap: --endpoint must be an http(s) URL (got ${endpoint})`);
  const report = await cloud.reap({
    region,
    ...(endpoint ? { endpoint } : {}),
    dryRun: values["dry-run"] === true,
    log,
  });
  if (typeof values.json === "string") await writeAtomic(values.json, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(
    `${report.dryRun ? "would remove" : "removed"} ${report.removed.length}, kept ${report.kept.length} (not expired), failed ${report.failed.length}, overdue ${report.overdue.length} (alive past twice their ttl) in ${region}\n`,
  );
  return report.failed.length > 0 ? EXIT.runFailed : EXIT.ok;
}

async function cmdInit(args: string[]): Promise<number> {
  const { values, positionals } = flags("init", args, parseOptions("init"));
  if (positionals.length)
    throw new InputError(`tiperf init: unexpected argument ${positionals[0]}; use --dir DIR`);
  if (values.tidb && values.dispatch) throw new InputError("tiperf init: --tidb or --dispatch, not both");
  const kase = values.tidb ? "tidb" : values.dispatch ? "dispatch" : "config";
  const dir = typeof values.dir === "string" ? values.dir : ".";
  if (!existsSync(dir)) throw new InputError(`tiperf init: --dir ${dir}: no such directory`);
  await initRepository(dir, kase, (line) => process.stdout.write(`${line}\n`));
  return EXIT.ok;
}

async function cmdParse(args: string[]): Promise<number> {
  const { positionals } = flags("parse", args, parseOptions("parse"));
  const [tool, file, extra] = positionals;
  const parse = tool === undefined ? undefined : DRIVERS[tool]?.parse;
  if (!parse)
    throw new InputError(
      `tiperf parse: the tool must be ${driverNames().join(" or ")} (got ${tool ?? "nothing"})`,
    );
  if (!file || extra) throw new InputError(`tiperf parse ${tool}: give exactly one FILE`);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new InputError(
      `tiperf parse ${tool}: ${file}: cannot read the file (${(e as NodeJS.ErrnoException).code})`,
    );
  }
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch (e) {
    // Parsers only read text: whatever they refuse is the file's content (a failure it reports).
    throw new InputError(`${file}: ${(e as Error).message}`);
  }
  process.stdout.write(`${JSON.stringify(parsed, null, 2)}\n`);
  return EXIT.ok;
}

/** One line for an error: a file-system error by its path and errno, a bug with its stack. */
function describeError(e: unknown): string {
  if (e instanceof TiperfError) return e.message;
  const fsError = e as NodeJS.ErrnoException;
  if (fsError?.code && fsError.path) return `${fsError.syscall ?? "access"} ${fsError.path}: ${errnoText(e)}`;
  return (e as Error)?.stack ?? String(e);
}

export async function main(argv: string[]): Promise<number> {
  const abort = new AbortController();
  installSignalTeardown(abort, log);
  installCrashTeardown(log, describeError);
  const [command, ...rest] = argv;
  // tiperf COMMAND --help: that command's synopsis, whatever else was given
  const asked = COMMANDS.find((c) => c.name === command);
  // tiperf help COMMAND: the same
  const about = command === "help" ? COMMANDS.find((c) => c.name === rest[0]) : undefined;
  if (about) {
    process.stdout.write(`${commandUsage(about)}\n`);
    return EXIT.ok;
  }
  if (asked && (rest.includes("--help") || rest.includes("-h"))) {
    process.stdout.write(`${commandUsage(asked)}\n`);
    return EXIT.ok;
  }
  try {
    switch (command) {
      case "run":
        return await cmdRun(rest, abort.signal);
      case "compare":
        return await cmdCompare(rest, abort.signal);
      case "bisect":
        return await cmdBisect(rest, abort.signal);
      case "merge":
        return await cmdMerge(rest);
      case "calibrate":
        return await cmdCalibrate(rest, abort.signal);
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
      case "history":
        return await cmdHistory(rest);
      case "parse":
        return await cmdParse(rest);
      case "init":
        return await cmdInit(rest);
      case "--version":
      case "version":
        process.stdout.write(`tiperf ${TIPERF_VERSION}\n`);
        return EXIT.ok;
      case undefined:
      case "help":
      case "--help":
      case "-h":
        if (command === "help" && rest[0])
          throw new InputError(
            `tiperf help: no command ${rest[0]}; commands: ${COMMANDS.map((c) => c.name).join(", ")}`,
          );
        process.stdout.write(`${usageText()}\n`);
        return command === undefined ? EXIT.badInput : EXIT.ok;
      default:
        throw new InputError(
          `tiperf: unknown command ${command}; commands: ${COMMANDS.map((c) => c.name).join(", ")}`,
        );
    }
  } catch (e) {
    if (abort.signal.reason instanceof Interrupted) {
      log(`error: ${(e as Error).message}`);
      return abort.signal.reason.exitCode;
    }
    log(`error: ${describeError(e)}`);
    return e instanceof TiperfError ? e.exitCode : EXIT.runFailed;
  } finally {
    await teardownAll(log);
  }
}

// Exit as soon as the command is done: a retry timer of a request given up on (the GitHub
// deadline) must not keep the process alive. Output to pipes and files is synchronous on Linux.
main(process.argv.slice(2)).then((code) => process.exit(code));
