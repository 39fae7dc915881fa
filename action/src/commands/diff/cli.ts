// `tiperf diff` on the command line: its flags read and checked, then the command's steps; the
// synopsis is cli/commands.ts's (`tiperf help diff`).
import { existsSync, realpathSync } from "node:fs";
import { confidenceFlag, flags, log, writeJson } from "../../cli/args.ts";
import { parseOptions } from "../../cli/commands.ts";
import { judgeStored, sidesOf, variantsOf } from "../../compare/judge-results.ts";
import { InputError } from "../../errors.ts";
import { commentMarkdown } from "../../report/comment.ts";
import { readResult, resultFileOf } from "../../result/store.ts";
import { Refusals } from "../door.ts";
import { exitCodeOf } from "../exit.ts";

export async function cmdDiff(args: string[]): Promise<number> {
  const { values, positionals } = flags("diff", args, parseOptions("diff"));
  const [baseFile, headFile, extra] = positionals;
  if (!baseFile || !headFile || extra)
    throw new InputError(
      "tiperf diff: give exactly two results (result.json files or run directories): BASE_RESULT HEAD_RESULT",
    );
  if (!existsSync(baseFile)) {
    throw new InputError(
      `tiperf diff: no baseline at ${baseFile} (a missing baseline is never a pass: create one with tiperf baseline update)`,
    );
  }
  const base = {
    result: await readResult(baseFile),
    file: baseFile,
    variant: values["base-variant"] as string | undefined,
  };
  const head = {
    result: await readResult(headFile),
    file: headFile,
    variant: values["head-variant"] as string | undefined,
  };
  // a variant named is one the result has (a mistyped name would judge nothing and pass)
  const refused = new Refusals("tiperf diff: ");
  for (const [flag, side] of [
    ["--base-variant", base],
    ["--head-variant", head],
  ] as const) {
    const names = variantsOf(side.result);
    if (side.variant !== undefined && !names.includes(side.variant))
      refused.refuse(
        `${flag} ${side.variant}: not a variant of ${side.file} (its variants: ${names.join(", ")})`,
      );
  }
  refused.done();
  // said once both are results (a refused file is the one line a wrong file gets), and only of one
  // variant against itself: a compare run's base against its head is a judgement of its own
  const { bv, hv } = sidesOf(base, head);
  if (realpathSync(resultFileOf(baseFile)) === realpathSync(resultFileOf(headFile)) && bv === hv)
    log(
      `warning: diff: ${baseFile} and ${headFile} are the same file and ${bv} is judged against itself: every change is zero by construction, which says nothing about performance`,
    );
  const verdict = judgeStored(base, head, {
    confidence: confidenceFlag("diff", values.confidence),
    force: values.force === true,
  });
  await writeJson(values.json as string | undefined, verdict);
  process.stdout.write(commentMarkdown(verdict));
  return exitCodeOf(verdict);
}
