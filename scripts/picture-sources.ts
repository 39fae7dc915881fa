// What the pictures are rendered from: the PR comment's markdown and report.html of a kept
// verdict, made with the current templates (scripts/pictures.ts renders them; a test compares
// their hashes with docs/pictures/sources.json).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commentMarkdown } from "../action/src/report/comment.ts";
import { writeHtmlReport } from "../action/src/report/html.ts";

export async function pictureSources(verdictFile: string): Promise<{ comment: string; html: string }> {
  const verdict = JSON.parse(readFileSync(verdictFile, "utf8"));
  const dir = mkdtempSync(join(tmpdir(), "tiperf-picture-sources-"));
  try {
    await writeHtmlReport(verdict, join(dir, "report.html"));
    return { comment: commentMarkdown(verdict), html: readFileSync(join(dir, "report.html"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
