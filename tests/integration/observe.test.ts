// The resource sampler on real processes this test starts: a CPU burner with a sleeping child
// (grouped by program), a sleeping "load tool", the machine; and a burner in a cgroup with a CPU
// quota, whose CPUs are the quota. Asserts only what does not depend on this machine's load.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { cpus } from "node:os";
import { after, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { ResourceSampler } from "../../action/src/observe/sampler.ts";
import { applyResources } from "../../action/src/targets/local/cgroup.ts";

const started: ChildProcess[] = [];
const start = (script: string) => {
  const c = spawn("bash", ["-c", script], { stdio: "ignore" });
  started.push(c);
  return c;
};

describe("ResourceSampler", () => {
  after(() => {
    for (const c of started) c.kill("SIGKILL");
  });

  test("a burner and its sleeping child as server programs, a sleeper as the load tool, the machine: per-second samples and window means", async () => {
    const server = start("sleep 60 & while :; do :; done");
    const load = start("exec sleep 60");
    await sleep(200);
    const sampler = new ResourceSampler([server.pid as number], 500);
    sampler.addLoad(load.pid as number);
    await sleep(2600);
    const uses = await sampler.stop();
    const find = (role: string, component: string) =>
      uses.find((u) => u.role === role && u.component === component);
    const bash = find("server", "bash");
    const child = find("server", "sleep");
    const loader = find("load", "sleep");
    const machine = find("machine", "machine");
    assert.ok(bash && child && loader && machine, JSON.stringify(uses.map((u) => [u.role, u.component])));
    assert.equal(bash.cpus, cpus().length, "no affinity or quota: every CPU");
    assert.ok(bash.cpu_pct.mean > 1, `the burner used CPU: ${bash.cpu_pct.mean}%`);
    assert.ok(child.cpu_pct.mean < 1 && loader.cpu_pct.mean < 1, "the sleepers did not");
    assert.ok(bash.samples.length >= 4, `about one sample per 500 ms: ${bash.samples.length}`);
    assert.ok(bash.rss_mib && bash.rss_mib.mean > 0);
    assert.ok(bash.cpu_pct.max >= bash.cpu_pct.mean);
    assert.equal(machine.cpus, cpus().length);
    assert.deepEqual(
      uses.map((u) => u.role),
      [...uses.map((u) => u.role)].sort(
        (a, b) => ["machine", "server", "load"].indexOf(a) - ["machine", "server", "load"].indexOf(b),
      ),
      "machine, then servers, then load tools",
    );
  });

  test("a program in a cgroup with a 20% quota may use 0.2 CPUs: its share is of those", async () => {
    const burner = start("while :; do :; done");
    await sleep(100);
    const { remove } = await applyResources(burner.pid as number, 0.2, "observe-test");
    try {
      const sampler = new ResourceSampler([burner.pid as number], 500);
      await sleep(2100);
      const [u] = (await sampler.stop()).filter((x) => x.role === "server");
      assert.equal(u?.cpus, 0.2);
      // CPU seconds per second can never pass the quota by much: its share stays near or under 100%
      assert.ok((u?.cpu_pct.mean ?? 0) > 0 && (u?.cpu_pct.mean ?? 0) < 130, String(u?.cpu_pct.mean));
    } finally {
      burner.kill("SIGKILL");
      await sleep(100);
      await remove();
    }
  });
});
