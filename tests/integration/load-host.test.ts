// test-lane: parallel (nothing asserted here rests on measured speed: scripts/run-tests.mjs)
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { freePort, PORT_TRIES } from "../../action/src/proc/port.ts";
import { runTool } from "../../action/src/proc/tool.ts";
import { startMariadb } from "../../action/src/targets/mariadb/server.ts";
import { createDatabaseSql } from "../../action/src/targets/tables.ts";
import { haproxyConfig } from "../../action/src/targets/tidb/deployments/cluster/index.ts";
import { startHaproxy } from "../../action/src/targets/tidb/haproxy.ts";
import type { Target } from "../../action/src/targets/types.ts";
import { tempDir } from "../helpers/real.ts";
import { type Sshd, startSshd } from "../helpers/sshd.ts";

/**
 * The load generator on a profile's load host: a real sshd on 127.0.0.1 (own host key, port and
 * authorized key) stands for the load host; sysbench runs through it against a private MariaDB.
 */
const remoteProcesses = (marker: string) => {
  try {
    return execFileSync("pgrep", ["-f", marker], { encoding: "utf8" }).trim();
  } catch {
    return "";
  }
};

const holding: Server[] = [];

/** `n` consecutive ports on 127.0.0.1 the test listens on, as another job on the load host would. */
async function holdPorts(n: number): Promise<number[]> {
  const listen = (port: number) =>
    new Promise<Server | undefined>((resolve) => {
      const server = createServer();
      server.once("error", () => resolve(undefined));
      server.listen(port, "127.0.0.1", () => resolve(server));
    });
  for (let attempt = 0; attempt < 20; attempt++) {
    const first = await listen(0);
    const a = first?.address();
    const port = typeof a === "object" && a ? a.port : 0;
    const rest: (Server | undefined)[] = [];
    for (let i = 1; i < n; i++) rest.push(await listen(port + i));
    const all = [first, ...rest];
    if (all.every(Boolean)) {
      holding.push(...(all as Server[]));
      return all.map((_, i) => port + i);
    }
    for (const s of all) s?.close();
  }
  throw new Error(`no ${n} consecutive free ports found in 20 tries`);
}

function releasePorts() {
  for (const s of holding.splice(0)) s.close();
}

describe("load host over SSH", () => {
  let sshd: Sshd;
  let db: Target;
  const dir = tempDir();
  before(async () => {
    sshd = await startSshd();
    db = await startMariadb(
      { kind: "mariadb", config: {} },
      { maxConnections: 16, logDir: dir, log: () => {} },
    );
    await db.createDatabase("sbtest", createDatabaseSql("sbtest"));
  });
  after(async () => {
    await db?.stop();
    await sshd?.stop();
  });
  const sysbench = (seed: number, time: number, phase: string) => [
    "oltp_point_select",
    "--db-driver=mysql",
    "--mysql-host=127.0.0.1",
    `--mysql-port=${db.connection.endpoints[0]?.port}`,
    "--mysql-user=root",
    "--mysql-db=sbtest",
    "--tables=1",
    "--table-size=1000",
    "--threads=2",
    `--time=${time}`,
    `--rand-seed=${seed}`,
    phase,
  ];
  /** sysbench on the load host against `port` there (HAProxy): it must complete transactions. */
  const sysbenchThrough = async (port: number, log: string) => {
    const args = sysbench(13, 2, "run").map((a) =>
      a.startsWith("--mysql-port=") ? `--mysql-port=${port}` : a,
    );
    const r = await runTool("sysbench", args, { logFile: join(dir, log), remote: sshd.host, limitS: 60 });
    assert.equal(r.code, 0, r.output);
    assert.match(r.output, /transactions:\s+[1-9]\d*/);
  };

  test("sysbench runs on the load host; its output streams back into the raw log", async () => {
    const log = join(dir, "prepare.log");
    const prep = await runTool("sysbench", sysbench(11, 1, "prepare"), {
      logFile: log,
      remote: sshd.host,
      limitS: 120,
    });
    assert.equal(prep.code, 0, prep.output);
    const runLog = join(dir, "run.log");
    const r = await runTool("sysbench", sysbench(12, 2, "run"), {
      logFile: runLog,
      remote: sshd.host,
      limitS: 60,
    });
    assert.equal(r.code, 0, r.output);
    assert.match(r.output, /transactions:\s+\d+/);
    const kept = readFileSync(runLog, "utf8");
    assert.match(
      kept,
      new RegExp(`^\\$ sysbench oltp_point_select .* # on ${sshd.host.user}@127\\.0\\.0\\.1: ssh `),
    );
    assert.match(kept, /transactions:\s+\d+/);
  });

  test("cancelling mid-cell leaves no process behind on the load host", async () => {
    const ac = new AbortController();
    const marker = "--rand-seed=424242";
    setTimeout(() => ac.abort(new Error("cancelled by the test")), 2500);
    const r = await runTool("sysbench", sysbench(424242, 60, "run"), {
      logFile: join(dir, "cancel.log"),
      remote: sshd.host,
      signal: ac.signal,
      limitS: 120,
    });
    assert.equal(r.aborted, "cancelled by the test");
    assert.ok(r.elapsed_s < 30, `stopped after ${r.elapsed_s}s`);
    let left = remoteProcesses(marker);
    for (let i = 0; i < 50 && left; i++) {
      await new Promise((res) => setTimeout(res, 100));
      left = remoteProcesses(marker);
    }
    assert.equal(left, "", `still running on the load host:\n${left}`);
  });

  test("arguments reach the remote program exactly, whatever they hold", async () => {
    const tricky = ["a b", "it's", '"dq"', "$HOME", "`id`", "x;y", "*", ""];
    const r = await runTool("printf", ["<%s>\\n", ...tricky], {
      logFile: join(dir, "args.log"),
      remote: sshd.host,
    });
    assert.equal(r.code, 0, r.output);
    assert.equal(r.output, tricky.map((t) => `<${t}>\n`).join(""));
  });

  test("through a bastion (ProxyCommand ssh -W): arguments exact, a key path with a space and % works, the bastion's refusal is ssh's error", async () => {
    // the bastion's key sits at a path the ProxyCommand must quote (space) and escape (% is a token)
    const odd = join(dir, "key 100%");
    mkdirSync(odd, { recursive: true });
    copyFileSync(sshd.host.identity as string, join(odd, "id"));
    chmodSync(join(odd, "id"), 0o600);
    const jump = { ...sshd.host, identity: join(odd, "id") };
    const tricky = ["a b", "it's", "%h", "$HOME"];
    const r = await runTool("printf", ["<%s>\\n", ...tricky], {
      logFile: join(dir, "jump.log"),
      remote: { ...sshd.host, jump },
      limitS: 30,
    });
    assert.equal(r.code, 0, r.output);
    assert.equal(r.output, tricky.map((t) => `<${t}>\n`).join(""));
    // the same target behind a bastion that refuses: the connection really goes through it
    const refused = await runTool("true", [], {
      logFile: join(dir, "jump-refused.log"),
      remote: { ...sshd.host, jump: { ...jump, user: "nobody" } },
      limitS: 30,
    });
    assert.equal(refused.code, 255);
    assert.match(refused.output, /Permission denied/);
  });

  test("a stop after N seconds reaches the remote program as SIGINT (go-ycsb's normal end), N counted from its start there", async () => {
    // the remote side keeps the time: ssh's connection (slow on a busy machine) neither loses the
    // signal nor shortens the run. The program starts with SIGINT ignored (a background job of a
    // non-interactive shell) until it sets its handler, as go-ycsb's runtime does first thing: the
    // stop comes 5 s after its start, not 1 s, so a python slow to start beside a CPU hog (seen in
    // CI) has its handler set before the signal arrives
    const program =
      // seconds since this process began (its start time in /proc, clock ticks since boot)
      "import os,signal,sys,time\nt=int(open('/proc/self/stat').read().rsplit(')',1)[1].split()[19])/os.sysconf('SC_CLK_TCK')\nup=lambda: float(open('/proc/uptime').read().split()[0])\nsignal.signal(signal.SIGINT, lambda *a: (print(f'got INT after {up()-t:.3f}', flush=True), sys.exit(0)))\ntime.sleep(30)";
    const r = await runTool("python3", ["-c", program], {
      logFile: join(dir, "int.log"),
      remote: sshd.host,
      stopAfterS: 5,
      // ssh's connection may take long on a busy machine: the remote side's time is what is asserted
      limitS: 90,
    });
    assert.equal(r.code, 0, r.output);
    const after = Number(/got INT after ([\d.]+)/.exec(r.output)?.[1]);
    assert.ok(after >= 4.95 && after < 15, `SIGINT ${after} s after the start (asked: 5 s): ${r.output}`);
  });

  test("HAProxy started on the load host balances the load tool over the SQL servers; stopping it leaves nothing", async () => {
    const port = await freePort();
    const config = haproxyConfig(db.connection.endpoints, port, "itest");
    assert.match(
      config,
      new RegExp(`server tidb-1 127\\.0\\.0\\.1:${db.connection.endpoints[0]?.port} check`),
    );
    const name = `tiperf-haproxy-itest-${port}`;
    const before = readdirSync(dir).sort();
    const haproxy = await startHaproxy({
      remote: sshd.host,
      config,
      command: ["haproxy", "-db", "-L", name, "-f", "/dev/stdin"],
      port,
      logFile: join(dir, "haproxy.log"),
      log: () => {},
    });
    try {
      await sysbenchThrough(port, "via-haproxy.log");
    } finally {
      await haproxy.stop();
    }
    let left = remoteProcesses(name);
    for (let i = 0; i < 50 && left; i++) {
      await new Promise((res) => setTimeout(res, 100));
      left = remoteProcesses(name);
    }
    assert.equal(left, "");
    // its config reached it on stdin: no file was written for it (the load host's files are the test's)
    assert.deepEqual(
      readdirSync(dir)
        .sort()
        .filter((f) => !before.includes(f) && !f.startsWith("haproxy.log") && !f.startsWith("via-haproxy")),
      [],
    );
  });

  test("HAProxy counts as started only once its port accepts connections: one that never listens is stopped and named", async () => {
    const port = await freePort();
    const file = join(dir, "silent.cfg");
    // a stand-in that stays up without listening, as a slow haproxy would for a while
    const err = await startHaproxy({
      remote: sshd.host,
      config: "unused\n",
      command: ["python3", "-c", "import time; time.sleep(60)", file],
      port,
      logFile: join(dir, "silent.log"),
      log: () => {},
      readyS: 1,
    }).then(
      () => assert.fail("started without listening"),
      (e: Error) => e,
    );
    assert.match(err.message, new RegExp(`did not accept connections on 127\\.0\\.0\\.1:${port} within 1s`));
    let left = remoteProcesses(file);
    for (let i = 0; i < 50 && left; i++) {
      await new Promise((res) => setTimeout(res, 100));
      left = remoteProcesses(file);
    }
    assert.equal(left, "", "the stand-in was stopped");
  });

  test("HAProxy's port taken on the load host: it starts on the next one, the try logged, and the load tools reach it there", async () => {
    const [taken] = await holdPorts(1);
    const lines: string[] = [];
    const name = `tiperf-haproxy-itest-taken-${taken}`;
    const haproxy = await startHaproxy({
      remote: sshd.host,
      config: haproxyConfig(db.connection.endpoints, taken as number, "itest"),
      command: ["haproxy", "-db", "-L", name, "-f", "/dev/stdin"],
      port: taken as number,
      logFile: join(dir, "haproxy-taken.log"),
      log: (l) => lines.push(l),
    });
    try {
      const port = haproxy.endpoint.port;
      assert.ok(port > (taken as number) && port < (taken as number) + PORT_TRIES, `on ${port}`);
      assert.match(
        lines.join("\n"),
        new RegExp(
          `HAProxy on 127\\.0\\.0\\.1: port ${taken} already accepts connections \\(something else listens\\); trying ${(taken as number) + 1} \\(try 2 of ${PORT_TRIES}\\)`,
        ),
      );
      await sysbenchThrough(port, "via-moved.log");
    } finally {
      await haproxy.stop();
      releasePorts();
    }
  });

  test("HAProxy's port bound by another program that does not listen yet (taken between look and bind): it starts on the next one", async () => {
    // a socket bound and not listening: connections are refused (the look finds the port free), a bind fails
    const port = await freePort();
    const binder = spawn(
      "python3",
      [
        "-c",
        "import socket,sys,time\ns=socket.socket()\ns.bind(('127.0.0.1', int(sys.argv[1])))\nprint('bound', flush=True)\ntime.sleep(60)",
        String(port),
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    try {
      await new Promise((res) => binder.stdout?.once("data", res));
      const lines: string[] = [];
      const name = `tiperf-haproxy-itest-race-${port}`;
      const haproxy = await startHaproxy({
        remote: sshd.host,
        config: haproxyConfig(db.connection.endpoints, port, "itest"),
        command: ["haproxy", "-db", "-L", name, "-f", "/dev/stdin"],
        port,
        logFile: join(dir, "haproxy-race.log"),
        log: (l) => lines.push(l),
      });
      try {
        assert.ok(haproxy.endpoint.port > port, `on ${haproxy.endpoint.port}`);
        assert.match(
          lines.join("\n"),
          new RegExp(`port ${port} was taken before HAProxy could bind it; trying ${port + 1}`),
        );
      } finally {
        await haproxy.stop();
      }
    } finally {
      binder.kill();
    }
  });

  test("HAProxy's port and the next ones all taken: the run is refused naming them and the key, nothing left", async () => {
    const taken = await holdPorts(PORT_TRIES);
    const first = taken[0] as number;
    const name = `tiperf-haproxy-itest-all-${first}`;
    try {
      const err = await startHaproxy({
        remote: sshd.host,
        config: haproxyConfig(db.connection.endpoints, first, "itest"),
        command: ["haproxy", "-db", "-L", name, "-f", "/dev/stdin"],
        port: first,
        logFile: join(dir, "haproxy-all.log"),
        log: () => {},
      }).then(
        () => assert.fail("started on a taken port"),
        (e: Error) => e,
      );
      assert.match(
        err.message,
        new RegExp(
          `ports ${first}–${first + PORT_TRIES - 1} already accept connections there .*haproxy_port`,
        ),
      );
      assert.equal(remoteProcesses(name), "");
    } finally {
      releasePorts();
    }
  });

  test("a load host that refuses the key fails with ssh's own words", async () => {
    const r = await runTool("true", [], {
      logFile: join(dir, "refused.log"),
      remote: { ...sshd.host, user: "nobody" },
      limitS: 30,
    });
    assert.equal(r.code, 255);
    assert.match(r.output, /Permission denied/);
  });
});
