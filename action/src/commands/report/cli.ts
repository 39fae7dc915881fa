// `tiperf report` on the command line: its flags read and checked, then the command's steps; the
// synopsis is cli/commands.ts's (`tiperf help report`).
import { existsSync } from "node:fs";
import { flags, log, onePositional } from "../../cli/args.ts";
import { parseOptions } from "../../cli/commands.ts";
import { readVerdict } from "../../compare/verdict.ts";
import { EXIT, InputError } from "../../errors.ts";
import { readChangePoints } from "../../history/check.ts";
import { historySections } from "../../history/html.ts";
import { writeAtomic } from "../../proc/files.ts";
import { commentMarkdown } from "../../report/comment.ts";
import { renderCharts, verdictHtml, writeHtmlReport } from "../../report/html.ts";
import type { Result } from "../../result/model.ts";
import { readResult } from "../../result/store.ts";

/** report --history: the series of this spec in a `history check --json` report, as HTML sections. */
export async function historyOfSpec(file: string, spec: string): Promise<string> {
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

export async function cmdReport(args: string[]): Promise<number> {
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
