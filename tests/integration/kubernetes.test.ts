// test-lane: parallel (nothing asserted here rests on measured speed: scripts/run-tests.mjs)
// provider kubernetes through a real API server (etcd + kube-apiserver, tests/helpers/kube.ts):
// tiperf creates its namespace and a TidbCluster per variant there for real (the CRD's schema
// checks the manifests), a test-only stand-in plays TiDB Operator and the nodes (a MariaDB per
// cluster behind the TiDB Service, Ready in its status), and the run goes to a
// verdict. The run's namespace must be gone after success, failure and SIGTERM; `tiperf reap
// --kubernetes` deletes only expired namespaces tiperf labelled.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fakeCluster } from "../helpers/fake-kube-cloud.ts";
import { haveKube, KUBE_APISERVER, type Kube, startKube } from "../helpers/kube.ts";
import { ROOT } from "../helpers/paths.ts";
import { cli, tempDir } from "../helpers/real.ts";

const MANAGED = "app.kubernetes.io/managed-by=tiperf";

let kube: Kube;
let operator: ChildProcess;
let operatorLog = "";
let dir: string;

/** Namespaces labelled as tiperf's, by name. */
async function tiperfNamespaces(): Promise<string[]> {
  const r = await kube.api<{ items: { metadata: { name: string } }[] }>(
    "GET",
    `/api/v1/namespaces?labelSelector=${encodeURIComponent(MANAGED)}`,
  );
  return r.body.items.map((n) => n.metadata.name).sort();
}

function writeProfile(name: string, extra = "", roles = ""): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    `name: ${name}
provider: kubernetes
kubernetes: {kubeconfig: ${kube.kubeconfig}${extra}}
roles: {pd: {count: 1}, tikv: {count: 1}, tidb: {count: 1}${roles}}
`,
  );
  return file;
}

function writeSpec(
  name: string,
  profile: string,
  duration = "2s",
  tables = 1,
  compare = "rounds: 2, order: interleaved, confirm: 0",
): string {
  const file = join(dir, `${name}-spec.yaml`);
  writeFileSync(
    file,
    `name: ${name}
target: {kind: tidb, profile: ${profile}, version: v8.5.0}
data: {tables: ${tables}, table_size: 500}
workloads:
  - {name: ps, sysbench: oltp_point_select, threads: [2], duration: ${duration}, warmup: 0s}
metrics:
  tps: {better: higher, tolerance: 50%}
variants:
  base: {}
  head: {target: {server_configs: {tidb: {performance.txn-total-size-limit: 1073741824}}}}
compare: {${compare}}
`,
  );
  return file;
}

/** A run's result (result.json of the one run under `out`) and what one variant's config read back as. */
function resultOf(out: string) {
  const runDir = join(out, readdirSync(out)[0] as string);
  const result = JSON.parse(readFileSync(join(runDir, "result.json"), "utf8"));
  const effective = (variant: string, key: string): string =>
    result.targets.find((t: { variant: string }) => t.variant === variant).effective_config[key];
  return { runDir, result, effective };
}

/** `tiperf compare` of variants sharing one TidbCluster, to exit 0: its log, namespace and result. */
async function sharedCompare(spec: string, name: string) {
  const out = join(dir, name);
  const json = join(dir, `${name}.json`);
  const run = cli(["compare", "--spec", spec, "--out", out, "--json", json]);
  const { code } = await run.done;
  const log = run.stderr();
  assert.equal(code, 0, `${log}\n--- operator:\n${operatorLog}`);
  const ns = /kubernetes: namespace (tiperf-\S+) created/.exec(log)?.[1] as string;
  assert.equal(log.match(/TidbCluster tidb created in/g)?.length, 1, "one TidbCluster for both variants");
  return { log, ns, verdict: JSON.parse(readFileSync(json, "utf8")), ...resultOf(out) };
}

/** A spec of 1 s cells whose two variants set `key` of `role` to `base` and `head`. */
function variantsSpec(
  name: string,
  profile: string,
  [role, key, base, head]: [string, string, number, number],
  compare: string,
): string {
  const file = join(dir, `${name}-spec.yaml`);
  const set = (n: number) => `{target: {server_configs: {${role}: {${key}: ${n}}}}}`;
  writeFileSync(
    file,
    `name: ${name}
target: {kind: tidb, profile: ${profile}, version: v8.5.0}
data: {tables: 1, table_size: 500}
workloads:
  - {name: ps, sysbench: oltp_point_select, threads: [2], duration: 1s, warmup: 0s}
metrics:
  tps: {better: higher, tolerance: 50%}
variants: {base: ${set(base)}, head: ${set(head)}}
compare: {${compare}}
`,
  );
  return file;
}

/** `tiperf ARGS…` with the gcp cloud's cluster played by this test's API server (tests/helpers/kube-cloud-harness.ts). */
function harnessRun(clusterDir: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      join(ROOT, "tests/helpers/kube-cloud-harness.ts"),
      clusterDir,
      kube.kubeconfig,
      ...args,
    ],
    // its own process group: a dead runner is simulated by killing the group (tiperf, Pulumi, its plugin)
    { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...env }, detached: true },
  );
  let err = "";
  child.stderr?.on("data", (d) => {
    err += d;
  });
  // what the fake cloud created, seen while it existed
  let seen: ReturnType<typeof fakeCluster>;
  const poll = setInterval(() => {
    seen ??= fakeCluster(clusterDir);
  }, 100);
  const done = new Promise<{ code: number | null }>((resolve) =>
    child.once("close", (code) => {
      clearInterval(poll);
      resolve({ code });
    }),
  );
  const waitFor = async (re: RegExp, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline && child.exitCode === null) {
      if (re.test(err)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${re}:\n${err}`);
  };
  return { child, done, waitFor, stderr: () => err, cluster: () => seen };
}

function gkeProfile(name: string): string {
  const profile = join(dir, `${name}.yaml`);
  writeFileSync(
    profile,
    `name: ${name}
provider: kubernetes
kubernetes: {}
gcp: {project: tiperf-test-1, region: us-central1, ttl: 3h, budget: 50}
roles:
  pd: {count: 1, instance_type: n1-standard-4}
  tikv: {count: 1, instance_type: c2-standard-16}
  tidb: {count: 1, instance_type: c2-standard-16}
`,
  );
  return profile;
}

describe("provider kubernetes on a real API server", { timeout: 600_000 }, () => {
  before(async () => {
    assert.ok(haveKube(), `${KUBE_APISERVER} and /usr/bin/etcd: run scripts/setup.sh --test`);
    kube = await startKube();
    dir = tempDir();
    mkdirSync(join(dir, "operator"), { recursive: true });
    operator = spawn(
      process.execPath,
      [
        join(ROOT, "tests/helpers/stand-ins/tidb-operator.mjs"),
        "--server",
        kube.server,
        "--token",
        kube.token,
        "--ca",
        join(kube.dir, "certs", "apiserver.crt"),
        "--dir",
        join(dir, "operator"),
        // the node the load pods ask for (kubernetes.load.instance_type)
        "--node-labels",
        "node.kubernetes.io/instance-type=c2-standard-30",
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    operator.stderr?.on("data", (d) => {
      operatorLog += d;
    });
  });

  after(async () => {
    if (operator && operator.exitCode === null)
      await new Promise((r) => {
        operator.once("exit", r);
        operator.kill("SIGTERM");
      });
    await kube?.stop();
  });

  test("a comparison to a verdict in 3 blocks: a TidbCluster per variant, its config read back, rolled by the operator between blocks, the namespace gone after", async () => {
    const out = join(dir, "ok");
    const json = join(dir, "ok.json");
    const run = cli([
      "compare",
      "--spec",
      writeSpec(
        "k8s-ok",
        writeProfile("k8s"),
        "2s",
        1,
        "rounds: 3, blocks: 3, order: interleaved, confirm: 0",
      ),
      "--out",
      out,
      "--json",
      json,
    ]);
    const { code } = await run.done;
    const log = run.stderr();
    assert.equal(code, 0, `${log}\n--- operator:\n${operatorLog}`);
    const verdict = JSON.parse(readFileSync(json, "utf8"));
    // 2 rounds at a 50% tolerance: no regression of two equal stand-ins; pass or too few rounds to say
    assert.ok(["pass", "inconclusive"].includes(verdict.verdict), verdict.verdict);
    assert.equal(verdict.cells.length, 1);
    assert.match(log, /kubernetes: namespace (tiperf-\S+) created/);
    const ns = /kubernetes: namespace (tiperf-\S+) created/.exec(log)?.[1] as string;
    assert.match(log, /TidbCluster tidb-base Ready; TiDB at 127\.0\.0\.1:\d+/);
    assert.match(log, /TidbCluster tidb-head Ready/);
    assert.match(log, new RegExp(`kubernetes: namespace ${ns} deleted`));
    assert.deepEqual(await tiperfNamespaces(), [], "no namespace of tiperf's is left");
    const runDir = join(out, readdirSync(out)[0] as string);
    const result = JSON.parse(readFileSync(join(runDir, "result.json"), "utf8"));
    const head = result.targets.find((t: { variant: string }) => t.variant === "head");
    assert.equal(head.kind, "tidb-operator");
    // the TidbCluster's TOML config reached the server, and was read back from its /config
    assert.equal(head.effective_config["tidb.performance.txn-total-size-limit"], "1073741824");
    // what ran is what the plan said: the plan's requests are the executed ones
    const executed = JSON.parse(readFileSync(join(runDir, "executed.json"), "utf8")) as {
      key?: string;
      run: Record<string, string>;
    }[];
    const create = executed.find((s) => s.key === "start:tidb-head");
    assert.ok(create && "post" in create.run, JSON.stringify(executed.slice(0, 5)));
    assert.match(
      create.run.post as string,
      new RegExp(`^${kube.server}/apis/pingcap\\.com/v1alpha1/namespaces/${ns}/tidbclusters$`),
    );
    const manifest = JSON.parse(create.run.body as string);
    assert.equal(manifest.spec.tidb.config, "[performance]\ntxn-total-size-limit = 1073741824\n");
    assert.ok(executed.some((s) => s.key === `delete-namespace:${ns}`));
    // compare.blocks 3: before blocks 2 and 3 each TidbCluster rolled by the operator (its
    // restart annotation patched, waited for until every StatefulSet is on a new revision)
    assert.equal(verdict.blocks, 3);
    for (const name of ["tidb-base", "tidb-head"]) {
      assert.equal(
        log.match(new RegExp(`TidbCluster ${name}: rolling restart by TiDB Operator done in \\d+s`, "g"))
          ?.length,
        2,
        log,
      );
      assert.match(operatorLog, new RegExp(`${ns}/${name}: rolled to revision 3`));
      const patches = executed.filter((s) => s.key === `restart:${name}`);
      assert.equal(patches.length, 2);
      const stamps = patches.map(
        (p) => JSON.parse(p.run.body as string).spec.tidb.annotations["tidb.pingcap.com/restartedAt"],
      );
      assert.ok(
        stamps.every((t: string) => !Number.isNaN(Date.parse(t))) && stamps[0] !== stamps[1],
        `each restart stamped with its own time: ${stamps}`,
      );
      assert.match(patches[0]?.run.patch as string, new RegExp(`/tidbclusters/${name}$`));
    }
  });

  test("config_switch rolling-update: one TidbCluster for both variants, switched by the operator's rolling update before each group, each variant's config read back", async () => {
    const profile = writeProfile("k8s-rolling", ", config_switch: rolling-update");
    const specOf = (name: string, compare: string) =>
      variantsSpec(
        name,
        profile,
        ["tidb", "performance.txn-total-size-limit", 104857600, 1073741824],
        compare,
      );
    // a switch restarts pods: variants take turns in groups, which one block cannot balance
    const refused = cli([
      "plan",
      "--spec",
      specOf("k8s-rolling-1", "rounds: 2, order: interleaved, confirm: 0"),
    ]);
    assert.equal((await refused.done).code, 2, refused.stdout());
    assert.match(
      refused.stdout() + refused.stderr(),
      /compare\.blocks is 1, but variants on .* switch by restarting servers \(rolling-update\)/,
    );
    const spec = specOf("k8s-rolling", "rounds: 3, blocks: 3, order: interleaved, confirm: 0");
    const plan = cli(["plan", "--spec", spec]);
    assert.equal((await plan.done).code, 0, plan.stderr());
    assert.match(
      plan.stdout(),
      /variants take turns by: TiDB Operator's rolling update of TidbCluster tidb \(kubernetes\.config_switch: rolling-update\): before each group of cells its spec's tidb config/,
    );
    assert.match(plan.stdout(), /deployments: kubernetes tidb \(TiDB v8\.5\.0; variants base, head\)/);
    assert.match(
      plan.stdout(),
      /PATCH <api>\/apis\/pingcap\.com\/v1alpha1\/namespaces\/\S+\/tidbclusters\/tidb .*"config":"\[performance\]\\ntxn-total-size-limit = 1073741824\\n"/,
    );
    const { log, ns, verdict, runDir, result, effective } = await sharedCompare(spec, "rolling");
    assert.doesNotMatch(log, /TidbCluster tidb-(base|head)/);
    assert.equal(verdict.blocks, 3);
    assert.ok(["pass", "inconclusive"].includes(verdict.verdict), verdict.verdict);
    // each variant's value read back from TiDB's /config after its switch
    assert.equal(effective("base", "tidb.performance.txn-total-size-limit"), "104857600");
    assert.equal(effective("head", "tidb.performance.txn-total-size-limit"), "1073741824");
    // within each block one variant's cells, then the other's
    for (let b = 1; b <= 3; b++) {
      const order = result.cells
        .filter((c: { block: number }) => c.block === b)
        .map((c: { variant: string }) => c.variant);
      // (its warmup round included): one variant's cells, then the other's, never back
      const runs = order.filter((v: string, i: number) => i === 0 || v !== order[i - 1]);
      assert.deepEqual([...runs].sort(), ["base", "head"], `block ${b}: ${order.join(",")}`);
    }
    // every group on fresh pods: the variant's config and a new restart annotation, then the roll waited for
    const executed = JSON.parse(readFileSync(join(runDir, "executed.json"), "utf8")) as {
      key?: string;
      run: Record<string, string>;
    }[];
    const switches = executed.filter((s) => s.key?.startsWith("switch:tidb:"));
    assert.ok(switches.length >= 6, `${switches.length} switches`);
    for (const v of ["base", "head"]) {
      const mine = switches.filter((s) => s.key === `switch:tidb:${v}`);
      assert.ok(mine.length >= 3, `${v}: ${mine.length} switches`);
      const body = JSON.parse(mine[0]?.run.body as string);
      assert.equal(
        body.spec.tidb.config,
        `[performance]\ntxn-total-size-limit = ${v === "base" ? 104857600 : 1073741824}\n`,
      );
      assert.ok(!Number.isNaN(Date.parse(body.spec.tidb.annotations["tidb.pingcap.com/restartedAt"])));
      assert.deepEqual(Object.keys(body.spec), ["tidb"], "only the role whose config differs rolls");
    }
    assert.equal(
      log.match(
        /TidbCluster tidb: variant \w+ (switched in|again, on fresh pods) by TiDB Operator's rolling update of tidb in \d+s/g,
      )?.length,
      switches.length,
    );
    assert.match(operatorLog, new RegExp(`${ns}/tidb: rolled to revision ${switches.length + 1}`));
    assert.deepEqual(await tiperfNamespaces(), [], "no namespace of tiperf's is left");
  });

  test("config_switch online: one TidbCluster, TiKV items set by SET CONFIG through TiDB before a cell of the other variant, every instance read back by SHOW CONFIG; again after each restart", async () => {
    const profile = writeProfile("k8s-online", ", config_switch: online");
    const specOf = (name: string, compare: string) =>
      variantsSpec(name, profile, ["tikv", "raftstore.apply-pool-size", 2, 4], compare);
    const spec = specOf("k8s-online", "rounds: 3, blocks: 3, order: interleaved, confirm: 0");
    const plan = cli(["plan", "--spec", spec]);
    assert.equal((await plan.done).code, 0, plan.stderr());
    assert.match(plan.stdout(), /variants take turns by: SET CONFIG through TiDB's SQL on TidbCluster tidb/);
    const { ns, runDir, result, effective } = await sharedCompare(spec, "online");
    // TiKV's status port is inside the cluster: each variant's item read back through TiDB's SHOW CONFIG
    assert.equal(effective("base", "tikv.raftstore.apply-pool-size"), "2");
    assert.equal(effective("head", "tikv.raftstore.apply-pool-size"), "4");
    const executed = JSON.parse(readFileSync(join(runDir, "executed.json"), "utf8")) as {
      key?: string;
      run: Record<string, string>;
    }[];
    const sets = (v: string) =>
      executed.filter((s) => s.key === `set-config:${v}:tikv:raftstore.apply-pool-size`);
    assert.equal(sets("head")[0]?.run.sql, "SET CONFIG tikv `raftstore.apply-pool-size` = 4; SHOW WARNINGS");
    assert.equal(sets("base")[0]?.run.sql, "SET CONFIG tikv `raftstore.apply-pool-size` = 2; SHOW WARNINGS");
    // a switch whenever the variant changes (no restart: cell by cell), and base again after each
    // of the two restarts between blocks, whose fresh pods start from the spec's (base's) config
    const order = result.cells.map((c: { variant: string }) => c.variant) as string[];
    const changes = order.filter((v, i) => i > 0 && v !== order[i - 1]).length;
    assert.ok(sets("head").length >= 3, `${sets("head").length} switches to head`);
    assert.equal(
      sets("head").length + sets("base").length,
      executed.filter((s) => s.key?.startsWith("set-config:")).length,
    );
    assert.ok(sets("head").length + sets("base").length >= changes, `${changes} changes of variant`);
    assert.equal(
      operatorLog.match(new RegExp(`${ns}/tidb: SET CONFIG tikv raftstore\\.apply-pool-size = \\d`, "g"))
        ?.length,
      sets("head").length + sets("base").length,
    );
    assert.match(operatorLog, new RegExp(`${ns}/tidb: rolled to revision 3`));
    assert.ok(!executed.some((s) => s.key?.startsWith("switch:")), "no rolling update to switch");
    assert.deepEqual(await tiperfNamespaces(), [], "no namespace of tiperf's is left");

    // an item TiKV answered OK but never took: the read-back fails the run, naming the instance
    for (const [file, said] of [
      [
        "ignore-set-config",
        /configs did not take effect:\n\s+tikv tidb-tikv-0\.tidb-tikv-peer\.\S+:20160: raftstore\.apply-pool-size is "2", the spec sets 4/,
      ],
      [
        "refuse-set-config",
        /TiDB did not set tikv raftstore\.apply-pool-size online on TidbCluster tidb .*stand-in refused: tikv raftstore\.apply-pool-size cannot be changed online/,
      ],
    ] as const) {
      writeFileSync(join(dir, "operator", file), "raftstore.apply-pool-size");
      try {
        const failed = cli([
          "compare",
          "--spec",
          specOf(`k8s-${file}`, "rounds: 2, order: interleaved, confirm: 0"),
          "--out",
          join(dir, file),
        ]);
        assert.equal((await failed.done).code, 3, failed.stderr());
        assert.match(failed.stderr(), said);
        assert.deepEqual(await tiperfNamespaces(), [], "no namespace of tiperf's is left");
      } finally {
        rmSync(join(dir, "operator", file), { force: true });
      }
    }
  });

  test("TiFlash: its replicas in the TidbCluster (the CRD takes storageClaims and config.config), a TiFlash config variant switched by the operator's rolling update of TiFlash alone and read back through TiDB", async () => {
    const profile = writeProfile("k8s-tiflash", ", config_switch: rolling-update", ", tiflash: {count: 2}");
    const spec = variantsSpec(
      "k8s-tiflash",
      profile,
      ["tiflash", "profiles.default.max_threads", 4, 8],
      "rounds: 3, blocks: 3, order: interleaved, confirm: 0",
    );
    const { ns, runDir, effective } = await sharedCompare(spec, "tiflash");
    const executed = JSON.parse(readFileSync(join(runDir, "executed.json"), "utf8")) as {
      key?: string;
      run: Record<string, string>;
    }[];
    const create = JSON.parse(executed.find((s) => s.key === "start:tidb")?.run.body as string);
    assert.equal(create.spec.tiflash.replicas, 2);
    assert.deepEqual(create.spec.tiflash.config, { config: "[profiles.default]\nmax_threads = 4\n" });
    const head = executed.find((s) => s.key === "switch:tidb:head");
    assert.deepEqual(Object.keys(JSON.parse(head?.run.body as string).spec), ["tiflash"]);
    // both TiFlash instances read back through TiDB's SHOW CONFIG after each switch
    assert.equal(effective("base", "tiflash.profiles.default.max_threads"), "4");
    assert.equal(effective("head", "tiflash.profiles.default.max_threads"), "8");
    assert.match(operatorLog, new RegExp(`${ns}/tidb: rolled to revision \\d+`));
    assert.deepEqual(await tiperfNamespaces(), [], "no namespace of tiperf's is left");
  });

  test("a cluster the operator never reports Ready: the run fails naming its status, and the namespace is gone", async () => {
    writeFileSync(join(dir, "operator", "refuse-ready"), "tidb-head");
    try {
      const profile = writeProfile("k8s-unready", ", ready_timeout: 10s");
      const run = cli([
        "compare",
        "--spec",
        writeSpec("k8s-unready", profile),
        "--out",
        join(dir, "unready"),
      ]);
      const { code } = await run.done;
      const log = run.stderr();
      assert.equal(code, 3, log);
      assert.match(
        log,
        /TidbCluster tidb-head in tiperf-\S+ Ready: not within \d+s \(pd Normal, tikv Normal, tidb Upgrade; Ready False: tidb statefulset is not up to date/,
      );
      assert.deepEqual(await tiperfNamespaces(), []);
    } finally {
      writeFileSync(join(dir, "operator", "refuse-ready"), "");
    }
  });

  test("SIGTERM while the cells run: the TidbClusters and the namespace are deleted before tiperf exits", async () => {
    const run = cli([
      "compare",
      "--spec",
      writeSpec("k8s-term", writeProfile("k8s-term"), "30s"),
      "--out",
      join(dir, "term"),
    ]);
    await run.waitFor(/point_select|ps threads=2/, 180_000);
    assert.equal((await tiperfNamespaces()).length, 1, "the run's namespace exists while it runs");
    run.child.kill("SIGTERM");
    const { code } = await run.done;
    assert.equal(code, 143, run.stderr());
    assert.match(run.stderr(), /kubernetes: namespace tiperf-\S+ deleted/);
    assert.deepEqual(await tiperfNamespaces(), []);
  });

  test("kubernetes.load: every load tool step in a pod on the load node, reaching TiDB by its Service's name; pods and namespace gone after", async () => {
    const profile = writeProfile(
      "k8s-pod",
      ", load: {image: example.com/tiperf-load:1, instance_type: c2-standard-30, cpus: 3, start_timeout: 60s}",
    );
    // 4 tables: loaded with min(tables, the pod's 3 CPUs) threads, where this machine has 2
    const spec = writeSpec("k8s-pod", profile, "2s", 4);
    const plan = cli(["plan", "--spec", spec]);
    assert.equal((await plan.done).code, 0, plan.stderr());
    assert.match(
      plan.stdout(),
      /load tools run on: a pod per step in the run's namespace \(image example\.com\/tiperf-load:1, 3 CPUs requested, on nodes node\.kubernetes\.io\/instance-type=c2-standard-30/,
    );
    assert.match(
      plan.stdout(),
      /\[cell\] \(pod\) sysbench .*--mysql-host=tidb-base-tidb\.tiperf-\S+\.svc --mysql-port=4000 /,
    );
    const out = join(dir, "pod");
    const run = cli(["compare", "--spec", spec, "--out", out]);
    const { code } = await run.done;
    const log = run.stderr();
    assert.equal(code, 0, `${log}\n--- operator:\n${operatorLog}`);
    const ns = /kubernetes: namespace (tiperf-\S+) created/.exec(log)?.[1] as string;
    const runDir = join(out, readdirSync(out)[0] as string);
    // the pod manifest the plan wrote: the load node, the CPUs, never restarted
    const podYaml = readFileSync(join(runDir, "tidb", "kubernetes-load.yaml"), "utf8");
    assert.match(podYaml, /node\.kubernetes\.io\/instance-type: c2-standard-30/);
    assert.match(podYaml, /restartPolicy: Never/);
    assert.match(podYaml, /cpu: "3"/);
    const executed = JSON.parse(readFileSync(join(runDir, "executed.json"), "utf8")) as {
      phase: string;
      where?: string;
      run: { command?: string[] };
    }[];
    const cells = executed.filter((s) => s.phase === "cell");
    assert.ok(cells.length >= 4, JSON.stringify(cells));
    for (const c of cells) {
      assert.equal(c.where, "pod");
      assert.match(
        (c.run.command ?? []).join(" "),
        new RegExp(`--mysql-host=tidb-(base|head)-tidb\\.${ns}\\.svc --mysql-port=4000`),
      );
    }
    const prepare = executed.find((s) => s.phase === "prepare");
    assert.equal(prepare?.where, "pod");
    // data loads with the pod's CPUs, not this machine's
    assert.match((prepare?.run.command ?? []).join(" "), /--threads=3\b/);
    // the raw logs came back from the pods, each naming its pod
    const raw = readdirSync(join(runDir, "raw")).filter((f) => f.startsWith("ps-"));
    assert.ok(raw.length >= 4, raw.join(" "));
    const text = readFileSync(join(runDir, "raw", raw[0] as string), "utf8");
    assert.match(text, new RegExp(`# in pod tiperf-load-\\d+ in namespace ${ns}`));
    assert.match(text, /transactions:/);
    assert.match(
      operatorLog,
      new RegExp(`${ns}/tiperf-load-\\d+: running sysbench oltp_\\w+ on stand-in-node`),
    );
    assert.deepEqual(await tiperfNamespaces(), []);
  });

  test("SIGTERM while a load pod runs a cell: its process stopped, the pod and the namespace deleted before tiperf exits", async () => {
    const profile = writeProfile(
      "k8s-pod-term",
      ", load: {image: example.com/tiperf-load:1, instance_type: c2-standard-30}",
    );
    // this test's part of the stand-in's log
    const from = operatorLog.length;
    const mine = () => operatorLog.slice(from);
    const run = cli([
      "compare",
      "--spec",
      writeSpec("k8s-pod-term", profile, "30s"),
      "--out",
      join(dir, "pod-term"),
    ]);
    await run.waitFor(/ps threads=2/, 180_000);
    // the cell's pod is running its sysbench
    const started = Date.now();
    while (
      !/tiperf-load-\d+: running sysbench oltp_point_select on/.test(mine()) &&
      Date.now() - started < 30_000
    )
      await new Promise((r) => setTimeout(r, 200));
    const cellPod = /(tiperf-\S+)\/(tiperf-load-\d+): running sysbench oltp_point_select on/.exec(mine());
    assert.ok(cellPod, mine());
    run.child.kill("SIGTERM");
    const { code } = await run.done;
    assert.equal(code, 143, run.stderr());
    assert.match(mine(), new RegExp(`${cellPod[1]}/${cellPod[2]}: sysbench exited 143`));
    assert.deepEqual(await tiperfNamespaces(), []);
  });

  test("kubernetes.load on a node the cluster does not have: the run fails saying the pod is Unschedulable, and the namespace is gone", async () => {
    const profile = writeProfile(
      "k8s-nonode",
      ", load: {image: example.com/tiperf-load:1, instance_type: n1-standard-4, start_timeout: 5s}",
    );
    const run = cli(["compare", "--spec", writeSpec("k8s-nonode", profile), "--out", join(dir, "nonode")]);
    const { code } = await run.done;
    const log = run.stderr();
    assert.notEqual(code, 0, log);
    assert.match(
      log,
      /load pod tiperf-load-1 in tiperf-\S+ running: not within 5s \(phase Pending, Unschedulable: 0\/1 nodes are available: .*instance-type=n1-standard-4/,
    );
    assert.deepEqual(await tiperfNamespaces(), []);
  });

  test("a cluster tiperf creates (a gcp section): the stack up under the real Pulumi engine, the run on its kubeconfig, namespace then cluster gone", async () => {
    // the fake cloud's cluster is this test's API server (tests/helpers/fake-kube-cloud.ts)
    const clusterDir = join(dir, "gke");
    mkdirSync(clusterDir, { recursive: true });
    const profile = gkeProfile("k8s-gke");
    const spec = writeSpec("k8s-gke", profile);
    const plan = cli(["plan", "--spec", spec]);
    assert.equal((await plan.done).code, 0, plan.stderr());
    assert.match(plan.stdout(), /cluster: GKE zonal cluster in us-central1-a, project tiperf-test-1/);
    assert.match(plan.stdout(), /1 × gcp:container\/nodePool:NodePool tikv +# 1 × c2-standard-16/);
    assert.match(plan.stdout(), /budget: \$50\.00: within/);
    const out = join(dir, "gke-run");
    const run = harnessRun(clusterDir, ["compare", "--spec", spec, "--out", out]);
    const { code } = await run.done;
    const log = run.stderr();
    const created = run.cluster();
    assert.equal(code, 0, `${log}\n--- operator:\n${operatorLog}`);
    assert.match(log, /cloud: GKE on gcp us-central1: stack tiperf-k8s-gke-\S+/);
    assert.match(log, /cloud: GKE cluster up in \d+s/);
    // the cluster existed during the run, labelled with it, with a pool per role
    assert.ok(created, "the fake cluster was created");
    assert.equal(created.labels["tiperf-expires-at"]?.length, 20, "an expiry in GCP's label form");
    // the run's id as its namespace carries it (tiperf.io/run-id)
    assert.match(created.labels["tiperf-run-id"] ?? "", /^tiperf-[0-9a-f]{4}$/);
    assert.deepEqual(
      (created.pools as { name: string }[]).map((p) => p.name),
      ["pd", "tikv", "tidb"],
    );
    // the TidbClusters ran on the kubeconfig the stack put out, their pods on the role's pool
    const runDir = join(out, readdirSync(out)[0] as string);
    const manifest = readFileSync(join(runDir, "tidb", "kubernetes-base.yaml"), "utf8");
    assert.match(manifest, /cloud\.google\.com\/gke-nodepool: tikv/);
    // the created cluster's kubeconfig (its token inside) readable by this user only
    assert.equal(statSync(join(runDir, "cloud", "kubeconfig")).mode & 0o777, 0o600);
    assert.match(log, /kubernetes: namespace tiperf-\S+ deleted/);
    // then the cluster: destroyed, the stack's state empty, no namespace left
    assert.equal(fakeCluster(clusterDir), undefined, "the cluster is destroyed");
    assert.deepEqual(await tiperfNamespaces(), []);
    // what the created cluster cost, in the verdict and its comment: the plan's $/h (its node pools
    // from the price table) over the hours from its creation to the end of its deletion
    const planned = Number(/estimated cost: \$[\d.]+ \([\d.]+ h × \$([\d.]+)\/h/.exec(plan.stdout())?.[1]);
    const verdict = JSON.parse(readFileSync(join(runDir, "verdict.json"), "utf8"));
    assert.equal(verdict.cost?.basis, "measured", JSON.stringify(verdict.cost));
    assert.equal(verdict.cost.profile, "k8s-gke");
    assert.ok(
      Math.abs(verdict.cost.per_hour - planned) < 0.001,
      `${verdict.cost.per_hour} vs planned ${planned}`,
    );
    assert.ok(verdict.cost.hours > 0 && verdict.cost.hours < 1, JSON.stringify(verdict.cost));
    assert.match(
      readFileSync(join(runDir, "verdict.md"), "utf8"),
      /💲 Cluster cost: \*\*\$\d+\.\d\d\*\* \(0\.\d\d h × \$\d+\.\d\d\/h, profile k8s-gke/,
    );
  });

  test("SIGTERM on a created cluster: the namespace, then the cluster, gone before tiperf exits", async () => {
    const clusterDir = join(dir, "gke-term");
    mkdirSync(clusterDir, { recursive: true });
    const run = harnessRun(clusterDir, [
      "compare",
      "--spec",
      writeSpec("k8s-gke-term", gkeProfile("k8s-gke-term"), "30s"),
      "--out",
      join(dir, "gke-term-out"),
    ]);
    await run.waitFor(/ps threads=2/, 240_000);
    assert.ok(fakeCluster(clusterDir), "the cluster exists while the cells run");
    run.child.kill("SIGTERM");
    const { code } = await run.done;
    const log = run.stderr();
    assert.equal(code, 143, log);
    assert.match(log, /kubernetes: namespace tiperf-\S+ deleted/);
    assert.equal(fakeCluster(clusterDir), undefined, `the cluster is destroyed:\n${log}`);
    assert.deepEqual(await tiperfNamespaces(), []);
  });

  test("a run on a created cluster killed with SIGKILL: `tiperf reap` recovers its stack from the ledger and the cluster is destroyed", async () => {
    const clusterDir = join(dir, "gke-kill");
    const ledger = join(dir, "gke-kill-ledger");
    mkdirSync(clusterDir, { recursive: true });
    mkdirSync(ledger, { recursive: true });
    const env = { TIPERF_LEDGER: ledger };
    const run = harnessRun(
      clusterDir,
      [
        "compare",
        "--spec",
        writeSpec("k8s-gke-kill", gkeProfile("k8s-gke-kill"), "30s"),
        "--out",
        join(dir, "gke-kill-out"),
      ],
      env,
    );
    await run.waitFor(/ps threads=2/, 240_000);
    const cluster = fakeCluster(clusterDir) as { pid?: number } | undefined;
    assert.ok(cluster, "the cluster exists while the cells run");
    process.kill(-(run.child.pid as number), "SIGKILL");
    await run.done;
    // the dynamic provider's process that created it dies with the runner's machine
    try {
      process.kill(cluster.pid as number, "SIGKILL");
    } catch {}
    assert.ok(fakeCluster(clusterDir), "nothing destroyed the cluster: the runner died");
    const kinds = readdirSync(ledger).map((f) => JSON.parse(readFileSync(join(ledger, f), "utf8")).resource);
    assert.ok(kinds.includes("stack"), `the ledger records the stack: ${kinds.join(", ")}`);
    const reap = harnessRun(clusterDir, ["reap"], env);
    const { code } = await reap.done;
    assert.equal(code, 0, reap.stderr());
    assert.match(reap.stderr(), /reap: recovered stack tiperf-k8s-gke-kill-\S+/);
    assert.equal(fakeCluster(clusterDir), undefined, `the cluster is destroyed:\n${reap.stderr()}`);
    assert.ok(
      !readdirSync(ledger).some(
        (f) => JSON.parse(readFileSync(join(ledger, f), "utf8")).resource === "stack",
      ),
      "the stack's ledger entry is gone",
    );
    // the namespace went with the cluster on GKE; here the "cluster" is the shared API server
    for (const ns of await tiperfNamespaces()) await kube.api("DELETE", `/api/v1/namespaces/${ns}`);
  });

  test("tiperf reap --kubernetes: expired namespaces of tiperf's deleted; unexpired, unlabelled or unreadable ones untouched, one being deleted named", async () => {
    // what earlier tests deleted is finalized by the stand-in a moment later: gone before this starts
    for (let i = 0; i < 100 && (await tiperfNamespaces()).length > 0; i++)
      await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(await tiperfNamespaces(), [], "earlier tests' namespaces are gone");
    const ns = (
      name: string,
      labels: Record<string, string>,
      annotations: Record<string, string>,
      finalizers?: string[],
    ) =>
      kube.api("POST", "/api/v1/namespaces", {
        apiVersion: "v1",
        kind: "Namespace",
        metadata: { name, labels, annotations, ...(finalizers ? { finalizers } : {}) },
      });
    const past = new Date(Date.now() - 3_600_000).toISOString();
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const mine = { "app.kubernetes.io/managed-by": "tiperf" };
    await ns("tiperf-expired", mine, { "tiperf.io/expires-at": past });
    await ns("tiperf-fresh", mine, { "tiperf.io/expires-at": future });
    await ns("tiperf-no-expiry", mine, {});
    await ns("tiperf-lookalike", {}, { "tiperf.io/expires-at": past });
    // expired, but already Terminating (a finalizer of its own holds it there)
    const HOLD = "tiperf.test/hold";
    await ns("tiperf-terminating", mine, { "tiperf.io/expires-at": past }, [HOLD]);
    await kube.api("DELETE", "/api/v1/namespaces/tiperf-terminating");
    const json = join(dir, "reap.json");
    const run = cli(["reap", "--kubernetes", "--kubeconfig", kube.kubeconfig, "--json", json]);
    const { code } = await run.done;
    assert.equal(code, 0, run.stderr());
    assert.match(
      run.stdout(),
      /deleted 1 namespace\(s\), kept 1 \(not expired\), left 1 without an expiry, 1 already being deleted, failed 0/,
    );
    const report = JSON.parse(readFileSync(json, "utf8"));
    assert.deepEqual(report.removed, ["tiperf-expired"]);
    assert.deepEqual(report.deleting, ["tiperf-terminating"]);
    assert.match(run.stderr(), /namespace tiperf-terminating: being deleted since \S+Z/);
    assert.deepEqual(await tiperfNamespaces(), ["tiperf-fresh", "tiperf-no-expiry", "tiperf-terminating"]);
    // let it go: its own finalizer off
    const held = await kube.api<{ metadata: { finalizers?: string[] } }>(
      "GET",
      "/api/v1/namespaces/tiperf-terminating",
    );
    held.body.metadata.finalizers = (held.body.metadata.finalizers ?? []).filter((f) => f !== HOLD);
    await kube.api("PUT", "/api/v1/namespaces/tiperf-terminating", held.body);
    assert.equal(
      (await kube.api("GET", "/api/v1/namespaces/tiperf-lookalike")).status,
      200,
      "unlabelled: never touched",
    );
    for (const n of ["tiperf-fresh", "tiperf-no-expiry", "tiperf-lookalike"])
      await kube.api("DELETE", `/api/v1/namespaces/${n}`);
  });
});
