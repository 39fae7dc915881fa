#!/usr/bin/env node
import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path';
const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);

// action/src/target/ledger.ts
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readdir, readFile, rm, rmdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
var ledgerDir = (env = process.env) => env.TIPERF_LEDGER || join(tmpdir(), "tiperf-ledger");
async function record(entry) {
  const dir = ledgerDir();
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${entry.kind}-${randomBytes(4).toString("hex")}.json`);
  const full = { ...entry, owner: process.pid, started_at: (/* @__PURE__ */ new Date()).toISOString() };
  await writeFile(file, `${JSON.stringify(full)}
`);
  return () => rm(file, { force: true });
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
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  } catch {
    return "";
  }
}
async function sweep(opts) {
  const dir = opts.dir ?? ledgerDir();
  const out = { swept: [], kept: [] };
  if (!existsSync(dir)) return out;
  const files = [];
  for (const f of (await readdir(dir, { withFileTypes: true })).sort(
    (a, b) => a.name.localeCompare(b.name)
  )) {
    if (f.isFile() && f.name.endsWith(".json")) files.push(f.name);
    if (f.isDirectory()) {
      for (const g of (await readdir(join(dir, f.name))).sort())
        if (g.endsWith(".json")) files.push(join(f.name, g));
    }
  }
  const entries = [];
  for (const f of files) {
    try {
      entries.push([f, JSON.parse(await readFile(join(dir, f), "utf8"))]);
    } catch {
      opts.log(`reap: ${join(dir, f)} is not a ledger entry; left alone`);
    }
  }
  entries.sort(([, a], [, b]) => a.kind === b.kind ? 0 : a.kind === "server" ? -1 : 1);
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
        `reap (dry run): would stop ${e.what}${e.pid ? ` pid ${e.pid}` : ""} and remove ${e.path} (${ageText})`
      );
      continue;
    }
    if (e.kind === "server" && e.pid && alive(e.pid) && cmdline(e.pid).includes(e.path)) {
      process.kill(e.pid, e.signal ?? "SIGTERM");
      for (let i = 0; i < 100 && alive(e.pid); i++) await new Promise((r) => setTimeout(r, 100));
      if (alive(e.pid)) process.kill(e.pid, "SIGKILL");
      opts.log(`reap: stopped ${e.what} pid ${e.pid} (${ageText})`);
    }
    if (e.kind === "server") await rm(e.path, { recursive: true, force: true });
    else await rmdir(e.path).catch(() => {
    });
    opts.log(`reap: removed ${e.path}`);
    await rm(join(dir, f), { force: true });
  }
  return out;
}

export {
  ledgerDir,
  record,
  sweep
};
