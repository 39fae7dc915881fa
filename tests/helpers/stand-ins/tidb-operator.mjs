#!/usr/bin/env node
// TEST-ONLY STAND-IN for TiDB Operator and the nodes it would run on, beside a real kube-apiserver
// (tests/helpers/kube.ts), so tiperf's Kubernetes path can be tested where neither the operator nor
// TiDB exist. It watches (polls) the namespaces labelled app.kubernetes.io/managed-by=tiperf: for
// each TidbCluster it starts a private MariaDB in TiDB's place (tidb_version() answers the spec's
// version), serves TiDB's /status and /config (from spec.tidb.config's TOML) on a port of its own,
// creates the <cluster>-tidb Service with those two ports (LoadBalancer: its status gets the
// ingress 127.0.0.1) and reports the cluster Ready in its status, as the operator does (the
// whole object updated: its v1 CRD has no status subresource), each role's StatefulSet revisions
// in it; a new tidb.pingcap.com/restartedAt annotation or a changed config of any role rolls it
// (not Ready, a new revision, its MariaDB restarted on the same data, /config serving the new
// spec.tidb.config, Ready on the new revision). TiDB's SQL port is a front (tidb-sql.mjs) that
// answers SET CONFIG (recorded until the next roll; DIR/refuse-set-config names an item answered
// with a warning, DIR/ignore-set-config one answered OK and never applied) and SHOW CONFIG of PD
// and TiKV items (an instance per replica, values from the role's spec config and what SET CONFIG
// changed). A deleted TidbCluster's server is
// stopped; a namespace being deleted is emptied and finalized (the namespace controller's part).
// It also plays one node and its kubelet (and the scheduler, kube-dns and kube-proxy as far as
// tiperf's load pods need them): a Node `stand-in-node` with the labels of --node-labels, whose
// kubelet endpoint is an HTTPS server here; a pod of a tiperf namespace whose nodeSelector the
// node matches is bound to it and its command run on this machine — the Service name
// <cluster>-tidb.<ns>.svc and port 4000 in its arguments (sysbench's --mysql-host/--mysql-port)
// stand for that cluster's MariaDB — its output served at /containerLogs (follow=true streams
// it), its exit code written into the pod's status; a pod it cannot place is left Pending,
// Unschedulable; a deleted pod's process gets SIGTERM. It measures nothing of TiDB.
//
//   node tidb-operator.mjs --server URL --token TOKEN --ca FILE --dir DIR [--node-labels k=v,…]
// A file DIR/refuse-ready, if present, holds a cluster name that never becomes Ready.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { createServer as createHttps, request } from "node:https";
import { createServer as createNet } from "node:net";
import { join } from "node:path";
import { tidbSqlFront } from "./tidb-sql.mjs";

const arg = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0 || !process.argv[i + 1]) {
    process.stderr.write(`stand-in operator: --${name} is required\n`);
    process.exit(2);
  }
  return process.argv[i + 1];
};
const server = arg("server");
const token = arg("token");
const ca = readFileSync(arg("ca"));
const dir = arg("dir");
const nodeLabelsArg = process.argv.includes("--node-labels") ? arg("node-labels") : "";
const nodeLabels = Object.fromEntries(
  nodeLabelsArg
    .split(",")
    .filter(Boolean)
    .map((kv) => kv.split("=")),
);
const log = (line) => process.stderr.write(`stand-in operator: ${line}\n`);

function api(method, path, body) {
  return new Promise((resolve, reject) => {
    const url = new URL(server + path);
    const req = request(
      url,
      {
        method,
        ca,
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          accept: "application/json",
        },
        timeout: 10_000,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => {
          text += d;
        });
        res.on("end", () => resolve({ status: res.statusCode, body: text ? JSON.parse(text) : {} }));
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const freePort = () =>
  new Promise((resolve) => {
    const s = createNet();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** TOML as tiperf writes it ([a.b] sections, key = value lines) into nested objects. */
function parseToml(text) {
  const out = {};
  let at = out;
  for (const raw of (text ?? "").split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const section = /^\[(.+)\]$/.exec(line);
    if (section) {
      at = out;
      for (const part of section[1].split(".")) at = at[part.replace(/"/g, "")] ??= {};
      continue;
    }
    const kv = /^("?[^=]+?"?)\s*=\s*(.+)$/.exec(line);
    if (!kv) continue;
    const key = kv[1].replace(/"/g, "");
    const v = kv[2];
    at[key] = v.startsWith('"')
      ? JSON.parse(v)
      : v === "true"
        ? true
        : v === "false"
          ? false
          : Number.isNaN(Number(v))
            ? v
            : Number(v);
  }
  return out;
}

/** Running clusters: "<ns>/<name>" → { mariadb, http, dataDir }. */
const running = new Map();

/** The cluster's MariaDB (TiDB's stand-in) on its data directory and port, up when SELECT 1 answers. */
async function startMariadb(entry) {
  const root = process.getuid() === 0 ? ["--user=root"] : [];
  const bin = existsSync("/usr/sbin/mariadbd") ? "/usr/sbin/mariadbd" : "/usr/sbin/mysqld";
  entry.mariadb = spawn(
    bin,
    [
      "--no-defaults",
      `--datadir=${join(entry.dataDir, "mariadb")}`,
      `--port=${entry.port}`,
      "--bind-address=127.0.0.1",
      `--socket=${join(entry.dataDir, "mysqld.sock")}`,
      "--max-connections=500",
      ...root,
    ],
    { stdio: "ignore" },
  );
  for (let i = 0; ; i++) {
    try {
      execFileSync(
        "mariadb",
        ["--no-defaults", "-h", "127.0.0.1", "-P", String(entry.port), "-u", "root", "-e", "SELECT 1"],
        { stdio: "pipe" },
      );
      return;
    } catch {
      if (i > 300) throw new Error("the stand-in's MariaDB did not start");
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function stopMariadb(entry) {
  if (entry.mariadb && entry.mariadb.exitCode === null)
    await new Promise((r) => {
      entry.mariadb.once("exit", r);
      entry.mariadb.kill("SIGTERM");
    });
}

const ROLES = ["pd", "tikv", "tidb", "tiflash"];
/** The components a TidbCluster has (TiFlash only when its spec names it). */
const rolesOf = (tc) => ROLES.filter((r) => tc.spec?.[r]);
/** A role's TOML in the spec (TiFlash's under config.config). */
const tomlOf = (tc, r) => (r === "tiflash" ? tc.spec?.tiflash?.config?.config : tc.spec?.[r]?.config);
/**
 * What of a TidbCluster's spec makes the operator roll a component when it changes: each role's
 * restart annotation and config (configUpdateStrategy: RollingUpdate).
 */
const rollKey = (tc) =>
  JSON.stringify(
    rolesOf(tc).map((r) => [
      tc.spec?.[r]?.annotations?.["tidb.pingcap.com/restartedAt"] ?? "",
      tomlOf(tc, r) ?? "",
    ]),
  );
/** A nested config as SHOW CONFIG names its items: dotted keys. */
const flatten = (o, at = "") =>
  Object.entries(o).flatMap(([k, v]) =>
    v && typeof v === "object" && !Array.isArray(v) ? flatten(v, `${at}${k}.`) : [[`${at}${k}`, v]],
  );
/** Each role's items as the spec configures them (what fresh pods start with). */
const specConfigs = (tc) =>
  Object.fromEntries(rolesOf(tc).map((r) => [r, Object.fromEntries(flatten(parseToml(tomlOf(tc, r))))]));
const PORTS = { pd: 2379, tikv: 20160, tidb: 4000, tiflash: 3930 };

/** The SQL front of a cluster: SET CONFIG recorded (or refused, or ignored), SHOW CONFIG answered. */
function sqlFront(entry, tc) {
  const ns = tc.metadata.namespace;
  const name = tc.metadata.name;
  const told = (file, item) =>
    existsSync(join(dir, file)) && readFileSync(join(dir, file), "utf8").trim() === item;
  return tidbSqlFront({
    upstream: () => entry.port,
    set: (role, item, value) => {
      log(`${ns}/${name}: SET CONFIG ${role} ${item} = ${value}`);
      if (told("refuse-set-config", item)) return `${role} ${item} cannot be changed online (told to refuse)`;
      if (told("ignore-set-config", item)) return undefined;
      entry.online[role] = { ...entry.online[role], [item]: value };
      return undefined;
    },
    show: (role, items) => {
      const values = { ...entry.spec[role], ...entry.online[role] };
      const replicas = entry.replicas[role] ?? 0;
      return Array.from(
        { length: replicas },
        (_, i) => `${name}-${role}-${i}.${name}-${role}-peer.${ns}.svc:${PORTS[role] ?? 0}`,
      ).flatMap((instance) =>
        items
          .filter((item) => values[item] !== undefined)
          .map((item) => ({ type: role, instance, name: item, value: String(values[item]) })),
      );
    },
  });
}

/** TiDB's /config answer of a TidbCluster's spec (its TOML, with the ports). */
const tidbConfig = (tc) => ({ ...parseToml(tc.spec?.tidb?.config), port: 4000, "status-port": 10080 });
/** Each role's status with its StatefulSet on revision `current`, rolling to `update`. */
const roleStatus = (tc, name, phase, current, update) =>
  Object.fromEntries(
    rolesOf(tc).map((r) => [
      r,
      {
        phase,
        statefulSet: { currentRevision: `${name}-${r}-${current}`, updateRevision: `${name}-${r}-${update}` },
      },
    ]),
  );

/** The TidbCluster's status written (the whole object: its CRD has no status subresource); retried on a conflict. */
async function writeStatus(ns, name, status) {
  for (let i = 0; i < 20; i++) {
    const fresh = await api("GET", `/apis/pingcap.com/v1alpha1/namespaces/${ns}/tidbclusters/${name}`);
    if (fresh.status !== 200) return;
    const obj = fresh.body;
    obj.status = status;
    const st = await api("PUT", `/apis/pingcap.com/v1alpha1/namespaces/${ns}/tidbclusters/${name}`, obj);
    if (st.status === 200) return;
    if (st.status !== 409) throw new Error(`TidbCluster status: ${JSON.stringify(st.body)}`);
  }
  throw new Error(`TidbCluster ${ns}/${name} status: conflicts 20 times`);
}

/**
 * The operator's graceful rolling restart (a new tidb.pingcap.com/restartedAt): each StatefulSet
 * gets a new revision, the cluster is Upgrading and not Ready while the pods roll — here, the
 * MariaDB restarted on its data — then every role on the new revision and Ready again.
 */
async function rollCluster(tc) {
  const ns = tc.metadata.namespace;
  const name = tc.metadata.name;
  const entry = running.get(`${ns}/${name}`);
  entry.rollKey = rollKey(tc);
  const next = entry.revision + 1;
  await writeStatus(ns, name, {
    ...roleStatus(tc, name, "Upgrade", entry.revision, next),
    conditions: [
      {
        type: "Ready",
        status: "False",
        reason: "TiDBStatefulSetNotUpToDate",
        message: "rolling restart (stand-in)",
        lastTransitionTime: new Date().toISOString(),
      },
    ],
  });
  await stopMariadb(entry);
  await new Promise((r) => setTimeout(r, 1000)); // the pods take a while to roll
  await startMariadb(entry);
  entry.config = tidbConfig(tc);
  // fresh pods: the spec's config, nothing set online
  entry.spec = specConfigs(tc);
  entry.online = {};
  entry.revision = next;
  await writeStatus(ns, name, {
    ...roleStatus(tc, name, "Normal", next, next),
    conditions: [
      {
        type: "Ready",
        status: "True",
        reason: "Ready",
        message: "TiDB cluster is fully up and running (stand-in)",
        lastTransitionTime: new Date().toISOString(),
      },
    ],
  });
  log(`${ns}/${name}: rolled to revision ${next}; TiDB (MariaDB) on 127.0.0.1:${entry.port} again`);
}

async function startCluster(tc) {
  const ns = tc.metadata.namespace;
  const name = tc.metadata.name;
  const key = `${ns}/${name}`;
  const version = tc.spec?.version ?? "v0.0.0";
  const dataDir = join(dir, `${ns}-${name}`);
  mkdirSync(dataDir, { recursive: true });
  const entry = {
    dataDir,
    mariadb: undefined,
    http: undefined,
    port: 0,
    revision: 1,
    rollKey: rollKey(tc),
    config: tidbConfig(tc),
    spec: specConfigs(tc),
    online: {},
    replicas: Object.fromEntries(rolesOf(tc).map((r) => [r, tc.spec?.[r]?.replicas ?? 1])),
    front: undefined,
  };
  running.set(key, entry);
  // a cluster told to refuse says so at once, as the operator would while its pods come up: the
  // run's ready_timeout then meets that status, however long the MariaDB below takes to start
  const refused =
    existsSync(join(dir, "refuse-ready")) && readFileSync(join(dir, "refuse-ready"), "utf8").trim() === name;
  if (refused) await writeStatus(ns, name, startedStatus(tc, name, true));
  const port = await freePort();
  entry.port = port;
  const statusPort = await freePort();
  const db = join(dataDir, "mariadb");
  const root = process.getuid() === 0 ? ["--user=root"] : [];
  execFileSync(
    "mariadb-install-db",
    [
      "--no-defaults",
      `--datadir=${db}`,
      "--auth-root-authentication-method=normal",
      "--skip-test-db",
      ...root,
    ],
    { stdio: "ignore" },
  );
  await startMariadb(entry);
  const sql = (q) =>
    execFileSync("mariadb", ["--no-defaults", "-h", "127.0.0.1", "-P", String(port), "-u", "root", "-e", q], {
      stdio: "pipe",
    });
  sql(
    `CREATE OR REPLACE FUNCTION mysql.tidb_version() RETURNS TEXT RETURN 'Release Version: ${version}\nEdition: Community\nGit Commit Hash: stand-in\nStore: tikv'`,
  );
  entry.http = createServer((req, res) => {
    const body =
      req.url === "/status"
        ? { connections: 0, version: `8.0.11-TiDB-${version}`, git_hash: "stand-in" }
        : req.url === "/config"
          ? entry.config
          : undefined;
    res.writeHead(body ? 200 : 404, { "content-type": "application/json" });
    res.end(JSON.stringify(body ?? { error: "not found" }));
  });
  await new Promise((r) => entry.http.listen(statusPort, "127.0.0.1", r));
  entry.front = await sqlFront(entry, tc);
  const sqlPort = entry.front.address().port;
  const type = tc.spec?.tidb?.service?.type ?? "ClusterIP";
  const svc = await api("POST", `/api/v1/namespaces/${ns}/services`, {
    apiVersion: "v1",
    kind: "Service",
    metadata: {
      name: `${name}-tidb`,
      labels: { "app.kubernetes.io/instance": name, "app.kubernetes.io/component": "tidb" },
    },
    spec: {
      type,
      selector: { "app.kubernetes.io/instance": name, "app.kubernetes.io/component": "tidb" },
      ports: [
        { name: "mysql-client", port: sqlPort, targetPort: 4000, protocol: "TCP" },
        { name: "status", port: statusPort, targetPort: 10080, protocol: "TCP" },
      ],
    },
  });
  if (svc.status !== 201) throw new Error(`Service ${name}-tidb: ${JSON.stringify(svc.body)}`);
  if (type === "LoadBalancer") {
    const s = svc.body;
    s.status = { loadBalancer: { ingress: [{ ip: "127.0.0.1" }] } };
    const put = await api("PUT", `/api/v1/namespaces/${ns}/services/${name}-tidb/status`, s);
    if (put.status !== 200) throw new Error(`Service status: ${JSON.stringify(put.body)}`);
  }
  await writeStatus(ns, name, startedStatus(tc, name, refused));
  log(
    `${key}: ${refused ? "kept not Ready" : "Ready"}; TiDB (MariaDB) on 127.0.0.1:${port} (its SQL front ${sqlPort}), status ${statusPort}`,
  );
}

/** A started cluster's status: every role Normal and Ready, or (refused) TiDB kept in Upgrade, not Ready. */
function startedStatus(tc, name, refused) {
  const now = new Date().toISOString();
  const status = roleStatus(tc, name, "Normal", 1, 1);
  if (refused) status.tidb.phase = "Upgrade";
  return {
    ...status,
    conditions: [
      refused
        ? {
            type: "Ready",
            status: "False",
            reason: "TiDBStatefulSetNotUpToDate",
            message: "tidb statefulset is not up to date (stand-in told to refuse)",
            lastTransitionTime: now,
          }
        : {
            type: "Ready",
            status: "True",
            reason: "Ready",
            message: "TiDB cluster is fully up and running (stand-in)",
            lastTransitionTime: now,
          },
    ],
  };
}

async function stopCluster(key) {
  const entry = running.get(key);
  if (!entry) return;
  running.delete(key);
  entry.http?.close();
  entry.front?.close();
  await stopMariadb(entry);
  rmSync(entry.dataDir, { recursive: true, force: true });
  log(`${key}: stopped`);
}

let busy = false;
async function tick() {
  if (busy) return;
  busy = true;
  try {
    const list = await api(
      "GET",
      `/api/v1/namespaces?labelSelector=${encodeURIComponent("app.kubernetes.io/managed-by=tiperf")}`,
    );
    const seen = new Set();
    for (const ns of list.body.items ?? []) {
      const name = ns.metadata.name;
      const tcs = await api("GET", `/apis/pingcap.com/v1alpha1/namespaces/${name}/tidbclusters`);
      for (const tc of tcs.body.items ?? []) {
        const key = `${name}/${tc.metadata.name}`;
        seen.add(key);
        if (ns.metadata.deletionTimestamp)
          await api(
            "DELETE",
            `/apis/pingcap.com/v1alpha1/namespaces/${name}/tidbclusters/${tc.metadata.name}`,
          );
        else if (!running.has(key)) await startCluster(tc).catch((e) => log(`${key}: ${e.message}`));
        else if (running.get(key).port && rollKey(tc) !== running.get(key).rollKey)
          await rollCluster(tc).catch((e) => log(`${key}: ${e.message}`));
      }
      if (!ns.metadata.deletionTimestamp)
        await podsOf(name).catch((e) => log(`pods of ${name}: ${e.message}`));
      if (ns.metadata.deletionTimestamp) {
        // the namespace controller's part: empty it, then finalize
        const svcs = await api("GET", `/api/v1/namespaces/${name}/services`);
        for (const s of svcs.body.items ?? [])
          await api("DELETE", `/api/v1/namespaces/${name}/services/${s.metadata.name}`);
        const pods = await api("GET", `/api/v1/namespaces/${name}/pods`);
        for (const p of pods.body.items ?? []) {
          stopPod(`${name}/${p.metadata.name}`);
          await api("DELETE", `/api/v1/namespaces/${name}/pods/${p.metadata.name}?gracePeriodSeconds=0`);
        }
        if (
          (tcs.body.items ?? []).length === 0 &&
          (svcs.body.items ?? []).length === 0 &&
          (pods.body.items ?? []).length === 0
        ) {
          ns.spec = { finalizers: [] };
          await api("PUT", `/api/v1/namespaces/${name}/finalize`, ns);
        }
      }
    }
    for (const key of [...running.keys()]) if (!seen.has(key)) await stopCluster(key);
  } catch (e) {
    log(e.message);
  } finally {
    busy = false;
  }
}

// --- the node, its kubelet, and what a load pod needs of the cluster's network ---------------------

const NODE = "stand-in-node";
/** Pods run here: "<ns>/<pod>" → { child, output, exited, code, listeners }. */
const pods = new Map();

function kubeletCert() {
  const key = join(dir, "kubelet.key");
  const cert = join(dir, "kubelet.crt");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      key,
      "-out",
      cert,
      "-days",
      "1",
      "-subj",
      "/CN=stand-in-kubelet",
    ],
    { stdio: "ignore" },
  );
  return { key: readFileSync(key), cert: readFileSync(cert) };
}

/** GET /containerLogs/<ns>/<pod>/<container>[?follow=true]: what the pod printed (streamed until it exits). */
const kubelet = createHttps(kubeletCert(), (req, res) => {
  const url = new URL(req.url, "https://stand-in");
  const m = /^\/containerLogs\/([^/]+)\/([^/]+)\/[^/]+$/.exec(url.pathname);
  const pod = m ? pods.get(`${m[1]}/${m[2]}`) : undefined;
  if (!pod) {
    res.writeHead(404);
    res.end("no such container here");
    return;
  }
  res.writeHead(200, { "content-type": "text/plain" });
  res.write(pod.output);
  if (pod.exited || url.searchParams.get("follow") !== "true") {
    res.end();
    return;
  }
  const listener = (chunk) => (chunk === null ? res.end() : res.write(chunk));
  pod.listeners.add(listener);
  res.on("close", () => pod.listeners.delete(listener));
});
const kubeletPort = await freePort();
await new Promise((r) => kubelet.listen(kubeletPort, "127.0.0.1", r));

async function registerNode() {
  const created = await api("POST", "/api/v1/nodes", {
    apiVersion: "v1",
    kind: "Node",
    metadata: { name: NODE, labels: { "kubernetes.io/hostname": NODE, ...nodeLabels } },
  });
  if (created.status !== 201) throw new Error(`Node: ${JSON.stringify(created.body)}`);
  const node = created.body;
  node.status = {
    addresses: [{ type: "InternalIP", address: "127.0.0.1" }],
    daemonEndpoints: { kubeletEndpoint: { Port: kubeletPort } },
    conditions: [{ type: "Ready", status: "True", reason: "KubeletReady", message: "stand-in" }],
  };
  const st = await api("PUT", `/api/v1/nodes/${NODE}/status`, node);
  if (st.status !== 200) throw new Error(`Node status: ${JSON.stringify(st.body)}`);
}

/** The pod's status written back (the kubelet's part), from the object as it is now. */
async function setPodStatus(ns, name, status) {
  const now = await api("GET", `/api/v1/namespaces/${ns}/pods/${name}`);
  if (now.status !== 200) return;
  const obj = now.body;
  obj.status = { ...(obj.status ?? {}), ...status };
  await api("PUT", `/api/v1/namespaces/${ns}/pods/${name}/status`, obj);
}

/** kube-dns and kube-proxy for a load tool: a cluster's Service name and port 4000 become its MariaDB here. */
function throughServices(args, ns) {
  let port;
  const out = args.map((a) => {
    const host = /^--mysql-host=(.+)$/.exec(a);
    if (!host) return a;
    const svc = /^(.+)-tidb\.([^.]+)\.svc$/.exec(host[1]);
    const entry = svc && svc[2] === ns ? running.get(`${ns}/${svc[1]}`) : undefined;
    if (!entry) return a;
    port = entry.port;
    return "--mysql-host=127.0.0.1";
  });
  return port === undefined ? out : out.map((a) => (a === "--mysql-port=4000" ? `--mysql-port=${port}` : a));
}

function stopPod(key) {
  const pod = pods.get(key);
  if (pod && !pod.exited) pod.child?.kill("SIGTERM");
}

async function podsOf(ns) {
  const list = await api("GET", `/api/v1/namespaces/${ns}/pods`);
  for (const p of list.body.items ?? []) {
    const name = p.metadata.name;
    const key = `${ns}/${name}`;
    if (p.metadata.deletionTimestamp) {
      // graceful deletion: the container stopped, then the pod confirmed gone
      stopPod(key);
      await api("DELETE", `/api/v1/namespaces/${ns}/pods/${name}?gracePeriodSeconds=0`);
      pods.delete(key);
      continue;
    }
    if (p.spec.nodeName || pods.has(key)) continue;
    const wants = Object.entries(p.spec.nodeSelector ?? {});
    const node = { "kubernetes.io/hostname": NODE, ...nodeLabels };
    const misfit = wants.filter(([k, v]) => node[k] !== v);
    if (misfit.length) {
      await setPodStatus(ns, name, {
        phase: "Pending",
        conditions: [
          {
            type: "PodScheduled",
            status: "False",
            reason: "Unschedulable",
            message: `0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector (${misfit.map(([k, v]) => `${k}=${v}`).join(", ")})`,
          },
        ],
      });
      continue;
    }
    const bound = await api("POST", `/api/v1/namespaces/${ns}/pods/${name}/binding`, {
      apiVersion: "v1",
      kind: "Binding",
      metadata: { name },
      target: { apiVersion: "v1", kind: "Node", name: NODE },
    });
    if (bound.status !== 201) {
      log(`${key}: binding: ${JSON.stringify(bound.body)}`);
      continue;
    }
    const [command, ...args] = p.spec.containers[0].command;
    const container = p.spec.containers[0].name;
    const image = p.spec.containers[0].image;
    const pod = { child: undefined, output: "", exited: false, listeners: new Set() };
    pods.set(key, pod);
    // Running first: the exit's status below is the last word
    await setPodStatus(ns, name, {
      phase: "Running",
      hostIP: "127.0.0.1",
      podIP: "127.0.0.1",
      startTime: new Date().toISOString(),
      containerStatuses: [
        {
          name: container,
          ready: true,
          restartCount: 0,
          image,
          imageID: "",
          state: { running: { startedAt: new Date().toISOString() } },
        },
      ],
    });
    const child = spawn(command, throughServices(args, ns), { stdio: ["ignore", "pipe", "pipe"] });
    pod.child = child;
    const onData = (d) => {
      const text = d.toString();
      pod.output += text;
      for (const l of pod.listeners) l(text);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("error", (e) => onData(`${e.message}\n`));
    child.once("close", (code, signal) => {
      pod.exited = true;
      for (const l of pod.listeners) l(null);
      const exitCode = code ?? (signal === "SIGKILL" ? 137 : 143);
      log(`${key}: ${command} exited ${exitCode}`);
      setPodStatus(ns, name, {
        phase: exitCode === 0 ? "Succeeded" : "Failed",
        containerStatuses: [
          {
            name: container,
            ready: false,
            restartCount: 0,
            image,
            imageID: "",
            state: { terminated: { exitCode, reason: exitCode === 0 ? "Completed" : "Error" } },
          },
        ],
      }).catch((e) => log(`${key}: ${e.message}`));
    });
    log(`${key}: running ${command} ${args[0] ?? ""} on ${NODE}`);
  }
}

await registerNode();

const timer = setInterval(tick, 300);
const shutdown = async () => {
  clearInterval(timer);
  for (const key of pods.keys()) stopPod(key);
  kubelet.close();
  for (const key of [...running.keys()]) await stopCluster(key);
  process.exit(0);
};
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
log(`watching ${server}`);
