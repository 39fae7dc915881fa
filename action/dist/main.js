#!/usr/bin/env node
import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path';
const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);
import {
  VerdictSchema,
  compareSpec,
  judgeStored,
  parsePr,
  parseRepo,
  publishVerdict,
  runSpec,
  writeVerdictFiles
} from "./chunk-YBN25MAY.js";
import {
  getInput,
  info,
  saveState,
  setFailed,
  setOutput,
  setSecret,
  warning
} from "./chunk-5FIWSM7P.js";
import {
  CompareSchema,
  InputError,
  Interrupted,
  TiperfError,
  hashSpec,
  installCrashTeardown,
  installSignalTeardown,
  ledgerDir,
  loadSpec,
  parseSpec,
  readResult,
  require_dist,
  teardownAll
} from "./chunk-32E6QYS4.js";
import {
  __toESM
} from "./chunk-L6ZARMTC.js";

// action/src/action/steps.ts
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

// action/src/specfile/prepare.ts
var import_yaml = __toESM(require_dist(), 1);
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
var isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
async function yamlMapping(text, where) {
  let raw;
  try {
    raw = (0, import_yaml.parse)(text);
  } catch (e) {
    throw new InputError(`${where}: invalid YAML: ${e.message.split("\n")[0]}`);
  }
  if (!isObj(raw)) throw new InputError(`${where}: must be a YAML mapping`);
  return raw;
}
async function fileMapping(file2) {
  let text;
  try {
    text = await readFile(file2, "utf8");
  } catch (e) {
    throw new InputError(`${file2}: cannot read the file (${e.code})`);
  }
  return yamlMapping(text, file2);
}
async function specAtRef(spec, ref2, cwd) {
  try {
    const { stdout } = await promisify(execFile)("git", ["show", `${ref2}:${spec.replace(/^\.\//, "")}`], {
      cwd,
      maxBuffer: 8 << 20
    });
    return stdout;
  } catch (e) {
    throw new InputError(
      `cannot read ${spec} at git ref ${ref2}: ${(e.stderr ?? e.message).trim().split("\n")[0]} (is the ref fetched? actions/checkout needs fetch-depth: 0)`
    );
  }
}
function defaultMetrics(raw, where) {
  const out = {};
  for (const w of parseSpec((0, import_yaml.stringify)(raw), where).spec.workloads)
    for (const [m, rule] of Object.entries(w.judge))
      out[m] = { tolerance: `${Number((rule.tolerance * 100).toFixed(4))}%` };
  return out;
}
function applyTolerance(raw, tolerance, where) {
  if (!tolerance || Object.keys(tolerance).length === 0) return;
  const metrics = isObj(raw.metrics) ? raw.metrics : defaultMetrics(raw, where);
  for (const m of Object.keys(tolerance)) {
    if (m !== "*" && !isObj(metrics[m])) {
      throw new InputError(
        `'tolerance' input: ${m} is not judged by ${where} (its metrics: ${Object.keys(metrics).join(", ")})`
      );
    }
  }
  for (const [m, rule] of Object.entries(metrics)) {
    const t = tolerance[m] ?? tolerance["*"];
    if (t !== void 0 && isObj(rule)) rule.tolerance = `${Number((t * 100).toFixed(4))}%`;
  }
  raw.metrics = metrics;
}
async function prepareSpec(src) {
  if (src.baseRef && src.headRef) {
    const label = (ref2) => `${src.spec}@${ref2}`;
    const baseRaw = await yamlMapping(await specAtRef(src.spec, src.baseRef, src.cwd), label(src.baseRef));
    const headRaw = await yamlMapping(await specAtRef(src.spec, src.headRef, src.cwd), label(src.headRef));
    applyTolerance(headRaw, src.tolerance, label(src.headRef));
    delete headRaw.variants;
    const compare = isObj(headRaw.compare) ? headRaw.compare : {};
    headRaw.compare = { ...compare, base: "base", head: "head" };
    const base = parseSpec((0, import_yaml.stringify)({ ...headRaw, target: baseRaw.target }), label(src.baseRef));
    const head = parseSpec((0, import_yaml.stringify)(headRaw), label(src.headRef));
    const spec = { ...head.spec };
    return {
      path: src.spec,
      spec,
      hash: hashSpec({ base: base.spec, head: head.spec }),
      variants: {
        base: { name: "base", spec: base.spec },
        head: { name: "head", spec: head.spec },
        compare: head.spec.compare ?? CompareSchema.parse({})
      }
    };
  }
  const plain = !src.baseConfig && !src.headConfig && Object.keys(src.tolerance ?? {}).length === 0;
  if (plain) return loadSpec(src.spec);
  const raw = await fileMapping(src.spec);
  applyTolerance(raw, src.tolerance, src.spec);
  if (src.baseConfig || src.headConfig) {
    raw.variants = {
      base: src.baseConfig ? await fileMapping(src.baseConfig) : {},
      head: src.headConfig ? await fileMapping(src.headConfig) : {}
    };
    raw.compare = { ...isObj(raw.compare) ? raw.compare : {}, base: "base", head: "head" };
    const names = [src.baseConfig, src.headConfig].filter(Boolean).join(" + ");
    return { ...parseSpec((0, import_yaml.stringify)(raw), `${src.spec} (variants from ${names})`), path: src.spec };
  }
  return { ...parseSpec((0, import_yaml.stringify)(raw), src.spec), path: src.spec };
}

// action/src/action/inputs.ts
import { existsSync, statSync } from "node:fs";
var MODES = ["compare", "run", "diff", "publish"];
var FAIL_ON = ["regression", "inconclusive", "never"];
var GIT_REF = /^(?!-)(?!.*\.\.)[A-Za-z0-9._/@^~+-]{1,200}$/;
function oneOf(name, value, allowed) {
  if (!allowed.includes(value))
    throw new InputError(
      `'${name}' input must be one of ${allowed.join(", ")} (got ${JSON.stringify(value)})`
    );
  return value;
}
function file(name, value) {
  if (value === "") return void 0;
  if (value.startsWith("-") || value.includes("\0"))
    throw new InputError(`'${name}' input must be a file path (got ${JSON.stringify(value)})`);
  if (!existsSync(value) || !statSync(value).isFile())
    throw new InputError(`'${name}' input: no file at ${value} (paths are relative to the workspace)`);
  return value;
}
function ref(name, value) {
  if (value === "") return void 0;
  if (!GIT_REF.test(value))
    throw new InputError(
      `'${name}' input must be a git ref (a branch, tag or commit: letters, digits and . _ / @ ^ ~ + -; got ${JSON.stringify(value)})`
    );
  return value;
}
function parseTolerance(value, name = "tolerance") {
  const out = {};
  if (value.trim() === "") return out;
  for (const part of value.split(",").map((p) => p.trim())) {
    const m = /^(?:(tps|qps|p\d{1,3}_ms)=)?(\d+(?:\.\d+)?)%$/.exec(part);
    if (!m || Number(m[2]) >= 100)
      throw new InputError(
        `'${name}' input must be a percentage like 5% or per metric like tps=5%,p95_ms=10% (got ${JSON.stringify(part)})`
      );
    out[m[1] ?? "*"] = Number(m[2]) / 100;
  }
  return out;
}
function bool(name, value) {
  if (["", "true", "on", "yes"].includes(value)) return true;
  if (["false", "off", "no"].includes(value)) return false;
  throw new InputError(`'${name}' input must be true or false (got ${JSON.stringify(value)})`);
}
function eventPr(event2) {
  const e = event2;
  const n = e?.pull_request?.number ?? void 0;
  return typeof n === "number" ? n : void 0;
}
function readInputs(get, env, event2) {
  const mode = oneOf("mode", get("mode") || "compare", MODES);
  const inputs = {
    mode,
    spec: mode === "publish" ? void 0 : file("spec", get("spec")),
    baseRef: ref("base-ref", get("base-ref")),
    headRef: ref("head-ref", get("head-ref")),
    baseConfig: file("base-config", get("base-config")),
    headConfig: file("head-config", get("head-config")),
    baseline: mode === "diff" ? file("baseline", get("baseline")) : void 0,
    tolerance: parseTolerance(get("tolerance")),
    failOn: oneOf("fail-on", get("fail-on") || "regression", FAIL_ON),
    token: get("github-token"),
    comment: bool("comment", get("comment")),
    matrix: get("matrix") || void 0,
    out: get("out") || "tiperf-results",
    verdictJson: get("verdict-json") || void 0
  };
  if (mode !== "publish" && !inputs.spec) throw new InputError(`'spec' input is required in mode ${mode}`);
  if (mode === "diff" && !inputs.baseline)
    throw new InputError("'baseline' input is required in mode diff (a stored result under baselines/)");
  if (mode === "publish" && !inputs.verdictJson)
    throw new InputError(
      "'verdict-json' input is required in mode publish (the verdict of the benchmark job)"
    );
  if (inputs.baseRef === void 0 !== (inputs.headRef === void 0))
    throw new InputError("'base-ref' and 'head-ref' inputs go together: give both or neither");
  if (inputs.baseRef && (inputs.baseConfig || inputs.headConfig))
    throw new InputError("'base-ref'/'head-ref' and 'base-config'/'head-config' inputs exclude each other");
  const repo = get("repository") || env.GITHUB_REPOSITORY || "";
  if (repo) inputs.repo = parseRepo(repo, "'repository' input");
  const pr = get("pr");
  inputs.pr = pr ? parsePr(pr, "'pr' input") : eventPr(event2);
  return inputs;
}

// action/src/action/steps.ts
var log = (line) => line.startsWith("warning: ") ? warning(line.slice("warning: ".length)) : info(line);
function event() {
  const file2 = process.env.GITHUB_EVENT_PATH;
  if (!file2) return void 0;
  try {
    return JSON.parse(readFileSync(file2, "utf8"));
  } catch {
    return void 0;
  }
}
async function produce(inputs, signal) {
  if (inputs.mode === "publish") {
    let raw;
    try {
      raw = JSON.parse(inputs.verdictJson ?? "");
    } catch (e) {
      throw new InputError(`'verdict-json' input is not JSON (${e.message})`);
    }
    const parsed = VerdictSchema.safeParse(raw);
    if (!parsed.success)
      throw new InputError(
        `'verdict-json' input is not a tiperf verdict (${parsed.error.issues[0]?.message})`
      );
    return { verdict: parsed.data };
  }
  const loaded = await prepareSpec({
    spec: inputs.spec,
    baseRef: inputs.baseRef,
    headRef: inputs.headRef,
    baseConfig: inputs.baseConfig,
    headConfig: inputs.headConfig,
    tolerance: inputs.tolerance
  });
  const opts = { outDir: inputs.out, log, signal };
  if (inputs.mode === "compare") {
    const outcome2 = await compareSpec(loaded, opts);
    return { verdict: outcome2.verdict, reportPath: outcome2.htmlPath, resultPath: outcome2.resultPath };
  }
  const outcome = await runSpec(loaded, opts);
  const resultPath = outcome.runDir.resultPath;
  if (inputs.mode === "run") {
    return { status: outcome.result.status, reportPath: outcome.runDir.reportPath, resultPath };
  }
  if (outcome.result.status !== "complete")
    throw new TiperfError(`the run did not complete (${outcome.result.error ?? outcome.result.status})`, 3);
  const baseline = inputs.baseline;
  const verdict = judgeStored(
    { result: await readResult(baseline), file: baseline },
    { result: outcome.result, file: resultPath },
    { confidence: 0.95, force: false }
  );
  const { htmlPath } = await writeVerdictFiles(verdict, dirname(resultPath), log);
  return { verdict, reportPath: htmlPath, resultPath };
}
function failure(inputs, v) {
  if (inputs.failOn === "never") return void 0;
  const regressions = v.cells.filter((c) => c.verdict === "regression");
  if (v.verdict === "regression") {
    const list = regressions.slice(0, 5).map((c) => `${c.workload} threads=${c.threads} ${c.metric} ${(100 * (c.change ?? 0)).toFixed(1)}%`).join("; ");
    return `tiperf: regression in ${regressions.length} judgement(s): ${list}${regressions.length > 5 ? "; \u2026" : ""}`;
  }
  if (v.verdict === "inconclusive" && inputs.failOn === "inconclusive")
    return "tiperf: inconclusive and fail-on is inconclusive: more rounds (compare.max_rounds) or a quieter runner";
  return void 0;
}
async function mainStep() {
  const abort = new AbortController();
  installSignalTeardown(abort, log);
  installCrashTeardown(
    (line) => line.startsWith("error: ") ? setFailed(line.slice("error: ".length)) : info(line),
    (e) => e instanceof TiperfError ? e.message : e?.stack ?? String(e)
  );
  const ledger = join(ledgerDir(), `action-${process.env.GITHUB_RUN_ID ?? "local"}-${process.pid}`);
  process.env.TIPERF_LEDGER = ledger;
  saveState("ledger", ledger);
  try {
    const inputs = readInputs((name) => getInput(name), process.env, event());
    if (inputs.token) setSecret(inputs.token);
    const produced = await produce(inputs, abort.signal);
    if (produced.reportPath) setOutput("report-path", produced.reportPath);
    if (produced.resultPath) setOutput("result-path", produced.resultPath);
    if (!produced.verdict) {
      setOutput("verdict", produced.status ?? "");
      if (produced.status !== "complete") setFailed(`tiperf: the run ${produced.status}`);
      return;
    }
    const v = produced.verdict;
    setOutput("verdict", v.verdict);
    setOutput("verdict-json", JSON.stringify(v));
    const pr = inputs.comment && inputs.repo && inputs.pr ? { ...inputs.repo, pr: inputs.pr } : void 0;
    const outcome = await publishVerdict(v, {
      pr,
      token: inputs.token,
      matrix: inputs.matrix,
      fullReport: "the run's report artifact",
      log
    });
    if (outcome.commentId) setOutput("comment-id", String(outcome.commentId));
    const failed = failure(inputs, v);
    if (failed) setFailed(failed);
  } catch (e) {
    const interrupted = abort.signal.reason instanceof Interrupted;
    setFailed(
      interrupted || e instanceof TiperfError ? e.message : e.stack ?? String(e)
    );
  } finally {
    await teardownAll(log);
  }
}

// action/src/action/main.ts
mainStep().catch((e) => setFailed(e.message));
