#!/usr/bin/env node
// Runs node's test runner over tests/<suite>/**/*.test.ts (Node 20's --test takes no globs), each
// file in a process of its own with its own temp dir, ledger and cgroup name prefix.
//
// Two phases. First the files whose assertions rest on nothing measured — unit tests and the files
// that say `test-lane: parallel` in their opening comment (verdicts they check are synthetic, or
// any verdict is accepted) — two at a time, longest first. Then the files whose outcome rests on
// measured speed (real servers' verdicts, CPU shares) one at a time, with the machine to
// themselves but for whatever else runs on it (a CPU hog or another tiperf run, which every test
// must bear). A file's report is printed whole when it ends; the measured ones as they run. At the
// end (a cancelled run too: its files get the signal, but a cancelled test file runs no `after`
// hooks) whatever still runs with a file's temp dir in its command line — a test's sshd or MariaDB —
// is stopped and named, and every temp dir removed.
//
// The tests' `tiperf` (tests/helpers/real.ts cli()) is the sources bundled once here, the way
// action/dist is (scripts/bundle.mjs), into action/.test-cli-*/ (the depth of action/dist, where the
// doors find the checkout): a node process on a bundle starts in a fifth of the time tsx takes to
// load the sources again in every file's fresh temp dir. A file run by hand (no TIPERF_TEST_CLI)
// runs the sources through tsx. The files themselves run under tsx, whose cache of compiled sources
// lives in the temp dir (tsx-<uid>): every file's temp dir links it to one cache for the run, so the
// sources are compiled once, not once per file.
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundle, ENTRY_POINTS } from "./bundle.mjs";

const suites = process.argv.slice(2);
if (suites.length === 0) {
  console.error("usage: run-tests.mjs SUITE|FILE... (unit, integration, e2e, or tests/…/x.test.ts)");
  process.exit(2);
}
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (name.endsWith(".test.ts")) files.push(p);
  }
};
// a suite (unit, integration, e2e) or one test file
for (const s of suites) s.endsWith(".test.ts") ? files.push(s) : walk(join("tests", s));
if (files.length === 0) {
  console.error(`no test files under tests/${suites.join(", tests/")}`);
  process.exit(1);
}

/** Each file's lane line, read once: `// test-lane: parallel (…)`, maybe naming what it must not share (`uses <name>`). */
const lanes = new Map(
  files.map((f) => [f, /^\/\/.*test-lane: parallel.*$/m.exec(readFileSync(f, "utf8").slice(0, 3000))?.[0]]),
);
const parallel = (f) => f.split(/[\\/]/).includes("unit") || lanes.get(f) !== undefined;
/** What a parallel file holds while it runs (fixed ports of a stand-in cluster): never two at once. */
const uses = new Map(
  files.map((f) => [f, new Set([...(lanes.get(f) ?? "").matchAll(/\buses ([\w-]+)/g)].map((m) => m[1]))]),
);
// the longest files first, so the two workers end close together (a file waits while the other
// holds what it uses): a file's size stands in for its time (~150 bytes a second here), unless its
// lane line says its time (`~240s`: a file whose few tests each run a whole workflow)
const weight = (f) => {
  const said = /~(\d+)s\b/.exec(lanes.get(f) ?? "");
  return said ? Number(said[1]) * 150 : statSync(f).size;
};
const first = files.filter(parallel).sort((a, b) => weight(b) - weight(a));
const measured = files.filter((f) => !parallel(f));

// What a file's tests start is theirs alone: a temp dir (servers' data, sockets, logs), a ledger
// and a cgroup name prefix, so their leftovers checks look only at what they started, and another
// file, tiperf run (or test run) on the machine neither disturbs them nor is disturbed.
// Each its own directory directly under the temp dir: socket paths of servers started deep inside
// it (a stand-in's MariaDB under a tiup home's cluster directory) stay within the 107 bytes a Unix
// socket's path may have.
const own = [];
const children = new Set();
let stopping = false;
// a cancelled CI job: every running file gets the signal (its tests' teardown runs), then this exits
for (const sig of ["SIGINT", "SIGTERM"])
  process.on(sig, () => {
    stopping = true;
    for (const c of children) c.kill(sig);
  });

/** Running processes whose command line names one of `dirs` or a path under it: servers a file's tests started there. */
function startedUnder(dirs) {
  const names = dirs.map((dir) => new RegExp(`${dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w-])`));
  const out = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const args = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
      const dir = dirs.find((_, k) => args.some((a) => names[k].test(a)));
      if (dir) out.push({ pid: Number(name), dir, cmd: args.join(" ").trim() });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return out;
}

/** SIGTERM to what still runs under `dirs`, SIGKILL to what is left 5 s later; each said. */
async function sweep(dirs) {
  let left = startedUnder(dirs);
  for (const p of left) {
    console.log(`── left running under ${p.dir}: pid ${p.pid} (${p.cmd.slice(0, 160)}): stopped`);
    try {
      process.kill(p.pid, "SIGTERM");
    } catch {}
  }
  for (let i = 0; i < 50 && left.length; i++) {
    await new Promise((r) => setTimeout(r, 100));
    left = startedUnder(dirs);
  }
  for (const p of left) {
    try {
      process.kill(p.pid, "SIGKILL");
    } catch {}
  }
}

const testCli = mkdtempSync(join(dirname(fileURLToPath(import.meta.url)), "..", "action", ".test-cli-"));
own.push(testCli);
try {
  await bundle(testCli, { cli: ENTRY_POINTS.cli });
} catch (e) {
  rmSync(testCli, { recursive: true, force: true });
  console.error(`bundling the tests' CLI failed: ${e.message}`);
  process.exit(1);
}

const tsxCache = mkdtempSync(join(tmpdir(), "tiperf-tests-tsx-"));
own.push(tsxCache);

let n = 0;
/** Runs one file; resolves with its exit code, counts and seconds. `live`: its report as it runs. */
function runFile(file, live) {
  const i = ++n;
  const dir = mkdtempSync(join(tmpdir(), "tiperf-tests-"));
  chmodSync(dir, 0o755); // PostgreSQL runs as its own user when tests run as root: it must get through
  own.push(dir);
  // tsx's own name for its cache: tsx-<euid> (the user name where there is no euid)
  symlinkSync(tsxCache, join(dir, `tsx-${process.geteuid ? process.geteuid() : userInfo().username}`));
  const env = {
    ...process.env,
    TMPDIR: dir,
    TIPERF_LEDGER: join(dir, "ledger"),
    TIPERF_CGROUP_PREFIX: `tiperf-t${process.pid}-${i}-`,
    // estimates from measured restarts would make plan texts depend on the tests run before
    TIPERF_TIMINGS: "off",
    TIPERF_TEST_CLI: join(testCli, "cli.js"),
  };
  const began = Date.now();
  const child = spawn(process.execPath, ["--import", "tsx", "--test", "--test-reporter=spec", file], {
    stdio: ["ignore", "pipe", "pipe"],
    env,
  });
  children.add(child);
  let out = "";
  const take = (chunk) => {
    out += chunk;
    if (live) process.stdout.write(chunk);
  };
  child.stdout.on("data", take);
  child.stderr.on("data", take);
  return new Promise((resolve) =>
    child.on("close", (code, signal) => {
      children.delete(child);
      const seconds = (Date.now() - began) / 1000;
      if (!live) process.stdout.write(`${out}${out.endsWith("\n") ? "" : "\n"}`);
      const count = (what) => Number(out.match(new RegExp(`^ℹ ${what} (\\d+)$`, "m"))?.[1] ?? 0);
      const status = code ?? (signal ? 1 : 0);
      console.log(
        `── ${file}: exit ${status}, ${count("pass")} passed, ${count("fail")} failed, ${seconds.toFixed(0)} s`,
      );
      resolve({ file, status, pass: count("pass"), fail: count("fail"), seconds });
    }),
  );
}

const started = Date.now();
const done = [];
// phase 1: two workers over the parallel files
const queue = [...first];
const held = new Set();
/** The next queued file that holds nothing a running one does. */
const next = () => {
  const i = queue.findIndex((f) => [...uses.get(f)].every((u) => !held.has(u)));
  return i < 0 ? undefined : queue.splice(i, 1)[0];
};
const worker = async () => {
  while (queue.length > 0 && !stopping) {
    const f = next();
    if (f === undefined) {
      // every file left waits for what the other worker's file holds
      await new Promise((r) => setTimeout(r, 200));
      continue;
    }
    const holds = uses.get(f);
    for (const u of holds) held.add(u);
    done.push(await runFile(f, false));
    for (const u of holds) held.delete(u);
  }
};
await Promise.all([worker(), worker()]);
const phase1 = (Date.now() - started) / 1000;
// phase 2: the measured files, one at a time
for (const f of measured) {
  if (stopping) break;
  done.push(await runFile(f, true));
}
// what a file's tests left running under its dir (a cancelled file runs no after hooks): stopped
await sweep(own);
for (const dir of own) rmSync(dir, { recursive: true, force: true });

const failed = done.filter((d) => d.status !== 0);
const total = (k) => done.reduce((s, d) => s + d[k], 0);
console.log(
  `\n${done.length} of ${files.length} files: ${total("pass")} tests passed, ${total("fail")} failed; ` +
    `${first.length} files two at a time in ${phase1.toFixed(0)} s, ${measured.length} measured one at a time in ${((Date.now() - started) / 1000 - phase1).toFixed(0)} s`,
);
for (const d of failed) console.log(`failed: ${d.file} (exit ${d.status})`);
process.exit(failed.length === 0 && done.length === files.length ? 0 : 1);
