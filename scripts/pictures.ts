// Renders the pictures the README and docs show from a kept real verdict
// (docs/pictures/verdict.json): the PR comment as GitHub shows it (its markdown through marked,
// its Mermaid charts drawn by Mermaid) and report.html, each in Debian's Chromium, into
// docs/pictures/*.png; docs/pictures/sources.json keeps the sha256 of the markdown and HTML they
// were rendered from, which tests/unit/pictures.test.ts recomputes with the current templates.
//
//   npm run pictures
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { marked } from "marked";
import { chromium } from "playwright-core";
import { pictureSources } from "./picture-sources.ts";

const DIR = "docs/pictures";
const sources = await pictureSources(join(DIR, "verdict.json"));
const tmp = mkdtempSync(join(tmpdir(), "tiperf-pictures-"));
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
});
try {
  // the comment: GitHub's markdown body, its ```mermaid blocks drawn as GitHub draws them
  const mermaid = readFileSync("node_modules/mermaid/dist/mermaid.min.js", "utf8");
  const body = (await marked.parse(sources.comment)).replace(
    /<pre><code class="language-mermaid">([\s\S]*?)<\/code><\/pre>/g,
    (_, code: string) => `<pre class="mermaid">${code}</pre>`,
  );
  const page = await browser.newPage({ viewport: { width: 960, height: 800 } });
  const html = join(tmp, "comment.html");
  writeFileSync(
    html,
    `<!doctype html><html><head><meta charset="utf-8"><style>
body { font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; color: #1f2328; margin: 24px; max-width: 900px }
table { border-collapse: collapse; margin: 8px 0 } th, td { border: 1px solid #d1d9e0; padding: 4px 10px } th { background: #f6f8fa }
blockquote { color: #59636e; border-left: 4px solid #d1d9e0; margin: 8px 0; padding: 0 12px }
code { background: #eff1f3; padding: 1px 4px; border-radius: 4px; font-size: 12px } sub { color: #59636e }
details { margin: 8px 0 } summary { cursor: pointer; color: #0969da }
</style></head><body>${body}<script>${mermaid}</script><script>mermaid.initialize({ startOnLoad: true });</script></body></html>`,
  );
  await page.goto(`file://${html}`);
  if (body.includes('class="mermaid"')) await page.waitForSelector("pre.mermaid svg", { timeout: 30_000 });
  // its first screen: the verdict, the warnings, the confirmation (the whole is too large to keep)
  await page.screenshot({ path: join(DIR, "comment.png"), clip: { x: 0, y: 0, width: 960, height: 1500 } });
  // report.html as written for the run
  writeFileSync(join(tmp, "report.html"), sources.html);
  const report = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await report.goto(`file://${join(tmp, "report.html")}`);
  await report.waitForTimeout(1000);
  await report.screenshot({ path: join(DIR, "report.png"), fullPage: false });
} finally {
  await browser.close();
  rmSync(tmp, { recursive: true, force: true });
}
const sha = (s: string) => createHash("sha256").update(s).digest("hex");
writeFileSync(
  join(DIR, "sources.json"),
  `${JSON.stringify({ verdict: "verdict.json", comment_md_sha256: sha(sources.comment), report_html_sha256: sha(sources.html) }, null, 2)}\n`,
);
console.log(`${DIR}/comment.png, ${DIR}/report.png from ${DIR}/verdict.json`);
