// test-lane: parallel (nothing asserted here rests on measured speed: scripts/run-tests.mjs), uses tiup-cluster-ports (a stand-in tiup cluster on 127.0.0.1 at TiDB's default ports)
// A run on an ephemeral cloud cluster, end to end, with the cloud, tiup and TiDB standing in: the
// fake cloud (tests/helpers/fake-cloud.ts) under the real Pulumi engine creates the profile's
// machines, all of them this host reached through a test sshd with the run's generated key (the
// load host is the bastion, the others are reached through it); the stand-in tiup checks that
// every tiup command goes through that bastion; tiperf's SQL and status checks, HAProxy and
// sysbench run on the load host over SSH. Everything else is tiperf's real pipeline.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, delimiter, join } from "node:path";
import { describe, test } from "node:test";
import { freePort } from "../../action/src/proc/port.ts";
import { readResult } from "../../action/src/result/store.ts";
import type { PlanStep } from "../../action/src/targets/types.ts";
import type { HarnessConfig } from "../helpers/cloud-harness.ts";
import { fakeMachines } from "../helpers/fake-cloud.ts";
import { ROOT } from "../helpers/paths.ts";
import { samePlanned } from "../helpers/plan.ts";
import { tempDir } from "../helpers/real.ts";
import { type Sshd, startSshd } from "../helpers/sshd.ts";

const HARNESS = join(ROOT, "tests/helpers/cloud-harness.ts");
const PATH = `${join(ROOT, "tests/helpers/stand-ins")}${delimiter}${process.env.PATH ?? ""}`;
/** This checkout's stand-in cluster processes (another checkout's tests have their own path). */
const DAEMON = `${join(ROOT, "tests/helpers/stand-ins/tiup")} __daemon`;

interface World {
  sshd: Sshd;
  dir: string;
  cloudDir: string;
  home: string;
  ledger: string;
  config: string;
  spec: string;
}

async function world(sshd: Sshd, extraSpec = "", bootMs?: Record<string, number>): Promise<World> {
  const dir = tempDir("tiperf-cloud-run-");
  const cloudDir = join(dir, "cloud");
  const home = tempDir("tiperf-tiup-home-");
  const ledger = join(dir, "ledger");
  execFileSync("mkdir", ["-p", cloudDir, ledger]);
  const profile = join(dir, "fake-aws.yaml");
  writeFileSync(
    profile,
    `name: fake-aws
provider: aws
aws:
  region: us-west-2
  ssh_user: ${sshd.host.user}
  ttl: 3h
  budget: 5
  load: {instance_type: t3.medium}
roles:
  pd: {count: 1, instance_type: t3.medium}
  tikv: {count: 1, instance_type: t3.medium}
  tidb: {count: 1, instance_type: t3.medium}
haproxy: true
haproxy_port: ${await freePort()}
`,
  );
  const spec = join(dir, "tidb.yaml");
  writeFileSync(
    spec,
    `name: tidb-cloud
target:
  kind: tidb
  profile: ${profile}
  version: v8.5.0
  server_configs:
    tikv: {raftstore.apply-pool-size: 2}
data: {tables: 1, table_size: 1000}
workloads:
  - name: point_select
    sysbench: oltp_point_select
    threads: [2]
    duration: 2s
    warmup: 1s
${extraSpec}`,
  );
  const c: Partial<HarnessConfig> = {
    cloudDir,
    sshPort: sshd.host.port,
    authorizedKeys: join(sshd.dir, "authorized_keys"),
    ...(bootMs ? { bootMs } : {}),
  };
  const config = join(dir, "harness.json");
  writeFileSync(config, JSON.stringify(c));
  return { sshd, dir, cloudDir, home, ledger, config, spec };
}

function tiperf(w: World, ...args: string[]) {
  const child = spawn(process.execPath, ["--import", "tsx", HARNESS, w.config, "tiperf", ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      PATH,
      TIUP_HOME: w.home,
      TIPERF_LEDGER: w.ledger,
      GITHUB_REF: "refs/pull/7/merge",
    },
    stdio: ["ignore", "pipe", "pipe"],
    // its own process group: a crash is simulated by killing the group
    detached: true,
  });
  let err = "";
  child.stderr.on("data", (d) => {
    err += d;
  });
  child.stdout.on("data", (d) => {
    err += d;
  });
  const done = new Promise<{ code: number | null }>((resolve) =>
    child.once("close", (code) => resolve({ code })),
  );
  return { child, done, log: () => err };
}

const runDirOf = (w: World) => {
  const results = join(w.dir, "results");
  return join(results, readdirSync(results)[0] as string);
};

const pgrep = (marker: string) => {
  try {
    return execFileSync("pgrep", ["-f", marker], { encoding: "utf8" }).trim().split("\n").filter(Boolean);
  } catch {
    return [];
  }
};

/** The Pulumi plugin processes the fake machines record (Pulumi starts them in their own group). */
function killFakePlugins(w: World) {
  for (const f of readdirSync(w.cloudDir).filter((x) => x.endsWith(".json")))
    try {
      process.kill(JSON.parse(readFileSync(join(w.cloudDir, f), "utf8")).pid, "SIGKILL");
    } catch {}
}

/** Nothing of the run is left: machines, stacks, tiup's records, ledger entries, processes. */
function nothingLeft(w: World, runDir: string) {
  assert.deepEqual(fakeMachines(w.cloudDir), {}, "a machine was left in the fake cloud");
  const stacks = join(runDir, "cloud/state/.pulumi/stacks/tiperf");
  // (Pulumi keeps a removed stack's last state as .json.bak)
  const left = existsSync(stacks) ? readdirSync(stacks).filter((f) => f.endsWith(".json")) : [];
  assert.deepEqual(left, [], "a stack was left");
  const clusters = join(w.home, "storage/cluster/clusters");
  assert.deepEqual(existsSync(clusters) ? readdirSync(clusters) : [], [], "tiup still records a cluster");
  assert.deepEqual(readdirSync(w.ledger), [], "ledger entries were left");
  assert.deepEqual([...pgrep(w.home), ...pgrep(DAEMON)], [], "stand-in processes were left");
  const mine = `tiperf-haproxy-tiperf-${basename(runDir).split("-").pop()}`;
  assert.deepEqual(pgrep(mine), [], "HAProxy was left on the load host");
  assert.deepEqual(
    readdirSync("/tmp").filter((f) => f.startsWith(mine)),
    [],
    "HAProxy's config was left on the load host",
  );
}

/**
 * The run's plan.json is the plan on the machines `up` created (their addresses, no placeholder),
 * printed when they existed, and every step it carried out is one of that plan's, in its words.
 */
function ranAsPlannedOnTheMachines(runDir: string, log: string) {
  assert.match(log, /plan: the machines exist; the plan on their addresses/);
  const text = readFileSync(join(runDir, "plan.txt"), "utf8");
  assert.match(text, /hosts below are the private addresses `up` returned/);
  const planned = JSON.parse(readFileSync(join(runDir, "plan.json"), "utf8")) as {
    steps: Record<string, PlanStep[]>;
  };
  // the plan says <run> for the run's directory
  const steps = Object.values(planned.steps)
    .flat()
    .map((st) => ({ ...st, run: JSON.parse(JSON.stringify(st.run).replaceAll("<run>", runDir)) }));
  const words = JSON.stringify(steps);
  assert.ok(!/<load-1 public address>|"(pd|tikv|tidb|load)-1"|@(pd|tikv|tidb|load)-1\b/.test(words), words);
  assert.match(words, /127\.0\.0\.1/);
  const executed = JSON.parse(readFileSync(join(runDir, "executed.json"), "utf8")) as PlanStep[];
  assert.ok(executed.length > 5, `${executed.length} steps executed`);
  for (const x of executed)
    assert.ok(
      steps.some((st) => samePlanned(st.run, x.run)),
      `executed but not planned in these words: ${JSON.stringify(x.run)}`,
    );
}

describe("a run on an ephemeral cloud cluster (fake cloud, real Pulumi engine, stand-in tiup)", () => {
  test("compare: up, every machine ready, tiup through the bastion, load through HAProxy on the load host, verdict with the measured cost; everything destroyed", async () => {
    const sshd = await startSshd();
    try {
      const w = await world(
        sshd,
        `variants:
  base: {}
  head: {target: {server_configs: {tikv: {raftstore.apply-pool-size: 4}}}}
compare: {rounds: 2, warmup_rounds: 0, confirm: 0}
`,
      );
      const t = tiperf(w, "compare", "--spec", w.spec, "--out", join(w.dir, "results"));
      const { code } = await t.done;
      const log = t.log();
      assert.ok(code === 0 || code === 1, `exit ${code}:\n${log}`);
      assert.match(
        log,
        /cloud: aws us-west-2: stack tiperf-fake-aws-pr7, SSH admitted from 127\.0\.0\.1\/32/,
      );
      assert.match(
        log,
        /cloud: 4 machines: pd-1 127\.0\.0\.1, tikv-1 127\.0\.0\.1, tidb-1 127\.0\.0\.1, load-1 127\.0\.0\.1; bastion \(load host\) 127\.0\.0\.1/,
      );
      assert.match(log, /cloud: every machine ready/);
      assert.match(log, /HAProxy on 127\.0\.0\.1:\d+ in front of 1 TiDB servers/);
      assert.match(log, /cloud: stack tiperf-fake-aws-pr7 destroyed and removed/);
      const runDir = runDirOf(w);
      const key = join(runDir, "cloud/id_rsa");
      assert.equal(statSync(key).mode & 0o777, 0o600);
      assert.ok(
        !log.includes(readFileSync(key, "utf8").split("\n")[1] as string),
        "the private key was logged",
      );
      // the run's public key went into the machines' authorized_keys, as the key pair does on EC2
      assert.match(
        readFileSync(join(sshd.dir, "authorized_keys"), "utf8"),
        /ssh-rsa \S+ tiperf-\S+-tidb-cloud-/,
      );
      const raw = readdirSync(join(runDir, "raw"));
      const deploy = readFileSync(
        join(runDir, "raw", raw.find((f) => f.startsWith("tiup-deploy-")) as string),
        "utf8",
      );
      assert.match(
        deploy.split("\n")[0] as string,
        new RegExp(
          `^\\$ \\S*tiup cluster deploy tiperf-\\w+ v8\\.5\\.0 \\S+ --yes --user ${sshd.host.user} -i \\S+/cloud/id_rsa --ssh-proxy-host 127\\.0\\.0\\.1 --ssh-proxy-user ${sshd.host.user} --ssh-proxy-port ${sshd.host.port} --ssh-proxy-identity-file \\S+/cloud/id_rsa`,
        ),
      );
      const cell = readFileSync(
        join(runDir, "raw", raw.find((f) => f.includes("point_select")) as string),
        "utf8",
      );
      assert.match(cell, /# on \S+@127\.0\.0\.1: ssh .*ProxyCommand=ssh /);
      assert.match(cell, /transactions:\s+[1-9]/);
      const result = await readResult(join(runDir, "result.json"));
      assert.equal(result.status, "complete");
      assert.deepEqual(
        result.targets.map((x) => [x.kind, x.effective_config["tikv.raftstore.apply-pool-size"]]),
        [
          ["tidb-cluster", "2"],
          ["tidb-cluster", "4"],
        ],
      );
      const verdict = JSON.parse(readFileSync(join(runDir, "verdict.json"), "utf8"));
      assert.equal(verdict.cost.basis, "measured");
      assert.equal(verdict.cost.profile, "fake-aws");
      assert.ok(verdict.cost.hours > 0 && verdict.cost.hours < 1, JSON.stringify(verdict.cost));
      // 4 × t3.medium and their gp3 root volumes, from the price table
      assert.ok(
        verdict.cost.per_hour > 4 * 0.04 && verdict.cost.per_hour < 4 * 0.06,
        JSON.stringify(verdict.cost),
      );
      assert.match(
        readFileSync(join(runDir, "verdict.md"), "utf8"),
        /💲 Cluster cost: \*\*\$\d+\.\d\d\*\* \(0\.\d\d h × \$0\.\d\d\/h, profile fake-aws/,
      );
      ranAsPlannedOnTheMachines(runDir, log);
      nothingLeft(w, runDir);
    } finally {
      await sshd.stop();
    }
  });

  test("a shard's run killed with SIGKILL during the matrix: `tiperf reap` recovers its own stack from the ledger", async () => {
    const sshd = await startSshd();
    try {
      const w = await world(sshd);
      writeFileSync(
        w.spec,
        readFileSync(w.spec, "utf8")
          .replace("threads: [2]", "threads: [1, 2, 4]")
          .replace("duration: 2s", "duration: 6s"),
      );
      // shard 1 of 1 runs every cell; its stack is named for the shard (the option, not the environment)
      const t = tiperf(w, "run", "--spec", w.spec, "--shard", "1/1", "--out", join(w.dir, "results"));
      const deadline = Date.now() + 240_000;
      while (!/\[2\/3\] point_select threads=2/.test(t.log())) {
        if (Date.now() > deadline || t.child.exitCode !== null)
          assert.fail(`the matrix never ran:\n${t.log()}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      // a dead runner: tiperf, the Pulumi CLI and tiup die; the machines (here: the fake cloud's
      // files, the stand-in cluster, the Pulumi plugin this host runs for it) stay
      process.kill(-(t.child.pid as number), "SIGKILL");
      await t.done;
      const machines = Object.keys(fakeMachines(w.cloudDir));
      assert.deepEqual(machines.sort(), ["load-1", "pd-1", "tidb-1", "tikv-1"]);
      const entries = readdirSync(w.ledger).map(
        (f) => JSON.parse(readFileSync(join(w.ledger, f), "utf8")).resource,
      );
      assert.deepEqual(entries.sort(), ["run", "stack"]);
      // what terminating the machines stops: the stand-in cluster and the plugin's process
      for (const pid of [...pgrep(DAEMON), ...pgrep(w.home)]) process.kill(Number(pid), "SIGKILL");
      killFakePlugins(w);
      const reap = tiperf(w, "reap");
      const { code } = await reap.done;
      assert.equal(code, 0, reap.log());
      assert.match(t.log(), /cloud: aws us-west-2: stack tiperf-fake-aws-pr7-shard1,/);
      assert.match(reap.log(), /reap: recovered stack tiperf-fake-aws-pr7-shard1\b/);
      assert.match(reap.log(), /cloud: recovery: destroy, going on past errors: done/);
      const runDir = runDirOf(w);
      assert.equal((await readResult(join(runDir, "result.json"))).status, "interrupted");
      nothingLeft(w, runDir);
    } finally {
      await sshd.stop();
    }
  });

  test("SIGTERM while `up` is creating the machines: up stops, what it created is destroyed, nothing is left", async () => {
    const sshd = await startSshd();
    try {
      const w = await world(sshd, "", { "tikv-1": 20_000 });
      const t = tiperf(w, "run", "--spec", w.spec, "--out", join(w.dir, "results"));
      const deadline = Date.now() + 120_000;
      while (!/Machine tikv-1 creating/.test(t.log())) {
        if (Date.now() > deadline || t.child.exitCode !== null)
          assert.fail(`up never reached tikv-1:\n${t.log()}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.ok(Object.keys(fakeMachines(w.cloudDir)).includes("pd-1"));
      t.child.kill("SIGTERM");
      const { code } = await t.done;
      assert.equal(code, 143, t.log());
      assert.match(t.log(), /SIGTERM received: stopping and tearing down/);
      assert.match(
        t.log(),
        /cloud: stack tiperf-fake-aws-pr7 destroyed and removed|cloud: recovery: remove the stack: done/,
      );
      const runDir = runDirOf(w);
      assert.equal((await readResult(join(runDir, "result.json"))).status, "interrupted");
      // the machine whose create was cut short is gone too (destroy, or the tag sweep)
      assert.deepEqual(fakeMachines(w.cloudDir), {});
      killFakePlugins(w);
      nothingLeft(w, runDir);
    } finally {
      await sshd.stop();
    }
  });
});
