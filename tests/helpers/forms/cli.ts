// Test-only: tiperf's CLI with the test-only deployment forms registered, one line each.
import { DEPLOYERS } from "../../../action/src/targets/tidb/deployments/registry.ts";
import { STANDIN } from "./standin/index.ts";

DEPLOYERS.standin = STANDIN;
await import("../../../action/src/cli.ts");
