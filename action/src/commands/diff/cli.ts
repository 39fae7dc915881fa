// `tiperf diff` on the command line: its flags read and checked, then the command's steps; the
// synopsis is cli/commands.ts's (`tiperf help diff`).
import { existsSync, realpathSync } from "node:fs";
import { confidenceFlag, flags, log, writeJson } from "../../cli/args.ts";
import { parseOptions } from "../../cli/commands.ts";
import { judgeStored } from "../../compare/judge-results.ts";
import { InputError } from "../../errors.ts";
import { commentMarkdown } from "../../report/comment.ts";
import { readResult } from "../../result/store.ts";
import { exitCodeOf } from "../exit.ts";

export async function cmdDiff(args: string[]): Promise<number> {
  const { values, positionals } = flags("diff", args, parseOptions("diff"));
  const [baseFile, headFile, extra] = positionals;
  if (!baseFile || !headFile || extra)
    throw new InputError("tiperf diff: give exactly two result files: BASE_RESULT HEAD_RESULT");
  if (!existsSync(baseFile)) {
    throw new InputError(
      `tiperf diff: no baseline at ${baseFile} (a missing baseline is never a pass: create one with tiperf baseline update)`,
    );
  }
  const [base, head] = [await readResult(baseFile), await readResult(headFile)];
  // said once both are results (a refused file is the one line a wrong file gets)
  if (realpathSync(baseFile) === realpathSync(headFile))
    log(
      `warning: diff: ${baseFile} and ${headFile} are the same file: every change is zero by construction, which says nothing about performance`,
    );
  const verdict = judgeStored(
    { result: base, file: baseFile, variant: values["base-variant"] as string | undefined },
    { result: head, file: headFile, variant: values["head-variant"] as string | undefined },
    { confidence: confidenceFlag("diff", values.confidence), force: values.force === true },
  );
  await writeJson(values.json as string | undefined, verdict);
  process.stdout.write(commentMarkdown(verdict));
  return exitCodeOf(verdict);
}
