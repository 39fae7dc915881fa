// test-lane: parallel (nothing asserted here rests on measured speed: scripts/run-tests.mjs)
// Resource use on another host over SSH (observe/remote.ts), against a test sshd on 127.0.0.1:
// a listening server process found by its port, a load tool found by its program name, the
// machine; and the loop's output parsed as a real host printed it.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { cpus } from "node:os";
import { after, before, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { parseRemote, RemoteSampler, remoteScript } from "../../action/src/observe/remote.ts";
import { freePort } from "../../action/src/proc/port.ts";
import { type Sshd, startSshd } from "../helpers/sshd.ts";

describe("RemoteSampler over SSH", () => {
  let sshd: Sshd;
  const started: ChildProcess[] = [];
  before(async () => {
    sshd = await startSshd();
  });
  after(async () => {
    for (const c of started) c.kill("SIGKILL");
    await sshd?.stop();
  });

  test("a server by its port (busy), a load tool by its name (asleep), the machine: one sample a second, summarised", async () => {
    const port = await freePort();
    // a "server": listens on the port and burns CPU
    const server = spawn(
      process.execPath,
      [
        "-e",
        `require("net").createServer().listen(${port}, "127.0.0.1"); const f = () => { const e = Date.now() + 50; while (Date.now() < e); setImmediate(f); }; f();`,
      ],
      { stdio: "ignore" },
    );
    started.push(server);
    // a "load tool" by its program name: a sleep with a name of its own
    const load = spawn("bash", ["-c", "exec -a tiperf-test-load sleep 60"], { stdio: "ignore" });
    started.push(load);
    await sleep(500);
    const sampler = new RemoteSampler({ remote: sshd.host, ports: [port], loads: ["sleep"], maxS: 60 });
    // four seconds reported by the loop, however long ssh took to connect (bounded)
    for (let i = 0; i < 400 && sampler.sampled < 4; i++) await sleep(100);
    const uses = await sampler.stop();
    const server_ = uses.find((u) => u.role === "server");
    const machine = uses.find((u) => u.role === "machine");
    assert.ok(server_ && machine, JSON.stringify(uses.map((u) => [u.role, u.component])));
    assert.equal(server_.component, "node");
    assert.equal(server_.host, "127.0.0.1");
    assert.ok(server_.cpu_pct.mean > 1, `the server used CPU: ${server_.cpu_pct.mean}%`);
    assert.ok(server_.samples.length >= 2, `one a second: ${server_.samples.length}`);
    assert.equal(machine.cpus, cpus().length);
    const sleeper = uses.find((u) => u.role === "load" && u.component === "sleep");
    assert.ok(sleeper, "the load tool found by its name");
    assert.ok(sleeper.cpu_pct.mean < 1);
  });
});

describe("the remote loop", () => {
  test("ports and names go into the script only as numbers and plain words", () => {
    assert.throws(() => remoteScript({ ports: [70000], loads: [], maxS: 5 }), /not a port: 70000/);
    assert.throws(() => remoteScript({ ports: [], loads: ["x; rm -rf /"], maxS: 5 }), /not a program name/);
    assert.match(
      remoteScript({ ports: [4000, 20160], loads: ["sysbench"], maxS: 61.5 }),
      /while \[ \$i -lt 62 \]/,
    );
  });
  test("its output: clock ticks, CPUs, per second the machine's line and each process's stat (comm with spaces)", () => {
    const out = parseRemote(
      [
        "H 100 16",
        "T 100.00",
        "C cpu  100 0 100 800 0 0 0 0 0 0",
        "P server 42 VmRSS: 2048 kB Cpus_allowed_list: 0-7 | 42 (tidb-server) S 1 42 42 0 -1 0 0 0 0 0 500 100 0 0 20 0 30 0",
        "P load 77 VmRSS: 1024 kB Cpus_allowed_list: 0-15 | 77 (my tool) S 1 77 77 0 -1 0 0 0 0 0 50 10 0 0 20 0 1 0",
        "T 101.00",
        "C cpu  300 0 300 1400 0 0 0 0 0 0",
        "P server 42 VmRSS: 2048 kB Cpus_allowed_list: 0-7 | 42 (tidb-server) S 1 42 42 0 -1 0 0 0 0 0 900 300 0 0 20 0 30 0",
      ].join("\n"),
    );
    assert.equal(out.tick, 100);
    assert.equal(out.cpus, 16);
    assert.equal(out.snapshots.length, 2);
    assert.deepEqual(out.snapshots[0]?.machine, { busy: 200, total: 1000 });
    assert.deepEqual(out.snapshots[0]?.processes[0], {
      role: "server",
      pid: 42,
      comm: "tidb-server",
      ticks: 600,
      rssBytes: 2048 * 1024,
      cpus: 8,
    });
    assert.equal(out.snapshots[0]?.processes[1]?.comm, "my tool");
  });
});
