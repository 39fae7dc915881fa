import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { planRun } from "../../action/src/bench/plan.ts";
import { AWS_CLOUD } from "../../action/src/cloud/aws/index.ts";
import { checkBudget, estimateCost } from "../../action/src/cloud/cost.ts";
import { hostsOf, machinesFromOutputs, stackName } from "../../action/src/cloud/provision.ts";
import { InputError } from "../../action/src/errors.ts";
import { loadSpec, parseSpec } from "../../action/src/specfile/load.ts";
import { sameSetting } from "../../action/src/targets/tidb/checks.ts";
import { askOf, withHosts } from "../../action/src/targets/tidb/cloud.ts";
import { expandDotted, toToml } from "../../action/src/targets/tidb/config.ts";
import { isCluster } from "../../action/src/targets/tidb/deployments/cluster/types.ts";
import type { TidbTargetPlan } from "../../action/src/targets/tidb/index.ts";
import { parseProfile } from "../../action/src/targets/tidb/load-profile.ts";
import {
  changesOnline,
  configSwitchOf,
  parseShowConfig,
  setConfigSql,
  showConfigSql,
} from "../../action/src/targets/tidb/online.ts";
import { planTidb, rowRegions, type VariantSetup } from "../../action/src/targets/tidb/plan.ts";
import type { Role } from "../../action/src/targets/tidb/profile.ts";
import type { PlanStep } from "../../action/src/targets/types.ts";
import { golden as goldenFile } from "../helpers/golden.ts";
import { ROOT } from "../helpers/paths.ts";

const FIX = join(ROOT, "tests/fixtures/plans");
// the plan prints expanded key paths; keep them the same on every machine
process.env.HOME = "/home/runner";

const golden = (name: string, text: string) => goldenFile(FIX, name, text);

const PROFILES = ["playground", "hosts-example", "aws-sysbench-3x3", "aws-smoke"];

describe("tiperf plan: workloads/tidb-pr.yaml × each shipped profile", () => {
  for (const profile of PROFILES) {
    test(`config variant on ${profile}`, async () => {
      const loaded = await loadSpec(join(ROOT, "workloads/tidb-pr.yaml"));
      loaded.path = "workloads/tidb-pr.yaml";
      const plan = await planRun(loaded, { profile: join(ROOT, `infra/profiles/${profile}.yaml`), cores: 2 });
      const text = plan.text.replaceAll(ROOT, "<repo>");
      golden(`tidb-pr-config-${profile}.txt`, text);
      for (const [name, body] of Object.entries(plan.files))
        if (!name.startsWith("plan."))
          golden(`tidb-pr-config-${profile}-${name.replace(/^tidb\//, "")}`, body);
    });
    test(`version variant on ${profile}`, async () => {
      // side-by-side clusters switch by a restart: each variant's cells in groups, over 3 blocks
      const text = readFileSync(join(ROOT, "workloads/tidb-pr.yaml"), "utf8").replace(
        /^variants:[\s\S]*$/m,
        `variants:\n  base: {}\n  head: {target: {version: v8.1.2}}\ncompare: {${profile === "playground" ? "rounds: 4" : "rounds: 6, blocks: 3"}, warmup_rounds: 1}\n`,
      );
      const loaded = parseSpec(text, "workloads/tidb-pr.yaml (version variant)");
      const plan = await planRun(loaded, { profile: join(ROOT, `infra/profiles/${profile}.yaml`), cores: 2 });
      golden(`tidb-pr-version-${profile}.txt`, plan.text.replaceAll(ROOT, "<repo>"));
      for (const [name, body] of Object.entries(plan.files))
        if (!name.startsWith("plan."))
          golden(`tidb-pr-version-${profile}-${name.replace(/^tidb\//, "")}`, body);
    });
  }

  test("a version variant on hosts puts two clusters side by side: distinct ports and directories, stop/start", async () => {
    const text = readFileSync(join(ROOT, "workloads/tidb-pr.yaml"), "utf8").replace(
      /^variants:[\s\S]*?^compare:/m,
      "variants:\n  base: {}\n  head: {target: {version: v8.1.2}}\ncompare:",
    );
    const plan = await planRun(parseSpec(text, "v.yaml"), {
      profile: join(ROOT, "infra/profiles/hosts-example.yaml"),
    });
    const tidb = (plan.target as TidbTargetPlan).tidb;
    assert.ok(tidb);
    assert.equal(tidb.switching, "stop-start");
    assert.deepEqual(
      tidb.deployments.map((d) => [d.name, d.version]),
      [
        ["tiperf-tidb-pr-1", "v8.5.0"],
        ["tiperf-tidb-pr-2", "v8.1.2"],
      ],
    );
    assert.match(plan.files["tidb/topology-head.yaml"] ?? "", /port: 5000\n\s+status_port: 11080/);
    assert.match(
      plan.files["tidb/topology-head.yaml"] ?? "",
      /deploy_dir: \/tidb-deploy\/tiperf-tidb-pr-2\/tidb-5000/,
    );
  });
  test("clusters that switch by a restart need blocks: one block is refused, naming compare.blocks", async () => {
    const text = readFileSync(join(ROOT, "workloads/tidb-pr.yaml"), "utf8").replace(
      /^variants:[\s\S]*?^compare:/m,
      "variants:\n  base: {}\n  head: {target: {version: v8.1.2}}\ncompare:",
    );
    const plan = await planRun(parseSpec(text, "v.yaml"), {
      profile: join(ROOT, "infra/profiles/hosts-example.yaml"),
    });
    assert.equal(plan.target.switching, "grouped");
    assert.match(
      plan.refusals.join("\n"),
      /v\.yaml: compare\.blocks is 1, but variants on .*hosts-example\.yaml switch by restarting servers \(stop-start\).*set compare\.blocks to 3 or more/,
    );
  });
});

describe("the spec's settings are what runs", () => {
  test("a variant's server_configs item beats the same item in the profile's roles.<role>.config (tiup's instance config would win)", async () => {
    const loaded = await loadSpec(join(ROOT, "workloads/tidb-pr.yaml"));
    // aws-sysbench-3x3 sets raftstore.apply-pool-size: 3 per TiKV instance; the spec sets 2 and 4
    const plan = await planRun(loaded, {
      profile: join(ROOT, "infra/profiles/aws-sysbench-3x3.yaml"),
      cores: 2,
    });
    const tidb = (plan.target as TidbTargetPlan).tidb;
    const value = (v: string) =>
      tidb.variants.find((x) => x.name === v)?.configKeys.find((k) => k.key === "raftstore.apply-pool-size")
        ?.value;
    assert.deepEqual([value("base"), value("head")], [2, 4]);
    assert.doesNotMatch(plan.files["tidb/topology-head.yaml"] ?? "", /apply-pool-size: 3/);
    assert.match(plan.files["tidb/topology-head.yaml"] ?? "", /raftstore\.store-pool-size: 3/);
    assert.match(plan.text, /variants take turns by: online, .*tikv raftstore\.apply-pool-size/);
  });
});

describe("how variants of one cluster take turns", () => {
  const setup = (name: string, keys: [Role, string, unknown][]): VariantSetup => ({
    name,
    deployment: 0,
    version: "v8.5.0",
    configKeys: keys.map(([role, key, value]) => ({ role, key, value })),
    sql: [],
  });
  test("items TiKV and PD change online, set by every variant: online, only the differing ones", () => {
    const cs = configSwitchOf([
      setup("base", [
        ["tikv", "raftstore.apply-pool-size", 2],
        ["tikv", "log.level", "info"],
        ["pd", "schedule.leader-schedule-limit", 4],
      ]),
      setup("head", [
        ["tikv", "raftstore.apply-pool-size", 4],
        ["tikv", "log.level", "info"],
        ["pd", "schedule.leader-schedule-limit", 8],
      ]),
    ]);
    assert.deepEqual(cs, {
      by: "online",
      keys: [
        { role: "tikv", key: "raftstore.apply-pool-size" },
        { role: "pd", key: "schedule.leader-schedule-limit" },
      ],
    });
  });
  test("an item only some variants set, or one that needs a restart: a reload of those roles, saying why", () => {
    const unset = configSwitchOf([
      setup("base", []),
      setup("head", [["tikv", "storage.block-cache.capacity", "4GB"]]),
    ]);
    assert.equal(unset.by, "reload");
    assert.deepEqual(unset.by === "reload" && unset.roles, ["tikv"]);
    assert.match(
      unset.by === "reload" ? unset.why.join() : "",
      /storage\.block-cache\.capacity is not set by base/,
    );
    const tidbItem = configSwitchOf([
      setup("base", [
        ["tidb", "performance.max-procs", 1],
        ["tikv", "raftstore.apply-pool-size", 2],
      ]),
      setup("head", [
        ["tidb", "performance.max-procs", 2],
        ["tikv", "raftstore.apply-pool-size", 2],
      ]),
    ]);
    assert.deepEqual(tidbItem.by === "reload" && tidbItem.roles, ["tidb"]);
    assert.match(
      tidbItem.by === "reload" ? tidbItem.why.join() : "",
      /tidb performance\.max-procs changes only with a restart/,
    );
  });
  test("the table of online items: TiKV's and PD's documented ones, nothing of TiDB's", () => {
    assert.ok(changesOnline("tikv", "rocksdb.defaultcf.block-cache-size"));
    assert.ok(changesOnline("tikv", "readpool.unified.max-thread-count"));
    assert.ok(changesOnline("pd", "schedule.region-schedule-limit"));
    assert.ok(!changesOnline("tikv", "raftstore.store-io-pool-size"));
    assert.ok(!changesOnline("tikv", "rocksdb.max-sub-compactions"));
    assert.ok(!changesOnline("tidb", "performance.max-procs"));
    assert.ok(!changesOnline("tikv", "raftstore.apply-pool-size.extra"));
  });

  test("SHOW CONFIG and SET CONFIG as a real tidb-server answers them (tests/fixtures/tidb)", () => {
    const rows = parseShowConfig(
      readFileSync(join(ROOT, "tests/fixtures/tidb/show-config-tidb.tsv"), "utf8"),
    );
    assert.deepEqual(
      rows.map((r) => [r.type, r.instance, r.name, r.value]),
      [
        ["tidb", "192.0.2.2:14000", "log.file.filename", ""],
        ["tidb", "192.0.2.2:14000", "log.level", "info"],
        ["tidb", "192.0.2.2:14000", "path", "/tmp/tp-sc/data"],
        ["tidb", "192.0.2.2:14000", "performance.txn-total-size-limit", "104857600"],
        ["tidb", "192.0.2.2:14000", "security.ssl-ca", ""],
      ],
    );
    // the read-back compares as people write values: 100 MiB written as 100M, or as its number
    assert.ok(sameSetting("100M", rows[3]?.value) && sameSetting(104857600, rows[3]?.value));
    // a SET CONFIG TiDB could not carry out exits 0 and says so only in SHOW WARNINGS: not empty
    const warned = readFileSync(
      join(ROOT, "tests/fixtures/tidb/set-config-tikv-unistore.tsv"),
      "utf8",
    ).trim();
    assert.match(warned, /^Warning\t1105\t/);
  });

  test("SET CONFIG and SHOW CONFIG through TiDB's SQL: literals quoted as SQL reads them, rows as the client prints them", () => {
    assert.equal(
      setConfigSql("tikv", "raftstore.apply-pool-size", 4),
      "SET CONFIG tikv `raftstore.apply-pool-size` = 4; SHOW WARNINGS",
    );
    assert.equal(
      setConfigSql("pd", "log.level", "it's"),
      "SET CONFIG pd `log.level` = 'it''s'; SHOW WARNINGS",
    );
    assert.equal(setConfigSql("tikv", "a\\b", true), "SET CONFIG tikv `a\\b` = true; SHOW WARNINGS");
    assert.equal(
      setConfigSql("tikv", "odd`key", "C:\\x"),
      "SET CONFIG tikv `odd``key` = 'C:\\\\x'; SHOW WARNINGS",
    );
    assert.equal(
      showConfigSql("tikv", ["storage.block-cache.capacity", "x'y"]),
      "SHOW CONFIG WHERE type = 'tikv' AND name IN ('storage.block-cache.capacity', 'x''y')",
    );
    assert.deepEqual(
      parseShowConfig(
        "tikv\tt-0:20160\tstorage.block-cache.capacity\t2GiB\ntikv\tt-1:20160\tlabels\ta\\tb\\\\c\n\n",
      ),
      [
        { type: "tikv", instance: "t-0:20160", name: "storage.block-cache.capacity", value: "2GiB" },
        { type: "tikv", instance: "t-1:20160", name: "labels", value: "a\tb\\c" },
      ],
    );
  });
});

const HOSTS = `name: t
provider: hosts
hosts: {pd: [10.0.1.1], tikv: [10.0.1.2], tidb: [10.0.1.5]}
roles:
  pd: {count: 1}
  tikv: {count: 1}
`;
const target = { kind: "tidb" as const, version: "v8.5.0", config: {} };
const planOf = (profileText: string) =>
  planTidb({
    variants: [{ name: "base", target }],
    profile: parseProfile(profileText, "p.yaml"),
    profileFile: "p.yaml",
    prefix: "c",
  });

describe("a private tidb-server (provider local)", () => {
  test("tiperf plan workloads/tidb-smoke.yaml (local.yaml): tiup's install, then tidb-server's start line with its flags", async () => {
    const plan = await planRun(await loadSpec(join(ROOT, "workloads/tidb-smoke.yaml")), {});
    const lines = plan.text.split("\n");
    const install = lines.findIndex((l) => l.includes("[start] tiup install tidb:v8.5.0"));
    // the program is copied afresh into the server's work directory, and runs from there
    const copy = lines.findIndex((l) =>
      l.includes(
        "[start] cp /home/runner/.tiup/components/tidb/v8.5.0/tidb-server '<workdir of tiperf-tidb-smoke>/bin/tidb-server'",
      ),
    );
    const start = lines.findIndex((l) =>
      l.includes("[start] '<workdir of tiperf-tidb-smoke>/bin/tidb-server'"),
    );
    assert.ok(install >= 0 && copy > install && start === copy + 1, plan.text);
    for (const flag of [
      "-store unistore",
      "-path '<workdir of tiperf-tidb-smoke>/data'",
      "-host 127.0.0.1",
      "-P '<port of tiperf-tidb-smoke>'",
      "-status '<status port of tiperf-tidb-smoke>'",
      "-status-host 127.0.0.1",
      "-log-file '<workdir of tiperf-tidb-smoke>/tidb.log'",
      "-config '<run>/tidb/base-tidb.toml' -config-strict",
    ])
      assert.ok(lines[start]?.includes(flag), `${flag} in ${lines[start]}`);
    assert.match(plan.text, /\[teardown\] kill -TERM '<pid of tiperf-tidb-smoke>'/);
    assert.equal(plan.files["tidb/base-tidb.toml"], '[log]\nlevel = "error"\n');
  });

  test("a counting build (target.counting) starts with its counters' socket, in the plan and its step", async () => {
    const spec = (counting: string) =>
      parseSpec(
        `name: c\ntarget: {kind: tidb, profile: ${join(ROOT, "infra/profiles/local.yaml")}, binpath: /opt/tidb-server${counting}}\ndata: {tables: 1, table_size: 100}\nworkloads:\n  - {name: ps, sysbench: oltp_point_select, threads: [2], duration: 5s}\n`,
        "c.yaml",
      );
    const plan = await planRun(spec(", counting: true"), {});
    const start = plan.text.split("\n").find((l) => l.includes("[start] TIPERF_COUNTERS_SOCKET="));
    assert.ok(
      start?.startsWith(
        "  [start] TIPERF_COUNTERS_SOCKET='<workdir of tiperf-c>/counters.sock' '<workdir of tiperf-c>/bin/tidb-server' -store unistore",
      ),
      plan.text,
    );
    assert.match(start ?? "", /a counting build: its Go statements counted/);
    const step = plan.target?.steps.find(
      (x) => x.key?.startsWith("start") && "command" in x.run && x.run.env,
    );
    assert.deepEqual(step && "env" in step.run ? step.run.env : undefined, {
      TIPERF_COUNTERS_SOCKET: "<workdir of tiperf-c>/counters.sock",
    });
    // its idle statements come in bursts: the background is read over a longer window
    assert.match(plan.text, /the idle servers' rate over 10s \(a counting build/);
    // target.source.count's words: what is allowed, and a main package inside the tree
    const source = (count: string) =>
      `name: s\ntarget: {kind: tidb, source: {path: /tmp, build: [make], count: ${count}}}\ndata: {tables: 1, table_size: 100}\nworkloads:\n  - {name: ps, sysbench: oltp_point_select, threads: [2], duration: 5s}\n`;
    assert.throws(
      () => parseSpec(source("yes-please"), "s.yaml"),
      /s\.yaml:2: target\.source\.count: must be true, false, or \{main: <directory of the main package>, packages: \[<Go package patterns>\]\}/,
    );
    assert.throws(
      () => parseSpec(source("{main: ../etc}"), "s.yaml"),
      /target\.source\.count\.main: must be a directory inside the tree, relative to source\.path/,
    );
    // a plain build starts without one
    const plain = (await planRun(spec(""), {})).text;
    assert.doesNotMatch(plain, /COUNTERS_SOCKET/);
    assert.match(plain, /the idle servers' rate over 2s after each start/);
    // and judging its statements is refused at plan time, naming both keys
    const judged = (counting: string) =>
      parseSpec(
        `name: c
target: {kind: tidb, profile: ${join(ROOT, "infra/profiles/local.yaml")}, binpath: /opt/tidb-server${counting}}
data: {tables: 1, table_size: 100}
workloads:
  - {name: ps, sysbench: oltp_point_select, threads: [2], duration: 5s}
metrics:
  go_stmts_per_op: {tolerance: 1%}
`,
        "c.yaml",
      );
    const refused = (await planRun(judged(""), {})).refusals.join("\n");
    assert.match(
      refused,
      /metrics\.go_stmts_per_op: it counts a counting build's statements: target\.source\.count, or target\.counting .*; no go_stmts_per_op from the servers' own counters; it gives cpu_ms_per_op/,
    );
    assert.deepEqual((await planRun(judged(", counting: true"), {})).refusals, []);
  });

  test("a local profile refuses what only a cluster has; binpath and resources are refused where they cannot work", async () => {
    const local = (extra: string) => `name: l\nprovider: local\n${extra}`;
    assert.throws(
      () => parseProfile(local("roles: {tikv: {count: 1}}\n"), "l.yaml"),
      /roles\.tikv: provider local runs tidb-server alone on its embedded store \(unistore\)/,
    );
    assert.throws(
      () => parseProfile(local("haproxy: true\n"), "l.yaml"),
      /haproxy: a local profile has one tidb-server/,
    );
    assert.throws(
      () => parseProfile(local("roles: {tidb: {count: 2}}\n"), "l.yaml"),
      /roles\.tidb\.count: provider local runs one tidb-server per variant/,
    );
    const text = readFileSync(join(ROOT, "workloads/tidb-smoke.yaml"), "utf8");
    await assert.rejects(
      planRun(
        parseSpec(
          text.replace("version: v8.5.0", "version: v8.5.0\n  binpath: {tikv: /opt/tikv-server}"),
          "b.yaml",
        ),
        {},
      ),
      /b\.yaml: target\.binpath\.tikv: .*local\.yaml \(provider local\) runs one tidb-server on its embedded store, with no TiKV or PD/,
    );
    // on a cluster, builds are packed and patched in per role before the first start
    const patched = await planRun(
      parseSpec(
        text.replace(
          "version: v8.5.0",
          "version: v8.5.0\n  binpath: {tidb: /opt/my-tidb, tikv: /opt/tikv-server}",
        ),
        "b.yaml",
      ),
      { profile: join(ROOT, "infra/profiles/hosts-example.yaml") },
    );
    const lines = patched.text.split("\n");
    const idx = (re: RegExp) => lines.findIndex((l) => re.test(l));
    const deploy = idx(/\[start\] tiup cluster deploy /);
    const pack = idx(
      /\[start\] tar --create --gzip --dereference --file '<run>\/tidb\/patch-tiperf-tidb-smoke-tidb\.tar\.gz' --transform 's\|\.\*\|tidb-server\|' --directory \/opt my-tidb/,
    );
    const patch = idx(
      /\[start\] tiup cluster patch tiperf-tidb-smoke '<run>\/tidb\/patch-tiperf-tidb-smoke-tidb\.tar\.gz' -R tidb --offline --yes/,
    );
    const patchKv = idx(
      /tiup cluster patch tiperf-tidb-smoke .*patch-tiperf-tidb-smoke-tikv\.tar\.gz' -R tikv --offline --yes/,
    );
    const start = idx(/\[start\] tiup cluster start /);
    assert.ok(deploy >= 0 && deploy < pack && pack < patch && patch < start && patchKv < start, patched.text);
    await assert.rejects(
      planRun(
        parseSpec(
          text.replace("version: v8.5.0", "version: v8.5.0\n  resources: {cpu_quota: 50%}"),
          "r.yaml",
        ),
        {
          profile: join(ROOT, "infra/profiles/playground.yaml"),
        },
      ),
      /r\.yaml: target\.resources limits a private tidb-server \(provider local\)/,
    );
    await assert.rejects(
      planRun(parseSpec(text.replace("version: v8.5.0", "binpath: /opt/my/tidb-server"), "p.yaml"), {
        profile: join(ROOT, "infra/profiles/playground.yaml"),
      }),
      /target\.version: .*playground\.yaml \(provider playground\) deploys PD and TiKV of a release/,
    );
    const withBuild = await planRun(
      parseSpec(text.replace("version: v8.5.0", "version: v8.5.0\n  binpath: /opt/my/tidb-server"), "p.yaml"),
      { profile: join(ROOT, "infra/profiles/playground.yaml") },
    );
    assert.match(withBuild.text, /tiup playground .* --db\.binpath \/opt\/my\/tidb-server/);
  });
});

describe("profiles and topologies are refused before anything runs", () => {
  test("compare.blocks on a playground is refused when the run is planned: it cannot restart its servers", async () => {
    const text = readFileSync(join(ROOT, "workloads/tidb-pr.yaml"), "utf8").replace(
      /^compare:\n {2}rounds: 4\n/m,
      "compare:\n  rounds: 6\n  blocks: 3\n",
    );
    assert.match(text, /blocks: 3/);
    const loaded = parseSpec(text, "blocks.yaml");
    await assert.rejects(
      planRun(loaded, { profile: join(ROOT, "infra/profiles/playground.yaml") }),
      (e: Error) => {
        assert.ok(e instanceof InputError);
        assert.match(
          e.message,
          /^blocks\.yaml: compare\.blocks is 3, but profile .*playground\.yaml is a playground/,
        );
        assert.match(e.message, /use compare\.blocks: 1, or a profile with provider hosts or aws/);
        return true;
      },
    );
    // the same spec on hosts plans (a cluster restarts with `tiup cluster restart`)
    const plan = await planRun(loaded, { profile: join(ROOT, "infra/profiles/hosts-example.yaml") });
    assert.equal((plan.target as TidbTargetPlan).tidb.deployments[0]?.form, "cluster");
  });

  test("a config for a role the variant runs none of (TiFlash at count 0) is refused, not ignored", () => {
    const withTiflash = (count: number) => ({
      name: "head",
      target: {
        ...target,
        server_configs: { tiflash: { "profiles.default.max_threads": 8 } },
        roles: { tiflash: { count } },
      },
    });
    const plan = (v: ReturnType<typeof withTiflash>) =>
      planTidb({
        variants: [{ name: "base", target }, v],
        profile: parseProfile(`${HOSTS}  tidb: {count: 1}\n`, "p.yaml"),
        profileFile: "p.yaml",
        prefix: "c",
      });
    assert.throws(
      () => plan(withTiflash(0)),
      /p\.yaml: variant head configures tiflash \(profiles\.default\.max_threads: target\.server_configs\.tiflash or roles\.tiflash\.config\) but runs no tiflash \(roles\.tiflash\.count is 0\)/,
    );
  });

  test("two instances on one host with the same port: tiup's words, both sides named", () => {
    assert.throws(
      () =>
        planOf(
          `${HOSTS}  tidb:\n    instances: [{host: 10.0.1.5, port: 4000}, {host: 10.0.1.5, port: 4000, status_port: 10081}]\n`,
        ),
      (e: Error) => {
        assert.ok(e instanceof InputError);
        assert.equal(
          e.message.split("\n")[0],
          "p.yaml: roles.tidb.instances[1]: port conflict for '4000' between 'tidb_servers:10.0.1.5.port' (roles.tidb.instances[0]) and 'tidb_servers:10.0.1.5.port' (roles.tidb.instances[1]); give one of them another port",
        );
        return true;
      },
    );
  });

  test("several instances on one host get distinct ports and directories automatically", () => {
    const plan = planOf(`${HOSTS}  tidb: {count: 2}\n`);
    const d = plan.deployments[0];
    assert.ok(d && isCluster(d));
    const tidb = d.cluster.instances.filter((i) => i.role === "tidb");
    assert.deepEqual(
      tidb.map((i) => [i.host, i.ports.port, i.ports.status_port, i.deploy_dir]),
      [
        ["10.0.1.5", 4000, 10080, "/tidb-deploy/c/tidb-4000"],
        ["10.0.1.5", 4001, 10081, "/tidb-deploy/c/tidb-4001"],
      ],
    );
  });

  test("a directory shared by two instances, a port out of range, a PD on the exporter's port", () => {
    assert.throws(
      () =>
        planOf(
          `${HOSTS.replace("pd: {count: 1}", "pd: {instances: [{host: 10.0.1.1, client_port: 9100}]}").replace("tikv: {count: 1}", "tikv: {instances: [{host: 10.0.1.2, data_dir: /d}, {host: 10.0.1.2, data_dir: /d}]}")}  tidb: {instances: [{host: 10.0.1.5, port: 70000}]}\n`,
        ),
      (e: Error) => {
        const lines = e.message.split("\n");
        assert.ok(
          lines.includes(
            "p.yaml: roles.tidb.instances[0]: `tidb_servers` of port=70000 is invalid, port should be in the range [1, 65535]",
          ),
          e.message,
        );
        assert.ok(
          lines.some((l) =>
            /directory conflict for '\/d' between 'tikv_servers:10\.0\.1\.2\.data_dir' \(roles\.tikv\.instances\[0\]\) and 'tikv_servers:10\.0\.1\.2\.data_dir' \(roles\.tikv\.instances\[1\]\)/.test(
              l,
            ),
          ),
          e.message,
        );
        assert.ok(
          lines.some((l) =>
            /port conflict for '9100' between 'pd_servers:10\.0\.1\.1\.client_port' .* and 'monitored:10\.0\.1\.1\.node_exporter_port'/.test(
              l,
            ),
          ),
          e.message,
        );
        return true;
      },
    );
  });

  test("one os/arch per host", () => {
    assert.throws(
      () =>
        planOf(
          `${HOSTS.replace("tikv: [10.0.1.2]", "tikv: [10.0.1.5]").replace("tikv: {count: 1}", "tikv: {count: 1, arch: arm64}")}  tidb: {count: 1}\n`,
        ),
      /platform mismatch for '10\.0\.1\.5' between 'tikv_servers:linux\/arm64' \(roles\.tikv \(instance 1 of 1\)\) and 'tidb_servers:linux\/amd64'/,
    );
  });

  test("an unknown key names the file, line and the keys allowed", () => {
    assert.throws(
      () => parseProfile(`${HOSTS}  tidb: {count: 1, replicas: 3}\n`, "p.yaml"),
      (e: Error) => {
        assert.equal(
          e.message,
          "p.yaml:7: roles.tidb.replicas: unknown key replicas (allowed: count, numa_node, resource_control, config, arch, os, instances, instance_type)",
        );
        return true;
      },
    );
  });

  test("a bad version string is refused in the spec, naming the key and what tiup takes", () => {
    const spec = readFileSync(join(ROOT, "workloads/tidb-pr.yaml"), "utf8").replace(
      "version: v8.5.0",
      "version: 8.5",
    );
    assert.throws(
      () => parseSpec(spec, "tidb-pr.yaml"),
      (e: Error) => {
        const line = spec.split("\n").findIndex((l) => l.includes("version: 8.5")) + 1;
        assert.equal(
          e.message,
          `tidb-pr.yaml:${line}: target.version: must be a TiDB version as tiup names it: v<major>.<minor>.<patch> (like v8.5.0) or nightly`,
        );
        return true;
      },
    );
  });

  test("keys of the other kind of target are refused, naming where they belong", () => {
    assert.throws(
      () =>
        parseSpec(
          "name: x\ntarget: {kind: mariadb, version: v8.5.0}\ndata: {tables: 1, table_size: 10}\nworkloads: [{name: a, sysbench: oltp_point_select, threads: [1], duration: 1s}]\n",
          "x.yaml",
        ),
      /x\.yaml:2: target\.version: version is for kind tidb, not mariadb \(kind mariadb takes kind, config, resources, profile\)/,
    );
    assert.throws(
      () =>
        parseSpec(
          "name: x\ntarget: {kind: tidb, version: v8.5.0, config: {a: 1}}\ndata: {tables: 1, table_size: 10}\nworkloads: [{name: a, sysbench: oltp_point_select, threads: [1], duration: 1s}]\n",
          "x.yaml",
        ),
      /target\.config: config is for kind mariadb, postgres, not tidb \(kind tidb takes kind, profile, version, binpath, counting, source, resources, server_configs, roles, sql, split\)/,
    );
  });

  test("a playground profile refuses what tiup playground cannot do", () => {
    assert.throws(
      () =>
        parseProfile(
          "name: p\nprovider: playground\nroles:\n  pd: {count: 1}\n  tikv: {count: 1}\n  tidb: {count: 1, numa_node: '0'}\n",
          "p.yaml",
        ),
      /p\.yaml:6: roles\.tidb\.numa_node: tiup playground has no numa_node option; use a profile with provider hosts/,
    );
  });

  test("variants sharing one cluster must set the same SQL variables", () => {
    const profile = parseProfile(`${HOSTS}  tidb: {count: 1}\n`, "p.yaml");
    assert.throws(
      () =>
        planTidb({
          variants: [
            { name: "base", target: { ...target, sql: ["SET GLOBAL tidb_enable_async_commit = ON"] } },
            { name: "head", target: { ...target, sql: [] } },
          ],
          profile,
          profileFile: "p.yaml",
          prefix: "c",
        }),
      /variants base and head share cluster c but their target\.sql set different variables \(tidb_enable_async_commit vs none\)/,
    );
  });
});

describe("configs", () => {
  test("dotted keys become TOML tables, as tiup expands them", () => {
    assert.deepEqual(expandDotted({ "log.level": "error", "storage.block-cache.capacity": "16G" }), {
      log: { level: "error" },
      storage: { "block-cache": { capacity: "16G" } },
    });
    assert.equal(
      toToml({
        "log.level": "error",
        "raftstore.apply-pool-size": 4,
        "storage.block-cache.capacity": "16G",
        x: true,
      }),
      'x = true\n\n[log]\nlevel = "error"\n\n[raftstore]\napply-pool-size = 4\n\n[storage.block-cache]\ncapacity = "16G"\n',
    );
  });
});

const AWS = `name: a
provider: aws
aws: {region: us-west-2, load: {instance_type: c6i.8xlarge}, budget: 10}
roles:
  pd: {count: 1, instance_type: m6i.xlarge}
  tikv: {count: 3, instance_type: m6id.4xlarge}
  tidb: {count: 1, instance_type: c6i.4xlarge}
`;

describe("provider aws: what a run would create and cost, before anything is created", () => {
  test("the estimate: every machine's on-demand $/h and the volumes, times the run's hours", () => {
    const ask = askOf(parseProfile(AWS, "a.yaml"));
    const e = estimateCost(AWS_CLOUD, ask, { setup: 0.5, matrix: 1.5 });
    // 0.192 + 3 × 0.9492 + 0.68 + 1.36 per hour, and 6 root volumes of 100 GB gp3 at $0.08/GB-month
    const perHour = 0.192 + 3 * 0.9492 + 0.68 + 1.36 + (600 * 0.08) / 730;
    assert.ok(Math.abs(e.perHour - perHour) < 1e-9, `${e.perHour} vs ${perHour}`);
    assert.ok(Math.abs(e.dollars - 2 * perHour) < 1e-9);
    assert.equal(e.priceTable.as_of, "2026-11-22");
  });

  test("over budget: refused, naming the budget, the estimate and that nothing was created", () => {
    const ask = askOf(parseProfile(AWS, "a.yaml"));
    assert.throws(
      () => checkBudget(ask, estimateCost(AWS_CLOUD, ask, { setup: 0.5, matrix: 1.5 }), "a.yaml", "aws"),
      (e: Error) =>
        e instanceof InputError &&
        /^a\.yaml: aws\.budget is \$10\.00 but this run is estimated at \$10\.29 \(2\.00 h × \$5\.15\/h\); nothing was created/.test(
          e.message,
        ),
    );
    assert.doesNotThrow(() =>
      checkBudget(ask, estimateCost(AWS_CLOUD, ask, { setup: 0.5, matrix: 0.5 }), "a.yaml", "aws"),
    );
  });

  test("an instance type missing from the price table is named with the key that uses it", () => {
    const ask = askOf(parseProfile(AWS.replace("c6i.8xlarge", "z9.huge"), "a.yaml"));
    assert.throws(
      () => estimateCost(AWS_CLOUD, ask, { setup: 0.5, matrix: 1 }),
      /aws\.load\.instance_type: instance type z9\.huge has no price in infra\/prices\/aws\.ts for us-west-2/,
    );
  });

  for (const [text, message] of [
    [
      AWS.replace("{count: 1, instance_type: m6i.xlarge}", "{count: 1}"),
      /roles\.pd\.instance_type: roles\.pd\.count is 1: name the instance type/,
    ],
    [AWS.replace("provider: aws", "provider: hosts"), /aws: belongs to provider aws/],
    [`${AWS}hosts: {pd: [10.0.0.1]}\n`, /hosts: provider aws creates its hosts; remove hosts/],
    [
      AWS.replace("us-west-2,", "us-west-2, ttl: 3 hours,"),
      /aws\.ttl: must be a duration like 90m, 3h or 2d/,
    ],
    [
      AWS.replace("us-west-2,", "us-west-2, zone: eu-west-1a,"),
      /aws\.zone: must be a zone of us-west-2, like us-west-2a/,
    ],
    [AWS.replace("budget: 10", "budget: -1"), /aws\.budget: must be a positive number of US dollars/],
  ] as const)
    test(`a bad aws profile is refused: ${message.source.slice(0, 40)}`, () => {
      assert.throws(() => parseProfile(text, "a.yaml"), message);
    });
});

describe("hosts behind a bastion (ssh.proxy), and the machines of an ephemeral cluster", () => {
  const BASTION = `name: b
provider: hosts
hosts: {pd: [10.0.1.1], tikv: [10.0.1.2], tidb: [10.0.1.5], load: [10.0.1.9]}
ssh: {user: ops, identity_file: /keys/inner, proxy: {host: 203.0.113.7, port: 2222, identity_file: /keys/outer}}
roles:
  pd: {count: 1}
  tikv: {count: 1}
  tidb: {count: 1}
`;
  test("every tiup cluster command that connects goes through the bastion; tiperf's checks run on the load host", () => {
    const plan = planOf(BASTION);
    const proxy = [
      "--ssh-proxy-host",
      "203.0.113.7",
      "--ssh-proxy-user",
      "ops",
      "--ssh-proxy-port",
      "2222",
      "--ssh-proxy-identity-file",
      "/keys/outer",
    ];
    const argv = (c: PlanStep) => ("command" in c.run ? c.run.command : []);
    const tiup = plan.steps.filter((c) => argv(c)[0] === "tiup");
    assert.ok(tiup.length > 0);
    for (const c of tiup) {
      const at = argv(c).indexOf("--ssh-proxy-host");
      // edit-config only rewrites tiup's local record: no SSH, no proxy flags
      if (argv(c)[2] === "edit-config") assert.equal(at, -1);
      else assert.deepEqual(argv(c).slice(at, at + proxy.length), proxy, argv(c).join(" "));
    }
    const checks = plan.steps.filter((c) => ["record", "sql"].includes(c.phase));
    assert.ok(checks.length > 0);
    for (const c of checks) assert.equal(c.where, "load host", JSON.stringify(c.run));
    // without a bastion nothing changes
    const plain = planOf(BASTION.replace(/, proxy: \{[^}]*\}/, ""));
    assert.ok(plain.steps.every((c) => !argv(c).includes("--ssh-proxy-host")));
    assert.ok(plain.steps.filter((c) => c.phase === "record").every((c) => c.where === "runner"));
  });

  test("a bastion without a load host is refused: the checks have nowhere to run", () => {
    assert.throws(
      () => parseProfile(BASTION.replace(", load: [10.0.1.9]", ""), "b.yaml"),
      /hosts\.load: ssh\.proxy needs a load host \(hosts\.load\)/,
    );
  });

  test("the stack's name: one per profile and pull request, branch or local run", () => {
    assert.equal(
      stackName({ name: "aws-smoke" }, undefined, { GITHUB_REF: "refs/pull/42/merge" }),
      "tiperf-aws-smoke-pr42",
    );
    assert.equal(
      stackName({ name: "aws-smoke" }, undefined, {
        GITHUB_REF: "refs/heads/main",
        GITHUB_REF_NAME: "Release/v8.5",
      }),
      "tiperf-aws-smoke-release-v8-5",
    );
    assert.equal(stackName({ name: "aws-smoke" }, undefined, {}), "tiperf-aws-smoke-local");
    // shards of one comparison on several runners: a cluster each, never one stack twice
    const shards = [1, 2, 3].map((k) =>
      stackName({ name: "aws-smoke" }, k, { GITHUB_REF: "refs/pull/42/merge" }),
    );
    assert.deepEqual(shards, [
      "tiperf-aws-smoke-pr42-shard1",
      "tiperf-aws-smoke-pr42-shard2",
      "tiperf-aws-smoke-pr42-shard3",
    ]);
  });

  test("the program's machines become hosts per role; the load host's public address is the bastion", () => {
    const machines = machinesFromOutputs({
      machines: [
        { name: "pd-1", role: "pd", privateIp: "10.42.1.10", publicIp: "54.1.1.1", id: "i-1" },
        { name: "tikv-1", role: "tikv", privateIp: "10.42.1.11", publicIp: "54.1.1.2", id: "i-2" },
        { name: "tidb-1", role: "tidb", privateIp: "10.42.1.12", publicIp: "54.1.1.3", id: "i-3" },
        { name: "load-1", role: "load", privateIp: "10.42.1.13", publicIp: "54.1.1.4", id: "i-4" },
      ],
    });
    const hosts = hostsOf(machines, "/run/cloud/id_rsa");
    assert.deepEqual(hosts, {
      hosts: { pd: ["10.42.1.10"], tikv: ["10.42.1.11"], tidb: ["10.42.1.12"], load: ["10.42.1.13"] },
      bastion: "54.1.1.4",
      identityFile: "/run/cloud/id_rsa",
    });
    const profile = withHosts(parseProfile(AWS, "a.yaml"), hosts);
    assert.deepEqual(profile.ssh, {
      user: "ubuntu",
      port: 22,
      identity_file: "/run/cloud/id_rsa",
      proxy: { host: "54.1.1.4", user: "ubuntu", port: 22, identity_file: "/run/cloud/id_rsa" },
    });
    assert.throws(
      () => machinesFromOutputs({ machines: [{ name: "pd-1", role: "pd" }] }),
      /output "machines" is not a list/,
    );
    assert.throws(() => hostsOf(machines.slice(0, 3), "k"), /no load host/);
  });
});

describe("split read back", () => {
  const real = (f: string) => readFileSync(join(ROOT, "tests/fixtures/tidb", f), "utf8");
  test("a real TiDB's SHOW TABLE … REGIONS: one region unsplit, four row regions after a split into 4", () => {
    assert.equal(rowRegions(real("show-table-regions-unsplit.tsv")), 1);
    assert.equal(rowRegions(real("show-table-regions-split4.tsv")), 4);
    assert.equal(rowRegions(""), 0);
  });
  test("every variant reads its regions back when any is split; none when none is", async () => {
    const split = await planRun(await loadSpec(join(ROOT, "workloads/tidb-pr.yaml")), {
      profile: "infra/profiles/playground.yaml",
    });
    const keys = split.target.steps.map((s) => s.key ?? "");
    assert.deepEqual(
      keys.filter((k) => k.startsWith("regions:")),
      ["regions:base", "regions:head"],
    );
    const plain = await planRun(await loadSpec(join(ROOT, "workloads/tidb-source-pr.yaml")), {});
    assert.ok(!plain.target.steps.some((s) => s.key?.startsWith("regions:")));
  });
});

describe("config keys TiDB no longer honours", () => {
  test("performance.run-auto-analyze on a private tidb-server: warned, with the system variable to use instead", async () => {
    const spec = (target: string) =>
      parseSpec(
        `name: a\ntarget: {kind: tidb, profile: ${join(ROOT, "infra/profiles/local.yaml")}, binpath: /opt/tidb-server, ${target}}\ndata: {tables: 1, table_size: 100}\nworkloads:\n  - {name: ps, sysbench: oltp_point_select, threads: [2], duration: 5s}\n`,
        "a.yaml",
      );
    const ignored = await planRun(spec("server_configs: {tidb: {performance.run-auto-analyze: false}}"), {});
    assert.match(
      ignored.warnings.join("\n"),
      /tidb config performance\.run-auto-analyze is deprecated since v6\.1\.0 .*use the system variable tidb_enable_auto_analyze/,
    );
    const sysvar = await planRun(spec('sql: ["SET GLOBAL tidb_enable_auto_analyze = OFF"]'), {});
    assert.doesNotMatch(sysvar.warnings.join("\n"), /deprecated/);
    assert.match(sysvar.text, /SELECT @@GLOBAL\.tidb_enable_auto_analyze .*must read OFF/);
  });
});
