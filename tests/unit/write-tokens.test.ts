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

type Job = { "runs-on"?: unknown; permissions?: Record<string, string> | string };

/** The permissions a job asks for that can write to the repository (id-token only signs in to a cloud). */
const writes = (job: Job) =>
  typeof job.permissions === "object"
    ? Object.entries(job.permissions).filter(([k, v]) => v === "write" && k !== "id-token")
    : job.permissions === "write-all"
      ? [["all", "write"]]
      : [];

describe("write tokens stay off the benchmark machines", () => {
  test("no self-hosted job of any shipped workflow holds a token that can write; every writing job is GitHub-hosted", () => {
    const seen: string[] = [];
    for (const file of FILES) {
      const wf = parse(readFileSync(join(ROOT, file), "utf8")) as {
        permissions?: unknown;
        jobs: Record<string, Job>;
      };
      // no write by default: a job without permissions of its own gets the workflow's
      assert.deepEqual(writes(wf as Job), [], `${file}: its top-level permissions write`);
      for (const [name, job] of Object.entries(wf.jobs)) {
        const w = writes(job);
        if (w.length === 0) continue;
        seen.push(`${file}:${name}`);
        assert.equal(
          job["runs-on"],
          "ubuntu-latest",
          `${file}: job ${name} holds ${w.map(([k]) => `${k}: write`).join(", ")} on ${JSON.stringify(job["runs-on"])}`,
        );
      }
    }
    // the jobs that write: the PR comment, the weekly PR and alarms, bisect's and the reaper's alarms
    for (const job of [
      ".github/workflows/perf-pr.yml:publish",
      ".github/workflows/perf-weekly.yml:publish",
      ".github/workflows/perf-bisect.yml:alarm",
      ".github/workflows/reaper.yml:alarm",
    ])
      assert.ok(seen.includes(job), `${job} writes (seen: ${seen.join(", ")})`);
  });
});
