import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, sep } from "node:path";
import * as core from "@actions/core";
import { execCompare } from "../commands/compare/index.ts";
import { compareRequest } from "../commands/compare/options.ts";
import { type Door, inputDoor } from "../commands/door.ts";
import { exitCodeOf } from "../commands/exit.ts";
import { mergeEither } from "../commands/merge/either.ts";
import { mergeRequest } from "../commands/merge/options.ts";
import { execRun } from "../commands/run/index.ts";
import { runRequest } from "../commands/run/options.ts";
import { specFrom } from "../commands/spec-options.ts";
import { parseVerdict, type Verdict } from "../compare/verdict.ts";
import { inherited, setting } from "../environment.ts";
import { EXIT, InputError, TiperfError } from "../errors.ts";
import { ledgerDir, useLedger } from "../lifecycle/ledger.ts";
import {
  Interrupted,
  installCrashTeardown,
  installSignalTeardown,
  teardownAll,
} from "../lifecycle/teardown.ts";
import { writeAtomic } from "../proc/files.ts";
import { runCommand } from "../proc/process.ts";
import { publishVerdict } from "../publish/index.ts";
import { kindOf } from "../targets/registry.ts";
import { type ActionInputs, readInputs } from "./inputs.ts";

/** The pipeline's "warning: …" lines become workflow annotations; the rest is the step's log. */
const log = (line: string) =>
  line.startsWith("warning: ") ? core.warning(line.slice("warning: ".length)) : core.info(line);

function event(): unknown {
  const file = setting("GITHUB_EVENT_PATH");
  if (!file) return undefined;
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

interface Produced {
  verdict?: Verdict;
  /** run mode: complete | failed | interrupted. */
  status?: string;
  reportPath?: string;
  resultPath?: string;
  /** mode merge: a regression whose confirmation runs next, as shards of its own. */
  confirm?: boolean;
  /** mode merge with max-looks: the further look due next, run as a wave of shards. */
  look?: number;
}

/**
 * Mode merge: the shards' results under the downloaded artifacts, joined as the one comparison
 * (or the one run) they are shares of.
 */
async function produceMerge(inputs: ActionInputs, get: (name: string) => string): Promise<Produced> {
  const parts = resultFiles(inputs.parts as string);
  if (parts.length === 0)
    throw new TiperfError(
      `mode merge: no shard's result.json under ${inputs.parts}: every shard failed before it measured, or its artifact was not downloaded`,
      EXIT.runFailed,
    );
  // a run's shares (mode run with shard) judged against the baseline if given; a comparison's
  // parts as the one comparison: an input the parts do not take passes unused
  const merged = await mergeEither(parts, {
    // the merge goes under the 'out' input's folder, in merged/
    ...(
      await mergeRequest(
        inputDoor("merge", (n) => (n === "out" ? "" : get(n))),
        parts,
        { out: join(inputs.out, "merged") },
      )
    ).request,
    log,
  });
  if (merged.parts === "run") {
    const runs = merged.outcome;
    return runs.verdict
      ? { verdict: runs.verdict, reportPath: runs.htmlPath, resultPath: runs.resultPath }
      : { status: runs.result.status, resultPath: runs.resultPath };
  }
  const outcome = merged.outcome;
  const commits = partsProvenance(parts);
  if (commits) outcome.verdict.provenance = commits;
  return {
    verdict: outcome.verdict,
    reportPath: outcome.htmlPath,
    resultPath: outcome.resultPath,
    ...(outcome.confirm > 0 && inputs.confirmWithShards ? { confirm: true } : {}),
    ...(outcome.look ? { look: outcome.look } : {}),
  };
}

/** What one mode is given: its inputs, every input by name (the command's door reads them), the cancel signal. */
interface ModeCall {
  inputs: ActionInputs;
  get: (name: string) => string;
  signal: AbortSignal;
}

/** Mode publish: the verdict another job produced, read and checked. */
async function producePublish({ inputs }: ModeCall): Promise<Produced> {
  let raw: unknown;
  try {
    raw = JSON.parse(inputs.verdictJson ?? "");
  } catch (e) {
    throw new InputError(`${inputs.verdictFrom} is not JSON (${(e as Error).message})`);
  }
  const parsed = parseVerdict(raw);
  if (!parsed.success)
    throw new InputError(
      `${inputs.verdictFrom} is not a tiperf verdict (${parsed.error.issues[0]?.message})`,
    );
  return { verdict: parsed.data };
}

/** Mode compare: `tiperf compare`, its options read from the inputs by the same function as from flags. */
async function produceCompare({ inputs, get, signal }: ModeCall): Promise<Produced> {
  const door = inputDoor("compare", get);
  if (inputs.setup) await setupFor(door);
  const { request } = await compareRequest(door, { out: inputs.out });
  const outcome = await execCompare(request, { log, signal });
  return { verdict: outcome.verdict, reportPath: outcome.htmlPath, resultPath: outcome.resultPath };
}

/** Modes run and diff: `tiperf run`, alone (run) or judged against the stored baseline (diff). */
async function produceRun({ inputs, get, signal }: ModeCall): Promise<Produced> {
  const door = inputDoor(inputs.mode, (n) => (n === "baseline" && inputs.mode === "run" ? "" : get(n)));
  if (inputs.setup) await setupFor(door);
  const { request } = await runRequest(door, { out: inputs.out });
  const done = await execRun(request, { log, signal });
  return {
    ...(done.verdict ? { verdict: done.verdict } : { status: done.status }),
    reportPath: done.reportPath,
    resultPath: done.resultPath,
  };
}

/** The Action's modes, each the command it runs: the same steps as the command line's. */
const MODE_STEPS: Record<ActionInputs["mode"], (call: ModeCall) => Promise<Produced>> = {
  publish: producePublish,
  merge: ({ inputs, get }) => produceMerge(inputs, get),
  compare: produceCompare,
  run: produceRun,
  diff: produceRun,
};

/** The 'setup' input: what the spec's target needs, installed first (a cloud profile's packages too). */
async function setupFor(door: Door): Promise<void> {
  const loaded = await specFrom(door);
  const targets = (loaded.variants?.all.map((v) => v.spec) ?? [loaded.spec]).map((s) => s.target);
  const cloud = await kindOf(loaded.spec.target.kind).cloudOf?.(targets, loaded.profile);
  await setup(cloud ? "--cloud" : "--system");
}

/** Every result.json under a directory of downloaded artifacts (one per shard, any depth). */
export function resultFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((p) => basename(p) === "result.json" && !p.split(sep).includes("confirm"))
    .map((p) => join(dir, p))
    .sort();
}

/**
 * The commits and pull request the shards ran for, from the verdict.json beside each part's
 * result (the merge job has no refs of its own): kept only when every shard says the same.
 */
function partsProvenance(parts: string[]): Verdict["provenance"] {
  const seen = new Set<string>();
  for (const part of parts) {
    const file = join(dirname(part), "verdict.json");
    let p: Verdict["provenance"];
    try {
      p = parseVerdict(JSON.parse(readFileSync(file, "utf8"))).data?.provenance;
    } catch {
      return undefined; // a shard that stopped before its verdict: no commits to vouch for
    }
    seen.add(JSON.stringify({ base_sha: p?.base_sha, head_sha: p?.head_sha, pr: p?.pr }));
  }
  return seen.size === 1 ? JSON.parse([...seen][0] as string) : undefined;
}

/**
 * The commits a comparison ran (base/head refs resolved to SHAs in the workspace) and the workflow
 * run with its artifacts, from the runner's environment.
 */
export async function provenance(
  inputs: Pick<ActionInputs, "baseRef" | "headRef" | "pr">,
  env: NodeJS.ProcessEnv,
): Promise<NonNullable<Verdict["provenance"]>> {
  const sha = async (ref: string | undefined) => {
    if (!ref) return undefined;
    const r = await runCommand("git", ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], {
      timeoutMs: 10_000,
    });
    return r.code === 0 ? r.stdout.trim() : undefined;
  };
  const [base, head] = [await sha(inputs.baseRef), await sha(inputs.headRef)];
  const run =
    env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
      ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
      : undefined;
  return {
    ...(base ? { base_sha: base } : {}),
    ...(head ? { head_sha: head } : {}),
    ...(inputs.pr ? { pr: inputs.pr } : {}),
    ...(run ? { run_url: run, artifacts_url: `${run}#artifacts` } : {}),
  };
}

/**
 * The pull request to comment on: the input's or the event's; for a verdict handed over from
 * another workflow's run (`head-sha`), the one the verdict names, if the verdict is of that commit.
 */
function handedOver(inputs: ActionInputs, v: Verdict): number | undefined {
  if (!inputs.headSha) return inputs.pr;
  const of = v.provenance?.head_sha;
  if (of !== inputs.headSha)
    throw new InputError(
      `${inputs.verdictFrom} is of head ${of ?? "(no commit recorded)"}, not of ${inputs.headSha} ('head-sha' input): not posted`,
    );
  const pr = inputs.pr ?? v.provenance?.pr;
  if (!pr) throw new InputError(`${inputs.verdictFrom} names no pull request, and no 'pr' input was given`);
  return pr;
}

function failure(inputs: ActionInputs, v: Verdict): string | undefined {
  if (inputs.failOn === "never") return undefined;
  // a comparison short of a shard never passes, whatever the shards that arrived say
  const missing = v.shards?.missing ?? [];
  if (missing.length && v.verdict !== "regression")
    return `tiperf: ${(v.shards?.of ?? 0) - missing.length} of ${v.shards?.of} shards merged; missing ${missing.map((k) => `shard ${k}`).join(", ")} (failed, cancelled or not uploaded): the check cannot pass without them`;
  const lost = v.confirmation?.missing_shards ?? [];
  if (lost.length && v.verdict !== "regression")
    return `tiperf: the confirmation's shard(s) ${lost.join(", ")} did not arrive (failed, cancelled or not uploaded): the regression is neither confirmed nor cleared, and the check cannot pass`;
  // the command line's rule (commands/exit.ts), fail-on inconclusive failing an undecided check too
  if (!exitCodeOf(v, inputs.failOn === "inconclusive" ? "fail" : (v.inconclusive ?? "warn")))
    return undefined;
  if (v.verdict === "regression") {
    const regressions = v.cells.filter((c) => c.verdict === "regression");
    const list = regressions
      .slice(0, 5)
      .map((c) => `${c.workload} threads=${c.threads} ${c.metric} ${(100 * (c.change ?? 0)).toFixed(1)}%`)
      .join("; ");
    return `tiperf: regression in ${regressions.length} judgement(s): ${list}${regressions.length > 5 ? "; …" : ""}`;
  }
  return `tiperf: inconclusive and ${inputs.failOn === "inconclusive" ? "fail-on is inconclusive" : "compare.inconclusive is fail"}: more rounds or blocks (the verdict says how many) or a quieter runner`;
}

/**
 * What a run needs, installed by the action itself (its repository's scripts/setup.sh, beside
 * action/ wherever the runner unpacked the action): the system packages, and for a run on a cloud
 * profile also Pulumi's npm packages (--cloud). A workflow of another repository needs no setup
 * step of its own.
 */
async function setup(mode: "--system" | "--cloud"): Promise<void> {
  const script = join(dirname(dirname(process.argv[1] as string)), "..", "scripts", "setup.sh");
  if (!existsSync(script))
    throw new InputError(`'setup' input: the action has no ${script}; set setup: false`);
  const r = await runCommand("bash", [script, mode], { timeoutMs: 20 * 60_000 });
  log(r.stderr.trim() || `setup: what tiperf needs is installed (scripts/setup.sh ${mode})`);
  if (r.code !== 0)
    throw new TiperfError(
      `setup: ${script} ${mode} failed (exit ${r.code}): ${(r.stderr || r.stdout).trim().split("\n").slice(-3).join(" / ")}`,
      EXIT.runFailed,
    );
}

/** The action's main step: the same pipeline as the CLI, inputs from action.yml. */
export async function mainStep(): Promise<void> {
  const abort = new AbortController();
  installSignalTeardown(abort, log);
  installCrashTeardown(
    (line) => (line.startsWith("error: ") ? core.setFailed(line.slice("error: ".length)) : core.info(line)),
    (e) => (e instanceof TiperfError ? e.message : ((e as Error)?.stack ?? String(e))),
  );
  // under the shared ledger, so the reaper also finds what a killed runner left
  const ledger = join(ledgerDir(), `action-${setting("GITHUB_RUN_ID") ?? "local"}-${process.pid}`);
  useLedger(ledger);
  core.saveState("ledger", ledger);
  try {
    const get = (name: string) => core.getInput(name);
    const inputs = readInputs(get, inherited(), event());
    if (inputs.token) core.setSecret(inputs.token);
    const produced = await MODE_STEPS[inputs.mode]({ inputs, get, signal: abort.signal });
    if (produced.reportPath) core.setOutput("report-path", produced.reportPath);
    if (produced.resultPath) core.setOutput("result-path", produced.resultPath);
    if (!produced.verdict) {
      core.setOutput("verdict", produced.status ?? "");
      if (produced.status !== "complete") core.setFailed(`tiperf: the run ${produced.status}`);
      return;
    }
    const v = produced.verdict;
    if (inputs.mode !== "publish") {
      v.provenance = { ...v.provenance, ...(await provenance(inputs, inherited())) };
      // the stored verdict.json says the same as the one passed on to the publish job
      if (produced.resultPath) {
        const file = join(dirname(produced.resultPath), "verdict.json");
        if (existsSync(file)) await writeAtomic(file, `${JSON.stringify(v, null, 2)}\n`);
      }
    }
    core.setOutput("verdict", v.verdict);
    core.setOutput("verdict-json", JSON.stringify(v));
    // a further look due: its wave of shards and the merge after it decide the check
    if (produced.look) {
      core.setOutput("look", String(produced.look));
      log(`tiperf: look ${produced.look} follows as a wave of shards; the merge after it decides`);
      return;
    }
    // a regression to be confirmed: the confirmation's shards and their merge decide the check
    if (produced.confirm) {
      core.setOutput("confirm", "true");
      log("tiperf: regression, to be confirmed on fresh instances by the confirmation's shards");
      return;
    }
    // a shard's verdict is of its own blocks: the merge job comments and decides the check
    if (inputs.shard) {
      log(
        `shard ${inputs.shard.index} of ${inputs.shard.of}: ${v.verdict} on its own blocks; the merge decides`,
      );
      return;
    }
    const number = handedOver(inputs, v);
    const pr = inputs.comment && inputs.repo && number ? { ...inputs.repo, pr: number } : undefined;
    const outcome = await publishVerdict(v, {
      pr,
      ...(inputs.headSha ? { ofCommit: inputs.headSha } : {}),
      token: inputs.token,
      matrix: inputs.matrix,
      fullReport: "the run's report artifact",
      log,
    });
    if (outcome.commentId) core.setOutput("comment-id", String(outcome.commentId));
    const failed = failure(inputs, v);
    if (failed) core.setFailed(failed);
  } catch (e) {
    const interrupted = abort.signal.reason instanceof Interrupted;
    core.setFailed(
      interrupted || e instanceof TiperfError ? (e as Error).message : ((e as Error).stack ?? String(e)),
    );
  } finally {
    await teardownAll(log);
  }
}
