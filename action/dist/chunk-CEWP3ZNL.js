#!/usr/bin/env node
import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path';
const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);
import {
  deepMerge,
  findTool,
  firstTool,
  keepLogs,
  onTeardown,
  procStat,
  processState,
  record,
  runCommand,
  runTool,
  shellCommand,
  sshArgs,
  startServerProcess,
  writeAtomic
} from "./chunk-GYLYMR6W.js";
import {
  InputError,
  MAIN_PORT,
  PORT_STEP,
  ROLES,
  ROLE_PORTS,
  RunError,
  require_dist
} from "./chunk-KZLFUJ4J.js";
import {
  __toESM
} from "./chunk-3EADY6QU.js";

// action/src/targets/tidb/run.ts
import { mkdir as mkdir2, readFile as readFile3, rm as rm3 } from "node:fs/promises";
import { get as httpGet } from "node:http";
import { homedir as homedir2 } from "node:os";
import { join as join4 } from "node:path";

// action/src/targets/mariadb.ts
import { existsSync as existsSync2 } from "node:fs";
import { rm as rm2 } from "node:fs/promises";
import { join as join3 } from "node:path";

// action/src/targets/local.ts
import { mkdtemp, readFile as readFile2, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, join as join2 } from "node:path";

// action/src/targets/affinity.ts
import { cpus } from "node:os";
function cpuIndexes(list) {
  return list.split(",").flatMap((part) => {
    const [a, b] = part.split("-").map(Number);
    return b === void 0 ? [a] : Array.from({ length: b - a + 1 }, (_, i) => a + i);
  });
}
function checkCpus(key, list) {
  const n = cpus().length;
  const bad = cpuIndexes(list).filter((c) => c >= n);
  if (bad.length > 0)
    throw new RunError(
      `${key}: CPU ${bad.join(", ")} does not exist here (this machine has CPUs 0-${n - 1})`
    );
}
async function pinProcesses(pids, list, key) {
  checkCpus(key, list);
  for (const pid of pids) {
    const r = await runCommand("taskset", ["-a", "-p", "-c", list, String(pid)]);
    if (r.code !== 0)
      throw new RunError(`${key}: taskset could not pin pid ${pid} to CPUs ${list}: ${r.stderr.trim()}`);
  }
}

// action/src/targets/cgroup.ts
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rmdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
var ROOT = "/sys/fs/cgroup";
var PERIOD_US = 1e4;
async function detect() {
  const controllers = join(ROOT, "cgroup.controllers");
  if (existsSync(controllers) && (await readFile(controllers, "utf8")).split(/\s+/).includes("cpu")) {
    return { version: 2, dir: ROOT };
  }
  for (const d of ["cpu", "cpu,cpuacct"]) {
    if (existsSync(join(ROOT, d, "cpu.cfs_quota_us"))) return { version: 1, dir: join(ROOT, d) };
  }
  return void 0;
}
async function processTree(root) {
  const parents = /* @__PURE__ */ new Map();
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const ppid = procStat(entry)?.[1];
    if (ppid !== void 0) parents.set(Number(entry), Number(ppid));
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) {
    for (const [pid, ppid] of parents) if (ppid === out[i]) out.push(pid);
  }
  return out;
}
async function cpuFlavor() {
  const flavor = await detect();
  if (!flavor) {
    throw new RunError(
      "target.resources.cpu_quota: this machine offers neither cgroup v2 cpu.max nor cgroup v1 cpu.cfs_quota_us under /sys/fs/cgroup; remove cpu_quota or run where the cpu controller is available"
    );
  }
  return flavor;
}
async function writeQuota(flavor, dir, quota) {
  const quotaUs = Math.max(1e3, Math.round(quota * PERIOD_US));
  if (flavor.version === 2) {
    await writeFile(join(dir, "cpu.max"), `${quotaUs} ${PERIOD_US}`);
  } else {
    await writeFile(join(dir, "cpu.cfs_period_us"), String(PERIOD_US));
    await writeFile(join(dir, "cpu.cfs_quota_us"), String(quotaUs));
  }
}
async function applyResources(pid, quota, name) {
  const flavor = await cpuFlavor();
  const dir = join(flavor.dir, `tiperf-${name}-${pid}`);
  const forget = await record({ kind: "cgroup", what: `cgroup of ${name} ${pid}`, path: dir });
  try {
    await mkdir(dir, { recursive: true });
    await writeQuota(flavor, dir, quota);
    for (const p of await processTree(pid)) {
      await writeFile(join(dir, "cgroup.procs"), String(p)).catch(() => {
      });
    }
  } catch (e) {
    throw new RunError(
      `target.resources.cpu_quota: cannot set up cgroup ${dir} (${e.message}); tiperf needs write access to the cgroup cpu controller (run as root)`
    );
  }
  const remove = async () => {
    for (let i = 0; i < 20; i++) {
      try {
        await rmdir(dir);
        await forget();
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  return { dir, remove };
}

// action/src/targets/local.ts
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}
async function makeWorkDir(kind) {
  return mkdtemp(join2(tmpdir(), `tiperf-${kind}-`));
}
function words(line) {
  return line.replace(/^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+)?( \w+)? ?(\[\d+\] ?)?(\d+ )?/, "").trim();
}
async function serverErrors(files, max = 6) {
  const out = [];
  for (const file of files) {
    let text = "";
    try {
      text = await readFile2(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n")) {
      if (!/\[ERROR\]|\bFATAL:|\bERROR:|\bPANIC:/.test(line)) continue;
      const said = words(line);
      if (said && !out.includes(said)) out.push(said);
    }
  }
  return out.slice(0, max);
}
async function waitReady(what, server, probe, timeoutMs = 6e4) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!server.isAlive()) {
      const how = await server.exited;
      throw new StartupError(`${what} exited during startup (code ${how.code}, signal ${how.signal})`);
    }
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new StartupError(`${what} did not accept connections within ${timeoutMs / 1e3}s`);
}
function lifecycle(opts) {
  let stopping = false;
  let restarting = false;
  let stopped;
  let server = opts.server;
  const diedOf = (s) => s.exited.then(
    (how) => stopping || restarting ? new Promise(() => {
    }) : `${opts.what} (pid ${s.pid}) exited unexpectedly (code ${how.code}, signal ${how.signal})`
  );
  let died = diedOf(server);
  const recordOf = (s) => record({
    kind: "server",
    what: opts.what,
    pid: s.pid,
    path: opts.workDir,
    signal: opts.stopSignal,
    logs: opts.logs,
    log_dir: opts.logDir
  }).catch(() => async () => {
  });
  let forget = recordOf(server);
  const stop = () => {
    stopping = true;
    stopped ??= (async () => {
      unregister();
      try {
        await server.stop(opts.stopSignal, 3e4);
        await keepLogs(opts.logs, opts.logDir);
      } finally {
        await opts.beforeRemove?.().catch(() => {
        });
        await rm(opts.workDir, { recursive: true, force: true });
        await (await forget)();
      }
    })();
    return stopped;
  };
  const restart = async (respawn) => {
    if (stopping) throw new RunError(`${opts.what} is being stopped: no restart`);
    restarting = true;
    try {
      await server.stop(opts.stopSignal, 3e4);
      await opts.beforeRemove?.().catch(() => {
      });
      server = await respawn();
      const next = recordOf(server);
      await (await forget)();
      forget = next;
      died = diedOf(server);
    } finally {
      restarting = false;
    }
  };
  const unregister = onTeardown(`stop ${opts.what}`, stop);
  return {
    stop,
    restart,
    get died() {
      return died;
    },
    get server() {
      return server;
    }
  };
}
async function settleServer(o) {
  await waitReady(o.what, o.server, async () => (await o.query("SELECT 1")).code === 0);
  const version = (await o.query(o.versionSql)).stdout.trim();
  const effectiveConfig = {};
  for (const key of Object.keys(o.spec.config)) {
    const r = await o.query(o.settingSql(key));
    if (r.code === 0) effectiveConfig[key] = r.stdout.trim();
  }
  const res = o.spec.resources;
  if (res?.cpu_quota !== void 0) {
    o.onCgroup((await applyResources(o.server.pid, res.cpu_quota, o.what.toLowerCase())).remove);
  }
  if (res?.cpus !== void 0) {
    await pinProcesses(await processTree(o.server.pid), res.cpus, "target.resources.cpus");
  }
  return { version, effectiveConfig };
}
var StartupError = class extends RunError {
};
async function startupFailure(e, o) {
  if (!(e instanceof StartupError)) return e;
  const kept = o.logs.map((l) => join2(o.logDir, basename(l)));
  const said = await serverErrors(kept);
  const norm = (s) => s.toLowerCase().replace(/-/g, "_");
  const refused = Object.keys(o.config).filter((k) => said.some((l) => norm(l).includes(norm(k))));
  const head = refused.length ? `target.config: ${o.what} refused ${refused.map((k) => `${k}=${JSON.stringify(o.config[k])}`).join(", ")}` : e.message;
  const quoted = said.length ? said.map((l) => `
  ${l}`).join("") : " (its logs say nothing of why)";
  return new RunError(
    `${head}${refused.length ? ` (${e.message})` : ""}; the server said:${quoted}
server logs kept in ${o.logDir}`
  );
}
function respawner(spawn, settle, stopSignal) {
  return async () => {
    const next = spawn();
    try {
      await settle(next);
    } catch (e) {
      await next.stop(stopSignal, 3e4).catch(() => {
      });
      throw e;
    }
    return next;
  };
}
function localTarget(o) {
  const { life } = o;
  return {
    kind: o.kind,
    version: o.version,
    connection: {
      protocol: o.protocol,
      endpoints: [{ host: "127.0.0.1", port: o.port }],
      user: o.user,
      password: ""
    },
    get pids() {
      return [life.server.pid];
    },
    state: () => `${o.kind} server (pid ${life.server.pid}) is ${processState(life.server.pid)}`,
    createDatabase: o.createDatabase,
    effectiveConfig: o.effectiveConfig,
    get died() {
      return life.died;
    },
    stop: life.stop,
    restart: async () => {
      const before = life.server.pid;
      await life.restart(o.respawn);
      return `${o.kind} pid ${before} \u2192 ${life.server.pid}`;
    }
  };
}
function checkDatabaseName(name) {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new RunError(`bad database name ${JSON.stringify(name)}`);
  return name;
}

// action/src/targets/mariadb.ts
var isRoot = () => process.getuid?.() === 0;
var MARIADB_PROGRAMS = {
  server: ["/usr/sbin/mariadbd", "/usr/sbin/mysqld"],
  installDb: ["mariadb-install-db", "mysql_install_db"],
  client: ["mariadb", "mysql"]
};
var SERVER = () => firstTool(MARIADB_PROGRAMS.server);
var INSTALL_DB = () => firstTool(MARIADB_PROGRAMS.installDb);
var CLIENT = () => firstTool(MARIADB_PROGRAMS.client);
var asVariable = (key) => key.replace(/-/g, "_");
function settingArgs(config) {
  return Object.entries(config).map(([k, v]) => `--${k}=${typeof v === "boolean" ? v ? "ON" : "OFF" : v}`);
}
async function startMariadb(spec, opts) {
  if (!existsSync2(SERVER())) {
    throw new RunError(
      `target.kind mariadb: ${SERVER()} not found; install the Debian package mariadb-server`
    );
  }
  const workDir = await makeWorkDir("mariadb");
  const removeWorkDir = onTeardown(`remove ${workDir}`, () => rm2(workDir, { recursive: true, force: true }));
  const dataDir = join3(workDir, "data");
  const socket = join3(workDir, "mysqld.sock");
  const errorLog = join3(workDir, "mariadb-error.log");
  const installLog = join3(workDir, "mariadb-install-db.log");
  const logs = [errorLog, join3(workDir, "mariadbd.out"), installLog];
  const install = await runCommand(
    INSTALL_DB(),
    [
      "--no-defaults",
      `--datadir=${dataDir}`,
      "--auth-root-authentication-method=normal",
      "--skip-test-db",
      ...isRoot() ? ["--user=root"] : []
    ],
    { timeoutMs: 12e4 }
  );
  if (install.code !== 0) {
    removeWorkDir();
    await rm2(workDir, { recursive: true, force: true });
    throw new RunError(
      `mariadb-install-db failed (exit ${install.code}):
${(install.stderr || install.stdout).slice(-2e3)}`
    );
  }
  const port = await freePort();
  const args = [
    "--no-defaults",
    `--datadir=${dataDir}`,
    `--port=${port}`,
    "--bind-address=127.0.0.1",
    `--socket=${socket}`,
    `--pid-file=${join3(workDir, "mysqld.pid")}`,
    `--log-error=${errorLog}`,
    "--skip-name-resolve",
    `--max-connections=${Math.max(151, opts.maxConnections + 20)}`,
    ...isRoot() ? ["--user=root"] : [],
    // The spec's settings come last so they win over tiperf's defaults.
    ...settingArgs(spec.config)
  ];
  const spawnServer = () => startServerProcess(SERVER(), args, { logFile: join3(workDir, "mariadbd.out"), cwd: workDir });
  const server = spawnServer();
  removeWorkDir();
  let removeCgroup;
  const life = lifecycle({
    what: "MariaDB",
    server,
    workDir,
    logs,
    logDir: opts.logDir,
    stopSignal: "SIGTERM",
    beforeRemove: async () => removeCgroup?.()
  });
  const sql = (query) => runCommand(
    CLIENT(),
    ["--no-defaults", "-h", "127.0.0.1", "-P", String(port), "-u", "root", "-N", "-B", "-e", query],
    {
      timeoutMs: 3e4
    }
  );
  const settle = (s) => settleServer({
    what: "MariaDB",
    spec,
    server: s,
    query: sql,
    versionSql: "SELECT VERSION()",
    settingSql: (key) => `SELECT @@GLOBAL.${asVariable(key)}`,
    onCgroup: (remove) => {
      removeCgroup = remove;
    }
  });
  try {
    const { version, effectiveConfig } = await settle(server);
    opts.log(`target: MariaDB ${version} on 127.0.0.1:${port} (pid ${server.pid}, datadir ${dataDir})`);
    return localTarget({
      kind: "mariadb",
      protocol: "mysql",
      user: "root",
      port,
      life,
      respawn: respawner(spawnServer, settle, "SIGTERM"),
      version,
      effectiveConfig,
      createDatabase: async (name) => {
        const r = await sql(`CREATE DATABASE IF NOT EXISTS ${checkDatabaseName(name)}`);
        if (r.code !== 0) throw new RunError(`MariaDB: cannot create database ${name}: ${r.stderr.trim()}`);
      }
    });
  } catch (e) {
    await life.stop();
    throw await startupFailure(e, {
      what: "MariaDB",
      logs,
      logDir: opts.logDir,
      config: spec.config
    });
  }
}

// action/src/targets/tidb/haproxy.ts
async function startHaproxy(o) {
  const ac = new AbortController();
  const run = runTool(
    "sh",
    ["-c", 'printf "%s" "$1" > "$2" && exec haproxy -db -f "$2"', "sh", o.config, o.file],
    { logFile: o.logFile, signal: ac.signal, remote: o.remote }
  );
  const early = await Promise.race([run, new Promise((r) => setTimeout(r, o.settleMs ?? 1500))]);
  if (early)
    throw new RunError(
      `HAProxy on ${o.remote.host} exited at once (code ${early.code}): ${early.output.trim().split("\n").slice(-3).join(" ")} (raw output: ${o.logFile})`
    );
  return {
    endpoint: { host: "127.0.0.1", port: o.port },
    stop: async () => {
      ac.abort(new Error("teardown"));
      await run;
    }
  };
}

// action/src/targets/tidb/plan.ts
import { homedir } from "node:os";

// action/src/targets/tidb/topology.ts
var import_yaml = __toESM(require_dist(), 1);
var SECTION = {
  pd: "pd_servers",
  tikv: "tikv_servers",
  tidb: "tidb_servers",
  tiflash: "tiflash_servers"
};
var MONITORED = { node_exporter_port: 9100, blackbox_exporter_port: 9115 };
var PROMETHEUS = { port: 9090, ng_port: 12020 };
var GRAFANA = { port: 3e3 };
var CLUSTER_PORT_OFFSET = 1e3;
function effectiveRoles(profile, target) {
  return deepMerge(profile.roles, target.roles ?? {});
}
function effectiveServerConfigs(profile, target) {
  const merged = deepMerge(profile.server_configs, target.server_configs ?? {});
  return Object.fromEntries(
    Object.entries(merged).filter(([, v]) => v && Object.keys(v).length > 0)
  );
}
function buildCluster(o) {
  const { profile, target, index } = o;
  const offset = index * CLUSTER_PORT_OFFSET;
  const roles = effectiveRoles(profile, target);
  const deployDir = `${profile.global.deploy_dir}/${o.name}`;
  const dataDir = `${profile.global.data_dir}/${o.name}`;
  const instances = [];
  for (const role of ROLES) {
    const r = roles[role];
    const placed = r.instances ?? Array.from({ length: r.count ?? 0 }, (_, i) => {
      const hosts = profile.hosts?.[role] ?? [];
      return { host: hosts[i % hosts.length] };
    });
    const onHost = /* @__PURE__ */ new Map();
    placed.forEach((p, i) => {
      const k = onHost.get(p.host) ?? 0;
      onHost.set(p.host, k + 1);
      const given = p;
      const ports = {};
      for (const [name, base] of Object.entries(ROLE_PORTS[role]))
        ports[name] = typeof given[name] === "number" ? given[name] : base + offset + k * PORT_STEP[role];
      const main = ports[MAIN_PORT[role]];
      const inst = {
        role,
        host: p.host,
        ports,
        deploy_dir: given.deploy_dir ?? `${deployDir}/${role}-${main}`,
        from: r.instances ? `roles.${role}.instances[${i}]` : `roles.${role} (instance ${i + 1} of ${r.count})`
      };
      if (role !== "tidb")
        inst.data_dir = given.data_dir ?? `${dataDir}/${role}-${main}`;
      const numa = given.numa_node ?? r.numa_node;
      if (numa !== void 0) inst.numa_node = numa;
      if (r.resource_control) inst.resource_control = r.resource_control;
      if (r.config && Object.keys(r.config).length) inst.config = r.config;
      if (r.arch) inst.arch = r.arch;
      if (r.os) inst.os = r.os;
      instances.push(inst);
    });
  }
  const monitorHost = profile.hosts?.monitor?.[0] ?? profile.hosts?.load?.[0] ?? profile.hosts?.pd?.[0];
  return {
    name: o.name,
    version: target.version ?? "",
    index,
    user: profile.global.user,
    sshPort: profile.ssh?.port ?? 22,
    deployDir,
    dataDir,
    serverConfigs: effectiveServerConfigs(profile, target),
    instances,
    ...profile.monitoring && monitorHost ? {
      monitoring: {
        host: monitorHost,
        prometheus: PROMETHEUS.port + offset,
        ng_port: PROMETHEUS.ng_port + offset,
        grafana: GRAFANA.port + offset
      }
    } : {},
    monitored: {
      node_exporter_port: MONITORED.node_exporter_port + offset,
      blackbox_exporter_port: MONITORED.blackbox_exporter_port + offset
    },
    exporters: profile.monitoring
  };
}
function topologyObject(c, configs = true) {
  const out = {
    global: { user: c.user, ssh_port: c.sshPort, deploy_dir: c.deployDir, data_dir: c.dataDir },
    monitored: c.monitored
  };
  if (configs && Object.keys(c.serverConfigs).length) out.server_configs = c.serverConfigs;
  for (const role of ROLES) {
    const list = c.instances.filter((i) => i.role === role).map((i) => {
      const entry = { host: i.host };
      if (role === "pd") entry.name = `pd-${i.host}-${i.ports.client_port}`;
      Object.assign(entry, i.ports);
      entry.deploy_dir = i.deploy_dir;
      if (i.data_dir) entry.data_dir = i.data_dir;
      if (i.numa_node !== void 0) entry.numa_node = i.numa_node;
      if (i.resource_control) entry.resource_control = i.resource_control;
      if (i.arch) entry.arch = i.arch;
      if (i.os) entry.os = i.os;
      if (!c.exporters) entry.ignore_exporter = true;
      if (configs && i.config) entry.config = i.config;
      return entry;
    });
    if (list.length) out[SECTION[role]] = list;
  }
  if (c.monitoring) {
    const m = c.monitoring;
    out.monitoring_servers = [
      {
        host: m.host,
        port: m.prometheus,
        ng_port: m.ng_port,
        deploy_dir: `${c.deployDir}/prometheus-${m.prometheus}`,
        data_dir: `${c.dataDir}/prometheus-${m.prometheus}`
      }
    ];
    out.grafana_servers = [
      { host: m.host, port: m.grafana, deploy_dir: `${c.deployDir}/grafana-${m.grafana}` }
    ];
  }
  return out;
}
function topologyYaml(c) {
  return `# tiup topology of cluster ${c.name} (TiDB ${c.version}), generated by tiperf
${(0, import_yaml.stringify)(topologyObject(c), { lineWidth: 0, aliasDuplicateObjects: false })}`;
}
var side = (u, host) => `'${u.section}:${host}.${u.key}'`;
var origin = (u, several) => `${several ? `cluster ${u.cluster} ` : ""}${u.from}`;
function topologyProblems(clusters) {
  const problems = [];
  const several = clusters.length > 1;
  const platforms = /* @__PURE__ */ new Map();
  const ports = /* @__PURE__ */ new Map();
  const dirs = /* @__PURE__ */ new Map();
  const pdNames = /* @__PURE__ */ new Set();
  const claimPort = (host, port, u) => {
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      problems.push(
        `${u.from}: \`${u.section}\` of ${u.key}=${port} is invalid, port should be in the range [1, 65535]`
      );
      return;
    }
    const key = `${host}:${port}`;
    const prev = ports.get(key);
    if (prev)
      problems.push(
        `${u.from}: port conflict for '${port}' between ${side(prev, host)} (${origin(prev, several)}) and ${side(u, host)} (${origin(u, several)}); give one of them another port`
      );
    else ports.set(key, u);
  };
  const claimDir = (host, dir, u) => {
    const key = `${host}:${dir}`;
    const prev = dirs.get(key);
    if (prev)
      problems.push(
        `${u.from}: directory conflict for '${dir}' between ${side(prev, host)} (${origin(prev, several)}) and ${side(u, host)} (${origin(u, several)})`
      );
    else dirs.set(key, u);
  };
  for (const c of clusters) {
    const hosts = /* @__PURE__ */ new Set();
    for (const i of c.instances) {
      hosts.add(i.host);
      const section = SECTION[i.role];
      const used = (key) => ({ cluster: c.name, section, key, from: i.from });
      const platform = `${i.os ?? "linux"}/${i.arch ?? "amd64"}`;
      const prev = platforms.get(i.host);
      if (prev && prev.platform !== platform)
        problems.push(
          `${i.from}: platform mismatch for '${i.host}' between '${prev.used.section}:${prev.platform}' (${prev.used.from}) and '${section}:${platform}'; a host has one os/arch`
        );
      else if (!prev) platforms.set(i.host, { platform, used: used("arch") });
      for (const [key, port] of Object.entries(i.ports)) claimPort(i.host, port, used(key));
      claimDir(i.host, i.deploy_dir, used("deploy_dir"));
      if (i.data_dir) claimDir(i.host, i.data_dir, used("data_dir"));
      if (i.role === "pd") {
        const name = `${c.name}/pd-${i.host}-${i.ports.client_port}`;
        if (pdNames.has(name))
          problems.push(
            `${i.from}: component pd_servers.name is not supported duplicated, the name pd-${i.host}-${i.ports.client_port} is duplicated`
          );
        pdNames.add(name);
      }
    }
    if (c.monitoring) {
      const m = c.monitoring;
      const u = (section, key) => ({
        cluster: c.name,
        section,
        key,
        from: "monitoring: true"
      });
      hosts.add(m.host);
      claimPort(m.host, m.prometheus, u("monitoring_servers", "port"));
      claimPort(m.host, m.ng_port, u("monitoring_servers", "ng_port"));
      claimPort(m.host, m.grafana, u("grafana_servers", "port"));
    }
    for (const host of hosts)
      for (const [key, port] of Object.entries(c.monitored))
        claimPort(host, port, {
          cluster: c.name,
          section: "monitored",
          key,
          from: `the ${key.replace(/_port$/, "")} tiup runs on every host`
        });
  }
  return problems;
}
function checkTopology(clusters, file) {
  const problems = topologyProblems(clusters);
  if (problems.length) throw new InputError(problems.map((p) => `${file}: ${p}`).join("\n"));
}

// action/src/targets/tidb/plan.ts
var PLAYGROUND_FLAG = { pd: "pd", tikv: "kv", tidb: "db", tiflash: "tiflash" };
var PLAYGROUND_PORT_OFFSET = 1e4;
var tomlKey = (k) => /^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k);
function tomlValue(v) {
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return `[${v.map(tomlValue).join(", ")}]`;
  throw new InputError(`cannot write ${JSON.stringify(v)} into a TOML config`);
}
function expandDotted(config) {
  let out = {};
  for (const [key, value] of Object.entries(config)) {
    const parts = key.split(".");
    const nested = parts.reduceRight(
      (acc, part) => ({ [part]: acc }),
      value && typeof value === "object" && !Array.isArray(value) ? expandDotted(value) : value
    );
    out = deepMerge(out, nested);
  }
  return out;
}
function toToml(config) {
  const lines = [];
  const walk = (obj, path) => {
    const scalars = Object.entries(obj).filter(([, v]) => !(v && typeof v === "object" && !Array.isArray(v)));
    const tables = Object.entries(obj).filter(([, v]) => v && typeof v === "object" && !Array.isArray(v));
    if (path.length && scalars.length) lines.push("", `[${path.map(tomlKey).join(".")}]`);
    for (const [k, v] of scalars) lines.push(`${tomlKey(k)} = ${tomlValue(v)}`);
    for (const [k, v] of tables) walk(v, [...path, k]);
  };
  walk(expandDotted(config), []);
  return `${lines.join("\n").trim()}
`;
}
function flatKeys(config, prefix = "") {
  const out = [];
  for (const [k, v] of Object.entries(expandDotted(config))) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object" && !Array.isArray(v))
      out.push(...flatKeys(v, key));
    else out.push([key, v]);
  }
  return out;
}
function roleConfig(profile, target, role) {
  const server = effectiveServerConfigs(profile, target)[role] ?? {};
  const own = effectiveRoles(profile, target)[role].config ?? {};
  return deepMerge(expandDotted(server), expandDotted(own));
}
var expandHome = (path) => path.startsWith("~/") ? `${homedir()}/${path.slice(2)}` : path;
function haproxyConfig(endpoints, port, name) {
  return `# HAProxy in front of the TiDB servers of ${name}, generated by tiperf
global
    # about two file descriptors per connection: within a login session's usual limits
    maxconn 4096

defaults
    mode tcp
    timeout connect 10s
    timeout client 1h
    timeout server 1h

listen tidb
    bind 0.0.0.0:${port}
    balance leastconn
    option tcp-check
${endpoints.map((e, i) => `    server tidb-${i + 1} ${e.host}:${e.port} check inter 2000 rise 2 fall 3`).join("\n")}
`;
}
function planTidb(o) {
  const { profile } = o;
  const files = {};
  const deployments = [];
  const variants = [];
  const configKeysOf = (target) => ROLES.flatMap(
    (role) => flatKeys(roleConfig(profile, target, role)).map(([key, value]) => ({ role, key, value }))
  );
  const setupOf = (v, deployment, topologyFile) => ({
    name: v.name,
    deployment,
    version: v.target.version ?? "",
    ...topologyFile ? { topologyFile } : {},
    configKeys: configKeysOf(v.target),
    sql: v.target.sql ?? [],
    ...v.target.split ? { split: v.target.split } : {}
  });
  if (profile.provider === "playground") {
    o.variants.forEach((v, index) => {
      const roles = effectiveRoles(profile, v.target);
      const configFiles = {};
      for (const role of ROLES) {
        const config = roleConfig(profile, v.target, role);
        if (Object.keys(config).length === 0) continue;
        const file = `${v.name}-${role}.toml`;
        files[file] = toToml(config);
        configFiles[role] = file;
      }
      deployments.push({
        kind: "playground",
        name: o.variants.length > 1 ? `${o.prefix}-${v.name}` : o.prefix,
        index,
        version: v.target.version ?? "",
        variants: [v.name],
        counts: Object.fromEntries(ROLES.map((r) => [r, roles[r].count ?? 0])),
        portOffset: index * PLAYGROUND_PORT_OFFSET,
        configFiles
      });
      variants.push(setupOf(v, index));
    });
  } else {
    const groups = [];
    for (const v of o.variants) {
      const probe = buildCluster({ name: "probe", index: 0, profile, target: v.target });
      const key = `${v.target.version}
${JSON.stringify(topologyObject(probe, false))}`;
      const g = groups.find((x) => x.key === key);
      if (g) g.members.push(v);
      else groups.push({ key, members: [v] });
    }
    groups.forEach((g, index) => {
      const name = groups.length > 1 ? `${o.prefix}-${index + 1}` : o.prefix;
      let deployed;
      for (const v of g.members) {
        const cluster = buildCluster({ name, index, profile, target: v.target });
        deployed ??= cluster;
        const file = `topology-${v.name}.yaml`;
        files[file] = topologyYaml(cluster);
        variants.push(setupOf(v, index, file));
      }
      deployments.push({
        kind: "cluster",
        name,
        index,
        version: g.members[0]?.target.version ?? "",
        cluster: deployed,
        variants: g.members.map((m) => m.name),
        proxyFlags: proxyFlags(profile)
      });
    });
    checkTopology(
      deployments.map((d) => d.cluster),
      o.profileFile
    );
  }
  const switching = profile.provider === "playground" ? o.variants.length > 1 ? "separate-playgrounds" : "none" : deployments.length > 1 ? "stop-start" : o.variants.length > 1 ? "edit-config" : "none";
  checkSqlSwitching(variants, deployments);
  const loadHost = profile.hosts?.load?.[0];
  const load = loadHost ? {
    host: loadHost,
    user: profile.ssh?.user ?? "tidb",
    port: profile.ssh?.port ?? 22,
    ...profile.ssh?.identity_file ? { identity: profile.ssh.identity_file } : {}
  } : { host: "127.0.0.1" };
  const plan = {
    profile,
    profileFile: o.profileFile,
    deployments,
    variants,
    switching,
    files,
    load,
    commands: []
  };
  if (profile.haproxy && loadHost) {
    for (const d of deployments) {
      if (d.kind !== "cluster") continue;
      const file = `haproxy-${d.name}.cfg`;
      files[file] = haproxyConfig(tidbEndpoints(d), haproxyPort(plan, d), d.name);
    }
    plan.haproxy = { host: loadHost, port: profile.haproxy_port, file: "haproxy-<cluster>.cfg" };
  }
  plan.commands = commandsOf(plan);
  return plan;
}
function checkSqlSwitching(variants, deployments) {
  const setVars = (sql) => sql.flatMap(
    (s) => [...s.matchAll(/SET\s+(?:GLOBAL\s+|@@GLOBAL\.)(\w+)/gi)].map((m) => m[1].toLowerCase())
  ).sort().join(",");
  for (const d of deployments) {
    const shared = variants.filter((v) => v.deployment === d.index);
    if (shared.length < 2) continue;
    const first = shared[0];
    for (const v of shared.slice(1)) {
      if (setVars(v.sql) !== setVars(first.sql))
        throw new InputError(
          `variants ${first.name} and ${v.name} share cluster ${d.name} but their target.sql set different variables (${setVars(first.sql) || "none"} vs ${setVars(v.sql) || "none"}): set the same variables in both, so switching between them restores each value`
        );
    }
  }
}
var haproxyPort = (plan, d) => plan.profile.haproxy_port + d.index;
var playgroundTidbPort = (d) => 4e3 + d.portOffset;
function loadEndpoints(plan, d) {
  if (d.kind === "playground") return [{ host: "127.0.0.1", port: playgroundTidbPort(d) }];
  return plan.haproxy ? [{ host: "127.0.0.1", port: haproxyPort(plan, d) }] : tidbEndpoints(d);
}
function tidbEndpoints(d) {
  return d.cluster.instances.filter((i) => i.role === "tidb").map((i) => ({ host: i.host, port: i.ports.port }));
}
function statusAddresses(d) {
  if (d.kind === "playground") {
    const off = d.portOffset;
    return {
      tidb: [`127.0.0.1:${10080 + off}`],
      tikv: [`127.0.0.1:${20180 + off}`],
      pd: [`127.0.0.1:${2379 + off}`],
      tiflash: [`127.0.0.1:${8234 + off}`]
    };
  }
  const of = (role, port) => d.cluster.instances.filter((i) => i.role === role).map((i) => `${i.host}:${i.ports[port]}`);
  return {
    tidb: of("tidb", "status_port"),
    tikv: of("tikv", "status_port"),
    pd: of("pd", "client_port"),
    tiflash: of("tiflash", "metrics_port")
  };
}
function sshFlags(profile) {
  const ssh = profile.ssh;
  return [
    "--user",
    ssh?.user ?? "tidb",
    ...ssh?.identity_file ? ["-i", expandHome(ssh.identity_file)] : []
  ];
}
function proxyFlags(profile) {
  const proxy = profile.ssh?.proxy;
  if (!proxy) return [];
  const key = proxy.identity_file ?? profile.ssh?.identity_file;
  return [
    "--ssh-proxy-host",
    proxy.host,
    "--ssh-proxy-user",
    proxy.user ?? profile.ssh?.user ?? "tidb",
    "--ssh-proxy-port",
    String(proxy.port),
    ...key ? ["--ssh-proxy-identity-file", expandHome(key)] : []
  ];
}
var tiupCluster = {
  deploy: (d, file, profile) => [
    "tiup",
    "cluster",
    "deploy",
    d.name,
    d.version,
    file,
    "--yes",
    ...sshFlags(profile),
    ...d.proxyFlags
  ],
  start: (d) => ["tiup", "cluster", "start", d.name, ...d.proxyFlags],
  stop: (d) => ["tiup", "cluster", "stop", d.name, "--yes", ...d.proxyFlags],
  display: (d) => [
    "tiup",
    "cluster",
    "display",
    d.name,
    "--format",
    "json",
    "--uptime",
    ...d.proxyFlags
  ],
  editConfig: (d, file) => [
    "tiup",
    "cluster",
    "edit-config",
    d.name,
    "--topology-file",
    file,
    "--yes"
  ],
  reload: (d) => ["tiup", "cluster", "reload", d.name, "--yes", ...d.proxyFlags],
  restart: (d) => ["tiup", "cluster", "restart", d.name, "--yes", ...d.proxyFlags],
  destroy: (d) => ["tiup", "cluster", "destroy", d.name, "--yes", ...d.proxyFlags]
};
function playgroundArgs(d, dir) {
  return [
    "tiup",
    "playground",
    d.version,
    ...ROLES.flatMap((r) => [`--${PLAYGROUND_FLAG[r]}`, String(d.counts[r])]),
    "--without-monitor",
    "--tag",
    d.name,
    ...d.portOffset ? ["--port-offset", String(d.portOffset)] : [],
    ...ROLES.flatMap(
      (r) => d.configFiles[r] ? [`--${PLAYGROUND_FLAG[r]}.config`, `${dir}/${d.configFiles[r]}`] : []
    )
  ];
}
function commandsOf(plan) {
  const out = [];
  const dir = "tidb";
  const add = (phase, argv, about, where = "runner") => out.push({ phase, where, argv, ...about ? { about } : {} });
  for (const d of plan.deployments) {
    const users = plan.variants.filter((v) => v.deployment === d.index);
    if (d.kind === "playground") {
      add(
        "start",
        playgroundArgs(d, dir),
        `variant ${d.variants.join(", ")}: runs until teardown; ready when it prints "TiDB Playground Cluster is started"; the TiDB port is read from its "Connect TiDB" lines`
      );
    } else {
      const first = users[0];
      add(
        "deploy",
        tiupCluster.deploy(d, `${dir}/${first.topologyFile}`, plan.profile),
        `variant${users.length > 1 ? "s" : ""} ${d.variants.join(", ")}`
      );
      add("start", tiupCluster.start(d));
      add("check", tiupCluster.display(d), "every instance Up; uptimes recorded");
    }
  }
  if (plan.haproxy)
    for (const d of plan.deployments)
      add(
        "haproxy",
        ["haproxy", "-db", "-f", `haproxy-${d.name}.cfg`],
        `on the load host (its config passed over SSH); the load tools connect to ${plan.haproxy.host}:${haproxyPort(plan, d)}`,
        "load host"
      );
  const checks = plan.profile.ssh?.proxy ? "load host" : "runner";
  for (const v of plan.variants) {
    const d = plan.deployments[v.deployment];
    const about = `variant ${v.name} on ${d.name}`;
    add("record", ["SELECT tidb_version()"], about, checks);
    const status = statusAddresses(d);
    add("record", ["GET", `http://${status.tidb[0]}/status`], `${about}: recorded`, checks);
    for (const role of new Set(v.configKeys.map((k) => k.role)))
      for (const addr of status[role])
        add(
          "record",
          ["GET", role === "pd" ? `http://${addr}/pd/api/v1/config` : `http://${addr}/config`],
          `${about}: what SHOW CONFIG shows; ${v.configKeys.filter((k) => k.role === role).map((k) => k.key).join(", ")} must match the spec`,
          checks
        );
    for (const s of v.sql) add("sql", [s], about, checks);
    if (v.split)
      add(
        "split",
        [`SPLIT TABLE <each load table> BETWEEN (0) AND (<rows>) REGIONS ${v.split.regions}`],
        `${about}: after prepare, with tidb_scatter_region on (v6.3+: SET SESSION tidb_scatter_region = 'table'; before: ON)`,
        checks
      );
  }
  for (const d of plan.deployments) {
    if (d.kind !== "cluster") continue;
    const users = plan.variants.filter((v) => v.deployment === d.index);
    if (plan.switching === "edit-config")
      for (const v of users) {
        add(
          "switch",
          tiupCluster.editConfig(d, `${dir}/${v.topologyFile}`),
          `before cells of variant ${v.name} (when another variant's config is applied); "Nothing changed." fails the run`
        );
        add("switch", tiupCluster.reload(d), `then SHOW CONFIG confirms variant ${v.name}'s values`);
      }
    if (plan.switching === "stop-start") {
      add("switch", tiupCluster.stop(d), `while the other cluster's variant is measured`);
      add("switch", tiupCluster.start(d), `before cells of variant ${d.variants.join(", ")}`);
    }
    add(
      "cell",
      tiupCluster.display(d),
      "before and after every cell: a Down instance or a restart (uptime reset) fails the cell"
    );
  }
  for (const d of plan.deployments) {
    if (d.kind === "cluster")
      add(
        "teardown",
        tiupCluster.destroy(d),
        "always: success, failure, cancel, SIGTERM; `tiperf reap` if tiperf was killed"
      );
    else
      add(
        "teardown",
        ["kill -INT <tiup playground pid>", `rm -rf $TIUP_HOME/data/${d.name}`],
        "always; `tiperf reap` if tiperf was killed"
      );
  }
  return out;
}
function planText(plan) {
  const lines = [];
  lines.push(`profile ${plan.profileFile} (${plan.profile.name}, provider ${plan.profile.provider})`);
  lines.push(
    `deployments: ${plan.deployments.map((d) => `${d.kind} ${d.name} (TiDB ${d.version}; variants ${d.variants.join(", ")})`).join("; ")}`
  );
  lines.push(`variants take turns by: ${plan.switching}`);
  lines.push(
    `load tools run on: ${plan.load.host === "127.0.0.1" && !plan.load.user ? "this machine" : `${plan.load.user}@${plan.load.host} over SSH`}`
  );
  lines.push("", "commands:");
  for (const c of plan.commands) {
    const sql = !["tiup", "haproxy"].includes(c.argv[0]) && c.argv.length === 1;
    const text = sql ? `SQL: ${c.argv[0]}` : c.argv[0]?.startsWith("kill") ? c.argv.join(" && ") : shellCommand(c.argv);
    lines.push(
      `  [${c.phase}]${c.where === "load host" ? " (load host)" : ""} ${text}${c.about ? `    # ${c.about}` : ""}`
    );
  }
  return `${lines.join("\n")}
`;
}

// action/src/targets/tidb/tiup-output.ts
var ESC = String.fromCharCode(27);
var plain = (text) => text.replace(new RegExp(`${ESC}\\[[0-9;]*m`, "g"), "").replace(/\r/g, "");
function readPlayground(output) {
  const text = plain(output);
  const state = { ready: false, endpoints: [], versions: {} };
  for (const line of text.split("\n")) {
    const start = /^Start (\w+) instance:?\s*(\S+)?/.exec(line.trim());
    if (start?.[2]) state.versions[start[1]] = start[2];
    if (/TiDB Playground Cluster is started/.test(line)) state.ready = true;
    const conn = /^Connect TiDB:\s+.*?--host (\S+) --port (\d+)/.exec(line.trim());
    if (conn) state.endpoints.push({ host: conn[1], port: Number(conn[2]) });
    const failed = /^(TiDB|TiKV|PD|TiFlash) \S+ failed to start: .*/.exec(line.trim()) ?? /^(Error|panic): .*/.exec(line.trim()) ?? /^Playground bootstrapping failed.*/.exec(line.trim());
    if (failed && !state.failure) state.failure = failed[0];
  }
  return state;
}
function parseSince(since) {
  if (!since || !/^(\d+[dhms])+$/.test(since)) return void 0;
  let s = 0;
  for (const [, n, unit] of since.matchAll(/(\d+)([dhms])/g))
    s += Number(n) * { d: 86400, h: 3600, m: 60, s: 1 }[unit];
  return s;
}
function parseDisplayJson(output) {
  const text = plain(output);
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end < start)
    throw new Error(`tiup cluster display printed no JSON:
${text.trim().slice(-400)}`);
  const doc = JSON.parse(text.slice(start, end + 1));
  return {
    ...doc.cluster_meta?.cluster_name ? { name: doc.cluster_meta.cluster_name } : {},
    ...doc.cluster_meta?.cluster_version ? { version: doc.cluster_meta.cluster_version } : {},
    instances: (doc.instances ?? []).map((i) => {
      const uptime = parseSince(i.since);
      return {
        id: i.id,
        role: i.role,
        host: i.host,
        ports: i.ports,
        status: i.status,
        ...uptime !== void 0 ? { uptime_s: uptime } : {}
      };
    })
  };
}
var isUp = (status) => /^(Up|Healthy)\b/.test(status);
function notUp(display) {
  return display.instances.filter((i) => !isUp(i.status));
}
function restarted(before, after, elapsedS, slackS = 5) {
  const out = [];
  for (const a of after.instances) {
    const b = before.instances.find((i) => i.id === a.id);
    if (b?.uptime_s === void 0 || a.uptime_s === void 0) continue;
    if (a.uptime_s + slackS < b.uptime_s + elapsedS) out.push(a);
  }
  return out;
}
function editConfigOutcome(output) {
  const text = plain(output);
  if (/Nothing changed\./.test(text)) return "refused";
  if (/The file has nothing changed/.test(text)) return "same";
  return "changed";
}
function editConfigReason(output) {
  const lines = plain(output).split("\n").map((l) => l.trim()).filter(Boolean);
  const i = lines.findIndex((l) => l.startsWith("New topology could not be saved"));
  return (i >= 0 ? lines.slice(i, i + 2).join(" ") : lines.slice(-2).join(" ")) || "no reason given";
}

// action/src/targets/tidb/run.ts
var lastLines = (text, n = 6) => text.trimEnd().split("\n").slice(-n).join("\n");
var tiupHome = () => process.env.TIUP_HOME || join4(homedir2(), ".tiup");
function sameSetting(want, got) {
  const norm = (v) => {
    const s = String(v).trim();
    const size = /^(\d+(?:\.\d+)?)\s*([KMGTP])(?:i?B)?$/i.exec(s);
    if (size)
      return String(Number(size[1]) * 1024 ** ("KMGTP".indexOf(size[2].toUpperCase()) + 1));
    if (/^(true|on)$/i.test(s)) return "true";
    if (/^(false|off)$/i.test(s)) return "false";
    return s;
  };
  return norm(want) === norm(got);
}
function lookup(config, key) {
  let node = config;
  const parts = key.split(".");
  for (let i = 0; i < parts.length; i++) {
    if (!node || typeof node !== "object") return void 0;
    const obj = node;
    let found = false;
    for (let j = parts.length; j > i; j--) {
      const k = parts.slice(i, j).join(".");
      if (k in obj) {
        node = obj[k];
        i = j - 1;
        found = true;
        break;
      }
    }
    if (!found) return void 0;
  }
  return node;
}
var TidbRun = class {
  constructor(plan, runDir, rawDir, log, cloud = {}) {
    this.plan = plan;
    this.rawDir = rawDir;
    this.log = log;
    this.cloud = cloud;
    this.dir = join4(runDir, "tidb");
    this.unregister = onTeardown("destroy the TiDB clusters of this run", () => this.stop());
  }
  plan;
  rawDir;
  log;
  cloud;
  running = /* @__PURE__ */ new Map();
  unregister;
  dir;
  /**
   * What the machines cost: the price table's $/h times the hours from `up` to the end of destroy
   * (measured), or until now while they still run.
   */
  cost() {
    const { cloud, estimate } = this.cloud;
    if (!cloud || !estimate) return void 0;
    const hours = ((cloud.endedAt ?? Date.now()) - cloud.startedAt) / 36e5;
    return {
      currency: "USD",
      basis: "measured",
      profile: this.plan.profile.name,
      per_hour: estimate.perHour,
      hours: Math.round(hours * 1e3) / 1e3,
      dollars: Math.round(estimate.perHour * hours * 100) / 100,
      prices_as_of: estimate.priceTable.as_of
    };
  }
  /**
   * Behind a bastion (ssh.proxy: an ephemeral cluster, or hosts the runner reaches only by SSH),
   * tiperf's own SQL and HTTP checks run on the load host; else here.
   */
  via() {
    return this.plan.profile.ssh?.proxy ? this.loadHost() : void 0;
  }
  /** Writes the plan's files (topologies, TOML configs, haproxy.cfg) into <run>/tidb/. */
  async writeFiles() {
    await mkdir2(this.dir, { recursive: true });
    for (const [name, text] of Object.entries(this.plan.files)) await writeAtomic(join4(this.dir, name), text);
  }
  /** The load host as ssh reaches it (hosts profiles), for the load tools; through the bastion if any. */
  loadHost() {
    const l = this.plan.load;
    if (!l.user) return void 0;
    const knownHosts = join4(this.dir, "known_hosts");
    const proxy = this.plan.profile.ssh?.proxy;
    const identity = l.identity ? expandHome(l.identity) : void 0;
    const bastionKey = proxy?.identity_file ? expandHome(proxy.identity_file) : identity;
    return {
      host: l.host,
      user: l.user,
      port: l.port ?? 22,
      ...identity ? { identity } : {},
      knownHosts,
      ...proxy ? {
        jump: {
          host: proxy.host,
          user: proxy.user ?? l.user,
          port: proxy.port,
          ...bastionKey ? { identity: bastionKey } : {},
          knownHosts
        }
      } : {}
    };
  }
  tiup() {
    const tiup = findTool("tiup");
    if (!tiup)
      throw new RunError(
        "target.kind tidb: tiup is not installed (install it from tiup.io, then `tiup install playground cluster`)"
      );
    return tiup;
  }
  /** Runs a tiup subcommand, its output kept in raw/; throws with tiup's last lines on a non-zero exit. */
  async tiupRun(argv, what, signal, limitS = 1800) {
    const [, ...args] = argv;
    const logFile = join4(
      this.rawDir,
      `tiup-${argv[2] ?? argv[1]}-${argv[3] ?? ""}.log`.replace(/-\.log$/, ".log")
    );
    const r = await runTool(this.tiup(), args, { logFile, signal, limitS });
    if (r.aborted) throw new RunError(`${what}: stopped: ${r.aborted}`);
    if (r.timedOut)
      throw new RunError(
        `${what}: \`${shellCommand(argv)}\` did not finish within ${limitS}s (raw output: ${logFile})`
      );
    if (r.code !== 0)
      throw new RunError(
        `${what}: \`${shellCommand(argv)}\` exited with code ${r.code}:
${lastLines(r.output)}
(raw output: ${logFile})`
      );
    return r.output;
  }
  /** The Target of one variant, starting its deployment on first use. */
  async target(variant, opts) {
    const setup = this.plan.variants.find((v) => v.name === variant);
    if (!setup) throw new RunError(`no TiDB variant ${variant} in this plan`);
    const d = this.plan.deployments[setup.deployment];
    await this.activate(setup, opts.signal);
    const r = this.running.get(d.index);
    r.users++;
    const facts = await this.record(setup, r);
    this.log(
      `target: TiDB ${facts.version} (${d.kind} ${d.name}) for variant ${variant}; SQL at ${r.endpoints.map((e) => `${e.host}:${e.port}`).join(", ")}`
    );
    const config = {};
    for (const k of setup.configKeys) {
      const v = k.value;
      config[`${k.role}.${k.key}`] = typeof v === "string" || typeof v === "number" || typeof v === "boolean" ? v : JSON.stringify(v);
    }
    let stopped = false;
    return {
      kind: d.kind === "cluster" ? "tidb-cluster" : "tidb-playground",
      version: facts.version,
      connection: { protocol: "mysql", endpoints: r.endpoints, user: "root", password: "" },
      pids: r.server ? [r.server.pid] : [],
      state: () => r.server ? `tiup playground (pid ${r.server.pid}) is ${processState(r.server.pid)}` : `tiup cluster ${d.name}: see \`tiup cluster display ${d.name}\``,
      createDatabase: async (name) => {
        await this.sql(r.sql, `CREATE DATABASE IF NOT EXISTS ${name}`, `variant ${variant}`);
      },
      effectiveConfig: facts.effective,
      died: r.died,
      stop: async () => {
        if (stopped) return;
        stopped = true;
        r.users--;
        if (r.users === 0) await r.stop();
      },
      activate: (signal) => this.activate(setup, signal),
      // a fresh instance of every component, same data (compare.blocks); a playground cannot
      ...d.kind === "cluster" ? {
        restart: async (signal) => {
          const before = await this.display(d, signal, true);
          await this.tiupRun(tiupCluster.restart(d), `restart ${d.name}`, signal);
          const after = await this.display(d, signal, true);
          r.up = true;
          await this.checkConfig(setup, r);
          const uptime = (x) => Math.min(...x.instances.map((i) => i.uptime_s ?? Number.POSITIVE_INFINITY));
          return `cluster ${d.name} restarted (shortest uptime ${uptime(before)}s \u2192 ${uptime(after)}s)`;
        }
      } : {},
      watch: () => this.watch(setup, r),
      sharedData: r,
      details: {
        deployment: `${d.kind} ${d.name}`,
        config,
        ...setup.topologyFile ? { topology: join4(this.dir, setup.topologyFile) } : {},
        tidb_version: facts.tidbVersion,
        status: facts.status
      },
      afterLoad: (database, data) => this.split(setup, r, database, data)
    };
  }
  async sql(at, query, what) {
    const args = [
      "--no-defaults",
      "-h",
      at.host,
      "-P",
      String(at.port),
      "-u",
      "root",
      "-D",
      "mysql",
      "-N",
      "-B",
      "-e",
      query
    ];
    const via = this.via();
    const r = via ? await runCommand("ssh", sshArgs(via, shellCommand(["mysql", ...args])), { timeoutMs: 12e4 }) : await runCommand(firstTool(MARIADB_PROGRAMS.client), args, { timeoutMs: 12e4 });
    if (r.code !== 0)
      throw new RunError(
        `${what}: \`${query}\` failed on ${at.host}:${at.port}${via ? ` (from the load host ${via.host})` : ""}: ${r.stderr.trim() || r.stdout.trim()}`
      );
    return r.stdout;
  }
  /** A component's JSON API: from here, or with curl on the load host behind a bastion. */
  async getJson(url) {
    const via = this.via();
    if (!via) return getJson(url);
    const r = await runCommand(
      "ssh",
      sshArgs(via, shellCommand(["curl", "-sS", "--fail", "--max-time", "10", url])),
      { timeoutMs: 6e4 }
    );
    if (r.code !== 0) throw new Error(`curl on ${via.host}: ${r.stderr.trim() || `exit ${r.code}`}`);
    try {
      return JSON.parse(r.stdout);
    } catch {
      throw new Error(`not JSON: ${r.stdout.slice(0, 200)}`);
    }
  }
  /** What actually runs: tidb_version(), /status, and each config key the spec set, read back. */
  async record(setup, r) {
    const tidbVersion = (await this.sql(r.sql, "SELECT tidb_version()", `variant ${setup.name}`)).replace(/\\n/g, "\n").trim();
    const version = /Release Version:\s*(\S+)/.exec(tidbVersion)?.[1] ?? tidbVersion.split("\n")[0] ?? "";
    const status = await this.getJson(`http://${r.status.tidb[0]}/status`).catch((e) => ({
      error: e.message
    }));
    const effective = await this.checkConfig(setup, r);
    return { version, tidbVersion, status, effective };
  }
  /**
   * Reads every config key the variant sets from the components' own /config endpoints (what
   * SHOW CONFIG shows) and fails on any that did not take effect: tiup accepts and reloads
   * configs it never checked.
   */
  async checkConfig(setup, r) {
    const effective = {};
    const wrong = [];
    const url = {
      tidb: (a) => `http://${a}/config`,
      tikv: (a) => `http://${a}/config`,
      pd: (a) => `http://${a}/pd/api/v1/config`,
      tiflash: (a) => `http://${a}/config`
    };
    for (const role of new Set(setup.configKeys.map((k) => k.role))) {
      for (const addr of r.status[role] ?? []) {
        let doc;
        try {
          doc = await this.getJson(url[role](addr));
        } catch (e) {
          throw new RunError(
            `variant ${setup.name}: cannot read the ${role} config at ${url[role](addr)} (${e.message})`
          );
        }
        for (const k of setup.configKeys.filter((c) => c.role === role)) {
          const got = lookup(doc, k.key);
          effective[`${role}.${k.key}`] = got === void 0 ? "(not reported)" : typeof got === "object" ? JSON.stringify(got) : String(got);
          if (got === void 0 || !sameSetting(k.value, got))
            wrong.push(
              `${role} ${addr}: ${k.key} is ${got === void 0 ? "not reported" : JSON.stringify(got)}, the spec sets ${JSON.stringify(k.value)}`
            );
        }
      }
    }
    if (wrong.length)
      throw new RunError(`variant ${setup.name}: configs did not take effect:
  ${wrong.join("\n  ")}`);
    return effective;
  }
  /** Brings a variant in: its deployment running (others stopped, clusters), its config applied, its SQL run. */
  async activate(setup, signal) {
    const d = this.plan.deployments[setup.deployment];
    let r = this.running.get(d.index);
    if (!r) {
      r = d.kind === "playground" ? await this.startPlayground(d, signal) : await this.deployCluster(d, signal);
      this.running.set(d.index, r);
    }
    if (d.kind === "cluster") {
      if (this.plan.switching === "stop-start" && !r.up) {
        for (const other of this.running.values())
          if (other !== r && other.up && other.deployment.kind === "cluster") {
            await this.tiupRun(tiupCluster.stop(other.deployment), `stop ${other.deployment.name}`, signal);
            other.up = false;
          }
        await this.tiupRun(tiupCluster.start(d), `start ${d.name}`, signal);
        r.up = true;
        await this.display(d, signal, true);
      }
      if (this.plan.switching === "edit-config" && r.applied !== setup.name) {
        const file = join4(this.dir, setup.topologyFile);
        const out = await this.tiupRun(
          tiupCluster.editConfig(d, file),
          `variant ${setup.name}: edit-config`,
          signal
        );
        const outcome = editConfigOutcome(out);
        if (outcome === "refused")
          throw new RunError(
            `variant ${setup.name}: tiup refused the topology ${file} ("Nothing changed.", exit 0): ${editConfigReason(out)}`
          );
        if (outcome === "changed")
          await this.tiupRun(tiupCluster.reload(d), `variant ${setup.name}: reload`, signal);
        r.applied = setup.name;
        await this.checkConfig(setup, r);
      }
    }
    for (const statement of setup.sql) await this.sql(r.sql, statement, `variant ${setup.name}: target.sql`);
  }
  async startPlayground(d, signal) {
    const argv = playgroundArgs(d, this.dir);
    const logFile = join4(this.rawDir, `tiup-playground-${d.name}.log`);
    await writeAtomic(logFile, `$ ${shellCommand(argv)}
`);
    const dataDir = join4(tiupHome(), "data", d.name);
    const server = startServerProcess(this.tiup(), argv.slice(1), { logFile });
    const forget = await record({
      kind: "playground",
      what: `tiup playground --tag ${d.name}`,
      pid: server.pid,
      path: dataDir,
      signal: "SIGINT"
    }).catch(() => async () => {
    });
    let stopping = false;
    const stop = async () => {
      stopping = true;
      await server.stop("SIGINT", 6e4);
      await rm3(dataDir, { recursive: true, force: true });
      await forget();
    };
    const died = server.exited.then(
      (how) => stopping ? new Promise(() => {
      }) : `tiup playground ${d.name} exited (code ${how.code}, signal ${how.signal})`
    );
    const deadline = Date.now() + 15 * 6e4;
    let state = readPlayground("");
    while (Date.now() < deadline && !signal.aborted) {
      state = readPlayground(await readFile3(logFile, "utf8").catch(() => ""));
      if (state.ready && state.endpoints.length) break;
      if (!server.isAlive() || state.failure) {
        await stop();
        throw new RunError(
          `tiup playground ${d.name} did not start: ${state.failure ?? `it exited`}
(raw output: ${logFile})`
        );
      }
      await new Promise((res) => setTimeout(res, 250));
    }
    if (!state.ready) {
      await stop();
      throw new RunError(
        `tiup playground ${d.name} did not report ready ("TiDB Playground Cluster is started") within 15 min${signal.aborted ? " (stopped)" : ""} (raw output: ${logFile})`
      );
    }
    const sql = state.endpoints[0];
    const expected = playgroundTidbPort(d);
    if (sql.port !== expected)
      this.log(
        `tiup playground ${d.name}: port ${expected} was busy; TiDB listens on ${sql.port} (read from its output)`
      );
    return {
      deployment: d,
      endpoints: state.endpoints,
      sql,
      status: statusAddresses(d),
      server,
      died,
      stop,
      up: true,
      loaded: /* @__PURE__ */ new Set(),
      users: 0
    };
  }
  async deployCluster(d, signal) {
    const setup = this.plan.variants.find((v) => v.deployment === d.index);
    const ephemeral = Boolean(this.cloud.cloud);
    const forget = ephemeral ? async () => {
    } : await record({ kind: "cluster", what: d.name, path: d.name }).catch(() => async () => {
    });
    let destroyed;
    const stop = () => {
      destroyed ??= (async () => {
        await this.tiupRun(
          tiupCluster.destroy(d),
          `destroy ${d.name}`,
          new AbortController().signal,
          ephemeral ? 600 : 900
        );
        await forget();
      })();
      return destroyed;
    };
    const running = {
      deployment: d,
      endpoints: tidbEndpoints(d),
      sql: tidbEndpoints(d)[0],
      status: {
        tidb: d.cluster.instances.filter((i) => i.role === "tidb").map((i) => `${i.host}:${i.ports.status_port}`),
        tikv: d.cluster.instances.filter((i) => i.role === "tikv").map((i) => `${i.host}:${i.ports.status_port}`),
        pd: d.cluster.instances.filter((i) => i.role === "pd").map((i) => `${i.host}:${i.ports.client_port}`),
        tiflash: d.cluster.instances.filter((i) => i.role === "tiflash").map((i) => `${i.host}:${i.ports.metrics_port}`)
      },
      died: new Promise(() => {
      }),
      stop,
      applied: setup.name,
      up: false,
      loaded: /* @__PURE__ */ new Set(),
      users: 0
    };
    try {
      await this.tiupRun(
        tiupCluster.deploy(d, join4(this.dir, setup.topologyFile), this.plan.profile),
        `deploy ${d.name}`,
        signal
      );
      await this.tiupRun(tiupCluster.start(d), `start ${d.name}`, signal);
      running.up = true;
      await this.display(d, signal, true);
      const remote = this.loadHost();
      if (this.plan.haproxy && remote) {
        const port = haproxyPort(this.plan, d);
        const haproxy = await startHaproxy({
          remote,
          config: this.plan.files[`haproxy-${d.name}.cfg`],
          file: `/tmp/tiperf-haproxy-${d.name}.cfg`,
          port,
          logFile: join4(this.rawDir, `haproxy-${d.name}.log`)
        });
        running.endpoints = [haproxy.endpoint];
        const destroy = running.stop;
        running.stop = async () => {
          await haproxy.stop().catch(() => {
          });
          await destroy();
        };
        this.log(`HAProxy on ${remote.host}:${port} in front of ${tidbEndpoints(d).length} TiDB servers`);
      }
    } catch (e) {
      await stop().catch((err) => this.log(`teardown: ${err.message}`));
      throw e;
    }
    if (this.plan.switching === "stop-start") {
      for (const other of this.running.values())
        if (other.up && other.deployment.kind === "cluster") {
          await this.tiupRun(tiupCluster.stop(other.deployment), `stop ${other.deployment.name}`, signal);
          other.up = false;
        }
    }
    return running;
  }
  /** `display --format json --uptime`; with `allUp`, a Down instance is an error naming it. */
  async display(d, signal, allUp) {
    const out = await this.tiupRun(tiupCluster.display(d), `display ${d.name}`, signal, 300);
    const display = parseDisplayJson(out);
    const down = notUp(display);
    if (allUp && down.length)
      throw new RunError(
        `cluster ${d.name}: ${down.map((i) => `${i.role} ${i.id} is ${i.status}`).join("; ")}`
      );
    return display;
  }
  /** Before a cell: a snapshot of the cluster; after it: a Down instance or a restart fails the cell. */
  async watch(setup, r) {
    const d = r.deployment;
    if (d.kind !== "cluster") {
      return async () => r.server && !r.server.isAlive() ? `tiup playground ${d.name} is gone` : void 0;
    }
    const signal = new AbortController().signal;
    const before = await this.display(d, signal, true);
    const started = Date.now();
    return async () => {
      const after = await this.display(d, signal, false);
      const down = notUp(after).map((i) => `${i.role} ${i.id} on ${i.host} is ${i.status}`);
      const again = restarted(before, after, (Date.now() - started) / 1e3).map(
        (i) => `${i.role} ${i.id} on ${i.host} restarted during the cell (up ${i.uptime_s}s; systemd brought it back)`
      );
      const problems = [...down, ...again];
      return problems.length ? `cluster ${d.name} (variant ${setup.name}): ${problems.join("; ")}` : void 0;
    };
  }
  /** `split:` — each sysbench table split into regions and scattered, version-aware. */
  async split(setup, r, database, data) {
    if (!setup.split || !data) return;
    const major = /^v(\d+)\.(\d+)/.exec(setup.version);
    const newScatter = !major || Number(major[1]) > 8 || Number(major[1]) === 8 && Number(major[2]) >= 4;
    const scatter = newScatter ? "SET SESSION tidb_scatter_region = 'table'" : "SET GLOBAL tidb_scatter_region = ON";
    for (let t = 1; t <= data.tables; t++) {
      const q = `${scatter}; SPLIT TABLE ${database}.sbtest${t} BETWEEN (0) AND (${data.table_size}) REGIONS ${setup.split.regions}`;
      await this.sql(r.sql, q, `variant ${setup.name}: split`);
    }
    this.log(
      `variant ${setup.name}: ${data.tables} tables split into ${setup.split.regions} regions each, scattered`
    );
  }
  /** Destroys every cluster and stops every playground of the run, then the cloud machines. Safe to call twice. */
  async stop() {
    this.unregister();
    for (const r of [...this.running.values()].reverse()) {
      r.users = 0;
      await r.stop().catch((e) => this.log(`teardown: ${e.message}`));
    }
    this.running.clear();
    const cloud = this.cloud.cloud;
    if (cloud && cloud.endedAt === void 0) {
      await cloud.destroy().catch((e) => this.log(`teardown: ${e.message}`));
      const cost = this.cost();
      if (cost)
        this.log(
          `cloud: the machines lived ${(cost.hours * 60).toFixed(1)} min: $${cost.dollars.toFixed(2)} at $${cost.per_hour.toFixed(3)}/h (prices as of ${cost.prices_as_of})`
        );
    }
  }
};
function getJson(url) {
  return new Promise((resolve, reject) => {
    const req = httpGet(url, { timeout: 1e4 }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => {
        body += d;
      });
      res.on("end", () => {
        if ((res.statusCode ?? 0) >= 400) return reject(new Error(`HTTP ${res.statusCode}`));
        try {
          resolve(JSON.parse(body));
        } catch {
          reject(new Error(`not JSON: ${body.slice(0, 200)}`));
        }
      });
    });
    req.on("timeout", () => req.destroy(new Error("no answer within 10s")));
    req.on("error", reject);
  });
}

export {
  checkCpus,
  freePort,
  makeWorkDir,
  lifecycle,
  settleServer,
  startupFailure,
  respawner,
  localTarget,
  checkDatabaseName,
  MARIADB_PROGRAMS,
  startMariadb,
  planTidb,
  loadEndpoints,
  planText,
  tiupHome,
  sameSetting,
  lookup,
  TidbRun
};
