#!/usr/bin/env node
import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path';
const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);
import {
  reapLedger
} from "./chunk-FFO2MIRE.js";
import {
  getState,
  info,
  setFailed
} from "./chunk-JKKMYVWB.js";
import "./chunk-ZC3MZFBQ.js";
import {
  ledgerDir
} from "./chunk-4BS754WF.js";
import "./chunk-HZTFD4RJ.js";
import "./chunk-YA335ON3.js";
import "./chunk-3EADY6QU.js";

// action/src/action/post.ts
async function postStep() {
  const dir = getState("ledger") || ledgerDir();
  const { swept } = await reapLedger({ dir, log: (line) => info(line) });
  info(swept.length ? `post: cleaned up ${swept.length} leftover(s)` : "post: nothing left to clean up");
}
postStep().catch((e) => setFailed(e.message));
