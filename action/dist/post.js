#!/usr/bin/env node
import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path';
const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);
import {
  reapLedger
} from "./chunk-76YY52BG.js";
import {
  getState,
  info,
  setFailed
} from "./chunk-JKKMYVWB.js";
import "./chunk-A7W2F75L.js";
import {
  ledgerDir
} from "./chunk-3RZOPWDC.js";
import "./chunk-WCKSSEMK.js";
import "./chunk-KJWZ2OYQ.js";
import "./chunk-3EADY6QU.js";

// action/src/action/post.ts
async function postStep() {
  const dir = getState("ledger") || ledgerDir();
  const { reaped } = await reapLedger({ dir, log: (line) => info(line) });
  info(
    reaped.length ? `post: cleaned up ${reaped.length} leftover(s)` : "post: nothing left to clean up"
  );
}
postStep().catch((e) => setFailed(e.message));
