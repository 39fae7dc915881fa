import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { planRun } from "../../action/src/pipeline/plan.ts";
import { parseSpec } from "../../action/src/specfile/load.ts";
import { LOCAL } from "../../action/src/targets/tidb/deployments/local/index.ts";
import { DEPLOYERS, formOf } from "../../action/src/targets/tidb/deployments/registry.ts";
import type { Deployer } from "../../action/src/targets/tidb/deployments/types.ts";
import { parseProfile } from "../../action/src/targets/tidb/load-profile.ts";
import { ROOT } from "../helpers/paths.ts";

// A test-only way to deploy TiDB, registered as a new one is: one object, one registry line. It
// plans private servers (the local form) under its own name and profile rule.
const standIn: Deployer = {
  provider: "standin",
  about: "a test-only deployer",
  sections: [],
  form: LOCAL.form,
  localServers: true,
  checkProfile(p, issue) {
    if (p.monitoring) issue(["monitoring"], "the stand-in deployer has no monitoring");
  },
  checkTarget: (t) =>
    t.version === "v0.0.0" ? "target.version: the stand-in deployer refuses v0.0.0" : undefined,
};

const dir = mkdtempSync(join(tmpdir(), "tiperf-deployers-"));
after(() => {
  delete DEPLOYERS.standin;
  rmSync(dir, { recursive: true, force: true });
});

describe("ways to deploy TiDB are plug-ins", () => {
  test("a deployer registered in one line: its profile rules apply, and it plans what tiperf plan prints", async () => {
    DEPLOYERS.standin = standIn;
    assert.equal(parseProfile("name: s\nprovider: standin\n", "s.yaml").provider, "standin");
    assert.throws(
      () => parseProfile("name: s\nprovider: standin\nmonitoring: true\n", "s.yaml"),
      /s\.yaml:\d+: monitoring: the stand-in deployer has no monitoring/,
    );
    const profile = join(dir, "standin.yaml");
    writeFileSync(profile, "name: standin\nprovider: standin\n");
    const spec = (version: string) =>
      parseSpec(
        `name: s\ntarget: {kind: tidb, profile: ${profile}, version: ${version}, binpath: /opt/tidb-server}\ndata: {tables: 1, table_size: 100}\nworkloads:\n  - {name: ps, sysbench: oltp_point_select, threads: [2], duration: 5s}\n`,
        "s.yaml",
      );
    const plan = await planRun(spec("v8.5.0"), {});
    assert.match(plan.text, /provider standin/);
    assert.match(plan.text, /\[start\] cp \/opt\/tidb-server '<workdir of [^>]+>\/bin\/tidb-server'/);
    assert.match(plan.text, /\/bin\/tidb-server' -store unistore/);
    await assert.rejects(
      planRun(spec("v0.0.0"), {}),
      /s\.yaml: target\.version: the stand-in deployer refuses v0\.0\.0/,
    );
  });

  test("an unknown provider is refused naming every registered one", () => {
    assert.throws(
      () => parseProfile("name: s\nprovider: nowhere\n", "s.yaml"),
      (e: Error) => {
        for (const p of ["local", "playground", "hosts", "endpoint", "aws"])
          assert.match(e.message, new RegExp(p));
        return /s\.yaml:\d+: provider: must be one of/.test(e.message);
      },
    );
  });

  test("a section of one provider in another's profile is named as that provider's", () => {
    assert.throws(
      () => parseProfile("name: s\nprovider: local\nendpoint: {host: db, port: 4000, user: u}\n", "s.yaml"),
      /endpoint: belongs to provider endpoint/,
    );
  });

  test("every planned deployment's form is found by its kind", () => {
    for (const kind of ["server", "playground", "cluster"] as const)
      assert.equal(formOf({ kind }).kind, kind);
  });

  test("outside deployments/, the tidb kind's code names no provider and branches on no deployment form", () => {
    const tidb = join(ROOT, "action/src/targets/tidb");
    const providers = Object.keys(DEPLOYERS).filter((p) => p !== "standin");
    for (const file of readdirSync(tidb).filter((f) => f.endsWith(".ts"))) {
      const text = readFileSync(join(tidb, file), "utf8");
      for (const p of providers)
        assert.doesNotMatch(
          text,
          new RegExp(`provider\\s*[!=]==\\s*"${p}"`),
          `${file} branches on provider ${p}`,
        );
      assert.doesNotMatch(
        text,
        /\.kind\s*[!=]==\s*"(server|playground|cluster)"/,
        `${file} branches on a form`,
      );
    }
  });
});
