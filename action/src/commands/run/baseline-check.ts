import { dirname } from "node:path";
import type { RunOptions } from "../../bench/start.ts";
import { judgeStored } from "../../compare/judge-results.ts";
import type { Verdict } from "../../compare/verdict.ts";
import { EXIT, TiperfError } from "../../errors.ts";
import { writeVerdictFiles } from "../../report/verdict-files.ts";
import { readResult } from "../../result/store.ts";
import type { LoadedSpec } from "../../specfile/load.ts";
import { runSpec } from "./index.ts";

export interface BaselineOutcome {
  verdict: Verdict;
  resultPath: string;
  htmlPath: string;
  exitCode: number;
}

/**
 * A run judged against a stored result (the Action's `diff` mode, `tiperf run --baseline`): the
 * spec runs once, then its result is compared with the baseline unpaired (Welch). A run that did
 * not complete is not judged.
 */
export async function runAgainstBaseline(
  loaded: LoadedSpec,
  baselineFile: string,
  opts: RunOptions,
): Promise<BaselineOutcome> {
  // Read first: a bad baseline is found before anything starts.
  const baseline = await readResult(baselineFile);
  const outcome = await runSpec(loaded, opts);
  const resultPath = outcome.runDir.resultPath;
  if (outcome.result.status !== "complete")
    throw new TiperfError(`the run did not complete (${outcome.result.error ?? outcome.result.status})`, 3);
  const verdict = judgeStored(
    { result: baseline, file: baselineFile },
    { result: outcome.result, file: resultPath },
    { confidence: 0.95, force: false },
  );
  const { htmlPath } = await writeVerdictFiles(verdict, dirname(resultPath), opts.log, [
    baseline,
    outcome.result,
  ]);
  return {
    verdict,
    resultPath,
    htmlPath,
    exitCode: verdict.verdict === "regression" ? EXIT.regression : EXIT.ok,
  };
}
