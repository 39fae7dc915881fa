#!/usr/bin/env node
import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path';
const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);
import {
  alive,
  childEnv,
  findTool,
  firstTool,
  onTeardown,
  procStat,
  processState,
  provisionCluster,
  record,
  remoteCommand,
  runCommand,
  shellCommand,
  sshArgs,
  startServerProcess
} from "./chunk-SMGZJZRQ.js";
import {
  InputError,
  MAIN_PORT,
  PORT_STEP,
  ROLES,
  ROLE_PORTS,
  RunError,
  TidbTargetSchema,
  WriteError,
  checkBudget,
  cloudPlanText,
  estimateCost,
  external_exports,
  formatIssues,
  forwardIssues,
  loadProfile,
  placeholderHosts,
  require_dist,
  withHosts
} from "./chunk-MMD4MGLG.js";
import {
  __toESM
} from "./chunk-3EADY6QU.js";

// action/src/result/store.ts
import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, rm, rmdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

// action/src/result/migrate.ts
var isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
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
  const percentile = isObj(summary) && typeof summary.percentile === "number" ? summary.percentile : null;
  const outMetrics = {};
  for (const [name, value] of Object.entries(isObj(metrics) ? metrics : {})) {
    const info = v1Metric(name);
    if (info && typeof value === "number") outMetrics[name] = { value, ...info };
  }
  const outIntervals = (Array.isArray(intervals) ? intervals : []).filter(isObj).map((iv) => {
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
    ...isObj(summary) ? { summary } : {}
  };
}
function specBodyV1toV2(body) {
  if (!isObj(body) || !Array.isArray(body.workloads)) return body;
  const rules = isObj(body.metrics) ? body.metrics : {};
  const workloads = body.workloads.filter(isObj).map((w) => {
    const { sysbench, percentile, options, ...rest } = w;
    const p = typeof percentile === "number" ? percentile : 95;
    const provided = /* @__PURE__ */ new Set(["tps", "qps", "errors", `p${p}_ms`]);
    const judge = Object.fromEntries(Object.entries(rules).filter(([m]) => provided.has(m)));
    return {
      ...rest,
      driver: "sysbench",
      script: sysbench,
      options: { ...isObj(options) ? options : {}, percentile: p },
      judge
    };
  });
  return { ...body, workloads };
}
function resultV1toV2(raw) {
  const spec = isObj(raw.spec) ? { ...raw.spec, body: specBodyV1toV2(raw.spec.body) } : raw.spec;
  const cells = Array.isArray(raw.cells) ? raw.cells.map((c) => isObj(c) ? cellV1toV2(c) : c) : raw.cells;
  return { ...raw, version: 2, spec, cells };
}
var RESULT_MIGRATIONS = { 1: resultV1toV2 };

// action/src/result/model.ts
var RESULT_FORMAT = "tiperf.result";
var RESULT_VERSION = 2;
var num = external_exports.number();
var IntervalSchema = external_exports.strictObject({
  /** Seconds since the start of the run. */
  t: num,
  /** Inside the workload's warmup window: kept, shown, never judged. */
  warmup: external_exports.boolean(),
  values: external_exports.record(external_exports.string(), num)
});
var MetricSchema = external_exports.strictObject({
  value: num,
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
  warmup_s: num,
  duration_s: num,
  /** The values that are judged, over the steady window (after warmup). */
  metrics: external_exports.record(external_exports.string(), MetricSchema),
  metrics_source: external_exports.enum(["summary", "intervals"]).optional(),
  intervals: external_exports.array(IntervalSchema),
  /** The tool's own summary, as its driver parsed it. */
  summary: external_exports.record(external_exports.string(), external_exports.unknown()).optional(),
  /** Per-operation breakdown: TPC-C NEW_ORDER, PAYMENT …; YCSB READ, UPDATE …: field → value. */
  operations: external_exports.record(external_exports.string(), external_exports.record(external_exports.string(), num)).optional(),
  /** Failed operations the tool counted (TPC-C `*_ERR`, YCSB `*_ERROR`), same shape. */
  errors: external_exports.record(external_exports.string(), external_exports.record(external_exports.string(), num)).optional()
});
var HostSchema = external_exports.strictObject({
  hostname: external_exports.string(),
  cpu_model: external_exports.string(),
  cores: external_exports.number().int(),
  memory_bytes: num,
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
  /**
   * Where the machines came from, named the same in baselines, history and comments: the cluster
   * profile's name (playground, aws-smoke), or local-<kind> for a private server on the runner.
   */
  profile: external_exports.string().optional(),
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
    const run = new _RunDir(join(outDir, runId));
    try {
      await mkdir(join(run.dir, "raw"), { recursive: true });
    } catch (e) {
      throw new WriteError(join(run.dir, "raw"), e);
    }
    try {
      await writeFile(run.reservePath, Buffer.alloc(RESERVE_BYTES));
    } catch (e) {
      await rm(run.reservePath, { force: true }).catch(() => {
      });
      await rmdir(join(run.dir, "raw")).catch(() => {
      });
      await rmdir(run.dir).catch(() => {
      });
      throw new WriteError(run.reservePath, e);
    }
    return run;
  }
  get reservePath() {
    return join(this.dir, ".reserve");
  }
  /** Gives the reserved space back (at the end of a run, or when a write found the disk full). */
  async release() {
    await rm(this.reservePath, { force: true }).catch(() => {
    });
  }
  get resultPath() {
    return join(this.dir, "result.json");
  }
  get reportPath() {
    return join(this.dir, "report.md");
  }
  get serverLogDir() {
    return join(this.dir, "server");
  }
  raw(name) {
    return join(this.dir, "raw", name);
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
    raw = JSON.parse(await readFile(file, "utf8"));
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
    doc = JSON.parse(await readFile(file, "utf8"));
  } catch {
    return void 0;
  }
  const r = doc;
  if (r?.format !== format) return void 0;
  const missing = check(r);
  if (missing) throw new InputError(`${file}: a ${format} report needs ${missing}`);
  return r;
}

// action/src/targets/local/kind.ts
import { cpus } from "node:os";

// action/src/targets/local/reapers.ts
import { readFileSync } from "node:fs";
import { copyFile, mkdir as mkdir2, rm as rm2, rmdir as rmdir2 } from "node:fs/promises";
import { basename, join as join2 } from "node:path";
async function keepLogs(logs, logDir) {
  try {
    await mkdir2(logDir, { recursive: true });
  } catch {
    return;
  }
  for (const log of logs) await copyFile(log, join2(logDir, basename(log))).catch(() => {
  });
}
function cmdline(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  } catch {
    return "";
  }
}
async function stopRecorded(pid, marker, signal, waitMs) {
  if (!pid || !alive(pid) || !cmdline(pid).includes(marker)) return false;
  process.kill(pid, signal);
  for (let waited = 0; waited < waitMs && alive(pid); waited += 100)
    await new Promise((r) => setTimeout(r, 100));
  if (alive(pid)) process.kill(pid, "SIGKILL");
  return true;
}
var serverReaper = {
  order: 0,
  describe: (e) => `stop ${e.what}${e.pid ? ` pid ${e.pid}` : ""} and remove ${e.path}`,
  async reap(e, log) {
    if (await stopRecorded(e.pid, e.path, e.signal ?? "SIGTERM", 1e4))
      log(`reap: stopped ${e.what} pid ${e.pid}`);
    const logs = e.logs;
    const logDir = e.log_dir;
    if (logs && logDir) {
      await keepLogs(logs, logDir);
      log(`reap: kept the server's logs in ${logDir}`);
    }
    await rm2(e.path, { recursive: true, force: true });
    log(`reap: removed ${e.path}`);
  }
};
var cgroupReaper = {
  order: 1,
  describe: (e) => `remove ${e.path}`,
  async reap(e, log) {
    await rmdir2(e.path).catch(() => {
    });
    log(`reap: removed ${e.path}`);
  }
};
var LOCAL_REAPERS = { server: serverReaper, cgroup: cgroupReaper };

// action/src/targets/local/schema.ts
var SERVER_SETTING = /^[a-z][a-z0-9_.-]*$/i;
var scalar = external_exports.union([external_exports.string(), external_exports.number(), external_exports.boolean()]);
function parsePercent(value) {
  const m = /^(\d+(?:\.\d+)?)%$/.exec(value.trim());
  return m ? Number(m[1]) / 100 : void 0;
}
var CPU_LIST = /^\d+(-\d+)?(,\d+(-\d+)?)*$/;
var cpuList = external_exports.string().regex(CPU_LIST, 'must be a CPU list like "0", "0-1" or "0,2" (as taskset -c takes)');
var quota = external_exports.string({ error: "cpu_quota must be a percentage like 90% (a number followed by %)" }).transform((v, ctx) => {
  const f = parsePercent(v);
  if (f === void 0 || f <= 0 || f > 64) {
    ctx.addIssue({
      code: "custom",
      message: `cpu_quota must be a percentage like "5%" in (0%, 6400%] (got ${JSON.stringify(v)})`
    });
    return external_exports.NEVER;
  }
  return f;
});
var ResourcesSchema = external_exports.strictObject({
  /** CPUs the database server may run on (sched affinity, as tiup's numa/cpu binding). */
  cpus: cpuList.optional(),
  /** Share of one CPU for the database server ("90%"), as tiup's resource_control / systemd CPUQuota. */
  cpu_quota: quota.optional()
});
var localTargetSchema = (kind) => external_exports.strictObject({
  kind: external_exports.literal(kind),
  /** Server settings (MariaDB options, PostgreSQL GUCs), read back once the server runs. */
  config: external_exports.record(external_exports.string().regex(SERVER_SETTING, "server setting names are letters, digits, _ . -"), scalar).optional(),
  resources: ResourcesSchema.optional()
}).transform((t) => ({ ...t, config: t.config ?? {} }));

// action/src/targets/local/kind.ts
var anyOf = (programs) => programs.some((p) => findTool(p) !== void 0);
function localWarnings(input, cores) {
  const out = [];
  const at = (name) => input.variants.length > 1 ? `variants.${name}: ` : "";
  for (const v of input.variants) {
    const t = v.target;
    const quota2 = t.resources?.cpu_quota;
    if (quota2 !== void 0 && quota2 > cores)
      out.push(
        `${at(v.name)}target.resources.cpu_quota ${Math.round(quota2 * 100)}% is more than this machine's ${cores} CPU(s) (${cores * 100}%): the quota cannot bind`
      );
    const conn = Object.entries(t.config).find(([k]) => k.replace(/-/g, "_") === "max_connections");
    if (conn && Number(conn[1]) < input.maxConnections + 1)
      out.push(
        `${at(v.name)}target.config.max_connections ${conn[1]} is below the largest thread count ${input.maxConnections} (+1 for tiperf): cells with more threads cannot connect`
      );
  }
  return out;
}
function localSteps(s, input) {
  const steps = [];
  for (const v of input.variants) {
    const t = v.target;
    const c = s.commands({
      workDir: `<workdir of ${v.name}>`,
      port: "<port>",
      maxConnections: input.maxConnections,
      config: t.config
    });
    const add = (phase, run, about) => steps.push({ phase, variant: v.name, where: "runner", run, ...about ? { about } : {} });
    add("start", { command: c.install }, `variant ${v.name}: a fresh data directory`);
    add(
      "start",
      { command: c.server },
      `variant ${v.name}: a free port on 127.0.0.1 picked at start; runs until teardown`
    );
    add("record", { sql: s.versionSql }, `variant ${v.name}: the server's version, recorded`);
    for (const key of Object.keys(t.config))
      add("record", { sql: s.settingSql(key) }, `variant ${v.name}: target.config.${key}, read back`);
    if (t.resources?.cpu_quota !== void 0)
      add(
        "start",
        { command: ["write", `<cgroup>/cpu.max`, `${Math.round(t.resources.cpu_quota * 1e4)} 10000`] },
        `variant ${v.name}: the server's processes in a cgroup of their own, ${Math.round(t.resources.cpu_quota * 100)}% of a CPU`
      );
    if (t.resources?.cpus !== void 0)
      add("start", { command: ["taskset", "-a", "-p", "-c", t.resources.cpus, "<pid>"] }, "pinned");
    if (input.blocks > 1)
      add(
        "restart",
        { command: [`kill -${s.stopSignal.replace("SIG", "")} <pid>`, ...c.server] },
        `before each block after the first: a fresh process on the same data`
      );
  }
  for (const v of input.variants)
    steps.push({
      phase: "teardown",
      variant: v.name,
      where: "runner",
      run: {
        command: [
          `kill -${s.stopSignal.replace("SIG", "")} <pid of ${v.name}>`,
          `rm -rf <workdir of ${v.name}>`
        ]
      },
      about: "always: success, failure, cancel, SIGTERM (logs kept in <run>/server/); `tiperf reap` if tiperf was killed"
    });
  return steps;
}
function localKind(s) {
  return {
    name: s.name,
    schema: localTargetSchema(s.name),
    keyNames: ["kind", "config", "resources"],
    needs(target) {
      const t = target;
      return [
        ...s.needs(),
        ...t.resources?.cpus !== void 0 ? [
          {
            found: anyOf(["taskset"]),
            what: "taskset (target.resources.cpus)",
            install: "the Debian package util-linux"
          }
        ] : []
      ];
    },
    async plan(input) {
      return {
        kind: s.name,
        profile: `local-${s.name}`,
        variants: input.variants,
        about: [
          `target: a private ${s.title} server per variant on 127.0.0.1 (own data directory, port and socket; stopped by PID)`
        ],
        files: {},
        steps: localSteps(s, input),
        connection: () => ({
          protocol: s.protocol,
          endpoints: [{ host: "127.0.0.1", port: 0 }],
          user: s.user,
          password: ""
        }),
        dataOf: (variant) => variant,
        remoteLoad: false,
        overhead: { setupS: 5 * input.variants.length, switchS: 0, restartS: 5 },
        switches: false,
        warnings: localWarnings(input, input.cores ?? cpus().length),
        refusals: []
      };
    },
    async open(plan, o) {
      const specs = new Map(plan.variants.map((v) => [v.name, v.target]));
      const started = [];
      const deployment = {
        executed: [],
        async target(variant, opts) {
          const spec = specs.get(variant);
          if (!spec) throw new Error(`no variant ${variant} in this plan`);
          const t = await s.start(spec, {
            ...opts,
            step: (step) => deployment.executed.push({ ...step, variant })
          });
          started.push(t);
          return t;
        },
        async stop() {
          for (const t of started.reverse())
            await t.stop().catch((e) => o.log(`teardown: ${e.message}`));
        }
      };
      return deployment;
    },
    reapers: LOCAL_REAPERS
  };
}

// action/src/targets/mariadb/server.ts
import { existsSync as existsSync2 } from "node:fs";
import { rm as rm4 } from "node:fs/promises";
import { join as join5 } from "node:path";

// action/src/targets/local/server.ts
import { mkdtemp, readFile as readFile3, rm as rm3 } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename as basename2, join as join4 } from "node:path";

// action/src/proc/port.ts
import { createServer } from "node:net";
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

// action/src/targets/local/affinity.ts
import { cpus as cpus2 } from "node:os";
function cpuIndexes(list) {
  return list.split(",").flatMap((part) => {
    const [a, b] = part.split("-").map(Number);
    return b === void 0 ? [a] : Array.from({ length: b - a + 1 }, (_, i) => a + i);
  });
}
function checkCpus(key, list) {
  const n = cpus2().length;
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

// action/src/targets/local/cgroup.ts
import { existsSync } from "node:fs";
import { mkdir as mkdir3, readdir, readFile as readFile2, rmdir as rmdir3, writeFile as writeFile2 } from "node:fs/promises";
import { join as join3 } from "node:path";
var ROOT = "/sys/fs/cgroup";
var PERIOD_US = 1e4;
async function detect() {
  const controllers = join3(ROOT, "cgroup.controllers");
  if (existsSync(controllers) && (await readFile2(controllers, "utf8")).split(/\s+/).includes("cpu")) {
    return { version: 2, dir: ROOT };
  }
  for (const d of ["cpu", "cpu,cpuacct"]) {
    if (existsSync(join3(ROOT, d, "cpu.cfs_quota_us"))) return { version: 1, dir: join3(ROOT, d) };
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
async function writeQuota(flavor, dir, quota2) {
  const quotaUs = Math.max(1e3, Math.round(quota2 * PERIOD_US));
  if (flavor.version === 2) {
    await writeFile2(join3(dir, "cpu.max"), `${quotaUs} ${PERIOD_US}`);
  } else {
    await writeFile2(join3(dir, "cpu.cfs_period_us"), String(PERIOD_US));
    await writeFile2(join3(dir, "cpu.cfs_quota_us"), String(quotaUs));
  }
}
async function applyResources(pid, quota2, name) {
  const flavor = await cpuFlavor();
  const dir = join3(flavor.dir, `tiperf-${name}-${pid}`);
  const forget = await record({ kind: "cgroup", what: `cgroup of ${name} ${pid}`, path: dir });
  try {
    await mkdir3(dir, { recursive: true });
    await writeQuota(flavor, dir, quota2);
    for (const p of await processTree(pid)) {
      await writeFile2(join3(dir, "cgroup.procs"), String(p)).catch(() => {
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
        await rmdir3(dir);
        await forget();
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  return { dir, remove };
}

// action/src/targets/local/server.ts
async function makeWorkDir(kind) {
  return mkdtemp(join4(tmpdir(), `tiperf-${kind}-`));
}
function words(line) {
  return line.replace(/^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+)?( \w+)? ?(\[\d+\] ?)?(\d+ )?/, "").trim();
}
async function serverErrors(files, max = 6) {
  const out = [];
  for (const file of files) {
    let text = "";
    try {
      text = await readFile3(file, "utf8");
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
        await rm3(opts.workDir, { recursive: true, force: true });
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
  const kept = o.logs.map((l) => join4(o.logDir, basename2(l)));
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
function respawner(spawn2, settle, stopSignal) {
  return async () => {
    const next = spawn2();
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
    settings: o.spec.config,
    effectiveConfig: o.effectiveConfig,
    ...o.spec.resources ? { resources: resourcesText(o.spec.resources) } : {},
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
function resourcesText(r) {
  return {
    ...r.cpu_quota !== void 0 ? { cpu_quota: `${Math.round(r.cpu_quota * 1e3) / 10}%` } : {},
    ...r.cpus !== void 0 ? { cpus: r.cpus } : {}
  };
}

// action/src/targets/mariadb/server.ts
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
function mariadbCommands(o) {
  const dataDir = join5(o.workDir, "data");
  return {
    install: [
      INSTALL_DB(),
      "--no-defaults",
      `--datadir=${dataDir}`,
      "--auth-root-authentication-method=normal",
      "--skip-test-db",
      ...isRoot() ? ["--user=root"] : []
    ],
    server: [
      SERVER(),
      "--no-defaults",
      `--datadir=${dataDir}`,
      `--port=${o.port}`,
      "--bind-address=127.0.0.1",
      `--socket=${join5(o.workDir, "mysqld.sock")}`,
      `--pid-file=${join5(o.workDir, "mysqld.pid")}`,
      `--log-error=${join5(o.workDir, "mariadb-error.log")}`,
      "--skip-name-resolve",
      `--max-connections=${Math.max(151, o.maxConnections + 20)}`,
      ...isRoot() ? ["--user=root"] : [],
      // The spec's settings come last so they win over tiperf's defaults.
      ...settingArgs(o.config)
    ]
  };
}
var READ_BACK = {
  version: "SELECT VERSION()",
  setting: (key) => `SELECT @@GLOBAL.${asVariable(key)}`
};
async function startMariadb(spec, opts) {
  if (!existsSync2(SERVER())) {
    throw new RunError(
      `target.kind mariadb: ${SERVER()} not found; install the Debian package mariadb-server`
    );
  }
  const workDir = await makeWorkDir("mariadb");
  const removeWorkDir = onTeardown(`remove ${workDir}`, () => rm4(workDir, { recursive: true, force: true }));
  const dataDir = join5(workDir, "data");
  const errorLog = join5(workDir, "mariadb-error.log");
  const installLog = join5(workDir, "mariadb-install-db.log");
  const logs = [errorLog, join5(workDir, "mariadbd.out"), installLog];
  const port = await freePort();
  const commands = mariadbCommands({
    workDir,
    port: String(port),
    maxConnections: opts.maxConnections,
    config: spec.config
  });
  opts.step?.({ phase: "start", where: "runner", run: { command: commands.install } });
  const install = await runCommand(commands.install[0], commands.install.slice(1), {
    timeoutMs: 12e4
  });
  if (install.code !== 0) {
    removeWorkDir();
    await rm4(workDir, { recursive: true, force: true });
    throw new RunError(
      `mariadb-install-db failed (exit ${install.code}):
${(install.stderr || install.stdout).slice(-2e3)}`
    );
  }
  opts.step?.({ phase: "start", where: "runner", run: { command: commands.server } });
  const spawnServer = () => startServerProcess(commands.server[0], commands.server.slice(1), {
    logFile: join5(workDir, "mariadbd.out"),
    cwd: workDir
  });
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
    versionSql: READ_BACK.version,
    settingSql: READ_BACK.setting,
    onCgroup: (remove) => {
      removeCgroup = remove;
    }
  });
  try {
    const { version, effectiveConfig } = await settle(server);
    opts.log(`target: MariaDB ${version} on 127.0.0.1:${port} (pid ${server.pid}, datadir ${dataDir})`);
    return localTarget({
      spec,
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

// action/src/targets/mariadb/index.ts
var anyOf2 = (programs) => programs.some((p) => findTool(p) !== void 0);
var mariadb = localKind({
  name: "mariadb",
  title: "MariaDB",
  protocol: "mysql",
  user: "root",
  commands: mariadbCommands,
  versionSql: READ_BACK.version,
  settingSql: READ_BACK.setting,
  stopSignal: "SIGTERM",
  needs: () => [
    {
      found: anyOf2(MARIADB_PROGRAMS.server),
      what: "the MariaDB server (target.kind mariadb)",
      install: "the Debian package mariadb-server"
    },
    {
      found: anyOf2(MARIADB_PROGRAMS.installDb),
      what: "mariadb-install-db (target.kind mariadb)",
      install: "the Debian package mariadb-server"
    },
    {
      found: anyOf2(MARIADB_PROGRAMS.client),
      what: "the mariadb client (target.kind mariadb)",
      install: "the Debian package mariadb-client"
    }
  ],
  start: startMariadb
});

// action/src/targets/postgres/index.ts
import { join as join7 } from "node:path";

// action/src/targets/postgres/server.ts
import { execFileSync } from "node:child_process";
import { existsSync as existsSync3, readdirSync } from "node:fs";
import { chown, rm as rm5 } from "node:fs/promises";
import { join as join6 } from "node:path";
function postgresBinDirs() {
  const base = "/usr/lib/postgresql";
  return existsSync3(base) ? readdirSync(base).filter((v) => existsSync3(join6(base, v, "bin", "postgres"))).sort((a, b) => Number(b) - Number(a)).map((v) => join6(base, v, "bin")) : [];
}
function binDir() {
  const [newest] = postgresBinDirs();
  if (newest === void 0) {
    throw new RunError(
      "target.kind postgres: no server under /usr/lib/postgresql/*/bin; install the Debian package postgresql"
    );
  }
  return newest;
}
function runAs() {
  if (process.getuid?.() !== 0) return void 0;
  try {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    return { uid, gid };
  } catch {
    throw new RunError(
      "target.kind postgres: running as root needs a `postgres` system user (Debian's postgresql package creates it)"
    );
  }
}
function settingArgs2(config) {
  return Object.entries(config).flatMap(([k, v]) => [
    "-c",
    `${k}=${typeof v === "boolean" ? v ? "on" : "off" : v}`
  ]);
}
function postgresCommands(o) {
  const dataDir = join6(o.workDir, "data");
  return {
    install: [
      join6(o.bin, "initdb"),
      "-D",
      dataDir,
      "--auth=trust",
      "-U",
      "postgres",
      "-E",
      "UTF8",
      "--no-sync",
      "--no-instructions"
    ],
    server: [
      join6(o.bin, "postgres"),
      "-D",
      dataDir,
      "-p",
      o.port,
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      `unix_socket_directories=${o.workDir}`,
      "-c",
      `max_connections=${Math.max(100, o.maxConnections + 20)}`,
      // The spec's settings come last so they win over tiperf's defaults.
      ...settingArgs2(o.config)
    ]
  };
}
var READ_BACK2 = {
  version: "SHOW server_version",
  setting: (key) => `SELECT current_setting('${key.replace(/'/g, "")}')`
};
async function startPostgres(spec, opts) {
  const bin = binDir();
  const user = runAs();
  const workDir = await makeWorkDir("postgres");
  const removeWorkDir = onTeardown(`remove ${workDir}`, () => rm5(workDir, { recursive: true, force: true }));
  if (user) await chown(workDir, user.uid, user.gid);
  const dataDir = join6(workDir, "data");
  const serverLog = join6(workDir, "postgres.log");
  const logs = [serverLog];
  const port = await freePort();
  const commands = postgresCommands({
    bin,
    workDir,
    port: String(port),
    maxConnections: opts.maxConnections,
    config: spec.config
  });
  opts.step?.({ phase: "start", where: "runner", run: { command: commands.install } });
  const init = await runCommand(commands.install[0], commands.install.slice(1), {
    runAs: user,
    timeoutMs: 12e4
  });
  if (init.code !== 0) {
    removeWorkDir();
    await rm5(workDir, { recursive: true, force: true });
    throw new RunError(`initdb failed (exit ${init.code}):
${(init.stderr || init.stdout).slice(-2e3)}`);
  }
  opts.step?.({ phase: "start", where: "runner", run: { command: commands.server } });
  const spawnServer = () => startServerProcess(commands.server[0], commands.server.slice(1), {
    logFile: serverLog,
    runAs: user,
    cwd: workDir
  });
  const server = spawnServer();
  removeWorkDir();
  let removeCgroup;
  const life = lifecycle({
    what: "PostgreSQL",
    server,
    workDir,
    logs: [serverLog],
    logDir: opts.logDir,
    // SIGINT is PostgreSQL's "fast" shutdown: roll back clients, checkpoint, exit.
    stopSignal: "SIGINT",
    beforeRemove: async () => removeCgroup?.()
  });
  const psql = (query, db = "postgres") => runCommand(
    "psql",
    ["-X", "-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", db, "-Atc", query],
    {
      timeoutMs: 3e4
    }
  );
  const settle = (s) => settleServer({
    what: "PostgreSQL",
    spec,
    server: s,
    query: (q) => psql(q),
    versionSql: READ_BACK2.version,
    settingSql: READ_BACK2.setting,
    onCgroup: (remove) => {
      removeCgroup = remove;
    }
  });
  try {
    const { version, effectiveConfig } = await settle(server);
    opts.log(`target: PostgreSQL ${version} on 127.0.0.1:${port} (pid ${server.pid}, datadir ${dataDir})`);
    return localTarget({
      spec,
      kind: "postgres",
      protocol: "postgres",
      user: "postgres",
      port,
      life,
      respawn: respawner(spawnServer, settle, "SIGINT"),
      version,
      effectiveConfig,
      createDatabase: async (name) => {
        const db = checkDatabaseName(name);
        const exists = await psql(`SELECT 1 FROM pg_database WHERE datname = '${db}'`);
        if (exists.code === 0 && exists.stdout.trim() === "1") return;
        const r = await psql(`CREATE DATABASE ${db}`);
        if (r.code !== 0)
          throw new RunError(`PostgreSQL: cannot create database ${name}: ${r.stderr.trim()}`);
      }
    });
  } catch (e) {
    await life.stop();
    throw await startupFailure(e, {
      what: "PostgreSQL",
      logs,
      logDir: opts.logDir,
      config: spec.config
    });
  }
}

// action/src/targets/postgres/index.ts
var anyOf3 = (programs) => programs.some((p) => findTool(p) !== void 0);
var postgres = localKind({
  name: "postgres",
  title: "PostgreSQL",
  protocol: "postgres",
  user: "postgres",
  commands: (o) => postgresCommands({ ...o, bin: postgresBinDirs()[0] ?? "/usr/lib/postgresql/<N>/bin" }),
  versionSql: READ_BACK2.version,
  settingSql: READ_BACK2.setting,
  stopSignal: "SIGINT",
  needs: () => {
    const servers = postgresBinDirs().map((d) => join7(d, "postgres"));
    return [
      {
        found: anyOf3(servers.length ? servers : ["/usr/lib/postgresql/N/bin/postgres"]),
        what: "the PostgreSQL server (target.kind postgres)",
        install: "the Debian package postgresql"
      },
      {
        found: anyOf3(["psql"]),
        what: "psql (target.kind postgres)",
        install: "the Debian package postgresql-client"
      }
    ];
  },
  start: startPostgres
});

// action/src/targets/tidb/index.ts
import { join as join9 } from "node:path";

// action/src/targets/tidb/plan.ts
import { homedir } from "node:os";

// action/src/specfile/merge.ts
var isObj2 = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
function deepMerge(base, overlay) {
  if (!isObj2(base) || !isObj2(overlay)) return overlay === void 0 ? base : overlay;
  const out = { ...base };
  for (const [k, v] of Object.entries(overlay)) {
    if (v === null) delete out[k];
    else out[k] = deepMerge(base[k], v);
  }
  return out;
}

// action/src/targets/tidb/topology.ts
var import_yaml2 = __toESM(require_dist(), 1);
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
${(0, import_yaml2.stringify)(topologyObject(c), { lineWidth: 0, aliasDuplicateObjects: false })}`;
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
    steps: []
  };
  if (profile.haproxy && loadHost) {
    for (const d of deployments) {
      if (d.kind !== "cluster") continue;
      const file = `haproxy-${d.name}.cfg`;
      files[file] = haproxyConfig(tidbEndpoints(d), haproxyPort(plan, d), d.name);
    }
    plan.haproxy = { host: loadHost, port: profile.haproxy_port, file: "haproxy-<cluster>.cfg" };
  }
  plan.steps = stepsOf(plan, o.data);
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
var PLAN_DIR = "<run>/tidb";
function splitSql(version, table, rows, regions) {
  const major = /^v(\d+)\.(\d+)/.exec(version);
  const newScatter = !major || Number(major[1]) > 8 || Number(major[1]) === 8 && Number(major[2]) >= 4;
  const scatter = newScatter ? "SET SESSION tidb_scatter_region = 'table'" : "SET GLOBAL tidb_scatter_region = ON";
  return `${scatter}; SPLIT TABLE ${table} BETWEEN (0) AND (${rows}) REGIONS ${regions}`;
}
var configUrl = (role, addr) => role === "pd" ? `http://${addr}/pd/api/v1/config` : `http://${addr}/config`;
function stepsOf(plan, data) {
  const out = [];
  const add = (key, phase, run, about, o = {}) => out.push({
    key,
    phase,
    where: o.where ?? "runner",
    run,
    ...o.variant ? { variant: o.variant } : {},
    ...about ? { about } : {}
  });
  const checks = plan.profile.ssh?.proxy ? "load host" : "runner";
  const started = /* @__PURE__ */ new Set();
  for (const v of plan.variants) {
    const d = plan.deployments[v.deployment];
    const about = `variant ${v.name} on ${d.name}`;
    if (!started.has(d.index)) {
      started.add(d.index);
      if (d.kind === "playground") {
        add(
          `start:${d.name}`,
          "start",
          { command: playgroundArgs(d, PLAN_DIR) },
          `${about}: runs until teardown; ready when it prints "TiDB Playground Cluster is started"; the TiDB port is read from its "Connect TiDB" lines`,
          { variant: v.name }
        );
      } else {
        add(
          `deploy:${d.name}`,
          "start",
          { command: tiupCluster.deploy(d, `${PLAN_DIR}/${v.topologyFile}`, plan.profile) },
          `variants ${d.variants.join(", ")}`,
          { variant: v.name }
        );
        add(`start:${d.name}`, "start", { command: tiupCluster.start(d) }, void 0, { variant: v.name });
        add(
          `display:${d.name}`,
          "start",
          { command: tiupCluster.display(d) },
          "every instance Up; uptimes recorded",
          { variant: v.name }
        );
        if (plan.haproxy)
          add(
            `haproxy:${d.name}`,
            "start",
            { command: ["haproxy", "-db", "-f", `/tmp/tiperf-haproxy-${d.name}.cfg`] },
            `on the load host (${PLAN_DIR}/haproxy-${d.name}.cfg passed over SSH); the load tools connect to 127.0.0.1:${haproxyPort(plan, d)} there once it listens`,
            { variant: v.name, where: "load host" }
          );
        if (plan.switching === "stop-start") {
          for (const other of plan.deployments)
            if (other.index < d.index && other.kind === "cluster")
              add(
                `stop:${other.name}`,
                "start",
                { command: tiupCluster.stop(other) },
                `waits stopped while ${d.name}'s variants are measured`,
                { variant: v.name }
              );
        }
      }
    }
    if (plan.switching === "edit-config" && d.kind === "cluster" && d.variants[0] !== v.name) {
      add(
        `edit-config:${d.name}:${v.name}`,
        "switch",
        { command: tiupCluster.editConfig(d, `${PLAN_DIR}/${v.topologyFile}`) },
        `before a cell of variant ${v.name} whenever another variant's config is applied; "Nothing changed." fails the run`,
        { variant: v.name }
      );
      add(
        `reload:${d.name}:${v.name}`,
        "switch",
        { command: tiupCluster.reload(d) },
        `then SHOW CONFIG confirms variant ${v.name}'s values`,
        { variant: v.name }
      );
    }
    v.sql.forEach((s, i) => {
      add(`sql:${v.name}:${i}`, "sql", { sql: s }, `${about}: target.sql, before every cell of the variant`, {
        variant: v.name,
        where: checks
      });
    });
    add(`version:${v.name}`, "record", { sql: "SELECT tidb_version()" }, about, {
      variant: v.name,
      where: checks
    });
    const status = statusAddresses(d);
    add(`status:${v.name}`, "record", { get: `http://${status.tidb[0]}/status` }, `${about}: recorded`, {
      variant: v.name,
      where: checks
    });
    for (const role of new Set(v.configKeys.map((k) => k.role)))
      for (const addr of status[role])
        add(
          `config:${v.name}:${role}:${addr}`,
          "record",
          { get: configUrl(role, addr) },
          `${about}: what SHOW CONFIG shows; ${v.configKeys.filter((k) => k.role === role).map((k) => k.key).join(", ")} must match the spec`,
          { variant: v.name, where: checks }
        );
    if (v.split && data)
      for (let t = 1; t <= data.tables; t++)
        add(
          `split:${v.name}:sbtest${t}`,
          "split",
          { sql: splitSql(v.version, `sbtest.sbtest${t}`, data.table_size, v.split.regions) },
          `${about}: after prepare`,
          { variant: v.name, where: checks }
        );
  }
  for (const d of plan.deployments) {
    if (d.kind !== "cluster") continue;
    const first = plan.variants.find((v) => v.name === d.variants[0]);
    if (plan.switching === "edit-config") {
      add(
        `edit-config:${d.name}:${first.name}`,
        "switch",
        { command: tiupCluster.editConfig(d, `${PLAN_DIR}/${first.topologyFile}`) },
        `before a cell of variant ${first.name} whenever another variant's config is applied`,
        { variant: first.name }
      );
      add(
        `reload:${d.name}:${first.name}`,
        "switch",
        { command: tiupCluster.reload(d) },
        `then SHOW CONFIG confirms variant ${first.name}'s values`,
        { variant: first.name }
      );
    }
    if (plan.switching === "stop-start") {
      add(
        `stop:${d.name}`,
        "switch",
        { command: tiupCluster.stop(d) },
        "while the other cluster's variant is measured"
      );
      add(
        `start:${d.name}`,
        "switch",
        { command: tiupCluster.start(d) },
        `before cells of variant ${d.variants.join(", ")}`
      );
    }
    add(
      `display:${d.name}`,
      "cell",
      { command: tiupCluster.display(d) },
      "before and after every cell: a Down instance or a restart (uptime reset) fails the cell"
    );
    add(
      `restart:${d.name}`,
      "restart",
      { command: tiupCluster.restart(d) },
      "before each block after the first (compare.blocks)"
    );
  }
  for (const d of [...plan.deployments].reverse()) {
    if (d.kind === "cluster")
      add(
        `destroy:${d.name}`,
        "teardown",
        { command: tiupCluster.destroy(d) },
        "always: success, failure, cancel, SIGTERM; `tiperf reap` if tiperf was killed"
      );
    else
      add(
        `stop:${d.name}`,
        "teardown",
        { command: ["kill", "-INT", "<tiup playground pid>"] },
        `then rm -rf $TIUP_HOME/data/${d.name}; always; \`tiperf reap\` if tiperf was killed`
      );
  }
  return out;
}

// action/src/targets/tidb/reapers.ts
import { rm as rm6 } from "node:fs/promises";
import { basename as basename3 } from "node:path";
var playgroundReaper = {
  order: 0,
  describe: (e) => `stop ${e.what}${e.pid ? ` pid ${e.pid}` : ""} and remove ${e.path}`,
  async reap(e, log) {
    if (await stopRecorded(e.pid, basename3(e.path), "SIGINT", 3e4))
      log(`reap: stopped ${e.what} pid ${e.pid}`);
    await rm6(e.path, { recursive: true, force: true });
    log(`reap: removed ${e.path}`);
  }
};
var clusterReaper = {
  order: 0,
  describe: (e) => `run tiup cluster destroy ${e.path} --yes`,
  async reap(e, log) {
    const r = await runCommand("tiup", ["cluster", "destroy", e.path, "--yes"], { timeoutMs: 9e5 });
    if (r.code !== 0)
      throw new Error(
        `tiup cluster destroy ${e.path} failed (exit ${r.code}): ${(r.stderr || r.stdout).trim().split("\n").slice(-2).join(" ")}`
      );
    log(`reap: destroyed tiup cluster ${e.path}`);
  }
};
var TIDB_REAPERS = { playground: playgroundReaper, cluster: clusterReaper };

// action/src/targets/tidb/run.ts
import { mkdir as mkdir4, readFile as readFile4, rm as rm7 } from "node:fs/promises";
import { get as httpGet } from "node:http";
import { homedir as homedir2 } from "node:os";
import { join as join8 } from "node:path";

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
var tiupHome = () => process.env.TIUP_HOME || join8(homedir2(), ".tiup");
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
    this.dir = join8(runDir, "tidb");
    this.unregister = onTeardown("destroy the TiDB clusters of this run", () => this.stop());
  }
  plan;
  rawDir;
  log;
  cloud;
  running = /* @__PURE__ */ new Map();
  /** The plan's steps as they ran, <run>/tidb filled in (tiperf plan prints the same objects). */
  executed = [];
  unregister;
  dir;
  /**
   * The plan's step of this key, <run>/tidb filled in, recorded as executed: the run carries out
   * the steps `tiperf plan` prints and nothing of its own making.
   */
  planned(key) {
    const step = this.plan.steps.find((x) => x.key === key);
    if (!step) throw new RunError(`the plan has no step ${key}: a run does only what \`tiperf plan\` shows`);
    const run = "command" in step.run ? { command: step.run.command.map((a) => a.replaceAll(PLAN_DIR, this.dir)) } : step.run;
    const done = { ...step, run };
    this.executed.push(done);
    return done;
  }
  argv(key) {
    return this.planned(key).run.command;
  }
  sqlOf(key) {
    return this.planned(key).run.sql;
  }
  urlOf(key) {
    return this.planned(key).run.get;
  }
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
    await mkdir4(this.dir, { recursive: true });
    for (const [name, text] of Object.entries(this.plan.files)) await writeAtomic(join8(this.dir, name), text);
  }
  /** The load host as ssh reaches it (hosts profiles), for the load tools; through the bastion if any. */
  loadHost() {
    const l = this.plan.load;
    if (!l.user) return void 0;
    const knownHosts = join8(this.dir, "known_hosts");
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
    const logFile = join8(
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
        const sql = `CREATE DATABASE IF NOT EXISTS ${name}`;
        this.executed.push({
          phase: "load",
          variant,
          where: this.via() ? "load host" : "runner",
          run: { sql }
        });
        await this.sql(r.sql, sql, `variant ${variant}`);
      },
      settings: config,
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
          await this.tiupRun(this.argv(`restart:${d.name}`), `restart ${d.name}`, signal);
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
        ...setup.topologyFile ? { topology: join8(this.dir, setup.topologyFile) } : {},
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
    const tidbVersion = (await this.sql(r.sql, this.sqlOf(`version:${setup.name}`), `variant ${setup.name}`)).replace(/\\n/g, "\n").trim();
    const version = /Release Version:\s*(\S+)/.exec(tidbVersion)?.[1] ?? tidbVersion.split("\n")[0] ?? "";
    const status = await this.getJson(this.urlOf(`status:${setup.name}`)).catch((e) => ({
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
    for (const role of new Set(setup.configKeys.map((k) => k.role))) {
      for (const addr of r.status[role] ?? []) {
        let doc;
        try {
          doc = await this.getJson(this.urlOf(`config:${setup.name}:${role}:${addr}`));
        } catch (e) {
          throw new RunError(
            `variant ${setup.name}: cannot read the ${role} config at ${configUrl(role, addr)} (${e.message})`
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
            await this.tiupRun(
              this.argv(`stop:${other.deployment.name}`),
              `stop ${other.deployment.name}`,
              signal
            );
            other.up = false;
          }
        await this.tiupRun(this.argv(`start:${d.name}`), `start ${d.name}`, signal);
        r.up = true;
        await this.display(d, signal, true);
      }
      if (this.plan.switching === "edit-config" && r.applied !== setup.name) {
        const file = join8(this.dir, setup.topologyFile);
        const out = await this.tiupRun(
          this.argv(`edit-config:${d.name}:${setup.name}`),
          `variant ${setup.name}: edit-config`,
          signal
        );
        const outcome = editConfigOutcome(out);
        if (outcome === "refused")
          throw new RunError(
            `variant ${setup.name}: tiup refused the topology ${file} ("Nothing changed.", exit 0): ${editConfigReason(out)}`
          );
        if (outcome === "changed")
          await this.tiupRun(
            this.argv(`reload:${d.name}:${setup.name}`),
            `variant ${setup.name}: reload`,
            signal
          );
        r.applied = setup.name;
        await this.checkConfig(setup, r);
      }
    }
    for (let i = 0; i < setup.sql.length; i++)
      await this.sql(r.sql, this.sqlOf(`sql:${setup.name}:${i}`), `variant ${setup.name}: target.sql`);
  }
  async startPlayground(d, signal) {
    const argv = this.argv(`start:${d.name}`);
    const logFile = join8(this.rawDir, `tiup-playground-${d.name}.log`);
    await writeAtomic(logFile, `$ ${shellCommand(argv)}
`);
    const dataDir = join8(tiupHome(), "data", d.name);
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
      this.planned(`stop:${d.name}`);
      await server.stop("SIGINT", 6e4);
      await rm7(dataDir, { recursive: true, force: true });
      await forget();
    };
    const died = server.exited.then(
      (how) => stopping ? new Promise(() => {
      }) : `tiup playground ${d.name} exited (code ${how.code}, signal ${how.signal})`
    );
    const deadline = Date.now() + 15 * 6e4;
    let state = readPlayground("");
    while (Date.now() < deadline && !signal.aborted) {
      state = readPlayground(await readFile4(logFile, "utf8").catch(() => ""));
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
          this.argv(`destroy:${d.name}`),
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
      await this.tiupRun(this.argv(`deploy:${d.name}`), `deploy ${d.name}`, signal);
      await this.tiupRun(this.argv(`start:${d.name}`), `start ${d.name}`, signal);
      running.up = true;
      await this.display(d, signal, true);
      const remote = this.loadHost();
      if (this.plan.haproxy && remote) {
        const port = haproxyPort(this.plan, d);
        this.planned(`haproxy:${d.name}`);
        const haproxy = await startHaproxy({
          remote,
          config: this.plan.files[`haproxy-${d.name}.cfg`],
          file: `/tmp/tiperf-haproxy-${d.name}.cfg`,
          port,
          logFile: join8(this.rawDir, `haproxy-${d.name}.log`)
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
          await this.tiupRun(
            this.argv(`stop:${other.deployment.name}`),
            `stop ${other.deployment.name}`,
            signal
          );
          other.up = false;
        }
    }
    return running;
  }
  /** `display --format json --uptime`; with `allUp`, a Down instance is an error naming it. */
  async display(d, signal, allUp) {
    const out = await this.tiupRun(this.argv(`display:${d.name}`), `display ${d.name}`, signal, 300);
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
    for (let t = 1; t <= data.tables; t++)
      await this.sql(
        r.sql,
        this.sqlOf(`split:${setup.name}:${database}${t}`),
        `variant ${setup.name}: split`
      );
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

// action/src/targets/tidb/index.ts
var DEFAULT_PROFILE = "infra/profiles/playground.yaml";
var DEPLOY_S = { playground: 60, cluster: 300 };
var SWITCH_S = { "edit-config": 90, "stop-start": 120, none: 0, "separate-playgrounds": 0 };
var RESTART_S = 120;
var CLOUD_SETUP_HOURS = 0.5;
async function planFor(input, cloud) {
  const variants = input.variants.map((v) => ({ name: v.name, target: v.target }));
  const named = new Set(variants.map((v) => v.target.profile ?? DEFAULT_PROFILE));
  if (!input.profile && named.size > 1)
    throw new InputError(
      `${input.file}: variants name different profiles (${[...named].join(", ")}); variants run on the same hardware, so they share one profile`
    );
  const file = input.profile ?? [...named][0];
  let profile = await loadProfile(file, input.profile ? "--profile" : "target.profile");
  if (profile.provider === "aws") profile = withHosts(profile, cloud ?? placeholderHosts(profile));
  if (input.blocks > 1 && profile.provider === "playground")
    throw new InputError(
      `${input.file}: compare.blocks is ${input.blocks}, but profile ${file} is a playground, which cannot restart its servers without losing its data: use compare.blocks: 1, or a profile with provider hosts or aws`
    );
  return planTidb({
    variants,
    profile,
    profileFile: file,
    prefix: input.prefix,
    ...input.data ? { data: input.data } : {}
  });
}
function targetPlan(tidb2, input) {
  const about = [];
  const refusals = [];
  const setupS = tidb2.deployments.reduce((s, d) => s + DEPLOY_S[d.kind], 0);
  if (tidb2.profile.provider === "aws") {
    const estimate = estimateCost(tidb2.profile, {
      setup: CLOUD_SETUP_HOURS,
      matrix: input.matrixSeconds / 3600
    });
    about.push(
      cloudPlanText(tidb2.profile, estimate, {
        runId: input.runId ?? "<run id>",
        expiresAt: `<start + ${tidb2.profile.aws?.ttl}>`,
        repository: "<owner/repo>",
        pr: "<pr or none>"
      }).trimEnd()
    );
    try {
      checkBudget(tidb2.profile, estimate, tidb2.profileFile);
    } catch (e) {
      refusals.push(e.message);
    }
  }
  about.push(
    `profile ${tidb2.profileFile} (${tidb2.profile.name}, provider ${tidb2.profile.provider})`,
    `deployments: ${tidb2.deployments.map((d) => `${d.kind} ${d.name} (TiDB ${d.version}; variants ${d.variants.join(", ")})`).join("; ")}`,
    `variants take turns by: ${tidb2.switching}`,
    `load tools run on: ${tidb2.load.user ? `${tidb2.load.user}@${tidb2.load.host} over SSH` : "this machine"}`
  );
  const connection = (variant) => {
    const setup = tidb2.variants.find((v) => v.name === variant) ?? tidb2.variants[0];
    const d = tidb2.deployments[setup?.deployment ?? 0];
    return { protocol: "mysql", endpoints: d ? loadEndpoints(tidb2, d) : [], user: "root", password: "" };
  };
  return {
    kind: "tidb",
    profile: tidb2.profile.name,
    variants: input.variants,
    about,
    files: tidb2.files,
    steps: tidb2.steps,
    connection,
    dataOf: (variant) => {
      const setup = tidb2.variants.find((v) => v.name === variant);
      return tidb2.deployments[setup?.deployment ?? 0]?.name ?? variant;
    },
    remoteLoad: Boolean(tidb2.load.user),
    overhead: { setupS, switchS: SWITCH_S[tidb2.switching], restartS: RESTART_S },
    switches: tidb2.switching === "edit-config" || tidb2.switching === "stop-start",
    warnings: [],
    refusals,
    tidb: tidb2,
    input
  };
}
var anyOf4 = (programs) => programs.some((p) => findTool(p) !== void 0);
var tidb = {
  name: "tidb",
  schema: TidbTargetSchema,
  keyNames: Object.keys(TidbTargetSchema.shape),
  needs: () => [
    {
      found: anyOf4(["tiup"]),
      what: "tiup (target.kind tidb)",
      install: "tiup (tiup.io), with its playground and cluster components"
    },
    {
      found: anyOf4(MARIADB_PROGRAMS.client),
      what: "the mariadb client (tiperf's SQL to TiDB)",
      install: "the Debian package mariadb-client"
    }
  ],
  async plan(input) {
    return targetPlan(await planFor(input), input);
  },
  async open(plan, o) {
    const { tidb: first, input } = plan;
    let tidbPlan = first;
    let estimate;
    let cloud;
    if (first.profile.provider === "aws") {
      estimate = estimateCost(first.profile, {
        setup: CLOUD_SETUP_HOURS,
        matrix: input.matrixSeconds / 3600
      });
      cloud = await provisionCluster({
        profile: first.profile,
        runId: o.runId,
        runDir: o.runDir,
        forget: first.deployments.filter((d) => d.kind === "cluster").map((d) => join9(tiupHome(), "storage", "cluster", "clusters", d.name)),
        log: o.log,
        signal: o.signal
      });
      try {
        tidbPlan = await planFor(input, cloud.hosts);
      } catch (e) {
        await cloud.destroy().catch((err) => o.log(`teardown: ${err.message}`));
        throw e;
      }
    }
    const run = new TidbRun(tidbPlan, o.runDir, o.rawDir, o.log, {
      ...cloud ? { cloud } : {},
      ...estimate ? { estimate } : {}
    });
    try {
      await run.writeFiles();
    } catch (e) {
      await run.stop();
      throw e;
    }
    return {
      executed: run.executed,
      target: (variant, opts) => run.target(variant, opts),
      loadHost: () => run.loadHost(),
      stop: () => run.stop(),
      cost: () => run.cost()
    };
  },
  reapers: TIDB_REAPERS
};

// action/src/targets/registry.ts
var TARGET_KINDS = {
  mariadb,
  postgres,
  tidb
};
var kindNames = () => Object.keys(TARGET_KINDS);
function kindOf(name) {
  const k = TARGET_KINDS[name];
  if (!k) throw new InputError(`unknown target kind "${name}" (known: ${kindNames().join(", ")})`);
  return k;
}
var targetReapers = () => Object.assign({}, ...Object.values(TARGET_KINDS).map((k) => k.reapers));
var TargetSchema = external_exports.looseObject({ kind: external_exports.unknown() }).transform((t, ctx) => {
  const kind = typeof t.kind === "string" ? TARGET_KINDS[t.kind] : void 0;
  if (!kind) {
    ctx.addIssue({ code: "custom", path: ["kind"], message: `must be one of ${kindNames().join(", ")}` });
    return external_exports.NEVER;
  }
  let foreign = false;
  for (const key of Object.keys(t)) {
    if (kind.keyNames.includes(key)) continue;
    const takers = Object.values(TARGET_KINDS).filter((k) => k.keyNames.includes(key));
    ctx.addIssue({
      code: "custom",
      path: [key],
      message: takers.length ? `${key} is for kind ${takers.map((k) => k.name).join(", ")}, not ${kind.name} (kind ${kind.name} takes ${kind.keyNames.join(", ")})` : `unknown key ${key} (kind ${kind.name} takes ${kind.keyNames.join(", ")})`
    });
    foreign = true;
  }
  if (foreign) return external_exports.NEVER;
  const parsed = kind.schema.safeParse(t);
  if (!parsed.success) {
    forwardIssues(ctx, parsed.error.issues);
    return external_exports.NEVER;
  }
  return parsed.data;
});

export {
  HostSchema,
  TargetInfoSchema,
  newRunId,
  writeAtomic,
  RunDir,
  writeResult,
  readModel,
  readResult,
  readReport,
  runTool,
  parsePercent,
  cpuList,
  checkCpus,
  deepMerge,
  kindOf,
  targetReapers,
  TargetSchema
};
