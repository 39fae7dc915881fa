// The pictures README and docs show were rendered from the current templates: the comment's
// markdown and report.html made again from the kept verdict hash as docs/pictures/sources.json
// says (else: npm run pictures), and the pictures are there.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { pictureSources } from "../../scripts/picture-sources.ts";
import { ROOT } from "../helpers/paths.ts";

const DIR = join(ROOT, "docs/pictures");
const sha = (s: string) => createHash("sha256").update(s).digest("hex");

describe("docs/pictures", () => {
  test("rendered from the current templates (npm run pictures when this fails)", async () => {
    const kept = JSON.parse(readFileSync(join(DIR, "sources.json"), "utf8"));
    const now = await pictureSources(join(DIR, kept.verdict));
    assert.equal(sha(now.comment), kept.comment_md_sha256, "the PR comment's template changed");
    assert.equal(sha(now.html), kept.report_html_sha256, "report.html's template changed");
    for (const png of ["comment.png", "report.png"]) {
      const bytes = readFileSync(join(DIR, png));
      assert.equal(bytes.subarray(1, 4).toString(), "PNG", png);
    }
    assert.ok(existsSync(join(DIR, "README.md")));
  });

  test("the kept verdict is a real run's: its regression confirmed, the sort executor among the growers", () => {
    const v = JSON.parse(readFileSync(join(DIR, "verdict.json"), "utf8"));
    assert.equal(v.verdict, "regression");
    assert.equal(v.confirmation.confirmed, true);
    const growers = v.profile_diffs.flatMap((d: { growers: { name: string }[] }) =>
      d.growers.slice(0, 5).map((g) => g.name),
    );
    assert.ok(
      growers.some((n: string) => /sortexec\.\(\*SortExec\)\.fetchChunksParallel/.test(n)),
      growers.join("\n"),
    );
  });
});
