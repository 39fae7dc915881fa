#!/usr/bin/env node
import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path';
const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);
import {
  Refusals,
  compareRequest,
  execCompare,
  execRun,
  exitCodeOf,
  fileOption,
  inputDoor,
  loginOption,
  mergeEither,
  mergeRequest,
  parsePr,
  parseRepo,
  parseVerdict,
  publishVerdict,
  refOption,
  runRequest,
  shardOption,
  specFrom,
  specWords
} from "./chunk-DTOQPKRL.js";
import {
  getInput,
  info,
  saveState,
  setFailed,
  setOutput,
  setSecret,
  warning
} from "./chunk-JKKMYVWB.js";
import {
  kindOf,
  writeAtomic
} from "./chunk-A7W2F75L.js";
import {
  Interrupted,
  installCrashTeardown,
  installSignalTeardown,
  ledgerDir,
  teardownAll,
  useLedger
} from "./chunk-3RZOPWDC.js";
import "./chunk-WCKSSEMK.js";
import {
  EXIT,
  InputError,
  TiperfError,
  inherited,
  runCommand,
  setting
} from "./chunk-KJWZ2OYQ.js";
import "./chunk-3EADY6QU.js";

// action/src/action/steps.ts
import { existsSync as existsSync2, readdirSync, readFileSync as readFileSync2 } from "node:fs";
import { basename, dirname, join, sep } from "node:path";

// action/src/action/inputs.ts
import { existsSync, readFileSync, statSync } from "node:fs";
var MODES = ["compare", "run", "diff", "publish", "merge"];
var FAIL_ON = ["regression", "inconclusive", "never"];
function oneOf(name, value, allowed) {
  if (!allowed.includes(value))
    throw new InputError(
      `'${name}' input must be one of ${allowed.join(", ")} (got ${JSON.stringify(value)})`
    );
  return value;
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
function publishInputs(get, mode) {
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
      "mode publish needs 'verdict-json' (the verdict output of the benchmark job) or 'verdict-file' (a verdict.json downloaded from its run)"
    );
  if (sha && !/^[0-9a-f]{40}$/.test(sha))
    throw new InputError(
      `'head-sha' input must be a full commit SHA, 40 hex digits (got ${JSON.stringify(sha)})`
    );
  return {
    verdictJson: path ? readFileSync(path, "utf8") : json,
    verdictFrom: path ? `'verdict-file' input (${path})` : "'verdict-json' input",
    ...sha ? { headSha: sha } : {}
  };
}
function readInputs(get, env, event2) {
  const mode = oneOf("mode", get("mode") || "compare", MODES);
  const d = inputDoor(mode, get);
  const r = new Refusals(d.prefix);
  const runs = mode !== "publish" && mode !== "merge";
  const words = runs ? specWords(d, r) : void 0;
  const inputs = {
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
    baseline: mode === "diff" || mode === "merge" ? r.check(() => fileOption(d, "baseline")) : void 0,
    profile: words?.profile,
    tolerance: words?.tolerance ?? {},
    compare: words?.compare ?? {},
    failOn: r.check(() => oneOf("fail-on", get("fail-on") || "regression", FAIL_ON)) ?? "regression",
    token: get("github-token"),
    comment: r.check(() => bool("comment", get("comment"))) ?? true,
    setup: r.check(() => bool("setup", get("setup"))) ?? true,
    matrix: get("matrix") || void 0,
    out: get("out") || "tiperf-results",
    confirmWithShards: get("confirm-with-shards") !== "" && (r.check(() => bool("confirm-with-shards", get("confirm-with-shards"))) ?? false),
    ...r.check(() => publishInputs(get, mode))
  };
  modeInputs(d, mode, inputs, r);
  if (mode === "diff" && !inputs.baseline && !get("baseline"))
    r.refuse("'baseline' input is required in mode diff (a stored result under baselines/)");
  const repo = get("repository") || env.GITHUB_REPOSITORY || "";
  if (repo) inputs.repo = r.check(() => parseRepo(repo, "'repository' input"));
  const pr = get("pr");
  inputs.pr = pr ? r.check(() => parsePr(pr, "'pr' input")) : eventPr(event2);
  r.done();
  return inputs;
}
function modeInputs(d, mode, inputs, r) {
  const only = (name, modes) => {
    if (!d.get(name)) return false;
    if (modes.includes(mode)) return true;
    r.refuse(
      `'${name}' input is for mode${modes.length > 1 ? "s" : ""} ${modes.join(" and ")} (got mode ${mode})`
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
        `'max-looks' input must be a whole number of looks from 1 to 6 (got ${JSON.stringify(d.get("max-looks"))})`
      );
    else inputs.maxLooks = n;
  }
  if (inputs.confirmWithShards && mode !== "merge")
    r.refuse(`'confirm-with-shards' input is for mode merge (got mode ${mode})`);
  if (mode === "merge") {
    const parts = d.get("parts");
    if (!parts || !existsSync(parts) || !statSync(parts).isDirectory())
      r.refuse(
        `'parts' input is required in mode merge: the directory the shards' results were downloaded into (got ${JSON.stringify(parts ?? "")})`
      );
    else inputs.parts = parts;
  }
}

// action/src/action/steps.ts
var log = (line) => line.startsWith("warning: ") ? warning(line.slice("warning: ".length)) : info(line);
function event() {
  const file = setting("GITHUB_EVENT_PATH");
  if (!file) return void 0;
  try {
    return JSON.parse(readFileSync2(file, "utf8"));
  } catch {
    return void 0;
  }
}
async function produceMerge(inputs, get) {
  const parts = resultFiles(inputs.parts);
  if (parts.length === 0)
    throw new TiperfError(
      `mode merge: no shard's result.json under ${inputs.parts}: every shard failed before it measured, or its artifact was not downloaded`,
      EXIT.runFailed
    );
  const merged = await mergeEither(parts, {
    // the merge goes under the 'out' input's folder, in merged/
    ...(await mergeRequest(
      inputDoor("merge", (n) => n === "out" ? "" : get(n)),
      parts,
      { out: join(inputs.out, "merged") }
    )).request,
    log
  });
  if (merged.parts === "run") {
    const runs = merged.outcome;
    return runs.verdict ? { verdict: runs.verdict, reportPath: runs.htmlPath, resultPath: runs.resultPath } : { status: runs.result.status, resultPath: runs.resultPath };
  }
  const outcome = merged.outcome;
  const commits = partsProvenance(parts);
  if (commits) outcome.verdict.provenance = commits;
  return {
    verdict: outcome.verdict,
    reportPath: outcome.htmlPath,
    resultPath: outcome.resultPath,
    ...outcome.confirm > 0 && inputs.confirmWithShards ? { confirm: true } : {},
    ...outcome.look ? { look: outcome.look } : {}
  };
}
async function producePublish({ inputs }) {
  let raw;
  try {
    raw = JSON.parse(inputs.verdictJson ?? "");
  } catch (e) {
    throw new InputError(`${inputs.verdictFrom} is not JSON (${e.message})`);
  }
  const parsed = parseVerdict(raw);
  if (!parsed.success)
    throw new InputError(
      `${inputs.verdictFrom} is not a tiperf verdict (${parsed.error.issues[0]?.message})`
    );
  return { verdict: parsed.data };
}
async function produceCompare({ inputs, get, signal }) {
  const door = inputDoor("compare", get);
  if (inputs.setup) await setupFor(door);
  const { request } = await compareRequest(door, { out: inputs.out });
  const outcome = await execCompare(request, { log, signal });
  return { verdict: outcome.verdict, reportPath: outcome.htmlPath, resultPath: outcome.resultPath };
}
async function produceRun({ inputs, get, signal }) {
  const door = inputDoor(inputs.mode, (n) => n === "baseline" && inputs.mode === "run" ? "" : get(n));
  if (inputs.setup) await setupFor(door);
  const { request } = await runRequest(door, { out: inputs.out });
  const done = await execRun(request, { log, signal });
  return {
    ...done.verdict ? { verdict: done.verdict } : { status: done.status },
    reportPath: done.reportPath,
    resultPath: done.resultPath
  };
}
var MODE_STEPS = {
  publish: producePublish,
  merge: ({ inputs, get }) => produceMerge(inputs, get),
  compare: produceCompare,
  run: produceRun,
  diff: produceRun
};
async function setupFor(door) {
  const loaded = await specFrom(door);
  const targets = (loaded.variants?.all.map((v) => v.spec) ?? [loaded.spec]).map((s) => s.target);
  const cloud = await kindOf(loaded.spec.target.kind).cloudOf?.(targets, loaded.profile);
  await setup(cloud ? "--cloud" : "--system");
}
function resultFiles(dir) {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((p) => basename(p) === "result.json" && !p.split(sep).includes("confirm")).map((p) => join(dir, p)).sort();
}
function partsProvenance(parts) {
  const seen = /* @__PURE__ */ new Set();
  for (const part of parts) {
    const file = join(dirname(part), "verdict.json");
    let p;
    try {
      p = parseVerdict(JSON.parse(readFileSync2(file, "utf8"))).data?.provenance;
    } catch {
      return void 0;
    }
    seen.add(JSON.stringify({ base_sha: p?.base_sha, head_sha: p?.head_sha, pr: p?.pr }));
  }
  return seen.size === 1 ? JSON.parse([...seen][0]) : void 0;
}
async function provenance(inputs, env) {
  const sha = async (ref) => {
    if (!ref) return void 0;
    const r = await runCommand("git", ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], {
      timeoutMs: 1e4
    });
    return r.code === 0 ? r.stdout.trim() : void 0;
  };
  const [base, head] = [await sha(inputs.baseRef), await sha(inputs.headRef)];
  const run = env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}` : void 0;
  return {
    ...base ? { base_sha: base } : {},
    ...head ? { head_sha: head } : {},
    ...inputs.pr ? { pr: inputs.pr } : {},
    ...run ? { run_url: run, artifacts_url: `${run}#artifacts` } : {}
  };
}
function handedOver(inputs, v) {
  if (!inputs.headSha) return inputs.pr;
  const of = v.provenance?.head_sha;
  if (of !== inputs.headSha)
    throw new InputError(
      `${inputs.verdictFrom} is of head ${of ?? "(no commit recorded)"}, not of ${inputs.headSha} ('head-sha' input): not posted`
    );
  const pr = inputs.pr ?? v.provenance?.pr;
  if (!pr) throw new InputError(`${inputs.verdictFrom} names no pull request, and no 'pr' input was given`);
  return pr;
}
function failure(inputs, v) {
  if (inputs.failOn === "never") return void 0;
  const missing = v.shards?.missing ?? [];
  if (missing.length && v.verdict !== "regression")
    return `tiperf: ${(v.shards?.of ?? 0) - missing.length} of ${v.shards?.of} shards merged; missing ${missing.map((k) => `shard ${k}`).join(", ")} (failed, cancelled or not uploaded): the check cannot pass without them`;
  const lost = v.confirmation?.missing_shards ?? [];
  if (lost.length && v.verdict !== "regression")
    return `tiperf: the confirmation's shard(s) ${lost.join(", ")} did not arrive (failed, cancelled or not uploaded): the regression is neither confirmed nor cleared, and the check cannot pass`;
  if (!exitCodeOf(v, inputs.failOn === "inconclusive" ? "fail" : v.inconclusive ?? "warn"))
    return void 0;
  if (v.verdict === "regression") {
    const regressions = v.cells.filter((c) => c.verdict === "regression");
    const list = regressions.slice(0, 5).map((c) => `${c.workload} threads=${c.threads} ${c.metric} ${(100 * (c.change ?? 0)).toFixed(1)}%`).join("; ");
    return `tiperf: regression in ${regressions.length} judgement(s): ${list}${regressions.length > 5 ? "; \u2026" : ""}`;
  }
  return `tiperf: inconclusive and ${inputs.failOn === "inconclusive" ? "fail-on is inconclusive" : "compare.inconclusive is fail"}: more rounds or blocks (the verdict says how many) or a quieter runner`;
}
async function setup(mode) {
  const script = join(dirname(dirname(process.argv[1])), "..", "scripts", "setup.sh");
  if (!existsSync2(script))
    throw new InputError(`'setup' input: the action has no ${script}; set setup: false`);
  const r = await runCommand("bash", [script, mode], { timeoutMs: 20 * 6e4 });
  log(r.stderr.trim() || `setup: what tiperf needs is installed (scripts/setup.sh ${mode})`);
  if (r.code !== 0)
    throw new TiperfError(
      `setup: ${script} ${mode} failed (exit ${r.code}): ${(r.stderr || r.stdout).trim().split("\n").slice(-3).join(" / ")}`,
      EXIT.runFailed
    );
}
async function mainStep() {
  const abort = new AbortController();
  installSignalTeardown(abort, log);
  installCrashTeardown(
    (line) => line.startsWith("error: ") ? setFailed(line.slice("error: ".length)) : info(line),
    (e) => e instanceof TiperfError ? e.message : e?.stack ?? String(e)
  );
  const ledger = join(ledgerDir(), `action-${setting("GITHUB_RUN_ID") ?? "local"}-${process.pid}`);
  useLedger(ledger);
  saveState("ledger", ledger);
  try {
    const get = (name) => getInput(name);
    const inputs = readInputs(get, inherited(), event());
    if (inputs.token) setSecret(inputs.token);
    const produced = await MODE_STEPS[inputs.mode]({ inputs, get, signal: abort.signal });
    if (produced.reportPath) setOutput("report-path", produced.reportPath);
    if (produced.resultPath) setOutput("result-path", produced.resultPath);
    if (!produced.verdict) {
      setOutput("verdict", produced.status ?? "");
      if (produced.status !== "complete") setFailed(`tiperf: the run ${produced.status}`);
      return;
    }
    const v = produced.verdict;
    if (inputs.mode !== "publish") {
      v.provenance = { ...v.provenance, ...await provenance(inputs, inherited()) };
      if (produced.resultPath) {
        const file = join(dirname(produced.resultPath), "verdict.json");
        if (existsSync2(file)) await writeAtomic(file, `${JSON.stringify(v, null, 2)}
`);
      }
    }
    setOutput("verdict", v.verdict);
    setOutput("verdict-json", JSON.stringify(v));
    if (produced.look) {
      setOutput("look", String(produced.look));
      log(`tiperf: look ${produced.look} follows as a wave of shards; the merge after it decides`);
      return;
    }
    if (produced.confirm) {
      setOutput("confirm", "true");
      log("tiperf: regression, to be confirmed on fresh instances by the confirmation's shards");
      return;
    }
    if (inputs.shard) {
      log(
        `shard ${inputs.shard.index} of ${inputs.shard.of}: ${v.verdict} on its own blocks; the merge decides`
      );
      return;
    }
    const number = handedOver(inputs, v);
    const pr = inputs.comment && inputs.repo && number ? { ...inputs.repo, pr: number } : void 0;
    const outcome = await publishVerdict(v, {
      pr,
      ...inputs.headSha ? { ofCommit: inputs.headSha } : {},
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
