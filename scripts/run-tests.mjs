#!/usr/bin/env node
// Runs node's test runner over tests/<suite>/**/*.test.ts (Node 20's --test takes no globs).
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

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
// Two lanes, each one file at a time: tests whose outcome rests on measured speed (verdicts of
// real servers, CPU shares) run in the first; unit tests and the files that say `test-lane:
// beside` in their opening comment (nothing they assert depends on the machine's speed) run in
// the second, beside them — as a CPU hog or another tiperf run may, which every test must bear.
const beside = (f) =>
  f.split(/[\\/]/).includes("unit") ||
  /^\/\/.*test-lane: beside/m.test(readFileSync(f, "utf8").slice(0, 2000));
const lanes = [files.filter((f) => !beside(f)), files.filter(beside)].filter((l) => l.length > 0);

// What a lane starts is its own: a temp dir (servers' data, sockets, logs), a ledger and a cgroup
// name prefix, so its leftovers checks look only at what it started, and another lane, tiperf run
// (or test run) on the machine neither disturbs them nor is disturbed.
const own = [];
const children = [];
// a cancelled CI job: each lane gets the signal (its tests' teardown runs), then this exits
for (const sig of ["SIGINT", "SIGTERM"])
  process.on(sig, () => {
    for (const c of children) c.kill(sig);
  });
const runLane = (laneFiles, i) => {
  const dir = mkdtempSync(join(tmpdir(), "tiperf-tests-"));
  own.push(dir);
  chmodSync(dir, 0o755); // PostgreSQL runs as its own user when tests run as root: it must get through
  const env = {
    ...process.env,
    TMPDIR: dir,
    TIPERF_LEDGER: join(dir, "ledger"),
    TIPERF_CGROUP_PREFIX: `tiperf-t${process.pid}${"ab"[i]}-`,
    // estimates from measured restarts would make plan texts depend on the tests run before
    TIPERF_TIMINGS: "off",
  };
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--test", "--test-concurrency=1", "--test-reporter=spec", ...laneFiles],
    { stdio: lanes.length === 1 ? "inherit" : ["ignore", "pipe", "pipe"], env },
  );
  children.push(child);
  if (lanes.length > 1) {
    // each line of a lane's report, marked with its lane
    const tag = i === 0 ? "[measured] " : "[beside]   ";
    for (const stream of [child.stdout, child.stderr])
      createInterface({ input: stream }).on("line", (line) => process.stdout.write(`${tag}${line}\n`));
  }
  return new Promise((resolve) => child.on("close", (code, signal) => resolve(code ?? (signal ? 1 : 0))));
};
const started = Date.now();
const codes = await Promise.all(lanes.map(runLane));
for (const dir of own) rmSync(dir, { recursive: true, force: true });
if (lanes.length > 1)
  console.log(
    `lanes: ${lanes.map((l, i) => `${["measured", "beside"][i]} ${l.length} files: exit ${codes[i]}`).join("; ")}; ${Math.round((Date.now() - started) / 1000)} s`,
  );
process.exit(codes.every((c) => c === 0) ? 0 : 1);
