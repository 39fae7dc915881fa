import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { unseenLines } from "../../action/src/compare/effects.ts";
import { tidbSource } from "../../action/src/targets/tidb/source.ts";
import { unseenOnUnistore } from "../../action/src/targets/tidb/unseen.ts";
import { ROOT } from "../helpers/paths.ts";
import { tempDir } from "../helpers/real.ts";

describe("what a private tidb-server (unistore) cannot judge of a source change", () => {
  test("SQL-layer paths are judged; TiKV/PD-facing paths, TiFlash, unistore itself and client-go are named with their paths", () => {
    assert.deepEqual(
      unseenOnUnistore(["pkg/executor/sortexec/sort.go", "pkg/planner/core/find_best_task.go"]),
      [],
    );
    const u = unseenOnUnistore(
      [
        "pkg/executor/sortexec/sort.go",
        "pkg/store/gcworker/gc_worker.go",
        "pkg/store/mockstore/unistore/tikv/mvcc.go",
        "pkg/store/copr/mpp.go",
        "pkg/store/copr/coprocessor.go",
        "go.mod",
      ],
      " require (\n-\tgithub.com/tikv/client-go/v2 v2.0.8-0.20240530\n+\tgithub.com/tikv/client-go/v2 v2.0.8-0.20240605\n \tgithub.com/pingcap/kvproto v0.0.0\n",
    );
    const byPath = Object.fromEntries(u.flatMap((x) => x.paths.map((p) => [p, x.why])));
    assert.match(byPath["pkg/store/gcworker/gc_worker.go"] ?? "", /GC against PD's safe point/);
    assert.match(byPath["pkg/store/mockstore/unistore/tikv/mvcc.go"] ?? "", /unistore itself/);
    assert.match(byPath["pkg/store/copr/mpp.go"] ?? "", /TiFlash/);
    assert.match(byPath["go.mod"] ?? "", /github\.com\/tikv\/client-go\/v2 .*two-phase commit/);
    // the coprocessor client and the executor run on unistore as on a cluster
    assert.equal(byPath["pkg/store/copr/coprocessor.go"], undefined);
    assert.equal(byPath["pkg/executor/sortexec/sort.go"], undefined);
    // a go.mod change to other modules is not a TiKV/PD change
    assert.deepEqual(
      unseenOnUnistore(["go.mod"], "-\tgithub.com/pingcap/kvproto v1\n+\tgithub.com/pingcap/kvproto v2\n"),
      [],
    );
  });

  test("the comment's line names the paths (five, then a count) and what can judge them", () => {
    const files = Array.from({ length: 7 }, (_, i) => `pkg/store/driver/f${i}.go`);
    const [line] = unseenLines(unseenOnUnistore(files));
    assert.match(
      line ?? "",
      /^🔭 Not judged here: the TiKV driver .*\(pkg\/store\/driver\/f0\.go, .*f4\.go and 2 more\)\. .*cluster profile/,
    );
    assert.deepEqual(unseenLines(undefined), []);
  });

  test("the tidb kind asks git for the change, and only on a local (unistore) profile", async () => {
    const dir = tempDir("tiperf-unseen-");
    try {
      const git = (...a: string[]) =>
        execFileSync("git", ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.invalid", ...a], {
          encoding: "utf8",
        }).trim();
      git("init", "-q", "-b", "main");
      mkdirSync(join(dir, "pkg/store/gcworker"), { recursive: true });
      writeFileSync(join(dir, "pkg/store/gcworker/gc.go"), "package gcworker\n");
      writeFileSync(join(dir, "go.mod"), "module x\n\nrequire github.com/tikv/client-go/v2 v2.0.1\n");
      git("add", "-A");
      git("commit", "-q", "-m", "base");
      const base = git("rev-parse", "HEAD");
      writeFileSync(join(dir, "pkg/store/gcworker/gc.go"), "package gcworker\n// safe point\n");
      writeFileSync(join(dir, "go.mod"), "module x\n\nrequire github.com/tikv/client-go/v2 v2.0.2\n");
      git("commit", "-q", "-am", "head");
      const head = git("rev-parse", "HEAD");
      const unseen = tidbSource.unseen as NonNullable<typeof tidbSource.unseen>;
      const local = await unseen({ profile: join(ROOT, "infra/profiles/local.yaml") }, dir, base, head);
      assert.deepEqual(
        local.map((u) => u.paths),
        [["pkg/store/gcworker/gc.go"], ["go.mod"]],
      );
      const cluster = await unseen(
        { profile: join(ROOT, "infra/profiles/local.yaml") },
        dir,
        base,
        head,
        join(ROOT, "infra/profiles/playground.yaml"),
      );
      assert.deepEqual(cluster, [], "a --profile of a cluster runs TiKV and PD: nothing unseen");
      await assert.rejects(
        unseen({ profile: join(ROOT, "infra/profiles/local.yaml") }, dir, base, "no-such-ref"),
        /git diff/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
