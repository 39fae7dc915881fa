#!/usr/bin/env node
import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path';
const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);
import {
  InputError,
  ResourceControlSchema,
  RunError,
  ServerConfigsSchema,
  WriteError,
  durationSchema,
  external_exports,
  formatIssues,
  forwardIssues,
  numaNode,
  parseYaml,
  validateYaml
} from "./chunk-KZLFUJ4J.js";

// action/src/proc/env.ts
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
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
function childEnv(extra = {}, from = process.env) {
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
var firstTool = (names) => names.map((n) => findTool(n)).find((t) => t !== void 0) ?? names[0];

// action/src/teardown.ts
var stack = [];
function onTeardown(name, run) {
  const entry = { name, run };
  stack.push(entry);
  return () => {
    const i = stack.indexOf(entry);
    if (i >= 0) stack.splice(i, 1);
  };
}
async function teardownAll(log = () => {
}) {
  while (stack.length > 0) {
    const entry = stack.pop();
    try {
      await entry.run();
    } catch (e) {
      log(`teardown: ${entry.name} failed: ${e.message}`);
    }
  }
}
var Interrupted = class extends Error {
  constructor(signal, exitCode) {
    super(`interrupted by ${signal}`);
    this.signal = signal;
    this.exitCode = exitCode;
    this.name = "Interrupted";
  }
  signal;
  exitCode;
};
var graces = [];
function holdGrace(ms) {
  const token = { ms };
  graces.push(token);
  return () => {
    const i = graces.indexOf(token);
    if (i >= 0) graces.splice(i, 1);
  };
}
var installed = false;
function installSignalTeardown(abort, log, graceMs = 6e4) {
  if (installed) return;
  installed = true;
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
    ["SIGHUP", 129]
  ]) {
    process.on(signal, () => {
      if (abort.signal.aborted) return;
      log(`tiperf: ${signal} received: stopping and tearing down`);
      abort.abort(new Interrupted(signal, code));
      const grace = Math.max(graceMs, ...graces.map((g) => g.ms));
      setTimeout(() => {
        log(`tiperf: still unwinding after ${grace / 1e3}s: tearing down directly`);
        void teardownAll(log).finally(() => process.exit(code));
      }, grace).unref();
    });
  }
}
function installCrashTeardown(log, describe) {
  let crashed = false;
  const crash = (e) => {
    if (crashed) return;
    crashed = true;
    log(`error: ${describe(e)}`);
    void teardownAll(log).finally(() => process.exit(3));
  };
  process.on("uncaughtException", crash);
  process.on("unhandledRejection", crash);
}

// action/src/proc/quote.ts
function shellQuote(arg) {
  if (arg === "") return "''";
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}
function shellCommand(argv) {
  return argv.map(shellQuote).join(" ");
}

// action/src/proc/ssh.ts
var WRAPPER = [
  "exec 3<&0",
  'setsid "$@" </dev/null 3<&- & p=$!',
  '( while read -r s; do kill -s "$s" -- "-$p" 2>/dev/null; done; kill -s TERM -- "-$p" 2>/dev/null; sleep 3; kill -s KILL -- "-$p" 2>/dev/null ) <&3 & w=$!',
  "exec 3<&-",
  'wait "$p"; s=$?',
  'kill "$w" 2>/dev/null',
  'exit "$s"'
].join("\n");
function remoteCommand(argv) {
  return shellCommand(["sh", "-c", WRAPPER, "sh", ...argv]);
}
function sshPath(path) {
  if (/["\n\\]/.test(path))
    throw new RunError(
      `ssh cannot be given the path ${JSON.stringify(path)}: it holds a double quote, backslash or newline`
    );
  return `"${path.replace(/%/g, "%%")}"`;
}
function hostOptions(h) {
  return [
    "-o",
    "BatchMode=yes",
    "-o",
    "StrictHostKeyChecking=accept-new",
    // "Permanently added … to the list of known hosts" would land in the tool's output
    "-o",
    "LogLevel=ERROR",
    ...h.knownHosts ? ["-o", `UserKnownHostsFile=${sshPath(h.knownHosts)}`] : [],
    "-o",
    "ServerAliveInterval=15",
    "-o",
    "ServerAliveCountMax=4",
    "-o",
    "ConnectTimeout=15",
    "-p",
    String(h.port),
    ...h.identity ? ["-o", `IdentityFile=${sshPath(h.identity)}`, "-o", "IdentitiesOnly=yes"] : [],
    "-l",
    h.user,
    ...h.jump ? ["-o", `ProxyCommand=${proxyCommand(h.jump)}`] : []
  ];
}
function proxyCommand(jump) {
  const args = ["ssh", ...hostOptions(jump), "-W", "%h:%p", jump.host];
  return args.map((a) => a === "%h:%p" ? a : shellCommand([a]).replace(/%/g, "%%")).join(" ");
}
function sshArgs(h, remote) {
  return [...hostOptions(h), h.host, "--", remote];
}

// action/src/proc/tool.ts
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
var KILL_GRACE_MS = 3e3;
function runTool(command, args, opts) {
  return new Promise((resolve) => {
    const started = Date.now();
    const [local, localArgs] = opts.cpus ? ["taskset", ["-c", opts.cpus, command, ...args]] : [command, args];
    const remote = opts.remote;
    const [cmd, argv] = remote ? ["ssh", sshArgs(remote, remoteCommand([local, ...localArgs]))] : [local, localArgs];
    const log = createWriteStream(opts.logFile, { flags: "a" });
    let writeError;
    let output = "";
    let aborted;
    let timedOut;
    let killTimer;
    const write = (chunk) => {
      if (!writeError) log.write(chunk);
    };
    write(
      remote ? `$ ${shellCommand([local, ...localArgs])}    # on ${remote.user}@${remote.host}: ${shellCommand([cmd, ...argv])}
` : `$ ${shellCommand([cmd, ...argv])}
`
    );
    const child = spawn(cmd, argv, {
      stdio: [remote ? "pipe" : "ignore", "pipe", "pipe"],
      env: childEnv(opts.env)
    });
    child.stdin?.on("error", () => {
    });
    const kill = () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (child.stdin) {
        child.stdin.end();
        killTimer ??= setTimeout(() => {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
        }, KILL_GRACE_MS + 5e3);
        return;
      }
      child.kill("SIGTERM");
      killTimer ??= setTimeout(() => {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      }, KILL_GRACE_MS);
    };
    log.on("error", (e) => {
      writeError ??= new WriteError(opts.logFile, e);
      kill();
    });
    const onData = (d) => {
      output += d.toString();
      write(d);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    const unregister = onTeardown(`stop ${command} (pid ${child.pid})`, kill);
    const onAbort = () => {
      const reason = opts.signal?.reason;
      aborted = reason instanceof Error ? reason.message : String(reason ?? "aborted");
      kill();
    };
    if (opts.signal?.aborted) onAbort();
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    const watchdog = opts.limitS === void 0 ? void 0 : setTimeout(() => {
      timedOut = { limit_s: opts.limitS };
      kill();
    }, opts.limitS * 1e3);
    const stopper = opts.stopAfterS === void 0 ? void 0 : setTimeout(() => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (child.stdin) child.stdin.write("INT\n");
      else child.kill("SIGINT");
    }, opts.stopAfterS * 1e3);
    let done = false;
    const finish = (code, sig) => {
      if (done) return;
      done = true;
      unregister();
      clearTimeout(watchdog);
      clearTimeout(stopper);
      clearTimeout(killTimer);
      opts.signal?.removeEventListener("abort", onAbort);
      const run = {
        code,
        signal: sig,
        output,
        elapsed_s: (Date.now() - started) / 1e3,
        ...aborted ? { aborted } : {},
        ...timedOut ? { timedOut } : {}
      };
      const settle = () => resolve(writeError ? { ...run, writeError } : run);
      if (writeError || log.destroyed) return settle();
      log.once("error", settle);
      log.end(settle);
    };
    child.once("error", (e) => {
      output += `
${e.message}`;
      finish(127, null);
    });
    child.once("close", finish);
  });
}

// action/src/drivers/go-tpc/index.ts
import { cpus } from "node:os";

// action/src/compare/stats.ts
var mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
function variance(xs) {
  if (xs.length < 2) return Number.NaN;
  const m = mean(xs);
  return xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1);
}
var stddev = (xs) => Math.sqrt(variance(xs));
function logGamma(x) {
  const c = [
    0.9999999999998099,
    676.5203681218851,
    -1259.1392167224028,
    771.3234287776531,
    -176.6150291621406,
    12.507343278686905,
    -0.13857109526572012,
    9984369578019572e-21,
    15056327351493116e-23
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let a = c[0];
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}
function betaCf(a, b, x) {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - (a + b) * x / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-14) break;
  }
  return h;
}
function incompleteBeta(a, b, x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? front * betaCf(a, b, x) / a : 1 - front * betaCf(b, a, 1 - x) / b;
}
function tCdf(t, df) {
  const x = df / (df + t * t);
  const tail = 0.5 * incompleteBeta(df / 2, 0.5, x);
  return t >= 0 ? 1 - tail : tail;
}
function tQuantile(p, df) {
  if (!(p > 0 && p < 1)) throw new RangeError(`tQuantile: p must be in (0, 1), got ${p}`);
  if (!Number.isFinite(df)) return normalQuantile(p);
  let lo = -1e4;
  let hi = 1e4;
  for (let i = 0; i < 200 && hi - lo > 1e-12; i++) {
    const mid = (lo + hi) / 2;
    if (tCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
function normalQuantile(p) {
  const a = [
    -39.69683028665376,
    220.9460984245205,
    -275.9285104469687,
    138.357751867269,
    -30.66479806614716,
    2.506628277459239
  ];
  const b = [
    -54.47609879822406,
    161.5858368580409,
    -155.6989798598866,
    66.80131188771972,
    -13.28068155288572
  ];
  const c = [
    -0.007784894002430293,
    -0.3223964580411365,
    -2.400758277161838,
    -2.549732539343734,
    4.374664141464968,
    2.938163982698783
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const pl = 0.02425;
  const poly = (k, x) => k.reduce((s, v) => s * x + v, 0);
  if (p < pl) {
    const q2 = Math.sqrt(-2 * Math.log(p));
    return poly(c, q2) / (poly(d, q2) * q2 + 1);
  }
  if (p > 1 - pl) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return poly(a, r) * q / (poly(b, r) * r + 1);
}
var TRIM = 0.1;
function trimmedShift(xs, trim) {
  const n = xs.length;
  const g = Math.floor(trim * n);
  const sorted = [...xs].sort((a, b) => a - b);
  const kept = sorted.slice(g, n - g);
  const lo = sorted[g];
  const hi = sorted[n - g - 1];
  const winsorized = sorted.map((x) => Math.min(Math.max(x, lo), hi));
  const h = n - 2 * g;
  const se = Math.sqrt(variance(winsorized) / n) / (h / n);
  return { estimate: mean(kept), se, df: h - 1, n };
}
function pairedLogShift(base, head, trim = TRIM) {
  if (base.length !== head.length) throw new Error("paired samples must have equal length");
  return trimmedShift(
    base.map((b, i) => Math.log(head[i] / b)),
    trim
  );
}
function welchLogShift(base, head) {
  const lb = base.map(Math.log);
  const lh = head.map(Math.log);
  const vb = variance(lb) / lb.length;
  const vh = variance(lh) / lh.length;
  const se = Math.sqrt(vb + vh);
  const df = (vb + vh) ** 2 / (vb ** 2 / (lb.length - 1) + vh ** 2 / (lh.length - 1));
  return { estimate: mean(lh) - mean(lb), se, df, n: Math.min(lb.length, lh.length) };
}
function batchMeans(xs, batches) {
  const k = Math.min(batches, xs.length);
  const out = [];
  for (let i = 0; i < k; i++) {
    const from = Math.floor(i * xs.length / k);
    const to = Math.floor((i + 1) * xs.length / k);
    out.push(mean(xs.slice(from, to)));
  }
  return out;
}
function blockLogShift(pairs) {
  const byBlock = /* @__PURE__ */ new Map();
  for (const p of pairs) {
    const list = byBlock.get(p.block) ?? [];
    list.push(Math.log(p.head / p.base));
    byBlock.set(p.block, list);
  }
  const groups = [...byBlock.values()];
  const means = groups.map(mean);
  const b = groups.length;
  const n = pairs.length;
  const estimate = b ? mean(means) : Number.NaN;
  const se = b > 1 ? Math.sqrt(variance(means) / b) : Number.NaN;
  let betweenShare = 0;
  if (b > 1 && n > b) {
    const grand = mean(groups.flat());
    const msb = groups.reduce((s, g) => s + g.length * (mean(g) - grand) ** 2, 0) / (b - 1);
    const msw = groups.reduce((s, g) => s + g.reduce((t, x) => t + (x - mean(g)) ** 2, 0), 0) / (n - b);
    const n0 = (n - groups.reduce((s, g) => s + g.length ** 2, 0) / n) / (b - 1);
    const between = Math.max(0, (msb - msw) / n0);
    betweenShare = between + msw > 0 ? between / (between + msw) : 0;
  }
  return { estimate, se, df: b - 1, n: b, blocks: b, betweenShare };
}

// action/src/drivers/text.ts
var NUM = String.raw`(-?\d+(?:\.\d+)?)`;
var FIELD = new RegExp(String.raw`^([\w.()]+): ${NUM}$`);
function plainFields(rest) {
  const out = {};
  for (const part of rest.split(", ")) {
    const m = FIELD.exec(part.trim());
    if (m) out[m[1]] = m[2];
  }
  return out;
}
function numbersOf(values, fields3, fail) {
  const out = {};
  for (const [label, key] of fields3) {
    const raw = values[label];
    const n = raw === void 0 ? Number.NaN : Number(raw);
    if (!Number.isFinite(n)) throw fail(`expected a number for ${label} (got ${raw})`);
    out[key] = n;
  }
  return out;
}

// action/src/drivers/go-tpc/parse.ts
var GoTpcParseError = class extends Error {
  constructor(message) {
    super(message);
    this.name = "GoTpcParseError";
  }
};
var FIELDS = [
  ["Takes(s)", "takes_s"],
  ["Count", "count"],
  ["TPM", "tpm"],
  ["Sum(ms)", "sum_ms"],
  ["Avg(ms)", "avg_ms"],
  ["50th(ms)", "p50_ms"],
  ["90th(ms)", "p90_ms"],
  ["95th(ms)", "p95_ms"],
  ["99th(ms)", "p99_ms"],
  ["99.9th(ms)", "p999_ms"],
  ["Max(ms)", "max_ms"]
];
var PLAIN_ROW = /^\[(Summary|Current)\] (\w+) - (.*)$/;
function operation(values, where) {
  const op = numbersOf(values, FIELDS, (why) => new GoTpcParseError(`${where}: ${why}`));
  if (op.count > 0) op.avg_ms = op.sum_ms / op.count;
  return op;
}
function goTpcFailure(text) {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const panic = lines.findIndex((l) => l.startsWith("panic:"));
  if (panic >= 0) {
    const before = lines.slice(0, panic).reverse().find((l) => /failed|error/i.test(l));
    return before ? `${before} (${lines[panic]})` : lines[panic];
  }
  return lines.find((l) => /^execute \w+ failed/.test(l)) ?? lines.find((l) => /^\[[\d-]+ [\d:]+\] execute \w+ failed/.test(l)) ?? lines.find((l) => /create db .* failed|failed to ping db/.test(l));
}
function parseTpcc(text) {
  const failure = goTpcFailure(text);
  const report = {
    tpmc: Number.NaN,
    tpm_total: Number.NaN,
    efficiency: Number.NaN,
    operations: {},
    errors: {},
    intervals: [],
    worker_errors: []
  };
  let n = 0;
  let seenInGroup = /* @__PURE__ */ new Set();
  const addRow = (kind, name, op) => {
    if (kind === "Summary") {
      if (name.endsWith("_ERR")) report.errors[name.slice(0, -4)] = op;
      else report.operations[name] = op;
      return;
    }
    if (n === 0 || seenInGroup.has(name)) {
      n++;
      seenInGroup = /* @__PURE__ */ new Set();
    }
    seenInGroup.add(name);
    report.intervals.push({ n, operation: name, ...op });
  };
  for (const [i, line] of text.split(/\r?\n/).entries()) {
    const where = `line ${i + 1}`;
    const plain = PLAIN_ROW.exec(line);
    if (plain) {
      addRow(plain[1], plain[2], operation(plainFields(plain[3]), where));
      continue;
    }
    const total = new RegExp(`^tpmC: ${NUM}, tpmTotal: ${NUM}, efficiency: ${NUM}%`).exec(line);
    if (total) {
      report.tpmc = Number(total[1]);
      report.tpm_total = Number(total[2]);
      report.efficiency = Number(total[3]);
      continue;
    }
    if (line.startsWith("[{")) {
      let rows;
      try {
        rows = JSON.parse(line);
      } catch {
        throw new GoTpcParseError(`${where}: unreadable json output: ${line.slice(0, 120)}`);
      }
      for (const row of rows) {
        if ("tpmC" in row) {
          report.tpmc = Number(row.tpmC);
          report.tpm_total = Number(row.tpmTotal);
          report.efficiency = Number(String(row.efficiency).replace(/%$/, ""));
        } else {
          const kind = String(row.Prefix ?? "").includes("Summary") ? "Summary" : "Current";
          addRow(kind, String(row.Operation), operation(row, where));
        }
      }
      continue;
    }
    const stopped = /run worker \d+ stopped (?!due to timeout)(.*)$/.exec(line);
    if (stopped) report.worker_errors.push(line.replace(/^\[[\d-]+ [\d:]+\] /, ""));
  }
  if (failure && !(Number.isFinite(report.tpmc) && Object.keys(report.operations).length > 0)) {
    throw new GoTpcParseError(`go-tpc failed: ${failure}`);
  }
  if (!Number.isFinite(report.tpmc)) {
    throw new GoTpcParseError(
      `expected go-tpc's final "tpmC: \u2026, tpmTotal: \u2026, efficiency: \u2026%" line${failure ? ` (go-tpc said: ${failure})` : ""}`
    );
  }
  if (Object.keys(report.operations).length === 0) {
    throw new GoTpcParseError(
      `go-tpc printed tpmC ${report.tpmc} but no [Summary] row of a successful transaction: every worker failed`
    );
  }
  return report;
}
function parseTpch(text) {
  const failure = goTpcFailure(text);
  if (failure) throw new GoTpcParseError(`go-tpc failed: ${failure}`);
  const queries = {};
  for (const line of text.split(/\r?\n/)) {
    const m = new RegExp(String.raw`^\[Summary\] (Q\d+): ${NUM}s$`).exec(line.trim());
    if (m) queries[m[1]] = Number(m[2]);
  }
  if (Object.keys(queries).length === 0)
    throw new GoTpcParseError(`expected go-tpc tpch's "[Summary] Q1: 7.62s" lines`);
  return { queries };
}

// action/src/drivers/go-tpc/index.ts
var TPCC_TRANSACTIONS = ["NEW_ORDER", "PAYMENT", "ORDER_STATUS", "DELIVERY", "STOCK_LEVEL"];
var ALL_QUERIES = Array.from({ length: 22 }, (_, i) => `q${i + 1}`);
var TpccOptions = external_exports.strictObject({
  warehouses: external_exports.number().int().min(1).default(1),
  /** Seconds between go-tpc's [Current] reports: the interval samples. */
  interval: durationSchema(1).default(2),
  /** Let prepare run go-tpc's consistency check of the loaded data (slow: off by default). */
  check: external_exports.boolean().default(false),
  isolation: external_exports.number().int().min(0).max(7).optional(),
  wait: external_exports.boolean().optional(),
  weight: external_exports.string().regex(/^\d+(,\d+){4}$/, "five weights like 45,43,4,4,4").optional(),
  parts: external_exports.number().int().min(1).optional(),
  "partition-type": external_exports.number().int().min(1).max(4).optional(),
  "conn-params": external_exports.string().optional()
});
var TpchOptions = external_exports.strictObject({
  /** Scale factor: go-tpc takes a whole number ≥ 1. */
  sf: external_exports.number().int().min(1).default(1),
  queries: external_exports.string().regex(/^q\d+(,q\d+)*$/, "a comma-separated list like q1,q3,q6").refine((q) => q.split(",").every((x) => ALL_QUERIES.includes(x)), "queries are q1 \u2026 q22").default(ALL_QUERIES.join(",")),
  /** Times each query runs in a cell. */
  count: external_exports.number().int().min(1).default(1),
  "conn-params": external_exports.string().optional()
});
var Keys = external_exports.strictObject({
  "go-tpc": external_exports.enum(["tpcc", "tpch"], { error: "must be tpcc or tpch" }),
  options: external_exports.record(external_exports.string(), external_exports.unknown()).default({})
}).transform((k, ctx) => {
  const schema = k["go-tpc"] === "tpcc" ? TpccOptions : TpchOptions;
  const parsed = schema.safeParse(k.options);
  if (!parsed.success) {
    const allowed = Object.keys(schema.shape).join(", ");
    forwardIssues(
      ctx,
      parsed.error.issues,
      ["options"],
      (key) => `unknown go-tpc ${k["go-tpc"]} option ${key} (allowed: ${allowed}; threads, duration and connections are set by tiperf)`
    );
    return external_exports.NEVER;
  }
  const options = Object.fromEntries(
    Object.entries(parsed.data).filter(([, v]) => v !== void 0)
  );
  return { script: k["go-tpc"], options };
});
function connectionArgs(c, database) {
  return [
    "-d",
    c.protocol === "mysql" ? "mysql" : "postgres",
    "-H",
    c.endpoints.map((e) => e.host).join(","),
    "-P",
    c.endpoints.map((e) => e.port).join(","),
    "-U",
    c.user,
    ...c.password ? ["-p", c.password] : [],
    "-D",
    database
  ];
}
var opt = (w, k) => w.options[k];
var passThrough = (w, keys) => keys.flatMap((k) => {
  const v = opt(w, k);
  if (v === void 0) return [];
  return typeof v === "boolean" ? v ? [`--${k}`] : [] : [`--${k}`, String(v)];
});
var lower = (op) => op.toLowerCase();
function tpccMetrics() {
  const m = {
    tpmc: { unit: "1/min", better: "higher", label: "tpmC" },
    tpm_total: { unit: "1/min", better: "higher", label: "tpmTotal" },
    efficiency: { unit: "%", better: "higher", label: "efficiency %" },
    errors: { unit: "count", better: "lower", label: "errors" }
  };
  for (const op of TPCC_TRANSACTIONS) {
    const o = lower(op);
    m[`${o}_tpm`] = { unit: "1/min", better: "higher", label: `${op} TPM` };
    m[`${o}_avg_ms`] = { unit: "ms", better: "lower", label: `${op} avg` };
    m[`${o}_p95_ms`] = { unit: "ms", better: "lower", label: `${op} p95` };
    m[`${o}_p99_ms`] = { unit: "ms", better: "lower", label: `${op} p99` };
  }
  return m;
}
var queriesOf = (w) => String(opt(w, "queries") ?? ALL_QUERIES.join(",")).split(",");
function tpchMetrics(w) {
  const m = {};
  for (const q of queriesOf(w)) m[`${q}_s`] = { unit: "s", better: "lower", label: q.toUpperCase() };
  m.geomean_s = { unit: "s", better: "lower", label: "geomean" };
  return m;
}
function tpccValues(ops) {
  const v = {};
  let total = 0;
  for (const [op, row] of Object.entries(ops)) {
    const o = lower(op);
    v[`${o}_tpm`] = row.tpm;
    v[`${o}_avg_ms`] = row.avg_ms;
    v[`${o}_p95_ms`] = row.p95_ms;
    v[`${o}_p99_ms`] = row.p99_ms;
    total += row.tpm;
  }
  if (ops.NEW_ORDER) v.tpmc = ops.NEW_ORDER.tpm;
  v.tpm_total = total;
  return v;
}
var fields = (op) => ({ ...op });
function measureTpcc(w, report, req) {
  const problems = [];
  if (report.worker_errors.length > 0)
    problems.push(
      `${report.worker_errors.length} worker(s) stopped early, so fewer threads ran than asked: ${report.worker_errors[0]}`
    );
  const longest = Math.max(...Object.values(report.operations).map((o) => o.takes_s));
  if (longest > req.seconds + req.grace_s)
    problems.push(
      `go-tpc ran ${longest}s for a ${req.seconds}s cell (allowed: ${req.seconds}s + ${req.grace_s}s grace)`
    );
  if (problems.length > 0) throw new Error(`not the measurement asked for: ${problems.join("; ")}`);
  const interval = Number(opt(w, "interval") ?? 10);
  const groups = /* @__PURE__ */ new Map();
  for (const iv of report.intervals) {
    if (iv.operation.endsWith("_ERR")) continue;
    const g = groups.get(iv.n) ?? {};
    g[iv.operation] = iv;
    groups.set(iv.n, g);
  }
  const intervals = [...groups].map(([n, ops]) => ({
    t: n * interval,
    warmup: n * interval <= w.warmup,
    values: tpccValues(ops)
  }));
  const errors = Object.fromEntries(Object.entries(report.errors).map(([k, v]) => [k, fields(v)]));
  const errorCount = Object.values(report.errors).reduce((s, e) => s + e.count, 0);
  const { intervals: _i, operations, errors: _e, ...rest } = report;
  const base = {
    intervals,
    summary: { ...rest },
    operations: Object.fromEntries(Object.entries(operations).map(([k, v]) => [k, fields(v)])),
    ...Object.keys(errors).length ? { errors } : {}
  };
  if (w.warmup === 0) {
    return {
      ...base,
      metrics: {
        ...tpccValues(operations),
        tpmc: report.tpmc,
        tpm_total: report.tpm_total,
        efficiency: report.efficiency,
        errors: errorCount
      },
      source: "summary"
    };
  }
  const steady = intervals.filter((i) => !i.warmup && i.values.tpmc !== void 0);
  if (steady.length === 0)
    throw new Error(
      `no [Current] report after the ${w.warmup}s warmup (go-tpc printed ${intervals.length} at ${interval}s intervals); lengthen the duration or shorten options.interval`
    );
  const metrics = { errors: errorCount };
  for (const k of Object.keys(steady[0]?.values ?? {})) {
    const xs = steady.map((i) => i.values[k]).filter((x) => x !== void 0);
    if (xs.length === steady.length) metrics[k] = mean(xs);
  }
  return { ...base, metrics, source: "intervals" };
}
function measureTpch(w, text) {
  const { queries } = parseTpch(text);
  const wanted = queriesOf(w);
  const missing = wanted.filter((q) => queries[q.toUpperCase()] === void 0);
  if (missing.length > 0)
    throw new Error(
      `not the measurement asked for: go-tpc printed no time for ${missing.map((q) => q.toUpperCase()).join(", ")}`
    );
  const metrics = {};
  for (const q of wanted) metrics[`${q}_s`] = queries[q.toUpperCase()];
  const times = wanted.map((q) => metrics[`${q}_s`]).filter((x) => x > 0);
  if (times.length > 0) metrics.geomean_s = Math.exp(mean(times.map(Math.log)));
  return { metrics, intervals: [], summary: { queries }, source: "summary" };
}
var hasResult = (text) => /^tpmC: |"tpmC"|^\[Summary\] Q\d+:/m.test(text);
var goTpc = {
  name: "go-tpc",
  install: "go-tpc (github.com/pingcap/go-tpc) on PATH, or tiup with its bench component",
  keys: Keys,
  keyNames: ["go-tpc", "options"],
  findTool(script) {
    const own = findTool("go-tpc");
    if (own) return { command: own, prefix: [script] };
    const tiup = findTool("tiup");
    return tiup ? { command: tiup, prefix: ["bench", script] } : void 0;
  },
  metrics: (w) => w.script === "tpcc" ? tpccMetrics() : tpchMetrics(w),
  defaultMetric: (w) => w.script === "tpcc" ? "tpmc" : "geomean_s",
  dataKey: (w) => w.script === "tpcc" ? `go-tpc:tpcc:w${opt(w, "warehouses")}` : `go-tpc:tpch:sf${opt(w, "sf")}`,
  database: (w) => w.script,
  setup(ctx) {
    const w = ctx.workload;
    const conn = connectionArgs(ctx.connection, w.script);
    if (w.script === "tpch") {
      const sf = Number(opt(w, "sf"));
      return [
        {
          phase: "prepare",
          args: [...conn, "--sf", String(sf), "-T", String(Math.min(4, cpus().length)), "prepare"],
          limitS: 600 + 1200 * sf,
          about: `scale factor ${sf}`
        }
      ];
    }
    const wh = Number(opt(w, "warehouses"));
    const threads = String(Math.max(1, Math.min(wh, cpus().length)));
    const limitS = 600 + 300 * wh;
    const steps = [
      {
        phase: "prepare",
        args: [...conn, "--warehouses", String(wh), "-T", threads, "prepare"],
        limitS,
        about: `${wh} warehouse(s)`
      }
    ];
    if (opt(w, "check") === true)
      steps.push({
        phase: "check",
        args: [...conn, "--warehouses", String(wh), "-T", threads, "check"],
        limitS,
        about: `${wh} warehouse(s)`
      });
    return steps;
  },
  run(ctx) {
    const w = ctx.workload;
    const conn = connectionArgs(ctx.connection, w.script);
    if (w.script === "tpch") {
      return {
        phase: "run",
        args: [
          ...conn,
          "--sf",
          String(opt(w, "sf")),
          "--queries",
          queriesOf(w).join(","),
          "--count",
          String(opt(w, "count")),
          "-T",
          String(ctx.threads),
          ...passThrough(w, ["conn-params"]),
          "run"
        ]
      };
    }
    return {
      phase: "run",
      args: [
        ...conn,
        "--warehouses",
        String(opt(w, "warehouses")),
        "-T",
        String(ctx.threads),
        "--time",
        `${w.warmup + w.duration}s`,
        "--interval",
        `${opt(w, "interval")}s`,
        ...passThrough(w, ["isolation", "wait", "weight", "parts", "partition-type", "conn-params"]),
        "run"
      ]
    };
  },
  cleanup(ctx) {
    const w = ctx.workload;
    const size = w.script === "tpcc" ? ["--warehouses", String(opt(w, "warehouses"))] : ["--sf", String(opt(w, "sf"))];
    return [
      {
        phase: "cleanup",
        args: [...connectionArgs(ctx.connection, w.script), ...size, "cleanup"],
        limitS: 300
      }
    ];
  },
  failure: (output) => hasResult(output) ? void 0 : goTpcFailure(output),
  measure(w, output, req) {
    return w.script === "tpcc" ? measureTpcc(w, parseTpcc(output), req) : measureTpch(w, output);
  },
  // tpch prints "[Summary] Q1: 7.62s" lines, tpcc a "tpmC: …" total
  parse: (text) => /^\[Summary\] Q\d+:/m.test(text) ? parseTpch(text) : parseTpcc(text),
  report: (w) => w.script === "tpcc" ? { rows: "threads", columns: ["tpmc", "tpm_total", "new_order_p95_ms", "new_order_p99_ms", "errors"] } : { rows: "metrics", columns: [...queriesOf(w).map((q) => `${q}_s`), "geomean_s"] }
};

// action/src/drivers/go-ycsb/index.ts
import { existsSync } from "node:fs";

// action/src/drivers/go-ycsb/parse.ts
var YcsbParseError = class extends Error {
  constructor(message) {
    super(message);
    this.name = "YcsbParseError";
  }
};
var FIELDS2 = [
  ["takes(s)", "takes_s"],
  ["count", "count"],
  ["ops", "ops"],
  ["avg(us)", "avg_us"],
  ["min(us)", "min_us"],
  ["max(us)", "max_us"],
  ["50th(us)", "p50_us"],
  ["90th(us)", "p90_us"],
  ["95th(us)", "p95_us"],
  ["99th(us)", "p99_us"],
  ["99.9th(us)", "p999_us"],
  ["99.99th(us)", "p9999_us"]
];
var PLAIN = /^([A-Z][A-Z_]*)\s+- (Takes\(s\): .*)$/;
function operation2(values, where) {
  const lower2 = {};
  for (const [k, v] of Object.entries(values)) lower2[k.toLowerCase()] = v;
  return numbersOf(lower2, FIELDS2, (why) => new YcsbParseError(`${where}: ${why}`));
}
function ycsbFailure(text) {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const panic = lines.findIndex((l) => l.startsWith("panic:"));
  if (panic >= 0) return lines[panic];
  return lines.find(
    (l) => /^create db \S+ failed/.test(l) || /^totalOpCount\(/.test(l) || /^(load|run) workload failed/.test(l) || /^Error: /.test(l) || /^unknown (db|workload|command)/i.test(l)
  );
}
function parseYcsb(text) {
  const properties = {};
  const blocks = [];
  let current;
  let finalFrom;
  let run_s = Number.NaN;
  let signal;
  let tableHeader;
  const add = (name, op) => {
    if (!current || name in current) {
      current = {};
      blocks.push(current);
    }
    current[name] = op;
  };
  for (const [i, line] of text.split(/\r?\n/).entries()) {
    const where = `line ${i + 1}`;
    const prop = /^"([^"]+)"="(.*)"$/.exec(line);
    if (prop) {
      properties[prop[1]] = prop[2];
      continue;
    }
    const finished = /^Run finished, takes (\S+)$/.exec(line);
    if (finished) {
      run_s = goDuration(finished[1]);
      finalFrom = blocks.length;
      current = void 0;
      continue;
    }
    const sig = /^Got signal \[(.+)\] to exit\.$/.exec(line.trim());
    if (sig) {
      signal = sig[1];
      continue;
    }
    const plain = PLAIN.exec(line);
    if (plain) {
      add(plain[1], operation2(plainFields(plain[2]), where));
      continue;
    }
    if (line.startsWith("[{")) {
      let rows;
      try {
        rows = JSON.parse(line);
      } catch {
        throw new YcsbParseError(`${where}: unreadable json output: ${line.slice(0, 120)}`);
      }
      current = void 0;
      for (const row of rows) add(String(row.Operation), operation2(row, where));
      current = void 0;
      continue;
    }
    if (/^\|.*\|$/.test(line.trim())) {
      const cells = line.trim().slice(1, -1).split("|").map((c) => c.trim());
      if (cells[0]?.toUpperCase() === "OPERATION") {
        tableHeader = cells;
        current = void 0;
        continue;
      }
      if (tableHeader) {
        const row = {};
        tableHeader.forEach((h, k) => {
          row[h] = cells[k] ?? "";
        });
        add(cells[0], operation2(row, where));
        continue;
      }
    }
    if (!/^\+[-+]+\+$/.test(line.trim())) tableHeader = void 0;
  }
  const failure = ycsbFailure(text);
  if (finalFrom === void 0) {
    throw new YcsbParseError(
      failure ? `go-ycsb failed: ${failure}` : `expected go-ycsb's "Run finished, takes \u2026" line and its final report (the output ends before it)`
    );
  }
  const final = blocks[finalFrom];
  if (!final) throw new YcsbParseError('go-ycsb printed "Run finished" but no final report after it');
  const operations = {};
  const errors = {};
  for (const [name, op] of Object.entries(final)) {
    if (name.endsWith("_ERROR")) errors[name.slice(0, -"_ERROR".length)] = op;
    else operations[name] = op;
  }
  if (!operations.TOTAL) {
    const why = Object.keys(errors).length ? `every operation failed (${Object.entries(errors).map(([k, e]) => `${k}_ERROR ${e.count}`).join(", ")})` : "no TOTAL row in the final report";
    throw new YcsbParseError(`go-ycsb measured no successful operation: ${why}`);
  }
  const intervals = blocks.slice(0, finalFrom).flatMap((b, k) => Object.entries(b).map(([name, op]) => ({ n: k + 1, operation: name, ...op })));
  return { operations, errors, intervals, run_s, properties, ...signal ? { signal } : {} };
}
function goDuration(text) {
  let total = 0;
  let matched = "";
  const unit = { h: 3600, m: 60, s: 1, ms: 1e-3, \u00B5s: 1e-6, us: 1e-6, ns: 1e-9 };
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)(h|ms|µs|us|ns|m|s)/g)) {
    total += Number(m[1]) * (unit[m[2]] ?? Number.NaN);
    matched += m[0];
  }
  if (matched !== text) throw new YcsbParseError(`unreadable duration ${JSON.stringify(text)}`);
  return total;
}

// action/src/drivers/go-ycsb/index.ts
var CORE_WORKLOADS = {
  workloada: {
    readproportion: "0.5",
    updateproportion: "0.5",
    scanproportion: "0",
    insertproportion: "0",
    requestdistribution: "uniform"
  },
  workloadb: {
    readproportion: "0.95",
    updateproportion: "0.05",
    scanproportion: "0",
    insertproportion: "0",
    requestdistribution: "uniform"
  },
  workloadc: {
    readproportion: "1",
    updateproportion: "0",
    scanproportion: "0",
    insertproportion: "0",
    requestdistribution: "uniform"
  },
  workloadd: {
    readproportion: "0.95",
    updateproportion: "0",
    scanproportion: "0",
    insertproportion: "0.05",
    requestdistribution: "latest"
  },
  workloade: {
    readproportion: "0",
    updateproportion: "0",
    scanproportion: "0.95",
    insertproportion: "0.05",
    requestdistribution: "uniform",
    maxscanlength: "1",
    scanlengthdistribution: "uniform"
  },
  workloadf: {
    readproportion: "0.5",
    updateproportion: "0",
    scanproportion: "0",
    insertproportion: "0",
    readmodifywriteproportion: "0.5",
    requestdistribution: "uniform"
  }
};
var OPERATIONS = ["READ", "UPDATE", "INSERT", "SCAN", "READ_MODIFY_WRITE"];
var RESERVED = /^(mysql\.|pg\.|tidb\.instances$|threadcount$|operationcount$|measurement\.interval$|warmuptime$|outputstyle$|dotransactions$|command$|workload$)/;
var Keys2 = external_exports.strictObject({
  "go-ycsb": external_exports.string().refine(
    (s) => s in CORE_WORKLOADS || (s.includes("/") || s.endsWith(".properties")) && existsSync(s),
    {
      error: (iss) => `must be a core workload (${Object.keys(CORE_WORKLOADS).join(", ")}) or an existing properties file (got ${JSON.stringify(iss.input)})`
    }
  ),
  options: external_exports.record(
    external_exports.string().regex(
      /^[a-z][a-zA-Z0-9_.]*$/,
      "option names are go-ycsb properties (-p name=value), like recordcount"
    ).refine((k) => !RESERVED.test(k), {
      error: (iss) => `${String(iss.input)} is set by tiperf (threads, duration, warmup and the target's connection decide it)`
    }),
    external_exports.union([external_exports.string(), external_exports.number(), external_exports.boolean()])
  ).default({})
}).transform((k, ctx) => {
  const recordcount = k.options.recordcount ?? 1e4;
  if (typeof recordcount !== "number" || !Number.isInteger(recordcount) || recordcount < 1) {
    ctx.addIssue({
      code: "custom",
      path: ["options", "recordcount"],
      message: "must be a whole number \u2265 1"
    });
    return external_exports.NEVER;
  }
  const interval = k.options.interval ?? 2;
  if (typeof interval !== "number" || !Number.isInteger(interval) || interval < 1) {
    ctx.addIssue({
      code: "custom",
      path: ["options", "interval"],
      message: "seconds between periodic reports, a whole number \u2265 1"
    });
    return external_exports.NEVER;
  }
  return {
    script: k["go-ycsb"],
    options: { ...k.options, recordcount, interval }
  };
});
function connectionProps(c, database) {
  const [first, ...more] = c.endpoints;
  if (!first) throw new Error("the target has no endpoint");
  const p = c.protocol === "mysql" ? "mysql" : "pg";
  const props = c.protocol === "mysql" && more.length > 0 ? [`tidb.instances=${c.endpoints.map((e) => `${e.host}:${e.port}`).join(",")}`] : [`${p}.host=${first.host}`, `${p}.port=${first.port}`];
  props.push(`${p}.user=${c.user}`, `${p}.db=${database}`);
  if (c.password) props.push(`${p}.password=${c.password}`);
  if (c.protocol === "postgres") props.push("pg.sslmode=disable");
  return props.flatMap((x) => ["-p", x]);
}
var dbName = (c) => c.protocol === "mysql" ? "mysql" : "pg";
function workloadArgs(w) {
  const file = CORE_WORKLOADS[w.script];
  const base = file ? [
    "-p",
    "workload=core",
    "-p",
    "readallfields=true",
    ...Object.entries(file).flatMap(([k, v]) => ["-p", `${k}=${v}`])
  ] : ["-P", w.script];
  const own = Object.entries(w.options).filter(([k]) => k !== "interval").flatMap(([k, v]) => ["-p", `${k}=${v}`]);
  return [...base, ...own];
}
function operationsOf(w) {
  const props = {
    ...CORE_WORKLOADS[w.script] ?? {},
    ...Object.fromEntries(Object.entries(w.options).map(([k, v]) => [k, String(v)]))
  };
  const ops = OPERATIONS.filter(
    (op) => Number(props[`${op.toLowerCase().replace(/_/g, "")}proportion`] ?? 0) > 0
  );
  return ops.length > 0 ? ops : [...OPERATIONS];
}
function metricsOf(w) {
  const m = {
    ops: { unit: "1/s", better: "higher", label: "OPS" },
    avg_us: { unit: "us", better: "lower", label: "avg" },
    p99_us: { unit: "us", better: "lower", label: "p99" },
    errors: { unit: "count", better: "lower", label: "errors" }
  };
  for (const op of operationsOf(w)) {
    const o = op.toLowerCase();
    m[`${o}_ops`] = { unit: "1/s", better: "higher", label: `${op} OPS` };
    m[`${o}_avg_us`] = { unit: "us", better: "lower", label: `${op} avg` };
    m[`${o}_p95_us`] = { unit: "us", better: "lower", label: `${op} p95` };
    m[`${o}_p99_us`] = { unit: "us", better: "lower", label: `${op} p99` };
  }
  return m;
}
var fields2 = (op) => ({ ...op });
function measureYcsb(w, report, req) {
  const problems = [];
  if (report.run_s > req.seconds + req.grace_s)
    problems.push(
      `go-ycsb ran ${report.run_s.toFixed(1)}s for a ${req.seconds}s cell (allowed: ${req.seconds}s + ${req.grace_s}s grace)`
    );
  if (!report.signal && report.run_s < req.seconds * 0.9)
    problems.push(
      `go-ycsb finished after ${report.run_s.toFixed(1)}s, before the ${req.seconds}s the cell asked for`
    );
  if (problems.length > 0) throw new Error(`not the measurement asked for: ${problems.join("; ")}`);
  const total = report.operations.TOTAL;
  const metrics = {
    ops: total.ops,
    avg_us: total.avg_us,
    p99_us: total.p99_us,
    errors: Object.values(report.errors).reduce((s, e) => s + e.count, 0)
  };
  for (const [op, row] of Object.entries(report.operations)) {
    if (op === "TOTAL") continue;
    const o = op.toLowerCase();
    metrics[`${o}_ops`] = row.ops;
    metrics[`${o}_avg_us`] = row.avg_us;
    metrics[`${o}_p95_us`] = row.p95_us;
    metrics[`${o}_p99_us`] = row.p99_us;
  }
  const totals = report.intervals.filter((i) => i.operation === "TOTAL");
  const intervals = [];
  let prev = { takes_s: 0, count: 0 };
  for (const t of totals) {
    const dt = t.takes_s - prev.takes_s;
    if (dt > 0)
      intervals.push({
        t: w.warmup + t.takes_s,
        warmup: false,
        values: { ops: (t.count - prev.count) / dt }
      });
    prev = t;
  }
  const { intervals: _i, operations, errors, ...summary } = report;
  return {
    metrics,
    intervals,
    summary,
    operations: Object.fromEntries(Object.entries(operations).map(([k, v]) => [k, fields2(v)])),
    ...Object.keys(errors).length ? { errors: Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, fields2(v)])) } : {},
    source: "summary"
  };
}
var goYcsb = {
  name: "go-ycsb",
  install: "go-ycsb (github.com/pingcap/go-ycsb) on PATH, or tiup with its bench component",
  keys: Keys2,
  keyNames: ["go-ycsb", "options"],
  findTool() {
    const own = findTool("go-ycsb");
    if (own) return { command: own, prefix: [] };
    const tiup = findTool("tiup");
    return tiup ? { command: tiup, prefix: ["bench", "ycsb"] } : void 0;
  },
  metrics: metricsOf,
  defaultMetric: () => "ops",
  dataKey: (w) => `go-ycsb:${w.options.recordcount}:${w.options.fieldcount ?? ""}:${w.options.fieldlength ?? ""}`,
  database: () => "ycsb",
  setup(ctx) {
    const w = ctx.workload;
    const n = Number(w.options.recordcount);
    return [
      {
        phase: "load",
        args: [
          "load",
          dbName(ctx.connection),
          ...workloadArgs(w),
          ...connectionProps(ctx.connection, "ycsb"),
          "--threads",
          String(Math.min(4, ctx.threads))
        ],
        limitS: 120 + Math.ceil(n / 200),
        about: `${n} records`
      }
    ];
  },
  run(ctx) {
    const w = ctx.workload;
    return {
      phase: "run",
      args: [
        "run",
        dbName(ctx.connection),
        ...workloadArgs(w),
        ...connectionProps(ctx.connection, "ycsb"),
        // more operations than any cell can do: SIGINT ends the run at its time
        "-p",
        "operationcount=1000000000000",
        ...w.warmup > 0 ? ["-p", `warmuptime=${w.warmup}`] : [],
        "--threads",
        String(ctx.threads),
        "--interval",
        String(w.options.interval)
      ],
      stopAfterS: w.warmup + w.duration
    };
  },
  // go-ycsb has no cleanup command; the data goes with the target's database.
  cleanup: () => [],
  failure: (output) => /^Run finished, takes /m.test(output) ? void 0 : ycsbFailure(output),
  measure: (w, output, req) => measureYcsb(w, parseYcsb(output), req),
  parse: parseYcsb,
  report: (w) => ({
    rows: "threads",
    columns: ["ops", ...operationsOf(w).map((op) => `${op.toLowerCase()}_p99_us`), "errors"]
  })
};

// action/src/drivers/sysbench/index.ts
import { cpus as cpus2 } from "node:os";

// action/src/drivers/sysbench/measure.ts
function intervalValues(iv, p) {
  const v = {
    tps: iv.tps,
    qps: iv.qps,
    reads: iv.reads,
    writes: iv.writes,
    other: iv.other,
    errors_per_s: iv.errors_per_s,
    reconnects_per_s: iv.reconnects_per_s
  };
  if (p !== null && iv.lat_ms !== void 0) v[`p${p}_ms`] = iv.lat_ms;
  if (iv.queue_length !== void 0) v.queue_length = iv.queue_length;
  if (iv.concurrency !== void 0) v.concurrency = iv.concurrency;
  return v;
}
function steadyState(report, warmupS) {
  const p = report.percentile;
  const intervals = report.intervals.map((iv) => ({
    t: iv.t,
    warmup: iv.t <= warmupS,
    values: intervalValues(iv, p)
  }));
  const { intervals: _omit, ...summary } = report;
  const base = { intervals, summary };
  if (warmupS === 0) {
    const metrics2 = { tps: report.tps, qps: report.qps, errors: report.errors };
    const lat = p !== null ? report.latency_ms[`p${p}`] : void 0;
    if (p !== null && lat !== void 0) metrics2[`p${p}_ms`] = lat;
    return { ...base, metrics: metrics2, source: "summary" };
  }
  const steady = intervals.filter((iv) => !iv.warmup);
  if (steady.length === 0) {
    throw new Error(
      `no interval samples after the ${warmupS}s warmup (sysbench printed ${intervals.length}); lengthen the duration`
    );
  }
  const metrics = {
    tps: mean(steady.map((i) => i.values.tps)),
    qps: mean(steady.map((i) => i.values.qps)),
    errors: report.errors
  };
  const lats = steady.map((i) => i.values[`p${p}_ms`]).filter((v) => v !== void 0);
  if (p !== null && lats.length > 0) metrics[`p${p}_ms`] = mean(lats);
  return { ...base, metrics, source: "intervals" };
}
function measurementProblems(report, req) {
  const problems = [];
  if (report.duration_s > req.seconds + req.grace_s) {
    problems.push(
      `sysbench ran ${report.duration_s.toFixed(1)}s for a ${req.seconds}s cell (allowed: ${req.seconds}s + ${req.grace_s}s grace)`
    );
  }
  if (!req.rate_limited) {
    const stalled = report.intervals.filter((iv) => iv.qps === 0 && iv.tps === 0).map((iv) => iv.t);
    if (stalled.length > 0) {
      const shown = stalled.slice(0, 5).map((t) => `${t}s`);
      problems.push(
        `${stalled.length} one-second sample(s) with zero throughput (at ${shown.join(", ")}${stalled.length > 5 ? ", \u2026" : ""}): the server stalled`
      );
    }
  }
  const expected = Math.floor(req.seconds);
  if (report.intervals.length < expected - 1) {
    problems.push(
      `sysbench printed ${report.intervals.length} one-second samples for a ${req.seconds}s cell (expected ${expected})`
    );
  }
  return problems;
}

// action/src/drivers/sysbench/parse.ts
var SysbenchParseError = class extends Error {
  constructor(message) {
    super(message);
    this.name = "SysbenchParseError";
  }
};
var NUM2 = String.raw`(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)`;
var INTERVAL = new RegExp(
  String.raw`^\[\s*${NUM2}s\s*\]\s+thds:\s*(\d+)\s+tps:\s*${NUM2}\s+qps:\s*${NUM2}\s+\(r/w/o:\s*${NUM2}/${NUM2}/${NUM2}\)\s+lat\s+\(ms,(\d+)%\):\s*${NUM2}\s+err/s:?\s*${NUM2}\s+reconn/s:?\s*${NUM2}\s*$`
);
var QUEUE = new RegExp(String.raw`^\[\s*${NUM2}s\s*\]\s+queue length:\s*(\d+),\s*concurrency:\s*(\d+)\s*$`);
var HIST_ROW = new RegExp(String.raw`^\s*${NUM2}\s+\|[* ]*\s(\d+)\s*$`);
function num(s) {
  const v = Number(s);
  if (s === void 0 || !Number.isFinite(v))
    throw new SysbenchParseError(`not a number: ${JSON.stringify(s)}`);
  return v;
}
function field(lines, label, section, re) {
  for (const line of lines) {
    const m = re.exec(line);
    if (m) return m;
  }
  throw new SysbenchParseError(
    `expected a "${label}" line in sysbench's ${section} block; the output is truncated or not from sysbench 1.0`
  );
}
function block(lines, header, stop) {
  const start = lines.findIndex((l) => l.trim() === header);
  if (start < 0) return void 0;
  const out = [];
  for (let i = start + 1; i < lines.length; i++) {
    const l = lines[i];
    if (stop.test(l)) break;
    out.push(l);
  }
  return out;
}
var CAUSE = /error \d+|errno|too many|can't create|cannot create|resource temporarily unavailable|access denied|unknown database|doesn't exist|does not exist|out of memory|refused|no such|permission denied/i;
function mostSpecificLine(output) {
  const lines = output.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const fatal = lines.filter((l) => l.startsWith("FATAL:"));
  return fatal.find((l) => CAUSE.test(l)) ?? fatal[0] ?? lines.find((l) => /\berror\b/i.test(l) && CAUSE.test(l)) ?? lines.find((l) => /\berror\b/i.test(l));
}
function parseSysbench(text) {
  const lines = text.split(/\r?\n/);
  const fatal = mostSpecificLine(lines.filter((l) => l.startsWith("FATAL:")).join("\n"));
  const version = /^sysbench (\d+\.\d+\.\d+)/m.exec(text)?.[1];
  const threadsHeader = /^Number of threads:\s*(\d+)/m.exec(text);
  const intervals = [];
  for (const line of lines) {
    if (!line.startsWith("[")) continue;
    const m = INTERVAL.exec(line);
    if (m) {
      const pct = Number(m[8]);
      const iv = {
        t: num(m[1]),
        threads: num(m[2]),
        tps: num(m[3]),
        qps: num(m[4]),
        reads: num(m[5]),
        writes: num(m[6]),
        other: num(m[7]),
        errors_per_s: num(m[10]),
        reconnects_per_s: num(m[11])
      };
      if (pct > 0) iv.lat_ms = num(m[9]);
      intervals.push(iv);
      continue;
    }
    const q = QUEUE.exec(line);
    if (q) {
      const t = num(q[1]);
      const iv = intervals.findLast((i) => i.t === t);
      if (!iv) throw new SysbenchParseError(`queue length report at ${t}s has no interval line before it`);
      iv.queue_length = num(q[2]);
      iv.concurrency = num(q[3]);
      continue;
    }
    throw new SysbenchParseError(`unrecognised interval line: ${JSON.stringify(line.slice(0, 200))}`);
  }
  const sql = block(lines, "SQL statistics:", /^General statistics:/);
  if (!sql) {
    if (fatal) throw new SysbenchParseError(`sysbench failed before its summary: ${fatal}`);
    throw new SysbenchParseError(
      `expected sysbench's "SQL statistics:" summary block; the output is truncated or not from a sysbench 1.0 run`
    );
  }
  const general = block(lines, "General statistics:", /^Latency/) ?? [];
  const latency = block(lines, "Latency (ms):", /^(Threads fairness:|\S)/);
  if (!latency)
    throw new SysbenchParseError(`expected sysbench's "Latency (ms):" block after General statistics`);
  const read = num(field(sql, "read:", "SQL statistics", /^\s+read:\s+(\d+)/)[1]);
  const write = num(field(sql, "write:", "SQL statistics", /^\s+write:\s+(\d+)/)[1]);
  const other = num(field(sql, "other:", "SQL statistics", /^\s+other:\s+(\d+)/)[1]);
  const total = num(field(sql, "total:", "SQL statistics", /^\s+total:\s+(\d+)/)[1]);
  const tx = field(
    sql,
    "transactions:",
    "SQL statistics",
    new RegExp(String.raw`^\s+transactions:\s+(\d+)\s+\(${NUM2} per sec\.\)`)
  );
  const qs = field(
    sql,
    "queries:",
    "SQL statistics",
    new RegExp(String.raw`^\s+queries:\s+(\d+)\s+\(${NUM2} per sec\.\)`)
  );
  const errs = field(
    sql,
    "ignored errors:",
    "SQL statistics",
    new RegExp(String.raw`^\s+ignored errors:\s+(\d+)\s+\(${NUM2} per sec\.\)`)
  );
  const rec = field(
    sql,
    "reconnects:",
    "SQL statistics",
    new RegExp(String.raw`^\s+reconnects:\s+(\d+)\s+\(${NUM2} per sec\.\)`)
  );
  const totalTime = field(
    general,
    "total time:",
    "General statistics",
    new RegExp(String.raw`^\s+total time:\s+${NUM2}s`)
  );
  const events = field(
    general,
    "total number of events:",
    "General statistics",
    /^\s+total number of events:\s+(\d+)/
  );
  const lat = {
    min: num(field(latency, "min:", "Latency", new RegExp(String.raw`^\s+min:\s+${NUM2}`))[1]),
    avg: num(field(latency, "avg:", "Latency", new RegExp(String.raw`^\s+avg:\s+${NUM2}`))[1]),
    max: num(field(latency, "max:", "Latency", new RegExp(String.raw`^\s+max:\s+${NUM2}`))[1]),
    sum: num(field(latency, "sum:", "Latency", new RegExp(String.raw`^\s+sum:\s+${NUM2}`))[1])
  };
  let percentile = null;
  const pctLine = latency.find((l) => /^\s+(\d+)th percentile:/.test(l) || /^\s+percentile stats:/.test(l));
  if (!pctLine)
    throw new SysbenchParseError(
      `expected an "Nth percentile:" or "percentile stats: disabled" line in the Latency block`
    );
  const pm = new RegExp(String.raw`^\s+(\d+)th percentile:\s+${NUM2}`).exec(pctLine);
  if (pm) {
    percentile = Number(pm[1]);
    lat[`p${percentile}`] = num(pm[2]);
  } else if (!/disabled/.test(pctLine)) {
    throw new SysbenchParseError(`unrecognised percentile line: ${JSON.stringify(pctLine.trim())}`);
  }
  let histogram;
  const histStart = lines.findIndex((l) => l.startsWith("Latency histogram"));
  if (histStart >= 0) {
    histogram = [];
    for (let i = histStart + 2; i < lines.length; i++) {
      const l = lines[i];
      if (l.trim() === "") break;
      const h = HIST_ROW.exec(l);
      if (!h) throw new SysbenchParseError(`unrecognised latency histogram row: ${JSON.stringify(l.trim())}`);
      histogram.push([num(h[1]), num(h[2])]);
    }
  }
  const threads = threadsHeader ? Number(threadsHeader[1]) : intervals[0]?.threads;
  if (threads === void 0)
    throw new SysbenchParseError(`expected a "Number of threads:" line in sysbench's header`);
  const report = {
    threads,
    tps: num(tx[2]),
    qps: num(qs[2]),
    transactions: num(tx[1]),
    queries: { read, write, other, total },
    errors: num(errs[1]),
    errors_per_s: num(errs[2]),
    reconnects: num(rec[1]),
    duration_s: num(totalTime[1]),
    events: num(events[1]),
    percentile,
    latency_ms: lat,
    intervals
  };
  if (version) report.sysbench_version = version;
  if (histogram) report.histogram = histogram;
  return report;
}

// action/src/drivers/sysbench/index.ts
var SYSBENCH_SCRIPTS = [
  "oltp_point_select",
  "oltp_read_only",
  "oltp_read_write",
  "oltp_write_only",
  "oltp_update_index",
  "oltp_update_non_index",
  "oltp_insert",
  "oltp_delete",
  "select_random_points",
  "select_random_ranges"
];
var RESERVED_SYSBENCH_OPTIONS = [
  "threads",
  "time",
  "report-interval",
  "tables",
  "table-size",
  "db-driver",
  "percentile",
  "events"
];
var OPTION_NAME = /^[a-z][a-z0-9_-]*$/;
var scalar = external_exports.union([external_exports.string(), external_exports.number(), external_exports.boolean()]);
var Keys3 = external_exports.strictObject({
  sysbench: external_exports.enum(SYSBENCH_SCRIPTS, { error: `must be one of ${SYSBENCH_SCRIPTS.join(", ")}` }),
  /** sysbench reports one latency percentile, --percentile=N. */
  percentile: external_exports.number().int().min(1).max(100).default(95),
  options: external_exports.record(
    external_exports.string().regex(OPTION_NAME, "option names are sysbench flags without the leading --").refine((k) => !RESERVED_SYSBENCH_OPTIONS.includes(k), {
      error: (iss) => `--${String(iss.input)} is set by tiperf (use the workload's threads, duration, percentile or the spec's data)`
    }).refine((k) => !/^(mysql|pgsql)-/.test(k), "connection flags are set by the target"),
    scalar
  ).default({})
}).transform((k) => ({ script: k.sysbench, options: { ...k.options, percentile: k.percentile } }));
var DATABASE = "sbtest";
function connectionArgs2(c) {
  const ep = c.endpoints[0];
  if (!ep) throw new Error("the target has no endpoint");
  const p = c.protocol === "mysql" ? "mysql" : "pgsql";
  return [
    `--db-driver=${p}`,
    `--${p}-host=${ep.host}`,
    `--${p}-port=${ep.port}`,
    `--${p}-user=${c.user}`,
    ...c.password ? [`--${p}-password=${c.password}`] : [],
    `--${p}-db=${DATABASE}`
  ];
}
var dataOf = (ctx) => {
  if (!ctx.data) throw new Error("sysbench workloads need the spec's data (tables, table_size)");
  return ctx.data;
};
function commonArgs(ctx) {
  const d = dataOf(ctx);
  return [...connectionArgs2(ctx.connection), `--tables=${d.tables}`, `--table-size=${d.table_size}`];
}
var userOptions = (w) => Object.entries(w.options).filter(([k]) => k !== "percentile");
function optionArgs(w) {
  return userOptions(w).map(([k, v]) => `--${k}=${typeof v === "boolean" ? v ? "on" : "off" : v}`);
}
var dataStepLimitS = (d) => 120 + Math.ceil(d.tables * d.table_size / 1e3);
var percentileOf = (w) => Number(w.options.percentile ?? 95);
var sysbench = {
  name: "sysbench",
  install: "the Debian package sysbench",
  keys: Keys3,
  keyNames: ["sysbench", "percentile", "options"],
  // By name: the raw log's first line is then the command a user would type.
  findTool: () => findTool("sysbench") ? { command: "sysbench", prefix: [] } : void 0,
  async version(tool) {
    const r = await runTool(tool.command, [...tool.prefix, "--version"], {
      logFile: "/dev/null",
      limitS: 20
    });
    return /sysbench (\S+)/.exec(r.output)?.[1];
  },
  metrics(w) {
    const p = percentileOf(w);
    return {
      tps: { unit: "1/s", better: "higher", label: "TPS" },
      qps: { unit: "1/s", better: "higher", label: "QPS" },
      [`p${p}_ms`]: { unit: "ms", better: "lower", label: `p${p}` },
      errors: { unit: "count", better: "lower", label: "errors" }
    };
  },
  defaultMetric: () => "tps",
  check: (w, data) => data ? [] : [`the sysbench workload ${w.name} needs data: {tables, table_size}`],
  dataKey: (_w, data) => `sysbench:${data?.tables}x${data?.table_size}`,
  database: () => DATABASE,
  setup(ctx) {
    const d = dataOf(ctx);
    const threads = Math.min(d.tables, cpus2().length);
    const about = `${d.tables} tables \xD7 ${d.table_size} rows`;
    const limitS = dataStepLimitS(d);
    const steps = [
      {
        phase: "prepare",
        args: ["oltp_common", ...commonArgs(ctx), `--threads=${threads}`, "--rand-seed=1", "prepare"],
        limitS,
        about
      }
    ];
    if (ctx.connection.protocol === "mysql")
      steps.push({
        phase: "prewarm",
        args: ["oltp_common", ...commonArgs(ctx), `--threads=${threads}`, "prewarm"],
        limitS,
        about
      });
    return steps;
  },
  run(ctx) {
    const w = ctx.workload;
    return {
      phase: "run",
      args: [
        w.script,
        ...commonArgs(ctx),
        `--threads=${ctx.threads}`,
        `--time=${w.duration + w.warmup}`,
        "--report-interval=1",
        `--percentile=${percentileOf(w)}`,
        ...optionArgs(w),
        "run"
      ]
    };
  },
  cleanup(ctx) {
    const d = dataOf(ctx);
    return [
      { phase: "cleanup", args: ["oltp_common", ...commonArgs(ctx), "cleanup"], limitS: 60 + 5 * d.tables }
    ];
  },
  failure: () => void 0,
  measure(w, output, req) {
    const report = parseSysbench(output);
    const problems = measurementProblems(report, { ...req, rate_limited: "rate" in w.options });
    if (problems.length > 0) throw new Error(`not the measurement asked for: ${problems.join("; ")}`);
    return steadyState(report, w.warmup);
  },
  parse: parseSysbench,
  report: (w) => ({ rows: "threads", columns: ["tps", "qps", `p${percentileOf(w)}_ms`, "errors"] })
};

// action/src/drivers/registry.ts
var DRIVERS = {
  sysbench,
  "go-tpc": goTpc,
  "go-ycsb": goYcsb
};
var driverNames = () => Object.keys(DRIVERS);
function driverOf(name) {
  const d = DRIVERS[name];
  if (!d) throw new InputError(`unknown load tool "${name}" (known: ${driverNames().join(", ")})`);
  return d;
}

// action/src/result/store.ts
import { randomBytes } from "node:crypto";
import { mkdir, open, readFile as readFile2, rename, rm, rmdir, writeFile } from "node:fs/promises";
import { dirname, join as join2 } from "node:path";

// action/src/specfile/load.ts
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";

// action/src/specfile/schema.ts
var TARGET_KINDS = ["mariadb", "postgres", "tidb"];
var NAME = /^[a-z][a-z0-9_-]{0,62}$/;
var SERVER_SETTING = /^[a-z][a-z0-9_.-]*$/i;
var scalar2 = external_exports.union([external_exports.string(), external_exports.number(), external_exports.boolean()]);
var duration = durationSchema;
function parsePercent(value) {
  const m = /^(\d+(?:\.\d+)?)%$/.exec(value.trim());
  return m ? Number(m[1]) / 100 : void 0;
}
var percent = (what, min, max) => external_exports.string({ error: `${what} must be a percentage like 5% (a number followed by %)` }).transform((v, ctx) => {
  const f = parsePercent(v);
  if (f === void 0 || f <= min || f > max) {
    ctx.addIssue({
      code: "custom",
      message: `${what} must be a percentage like "5%" in (${min * 100}%, ${max * 100}%] (got ${JSON.stringify(v)})`
    });
    return external_exports.NEVER;
  }
  return f;
});
var CPU_LIST = /^\d+(-\d+)?(,\d+(-\d+)?)*$/;
var cpuList = external_exports.string().regex(CPU_LIST, 'must be a CPU list like "0", "0-1" or "0,2" (as taskset -c takes)');
var ResourcesSchema = external_exports.strictObject({
  /** CPUs the database server may run on (sched affinity, as tiup's numa/cpu binding). */
  cpus: cpuList.optional(),
  /** Share of one CPU for the database server ("90%"), as tiup's resource_control / systemd CPUQuota. */
  cpu_quota: percent("cpu_quota", 0, 64).optional()
});
var TIDB_VERSION = /^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$|^nightly$/;
var TIDB_VERSION_TEXT = "must be a TiDB version as tiup names it: v<major>.<minor>.<patch> (like v8.5.0) or nightly";
var tidbRoleOverride = external_exports.strictObject({
  count: external_exports.number().int().min(0).optional(),
  numa_node: numaNode.optional(),
  resource_control: ResourceControlSchema.optional(),
  config: external_exports.record(external_exports.string().min(1), external_exports.unknown()).optional()
});
var TIDB_KEYS = ["profile", "version", "server_configs", "roles", "sql", "split"];
var LOCAL_KEYS = ["config", "resources"];
var TargetSchema = external_exports.strictObject({
  kind: external_exports.enum(TARGET_KINDS, { error: `must be one of ${TARGET_KINDS.join(", ")}` }),
  /** Server settings of a private server (mariadb, postgres). */
  config: external_exports.record(external_exports.string().regex(SERVER_SETTING, "server setting names are letters, digits, _ . -"), scalar2).optional(),
  resources: ResourcesSchema.optional(),
  /** tidb: the cluster profile (infra/profiles/*.yaml); `tiperf … --profile FILE` overrides it. */
  profile: external_exports.string().optional(),
  /** tidb: the release tiup deploys. */
  version: external_exports.string({ error: TIDB_VERSION_TEXT }).regex(TIDB_VERSION, TIDB_VERSION_TEXT).optional(),
  /** tidb: tiup's server_configs, merged over the profile's. */
  server_configs: ServerConfigsSchema.optional(),
  /** tidb: per-role overrides of the profile (count, numa_node, resource_control, config). */
  roles: external_exports.strictObject({
    pd: tidbRoleOverride.optional(),
    tikv: tidbRoleOverride.optional(),
    tidb: tidbRoleOverride.optional(),
    tiflash: tidbRoleOverride.optional()
  }).optional(),
  /** tidb: statements run after the cluster starts (SET GLOBAL tidb_…). */
  sql: external_exports.array(external_exports.string().min(1)).optional(),
  /** tidb: split each load table into regions and scatter them before the run. */
  split: external_exports.strictObject({ regions: external_exports.number().int().min(2).max(1e4) }).optional()
}).superRefine((t, ctx) => {
  const wrong = t.kind === "tidb" ? LOCAL_KEYS : TIDB_KEYS;
  for (const key of wrong) {
    if (t[key] === void 0) continue;
    ctx.addIssue({
      code: "custom",
      path: [key],
      message: t.kind === "tidb" ? `${key} is for private servers (mariadb, postgres); a TiDB target sets server_configs, roles, sql` : `${key} is for kind tidb (a TiDB cluster through tiup), not ${t.kind}`
    });
  }
  if (t.kind === "tidb" && t.version === void 0)
    ctx.addIssue({
      code: "custom",
      path: ["version"],
      message: "a TiDB target names the version tiup deploys (like v8.5.0)"
    });
}).transform((t) => ({ ...t, config: t.config ?? {} }));
var COMMON_KEYS = ["name", "threads", "duration", "warmup"];
var WorkloadSchema = external_exports.looseObject({
  name: external_exports.string().regex(NAME, "must be lower-case letters, digits, _ or - (starting with a letter)"),
  threads: external_exports.array(external_exports.number().int().positive({ error: "thread counts must be positive integers" }), {
    error: "must be a list of positive integers"
  }).min(1, "must list at least one thread count").refine((t) => new Set(t).size === t.length, "thread counts must not repeat"),
  duration: duration(1),
  warmup: duration(0).default(0)
}).transform((w, ctx) => {
  const tools = driverNames().filter((k) => k in w);
  if (tools.length !== 1) {
    ctx.addIssue({
      code: "custom",
      message: tools.length === 0 ? `a workload names its load tool with one key: ${driverNames().join(", ")} (e.g. sysbench: oltp_point_select)` : `a workload has one load tool, not ${tools.join(" and ")}`
    });
    return external_exports.NEVER;
  }
  const driver = driverOf(tools[0]);
  const own = {};
  for (const [k, v] of Object.entries(w)) {
    if (COMMON_KEYS.includes(k)) continue;
    if (!driver.keyNames.includes(k)) {
      ctx.addIssue({
        code: "custom",
        path: [k],
        message: `unknown key ${k} (allowed: ${[...COMMON_KEYS, ...driver.keyNames].join(", ")})`
      });
      continue;
    }
    own[k] = v;
  }
  const parsed = driver.keys.safeParse(own);
  if (!parsed.success) {
    forwardIssues(ctx, parsed.error.issues);
    return external_exports.NEVER;
  }
  return {
    name: w.name,
    driver: driver.name,
    script: parsed.data.script,
    threads: w.threads,
    duration: w.duration,
    warmup: w.warmup,
    options: parsed.data.options,
    judge: {}
  };
});
var MetricSchema = external_exports.strictObject({
  /** Taken from the load tool when left out; must agree with it when given. */
  better: external_exports.enum(["higher", "lower"], { error: "must be higher or lower" }).optional(),
  tolerance: percent("tolerance", 0, 1)
});
var COMPARE_ORDERS = ["interleaved", "duet"];
var CompareSchema = external_exports.strictObject({
  /** Rounds each variant runs every cell (the minimum, when max_rounds allows early stopping). */
  rounds: external_exports.number().int().min(2, "needs at least 2 rounds: one round gives no estimate of the noise").default(6),
  /** With max_rounds > rounds, rounds go on until every cell is decided or max_rounds is reached. */
  max_rounds: external_exports.number().int().min(2).optional(),
  /** Rounds run first and not judged: both servers settle (caches, thread pools) before measuring. */
  warmup_rounds: external_exports.number().int().min(0).max(10).default(1),
  order: external_exports.enum(COMPARE_ORDERS, { error: `must be one of ${COMPARE_ORDERS.join(", ")}` }).default("interleaved"),
  /** Familywise confidence over every cell × metric judged. */
  confidence: external_exports.number().gt(0.5).lt(1).default(0.95),
  base: external_exports.string().default("base"),
  head: external_exports.string().default("head"),
  /**
   * More than two variants: every one runs and each is judged against this one (default: the
   * first declared). Setting it, or declaring more than two variants without compare.base/head,
   * compares them all.
   */
  control: external_exports.string().optional(),
  /** Seed of the interleaving order (recorded in the verdict, so a run can be replayed). */
  seed: external_exports.number().int().nonnegative().optional(),
  /**
   * Instances as the unit: the rounds split into this many blocks; before each block after the
   * first, every variant's server restarts (fresh process, same data) in random order, and the
   * verdict's interval is taken over block means. 1: one instance per variant, rounds as the unit.
   */
  blocks: external_exports.number().int().min(1).refine((b) => b !== 2, "2 blocks give an interval with 1 degree of freedom: use 1, or 3 or more").default(1)
});
var METRIC_NAME = /^[a-z][a-z0-9_]*$/;
var SpecSchema = external_exports.strictObject({
  name: external_exports.string().regex(NAME, "must be lower-case letters, digits, _ or - (starting with a letter)"),
  description: external_exports.string().optional(),
  target: TargetSchema,
  /** The data set of sysbench workloads (the other tools size theirs in their options). */
  data: external_exports.strictObject({
    tables: external_exports.number().int().positive(),
    table_size: external_exports.number().int().positive()
  }).optional(),
  /** Where the load generator runs: pinning it off the server's CPUs cuts noise on small machines. */
  driver: external_exports.strictObject({ cpus: cpuList.optional() }).optional(),
  workloads: external_exports.array(WorkloadSchema).min(1, "must list at least one workload"),
  metrics: external_exports.record(
    external_exports.string().regex(METRIC_NAME, "metric names are lower-case letters, digits and _ (e.g. tps, p95_ms, tpmc)"),
    MetricSchema
  ).default({}),
  /** Named overlays, deep-merged onto the rest of the spec (see spec/variants.ts). */
  variants: external_exports.record(
    external_exports.string().regex(NAME, "variant names are lower-case letters, digits, _ or -"),
    external_exports.record(external_exports.string(), external_exports.unknown())
  ).optional(),
  compare: CompareSchema.optional()
}).superRefine((spec, ctx) => {
  if (!spec.workloads.every((w) => typeof w?.driver === "string")) return;
  const names = /* @__PURE__ */ new Set();
  spec.workloads.forEach((w, i) => {
    if (names.has(w.name))
      ctx.addIssue({
        code: "custom",
        path: ["workloads", i, "name"],
        message: `duplicate workload name "${w.name}"`
      });
    names.add(w.name);
    for (const problem of driverOf(w.driver).check?.(w, spec.data) ?? [])
      ctx.addIssue({ code: "custom", path: ["data"], message: problem });
  });
  const provided = /* @__PURE__ */ new Set();
  spec.workloads.forEach((w, i) => {
    const driver = driverOf(w.driver);
    const metrics = driver.metrics(w);
    for (const m of Object.keys(metrics)) provided.add(m);
    for (const [m, rule] of Object.entries(spec.metrics)) {
      const info = metrics[m];
      if (!info) continue;
      if (rule.better !== void 0 && rule.better !== info.better)
        ctx.addIssue({
          code: "custom",
          path: ["metrics", m, "better"],
          message: `${m} of ${w.driver} is ${info.better}-is-better (workload ${w.name})`
        });
      w.judge[m] = { better: info.better, tolerance: rule.tolerance };
    }
    if (Object.keys(w.judge).length === 0) {
      const m = driver.defaultMetric(w);
      const info = metrics[m];
      if (info) w.judge[m] = { better: info.better, tolerance: DEFAULT_TOLERANCE };
    }
    void i;
  });
  for (const m of Object.keys(spec.metrics)) {
    if (!provided.has(m))
      ctx.addIssue({
        code: "custom",
        path: ["metrics", m],
        message: `no workload provides ${m} (metrics that exist: ${[...provided].join(", ")}; a sysbench workload's percentile decides its p<N>_ms)`
      });
  }
});
var DEFAULT_TOLERANCE = 0.05;

// action/src/specfile/variants.ts
var isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
function deepMerge(base, overlay) {
  if (!isObj(base) || !isObj(overlay)) return overlay === void 0 ? base : overlay;
  const out = { ...base };
  for (const [k, v] of Object.entries(overlay)) {
    if (v === null) delete out[k];
    else out[k] = deepMerge(base[k], v);
  }
  return out;
}
var sameMatrix = (a, b) => JSON.stringify(a.workloads.map((w) => [w.name, w.threads])) === JSON.stringify(b.workloads.map((w) => [w.name, w.threads]));
function resolveVariants(file, raw, spec) {
  const compare = spec.compare ?? CompareSchema.parse({});
  const variants = spec.variants;
  if (!variants) {
    throw new InputError(
      `${file}: variants: a comparison needs variants (for example variants: {base: {}, head: {target: {config: {\u2026}}}})`
    );
  }
  const { variants: _v, compare: _c, ...plain } = raw;
  const rawCompare = raw.compare ?? {};
  const names = Object.keys(variants);
  const multi = compare.control !== void 0 || names.length > 2 && !("base" in rawCompare) && !("head" in rawCompare);
  const resolve = (role, name = compare[role]) => {
    const overlay = variants[name];
    if (!overlay) {
      throw new InputError(
        `${file}: compare.${role}: no variant named "${name}" (variants: ${names.join(", ") || "none"})`
      );
    }
    if ("variants" in overlay || "compare" in overlay) {
      throw new InputError(`${file}: variants.${name}: a variant cannot set variants or compare`);
    }
    const parsed = SpecSchema.safeParse(deepMerge(plain, overlay));
    if (!parsed.success) {
      throw new InputError(
        formatIssues(`${file}: variants.${name}`, parsed.error.issues, void 0, SpecSchema)
      );
    }
    return { name, spec: parsed.data };
  };
  let all;
  if (multi) {
    if ("base" in rawCompare || "head" in rawCompare)
      throw new InputError(
        `${file}: compare: base/head name a pair; with compare.control every variant is judged against the control: set one or the other`
      );
    if (names.length < 2) throw new InputError(`${file}: variants: a comparison needs at least two variants`);
    const control = resolve("control", compare.control ?? names[0]);
    all = [control, ...names.filter((n) => n !== control.name).map((n) => resolve("control", n))];
  } else {
    const base2 = resolve("base");
    const head2 = resolve("head");
    if (base2.name === head2.name)
      throw new InputError(`${file}: compare.base and compare.head name the same variant "${base2.name}"`);
    all = [base2, head2];
  }
  const base = all[0];
  const head = all[1];
  for (const v of all.slice(1))
    if (!sameMatrix(base.spec, v.spec)) {
      throw new InputError(
        `${file}: variants.${v.name}: workloads and thread counts must be the same in every variant`
      );
    }
  if (compare.max_rounds !== void 0 && compare.max_rounds < compare.rounds) {
    throw new InputError(
      `${file}: compare.max_rounds (${compare.max_rounds}) must be \u2265 compare.rounds (${compare.rounds})`
    );
  }
  if (compare.blocks > 1) {
    if (compare.rounds % compare.blocks !== 0)
      throw new InputError(
        `${file}: compare.rounds (${compare.rounds}) must be a multiple of compare.blocks (${compare.blocks}): every block runs the same number of rounds`
      );
    const perBlock = compare.rounds / compare.blocks;
    if (compare.max_rounds !== void 0 && compare.max_rounds % perBlock !== 0)
      throw new InputError(
        `${file}: compare.max_rounds (${compare.max_rounds}) must be a multiple of the ${perBlock} rounds per block (compare.rounds / compare.blocks): more rounds come as whole blocks`
      );
  }
  return { base, head, all, compare };
}

// action/src/specfile/load.ts
function canonicalJson(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== void 0).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
function hashSpec(spec) {
  return createHash("sha256").update(canonicalJson(spec)).digest("hex");
}
function parseSpec(text, file) {
  const yaml = parseYaml(text, file);
  const raw = yaml.raw;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new InputError(
      `${file}: a spec is a YAML mapping with keys name, target, data, workloads, metrics`
    );
  }
  const parsed = { data: validateYaml(SpecSchema, yaml, file) };
  const loaded = { path: file, spec: parsed.data, hash: hashSpec(parsed.data) };
  if (parsed.data.variants) loaded.variants = resolveVariants(file, raw, parsed.data);
  return loaded;
}
async function loadSpec(file) {
  let text;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new InputError(`--spec ${file}: cannot read the file (${e.code ?? e})`);
  }
  return parseSpec(text, file);
}

// action/src/result/migrate.ts
var isObj2 = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
var V1_METRICS = {
  tps: { unit: "1/s", better: "higher" },
  qps: { unit: "1/s", better: "higher" },
  errors: { unit: "count", better: "lower" }
};
var v1Metric = (name) => V1_METRICS[name] ?? (/^p\d+_ms$/.test(name) ? { unit: "ms", better: "lower" } : void 0);
var V1_INTERVAL_KEYS = [
  "tps",
  "qps",
  "reads",
  "writes",
  "other",
  "errors_per_s",
  "reconnects_per_s",
  "queue_length",
  "concurrency"
];
function cellV1toV2(cell) {
  const { script, summary, intervals, metrics, metrics_source, ...rest } = cell;
  const percentile = isObj2(summary) && typeof summary.percentile === "number" ? summary.percentile : null;
  const outMetrics = {};
  for (const [name, value] of Object.entries(isObj2(metrics) ? metrics : {})) {
    const info = v1Metric(name);
    if (info && typeof value === "number") outMetrics[name] = { value, ...info };
  }
  const outIntervals = (Array.isArray(intervals) ? intervals : []).filter(isObj2).map((iv) => {
    const values = {};
    for (const k of V1_INTERVAL_KEYS) if (typeof iv[k] === "number") values[k] = iv[k];
    if (typeof iv.lat_ms === "number" && percentile !== null) values[`p${percentile}_ms`] = iv.lat_ms;
    return { t: iv.t, warmup: iv.warmup === true, values };
  });
  return {
    ...rest,
    driver: "sysbench",
    script,
    metrics: outMetrics,
    ...metrics_source !== void 0 ? { metrics_source } : {},
    intervals: outIntervals,
    ...isObj2(summary) ? { summary } : {}
  };
}
function specBodyV1toV2(body) {
  if (!isObj2(body) || !Array.isArray(body.workloads)) return body;
  const rules = isObj2(body.metrics) ? body.metrics : {};
  const workloads = body.workloads.filter(isObj2).map((w) => {
    const { sysbench: sysbench2, percentile, options, ...rest } = w;
    const p = typeof percentile === "number" ? percentile : 95;
    const provided = /* @__PURE__ */ new Set(["tps", "qps", "errors", `p${p}_ms`]);
    const judge = Object.fromEntries(Object.entries(rules).filter(([m]) => provided.has(m)));
    return {
      ...rest,
      driver: "sysbench",
      script: sysbench2,
      options: { ...isObj2(options) ? options : {}, percentile: p },
      judge
    };
  });
  return { ...body, workloads };
}
function resultV1toV2(raw) {
  const spec = isObj2(raw.spec) ? { ...raw.spec, body: specBodyV1toV2(raw.spec.body) } : raw.spec;
  const cells = Array.isArray(raw.cells) ? raw.cells.map((c) => isObj2(c) ? cellV1toV2(c) : c) : raw.cells;
  return { ...raw, version: 2, spec, cells };
}
var RESULT_MIGRATIONS = { 1: resultV1toV2 };

// action/src/result/model.ts
var RESULT_FORMAT = "tiperf.result";
var RESULT_VERSION = 2;
var num2 = external_exports.number();
var IntervalSchema = external_exports.strictObject({
  /** Seconds since the start of the run. */
  t: num2,
  /** Inside the workload's warmup window: kept, shown, never judged. */
  warmup: external_exports.boolean(),
  values: external_exports.record(external_exports.string(), num2)
});
var MetricSchema2 = external_exports.strictObject({
  value: num2,
  unit: external_exports.string(),
  better: external_exports.enum(["higher", "lower"])
});
var CellSchema = external_exports.strictObject({
  workload: external_exports.string(),
  /** The load tool (drivers/registry.ts) and what it ran: sysbench script, go-tpc benchmark, go-ycsb workload. */
  driver: external_exports.string(),
  script: external_exports.string(),
  threads: external_exports.number().int().positive(),
  /** Which variant of the spec ran this cell ("base" for a plain run). */
  variant: external_exports.string(),
  /** 1-based repetition number when a comparison repeats cells; 0 marks a warmup round (never judged). */
  round: external_exports.number().int().nonnegative(),
  /** With compare.blocks: the block (1-based) whose server instances measured the cell. */
  block: external_exports.number().int().positive().optional(),
  status: external_exports.enum(["ok", "failed"]),
  error: external_exports.string().optional(),
  started_at: external_exports.string(),
  finished_at: external_exports.string(),
  /** Raw tool output, relative to the run directory. */
  raw_log: external_exports.string(),
  warmup_s: num2,
  duration_s: num2,
  /** The values that are judged, over the steady window (after warmup). */
  metrics: external_exports.record(external_exports.string(), MetricSchema2),
  metrics_source: external_exports.enum(["summary", "intervals"]).optional(),
  intervals: external_exports.array(IntervalSchema),
  /** The tool's own summary, as its driver parsed it. */
  summary: external_exports.record(external_exports.string(), external_exports.unknown()).optional(),
  /** Per-operation breakdown: TPC-C NEW_ORDER, PAYMENT …; YCSB READ, UPDATE …: field → value. */
  operations: external_exports.record(external_exports.string(), external_exports.record(external_exports.string(), num2)).optional(),
  /** Failed operations the tool counted (TPC-C `*_ERR`, YCSB `*_ERROR`), same shape. */
  errors: external_exports.record(external_exports.string(), external_exports.record(external_exports.string(), num2)).optional()
});
var HostSchema = external_exports.strictObject({
  hostname: external_exports.string(),
  cpu_model: external_exports.string(),
  cores: external_exports.number().int(),
  memory_bytes: num2,
  kernel: external_exports.string(),
  os: external_exports.string(),
  arch: external_exports.string()
});
var TargetInfoSchema = external_exports.strictObject({
  variant: external_exports.string(),
  kind: external_exports.string(),
  version: external_exports.string(),
  config: external_exports.record(external_exports.string(), external_exports.union([external_exports.string(), external_exports.number(), external_exports.boolean()])),
  effective_config: external_exports.record(external_exports.string(), external_exports.string()),
  resources: external_exports.record(external_exports.string(), external_exports.union([external_exports.string(), external_exports.number()])).optional(),
  /** TiDB targets: deployment, topology file, tidb_version(), /status. */
  details: external_exports.record(external_exports.string(), external_exports.unknown()).optional()
});
var ResultSchema = external_exports.strictObject({
  format: external_exports.literal(RESULT_FORMAT),
  version: external_exports.literal(RESULT_VERSION),
  run_id: external_exports.string(),
  status: external_exports.enum(["running", "complete", "failed", "interrupted"]),
  error: external_exports.string().optional(),
  started_at: external_exports.string(),
  finished_at: external_exports.string().optional(),
  spec: external_exports.strictObject({
    name: external_exports.string(),
    path: external_exports.string(),
    hash: external_exports.string(),
    body: external_exports.unknown()
  }),
  targets: external_exports.array(TargetInfoSchema),
  host: HostSchema,
  tools: external_exports.record(external_exports.string(), external_exports.string()),
  cells: external_exports.array(CellSchema),
  /** Where the spec could not measure what it says (warned about when the run started). */
  warnings: external_exports.array(external_exports.string()).optional()
});

// action/src/result/store.ts
function newRunId(specName, now = /* @__PURE__ */ new Date()) {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  return `${stamp}-${specName}-${randomBytes(2).toString("hex")}`;
}
async function writeAtomic(file, text) {
  const tmp = `${file}.${process.pid}.${randomBytes(3).toString("hex")}.tmp`;
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(tmp, text);
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => {
    });
    throw new WriteError(file, e);
  }
}
async function writeInPlace(file, text) {
  try {
    const fh = await open(file, "r+");
    try {
      const data = Buffer.from(text);
      await fh.write(data, 0, data.length, 0);
      await fh.truncate(data.length);
    } finally {
      await fh.close();
    }
  } catch (e) {
    throw new WriteError(file, e);
  }
}
var RESERVE_BYTES = 1 << 20;
var isNoSpace = (e) => e instanceof WriteError && ["ENOSPC", "EDQUOT"].includes(e.cause?.code ?? "");
var RunDir = class _RunDir {
  constructor(dir) {
    this.dir = dir;
  }
  dir;
  /** Forgets the run's ledger entry once its result is final (set by the pipeline). */
  forget = async () => {
  };
  static async create(outDir, runId) {
    const run = new _RunDir(join2(outDir, runId));
    try {
      await mkdir(join2(run.dir, "raw"), { recursive: true });
    } catch (e) {
      throw new WriteError(join2(run.dir, "raw"), e);
    }
    try {
      await writeFile(run.reservePath, Buffer.alloc(RESERVE_BYTES));
    } catch (e) {
      await rm(run.reservePath, { force: true }).catch(() => {
      });
      await rmdir(join2(run.dir, "raw")).catch(() => {
      });
      await rmdir(run.dir).catch(() => {
      });
      throw new WriteError(run.reservePath, e);
    }
    return run;
  }
  get reservePath() {
    return join2(this.dir, ".reserve");
  }
  /** Gives the reserved space back (at the end of a run, or when a write found the disk full). */
  async release() {
    await rm(this.reservePath, { force: true }).catch(() => {
    });
  }
  get resultPath() {
    return join2(this.dir, "result.json");
  }
  get reportPath() {
    return join2(this.dir, "report.md");
  }
  get serverLogDir() {
    return join2(this.dir, "server");
  }
  raw(name) {
    return join2(this.dir, "raw", name);
  }
  async writeResult(result) {
    await writeResult(this.resultPath, result);
  }
  /**
   * The last write of a run's result: the reserve is given back first, and should the disk still
   * be too full for a second copy, the file is overwritten in place. Whatever the run ended with,
   * result.json says so.
   */
  async writeFinalResult(result) {
    await this.release();
    const text = resultText(result);
    try {
      await writeAtomic(this.resultPath, text);
    } catch (e) {
      if (!isNoSpace(e)) throw e;
      await writeInPlace(this.resultPath, text);
    }
  }
};
var resultText = (result) => `${JSON.stringify(ResultSchema.parse(result), null, 2)}
`;
async function writeResult(file, result) {
  await writeAtomic(file, resultText(result));
}
async function readModel(file, kind, format, version, schema, migrations = {}) {
  let raw;
  try {
    raw = JSON.parse(await readFile2(file, "utf8"));
  } catch (e) {
    const code = e.code;
    throw new InputError(
      `${file}: ${code ? `cannot read the file (${code})` : `not valid JSON (${e.message})`}`
    );
  }
  let head = raw;
  if (head?.format !== format)
    throw new InputError(`${file}: not a tiperf ${kind} (format must be "${format}")`);
  for (let step = 0; step < 10 && typeof head.version === "number" && head.version !== version; step++) {
    const migrate = migrations[head.version];
    if (!migrate) break;
    raw = migrate(head);
    head = raw;
  }
  if (head.version !== version) {
    throw new InputError(
      `${file}: ${kind} version ${String(head.version)} is not supported (this tiperf reads version ${version})`
    );
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new InputError(formatIssues(file, parsed.error.issues));
  return parsed.data;
}
function readResult(file) {
  return readModel(file, "result", RESULT_FORMAT, RESULT_VERSION, ResultSchema, RESULT_MIGRATIONS);
}
async function readReport(file, format, check) {
  let doc;
  try {
    doc = JSON.parse(await readFile2(file, "utf8"));
  } catch {
    return void 0;
  }
  const r = doc;
  if (r?.format !== format) return void 0;
  const missing = check(r);
  if (missing) throw new InputError(`${file}: a ${format} report needs ${missing}`);
  return r;
}

// action/src/proc/process.ts
import { spawn as spawn2 } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
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
function procStat(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return void 0;
  }
}
function processState(pid) {
  const code = procStat(pid)?.[0];
  return code === void 0 ? "gone" : STATES[code] ?? `in state ${code}`;
}
function startServerProcess(command, args, opts) {
  const fd = openSync(opts.logFile, "a");
  let child;
  try {
    child = spawn2(command, args, {
      detached: true,
      stdio: ["ignore", fd, fd],
      cwd: opts.cwd,
      env: childEnv(),
      ...opts.runAs ? { uid: opts.runAs.uid, gid: opts.runAs.gid } : {}
    });
  } finally {
    closeSync(fd);
  }
  let alive2 = true;
  const exited = new Promise((resolve) => {
    child.once("error", () => {
      alive2 = false;
      resolve({ code: 127, signal: null });
    });
    child.once("exit", (code, signal) => {
      alive2 = false;
      resolve({ code, signal });
    });
  });
  const pid = child.pid ?? -1;
  return {
    pid,
    exited,
    isAlive: () => alive2,
    async stop(signal, graceMs) {
      if (!alive2) return;
      try {
        process.kill(pid, signal);
        process.kill(pid, "SIGCONT");
      } catch {
        return;
      }
      const timer = new Promise((r) => setTimeout(() => r("timeout"), graceMs).unref());
      if (await Promise.race([exited, timer]) === "timeout" && alive2) {
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
  return new Promise((resolve) => {
    const child = spawn2(command, args, {
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
    child.once("error", (e) => resolve({ code: 127, signal: null, stdout, stderr: stderr + e.message }));
    child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

// action/src/targets/ledger.ts
import { randomBytes as randomBytes2 } from "node:crypto";
import { existsSync as existsSync2, readFileSync as readFileSync2 } from "node:fs";
import { copyFile, mkdir as mkdir2, readdir, readFile as readFile3, rm as rm2, rmdir as rmdir2, writeFile as writeFile2 } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join as join3 } from "node:path";
async function keepLogs(logs, logDir) {
  try {
    await mkdir2(logDir, { recursive: true });
  } catch {
    return;
  }
  for (const log of logs) await copyFile(log, join3(logDir, basename(log))).catch(() => {
  });
}
var ledgerDir = (env = process.env) => env.TIPERF_LEDGER || join3(tmpdir(), "tiperf-ledger");
async function record(entry) {
  const dir = ledgerDir();
  await mkdir2(dir, { recursive: true });
  const file = join3(dir, `${entry.kind}-${randomBytes2(4).toString("hex")}.json`);
  const full = { ...entry, owner: process.pid, started_at: (/* @__PURE__ */ new Date()).toISOString() };
  await writeFile2(file, `${JSON.stringify(full)}
`);
  return () => rm2(file, { force: true });
}
var alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
};
function cmdline(pid) {
  try {
    return readFileSync2(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  } catch {
    return "";
  }
}
async function sweep(opts) {
  const dir = opts.dir ?? ledgerDir();
  const out = { swept: [], kept: [] };
  if (!existsSync2(dir)) return out;
  const files = [];
  for (const f of (await readdir(dir, { withFileTypes: true })).sort(
    (a, b) => a.name.localeCompare(b.name)
  )) {
    if (f.isFile() && f.name.endsWith(".json")) files.push(f.name);
    if (f.isDirectory()) {
      for (const g of (await readdir(join3(dir, f.name))).sort())
        if (g.endsWith(".json")) files.push(join3(f.name, g));
    }
  }
  const order = { server: 0, playground: 0, cluster: 0, stack: 1, cgroup: 1, run: 2 };
  const entries = [];
  for (const f of files) {
    try {
      entries.push([f, JSON.parse(await readFile3(join3(dir, f), "utf8"))]);
    } catch {
      opts.log(`reap: ${join3(dir, f)} is not a ledger entry; left alone`);
    }
  }
  entries.sort(([, a], [, b]) => (order[a.kind] ?? 3) - (order[b.kind] ?? 3));
  for (const [f, e] of entries) {
    const age = Date.now() - Date.parse(e.started_at);
    const due = opts.maxAgeMs === void 0 || !alive(e.owner) || age > opts.maxAgeMs;
    if (!due) {
      out.kept.push(e);
      continue;
    }
    out.swept.push(e);
    const ageText = `${Math.round(age / 6e4)} min old, owner ${e.owner} ${alive(e.owner) ? "running" : "gone"}`;
    if (opts.dryRun) {
      opts.log(
        e.kind === "run" ? `reap (dry run): would mark ${e.path} interrupted if it is still running (${ageText})` : e.kind === "cluster" ? `reap (dry run): would run tiup cluster destroy ${e.path} --yes (${ageText})` : e.kind === "stack" ? `reap (dry run): would recover ${e.what} (destroy, tag sweep, remove) (${ageText})` : `reap (dry run): would stop ${e.what}${e.pid ? ` pid ${e.pid}` : ""} and remove ${e.path} (${ageText})`
      );
      continue;
    }
    if (e.kind === "run") {
      await markInterrupted(e, opts.log);
      await rm2(join3(dir, f), { force: true });
      continue;
    }
    if (e.kind === "stack") {
      const { recoverRecorded } = await import("./chunk-XR6FTRPQ.js");
      const { tiupHome } = await import("./chunk-BHNYIQZA.js");
      try {
        await recoverRecorded(e, tiupHome(), opts.log);
        opts.log(`reap: recovered ${e.what} (${ageText})`);
        await rm2(join3(dir, f), { force: true });
      } catch (err) {
        opts.log(`reap: ${e.what}: recovery failed, entry kept: ${err.message.split("\n")[0]}`);
        out.kept.push(e);
        out.swept.pop();
      }
      continue;
    }
    if (e.kind === "cluster") {
      const r = await runCommand("tiup", ["cluster", "destroy", e.path, "--yes"], { timeoutMs: 9e5 });
      if (r.code !== 0) {
        opts.log(
          `reap: tiup cluster destroy ${e.path} failed (exit ${r.code}); entry kept: ${(r.stderr || r.stdout).trim().split("\n").slice(-2).join(" ")}`
        );
        out.kept.push(e);
        out.swept.pop();
        continue;
      }
      opts.log(`reap: destroyed tiup cluster ${e.path} (${ageText})`);
      await rm2(join3(dir, f), { force: true });
      continue;
    }
    const marker = e.kind === "playground" ? basename(e.path) : e.path;
    if ((e.kind === "server" || e.kind === "playground") && e.pid && alive(e.pid) && cmdline(e.pid).includes(marker)) {
      const playground = e.kind === "playground";
      process.kill(e.pid, e.signal ?? (playground ? "SIGINT" : "SIGTERM"));
      for (let i = 0; i < (playground ? 300 : 100) && alive(e.pid); i++)
        await new Promise((r) => setTimeout(r, 100));
      if (alive(e.pid)) process.kill(e.pid, "SIGKILL");
      opts.log(`reap: stopped ${e.what} pid ${e.pid} (${ageText})`);
    }
    if (e.kind === "server" || e.kind === "playground") {
      if (e.logs && e.log_dir) {
        await keepLogs(e.logs, e.log_dir);
        opts.log(`reap: kept the server's logs in ${e.log_dir}`);
      }
      await rm2(e.path, { recursive: true, force: true });
    } else await rmdir2(e.path).catch(() => {
    });
    opts.log(`reap: removed ${e.path}`);
    await rm2(join3(dir, f), { force: true });
  }
  return out;
}
async function markInterrupted(e, log) {
  let result;
  try {
    result = await readResult(e.path);
  } catch (err) {
    log(`reap: ${e.path}: left as it is (${err.message.split("\n")[0]})`);
    return;
  }
  if (result.status !== "running") return;
  result.status = "interrupted";
  result.finished_at = (/* @__PURE__ */ new Date()).toISOString();
  result.error = `tiperf (pid ${e.owner}) ended without finishing this run (killed or crashed); marked interrupted by tiperf reap`;
  try {
    await writeResult(e.path, result);
    log(`reap: marked ${e.path} interrupted`);
  } catch (err) {
    log(`reap: ${err.message}`);
  }
}

export {
  mean,
  stddev,
  tQuantile,
  normalQuantile,
  pairedLogShift,
  welchLogShift,
  batchMeans,
  blockLogShift,
  findTool,
  firstTool,
  onTeardown,
  teardownAll,
  Interrupted,
  holdGrace,
  installSignalTeardown,
  installCrashTeardown,
  shellCommand,
  sshArgs,
  runTool,
  mostSpecificLine,
  DRIVERS,
  driverNames,
  driverOf,
  deepMerge,
  canonicalJson,
  parseSpec,
  loadSpec,
  HostSchema,
  TargetInfoSchema,
  newRunId,
  writeAtomic,
  RunDir,
  writeResult,
  readModel,
  readResult,
  readReport,
  procStat,
  processState,
  startServerProcess,
  runCommand,
  keepLogs,
  ledgerDir,
  record,
  sweep
};
