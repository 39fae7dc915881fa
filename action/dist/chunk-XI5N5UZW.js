#!/usr/bin/env node
import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path';
const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);
import {
  hostsOf,
  machinesFromOutputs,
  provisionCluster,
  pullRequest,
  recordStack,
  recoverRecorded,
  remoteOf,
  stackName,
  stackOptions,
  stackRecord,
  tagsNow
} from "./chunk-3RZOPWDC.js";
import "./chunk-WCKSSEMK.js";
import "./chunk-KJWZ2OYQ.js";
import "./chunk-3EADY6QU.js";
export {
  hostsOf,
  machinesFromOutputs,
  provisionCluster,
  pullRequest,
  recordStack,
  recoverRecorded,
  remoteOf,
  stackName,
  stackOptions,
  stackRecord,
  tagsNow
};
