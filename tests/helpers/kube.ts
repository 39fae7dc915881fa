// A real Kubernetes API server for the tests: Debian's etcd (private data directory and ports) and
// kube-apiserver built by scripts/setup.sh --test into .tools/bin, serving HTTPS on 127.0.0.1 with
// a self-signed certificate, a static token and AlwaysAllow. No controller manager, scheduler or
// kubelet: the stand-in operator (stand-ins/tidb-operator.mjs) plays what tiperf's objects need.
// TiDB Operator's TidbCluster CRD is written here from the operator's documented v1alpha1 API (the
// fields tiperf sets and reads), not copied from its repository.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { KubeClient, KubeError } from "../../action/src/kubernetes/client.ts";
import { freePort } from "../../action/src/proc/port.ts";
import { ROOT } from "./paths.ts";

export const KUBE_APISERVER = join(ROOT, ".tools", "bin", "kube-apiserver");
export const haveKube = () => existsSync(KUBE_APISERVER) && existsSync("/usr/bin/etcd");

export interface Kube {
  server: string;
  token: string;
  kubeconfig: string;
  dir: string;
  /** A request with the test's token (a user in system:masters); 2xx answers as status 200. */
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  stop(): Promise<void>;
}

/** The TidbCluster CRD: group pingcap.com, v1alpha1, namespaced. */
export function tidbClusterCrd() {
  const component = (extra: Record<string, unknown> = {}) => ({
    type: "object",
    properties: {
      baseImage: { type: "string" },
      replicas: { type: "integer", format: "int32", minimum: 0 },
      requests: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
      storageClassName: { type: "string" },
      nodeSelector: { type: "object", additionalProperties: { type: "string" } },
      hostNetwork: { type: "boolean" },
      // the pods' annotations (tidb.pingcap.com/restartedAt: the operator's rolling restart)
      annotations: { type: "object", additionalProperties: { type: "string" } },
      // a TOML string, or the same as a map (the operator takes either)
      config: { "x-kubernetes-preserve-unknown-fields": true },
      ...extra,
    },
    required: ["replicas"],
  });
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "tidbclusters.pingcap.com" },
    spec: {
      group: "pingcap.com",
      scope: "Namespaced",
      names: { plural: "tidbclusters", singular: "tidbcluster", kind: "TidbCluster", shortNames: ["tc"] },
      versions: [
        {
          name: "v1alpha1",
          served: true,
          storage: true,
          // as the operator's v1 CRD: no status subresource (the operator updates the whole object)
          schema: {
            openAPIV3Schema: {
              type: "object",
              properties: {
                apiVersion: { type: "string" },
                kind: { type: "string" },
                metadata: { type: "object" },
                spec: {
                  type: "object",
                  properties: {
                    version: { type: "string" },
                    timezone: { type: "string" },
                    pvReclaimPolicy: { type: "string", enum: ["Retain", "Delete", "Recycle"] },
                    configUpdateStrategy: { type: "string", enum: ["InPlace", "RollingUpdate"] },
                    enableDynamicConfiguration: { type: "boolean" },
                    hostNetwork: { type: "boolean" },
                    pd: component(),
                    tikv: component(),
                    // as the operator's v1 CRD: volumes as storageClaims, the TOML under config.config
                    tiflash: {
                      ...component({
                        storageClaims: {
                          type: "array",
                          items: {
                            type: "object",
                            properties: {
                              resources: {
                                type: "object",
                                properties: {
                                  requests: { type: "object", additionalProperties: { type: "string" } },
                                },
                              },
                              storageClassName: { type: "string" },
                            },
                          },
                        },
                        config: {
                          type: "object",
                          properties: {
                            config: { "x-kubernetes-preserve-unknown-fields": true },
                            proxy: { "x-kubernetes-preserve-unknown-fields": true },
                          },
                        },
                      }),
                      required: ["replicas", "storageClaims"],
                    },
                    tidb: component({
                      service: {
                        type: "object",
                        properties: {
                          type: { type: "string", enum: ["ClusterIP", "NodePort", "LoadBalancer"] },
                          exposeStatus: { type: "boolean" },
                        },
                      },
                    }),
                  },
                },
                status: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
              },
            },
          },
        },
      ],
    },
  };
}

async function waitFor(what: string, ok: () => Promise<boolean>, child: ChildProcess, log: () => string) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}): ${log().slice(-2000)}`);
    if (await ok().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} not up within 120s: ${log().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function stopChild(c: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (c.exitCode !== null || c.signalCode !== null) return resolve();
    const kill = setTimeout(() => c.kill("SIGKILL"), 10_000);
    c.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    c.kill("SIGTERM");
  });
}

export async function startKube(): Promise<Kube> {
  const dir = mkdtempSync(join(tmpdir(), "tiperf-test-kube-"));
  const children: ChildProcess[] = [];
  const logs: Record<string, string> = { etcd: "", apiserver: "" };
  const stop = async () => {
    for (const c of children.reverse()) await stopChild(c);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const [etcdPort, peer, secure] = [await freePort(), await freePort(), await freePort()];
    const etcd = spawn(
      "/usr/bin/etcd",
      [
        "--name",
        "tiperf-test",
        "--data-dir",
        join(dir, "etcd"),
        "--listen-client-urls",
        `http://127.0.0.1:${etcdPort}`,
        "--advertise-client-urls",
        `http://127.0.0.1:${etcdPort}`,
        "--listen-peer-urls",
        `http://127.0.0.1:${peer}`,
        "--initial-advertise-peer-urls",
        `http://127.0.0.1:${peer}`,
        "--initial-cluster",
        `tiperf-test=http://127.0.0.1:${peer}`,
      ],
      {
        stdio: ["ignore", "ignore", "pipe"],
        env: { PATH: process.env.PATH ?? "", ETCD_UNSUPPORTED_ARCH: "" },
      },
    );
    children.push(etcd);
    etcd.stderr?.on("data", (d) => {
      logs.etcd = (logs.etcd + d).slice(-20_000);
    });
    await waitFor(
      "etcd",
      async () => (await fetch(`http://127.0.0.1:${etcdPort}/health`)).ok,
      etcd,
      () => logs.etcd ?? "",
    );
    // the service account signing key (the API server needs one), a token for the tests and tiperf
    execFileSync("openssl", ["genrsa", "-out", join(dir, "sa.key"), "2048"], { stdio: "ignore" });
    execFileSync("openssl", ["rsa", "-in", join(dir, "sa.key"), "-pubout", "-out", join(dir, "sa.pub")], {
      stdio: "ignore",
    });
    const token = `tiperf-test-${Math.random().toString(36).slice(2)}`;
    writeFileSync(join(dir, "tokens.csv"), `${token},tiperf-test,1,"system:masters"\n`);
    const apiserver = spawn(
      KUBE_APISERVER,
      [
        `--etcd-servers=http://127.0.0.1:${etcdPort}`,
        "--bind-address=127.0.0.1",
        "--advertise-address=127.0.0.1",
        `--secure-port=${secure}`,
        `--cert-dir=${join(dir, "certs")}`,
        `--token-auth-file=${join(dir, "tokens.csv")}`,
        "--authorization-mode=AlwaysAllow",
        "--service-account-issuer=https://kubernetes.default.svc",
        `--service-account-key-file=${join(dir, "sa.pub")}`,
        `--service-account-signing-key-file=${join(dir, "sa.key")}`,
        "--service-cluster-ip-range=10.96.0.0/24",
        "--enable-priority-and-fairness=false",
        "--disable-admission-plugins=ServiceAccount",
        "--profiling=false",
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    children.push(apiserver);
    apiserver.stderr?.on("data", (d) => {
      logs.apiserver = (logs.apiserver + d).slice(-50_000);
    });
    const server = `https://127.0.0.1:${secure}`;
    const caFile = join(dir, "certs", "apiserver.crt");
    let client: KubeClient | undefined;
    const api = async <T = unknown>(method: string, path: string, body?: unknown) => {
      client ??= new KubeClient({
        file: "test",
        context: "test",
        server,
        insecure: false,
        ca: readFileSync(caFile),
        token,
      });
      try {
        return { status: 200, body: await client.request<T>(method as "GET", path, body) };
      } catch (e) {
        if (e instanceof KubeError) return { status: e.status, body: { message: e.message } as T };
        throw e;
      }
    };
    await waitFor(
      "kube-apiserver",
      async () => existsSync(caFile) && (await api("GET", "/api/v1/namespaces/default")).status === 200,
      apiserver,
      () => logs.apiserver ?? "",
    );
    const crd = await api(
      "POST",
      "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
      tidbClusterCrd(),
    );
    if (crd.status !== 200) throw new Error(`CRD not created: ${JSON.stringify(crd.body)}`);
    // served once Established
    const deadline = Date.now() + 60_000;
    for (;;) {
      const r = await api("GET", "/apis/pingcap.com/v1alpha1/tidbclusters");
      if (r.status === 200) break;
      if (Date.now() > deadline) throw new Error("the TidbCluster CRD was not served within 60s");
      await new Promise((res) => setTimeout(res, 250));
    }
    const kubeconfig = join(dir, "kubeconfig");
    writeFileSync(
      kubeconfig,
      stringify({
        apiVersion: "v1",
        kind: "Config",
        "current-context": "tiperf-test",
        clusters: [
          {
            name: "tiperf-test",
            cluster: {
              server,
              "certificate-authority-data": readFileSync(join(dir, "certs", "apiserver.crt")).toString(
                "base64",
              ),
            },
          },
        ],
        users: [{ name: "tiperf-test", user: { token } }],
        contexts: [{ name: "tiperf-test", context: { cluster: "tiperf-test", user: "tiperf-test" } }],
      }),
    );
    return { server, token, kubeconfig, dir, api, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
