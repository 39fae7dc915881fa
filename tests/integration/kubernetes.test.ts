// provider kubernetes through a real API server (etcd + kube-apiserver, tests/helpers/kube.ts):
// tiperf creates its namespace and a TidbCluster per variant there for real (the CRD's schema
// checks the manifests), a test-only stand-in plays TiDB Operator and the nodes (a MariaDB per
// cluster behind the TiDB Service, Ready in its status), and the run goes to a
// verdict. The run's namespace must be gone after success, failure and SIGTERM; `tiperf reap
// --kubernetes` deletes only expired namespaces tiperf labelled.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
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

function writeProfile(name: string, extra = ""): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    `name: ${name}
provider: kubernetes
kubernetes: {kubeconfig: ${kube.kubeconfig}${extra}}
roles: {pd: {count: 1}, tikv: {count: 1}, tidb: {count: 1}}
`,
  );
  return file;
}

function writeSpec(name: string, profile: string, duration = "2s"): string {
  const file = join(dir, `${name}-spec.yaml`);
  writeFileSync(
    file,
    `name: ${name}
target: {kind: tidb, profile: ${profile}, version: v8.5.0}
data: {tables: 1, table_size: 500}
workloads:
  - {name: ps, sysbench: oltp_point_select, threads: [2], duration: ${duration}, warmup: 0s}
metrics:
  tps: {better: higher, tolerance: 50%}
variants:
  base: {}
  head: {target: {server_configs: {tidb: {performance.txn-total-size-limit: 1073741824}}}}
compare: {rounds: 2, order: interleaved, confirm: 0}
`,
  );
  return file;
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

  test("a comparison to a verdict: a TidbCluster per variant, its config read back, the namespace gone after", async () => {
    const out = join(dir, "ok");
    const json = join(dir, "ok.json");
    const run = cli([
      "compare",
      "--spec",
      writeSpec("k8s-ok", writeProfile("k8s")),
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

  test("tiperf reap --kubernetes: expired namespaces of tiperf's deleted; unexpired, unlabelled or unreadable ones untouched", async () => {
    const ns = (name: string, labels: Record<string, string>, annotations: Record<string, string>) =>
      kube.api("POST", "/api/v1/namespaces", {
        apiVersion: "v1",
        kind: "Namespace",
        metadata: { name, labels, annotations },
      });
    const past = new Date(Date.now() - 3_600_000).toISOString();
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const mine = { "app.kubernetes.io/managed-by": "tiperf" };
    await ns("tiperf-expired", mine, { "tiperf.io/expires-at": past });
    await ns("tiperf-fresh", mine, { "tiperf.io/expires-at": future });
    await ns("tiperf-no-expiry", mine, {});
    await ns("tiperf-lookalike", {}, { "tiperf.io/expires-at": past });
    const json = join(dir, "reap.json");
    const run = cli(["reap", "--kubernetes", "--kubeconfig", kube.kubeconfig, "--json", json]);
    const { code } = await run.done;
    assert.equal(code, 0, run.stderr());
    assert.match(
      run.stdout(),
      /deleted 1 namespace\(s\), kept 1 \(not expired\), left 1 without an expiry, failed 0/,
    );
    const report = JSON.parse(readFileSync(json, "utf8"));
    assert.deepEqual(report.removed, ["tiperf-expired"]);
    assert.deepEqual(await tiperfNamespaces(), ["tiperf-fresh", "tiperf-no-expiry"]);
    assert.equal(
      (await kube.api("GET", "/api/v1/namespaces/tiperf-lookalike")).status,
      200,
      "unlabelled: never touched",
    );
    for (const n of ["tiperf-fresh", "tiperf-no-expiry", "tiperf-lookalike"])
      await kube.api("DELETE", `/api/v1/namespaces/${n}`);
  });
});
