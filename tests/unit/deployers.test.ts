import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { planRun } from "../../action/src/bench/plan.ts";
import { parseSpec } from "../../action/src/specfile/load.ts";
import { DEPLOYERS, formOf } from "../../action/src/targets/tidb/deployments/registry.ts";
import { parseProfile } from "../../action/src/targets/tidb/load-profile.ts";
import { formLeaks } from "../helpers/form-leaks.ts";
import { STANDIN, STANDIN_KIND } from "../helpers/forms/standin/index.ts";
import { ROOT } from "../helpers/paths.ts";

// the test-only way to deploy TiDB (tests/helpers/forms/standin/), registered by one line below
const dir = mkdtempSync(join(tmpdir(), "tiperf-deployers-"));
after(() => {
  delete DEPLOYERS.standin;
  rmSync(dir, { recursive: true, force: true });
});

describe("ways to deploy TiDB are plug-ins", () => {
  test("a deployer registered in one line: its profile rules apply, and it plans what tiperf plan prints", async () => {
    DEPLOYERS.standin = STANDIN;
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
    assert.match(plan.text, new RegExp(`deployments: ${STANDIN_KIND} tiperf-s `));
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

  test("every planned deployment's form is found by its name", () => {
    for (const form of ["server", "playground", "cluster"] as const)
      assert.equal(formOf({ form }).name, form);
  });

  test("outside its folders, no code uses a form's members or compares with a form's name; planted leaks are named", () => {
    const names = [
      ...Object.keys(DEPLOYERS).filter((p) => p !== "standin"),
      ...Object.values(DEPLOYERS).flatMap((d) => (d.form ? [d.form.name] : [])),
    ];
    // one program over the tree and a planted file in bench/: each sort of leak once
    const planted = join(ROOT, "action/src/bench/planted-leak.ts");
    const leaks = formLeaks({
      names,
      extra: {
        [planted]: [
          'import { isCluster } from "../targets/tidb/deployments/cluster/types.ts";',
          'import type { TidbDeployment } from "../targets/tidb/deployments/types.ts";',
          'import type { Profile } from "../targets/tidb/profile.ts";',
          'export const a = (d: TidbDeployment) => ("configSwitch" in d ? 1 : 0);',
          'export const b = (d: TidbDeployment) => d.form === "playground";',
          "export const c = (d: TidbDeployment) => (isCluster(d) ? d.proxyFlags : []);",
          'export const e = (p: Profile) => { switch (p.provider) { case "kubernetes": return 1; default: return 0; } };',
          "export const f = (d: TidbDeployment) => { if (!isCluster(d)) return 0; const { cluster } = d; return cluster.instances.length; };",
          "",
        ].join("\n"),
      },
    });
    const inTree = leaks.filter((l) => !l.file.endsWith("planted-leak.ts"));
    assert.deepEqual(inTree, [], inTree.map((l) => `${l.file}:${l.line}: ${l.what}`).join("\n"));
    assert.deepEqual(
      leaks.map((l) => `${l.line}: ${l.what}`),
      [
        '4: "configSwitch" in …: a member of deployments/cluster/',
        '5: d.form compared with the form name "playground"',
        "6: proxyFlags of deployments/cluster/",
        '7: p.provider compared with the form name "kubernetes"',
        "8: cluster of deployments/cluster/",
      ],
    );
  });
});
