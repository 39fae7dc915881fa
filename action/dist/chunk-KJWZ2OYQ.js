#!/usr/bin/env node
import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path';
const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);

// action/src/environment.ts
function setting(name) {
  return process.env[name];
}
function inherited() {
  return process.env;
}

// action/src/errors.ts
import { getSystemErrorMap } from "node:util";
var EXIT = {
  ok: 0,
  regression: 1,
  badInput: 2,
  runFailed: 3,
  sigint: 130,
  sigterm: 143
};
var TiperfError = class extends Error {
  constructor(message, exitCode = EXIT.badInput) {
    super(message);
    this.exitCode = exitCode;
    this.name = "TiperfError";
  }
  exitCode;
};
var InputError = class extends TiperfError {
  constructor(message) {
    super(message, EXIT.badInput);
    this.name = "InputError";
  }
};
var RunError = class extends TiperfError {
  constructor(message) {
    super(message, EXIT.runFailed);
    this.name = "RunError";
  }
};
var BuildFailed = class extends RunError {
  constructor(message, commit) {
    super(message);
    this.commit = commit;
    this.name = "BuildFailed";
  }
  commit;
};
function errnoText(e) {
  const code = e?.code;
  if (!code) return e?.message ?? String(e);
  const known = [...getSystemErrorMap().values()].find(([name]) => name === code)?.[1];
  return `${code} (${known ?? e.message.replace(/^\w+: /, "").split(",")[0]})`;
}
var WriteError = class extends RunError {
  constructor(path, cause) {
    super(`cannot write ${path}: ${errnoText(cause)}`);
    this.path = path;
    this.cause = cause;
    this.name = "WriteError";
  }
  path;
  cause;
};

// action/src/proc/process.ts
import { spawn } from "node:child_process";
import { closeSync, openSync, readdirSync, readFileSync } from "node:fs";

// action/src/proc/env.ts
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
var PASSED = [
  "PATH",
  "HOME",
  "TMPDIR",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "LC_MESSAGES",
  "LC_NUMERIC",
  "TZ",
  "USER",
  "LOGNAME",
  // tiup keeps its components, clusters and playground data under TIUP_HOME (default ~/.tiup)
  "TIUP_HOME",
  "TIUP_MIRRORS",
  // ssh (the load host, tiup's native ssh) may authenticate through an agent
  "SSH_AUTH_SOCK"
];
function childEnv(extra = {}, from = inherited()) {
  const env = {};
  for (const key of PASSED) {
    const value = from[key];
    if (value !== void 0) env[key] = value;
  }
  env.LC_NUMERIC = "C";
  if (env.PATH === void 0) env.PATH = "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin";
  return { ...env, ...extra };
}
function findTool(name, path = childEnv().PATH ?? "") {
  const candidates = name.includes("/") ? [name] : path.split(delimiter).map((d) => join(d, name));
  return candidates.find((c) => {
    try {
      accessSync(c, constants.X_OK);
      return statSync(c).isFile();
    } catch {
      return false;
    }
  });
}
var anyTool = (names) => names.some((n) => findTool(n) !== void 0);
var MYSQL_CLIENTS = ["mariadb", "mysql"];
var firstTool = (names) => names.map((n) => findTool(n)).find((t) => t !== void 0) ?? names[0];
function tiperfCommand() {
  const script = process.argv[1];
  if (!script || !/cli\.[cm]?[jt]s$/.test(script)) return "tiperf";
  return `node ${script.endsWith("ts") ? "--import tsx " : ""}${resolve(script)}`;
}

// action/src/proc/process.ts
var STATES = {
  R: "running",
  S: "sleeping",
  D: "in uninterruptible I/O wait",
  T: "stopped (SIGSTOP)",
  t: "stopped by a debugger",
  Z: "a zombie",
  X: "dead",
  I: "idle"
};
function parseStat(stat) {
  const close = stat.lastIndexOf(")");
  return { comm: stat.slice(stat.indexOf("(") + 1, close), fields: stat.slice(close + 2).split(" ") };
}
function procStat(pid) {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, "utf8")).fields;
  } catch {
    return void 0;
  }
}
function parents() {
  const out = /* @__PURE__ */ new Map();
  let entries = [];
  try {
    entries = readdirSync("/proc");
  } catch {
    return out;
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    const ppid = procStat(e)?.[1];
    if (ppid !== void 0) out.set(Number(e), Number(ppid));
  }
  return out;
}
function treeOf(roots, parentOf) {
  const children = /* @__PURE__ */ new Map();
  for (const [pid, ppid] of parentOf) children.set(ppid, [...children.get(ppid) ?? [], pid]);
  const out = [...roots];
  for (let i = 0; i < out.length; i++)
    for (const c of children.get(out[i]) ?? []) if (!out.includes(c)) out.push(c);
  return out;
}
function processState(pid) {
  const code = procStat(pid)?.[0];
  return code === void 0 ? "gone" : STATES[code] ?? `in state ${code}`;
}
function startServerProcess(command, args, opts) {
  const fd = openSync(opts.logFile, "a");
  let child;
  try {
    child = spawn(command, args, {
      detached: true,
      stdio: ["ignore", fd, fd],
      cwd: opts.cwd,
      env: childEnv(opts.env),
      ...opts.runAs ? { uid: opts.runAs.uid, gid: opts.runAs.gid } : {}
    });
  } finally {
    closeSync(fd);
  }
  let alive = true;
  const exited = new Promise((resolve2) => {
    child.once("error", () => {
      alive = false;
      resolve2({ code: 127, signal: null });
    });
    child.once("exit", (code, signal) => {
      alive = false;
      resolve2({ code, signal });
    });
  });
  const pid = child.pid ?? -1;
  return {
    pid,
    exited,
    isAlive: () => alive,
    async stop(signal, graceMs) {
      if (!alive) return;
      try {
        process.kill(pid, signal);
        process.kill(pid, "SIGCONT");
      } catch {
        return;
      }
      const timer = new Promise((r) => setTimeout(() => r("timeout"), graceMs).unref());
      if (await Promise.race([exited, timer]) === "timeout" && alive) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
        }
        await exited;
      }
    }
  };
}
function runCommand(command, args, opts = {}) {
  return new Promise((resolve2) => {
    const child = spawn(command, args, {
      stdio: ["ignore", "pipe", "pipe"],
      timeout: opts.timeoutMs ?? 6e4,
      killSignal: "SIGKILL",
      signal: opts.signal,
      env: opts.env ?? childEnv(),
      ...opts.runAs ? { uid: opts.runAs.uid, gid: opts.runAs.gid } : {}
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (d) => {
      stdout += d;
    });
    child.stderr?.on("data", (d) => {
      stderr += d;
    });
    child.once("error", (e) => resolve2({ code: 127, signal: null, stdout, stderr: stderr + e.message }));
    child.once("close", (code, signal) => resolve2({ code, signal, stdout, stderr }));
  });
}

// action/src/cloud/gcp/labels.ts
function gcpLabels(tags) {
  const clean = (s) => s.toLowerCase().replace(/[^a-z0-9_-]/g, (c) => c === "/" ? "_" : "-").slice(0, 63);
  return Object.fromEntries(Object.entries(tags).map(([k, v]) => [clean(k), clean(v)]));
}
var clusterName = (runId) => `tiperf-${runId.toLowerCase().replace(/^tiperf-/, "").replace(/[^a-z0-9-]/g, "-")}`.slice(0, 40).replace(/-+$/, "");

export {
  setting,
  inherited,
  EXIT,
  TiperfError,
  InputError,
  RunError,
  BuildFailed,
  errnoText,
  WriteError,
  childEnv,
  findTool,
  anyTool,
  MYSQL_CLIENTS,
  firstTool,
  tiperfCommand,
  parseStat,
  procStat,
  parents,
  treeOf,
  processState,
  startServerProcess,
  runCommand,
  gcpLabels,
  clusterName
};
