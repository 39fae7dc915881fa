import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { parse } from "yaml";
import { ROOT } from "../helpers/paths.ts";

/** Every workflow tiperf ships: its own and the examples `tiperf init` writes. */
const FILES = [
  ...readdirSync(join(ROOT, ".github/workflows")).map((f) => `.github/workflows/${f}`),
  ...readdirSync(join(ROOT, "action/examples")).map((f) => `action/examples/${f}`),
].filter((f) => f.endsWith(".yml"));

type Step = { name?: string; if?: string; uses?: string };
type Job = { if?: string; steps?: Step[]; permissions?: unknown };

describe("a cancelled run is silent", () => {
  // GitHub runs a job whose if: has always() even in a run a newer push cancelled: such a job
  // could post a partial comment or start confirmation shards beside the new run
  test("no job of any shipped workflow runs under always() but the gate, which holds no token; a step does only to upload what its job made", () => {
    let jobs = 0;
    for (const file of FILES) {
      const wf = parse(readFileSync(join(ROOT, file), "utf8")) as { jobs: Record<string, Job> };
      for (const [name, job] of Object.entries(wf.jobs)) {
        jobs++;
        // the gate runs in a cancelled run too, to fail it (a superseded commit never passes); with
        // no token it can post nothing
        if (name === "gate") assert.deepEqual(job.permissions, {}, `${file}: the gate holds a token`);
        else
          assert.doesNotMatch(String(job.if ?? ""), /always\(\)/, `${file}: job ${name} runs under always()`);
        for (const step of job.steps ?? [])
          if (/always\(\)/.test(String(step.if ?? "")))
            assert.match(
              String(step.uses ?? ""),
              /^actions\/upload-artifact@/,
              `${file}: job ${name}, step ${step.name ?? "?"} runs under always() and is not an upload`,
            );
      }
    }
    assert.ok(jobs > 20, `${jobs} jobs read`);
  });
});
