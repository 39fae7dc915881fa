import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import {
  COMMENT_LIMIT,
  commentMarkdown,
  commentMarker,
  isTiperfComment,
} from "../../action/src/report/comment.ts";
import { gabEntries } from "../../action/src/report/gab.ts";
import { writeHtmlReport } from "../../action/src/report/html.ts";
import { tempDir } from "../helpers/real.ts";
import { sampleResult } from "../helpers/sample.ts";
import { syntheticVerdict } from "../helpers/verdict.ts";

const tableRows = (md: string, workload: string) => {
  const section = md.split(`#### ${workload}\n`)[1]?.split("\n\n")[0] ?? "";
  return section.split("\n").filter((l) => /^\| \d+ \|/.test(l));
};

describe("PR comment", () => {
  test("a cloud cluster's cost: the line under the method, and throughput per $/h per cell (seed 002's ranking)", () => {
    const v = syntheticVerdict({ workloads: ["point_select"], threads: [16, 64] });
    assert.doesNotMatch(commentMarkdown(v), /per \$\/h|Cluster cost/, "no cost without a cloud cluster");
    v.cost = {
      currency: "USD",
      basis: "estimate",
      profile: "aws-sysbench-3x3",
      per_hour: 6.933,
      hours: 3.83,
      dollars: 26.58,
      prices_as_of: "2026-11-22",
    };
    const md = commentMarkdown(v);
    assert.match(
      md,
      /💲 Cluster cost \(estimate\): \*\*\$26\.58\*\* \(3\.83 h × \$6\.93\/h, profile aws-sysbench-3x3, on-demand prices as of 2026-11-22\)/,
    );
    assert.match(md, /\| QPS per \$\/h \(base \/ head\) \|/);
    const row = tableRows(md, "point_select")[0] as string;
    const cells = v.cells.filter((c) => c.metric === "qps" && c.threads === 16)[0];
    const per = (x: number) => x / 6.933;
    // the row shows base and head throughput divided by the cluster's $/h, as the table prints numbers
    const base = per(cells?.base as number);
    const head = per(cells?.head as number);
    assert.ok(row.includes(` / `), row);
    const shown = /\| ([\d.,]+) \/ ([\d.,]+) \|/.exec(row);
    assert.ok(shown, row);
    const parse = (t: string) => Number(t.replace(/,/g, ""));
    assert.ok(Math.abs(parse(shown[1] as string) - base) / base < 0.01, `${shown[1]} vs ${base}`);
    assert.ok(Math.abs(parse(shown[2] as string) - head) / head < 0.01, `${shown[2]} vs ${head}`);
  });

  test("first line: overall marker, verdict, what differs, target, host, time", () => {
    const md = commentMarkdown(syntheticVerdict({ regressions: ["read_write@64"] }));
    const first = md.split("\n")[0] as string;
    assert.match(first, /^🔴 \*\*tiperf pr: regression\*\*/);
    assert.match(first, /1 regressed of 16 judgements/);
    assert.match(first, /head vs base: innodb_buffer_pool_size: 2G → 4G/);
    assert.match(first, /target mariadb 10\.11\.19, cpus=0/);
    assert.match(first, /host Intel Xeon × 2, 24\.0 GiB, Debian/);
    assert.match(first, /21 min benchmark \(early stop saved ~10 min\)/);
  });

  test("one instance pair: a flagged cell is warned of in the first lines of the comment and report.html; nothing flagged or blocks, no warning", async () => {
    const single = { instance_gap_sd: { low: 0.009, high: 0.07 } };
    const v = syntheticVerdict({ improvements: ["point_select@16"] });
    v.single_pair = single;
    const cell = v.cells.find((c) => c.verdict === "improvement");
    assert.ok(cell && cell.change !== null);
    const want = new RegExp(
      `^> ⚠️ One instance pair \\(compare\\.blocks 1\\): point_select threads=16 ${cell.metric} \\+${(cell.change * 100).toFixed(1).replace(".", "\\.")}% may be a steady gap between the two server instances`,
      "m",
    );
    const md = commentMarkdown(v);
    assert.match(md, want);
    // among the first lines: before the method line
    assert.ok(md.search(want) < md.indexOf("<sub>"), md.slice(0, 600));
    const file = join(tempDir(), "report.html");
    await writeHtmlReport(v, file);
    assert.match(readFileSync(file, "utf8"), /<p class="warning">⚠️ One instance pair/);
    // nothing flagged: the note stays among the notes only
    const quiet = syntheticVerdict();
    quiet.single_pair = single;
    assert.doesNotMatch(commentMarkdown(quiet), /One instance pair/);
    // with blocks (no single_pair) a flagged cell is judged over instances: no warning
    assert.doesNotMatch(
      commentMarkdown(syntheticVerdict({ improvements: ["point_select@16"] })),
      /One instance pair/,
    );
  });

  test("overall markers: 🟢 improvement, ⚪ nothing changed, 🟡 inconclusive", () => {
    assert.match(
      commentMarkdown(syntheticVerdict({ improvements: ["point_select@16"] })),
      /^🟢 \*\*tiperf pr: pass/,
    );
    assert.match(
      commentMarkdown(syntheticVerdict()),
      /^⚪ \*\*tiperf pr: pass\*\* · all 16 judgements unchanged/,
    );
    assert.match(
      commentMarkdown(syntheticVerdict({ inconclusive: ["point_select@16"] })),
      /^🟡 \*\*tiperf pr: inconclusive/,
    );
  });

  test("a seed-shaped table per workload with base and head QPS and p95", () => {
    const v = syntheticVerdict({ regressions: ["read_write@64"] });
    const md = commentMarkdown(v);
    assert.match(
      md,
      /\| Threads \| base QPS \| head QPS \| Δ% \| 95% CI \| base p95 \(ms\) \| head p95 \(ms\) \| verdict \|/,
    );
    const rows = tableRows(md, "read_write");
    assert.equal(rows.length, 4);
    const qps = v.cells.find((c) => c.workload === "read_write" && c.threads === 64 && c.metric === "qps");
    assert.equal(
      rows[1],
      `| 64 | ${qps?.base?.toFixed(0)} | ${qps?.head?.toFixed(0)} | −12.0% | [−15.0%, −9.0%] | 2.10 | 2.12 | 🔴 regression (QPS) |`,
    );
    assert.match(rows[0] as string, /⚪ unchanged \|$/);
  });

  test("Mermaid xychart per workload and metric, base and head as two lines", () => {
    const md = commentMarkdown(syntheticVerdict());
    const blocks = [...md.matchAll(/```mermaid\n([\s\S]*?)```/g)].map((m) => m[1] as string);
    assert.equal(blocks.length, 4); // 2 workloads × (QPS, p95)
    const first = blocks[0] as string;
    assert.match(first, /xychart-beta/);
    assert.match(first, /x-axis "threads" \[16, 64, 128, 256\]/);
    assert.equal(first.match(/^ {2}line \[/gm)?.length, 2);
    assert.match(first, /y-axis "QPS" 0 --> \d+/);
  });

  test("details carry MDE, rounds and raw logs; a reproduce section names the seed", () => {
    const md = commentMarkdown(syntheticVerdict());
    assert.match(
      md,
      /<details><summary>point_select: minimum detectable effect, rounds, raw logs<\/summary>/,
    );
    assert.match(
      md,
      /\| 16 \| QPS \| .* \| −8\.0% \| 12 \| paired-t \| ⚪ unchanged \| `raw\/point_select-t16\*\.log` \|/,
    );
    assert.match(md, /node action\/dist\/cli\.js compare --spec workloads\/pr\.yaml --seed 7/);
    assert.match(md, /`results\/r1\/raw\/`/);
  });

  test("the hidden marker is per matrix and finds the comment again", () => {
    const md = commentMarkdown(syntheticVerdict(), { matrix: "weekly" });
    assert.ok(md.trimEnd().endsWith(commentMarker("weekly")));
    assert.ok(isTiperfComment(md, "weekly"));
    assert.ok(!isTiperfComment(md, "pr"));
    assert.ok(!md.includes("<!-- tiperf:comment matrix=pr -->"));
  });

  test("user text cannot break the table or inject HTML", () => {
    const v = syntheticVerdict({ workloads: ["a|b<script>"], threads: [1] });
    const md = commentMarkdown(v);
    assert.ok(!md.includes("<script>"));
    assert.match(md, /#### a\\\|b&lt;script>/);
  });

  test("a verdict with 200 cells fits in one comment with every regression visible", () => {
    const workloads = Array.from({ length: 20 }, (_, i) => `workload_${i}`);
    const threads = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];
    const regressions = ["workload_3@64", "workload_11@512", "workload_19@1"];
    const v = syntheticVerdict({ workloads, threads, regressions, inconclusive: ["workload_5@2"] });
    assert.equal(v.cells.length, 400); // 200 cells × (QPS, p95)
    const md = commentMarkdown(v);
    assert.ok(md.length <= COMMENT_LIMIT, `${md.length} characters`);
    assert.match(md, /^🔴 \*\*tiperf pr: regression\*\* · 3 regressed, 1 inconclusive of 400 judgements/);
    for (const r of regressions) {
      const [w, t] = r.split("@");
      assert.ok(
        tableRows(md, w as string).some((l) => l.startsWith(`| ${t} |`) && l.includes("🔴 regression")),
        r,
      );
    }
  });

  test("too big for GitHub: trims details first, then charts, then quiet rows, and says so", () => {
    const workloads = Array.from({ length: 60 }, (_, i) => `workload_number_${i}`);
    const threads = Array.from({ length: 40 }, (_, i) => i + 1);
    const regressions = workloads.filter((_, i) => i % 7 === 0).map((w, i) => `${w}@${(i % 40) + 1}`);
    const v = syntheticVerdict({ workloads, threads, regressions });
    const md = commentMarkdown(v);
    assert.ok(md.length <= COMMENT_LIMIT, `${md.length} characters`);
    assert.match(md, /^🔴 \*\*tiperf pr: regression\*\*/);
    assert.match(
      md,
      /✂️ Trimmed to fit GitHub's 65,536-character limit: per-cell raw-log paths, details of unchanged cells, per-cell details, charts, table rows of unchanged and improved cells left out/,
    );
    assert.ok(!md.includes("```mermaid"));
    for (const r of regressions) {
      const [w, t] = r.split("@");
      assert.ok(
        tableRows(md, w as string).some((l) => l.startsWith(`| ${t} |`)),
        r,
      );
    }
    assert.ok(md.trimEnd().endsWith(commentMarker("pr")));
    // a small limit forces the last resort: the regressions are cut, the marker stays
    const cut = commentMarkdown(v, { limit: 3000 });
    assert.ok(cut.length <= 3000);
    assert.match(cut, /Cut at 3,000 characters/);
    assert.ok(isTiperfComment(cut, "pr"));
  });
});

describe("report.html and charts", () => {
  test("self-contained HTML with an inline SVG per chart and PNGs beside it", async () => {
    const dir = tempDir();
    const file = join(dir, "report.html");
    const files = await writeHtmlReport(syntheticVerdict({ regressions: ["point_select@64"] }), file);
    const html = readFileSync(file, "utf8");
    assert.match(html, /<h1 id="verdict" data-verdict="regression">🔴 tiperf pr: regression<\/h1>/);
    assert.equal(html.match(/<figure class="chart"/g)?.length, 6); // 2 workloads × (QPS, p95, change)
    assert.equal(html.match(/<svg/g)?.length, 6);
    assert.doesNotMatch(html, /<script|<link|src="http|href="http|url\(http/);
    const pngs = files.filter((f) => f.endsWith(".png"));
    assert.equal(pngs.length, 6);
    for (const f of pngs) {
      assert.ok(existsSync(f));
      assert.deepEqual([...readFileSync(f).subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], f);
    }
    assert.ok(files.some((f) => f.endsWith("point_select-qps.svg")));
  });

  test("the table has latency columns only when a latency metric was judged, as the comment", async () => {
    const dir = tempDir();
    const header = (v: ReturnType<typeof syntheticVerdict>) => {
      const file = join(dir, `${v.cells.length}.html`);
      return writeHtmlReport(v, file).then(() => {
        const html = readFileSync(file, "utf8");
        const head = html.match(/<table><thead><tr>(.*?)<\/tr><\/thead><tbody>\n(<tr.*?<\/tr>)/s);
        const names = [...(head?.[1] ?? "").matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]);
        assert.equal(head?.[2]?.match(/<td/g)?.length, names.length, "a row has a cell per column");
        return names;
      });
    };
    const both = syntheticVerdict();
    assert.deepEqual(await header(both), [
      "Threads",
      "base QPS",
      "head QPS",
      "Δ%",
      "95% CI",
      "base p95 (ms)",
      "head p95 (ms)",
      "verdict",
    ]);
    const qpsOnly = { ...both, cells: both.cells.filter((c) => c.metric === "qps") };
    assert.deepEqual(await header(qpsOnly), ["Threads", "base QPS", "head QPS", "Δ%", "95% CI", "verdict"]);
  });
});

describe("github-action-benchmark export", () => {
  test("throughput as customBiggerIsBetter, latency as customSmallerIsBetter", () => {
    const r = sampleResult();
    const cell = r.cells[0];
    assert.ok(cell);
    const bigger = gabEntries(r, "higher");
    assert.deepEqual(
      bigger.map((e) => [e.name, e.unit]),
      [
        ["t/ps/threads=2/TPS", "transactions/s"],
        ["t/ps/threads=2/QPS", "queries/s"],
      ],
    );
    assert.equal(bigger[0]?.value, Number(cell.metrics.tps?.value.toPrecision(6)));
    assert.match(bigger[0]?.range ?? "", /^± \d/);
    assert.match(
      bigger[0]?.extra ?? "",
      /1 round\(s\) of oltp_point_select, 2s each\nrange: sd of the interval samples\n[\s\S]*raw: raw\/ps-t2\.log/,
    );
    const smaller = gabEntries(r, "lower");
    assert.equal(smaller.length, 1);
    assert.equal(smaller[0]?.unit, "ms");
    assert.match(smaller[0]?.name ?? "", /\/p\d+ latency$/);
  });

  test("several rounds: mean and sd over rounds; an unknown variant is named", () => {
    const r = sampleResult();
    const c = r.cells[0];
    assert.ok(c);
    r.cells = [1, 2, 3].map((round) => ({
      ...c,
      variant: "head",
      round,
      metrics: { ...c.metrics, qps: { value: 100 * round, unit: "1/s", better: "higher" } },
    }));
    const qps = gabEntries(r, "higher").find((e) => e.name.endsWith("/QPS"));
    assert.equal(qps?.value, 200);
    assert.equal(qps?.range, "± 100");
    assert.throws(() => gabEntries(r, "higher", "nope"), /--variant nope: the result has variants head/);
  });
});

test("a change beyond +1000% (two noisy rounds' interval) reads >+1000%, not an exponent", async () => {
  const { pct } = await import("../../action/src/report/rows.ts");
  assert.equal(pct(8.456e18), ">+1000%");
  assert.equal(pct(9.99), "+999.0%");
  assert.equal(pct(-0.999), "−99.9%");
  assert.equal(pct(null), "–");
});
