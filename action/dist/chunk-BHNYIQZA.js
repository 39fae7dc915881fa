#!/usr/bin/env node
import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path';
const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);
import {
  TidbRun,
  lookup,
  sameSetting,
  tiupHome
} from "./chunk-CEWP3ZNL.js";
import "./chunk-GYLYMR6W.js";
import "./chunk-KZLFUJ4J.js";
import "./chunk-3EADY6QU.js";
export {
  TidbRun,
  lookup,
  sameSetting,
  tiupHome
};
