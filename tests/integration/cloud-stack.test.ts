// test-lane: parallel (nothing asserted here rests on measured speed: scripts/run-tests.mjs)
// The cloud lifecycle against the real Pulumi engine (the CLI built into .tools/bin by
// scripts/setup.sh --test) with a local file:// backend; a program of dynamic resources (a fake
// cloud of files, tests/helpers/fake-cloud.ts) stands in for AWS.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { pulumiBinary } from "../../action/src/cloud/stack.ts";
import type { HarnessConfig } from "../helpers/cloud-harness.ts";
import { fakeMachines } from "../helpers/fake-cloud.ts";
import { ROOT } from "../helpers/paths.ts";
import { leftovers, tempDir, writeSpec } from "../helpers/real.ts";

const HARNESS = join(ROOT, "tests/helpers/cloud-harness.ts");

function setup(name: string, extra: Partial<HarnessConfig> = {}): { file: string; c: HarnessConfig } {
  const dir = tempDir(`tiperf-cloud-${name}-`);
  const c: HarnessConfig = {
    stack: `tiperf-${name}`,
    backend: `file://${join(dir, "state")}`,
    workDir: join(dir, "ws"),
    cloudDir: join(dir, "cloud"),
    runId: `run-${name}`,
    names: ["pd-1", "tikv-1", "tidb-1"],
    ...extra,
  };
  mkdirSync(c.cloudDir, { recursive: true });
  const file = join(dir, "harness.json");
  writeFileSync(file, JSON.stringify(c));
  return { file, c };
}

function harness(file: string, mode: string, ...args: string[]) {
  const child = spawn(process.execPath, ["--import", "tsx", HARNESS, file, mode, ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    // its own process group: a crash is simulated by killing the group (tiperf, pulumi, plugins)
    detached: true,
  });
  let err = "";
  let out = "";
  child.stderr.on("data", (d) => {
    err += d;
  });
  child.stdout.on("data", (d) => {
    out += d;
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("close", (code, signal) => resolve({ code, signal })),
  );
  return { child, done, stderr: () => err, stdout: () => out };
}

/** The stack as the backend keeps it: `pulumi stack ls` and the stack's exported state. */
function backendView(c: HarnessConfig): {
  stacks: string[];
  resources: string[];
  pending: string[];
  locks: number;
} {
  const env = {
    ...process.env,
    PULUMI_CONFIG_PASSPHRASE: "tiperf",
    PULUMI_BACKEND_URL: c.backend,
    PULUMI_HOME: join(c.workDir, "pulumi-home"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
  };
  const pulumi = pulumiBinary();
  const ls = JSON.parse(
    execFileSync(pulumi, ["stack", "ls", "--all", "--json", "--non-interactive"], { env, encoding: "utf8" }),
  ) as { name: string }[];
  const stacks = ls.map((s) => s.name.split("/").pop() as string);
  let resources: string[] = [];
  let pending: string[] = [];
  if (stacks.includes(c.stack)) {
    const state = JSON.parse(
      execFileSync(pulumi, ["stack", "export", "--stack", `organization/tiperf/${c.stack}`], {
        env,
        encoding: "utf8",
      }),
    ) as {
      deployment: {
        resources?: { urn: string; type: string }[];
        pending_operations?: { resource: { urn: string }; type: string }[];
      };
    };
    resources = (state.deployment.resources ?? [])
      .filter((r) => !r.type.startsWith("pulumi:"))
      .map((r) => r.urn.split("::").pop() as string);
    pending = (state.deployment.pending_operations ?? []).map(
      (p) => `${p.type} ${p.resource.urn.split("::").pop()}`,
    );
  }
  const lockDir = join(c.backend.slice("file://".length), ".pulumi/locks/organization/tiperf", c.stack);
  const locks = existsSync(lockDir) ? readdirSync(lockDir).length : 0;
  return { stacks, resources, pending, locks };
}

async function waitUntil(what: string, ok: () => boolean, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("cloud stack lifecycle under the real Pulumi engine", () => {
  test("up creates every machine; destroy removes them and the stack; a second destroy is a no-op", async () => {
    const { file, c } = setup("lifecycle");
    const h = harness(file, "lifecycle");
    const { code } = await h.done;
    assert.equal(code, 0, h.stderr());
    assert.match(h.stderr(), /\+ 4 created/, "three machines and the stack");
    assert.match(h.stderr(), /- 4 deleted/);
    assert.equal(
      (h.stderr().match(/cloud: pulumi destroy/g) ?? []).length,
      1,
      "the second destroy does nothing",
    );
    assert.deepEqual(fakeMachines(c.cloudDir), {});
    assert.deepEqual(backendView(c).stacks, []);
  });

  test("an up that fails half-way: what was created is destroyed, the half-created machine swept by tag", async () => {
    const { file, c } = setup("fail", { failAt: "tikv-1" });
    const h = harness(file, "up-fail");
    const { code } = await h.done;
    assert.equal(code, 3, h.stderr());
    assert.match(h.stderr(), /capacity not available \(fake cloud\)/);
    assert.match(h.stderr(), /pd-1 deleted/, "the machine that was created is destroyed");
    // the failed create wrote its machine before failing: the state never had it, the tag sweep finds it
    assert.match(h.stderr(), /swept by tag tiperf:run-id=run-fail: tikv-1/);
    assert.deepEqual(fakeMachines(c.cloudDir), {});
    assert.deepEqual(backendView(c).stacks, []);
  });

  test("an up killed with SIGKILL: the next run's recovery leaves no machine, no lock and no stack", async () => {
    const { file, c } = setup("kill", { bootMs: { "tikv-1": 60_000 } });
    const h = harness(file, "up");
    // pd-1 is up and tikv-1 is being created (its create called, its boot not over)
    await waitUntil("tikv-1 exists in the fake cloud", () => "tikv-1" in fakeMachines(c.cloudDir));
    await new Promise((r) => setTimeout(r, 1000));
    // the runner dies: tiperf, the Pulumi CLI and the provider plugin (which Pulumi starts in a
    // process group of its own; the fake machine's file names its pid)
    const plugin = (JSON.parse(readFileSync(join(c.cloudDir, "tikv-1.json"), "utf8")) as { pid: number }).pid;
    process.kill(-(h.child.pid as number), "SIGKILL");
    try {
      process.kill(plugin, "SIGKILL");
    } catch {}
    await h.done;
    const before = backendView(c);
    const machinesBefore = Object.keys(fakeMachines(c.cloudDir)).sort();
    process.stderr.write(
      `state before recovery: stacks ${JSON.stringify(before.stacks)}, resources ${JSON.stringify(before.resources)}, pending ${JSON.stringify(before.pending)}, lock files ${before.locks}; fake cloud ${JSON.stringify(machinesBefore)}\n`,
    );
    assert.deepEqual(before.stacks, [c.stack]);
    assert.deepEqual(before.resources, ["pd-1"]);
    assert.deepEqual(before.pending, ["creating tikv-1"]);
    assert.ok(before.locks >= 1, "the killed up's lock is still there");
    assert.deepEqual(machinesBefore, ["pd-1", "tikv-1"]);

    const r = harness(file, "recover");
    const { code } = await r.done;
    assert.equal(code, 0, r.stderr());
    for (const step of [
      "cancel the lock",
      "refresh, clearing pending creates",
      "destroy, going on past errors",
      "tag sweep of tiperf:run-id run-kill",
      "remove the stack",
    ])
      assert.match(r.stderr(), new RegExp(`recovery: ${step.replace(/[()]/g, "\\$&")}: done`), r.stderr());
    assert.ok(
      r.stderr().indexOf("cancel the lock: done") < r.stderr().indexOf("remove the stack: done"),
      "in order",
    );
    assert.match(
      r.stderr(),
      /swept by tag tiperf:run-id=run-kill: tikv-1/,
      "created, never recorded: found by tag",
    );
    const after = backendView(c);
    process.stderr.write(
      `state after recovery: stacks ${JSON.stringify(after.stacks)}, lock files ${after.locks}; fake cloud ${JSON.stringify(Object.keys(fakeMachines(c.cloudDir)))}\n`,
    );
    assert.deepEqual(fakeMachines(c.cloudDir), {});
    assert.deepEqual(after.stacks, []);
    assert.equal(after.locks, 0);
  });

  test("SIGTERM during the matrix: tiperf stops the cell, tears down, and the stack is destroyed", async () => {
    const before = leftovers();
    const { file, c } = setup("sigterm");
    const dir = tempDir();
    const spec = writeSpec(dir, { threads: [1, 2, 4], duration: 6 });
    const h = harness(file, "run", "run", "--spec", spec, "--out", join(dir, "results"));
    await waitUntil("the matrix runs", () => /\[2\/3\] point_select threads=2/.test(h.stderr()), 180_000);
    assert.equal(Object.keys(fakeMachines(c.cloudDir)).length, 3, "the cluster is up during the matrix");
    h.child.kill("SIGTERM");
    const { code } = await h.done;
    assert.equal(code, 143, h.stderr());
    assert.match(h.stderr(), /SIGTERM received: stopping and tearing down/);
    assert.match(h.stderr(), /cloud: stack tiperf-sigterm destroyed and removed/);
    assert.deepEqual(fakeMachines(c.cloudDir), {});
    assert.deepEqual(backendView(c).stacks, []);
    assert.deepEqual(leftovers(), before);
  });
});
