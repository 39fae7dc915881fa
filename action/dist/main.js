#!/usr/bin/env node
import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path';
const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);
import {
  COMPOSE_FIELDS,
  VerdictSchema,
  camelOf,
  compareOverrides,
  compareSpec,
  compositionIssues,
  confirmationSpec,
  mergeEither,
  parseLogin,
  parsePr,
  parseRepo,
  parseShard,
  parseTolerance,
  prepareSpec,
  publishVerdict,
  readFirstVerdict,
  runAgainstBaseline,
  runSpec,
  waveFor
} from "./chunk-JI64A2VY.js";
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
} from "./chunk-UL4PAJYV.js";
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
function version(name, value) {
  if (!value) return void 0;
  if (!/^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$|^nightly$/.test(value))
    throw new InputError(`'${name}' input must be a TiDB version like v8.5.0 or nightly (got ${value})`);
  return value;
}
function publishInputs(get, mode) {
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
  const inputs = {
    mode,
    spec: mode === "publish" || mode === "merge" ? void 0 : file("spec", get("spec")),
    baseRef: ref("base-ref", get("base-ref")),
    headRef: ref("head-ref", get("head-ref")),
    baseConfig: file("base-config", get("base-config")),
    headConfig: file("head-config", get("head-config")),
    baseVersion: version("base-version", get("base-version")),
    headVersion: version("head-version", get("head-version")),
    baseBinpath: file("base-binpath", get("base-binpath")),
    headBinpath: file("head-binpath", get("head-binpath")),
    baseline: mode === "diff" || mode === "merge" ? file("baseline", get("baseline")) : void 0,
    profile: file("profile", get("profile")),
    tolerance: parseTolerance(get("tolerance")),
    compare: compareOverrides(
      (k) => get(k) || void 0,
      (k) => `'${k}' input`
    ),
    failOn: oneOf("fail-on", get("fail-on") || "regression", FAIL_ON),
    token: get("github-token"),
    comment: bool("comment", get("comment")),
    setup: bool("setup", get("setup")),
    matrix: get("matrix") || void 0,
    out: get("out") || "tiperf-results",
    confirmWithShards: get("confirm-with-shards") !== "" && bool("confirm-with-shards", get("confirm-with-shards")),
    ...publishInputs(get, mode)
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
        `'parts' input is required in mode merge: the directory the shards' results were downloaded into (got ${JSON.stringify(parts)})`
      );
    inputs.parts = parts;
  }
  if (mode !== "publish" && mode !== "merge" && !inputs.spec)
    throw new InputError(`'spec' input is required in mode ${mode}`);
  if (mode === "diff" && !inputs.baseline)
    throw new InputError("'baseline' input is required in mode diff (a stored result under baselines/)");
  const issues = compositionIssues(
    Object.fromEntries(
      COMPOSE_FIELDS.map((f) => [f, inputs[camelOf(f)]])
    ),
    (fields, joiner) => `${fields.map((f) => `'${f}'`).join(joiner)} input${fields.length > 1 ? "s" : ""}`
  );
  if (issues.length) throw new InputError(issues.join("\n"));
  const repo = get("repository") || env.GITHUB_REPOSITORY || "";
  if (repo) inputs.repo = parseRepo(repo, "'repository' input");
  const pr = get("pr");
  inputs.pr = pr ? parsePr(pr, "'pr' input") : eventPr(event2);
  return inputs;
}
function waveInputs(get, mode) {
  const out = {};
  if (get("look-of")) {
    if (mode !== "compare") throw new InputError(`'look-of' input is for mode compare (got mode ${mode})`);
    out.lookOf = file("look-of", get("look-of"));
  }
  if (get("max-looks")) {
    const n = Number(get("max-looks"));
    if (mode !== "merge") throw new InputError(`'max-looks' input is for mode merge (got mode ${mode})`);
    if (!(Number.isInteger(n) && n >= 1 && n <= 6))
      throw new InputError(
        `'max-looks' input must be a whole number of looks from 1 to 6 (got ${get("max-looks")})`
      );
    out.maxLooks = n;
  }
  return out;
}

// action/src/action/steps.ts
var log = (line) => line.startsWith("warning: ") ? warning(line.slice("warning: ".length)) : info(line);
function event() {
  const file2 = setting("GITHUB_EVENT_PATH");
  if (!file2) return void 0;
  try {
    return JSON.parse(readFileSync2(file2, "utf8"));
  } catch {
    return void 0;
  }
}
async function produceMerge(inputs) {
  const parts = resultFiles(inputs.parts);
  if (parts.length === 0)
    throw new TiperfError(
      `mode merge: no shard's result.json under ${inputs.parts}: every shard failed before it measured, or its artifact was not downloaded`,
      EXIT.runFailed
    );
  const merged = await mergeEither(parts, {
    outDir: join(inputs.out, "merged"),
    log,
    ...inputs.baseline ? { baseline: inputs.baseline } : {},
    ...inputs.confirms ? { confirms: await readFirstVerdict(inputs.confirms, "'confirms' input") } : {},
    ...inputs.acceptedBy ? { acceptedBy: inputs.acceptedBy } : {},
    ...inputs.maxLooks ? { maxLooks: inputs.maxLooks } : {}
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
async function produce(inputs, signal) {
  if (inputs.mode === "publish") {
    let raw;
    try {
      raw = JSON.parse(inputs.verdictJson ?? "");
    } catch (e) {
      throw new InputError(`${inputs.verdictFrom} is not JSON (${e.message})`);
    }
    const parsed = VerdictSchema.safeParse(raw);
    if (!parsed.success)
      throw new InputError(
        `${inputs.verdictFrom} is not a tiperf verdict (${parsed.error.issues[0]?.message})`
      );
    return { verdict: parsed.data };
  }
  if (inputs.mode === "merge") return produceMerge(inputs);
  const prepared = await prepareSpec({
    spec: inputs.spec,
    baseRef: inputs.baseRef,
    headRef: inputs.headRef,
    baseConfig: inputs.baseConfig,
    headConfig: inputs.headConfig,
    baseVersion: inputs.baseVersion,
    headVersion: inputs.headVersion,
    baseBinpath: inputs.baseBinpath,
    headBinpath: inputs.headBinpath,
    tolerance: inputs.tolerance,
    compare: inputs.compare
  });
  const composed = inputs.confirms ? await confirmationSpec(prepared, await readFirstVerdict(inputs.confirms, "'confirms' input")) : prepared;
  const loaded = inputs.profile ? { ...composed, profile: inputs.profile } : composed;
  if (inputs.setup) {
    const targets = (loaded.variants?.all.map((v) => v.spec) ?? [loaded.spec]).map((s) => s.target);
    const cloud = await kindOf(loaded.spec.target.kind).cloudOf?.(targets, loaded.profile);
    await setup(cloud ? "--cloud" : "--system");
  }
  const opts = { outDir: inputs.out, log, signal };
  if (inputs.mode === "compare") {
    const look = inputs.lookOf ? await waveFor(inputs.lookOf, "'look-of' input", { spec: loaded, shard: inputs.shard }) : void 0;
    const outcome = await compareSpec(loaded, {
      ...opts,
      ...inputs.shard ? { shard: inputs.shard } : {},
      ...look ? { look } : {},
      ...inputs.acceptedBy ? { acceptedBy: inputs.acceptedBy } : {}
    });
    return { verdict: outcome.verdict, reportPath: outcome.htmlPath, resultPath: outcome.resultPath };
  }
  if (inputs.mode === "run") {
    const outcome = await runSpec(loaded, { ...opts, ...inputs.shard ? { shard: inputs.shard } : {} });
    const resultPath = outcome.runDir.resultPath;
    return { status: outcome.result.status, reportPath: outcome.runDir.reportPath, resultPath };
  }
  const checked = await runAgainstBaseline(loaded, inputs.baseline, opts);
  return { verdict: checked.verdict, reportPath: checked.htmlPath, resultPath: checked.resultPath };
}
function resultFiles(dir) {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((p) => basename(p) === "result.json" && !p.split(sep).includes("confirm")).map((p) => join(dir, p)).sort();
}
function partsProvenance(parts) {
  const seen = /* @__PURE__ */ new Set();
  for (const part of parts) {
    const file2 = join(dirname(part), "verdict.json");
    let p;
    try {
      p = VerdictSchema.parse(JSON.parse(readFileSync2(file2, "utf8"))).provenance;
    } catch {
      return void 0;
    }
    seen.add(JSON.stringify({ base_sha: p?.base_sha, head_sha: p?.head_sha, pr: p?.pr }));
  }
  return seen.size === 1 ? JSON.parse([...seen][0]) : void 0;
}
async function provenance(inputs, env) {
  const sha = async (ref2) => {
    if (!ref2) return void 0;
    const r = await runCommand("git", ["rev-parse", "--verify", "--quiet", `${ref2}^{commit}`], {
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
  const regressions = v.cells.filter((c) => c.verdict === "regression");
  if (v.verdict === "regression" && v.accepted) return void 0;
  if (v.verdict === "regression") {
    const list = regressions.slice(0, 5).map((c) => `${c.workload} threads=${c.threads} ${c.metric} ${(100 * (c.change ?? 0)).toFixed(1)}%`).join("; ");
    return `tiperf: regression in ${regressions.length} judgement(s): ${list}${regressions.length > 5 ? "; \u2026" : ""}`;
  }
  if (v.verdict === "inconclusive" && (inputs.failOn === "inconclusive" || v.inconclusive === "fail"))
    return `tiperf: inconclusive and ${inputs.failOn === "inconclusive" ? "fail-on is inconclusive" : "compare.inconclusive is fail"}: more rounds or blocks (the verdict says how many) or a quieter runner`;
  return void 0;
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
    const inputs = readInputs((name) => getInput(name), inherited(), event());
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
    if (inputs.mode !== "publish") {
      v.provenance = { ...v.provenance, ...await provenance(inputs, inherited()) };
      if (produced.resultPath) {
        const file2 = join(dirname(produced.resultPath), "verdict.json");
        if (existsSync2(file2)) await writeAtomic(file2, `${JSON.stringify(v, null, 2)}
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
