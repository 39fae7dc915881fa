import { join } from "node:path";
import type { Verdict } from "../compare/verdict.ts";
import { writeAtomic } from "../proc/files.ts";
import type { Result } from "../result/model.ts";
import { commentMarkdown } from "./comment.ts";
import { writeHtmlReport } from "./html.ts";

export interface VerdictFiles {
  verdictPath: string;
  /** verdict.md: the PR comment's markdown. */
  reportPath: string;
  /** report.html, with charts/ beside it. */
  htmlPath: string;
}

/** Everything a verdict leaves in its run directory: verdict.json, verdict.md, report.html + charts/. */
export async function writeVerdictFiles(
  v: Verdict,
  dir: string,
  log: (line: string) => void,
  /** The results judged: report.html charts their seconds. */
  results: readonly Result[] = [],
): Promise<VerdictFiles> {
  const files = {
    verdictPath: join(dir, "verdict.json"),
    reportPath: join(dir, "verdict.md"),
    htmlPath: join(dir, "report.html"),
  };
  await writeAtomic(files.verdictPath, `${JSON.stringify(v, null, 2)}\n`);
  await writeAtomic(files.reportPath, commentMarkdown(v, { fullReport: "report.html" }));
  await writeHtmlReport(v, files.htmlPath, log, { results });
  return files;
}
