import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { PlanStep } from "../../action/src/targets/types.ts";
import { cli, tempDir } from "./real.ts";

/**
 * An executed step's run is a planned one's: the same words, with what the plan leaves to the run
 * filled in — a number where it says <port> or <pid>, a directory where it says <workdir of VARIANT>, the
 * masked password where it says <password>, a table the run found it created where it says <each
 * table this run created in DATABASE>.
 */
export function samePlanned(planned: PlanStep["run"], executed: PlanStep["run"]): boolean {
  const escaped = JSON.stringify(planned).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = escaped
    .replaceAll("<port>", "\\d+")
    .replaceAll("<pid>", "\\d+")
    .replace(/<workdir of [^>"]+>/g, '/[^"]+')
    // a table's name as the server's SQL quotes it (backticks, or double quotes escaped in JSON)
    .replace(/<each table this run created in [^>"]+>/g, '(?:[^"\\\\]|\\\\.)+')
    .replaceAll("<password>", "\\*\\*\\*");
  return new RegExp(`^${pattern}$`).test(JSON.stringify(executed));
}

/**
 * Every step a run carried out (executed.json) is one of its plan's (plan.json), in its words: the
 * plan's step of the same key where it has one, else one whose words match. Returns the executed steps.
 */
export function ranAsPlanned(runDir: string): PlanStep[] {
  const plan = JSON.parse(readFileSync(join(runDir, "plan.json"), "utf8")) as {
    steps: Record<string, PlanStep[]>;
  };
  const planned = Object.values(plan.steps).flat();
  const executed = JSON.parse(readFileSync(join(runDir, "executed.json"), "utf8")) as PlanStep[];
  assert.ok(executed.length > 0, "the run recorded the steps it carried out");
  for (const x of executed) {
    const words = planned.filter((p) => samePlanned(p.run, x.run));
    assert.ok(
      words.length > 0,
      `executed ${x.phase} ${JSON.stringify(x.run)} is not one of the plan's steps:\n${planned.map((p) => JSON.stringify(p.run)).join("\n")}`,
    );
    // a keyed step is the plan's step of that key (variants whose steps read alike show one)
    if (x.key && planned.some((p) => p.key === x.key))
      assert.ok(
        words.some((p) => p.key === x.key),
        `executed ${x.key} ran other words than the plan's step of that key`,
      );
  }
  return executed;
}

/**
 * By key, both ways: every step the run carried out carries a key its plan.json has, and every
 * planned step of these phases ran (its key is in executed.json). Returns the keys that ran.
 */
export function keyedAsPlanned(runDir: string, phases: string[]): Set<string> {
  const plan = JSON.parse(readFileSync(join(runDir, "plan.json"), "utf8")) as {
    steps: Record<string, PlanStep[]>;
    variant_steps: PlanStep[];
  };
  const planned = new Set(
    [...Object.values(plan.steps).flat(), ...plan.variant_steps].flatMap((p) => (p.key ? [p.key] : [])),
  );
  const executed = JSON.parse(readFileSync(join(runDir, "executed.json"), "utf8")) as PlanStep[];
  const ran = new Set<string>();
  for (const x of executed) {
    assert.ok(x.key, `${x.phase} ${JSON.stringify(x.run)} ran without a plan key`);
    assert.ok(planned.has(x.key), `${x.key} ran, but plan.json has no step of that key`);
    ran.add(x.key);
  }
  const due = Object.values(plan.steps)
    .flat()
    .filter((p) => phases.includes(p.phase));
  for (const p of due) {
    assert.ok(p.key, `the planned ${p.phase} step ${JSON.stringify(p.run)} has no key`);
    assert.ok(ran.has(p.key), `the planned ${p.key} never ran: ${[...ran].join(" ")}`);
  }
  return ran;
}

/**
 * The plan `tiperf plan --run-id` prints for a run, checked to be the one the run wrote into its
 * directory (plan.json and plan.txt, byte for byte); returns that plan.json's text.
 */
export async function planOfRun(
  spec: string,
  runDir: string,
  env: Record<string, string> = {},
  /** The run's own flags that shape its plan (--seed, --shard, --look-of). */
  flags: string[] = [],
): Promise<string> {
  const out = tempDir();
  const plan = cli(["plan", "--spec", spec, "--out", out, "--run-id", basename(runDir), ...flags], env);
  assert.equal((await plan.done).code, 0, plan.stderr());
  const text = readFileSync(join(out, "plan.json"), "utf8");
  assert.equal(readFileSync(join(runDir, "plan.json"), "utf8"), text, "the run's plan.json");
  assert.equal(readFileSync(join(runDir, "plan.txt"), "utf8"), plan.stdout(), "the run's plan.txt");
  return text;
}
