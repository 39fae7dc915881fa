// TEST-ONLY STAND-IN for `tiup cluster` (called by the stand-in tiup beside this file), for
// topologies whose every host is 127.0.0.1. It accepts exactly the subcommands and flags tiperf
// calls, prints tiup-cluster's real success lines, and exits as tiup does — 0 also where tiup
// exits 0 on failure (edit-config's "Nothing changed.", display with Down rows). `start` runs a
// daemon: a private MariaDB in place of the TiDB server on its port, and the components' status
// APIs (TiDB /status and /config, TiKV /config, PD /pd/api/v1/config) answering from the topology's
// server_configs and per-instance config. State lives under $TIUP_HOME/storage/cluster/clusters/.
// $TIUP_HOME/stand-in.json: {"tidb_server": PATH} → a real tidb-server (unistore) plays TiDB, its
// config from the topology (a reload restarts it on the same data);
// {"refuse_edit": true} → edit-config says "Nothing changed." (exit 0);
// {"refuse_online": ["key", …]} → TiKV's and PD's config APIs answer a POST of those keys with 400,
// as TiKV does for items that change only with a restart.
// A POST to TiKV's /config or PD's /pd/api/v1/config (what SET CONFIG sends) changes the config
// they report and survives a restart (TiKV writes it to its config file, PD to its etcd); a reload
// of the role rewrites it from the topology, as tiup does.
// {"down_after_displays": N, "down_role": "tikv"} → from display N+1 on, that role shows Down.
// Each status port (and PD's client port) answers /metrics with process_cpu_seconds_total, a real
// running counter: TiDB's the stand-in MariaDB's CPU (from /proc), TiKV's and PD's this daemon's own
// (it serves both); it measures nothing of TiKV or PD, only that tiperf reads each component apart.
// `patch NAME PKG -R ROLE --offline` unpacks the package as tiup does (its entry must be the role's
// program, executable); a patched tidb-server plays TiDB from then on (e.g. the stand-in
// tidb-server under a test's wrapper), and display names the role "<role> (patched)" as tiup does.
import { execFileSync, spawn } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer, get as httpGet } from "node:http";
import { homedir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";

const args = process.argv.slice(2);
const say = (line) => process.stdout.write(`${line}\n`);
const fail = (msg, code = 1) => {
  say(`Error: ${msg}`);
  process.exit(code);
};
/** How long a component may take to answer at start: tiup cluster's default --wait-timeout. */
const WAIT_TIMEOUT_MS = 120_000;
const home = process.env.TIUP_HOME || join(homedir(), ".tiup");
const behave = existsSync(join(home, "stand-in.json"))
  ? JSON.parse(readFileSync(join(home, "stand-in.json"), "utf8"))
  : {};
const dirOf = (name) => join(home, "storage", "cluster", "clusters", name);
const metaOf = (name) => {
  const f = join(dirOf(name), "meta.json");
  if (!existsSync(f)) fail(`Cluster ${name} not found`);
  return JSON.parse(readFileSync(f, "utf8"));
};
const save = (name, meta) => writeFileSync(join(dirOf(name), "meta.json"), JSON.stringify(meta));
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** tiup-cluster's root flags for a bastion (hidden in its help), accepted by every subcommand. */
const PROXY = {
  "--ssh-proxy-host": 1,
  "--ssh-proxy-user": 1,
  "--ssh-proxy-port": 1,
  "--ssh-proxy-identity-file": 1,
};

/** Flags each subcommand accepts (what tiperf passes), with how many values they take. */
const ACCEPTS = {
  deploy: { "--yes": 0, "--user": 1, "-i": 1, ...PROXY },
  start: { ...PROXY },
  stop: { "--yes": 0, ...PROXY },
  display: { "--format": 1, "--uptime": 0, ...PROXY },
  "edit-config": { "--topology-file": 1, "--yes": 0 },
  reload: { "--yes": 0, "-R": 1, ...PROXY },
  restart: { "--yes": 0, "-R": 1, ...PROXY },
  destroy: { "--yes": 0, ...PROXY },
  patch: { "-R": 1, "--offline": 0, "--yes": 0, ...PROXY },
};

/** tiup's bin entry of each role's package. */
const ENTRY = { tidb: "tidb-server", tikv: "tikv-server", pd: "pd-server" };
const patchedBin = (name, role) => join(dirOf(name), "patched", role, ENTRY[role]);

/**
 * With --ssh-proxy-host, tiup's SSH sessions go through the bastion with that user, port and key:
 * the stand-in logs in there as tiup would (and, on deploy, on to each host with --user and -i),
 * so wrong flags fail the way they would with tiup.
 */
function checkProxy(opt, hosts = []) {
  if (!opt["--ssh-proxy-host"]) return;
  const common = [
    ...["BatchMode=yes", "StrictHostKeyChecking=no", "UserKnownHostsFile=/dev/null", "LogLevel=ERROR"],
    "IdentitiesOnly=yes",
  ].flatMap((o) => ["-o", o]);
  const login = (port, key, user, host) => ["-p", String(port), "-i", key, "-l", user, host];
  const bastion = [
    ...common,
    ...login(
      opt["--ssh-proxy-port"] ?? "22",
      opt["--ssh-proxy-identity-file"],
      opt["--ssh-proxy-user"],
      opt["--ssh-proxy-host"],
    ),
  ];
  const ssh = (argv) => {
    try {
      execFileSync("ssh", argv, { stdio: ["ignore", "pipe", "pipe"], timeout: 30_000 });
    } catch (e) {
      fail(
        `failed to connect through the SSH proxy ${opt["--ssh-proxy-host"]}: ${String(e.stderr ?? e.message).trim()}`,
      );
    }
  };
  ssh([...bastion, "true"]);
  const proxy = `ProxyCommand=ssh ${bastion
    .slice(0, -1)
    .map((a) => `'${a}'`)
    .join(" ")} -W %h:%p ${bastion.at(-1)}`;
  for (const { host, port } of hosts)
    ssh([...common, "-o", proxy, ...login(port, opt["-i"], opt["--user"], host), "true"]);
}

function parseArgs(sub, rest) {
  const flags = ACCEPTS[sub];
  if (!flags) fail(`unknown command "${sub}" for "tiup-cluster"`);
  const pos = [];
  const opt = {};
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (!a.startsWith("-")) pos.push(a);
    else if (a in flags) opt[a] = flags[a] ? rest[++i] : true;
    else fail(`unknown flag: ${a}`);
  }
  return { pos, opt };
}

/** Dotted keys (log.level) as nested objects, the way the components report their config. */
function nested(config = {}) {
  const out = {};
  for (const [k, v] of Object.entries(config)) {
    const parts = k.split(".");
    let node = out;
    for (const p of parts.slice(0, -1)) node = node[p] ??= {};
    node[parts.at(-1)] = v && typeof v === "object" && !Array.isArray(v) ? nested(v) : v;
  }
  return out;
}

function since(s) {
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = Math.floor(s % 60);
  return [d && `${d}d`, h && `${h}h`, m && `${m}m`, sec && `${sec}s`].filter(Boolean).join("") || "-";
}

/** Items changed online (POSTed), per role: $cluster/online.json. */
const onlineFile = (name) => join(dirOf(name), "online.json");
const readOnline = (name) =>
  existsSync(onlineFile(name)) ? JSON.parse(readFileSync(onlineFile(name), "utf8")) : {};

/**
 * A component's config API: GET answers the topology's config with the items changed online over
 * it; POST (TiKV /config, PD /pd/api/v1/config) takes {"key": value} as the components do.
 */
function configRoute(name, role, base) {
  return (req, res) => {
    const send = (code, body) => {
      res.writeHead(code, { "content-type": "application/json" });
      res.end(typeof body === "string" ? body : JSON.stringify(body));
    };
    if (req.method === "GET") {
      const online = readOnline(name)[role] ?? {};
      const merged = structuredClone(base);
      for (const [k, v] of Object.entries(nested(online))) merged[k] = deepMerge(merged[k], v);
      return send(200, merged);
    }
    let body = "";
    req.on("data", (d) => {
      body += d;
    });
    req.on("end", () => {
      let items;
      try {
        items = JSON.parse(body);
      } catch {
        return send(400, "invalid json");
      }
      for (const key of Object.keys(items))
        if ((behave.refuse_online ?? []).includes(key))
          return send(400, `fail to update, error: "config ${key} can not be changed"`);
      const all = readOnline(name);
      all[role] = { ...all[role], ...items };
      writeFileSync(onlineFile(name), JSON.stringify(all));
      send(200, "");
    });
  };
}

function deepMerge(a, b) {
  if (!a || typeof a !== "object" || !b || typeof b !== "object") return b;
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = deepMerge(a[k], v);
  return out;
}

/** The HTTP servers of one port: each path a handler, or a JSON body answered to GET. */
function serveOn(servers, port, routes) {
  const s = createServer((req, res) => {
    const route = routes[req.url];
    if (typeof route === "function") return route(req, res);
    res.writeHead(route ? 200 : 404, { "content-type": "application/json" });
    res.end(JSON.stringify(route ?? { error: "not found" }));
  });
  servers.push(s);
  return new Promise((resolve) => s.listen(port, "127.0.0.1", resolve));
}

/** A /metrics route answering a process's CPU seconds as Prometheus text (what tiperf's cost reads). */
function cpuMetrics(seconds) {
  return (_req, res) => {
    res.writeHead(200, { "content-type": "text/plain; version=0.0.4" });
    res.end(
      `# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.\n# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total ${seconds()}\n`,
    );
  };
}

/** CPU seconds of a process from /proc (utime + stime, at 100 ticks a second). */
function procCpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

/** This daemon's own CPU seconds. */
const ownCpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** TiKV's and PD's config APIs of a cluster. */
async function serveStores(servers, name, topo, merged) {
  for (const t of topo.tikv_servers ?? [])
    await serveOn(servers, t.status_port, {
      "/config": configRoute(name, "tikv", merged("tikv", t)),
      "/metrics": cpuMetrics(ownCpuSeconds),
    });
  for (const t of topo.pd_servers ?? [])
    await serveOn(servers, t.client_port, {
      "/pd/api/v1/config": configRoute(name, "pd", merged("pd", t)),
      "/metrics": cpuMetrics(ownCpuSeconds),
    });
}

function startDaemon(name) {
  const meta = metaOf(name);
  const ready = join(dirOf(name), "ready");
  rmSync(ready, { force: true });
  // what the daemon says (a server that would not start) is kept for the failure below
  const daemonLog = join(dirOf(name), "daemon.log");
  const out = openSync(daemonLog, "a");
  const child = spawn(process.execPath, [process.argv[1], "__daemon", name], {
    detached: true,
    stdio: ["ignore", out, out],
    env: process.env,
  });
  closeSync(out);
  child.unref();
  meta.pid = child.pid;
  meta.started_at = Date.now();
  save(name, meta);
  // like tiup, return once every component answers (the daemon writes `ready` then), within
  // tiup cluster's default --wait-timeout of 120 s (a busy machine starts MariaDB slowly)
  const deadline = Date.now() + WAIT_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (existsSync(ready)) return;
    if (!alive(child.pid)) break;
    execFileSync("sleep", ["0.1"]);
  }
  const said = (file) =>
    existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").slice(-8).join("\n") : "";
  const tidbLog = said(join(dirOf(name), "tidb", "tidb.log"));
  fail(
    `cluster ${name} failed to start${alive(child.pid) ? ` (no answer within ${WAIT_TIMEOUT_MS / 1000}s)` : " (the daemon exited)"}\n${said(daemonLog)}${tidbLog ? `\ntidb.log:\n${tidbLog}` : ""}`,
  );
}

function stopDaemon(name) {
  const meta = metaOf(name);
  if (meta.pid && alive(meta.pid)) {
    process.kill(meta.pid, "SIGTERM");
    for (let i = 0; i < 300 && alive(meta.pid); i++) execFileSync("sleep", ["0.1"]);
  }
  meta.pid = undefined;
  save(name, meta);
}

/** Nested config as TOML (tables and scalars), for a real tidb-server's -config. */
function toToml(obj, path = []) {
  const scalars = Object.entries(obj).filter(([, v]) => !(v && typeof v === "object" && !Array.isArray(v)));
  const tables = Object.entries(obj).filter(([, v]) => v && typeof v === "object" && !Array.isArray(v));
  const key = (k) => (/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k));
  const lines = path.length && scalars.length ? [`[${path.map(key).join(".")}]`] : [];
  for (const [k, v] of scalars) lines.push(`${key(k)} = ${JSON.stringify(v)}`);
  for (const [k, v] of tables) lines.push(toToml(v, [...path, k]));
  return lines.join("\n");
}

/**
 * A tidb-server in TiDB's place (unistore): a real one from {"tidb_server": PATH} in stand-in.json,
 * or a patched build; its config from the topology.
 */
async function realTidb(name, topo, merged, program) {
  const t = topo.tidb_servers[0];
  const dir = join(dirOf(name), "tidb");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "tidb.toml"), `${toToml(merged("tidb", t))}\n`);
  const child = spawn(
    program,
    [
      "-store",
      "unistore",
      "-path",
      join(dir, "data"),
      "-host",
      "127.0.0.1",
      "-P",
      String(t.port),
      "-status",
      String(t.status_port),
      "-status-host",
      "127.0.0.1",
      "-socket",
      join(dir, "tidb.sock"),
      "-log-file",
      join(dir, "tidb.log"),
      "-config",
      join(dir, "tidb.toml"),
      "-config-strict",
    ],
    { stdio: "ignore" },
  );
  const deadline = Date.now() + WAIT_TIMEOUT_MS;
  for (;;) {
    const up = await new Promise((resolve) => {
      const req = httpGet(
        { host: "127.0.0.1", port: t.status_port, path: "/status", timeout: 1000 },
        (res) => {
          res.resume();
          resolve(res.statusCode === 200);
        },
      );
      req.on("error", () => resolve(false));
      req.on("timeout", () => req.destroy());
    });
    if (up) break;
    if (Date.now() > deadline || child.exitCode !== null) {
      console.error(
        `${program}: ${child.exitCode !== null ? `exited with code ${child.exitCode}` : `no answer on /status at 127.0.0.1:${t.status_port}`}`,
      );
      process.exit(1);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return child;
}

async function daemon(name) {
  const topo = parse(readFileSync(join(dirOf(name), "topology.yaml"), "utf8"));
  const tidb = topo.tidb_servers[0];
  const program = existsSync(patchedBin(name, "tidb")) ? patchedBin(name, "tidb") : behave.tidb_server;
  if (program) {
    const sc = topo.server_configs ?? {};
    const merged = (role, inst) => ({ ...nested(sc[role]), ...nested(inst.config) });
    const child = await realTidb(name, topo, merged, program);
    const servers = [];
    await serveStores(servers, name, topo, merged);
    const stop = () => {
      for (const s of servers) s.close();
      child.kill("SIGTERM");
      child.once("exit", () => process.exit(0));
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
    writeFileSync(join(dirOf(name), "ready"), "");
    return;
  }
  const db = join(dirOf(name), "mariadb");
  const root = process.getuid() === 0 ? ["--user=root"] : [];
  if (!existsSync(join(db, "mysql"))) {
    mkdirSync(db, { recursive: true });
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
  }
  const server = existsSync("/usr/sbin/mariadbd") ? "/usr/sbin/mariadbd" : "/usr/sbin/mysqld";
  const m = spawn(
    server,
    [
      "--no-defaults",
      `--datadir=${db}`,
      `--port=${tidb.port}`,
      "--bind-address=127.0.0.1",
      `--socket=${join(dirOf(name), "mysqld.sock")}`,
      "--max-connections=500",
      ...root,
    ],
    { stdio: "ignore" },
  );
  const servers = [];
  const stop = () => {
    for (const s of servers) s.close();
    m.kill("SIGTERM");
    m.once("exit", () => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  for (let i = 0; ; i++) {
    try {
      execFileSync(
        "mariadb",
        [
          "--no-defaults",
          "-h",
          "127.0.0.1",
          "-P",
          String(tidb.port),
          "-u",
          "root",
          "-e",
          `CREATE OR REPLACE FUNCTION mysql.tidb_version() RETURNS TEXT RETURN 'Release Version: ${JSON.parse(readFileSync(join(dirOf(name), "meta.json"), "utf8")).version}\\nEdition: Community\\nGit Commit Hash: stand-in'`,
        ],
        { stdio: "ignore" },
      );
      break;
    } catch {
      if (i > 300) {
        console.error(`the stand-in's MariaDB does not answer on 127.0.0.1:${tidb.port}`);
        process.exit(1);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const sc = topo.server_configs ?? {};
  const merged = (role, inst) => ({ ...nested(sc[role]), ...nested(inst.config) });
  for (const t of topo.tidb_servers ?? [])
    await serveOn(servers, t.status_port, {
      "/status": {
        version: `8.0.11-TiDB-${JSON.parse(readFileSync(join(dirOf(name), "meta.json"), "utf8")).version}`,
      },
      "/config": merged("tidb", t),
      "/metrics": cpuMetrics(() => procCpuSeconds(m.pid)),
    });
  await serveStores(servers, name, topo, merged);
  writeFileSync(join(dirOf(name), "ready"), "");
}

const [sub, ...rest] = args[0] === "__daemon" ? ["__daemon", ...args.slice(1)] : args.slice(1);
if (sub === "__daemon") {
  await daemon(rest[0]);
} else {
  const { pos, opt } = parseArgs(sub, rest);
  const name = pos[0];
  if (!name) fail(`accepts 1 arg(s), received 0`);
  if (sub !== "deploy") checkProxy(opt);
  if (sub === "deploy") {
    const [, version, file] = pos;
    if (!opt["--yes"] || !opt["--user"]) fail("tiperf always passes --yes and --user");
    if (existsSync(dirOf(name))) fail(`Cluster name '${name}' is duplicated`);
    const topo = parse(readFileSync(file, "utf8"));
    for (const section of ["pd_servers", "tikv_servers", "tidb_servers"])
      for (const i of topo[section] ?? [])
        if (i.host !== "127.0.0.1") fail(`the stand-in deploys on 127.0.0.1 only (${section}: ${i.host})`);
    checkProxy(opt, [{ host: "127.0.0.1", port: topo.global?.ssh_port ?? 22 }]);
    mkdirSync(dirOf(name), { recursive: true });
    writeFileSync(join(dirOf(name), "topology.yaml"), readFileSync(file));
    save(name, { version, displays: 0 });
    say(
      `Cluster \`${name}\` deployed successfully, you can start it with command: \`tiup cluster start ${name} --init\``,
    );
  } else if (sub === "start") {
    startDaemon(name);
    say(`Started cluster \`${name}\` successfully`);
  } else if (sub === "stop") {
    stopDaemon(name);
    say(`Stopped cluster \`${name}\` successfully`);
  } else if (sub === "display") {
    if (opt["--format"] !== "json") fail("tiperf reads display as --format json");
    const meta = metaOf(name);
    meta.displays = (meta.displays ?? 0) + 1;
    save(name, meta);
    const topo = parse(readFileSync(join(dirOf(name), "topology.yaml"), "utf8"));
    const up = Boolean(meta.pid && alive(meta.pid));
    const instances = [];
    const add = (role, i, ports, port) => {
      const down =
        !up ||
        (behave.down_after_displays !== undefined &&
          meta.displays > behave.down_after_displays &&
          behave.down_role === role);
      instances.push({
        id: `${i.host}:${port}`,
        role: existsSync(patchedBin(name, role)) ? `${role} (patched)` : role,
        host: i.host,
        ports,
        os_arch: "linux/x86_64",
        status: down ? "Down" : "Up",
        since: down ? "-" : since((Date.now() - meta.started_at) / 1000),
        data_dir: i.data_dir ?? "-",
        deploy_dir: i.deploy_dir,
      });
    };
    for (const i of topo.pd_servers ?? []) add("pd", i, `${i.client_port}/${i.peer_port}`, i.client_port);
    for (const i of topo.tikv_servers ?? []) add("tikv", i, `${i.port}/${i.status_port}`, i.port);
    for (const i of topo.tidb_servers ?? []) add("tidb", i, `${i.port}/${i.status_port}`, i.port);
    say(
      JSON.stringify({
        cluster_meta: {
          cluster_type: "tidb",
          cluster_name: name,
          cluster_version: meta.version,
          deploy_user: "tidb",
          ssh_type: "builtin",
          tls_enabled: false,
        },
        instances,
      }),
    );
  } else if (sub === "edit-config") {
    metaOf(name);
    const file = opt["--topology-file"];
    if (!file || !opt["--yes"]) fail("tiperf always passes --topology-file and --yes");
    if (behave.refuse_edit) {
      say("New topology could not be saved: stand-in refuses every edit");
      say("Nothing changed.");
      process.exit(0);
    }
    const current = readFileSync(join(dirOf(name), "topology.yaml"), "utf8");
    const next = readFileSync(file, "utf8");
    if (JSON.stringify(parse(current)) === JSON.stringify(parse(next))) {
      say("The file has nothing changed");
      process.exit(0);
    }
    writeFileSync(join(dirOf(name), "topology.yaml"), next);
    say(
      `Applied successfully, please use \`tiup cluster reload ${name} [-N <nodes>] [-R <roles>]\` to make the change effective.`,
    );
  } else if (sub === "reload") {
    const roles = opt["-R"] ? opt["-R"].split(",") : ["pd", "tikv", "tidb", "tiflash"];
    for (const r of roles) if (!["pd", "tikv", "tidb", "tiflash"].includes(r)) fail(`unknown role ${r}`);
    // the reloaded roles' config files are written from the topology again
    const online = readOnline(name);
    for (const r of roles) delete online[r];
    writeFileSync(onlineFile(name), JSON.stringify(online));
    const meta = metaOf(name);
    meta.reloads = [...(meta.reloads ?? []), roles.join(",")];
    save(name, meta);
    stopDaemon(name);
    startDaemon(name);
    say(`Reloaded cluster \`${name}\` successfully`);
  } else if (sub === "restart") {
    const meta = metaOf(name);
    meta.restarts = [...(meta.restarts ?? []), opt["-R"] ?? "all"];
    save(name, meta);
    stopDaemon(name);
    startDaemon(name);
    say(`Restarted cluster \`${name}\` successfully`);
  } else if (sub === "patch") {
    const [, pkg] = pos;
    const meta = metaOf(name);
    const role = opt["-R"];
    if (!role) fail("the flag -R or -N must be specified at least one");
    if (!ENTRY[role]) fail(`the stand-in patches tidb, tikv or pd (got ${role})`);
    if (!opt["--yes"] || !opt["--offline"])
      fail("tiperf always patches a stopped cluster with --offline --yes");
    if (meta.pid && alive(meta.pid)) fail("tiperf patches before the first start: the cluster is running");
    if (!pkg || !existsSync(pkg)) fail(`specified package(${pkg}) not exists`);
    const dir = join(dirOf(name), "patched", role);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    try {
      execFileSync("tar", ["-xzf", pkg, "-C", dir], { stdio: "ignore" });
    } catch {
      fail(`decompress ${pkg}`);
    }
    if (!existsSync(patchedBin(name, role))) {
      rmSync(dir, { recursive: true, force: true });
      fail(`entry ${ENTRY[role]} not found in package ${pkg}`);
    }
    if ((statSync(patchedBin(name, role)).mode & 0o500) !== 0o500)
      fail(`entry ${ENTRY[role]} in package ${pkg} is not executable`);
  } else if (sub === "destroy") {
    if (existsSync(dirOf(name))) stopDaemon(name);
    rmSync(dirOf(name), { recursive: true, force: true });
    say(`Destroyed cluster \`${name}\` successfully`);
  }
}
