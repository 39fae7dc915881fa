#!/usr/bin/env node
import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path';
const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);
import {
  readResult,
  targetReapers,
  writeResult
} from "./chunk-A7W2F75L.js";
import {
  reapEntries
} from "./chunk-3RZOPWDC.js";

// action/src/cloud/reapers.ts
var stackReaper = {
  order: 1,
  describe: (e) => `recover ${e.what} (destroy, tag sweep, remove)`,
  async reap(e, log) {
    const { recoverRecorded } = await import("./chunk-XI5N5UZW.js");
    await recoverRecorded(e, log);
    log(`reap: recovered ${e.what}`);
  }
};
var CLOUD_REAPERS = { stack: stackReaper };

// action/src/result/reapers.ts
var runReaper = {
  // last: the servers of the run go first, their logs kept in its directory
  order: 2,
  describe: (e) => `mark ${e.path} interrupted if it is still running`,
  async reap(e, log) {
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
};

// action/src/commands/reap/index.ts
var reapers = () => ({
  ...targetReapers(),
  ...CLOUD_REAPERS,
  run: runReaper
});
function reapLedger(o) {
  return reapEntries({ ...o, reapers: reapers() });
}

export {
  reapLedger
};
