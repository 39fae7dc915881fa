import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { parseAllDocuments } from "yaml";
import { planRun } from "../../action/src/bench/plan.ts";
import { loadKubeContext } from "../../action/src/kubernetes/kubeconfig.ts";
import { parseSpec } from "../../action/src/specfile/load.ts";
import { dnsLabel, namespaceOf } from "../../action/src/targets/tidb/deployments/kubernetes/manifests.ts";
import { readiness, revisions, rolling } from "../../action/src/targets/tidb/deployments/kubernetes/run.ts";
import { parseProfile } from "../../action/src/targets/tidb/load-profile.ts";

const dir = mkdtempSync(join(tmpdir(), "tiperf-kube-unit-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const PROFILE = `name: k
provider: kubernetes
kubernetes:
  context: test
  host_network: true
  storage: {tikv: 200Gi}
  storage_class: {tikv: local-ssd}
  node_selector: {tikv: {cloud.google.com/gke-nodepool: tikv}}
roles: {pd: {count: 3}, tikv: {count: 3, instance_type: c2-standard-16}, tidb: {count: 2}}
`;

function spec(profile: string, extra = "") {
  return parseSpec(
    `name: k8s-unit
target: {kind: tidb, profile: ${profile}, version: v8.5.0}
data: {tables: 1, table_size: 100}
workloads:
  - {name: ps, sysbench: oltp_point_select, threads: [2], duration: 5s}
variants:
  base: {}
  head: {target: {server_configs: {tidb: {performance.txn-total-size-limit: 1073741824}}}}
${extra}`,
    "k.yaml",
  );
}

/** A one-cell spec on `profile` whose variants are `variants` (a YAML flow map), in 3 blocks. */
const specWith = (profile: string, variants: string) =>
  parseSpec(
    `name: k8s-unit
target: {kind: tidb, profile: ${profile}, version: v8.5.0}
data: {tables: 1, table_size: 100}
workloads:
  - {name: ps, sysbench: oltp_point_select, threads: [2], duration: 5s}
variants: ${variants}
compare: {rounds: 6, blocks: 3}
`,
    "k.yaml",
  );

describe("provider kubernetes: what tiperf plan shows", () => {
  test("a TidbCluster per variant in the run's own labelled namespace, with the profile's layout and each variant's config", async () => {
    const profile = join(dir, "k.yaml");
    writeFileSync(profile, PROFILE);
    const plan = await planRun(spec(profile), { runId: "20261126T120000Z-k8s-unit-ab12" });
    assert.deepEqual(plan.refusals, []);
    assert.match(plan.text, /deployments: kubernetes tidb-base .*; kubernetes tidb-head/);
    assert.match(plan.text, /variants take turns by: separate-clusters/);
    // the manifests, one file per variant; the first also holds the namespace
    const docs = (f: string) => parseAllDocuments(plan.files[f] as string).map((d) => d.toJS());
    const [ns, base] = docs("tidb/kubernetes-base.yaml");
    const [head] = docs("tidb/kubernetes-head.yaml");
    assert.equal(ns.kind, "Namespace");
    // named by the run id's suffix, as the run's other resources are
    assert.equal(ns.metadata.name, "tiperf-ab12");
    assert.equal(ns.metadata.labels["app.kubernetes.io/managed-by"], "tiperf");
    assert.equal(ns.metadata.annotations["tiperf.io/expires-at"], "<expires at>");
    for (const tc of [base, head]) {
      assert.equal(tc.apiVersion, "pingcap.com/v1alpha1");
      assert.equal(tc.kind, "TidbCluster");
      assert.equal(tc.metadata.namespace, ns.metadata.name);
      assert.equal(tc.spec.version, "v8.5.0");
      assert.equal(tc.spec.hostNetwork, true);
      assert.equal(tc.spec.pvReclaimPolicy, "Delete");
      assert.deepEqual([tc.spec.pd.replicas, tc.spec.tikv.replicas, tc.spec.tidb.replicas], [3, 3, 2]);
      assert.deepEqual(tc.spec.tikv.requests, { storage: "200Gi" });
      assert.equal(tc.spec.tikv.storageClassName, "local-ssd");
      assert.deepEqual(tc.spec.tikv.nodeSelector, {
        "cloud.google.com/gke-nodepool": "tikv",
        "node.kubernetes.io/instance-type": "c2-standard-16",
      });
      assert.equal(tc.spec.pd.nodeSelector, undefined);
      assert.deepEqual(tc.spec.tidb.service, { type: "LoadBalancer", exposeStatus: true });
    }
    assert.equal(base.spec.tidb.config, undefined);
    assert.equal(head.spec.tidb.config, "[performance]\ntxn-total-size-limit = 1073741824\n");
    // the requests the run makes, in order: namespace, then per variant create → ready → service;
    // deletes at the end, the namespace last
    const lines = plan.text
      .split("\n")
      .filter((l) => /^\s+\[(start|teardown)\] (POST|GET|DELETE) <api>/.test(l));
    assert.match(
      lines[0] as string,
      /\[start\] POST <api>\/api\/v1\/namespaces \{"apiVersion":"v1","kind":"Namespace"/,
    );
    assert.match(
      lines[1] as string,
      /POST <api>\/apis\/pingcap\.com\/v1alpha1\/namespaces\/tiperf-\S+\/tidbclusters \{.*"name":"tidb-base"/,
    );
    assert.match(lines[2] as string, /GET .*\/tidbclusters\/tidb-base +# .*status\.conditions Ready is True/);
    assert.match(lines[3] as string, /GET .*\/services\/tidb-base-tidb/);
    assert.match(
      lines.at(-1) as string,
      /\[teardown\] DELETE <api>\/api\/v1\/namespaces\/tiperf-\S+ +# .*tiperf reap --kubernetes/,
    );
    // the load runs here and connects where the Service says
    assert.match(plan.text, /--mysql-host=<tidb-base sql address>' '--mysql-port=<port>'/);
  });

  test("kubernetes.load: the load pod in the plan (its node, CPUs, host network), cells in a pod reaching TiDB by its Service's name", async () => {
    const profile = join(dir, "k-load.yaml");
    writeFileSync(
      profile,
      PROFILE.replace(
        "  host_network: true\n",
        "  host_network: true\n  load: {image: example.com/load:1, instance_type: c2-standard-30, node_selector: {pool: load}, cpus: 28, memory: 32Gi}\n",
      ),
    );
    const plan = await planRun(spec(profile), { runId: "20261126T120000Z-k8s-unit-cd34" });
    assert.deepEqual(plan.refusals, []);
    const [pod] = parseAllDocuments(plan.files["tidb/kubernetes-load.yaml"] as string).map((d) => d.toJS());
    assert.equal(pod.kind, "Pod");
    assert.equal(pod.metadata.namespace, "tiperf-cd34");
    assert.equal(pod.metadata.labels["app.kubernetes.io/managed-by"], "tiperf");
    assert.deepEqual(pod.spec.nodeSelector, {
      pool: "load",
      "node.kubernetes.io/instance-type": "c2-standard-30",
    });
    assert.equal(pod.spec.restartPolicy, "Never");
    // seed 000's host network for the load too, with the cluster's DNS still in reach
    assert.equal(pod.spec.hostNetwork, true);
    assert.equal(pod.spec.dnsPolicy, "ClusterFirstWithHostNet");
    assert.deepEqual(pod.spec.containers[0].resources.requests, { cpu: "28", memory: "32Gi" });
    assert.equal(pod.spec.containers[0].image, "example.com/load:1");
    assert.match(
      plan.text,
      /load tools run on: a pod per step in the run's namespace \(image example\.com\/load:1, 28 CPUs requested, on nodes pool=load, node\.kubernetes\.io\/instance-type=c2-standard-30/,
    );
    const cellLines = plan.text.split("\n").filter((l) => /\[cell\] .*sysbench/.test(l));
    assert.equal(cellLines.length, 2, plan.text);
    assert.match(
      cellLines[0] as string,
      /\[cell\] \(pod\) sysbench .*--mysql-host=tidb-base-tidb\.tiperf-cd34\.svc --mysql-port=4000 /,
    );
    assert.match(
      cellLines[1] as string,
      /\[cell\] \(pod\) sysbench .*--mysql-host=tidb-head-tidb\.tiperf-cd34\.svc --mysql-port=4000 /,
    );
    // data loads with the pod's CPUs (min of tables and CPUs: 1 table here); CREATE DATABASE is tiperf's own, from here
    assert.match(plan.text, /\[load\] SQL: CREATE DATABASE IF NOT EXISTS sbtest {4}#/);
    assert.match(
      plan.text,
      /\[prepare\] \(pod\) sysbench .*--threads=1 .*loading threads up to the 28 CPUs the deployment gives the load tools/,
    );
  });

  test("what Kubernetes cannot do is refused at plan time, naming the key", async () => {
    const profile = join(dir, "k2.yaml");
    writeFileSync(profile, PROFILE);
    await assert.rejects(
      planRun(
        parseSpec(
          `name: k\ntarget: {kind: tidb, profile: ${profile}, version: v8.5.0, binpath: /opt/tidb-server}\ndata: {tables: 1, table_size: 100}\nworkloads:\n  - {name: ps, sysbench: oltp_point_select, threads: [2], duration: 5s}\n`,
          "k.yaml",
        ),
        {},
      ),
      /k\.yaml: target\.binpath: .*provider kubernetes\) runs images, not a build of this machine/,
    );
  });

  test("a rolling restart is done once every role's StatefulSet is on a revision it did not have before", () => {
    const tc = (rev: Record<string, [string, string]>) =>
      ({
        metadata: { name: "t" },
        status: Object.fromEntries(
          Object.entries(rev).map(([r, [current, update]]) => [
            r,
            {
              phase: current === update ? "Normal" : "Upgrade",
              statefulSet: { currentRevision: current, updateRevision: update },
            },
          ]),
        ),
      }) as never;
    const before = revisions(tc({ pd: ["pd-1", "pd-1"], tikv: ["kv-1", "kv-1"], tidb: ["db-1", "db-1"] }));
    // the operator has not seen the patch yet: nothing rolled, however Ready it still says it is
    assert.deepEqual(
      rolling(before, tc({ pd: ["pd-1", "pd-1"], tikv: ["kv-1", "kv-1"], tidb: ["db-1", "db-1"] })),
      ["pd not yet on a new revision", "tikv not yet on a new revision", "tidb not yet on a new revision"],
    );
    assert.deepEqual(
      rolling(before, tc({ pd: ["pd-2", "pd-2"], tikv: ["kv-1", "kv-2"], tidb: ["db-1", "db-1"] })),
      ["tikv kv-1 → kv-2", "tidb not yet on a new revision"],
    );
    assert.deepEqual(
      rolling(before, tc({ pd: ["pd-2", "pd-2"], tikv: ["kv-2", "kv-2"], tidb: ["db-2", "db-2"] })),
      [],
    );
    // a component the cluster does not have (no revisions before or after) is no wait
    const noPd = revisions(tc({ tikv: ["kv-1", "kv-1"], tidb: ["db-1", "db-1"] }));
    assert.deepEqual(rolling(noPd, tc({ tikv: ["kv-2", "kv-2"], tidb: ["db-2", "db-2"] })), []);
  });

  test("compare.blocks: between blocks a PATCH of each TidbCluster's restart annotation, the operator's rolling restart", async () => {
    const profile = join(dir, "k3.yaml");
    writeFileSync(profile, PROFILE);
    const plan = await planRun(spec(profile, "compare: {rounds: 6, blocks: 3}\n"), {
      runId: "20261126T120000Z-k8s-unit-ef56",
    });
    assert.deepEqual(plan.refusals, []);
    const restarts = plan.text.split("\n").filter((l) => l.includes("[restart]"));
    assert.equal(restarts.length, 2, plan.text);
    assert.match(
      restarts[0] as string,
      /\[restart\] PATCH <api>\/apis\/pingcap\.com\/v1alpha1\/namespaces\/tiperf-ef56\/tidbclusters\/tidb-base \{"spec":\{"pd":\{"annotations":\{"tidb\.pingcap\.com\/restartedAt":"<restart time>"\}\},"tikv":.*"tidb":.*# before each block after the first \(compare\.blocks\): TiDB Operator's graceful rolling restart/,
    );
    assert.match(restarts[1] as string, /tidbclusters\/tidb-head /);
  });

  test("config_switch rolling-update: one TidbCluster per version, a variant switched in by a PATCH of the differing roles' config with a restart annotation", async () => {
    const profile = join(dir, "k-rolling.yaml");
    writeFileSync(
      profile,
      PROFILE.replace("  context: test\n", "  context: test\n  config_switch: rolling-update\n"),
    );
    const plan = await planRun(spec(profile, "compare: {rounds: 6, blocks: 3}\n"), {
      runId: "20261126T120000Z-k8s-unit-ef57",
    });
    assert.deepEqual(plan.refusals, []);
    assert.match(plan.text, /deployments: kubernetes tidb \(TiDB v8\.5\.0; variants base, head\)/);
    assert.match(plan.text, /variants take turns by: TiDB Operator's rolling update of TidbCluster tidb/);
    // the TidbCluster is created once, with base's config (none for TiDB)
    const creates = plan.text.split("\n").filter((l) => /\[start\] POST <api>\/apis\/pingcap\.com/.test(l));
    assert.equal(creates.length, 1, plan.text);
    const switches = plan.text.split("\n").filter((l) => l.includes("[switch] PATCH"));
    assert.equal(switches.length, 2, plan.text);
    const switchOf = (v: string) => switches.find((l) => l.includes(`variant ${v},`)) as string;
    const [head, base] = [switchOf("head"), switchOf("base")];
    assert.match(
      head,
      /tidbclusters\/tidb \{"spec":\{"tidb":\{"config":"\[performance\]\\ntxn-total-size-limit = 1073741824\\n","annotations":\{"tidb\.pingcap\.com\/restartedAt":"<restart time>"\}\}\}\}/,
    );
    // base sets nothing for TiDB: its switch removes head's config
    assert.match(base, /\{"spec":\{"tidb":\{"config":null,"annotations"/);
    // no restart between blocks: each group's switch gives fresh pods
    assert.ok(!plan.text.includes("[restart]"), plan.text);
    // variants of different versions cannot share one: a TidbCluster each
    const versions = await planRun(specWith(profile, "{base: {}, head: {target: {version: v8.5.1}}}"), {
      runId: "20261126T120000Z-k8s-unit-ef58",
    });
    assert.match(
      versions.text,
      /deployments: kubernetes tidb-base \(TiDB v8\.5\.0; variants base\); kubernetes tidb-head/,
    );
    assert.match(versions.text, /variants take turns by: separate-clusters/);
  });

  test("config_switch online: one TidbCluster, SET CONFIG through TiDB before a cell of the other variant, TiKV read back by SHOW CONFIG; items that need a restart refused", async () => {
    const profile = join(dir, "k-online.yaml");
    writeFileSync(
      profile,
      PROFILE.replace("  context: test\n", "  context: test\n  config_switch: online\n"),
    );
    const tikv = (n: number, more = "") =>
      `{target: {server_configs: {tikv: {raftstore.apply-pool-size: ${n}, storage.block-cache.capacity: "${n}GiB"${more}}}}}`;
    const onlineSpec = (more = "") => specWith(profile, `{base: ${tikv(2)}, head: ${tikv(4, more)}}`);
    const plan = await planRun(onlineSpec(), { runId: "20261126T120000Z-k8s-unit-ef59" });
    assert.deepEqual(plan.refusals, []);
    assert.match(plan.text, /deployments: kubernetes tidb \(TiDB v8\.5\.0; variants base, head\)/);
    assert.match(
      plan.text,
      /variants take turns by: SET CONFIG through TiDB's SQL on TidbCluster tidb \(kubernetes\.config_switch: online\): .*tikv raftstore\.apply-pool-size, tikv storage\.block-cache\.capacity/,
    );
    const lines = plan.text.split("\n");
    const sets = lines.filter((l) => l.includes("[switch] SQL: SET CONFIG"));
    // each variant's two items: head's to switch in, base's to switch back (after head, or a restart)
    assert.equal(sets.length, 4, plan.text);
    assert.ok(
      sets.some((l) => l.includes("SET CONFIG tikv `raftstore.apply-pool-size` = 4; SHOW WARNINGS")),
      plan.text,
    );
    assert.ok(
      sets.some((l) => l.includes("SET CONFIG tikv `storage.block-cache.capacity` = '2GiB'; SHOW WARNINGS")),
      plan.text,
    );
    // TiKV's status port is inside the cluster: its items are read back through TiDB
    const reads = lines.filter((l) => l.includes("SHOW CONFIG WHERE type = 'tikv'"));
    assert.equal(reads.length, 2, plan.text);
    assert.ok(
      reads.every((l) => l.includes("name IN ('raftstore.apply-pool-size', 'storage.block-cache.capacity')")),
    );
    // no rolling update to switch; the TidbCluster is restarted between blocks as a side-by-side one is
    assert.ok(!plan.text.includes("[switch] PATCH"), plan.text);
    // one TidbCluster: one restart per block after the first, whatever the number of variants
    assert.match(plan.text, /estimated duration: .* \+ 2 restarts × 300s/);
    assert.equal(lines.filter((l) => l.includes("[restart] PATCH")).length, 1, plan.text);
    // an item TiKV takes only at a restart, or any of TiDB's: refused, naming it and the way out
    await assert.rejects(
      planRun(onlineSpec(", storage.reserve-space: 1GiB"), { runId: "20261126T120000Z-k8s-unit-ef60" }),
      /kubernetes\.config_switch is online, but variants base, head cannot switch online: tikv storage\.reserve-space changes only with a restart.*Use config_switch: rolling-update/,
    );
    await assert.rejects(
      planRun(spec(profile, "compare: {rounds: 6, blocks: 3}\n"), {
        runId: "20261126T120000Z-k8s-unit-ef61",
      }),
      /tidb performance\.txn-total-size-limit changes only with a restart/,
    );
  });

  test("TiFlash: replicas in the TidbCluster with their volumes as storageClaims and the TOML under config.config; rolled with the rest; refused on a cluster tiperf creates", async () => {
    const profile = join(dir, "k-tiflash.yaml");
    writeFileSync(
      profile,
      PROFILE.replace("  context: test\n", "  context: test\n  config_switch: rolling-update\n")
        .replace("storage: {tikv: 200Gi}", "storage: {tikv: 200Gi, tiflash: 300Gi}")
        .replace("storage_class: {tikv: local-ssd}", "storage_class: {tikv: local-ssd, tiflash: local-ssd}")
        .replace("tidb: {count: 2}}", "tidb: {count: 2}, tiflash: {count: 2, instance_type: r5.2xlarge}}"),
    );
    const plan = await planRun(
      specWith(
        profile,
        "{base: {}, head: {target: {server_configs: {tiflash: {profiles.default.max_threads: 8}}}}}",
      ),
      { runId: "20261126T120000Z-k8s-unit-ef62" },
    );
    assert.deepEqual(plan.refusals, []);
    const [, tc] = parseAllDocuments(plan.files["tidb/kubernetes-tidb.yaml"] as string).map((d) => d.toJS());
    assert.deepEqual(tc.spec.tiflash, {
      baseImage: "pingcap/tiflash",
      replicas: 2,
      storageClaims: [{ resources: { requests: { storage: "300Gi" } }, storageClassName: "local-ssd" }],
      nodeSelector: { "node.kubernetes.io/instance-type": "r5.2xlarge" },
    });
    // head's TiFlash config: the operator takes it under config.config; base's switch removes it
    const switches = plan.text.split("\n").filter((l) => l.includes("[switch] PATCH"));
    const head = JSON.parse(
      / (\{"spec".*\})\s+#/.exec(switches.find((l) => l.includes("variant head,")) ?? "")?.[1] ?? "{}",
    );
    assert.deepEqual(head.spec.tiflash.config, { config: "[profiles.default]\nmax_threads = 8\n" });
    assert.deepEqual(Object.keys(head.spec), ["tiflash"], "only the role whose config differs rolls");
    const base = JSON.parse(
      / (\{"spec".*\})\s+#/.exec(switches.find((l) => l.includes("variant base,")) ?? "")?.[1] ?? "{}",
    );
    assert.equal(base.spec.tiflash.config, null);
    // read back through TiDB: TiFlash's status port is inside the cluster too
    assert.match(
      plan.text,
      /SHOW CONFIG WHERE type = 'tiflash' AND name IN \('profiles\.default\.max_threads'\)/,
    );
    // without TiFlash replicas the TidbCluster has none, and a restart patches the three components it has
    const side = await planRun(spec(join(dir, "k.yaml"), "compare: {rounds: 6, blocks: 3}\n"), {
      runId: "20261126T120000Z-k8s-unit-ef63",
    });
    const restart = side.text.split("\n").find((l) => l.includes("[restart] PATCH")) as string;
    assert.match(restart, /\{"spec":\{"pd":\{[^}]*\}\},"tikv":\{[^}]*\}\},"tidb":\{[^}]*\}\}\}\}/);
    assert.ok(!restart.includes("tiflash"));
    // a cluster tiperf creates has pools for PD, TiKV and TiDB only
    assert.throws(
      () =>
        parseProfile(
          `name: k
provider: kubernetes
kubernetes: {}
gcp: {project: p-1, region: us-central1}
roles:
  pd: {count: 1, instance_type: n1-standard-4}
  tikv: {count: 1, instance_type: c2-standard-16}
  tidb: {count: 1, instance_type: c2-standard-16}
  tiflash: {count: 1, instance_type: c2-standard-16}
`,
          "k.yaml",
        ),
      /roles\.tiflash\.count: the cluster the gcp section creates has node pools for PD, TiKV and TiDB only/,
    );
  });

  test("profile rules: the section, no hosts or HAProxy, a replica of each role", () => {
    assert.throws(
      () => parseProfile("name: k\nprovider: kubernetes\n", "k.yaml"),
      /k\.yaml:\d+: kubernetes: provider kubernetes needs a kubernetes section/,
    );
    assert.throws(
      () =>
        parseProfile(
          "name: k\nprovider: kubernetes\nkubernetes: {}\nhaproxy: true\nroles: {pd: {count: 1}, tikv: {count: 1}, tidb: {count: 1}}\n",
          "k.yaml",
        ),
      /haproxy: TiDB's Service balances the load on Kubernetes/,
    );
    assert.throws(
      () =>
        parseProfile(
          "name: k\nprovider: kubernetes\nkubernetes: {}\nroles: {pd: {count: 1}, tikv: {count: 0}, tidb: {count: 1}}\n",
          "k.yaml",
        ),
      /roles\.tikv\.count: a TidbCluster needs at least one tikv replica/,
    );
    assert.throws(
      () =>
        parseProfile(
          "name: k\nprovider: kubernetes\nkubernetes: {service: ClusterIP}\nroles: {pd: {count: 1}, tikv: {count: 1}, tidb: {count: 1}}\n",
          "k.yaml",
        ),
      /kubernetes\.service: must be LoadBalancer or NodePort/,
    );
    assert.throws(
      () =>
        parseProfile(
          "name: k\nprovider: kubernetes\nkubernetes: {storage: {tikv: lots}}\nroles: {pd: {count: 1}, tikv: {count: 1}, tidb: {count: 1}}\n",
          "k.yaml",
        ),
      /kubernetes\.storage\.tikv: must be a Kubernetes quantity/,
    );
    assert.throws(
      () =>
        parseProfile(
          "name: k\nprovider: hosts\nkubernetes: {}\nhosts: {pd: [a], tikv: [b], tidb: [c]}\n",
          "k.yaml",
        ),
      /kubernetes/,
    );
  });

  test("names: DNS labels from any run id; the operator's status, said plainly", () => {
    assert.equal(dnsLabel("20261126T120000Z-My_Spec--x-"), "20261126t120000z-my-spec-x");
    assert.equal(dnsLabel("a".repeat(80)).length, 63);
    assert.equal(namespaceOf("tiperf-x"), "tiperf-x");
    assert.equal(namespaceOf("run1"), "tiperf-run1");
    assert.equal(
      readiness({
        metadata: { name: "t" },
        status: {
          pd: { phase: "Normal" },
          tikv: { phase: "Scale" },
          conditions: [{ type: "Ready", status: "False", message: "tikv not up" }],
        },
      }),
      "pd Normal, tikv Scale, tidb no status; Ready False: tikv not up",
    );
    assert.equal(readiness(undefined), "no such TidbCluster");
  });
});

describe("kubeconfig: a context as kubectl reads it", () => {
  const write = (name: string, text: string) => {
    const f = join(dir, name);
    writeFileSync(f, text);
    return f;
  };
  test("token, CA data, exec plugin; the current context unless one is named", () => {
    const ca = Buffer.from("-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n").toString("base64");
    const file = write(
      "kc",
      `apiVersion: v1
current-context: a
clusters:
  - {name: c1, cluster: {server: "https://10.0.0.1:6443/", certificate-authority-data: ${ca}}}
  - {name: c2, cluster: {server: "https://gke.example", insecure-skip-tls-verify: true}}
users:
  - {name: u1, user: {token: abc}}
  - {name: u2, user: {exec: {command: gke-gcloud-auth-plugin, args: [--x], env: [{name: K, value: V}]}}}
contexts:
  - {name: a, context: {cluster: c1, user: u1, namespace: ns1}}
  - {name: b, context: {cluster: c2, user: u2}}
`,
    );
    const a = loadKubeContext({ kubeconfig: file, where: "p.yaml" });
    assert.equal(a.server, "https://10.0.0.1:6443");
    assert.equal(a.token, "abc");
    assert.equal(a.insecure, false);
    assert.match(a.ca?.toString() ?? "", /BEGIN CERTIFICATE/);
    assert.equal(a.namespace, "ns1");
    const b = loadKubeContext({ kubeconfig: file, context: "b", where: "p.yaml" });
    assert.equal(b.insecure, true);
    assert.deepEqual(b.exec, { command: "gke-gcloud-auth-plugin", args: ["--x"], env: { K: "V" } });
    assert.throws(
      () => loadKubeContext({ kubeconfig: file, context: "zz", where: "p.yaml" }),
      /p\.yaml: kubeconfig .*kc has no context zz \(contexts: a, b\)/,
    );
    assert.throws(
      () => loadKubeContext({ kubeconfig: join(dir, "missing"), where: "p.yaml" }),
      /p\.yaml: kubeconfig .*missing cannot be read/,
    );
  });
});
