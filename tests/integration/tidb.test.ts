// test-lane: parallel (nothing asserted here rests on measured speed: scripts/run-tests.mjs), uses tiup-cluster-ports (a stand-in tiup cluster on 127.0.0.1 at TiDB's default ports)
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { basename, delimiter, join } from "node:path";
import { describe, test } from "node:test";
import { freePort } from "../../action/src/proc/port.ts";
import { readResult } from "../../action/src/result/store.ts";
import type { PlanStep } from "../../action/src/targets/types.ts";
import { ROOT } from "../helpers/paths.ts";
import { keyedAsPlanned, planOfRun, samePlanned } from "../helpers/plan.ts";
import { cli, tempDir } from "../helpers/real.ts";
import { startSshd } from "../helpers/sshd.ts";

/**
 * TiDB through tiup, where neither exists: a test-only stand-in `tiup` (tests/helpers/stand-ins)
 * accepts exactly the playground flags tiperf passes, prints playground's real lines and stands a
 * private MariaDB in for TiDB on the port it announces, with the status APIs answering from the
 * TOML configs it got. Everything else — plan, configs, variants, drivers, compare, report — is
 * tiperf's real pipeline.
 */
const STAND_INS = join(ROOT, "tests/helpers/stand-ins");
const PATH = `${STAND_INS}${delimiter}${process.env.PATH ?? ""}`;

function tidbSpec(dir: string, extra = ""): string {
  const file = join(dir, "tidb.yaml");
  writeFileSync(
    file,
    `name: tidb-itest
target:
  kind: tidb
  profile: ${join(ROOT, "infra/profiles/playground.yaml")}
  version: v8.5.0
  server_configs:
    tikv: {raftstore.apply-pool-size: 2}
  sql: [SET GLOBAL max_connections = 300]
data: {tables: 1, table_size: 1000}
workloads:
  - name: point_select
    sysbench: oltp_point_select
    threads: [2]
    duration: 2s
    warmup: 1s
${extra}`,
  );
  return file;
}

/** The one run directory a test's `--out <dir>/results` holds. */
const runDirOf = (dir: string) => join(dir, "results", readdirSync(join(dir, "results"))[0] as string);

/**
 * What the run carried out (<run>/executed.json) is what `tiperf plan` shows for the same spec: every
 * executed step is the plan's step of that key (commands, SQL, URLs; the run's own directory and
 * name prefix put back as the plan writes them), in the plan's order, and no step of the target's
 * setup and teardown was left out.
 */
async function assertRanAsPlanned(spec: string, runDir: string, env: Record<string, string>) {
  // the plan the run wrote into its directory is the one `tiperf plan --run-id` prints
  const planned = JSON.parse(await planOfRun(spec, runDir, env)) as {
    format: string;
    prefix: string;
    steps: Record<"setup" | "per_cell" | "end", PlanStep[]> & { per_group?: PlanStep[] };
  };
  assert.equal(planned.format, "tiperf.plan/1");
  const runPrefix = `tiperf-${basename(runDir).split("-").pop()}`;
  const asPlanned = (text: string) =>
    text.replaceAll(join(runDir, "tidb"), "<run>/tidb").replaceAll(runPrefix, planned.prefix);
  const executed = (JSON.parse(readFileSync(join(runDir, "executed.json"), "utf8")) as PlanStep[]).map(
    (step) => JSON.parse(asPlanned(JSON.stringify(step))) as PlanStep,
  );
  const all = [
    ...planned.steps.setup,
    ...(planned.steps.per_group ?? []),
    ...planned.steps.per_cell,
    ...planned.steps.end,
  ];
  const byKey = new Map(all.filter((st) => st.key).map((st) => [st.key, st]));
  assert.ok(executed.length > 0, "the run recorded the steps it carried out");
  // the load tools' steps and tiperf's database statements (bench/load-steps.ts): the plan shows
  // each once where variants' words agree, a port picked at start as <port>
  const loadTool = (key: string | undefined) =>
    /^(database|tables|data|cleanup|drop|warmup|run):/.test(key ?? "");
  for (const step of executed) {
    if (step.key === undefined || loadTool(step.key)) {
      // steps of the pipeline's own (CREATE DATABASE) and the load tools' (prepare, each cell):
      // the plan shows them with the same words, a port picked at start as <port>
      assert.ok(
        all.some((st) => samePlanned(st.run, step.run)),
        `executed ${JSON.stringify(step.run)} is not in the plan`,
      );
      continue;
    }
    const want = byKey.get(step.key);
    assert.ok(want, `executed step ${step.key} is not in the plan`);
    assert.deepEqual(step.run, want.run, `step ${step.key}`);
  }
  // every load-tool step the plan shows for a cell ran as planned
  const cellTools = planned.steps.per_cell.filter((st) => loadTool(st.key) && "command" in st.run);
  assert.ok(cellTools.length > 0, "the plan shows the cells' load-tool commands");
  for (const st of cellTools)
    assert.ok(
      executed.some((x) => x.phase === "cell" && samePlanned(st.run, x.run)),
      `the planned cell command ${JSON.stringify(st.run)} did not run`,
    );
  // by key, both ways: every step it carried out carries a key plan.json has, every planned
  // deployment, record, after-load and teardown step ran
  keyedAsPlanned(runDir, ["start", "record", "after-load", "cleanup", "teardown"]);
  // setup steps run once each, in the plan's order; teardown steps all ran
  const setupKeys = planned.steps.setup.filter((st) => st.key && !loadTool(st.key)).map((st) => st.key);
  const ranSetup = [...new Set(executed.map((st) => st.key))].filter((k) => setupKeys.includes(k));
  assert.deepEqual(ranSetup, setupKeys, "the setup steps, in the plan's order");
  for (const st of planned.steps.end.filter((x) => x.key))
    assert.ok(
      executed.some((x) => x.key === st.key),
      `teardown step ${st.key} did not run`,
    );
}

const standInProcesses = (home: string) => {
  try {
    return execFileSync("pgrep", ["-af", home], { encoding: "utf8" })
      .split("\n")
      .filter((l) => l && !l.includes("pgrep"));
  } catch {
    return [];
  }
};

describe("TiDB targets through a stand-in tiup", () => {
  test("a config variant on the playground profile: verdict, and a PR comment naming the TiDB version and the config diff", async () => {
    const dir = tempDir();
    const home = tempDir("tiperf-tiup-home-");
    const spec = tidbSpec(
      dir,
      `variants:
  base: {}
  head: {target: {server_configs: {tikv: {raftstore.apply-pool-size: 4}}}}
compare: {rounds: 2, warmup_rounds: 0, confirm: 0}
`,
    );
    const run = cli(["compare", "--spec", spec, "--out", join(dir, "results")], { PATH, TIUP_HOME: home });
    const { code } = await run.done;
    assert.ok(code === 0 || code === 1, `exit ${code}:\n${run.stderr()}`);
    assert.match(run.stderr(), /target: TiDB v8\.5\.0 \(playground tiperf-\w+-base\) for variant base/);
    const runDir = runDirOf(dir);
    const comment = readFileSync(join(runDir, "verdict.md"), "utf8");
    assert.match(comment, /tidb-playground v8\.5\.0/);
    assert.match(comment, /tikv\.raftstore\.apply-pool-size: 2 → 4/);
    const result = await readResult(join(runDir, "result.json"));
    assert.equal(result.status, "complete");
    assert.deepEqual(
      result.targets.map((t) => [t.variant, t.kind, t.version, t.config["tikv.raftstore.apply-pool-size"]]),
      [
        ["base", "tidb-playground", "v8.5.0", 2],
        ["head", "tidb-playground", "v8.5.0", 4],
      ],
    );
    // what actually ran, read back from the components
    assert.equal(result.targets[1]?.effective_config["tikv.raftstore.apply-pool-size"], "4");
    assert.match(String(result.targets[0]?.details?.tidb_version), /Release Version: v8\.5\.0/);
    assert.equal(result.cells.filter((c) => c.status === "ok").length, 4);
    // the generated configs are kept with the run
    assert.match(
      readFileSync(join(runDir, "tidb/head-tikv.toml"), "utf8"),
      /\[raftstore\]\napply-pool-size = 4/,
    );
    // and nothing is left: playgrounds stopped, their data removed
    assert.deepEqual(standInProcesses(home), []);
    assert.deepEqual(readdirSync(join(home, "data")), []);
    await assertRanAsPlanned(spec, runDir, { PATH, TIUP_HOME: home });
  });

  test("when port 4000 is busy the playground takes another; tiperf reads the real one from its output", async () => {
    const dir = tempDir();
    const home = tempDir("tiperf-tiup-home-");
    const blocker: Server = createServer();
    await new Promise<void>((resolve, reject) => {
      blocker.once("error", reject);
      blocker.listen(4000, "127.0.0.1", resolve);
    });
    try {
      const run = cli(["run", "--spec", tidbSpec(dir), "--out", join(dir, "results")], {
        PATH,
        TIUP_HOME: home,
      });
      const { code } = await run.done;
      assert.equal(code, 0, run.stderr());
      const m = /port 4000 was busy; TiDB listens on (\d+)/.exec(run.stderr());
      assert.ok(m, run.stderr());
      const runDir = runDirOf(dir);
      const raws = readdirSync(join(runDir, "raw"));
      const cell = raws.find((f) => f.includes("point_select")) as string;
      assert.ok(cell, raws.join(", "));
      assert.match(readFileSync(join(runDir, "raw", cell), "utf8"), new RegExp(`--mysql-port=${m[1]}`));
    } finally {
      blocker.close();
    }
  });

  test("a config that did not take effect fails the run before any cell, naming the key and both values", async () => {
    const dir = tempDir();
    const home = tempDir("tiperf-tiup-home-");
    writeFileSync(join(home, "stand-in.json"), JSON.stringify({ refuse: "tikv.raftstore.apply-pool-size" }));
    const run = cli(["run", "--spec", tidbSpec(dir), "--out", join(dir, "results")], {
      PATH,
      TIUP_HOME: home,
    });
    const { code } = await run.done;
    assert.equal(code, 3, run.stderr());
    assert.match(
      run.stderr(),
      /configs did not take effect:\n\s+tikv 127\.0\.0\.1:20180: raftstore\.apply-pool-size is "stand-in refused", the spec sets 2/,
    );
    assert.deepEqual(standInProcesses(home), []);
    assert.ok(!existsSync(join(home, "data")) || readdirSync(join(home, "data")).length === 0);
  });

  test("tiup missing: refused before anything starts, saying what to install", async () => {
    const dir = tempDir();
    const path = (process.env.PATH ?? "")
      .split(delimiter)
      .filter((d) => !existsSync(join(d, "tiup")))
      .join(delimiter);
    const run = cli(["run", "--spec", tidbSpec(dir), "--out", join(dir, "results")], { PATH: path });
    const { code } = await run.done;
    assert.equal(code, 3, run.stderr());
    assert.match(run.stderr(), /tiup \(target\.kind tidb\): install tiup/);
  });

  describe("a tiup cluster on a hosts profile (every host 127.0.0.1)", () => {
    const clusterSpec = (dir: string, extra: string) => {
      const profile = join(dir, "local.yaml");
      writeFileSync(
        profile,
        `name: local
provider: hosts
hosts: {pd: [127.0.0.1], tikv: [127.0.0.1], tidb: [127.0.0.1]}
ssh: {user: root}
roles:
  pd: {count: 1}
  tikv: {count: 1}
  tidb: {count: 1}
`,
      );
      return writeSpecWith(dir, profile, extra);
    };
    const writeSpecWith = (dir: string, profile: string, extra: string) => {
      const file = tidbSpec(dir, extra);
      writeFileSync(file, readFileSync(file, "utf8").replace(/profile: .*/, `profile: ${profile}`));
      return file;
    };
    const VARIANTS = `variants:
  base: {}
  head: {target: {server_configs: {tikv: {raftstore.apply-pool-size: 4}}}}
compare: {rounds: 2, warmup_rounds: 0, confirm: 0}
`;
    const RELOAD = (blocks: number) => `variants:
  base: {}
  head: {target: {server_configs: {tikv: {rocksdb.max-sub-compactions: 3}}}}
compare: {rounds: 6, blocks: ${blocks}, warmup_rounds: 0, confirm: 0}
`;

    const clusterGone = (home: string) => {
      assert.deepEqual(standInProcesses(home), []);
      const clusters = join(home, "storage/cluster/clusters");
      assert.ok(!existsSync(clusters) || readdirSync(clusters).length === 0, "a cluster was left deployed");
    };

    test("a config variant that changes online: one cluster, switched as SET CONFIG does before each cell, no restart, then destroyed", async () => {
      const dir = tempDir();
      const home = tempDir("tiperf-tiup-home-");
      const spec = clusterSpec(dir, VARIANTS);
      const run = cli(["compare", "--spec", spec, "--out", join(dir, "results")], {
        PATH,
        TIUP_HOME: home,
      });
      const { code } = await run.done;
      assert.ok(code === 0 || code === 1, `exit ${code}:\n${run.stderr()}`);
      assert.match(run.stderr(), /target: TiDB v8\.5\.0 \(cluster tiperf-\w+\) for variant head/);
      assert.match(run.stderr(), /head: sysbench data already loaded on this deployment/);
      const runDir = runDirOf(dir);
      const raw = readdirSync(join(runDir, "raw"));
      for (const step of ["deploy", "start", "display", "destroy"])
        assert.ok(
          raw.some((f) => f.startsWith(`tiup-${step}-`)),
          `no raw log of tiup cluster ${step}: ${raw.join(", ")}`,
        );
      for (const step of ["edit-config", "reload", "restart"])
        assert.ok(
          !raw.some((f) => f.startsWith(`tiup-${step}-`)),
          `tiup cluster ${step} ran: ${raw.join(", ")}`,
        );
      // every switch posted the variant's value to the TiKV, both ways
      const executed = JSON.parse(readFileSync(join(runDir, "executed.json"), "utf8")) as PlanStep[];
      const posts = executed.filter((st) => "post" in st.run);
      for (const [variant, value] of [
        ["head", 4],
        ["base", 2],
      ] as const)
        assert.ok(
          posts.some(
            (st) =>
              st.key?.startsWith(`set-config:${variant}:tikv:raftstore.apply-pool-size:127.0.0.1:`) &&
              (st.run as { body: string }).body === JSON.stringify({ "raftstore.apply-pool-size": value }),
          ),
          `no switch to ${variant}: ${JSON.stringify(posts.map((p) => p.key))}`,
        );
      const result = await readResult(join(runDir, "result.json"));
      assert.equal(result.status, "complete");
      assert.deepEqual(
        result.targets.map((t) => [t.kind, t.effective_config["tikv.raftstore.apply-pool-size"]]),
        [
          ["tidb-cluster", "2"],
          ["tidb-cluster", "4"],
        ],
      );
      assert.match(
        readFileSync(join(runDir, "verdict.md"), "utf8"),
        /tikv\.raftstore\.apply-pool-size: 2 → 4/,
      );
      // each component's CPU read from its own status port's /metrics, apart and summed
      const measured = result.cells.filter((c) => c.round > 0 && c.status === "ok");
      assert.ok(measured.length >= 4, `measured cells: ${measured.length}`);
      for (const c of measured) {
        const grew = c.cost?.counters ?? {};
        for (const role of ["tidb", "tikv", "pd"])
          assert.ok(grew[`cpu_s.${role}`] !== undefined, `cpu_s.${role} in ${JSON.stringify(grew)}`);
        const parts = (grew["cpu_s.tidb"] ?? 0) + (grew["cpu_s.tikv"] ?? 0) + (grew["cpu_s.pd"] ?? 0);
        assert.ok(Math.abs((grew.cpu_s ?? -1) - parts) < 1e-6, `cpu_s ${grew.cpu_s} = ${parts}`);
        // the stand-in's MariaDB plays TiDB: the work of the cell is its CPU
        assert.ok((grew["cpu_s.tidb"] ?? 0) > 0, JSON.stringify(grew));
        for (const m of ["cpu_ms_per_op", "tidb_cpu_ms_per_op", "tikv_cpu_ms_per_op", "pd_cpu_ms_per_op"])
          assert.ok(c.metrics[m] !== undefined, `${m} of ${c.workload} ${c.variant} r${c.round}`);
      }
      clusterGone(home);
      await assertRanAsPlanned(spec, runDir, { PATH, TIUP_HOME: home });
    });

    test("an item TiKV refuses to change online fails the run with TiKV's answer; the cluster is destroyed", async () => {
      const dir = tempDir();
      const home = tempDir("tiperf-tiup-home-");
      writeFileSync(
        join(home, "stand-in.json"),
        JSON.stringify({ refuse_online: ["raftstore.apply-pool-size"] }),
      );
      const run = cli(["compare", "--spec", clusterSpec(dir, VARIANTS), "--out", join(dir, "results")], {
        PATH,
        TIUP_HOME: home,
      });
      const { code } = await run.done;
      assert.equal(code, 3, run.stderr());
      assert.match(
        run.stderr(),
        /variant head: tikv 127\.0\.0\.1:\d+ refused raftstore\.apply-pool-size: POST http:\/\/127\.0\.0\.1:\d+\/config \{"raftstore\.apply-pool-size":4\}: HTTP 400: fail to update, error: "config raftstore\.apply-pool-size can not be changed"/,
      );
      clusterGone(home);
    });

    test("a config item that needs a restart: plan refuses one block; with blocks, each variant's cells run as a group after an edit-config + reload of tikv only", async () => {
      const dir = tempDir();
      const home = tempDir("tiperf-tiup-home-");
      const refused = cli(["plan", "--spec", clusterSpec(dir, RELOAD(1))], { PATH, TIUP_HOME: home });
      assert.equal((await refused.done).code, 2, refused.stdout());
      assert.match(
        refused.stdout() + refused.stderr(),
        /compare\.blocks is 1, but variants on .* switch by restarting servers \(reload\)/,
      );
      const spec = clusterSpec(dir, RELOAD(3));
      const plan = cli(["plan", "--spec", spec], { PATH, TIUP_HOME: home });
      assert.equal((await plan.done).code, 0, plan.stderr());
      assert.match(
        plan.stdout(),
        /variants take turns by: edit-config \+ reload of tikv only \(tikv rocksdb\.max-sub-compactions changes only with a restart\)/,
      );
      assert.match(plan.stdout(), /tiup cluster reload tiperf-tidb-itest -R tikv --yes/);
      const run = cli(["compare", "--spec", spec, "--out", join(dir, "results")], { PATH, TIUP_HOME: home });
      const { code } = await run.done;
      assert.ok(code === 0 || code === 1, `exit ${code}:\n${run.stderr()}`);
      for (let b = 1; b <= 3; b++)
        assert.match(run.stderr(), new RegExp(`block ${b}: (base|head): .*as a group`));
      const runDir = runDirOf(dir);
      const result = await readResult(join(runDir, "result.json"));
      assert.equal(result.status, "complete");
      // within each block, one variant's cells, then the other's
      for (let b = 1; b <= 3; b++) {
        const order = result.cells.filter((c) => c.block === b).map((c) => c.variant);
        assert.equal(order.length, 4, `block ${b}: ${order.join(",")}`);
        assert.ok(
          order.join(",") === "base,base,head,head" || order.join(",") === "head,head,base,base",
          `block ${b} not grouped: ${order.join(",")}`,
        );
      }
      const executed = JSON.parse(readFileSync(join(runDir, "executed.json"), "utf8")) as PlanStep[];
      const reloads = executed.filter((st) => st.key?.startsWith("reload:"));
      assert.ok(reloads.length >= 3, `reloads: ${reloads.length}`);
      for (const st of reloads)
        assert.deepEqual((st.run as { command: string[] }).command.slice(4, 6), ["-R", "tikv"]);
      // no switch before each cell: at most one per group (2 variants × 3 blocks) and the load's
      assert.ok(reloads.length <= 7, `reloads: ${reloads.length}`);
      assert.match(readFileSync(join(runDir, "verdict.md"), "utf8"), /variants took turns in groups/);
      clusterGone(home);
      await assertRanAsPlanned(spec, runDir, { PATH, TIUP_HOME: home });
    });

    test('edit-config answering "Nothing changed." (exit 0) fails the run in tiup\'s words; the cluster is destroyed', async () => {
      const dir = tempDir();
      const home = tempDir("tiperf-tiup-home-");
      writeFileSync(join(home, "stand-in.json"), JSON.stringify({ refuse_edit: true }));
      const run = cli(["compare", "--spec", clusterSpec(dir, RELOAD(3)), "--out", join(dir, "results")], {
        PATH,
        TIUP_HOME: home,
      });
      const { code } = await run.done;
      assert.equal(code, 3, run.stderr());
      assert.match(
        run.stderr(),
        /variant head: tiup refused the topology .*topology-head\.yaml \("Nothing changed\.", exit 0\): New topology could not be saved: stand-in refuses every edit/,
      );
      clusterGone(home);
    });

    test("a build on a cluster: packed as tidb-server, patched in before the first start, its tidb_version() checked against target.version", async () => {
      const dir = tempDir();
      const home = tempDir("tiperf-tiup-home-");
      // a "build" with another file name: the stand-in tidb-server reporting the version given
      const build = (version: string) => {
        const bin = join(dir, `my-tidb-${version}`);
        writeFileSync(
          bin,
          `#!/bin/sh\nTIDB_STAND_IN_VERSION='${version}' exec '${join(STAND_INS, "tidb-server")}' "$@"\n`,
          { mode: 0o755 },
        );
        return bin;
      };
      const withBuild = (version: string) => {
        const file = clusterSpec(dir, "");
        writeFileSync(
          file,
          readFileSync(file, "utf8").replace(
            "version: v8.5.0",
            `version: v8.5.0\n  binpath: ${build(version)}`,
          ),
        );
        return file;
      };
      const spec = withBuild("v8.5.0");
      const run = cli(["run", "--spec", spec, "--out", join(dir, "results")], { PATH, TIUP_HOME: home });
      const { code } = await run.done;
      assert.equal(code, 0, run.stderr());
      assert.match(run.stderr(), /cluster tiperf-\w+: every tidb runs .*my-tidb-v8\.5\.0/);
      const runDir = runDirOf(dir);
      const executed = JSON.parse(readFileSync(join(runDir, "executed.json"), "utf8")) as PlanStep[];
      const keys = executed.map((st) => st.key ?? "");
      const at = (prefix: string) => keys.findIndex((k) => k.startsWith(prefix));
      assert.ok(
        at("deploy:") < at("pack:") && at("pack:") < at("patch:") && at("patch:") < at("start:"),
        keys.join(" "),
      );
      const patch = executed.find((st) => st.key?.startsWith("patch:"));
      assert.ok(patch, keys.join(" "));
      assert.deepEqual((patch.run as { command: string[] }).command.slice(5), [
        "-R",
        "tidb",
        "--offline",
        "--yes",
      ]);
      // what tiup displayed: the role marked patched
      const display = readdirSync(join(runDir, "raw")).filter((f) => f.startsWith("tiup-display-"));
      assert.ok(
        display.some((f) => readFileSync(join(runDir, "raw", f), "utf8").includes('"role":"tidb (patched)"')),
      );
      const result = await readResult(join(runDir, "result.json"));
      assert.equal(result.targets[0]?.version, "v8.5.0");
      assert.match(String(result.targets[0]?.details?.tidb_version), /Git Commit Hash: stand-in/);
      clusterGone(home);
      await assertRanAsPlanned(spec, runDir, { PATH, TIUP_HOME: home });

      // a build reporting another version than target.version: nothing is measured
      const dir2 = tempDir();
      const home2 = tempDir("tiperf-tiup-home-");
      const other = withBuild("v9.9.9");
      writeFileSync(join(dir2, "spec.yaml"), readFileSync(other, "utf8"));
      const wrong = cli(["run", "--spec", join(dir2, "spec.yaml"), "--out", join(dir2, "results")], {
        PATH,
        TIUP_HOME: home2,
      });
      assert.equal((await wrong.done).code, 3, wrong.stderr());
      assert.match(
        wrong.stderr(),
        /variant base: target\.version is v8\.5\.0 but .*my-tidb-v9\.9\.9 reports Release Version v9\.9\.9 \(tidb_version\(\)\)/,
      );
      clusterGone(home2);
    });

    test("a component Down after a cell fails that cell, naming the component and host", async () => {
      const dir = tempDir();
      const home = tempDir("tiperf-tiup-home-");
      // display 1: after start; 2: before the first cell; 3: after it
      writeFileSync(
        join(home, "stand-in.json"),
        JSON.stringify({ down_after_displays: 2, down_role: "tikv" }),
      );
      const run = cli(["run", "--spec", clusterSpec(dir, ""), "--out", join(dir, "results")], {
        PATH,
        TIUP_HOME: home,
      });
      const { code } = await run.done;
      assert.equal(code, 3, run.stderr());
      assert.match(
        run.stderr(),
        /cell point_select threads=2 .*failed: cluster tiperf-\w+ \(variant base\): tikv 127\.0\.0\.1:20160 on 127\.0\.0\.1 is Down/,
      );
      const runDir = runDirOf(dir);
      const result = await readResult(join(runDir, "result.json"));
      assert.equal(result.cells[0]?.status, "failed");
      clusterGone(home);
    });

    test("load tools on the load host over SSH, through HAProxy there; raw output kept; nothing left on the load host", async () => {
      const sshd = await startSshd();
      try {
        const dir = tempDir();
        const home = tempDir("tiperf-tiup-home-");
        const profile = join(dir, "local-load.yaml");
        const haproxyPort = await freePort();
        writeFileSync(
          profile,
          `name: local-load
provider: hosts
hosts: {pd: [127.0.0.1], tikv: [127.0.0.1], tidb: [127.0.0.1], load: [127.0.0.1]}
ssh: {user: ${sshd.host.user}, port: ${sshd.host.port}, identity_file: ${sshd.host.identity}}
roles:
  pd: {count: 1}
  tikv: {count: 1}
  tidb: {count: 1}
haproxy: true
haproxy_port: ${haproxyPort}
`,
        );
        const spec = writeSpecWith(dir, profile, "");
        // a measured run long enough for the samplers' SSH sessions, slow to open on a busy
        // machine (beside a CPU hog a 2 s cell ended before the first sample came back)
        writeFileSync(spec, readFileSync(spec, "utf8").replace("duration: 2s", "duration: 6s"));
        const run = cli(["run", "--spec", spec, "--out", join(dir, "results")], { PATH, TIUP_HOME: home });
        const { code } = await run.done;
        assert.equal(code, 0, run.stderr());
        assert.match(run.stderr(), /HAProxy on 127\.0\.0\.1:\d+ in front of 1 TiDB servers/);
        // data loads there with the load host's own CPU count (nproc over ssh answered)
        assert.doesNotMatch(run.stderr(), /nproc did not answer/);
        const runDir = runDirOf(dir);
        const raw = readdirSync(join(runDir, "raw"));
        const cell = readFileSync(
          join(runDir, "raw", raw.find((f) => f.includes("point_select")) as string),
          "utf8",
        );
        assert.match(
          cell,
          new RegExp(
            `^\\$ sysbench oltp_point_select .*--mysql-host=127\\.0\\.0\\.1 --mysql-port=${haproxyPort} .* # on ${sshd.host.user}@127\\.0\\.0\\.1: ssh `,
          ),
        );
        assert.match(cell, /transactions:\s+[1-9]/);
        // resource use sampled over SSH: the cluster's servers by their ports, sysbench on the
        // load host by its name, the host itself (all of them 127.0.0.1 here)
        const result = await readResult(join(runDir, "result.json"));
        const uses = result.cells[0]?.resources ?? [];
        const seen = (role: string, component: string) =>
          uses.some((u) => u.role === role && u.component === component && u.host === "127.0.0.1");
        assert.ok(seen("machine", "machine"), JSON.stringify(uses.map((u) => [u.role, u.component, u.host])));
        assert.ok(seen("load", "sysbench"), "sysbench on the load host, by its name");
        assert.ok(
          uses.some((u) => u.role === "server" && u.host === "127.0.0.1" && u.samples.length > 0),
          "the stand-in cluster's servers, by their ports",
        );
        assert.ok(
          raw.some((f) => f.startsWith("haproxy-")),
          raw.join(", "),
        );
        clusterGone(home);
        await assertRanAsPlanned(spec, runDir, { PATH, TIUP_HOME: home });
        const mine = `tiperf-haproxy-tiperf-${basename(runDir).split("-").pop()}`;
        const left = standInProcesses(mine);
        assert.deepEqual(left, []);
        // the load host (this machine over the test sshd) keeps no file of the run: HAProxy's config went
        assert.deepEqual(
          readdirSync("/tmp").filter((f) => f.startsWith(mine)),
          [],
          "HAProxy's config was left on the load host",
        );
      } finally {
        await sshd.stop();
      }
    });
  });
});
