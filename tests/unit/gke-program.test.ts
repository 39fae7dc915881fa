// The GKE Pulumi program (infra/pulumi/gke-cluster.ts) under pulumi.runtime.setMocks: no provider
// plugin, no cloud. Checks the cluster and its node pools per role (machine types, nodes per zone,
// labels), TiDB Operator's CRDs and chart, the run's labels on every GCP resource, the kubeconfig
// output; the resources are the ones `tiperf plan` lists; the sweep of a run's clusters through
// GKE's REST API against a local server; and the profile rules of a created cluster.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import * as pulumi from "@pulumi/pulumi";
import { GCP_CLOUD } from "../../action/src/cloud/gcp/index.ts";
import { gcpLabels } from "../../action/src/cloud/gcp/labels.ts";
import { removeGkeByLabel } from "../../action/src/cloud/gcp/sweep.ts";
import { runTags, tagsOf } from "../../action/src/cloud/tags.ts";
import { kubernetesAsk } from "../../action/src/targets/tidb/deployments/kubernetes/cluster.ts";
import { parseProfile } from "../../action/src/targets/tidb/load-profile.ts";
import { ROOT } from "../helpers/paths.ts";

interface Created {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
  provider?: string;
}

const created: Created[] = [];

before(() => {
  pulumi.runtime.setMocks(
    {
      newResource(args) {
        created.push({
          type: args.type,
          name: args.name,
          inputs: args.inputs,
          ...(args.provider ? { provider: args.provider } : {}),
        });
        const state: Record<string, unknown> = { ...args.inputs };
        if (args.type === "gcp:container/cluster:Cluster") {
          state.endpoint = "203.0.113.9";
          state.masterAuth = { clusterCaCertificate: "Q0EtREFUQQ==" };
        }
        if (args.type === "kubernetes:core/v1:Namespace") state.metadata = args.inputs.metadata;
        return { id: `${args.name}-id`, state };
      },
      call: (args) => args.inputs,
    },
    "tiperf",
    "test",
    false,
  );
});

const outputOf = <T>(o: pulumi.Output<T>): Promise<T> => new Promise((resolve) => o.apply(resolve));

const profileOf = (text: string) => parseProfile(text, "gke.yaml");
const SEED = "infra/profiles/seeds/000-gke-created.yaml";

async function up(profileText: string) {
  created.length = 0;
  const profile = profileOf(profileText);
  const ask = kubernetesAsk(profile);
  const tags = tagsOf(
    runTags(ask.settings, {
      runId: "20261126-230000-abcd",
      repository: "acme/tidb-configs",
      pr: "42",
      now: new Date("2026-11-26T23:00:00Z"),
    }),
  );
  const labels = GCP_CLOUD.labels(tags);
  const program = await GCP_CLOUD.program({ ask, labels });
  const outputs = (await program()) as { kubeconfig: pulumi.Output<string>; context: pulumi.Output<string> };
  const kubeconfig = await outputOf(outputs.kubeconfig);
  const context = await outputOf(outputs.context);
  await new Promise((r) => setTimeout(r, 50));
  return { ask, labels, kubeconfig, context, created: [...created] };
}

const seed = () => readFileSync(join(ROOT, SEED), "utf8");

describe("infra/pulumi/gke-cluster.ts (setMocks)", () => {
  test("seed 000 on a created cluster: a zonal cluster without its default pool, a pool per role and one for sysbench", async () => {
    const { created } = await up(seed());
    const cluster = created.find((c) => c.type === "gcp:container/cluster:Cluster") as Created;
    assert.equal(cluster.inputs.location, "us-central1-a");
    assert.equal(cluster.inputs.nodeLocations, undefined, "one zone: a zonal cluster");
    assert.equal(cluster.inputs.removeDefaultNodePool, true);
    assert.equal(cluster.inputs.deletionProtection, false, "destroy must be able to delete it");
    assert.equal(cluster.inputs.name, "tiperf-20261126-230000-abcd");
    const pools = created.filter((c) => c.type === "gcp:container/nodePool:NodePool");
    const byName = Object.fromEntries(
      pools.map((p) => [
        p.name,
        [(p.inputs.nodeConfig as { machineType: string }).machineType, p.inputs.nodeCount],
      ]),
    );
    assert.deepEqual(byName, {
      pd: ["n1-standard-4", 3],
      tikv: ["c2-standard-16", 3],
      tidb: ["c2-standard-16", 3],
      load: ["c2-standard-30", 1],
    });
    for (const p of pools) {
      assert.deepEqual(
        p.inputs.management,
        { autoRepair: false, autoUpgrade: false },
        `${p.name}: no upgrade mid-run`,
      );
      assert.equal(p.inputs.location, "us-central1-a");
      // the pool's name is the label GKE gives its nodes, which the manifests select
      assert.equal(p.inputs.name, p.name);
    }
    const release = created.find((c) => c.type === "kubernetes:helm.sh/v3:Release") as Created;
    assert.equal(release.inputs.chart, "tidb-operator");
    assert.equal(release.inputs.version, "v1.6.5");
    assert.deepEqual(release.inputs.repositoryOpts, { repo: "https://charts.pingcap.org/" });
    const crds = created.find((c) => c.type === "kubernetes:yaml/v2:ConfigFile") as Created;
    assert.equal(
      crds.inputs.file,
      "https://raw.githubusercontent.com/pingcap/tidb-operator/v1.6.5/manifests/crd.yaml",
    );
  });

  test("three zones: a regional cluster over them, each role's nodes spread evenly, the load node in the first; an uneven count refused", async () => {
    const three = seed()
      .replace("zones: [us-central1-a]", "zones: [us-central1-a, us-central1-b, us-central1-c]")
      .replace("budget: 60", "budget: 200");
    const { created } = await up(three);
    const cluster = created.find((c) => c.type === "gcp:container/cluster:Cluster") as Created;
    assert.equal(cluster.inputs.location, "us-central1");
    assert.deepEqual(cluster.inputs.nodeLocations, ["us-central1-a", "us-central1-b", "us-central1-c"]);
    const pd = created.find((c) => c.name === "pd") as Created;
    assert.equal(pd.inputs.nodeCount, 1, "3 PD nodes over 3 zones: 1 per zone");
    assert.deepEqual(pd.inputs.nodeLocations, ["us-central1-a", "us-central1-b", "us-central1-c"]);
    const load = created.find((c) => c.name === "load") as Created;
    assert.equal(load.inputs.nodeCount, 1);
    assert.deepEqual(load.inputs.nodeLocations, ["us-central1-a"]);
    await assert.rejects(
      up(three.replace("pd: { count: 3,", "pd: { count: 2,")),
      /roles\.pd\.count: 2 node\(s\) cannot be spread evenly over gcp\.zones \(us-central1-a, us-central1-b, us-central1-c\)/,
    );
  });

  test("the run's labels on every GCP resource, in GCP's form; the kubeconfig authenticates through gke-gcloud-auth-plugin", async () => {
    const { created, labels, kubeconfig, context } = await up(seed());
    assert.deepEqual(labels, {
      "tiperf-run-id": "20261126-230000-abcd",
      "tiperf-expires-at": "2026-11-27t05-00-00z",
      "tiperf-repository": "acme_tidb-configs",
      "tiperf-pr": "42",
    });
    const provider = created.find((c) => c.type === "pulumi:providers:gcp") as Created;
    assert.deepEqual(JSON.parse(String(provider.inputs.defaultLabels)), labels);
    for (const c of created.filter((x) => x.type.startsWith("gcp:")))
      assert.match(
        c.provider ?? "",
        /::pulumi:providers:gcp::gcp::/,
        `${c.name} uses the labelling provider`,
      );
    const pool = created.find((c) => c.name === "tikv") as Created;
    assert.deepEqual((pool.inputs.nodeConfig as { resourceLabels: unknown }).resourceLabels, labels);
    assert.equal(context, "gke_tiperf-bench_us-central1-a_tiperf-20261126-230000-abcd");
    assert.match(kubeconfig, /server: https:\/\/203\.0\.113\.9\n/);
    assert.match(kubeconfig, /certificate-authority-data: Q0EtREFUQQ==\n/);
    assert.match(kubeconfig, /command: gke-gcloud-auth-plugin\n/);
    assert.match(kubeconfig, new RegExp(`current-context: ${context}\\n`));
  });

  test("the resources are the ones tiperf plan lists, in kind and number", async () => {
    const { ask, created } = await up(seed());
    const want = new Map<string, number>();
    for (const r of GCP_CLOUD.resources(ask)) want.set(r.type, (want.get(r.type) ?? 0) + r.count);
    const got = new Map<string, number>();
    for (const c of created)
      if (!c.type.startsWith("pulumi:providers:")) got.set(c.type, (got.get(c.type) ?? 0) + 1);
    assert.deepEqual(Object.fromEntries(got), Object.fromEntries(want));
  });
});

describe("a created Kubernetes cluster: profile rules, prices, the sweep", () => {
  test("a context, node selectors or a missing machine type beside a gcp section are refused, naming the key", () => {
    const base = seed();
    assert.throws(
      () => profileOf(base.replace("  host_network: false", "  host_network: false\n  context: gke_x")),
      /kubernetes\.context.*names a cluster of yours, but the gcp section makes tiperf create one/s,
    );
    assert.throws(
      () =>
        profileOf(
          base.replace("  host_network: false", "  host_network: false\n  node_selector: {pd: {pool: a}}"),
        ),
      /kubernetes\.node_selector.*each role has a node pool of its own, selected by cloud\.google\.com\/gke-nodepool/s,
    );
    assert.throws(
      () => profileOf(base.replace("pd: { count: 3, instance_type: n1-standard-4 }", "pd: { count: 3 }")),
      /roles\.pd\.instance_type.*creates a node pool of pd: name its machine type/s,
    );
    assert.throws(
      () => profileOf(base.replace("zones: [us-central1-a]", "zones: [europe-west4-a]")),
      /gcp\.zones\[0\]: must be a zone of us-central1/,
    );
  });

  test("prices: machine types, boot disks, the claimed volumes and GKE's fee; an unpriced type names where to add it", () => {
    const ask = kubernetesAsk(profileOf(seed()));
    const lines = Object.fromEntries(GCP_CLOUD.prices(ask).lines.map((l) => [l.what, l.count]));
    assert.deepEqual(lines, {
      "n1-standard-4": 3,
      "c2-standard-16": 6,
      "c2-standard-30": 1,
      "pd-balanced GB": 1000,
      "volume GB": 3 * 10 + 3 * 375,
      "GKE cluster": 1,
    });
    const odd = kubernetesAsk(
      profileOf(seed().replace("instance_type: n1-standard-4", "instance_type: n9-weird-4")),
    );
    assert.throws(
      () => GCP_CLOUD.prices(odd),
      /roles\.pd\.instance_type: machine type n9-weird-4 has no price in infra\/prices\/gcp\.ts/,
    );
  });

  test("the sweep deletes, through GKE's API, the clusters labelled with the run and nothing else", async () => {
    const deleted: string[] = [];
    let auth = "";
    const server = createServer((req, res) => {
      auth = req.headers.authorization ?? "";
      if (req.method === "GET" && req.url === "/v1/projects/tiperf-bench/locations/-/clusters") {
        res.setHeader("content-type", "application/json");
        res.end(
          JSON.stringify({
            clusters: [
              {
                name: "tiperf-mine",
                location: "us-central1-a",
                resourceLabels: gcpLabels({ "tiperf:run-id": "20261126-230000-abcd" }),
              },
              {
                name: "tiperf-other",
                location: "us-central1",
                resourceLabels: { "tiperf-run-id": "20261126-010000-ffff" },
              },
              { name: "prod", location: "us-central1-b" },
            ],
          }),
        );
        return;
      }
      if (req.method === "DELETE") {
        deleted.push(req.url ?? "");
        res.end("{}");
        return;
      }
      res.statusCode = 404;
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const port = (server.address() as AddressInfo).port;
      const log: string[] = [];
      const gone = await removeGkeByLabel({
        project: "tiperf-bench",
        runId: "20261126-230000-abcd",
        endpoint: `http://127.0.0.1:${port}`,
        token: "tok",
        log: (l) => log.push(l),
      });
      assert.deepEqual(gone, ["container cluster tiperf-mine"]);
      assert.deepEqual(deleted, ["/v1/projects/tiperf-bench/locations/us-central1-a/clusters/tiperf-mine"]);
      assert.equal(auth, "Bearer tok");
      assert.match(
        log.join("\n"),
        /GKE cluster tiperf-mine \(us-central1-a\) of run 20261126-230000-abcd deleted/,
      );
    } finally {
      server.close();
    }
  });
});
