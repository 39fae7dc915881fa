#!/usr/bin/env node
// Runs node's test runner over tests/<suite>/**/*.test.ts (Node 20's --test takes no globs).
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const suites = process.argv.slice(2);
if (suites.length === 0) {
  console.error("usage: run-tests.mjs SUITE... (unit, integration, e2e)");
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
for (const s of suites) walk(join("tests", s));
if (files.length === 0) {
  console.error(`no test files under tests/${suites.join(", tests/")}`);
  process.exit(1);
}
// Integration tests start real servers and share the machine's two cores: one file at a time.
const r = spawnSync(
  process.execPath,
  ["--import", "tsx", "--test", "--test-concurrency=1", "--test-reporter=spec", ...files],
  { stdio: "inherit" },
);
process.exit(r.status ?? 1);
