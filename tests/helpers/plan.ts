import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { PlanStep } from "../../action/src/targets/types.ts";
import { cli, tempDir } from "./real.ts";

/** An executed step's run is a planned one's: the same words, a number where the plan says <port>. */
export function samePlanned(planned: PlanStep["run"], executed: PlanStep["run"]): boolean {
  const escaped = JSON.stringify(planned).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${escaped.replaceAll("<port>", "\\d+")}$`).test(JSON.stringify(executed));
}

/**
 * The plan `tiperf plan --run-id` prints for a run, checked to be the one the run wrote into its
 * directory (plan.json and plan.txt, byte for byte); returns that plan.json's text.
 */
export async function planOfRun(
  spec: string,
  runDir: string,
  env: Record<string, string> = {},
): Promise<string> {
  const out = tempDir();
  const plan = cli(["plan", "--spec", spec, "--out", out, "--run-id", basename(runDir)], env);
  assert.equal((await plan.done).code, 0, plan.stderr());
  const text = readFileSync(join(out, "plan.json"), "utf8");
  assert.equal(readFileSync(join(runDir, "plan.json"), "utf8"), text, "the run's plan.json");
  assert.equal(readFileSync(join(runDir, "plan.txt"), "utf8"), plan.stdout(), "the run's plan.txt");
  return text;
}
