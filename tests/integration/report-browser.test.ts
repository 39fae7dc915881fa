// test-lane: parallel (nothing asserted here rests on measured speed: scripts/run-tests.mjs)
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import { type Browser, chromium } from "playwright-core";
import { PNG } from "pngjs";
import { commentMarkdown } from "../../action/src/report/comment.ts";
import { writeHtmlReport } from "../../action/src/report/html.ts";
import { BASE_COLOR, HEAD_COLOR } from "../../action/src/report/mermaid.ts";
import { ROOT } from "../helpers/paths.ts";
import { tempDir } from "../helpers/real.ts";
import { syntheticVerdict } from "../helpers/verdict.ts";

/** Screenshots for people to look at after a test run. */
const SHOTS = join(ROOT, "test-output", "screenshots");
const CHROMIUM = "/usr/bin/chromium";

const hex = (c: string) => [1, 3, 5].map((i) => Number.parseInt(c.slice(i, i + 2), 16));

/** How many pixels of the screenshot are (nearly) the given colour: proof something was drawn in it. */
function pixelsOf(png: Buffer, color: string): number {
  const img = PNG.sync.read(png);
  const [r, g, b] = hex(color) as [number, number, number];
  let n = 0;
  for (let i = 0; i < img.data.length; i += 4) {
    const d =
      Math.abs((img.data[i] as number) - r) +
      Math.abs((img.data[i + 1] as number) - g) +
      Math.abs((img.data[i + 2] as number) - b);
    if (d < 30) n++;
  }
  return n;
}

describe("what a person sees, in headless Chromium", () => {
  let browser: Browser;
  before(async () => {
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: scripts/setup.sh installs Debian's chromium`);
    mkdirSync(SHOTS, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
      ],
    });
  });
  after(() => browser?.close());

  test("report.html draws every chart: axes, both lines, the CI bars", async () => {
    const dir = tempDir();
    const file = join(dir, "report.html");
    await writeHtmlReport(syntheticVerdict({ regressions: ["point_select@64"] }), file);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const offline: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith("file:")) offline.push(r.url());
    });
    await page.goto(pathToFileURL(file).href);
    const charts = await page.$$eval("figure.chart", (figs) =>
      figs.map((f) => {
        const svg = f.querySelector("svg");
        const box = svg?.getBoundingClientRect();
        return {
          name: f.getAttribute("data-chart"),
          width: box?.width ?? 0,
          height: box?.height ?? 0,
          lines: svg?.querySelectorAll("path[stroke]").length ?? 0,
          ticks: svg?.querySelectorAll(".role-axis-label text").length ?? 0,
        };
      }),
    );
    assert.equal(charts.length, 6);
    for (const c of charts) {
      assert.ok(c.width > 300 && c.height > 200, `${c.name} is ${c.width}×${c.height}`);
      assert.ok(c.lines >= 2, `${c.name} has ${c.lines} stroked paths`);
      assert.ok(c.ticks >= 4, `${c.name} has ${c.ticks} axis labels`);
    }
    assert.equal(await page.locator("h1#verdict").getAttribute("data-verdict"), "regression");
    const shot = await page.screenshot({ fullPage: true, path: join(SHOTS, "report.png") });
    assert.ok(pixelsOf(shot, BASE_COLOR) > 300, "base line drawn");
    assert.ok(pixelsOf(shot, HEAD_COLOR) > 300, "head line drawn");
    assert.ok(pixelsOf(shot, "#d62728") > 50, "the regression's CI bar drawn in red");
    assert.deepEqual(offline, [], "report.html fetched nothing");
    await page.close();
  });

  test("the comment's Mermaid xychart renders with two lines", async () => {
    const md = commentMarkdown(syntheticVerdict({ regressions: ["point_select@128", "point_select@256"] }));
    const block = /```mermaid\n([\s\S]*?)```/.exec(md)?.[1];
    assert.ok(block);
    const dir = tempDir();
    const mermaid = readFileSync(join(ROOT, "node_modules/mermaid/dist/mermaid.min.js"), "utf8");
    const file = join(dir, "mermaid.html");
    writeFileSync(
      file,
      `<!doctype html><html><body style="margin:0;background:white"><pre class="mermaid">${block.replace(/</g, "&lt;")}</pre><script>${mermaid}</script><script>mermaid.initialize({ startOnLoad: true });</script></body></html>`,
    );
    const page = await browser.newPage({ viewport: { width: 800, height: 560 } });
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector("pre.mermaid svg", { timeout: 20_000 });
    const drawn = await page.$eval("pre.mermaid svg", (svg) => ({
      text: svg.textContent ?? "",
      lines: [0, 1].map((i) => svg.querySelector(`.line-plot-${i} path`)?.getAttribute("d") ?? ""),
      colors: [0, 1].map((i) => svg.querySelector(`.line-plot-${i} path`)?.getAttribute("stroke")),
      xLabels: [...svg.querySelectorAll(".bottom-axis .label text")].map((t) => t.textContent),
    }));
    assert.doesNotMatch(drawn.text, /Syntax error/i);
    assert.match(drawn.text, /point_select: QPS vs threads/);
    assert.deepEqual(drawn.xLabels, ["16", "64", "128", "256"]);
    for (const d of drawn.lines) assert.equal(d.match(/[ML]/g)?.length, 4, `a line through 4 points: ${d}`);
    assert.deepEqual(drawn.colors, [BASE_COLOR, HEAD_COLOR]);
    const shot = await page.screenshot({ path: join(SHOTS, "mermaid-xychart.png") });
    assert.ok(pixelsOf(shot, BASE_COLOR) > 100, "base line drawn");
    assert.ok(pixelsOf(shot, HEAD_COLOR) > 100, "head line drawn");
    await page.close();
  });
});
