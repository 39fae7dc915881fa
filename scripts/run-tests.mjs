#!/usr/bin/env node
// Runs node's test runner over tests/<suite>/**/*.test.ts (Node 20's --test takes no globs).
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

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
// What the tests start is theirs alone: a temp dir (servers' data, sockets, logs), a ledger and a
// cgroup name prefix of this test run, so their leftovers checks look only at what they started and
// another tiperf run (or test run) on the machine neither disturbs them nor is disturbed.
const own = mkdtempSync(join(tmpdir(), "tiperf-tests-"));
chmodSync(own, 0o755); // PostgreSQL runs as its own user when tests run as root: it must get through
const env = {
  ...process.env,
  TMPDIR: own,
  TIPERF_LEDGER: join(own, "ledger"),
  TIPERF_CGROUP_PREFIX: `tiperf-t${process.pid}-`,
  // estimates from measured restarts would make plan texts depend on the tests run before
  TIPERF_TIMINGS: "off",
};
// Integration tests start real servers and share the machine's two cores: one file at a time.
const r = spawnSync(
  process.execPath,
  ["--import", "tsx", "--test", "--test-concurrency=1", "--test-reporter=spec", ...files],
  { stdio: "inherit", env },
);
rmSync(own, { recursive: true, force: true });
process.exit(r.status ?? 1);
