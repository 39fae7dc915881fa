import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { readInputs } from "../../action/src/action/inputs.ts";
import { acceptedVerdict } from "../../action/src/commands/compare/verdict.ts";
import { exitCodeOf } from "../../action/src/commands/exit.ts";
import { VerdictSchema } from "../../action/src/compare/verdict.ts";
import { acceptanceFor } from "../../action/src/history/accepted.ts";
import { parseLogin } from "../../action/src/publish/names.ts";
import { acceptedRecord } from "../../action/src/report/accepted-marker.ts";
import { commentMarkdown } from "../../action/src/report/comment.ts";
import { syntheticVerdict } from "../helpers/verdict.ts";

describe("an expected cost, accepted", () => {
  test("a regression accepted by a login: the same verdict, its regressed judgements named, exit 0", () => {
    const v = syntheticVerdict({ regressions: ["read_write@64"], inconclusive: ["point_select@16"] });
    assert.equal(v.verdict, "regression");
    assert.equal(exitCodeOf(v, "warn"), 1);
    const a = acceptedVerdict(v, "maintainer-1");
    assert.equal(a.verdict, "regression", "still a regression: what was measured is not rewritten");
    assert.equal(a.accepted?.by, "maintainer-1");
    assert.deepEqual(a.accepted?.cells, ["read_write threads=64 qps −12.0% [−15.0%, −9.0%]"]);
    assert.equal(exitCodeOf(a, "warn"), 0);
    assert.equal(exitCodeOf(a, "fail"), 0);
    assert.ok(VerdictSchema.safeParse(a).success);
    const body = commentMarkdown(a);
    assert.match(body, /✅ Accepted by @maintainer-1 as an expected cost of this commit/);
    assert.match(
      body,
      /read\\_write threads=64 qps −12\.0% \[−15\.0%, −9\.0%\]|read_write threads=64 qps −12\.0%/,
    );
    assert.doesNotMatch(body, /Fails the check/);
    // not accepted: the one line that says what fails the check
    assert.match(commentMarkdown(v), /❌ Fails the check: read.write threads=64 QPS −12\.0%/);
  });

  test("nothing to accept: a pass or an inconclusive verdict is left as it is; no login, no acceptance", () => {
    const pass = syntheticVerdict();
    assert.equal(acceptedVerdict(pass, "maintainer-1"), pass);
    const open = syntheticVerdict({ inconclusive: ["point_select@16"] });
    assert.equal(acceptedVerdict(open, "maintainer-1").accepted, undefined);
    assert.equal(
      exitCodeOf(acceptedVerdict(open, "maintainer-1"), "fail"),
      1,
      "an undecided cell is not accepted",
    );
    const regressed = syntheticVerdict({ regressions: ["read_write@64"] });
    assert.equal(acceptedVerdict(regressed, undefined), regressed);
  });

  test("the login is checked where it enters, naming the flag or input", () => {
    assert.equal(parseLogin("maintainer-1"), "maintainer-1");
    assert.equal(parseLogin("renovate[bot]"), "renovate[bot]");
    for (const bad of ["", "-lead", "a--b", "two words", "$(id)", "x".repeat(40)])
      assert.throws(() => parseLogin(bad), /--accepted-by must be a GitHub login/, bad);
    const inputs = (more: Record<string, string>) => (k: string) =>
      ({ mode: "compare", spec: "workloads/smoke.yaml", ...more })[k] ?? "";
    assert.equal(readInputs(inputs({ "accepted-by": "maintainer-1" }), {}, {}).acceptedBy, "maintainer-1");
    assert.throws(
      () => readInputs(inputs({ "accepted-by": "a b" }), {}, {}),
      /'accepted-by' input must be a GitHub login/,
    );
    assert.throws(
      () => readInputs(inputs({ mode: "publish", "verdict-json": "{}", "accepted-by": "m" }), {}, {}),
      /'accepted-by' input is for modes compare and merge \(got mode publish\)/,
    );
  });

  test("the comment keeps the acceptance for the weekly history: its commit, login and each cell's size", () => {
    const regressed = syntheticVerdict({ regressions: ["read_write@64"] });
    const a = { ...acceptedVerdict(regressed, "maintainer-1"), provenance: { head_sha: "ab".repeat(20) } };
    const record = acceptedRecord(commentMarkdown(a));
    assert.equal(record?.commit, "ab".repeat(20));
    assert.equal(record?.by, "maintainer-1");
    assert.deepEqual(
      record?.cells.map((c) => [c.workload, c.threads, c.metric, Number(c.change.toFixed(3))]),
      [["read_write", 64, "qps", -0.12]],
    );
    // not accepted, or the head commit unknown: no record
    assert.equal(acceptedRecord(commentMarkdown(regressed)), undefined);
    assert.equal(acceptedRecord(commentMarkdown(acceptedVerdict(regressed, "m"))), undefined);
    // a name that holds "-->" does not end the hidden line early
    const odd = {
      ...acceptedVerdict(
        syntheticVerdict({ workloads: ["read_write-->x"], regressions: ["read_write-->x@64"] }),
        "m",
      ),
      provenance: { head_sha: "cd".repeat(20) },
    };
    assert.equal(acceptedRecord(commentMarkdown(odd))?.cells[0]?.workload, "read_write-->x");
  });

  test("a weekly change point is the acceptance's: same workload and metric, same way, at most twice its size", () => {
    const a = [
      {
        pr: 7,
        commit: "c",
        by: "m",
        cells: [{ workload: "oltp", threads: 4, metric: "tps", change: -0.045 }],
      },
    ];
    const series = { workload: "oltp", metric: "tps" };
    assert.deepEqual(acceptanceFor(series, { change: -0.04 }, a), {
      by: "m",
      pr: 7,
      commit: "c",
      change: -0.045,
    });
    assert.equal(acceptanceFor(series, { change: -0.09 }, a)?.pr, 7, "twice the size: still the acceptance");
    assert.equal(acceptanceFor(series, { change: -0.091 }, a), undefined, "larger: raised");
    assert.equal(acceptanceFor(series, { change: 0.04 }, a), undefined, "the other way");
    assert.equal(acceptanceFor({ workload: "oltp", metric: "p95_ms" }, { change: -0.04 }, a), undefined);
    assert.equal(acceptanceFor({ workload: "other", metric: "tps" }, { change: -0.04 }, a), undefined);
  });
});
