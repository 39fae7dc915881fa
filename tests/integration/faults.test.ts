import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { processTree } from "../../action/src/targets/local/cgroup.ts";
import { ROOT } from "../helpers/paths.ts";
import { cli, leftovers, tempDir, writeSpec } from "../helpers/real.ts";
import { syntheticVerdict } from "../helpers/verdict.ts";

/** Every file under `dir`, relative to it. */
function walk(dir: string, prefix = ""): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}

const runDirOf = (out: string) => join(out, readdirSync(out)[0] as string);

/** A small tmpfs of our own (root), unmounted after the suite. */
const mounts: string[] = [];
function tmpfs(size: string, options = ""): string {
  const dir = tempDir("tiperf-tmpfs-");
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}${options ? `,${options}` : ""}`, "tmpfs", dir]);
  mounts.push(dir);
  return dir;
}
after(() => {
  for (const m of mounts) execFileSync("umount", ["-l", m]);
});

/** Fills a filesystem to the last byte. */
function fill(dir: string): void {
  try {
    execFileSync("sh", ["-c", `cat /dev/zero > "$1"`, "sh", join(dir, "filler")], { stdio: "ignore" });
  } catch {
    // cat ends with "No space left on device": that is the point
  }
}

/** The environment of a running process, as the kernel has it. */
function environOf(pid: number): Record<string, string> {
  const raw = readFileSync(`/proc/${pid}/environ`, "utf8");
  return Object.fromEntries(
    raw
      .split("\0")
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
  );
}

function pidsOf(pattern: string): number[] {
  try {
    return execFileSync("pgrep", ["-f", pattern], { encoding: "utf8" }).trim().split("\n").map(Number);
  } catch {
    return [];
  }
}

/** A run of one 3 s cell against MariaDB, one second into that cell. */
async function oneCellRunning() {
  const dir = tempDir();
  const out = join(dir, "results");
  const run = cli(["run", "--spec", writeSpec(dir, { threads: [2], duration: 3, warmup: 0 }), "--out", out]);
  const pid = Number((await run.waitFor(/MariaDB .* \(pid (\d+),/))[1]);
  await run.waitFor(/\[1\/1\] point_select threads=2/);
  await new Promise((r) => setTimeout(r, 1000));
  return { run, pid, out, dir };
}

describe("a stalled server never yields a number", () => {
  test("SIGSTOP for the whole cell: the watchdog ends it within the stated grace, naming cell, state and time", async () => {
    const before = leftovers();
    const { run, pid, out, dir } = await oneCellRunning();
    const stoppedAt = Date.now();
    process.kill(pid, "SIGSTOP");
    const { code } = await run.done;
    const seconds = (Date.now() - stoppedAt) / 1000;
    assert.equal(code, 3, run.stderr());
    // 3 s cell + 15 s grace, then SIGTERM/SIGKILL to sysbench and the teardown
    assert.ok(seconds < 40, `ended ${seconds}s after the stop`);
    assert.match(
      run.stderr(),
      /error: cell point_select threads=2 failed: run: sysbench did not finish within 3s \+ 15s grace and was stopped after \d+\.\ds; mariadb server \(pid \d+\) is stopped \(SIGSTOP\)/,
    );
    const resultFile = join(runDirOf(out), "result.json");
    const result = JSON.parse(readFileSync(resultFile, "utf8"));
    assert.equal(result.status, "failed");
    assert.equal(result.cells[0].status, "failed");
    assert.deepEqual(result.cells[0].metrics, {}, "no number for a cell that measured a stall");
    const promote = cli(["baseline", "update", resultFile, "--dir", join(dir, "baselines")]);
    assert.equal((await promote.done).code, 2);
    assert.match(promote.stderr(), /status is failed; only a complete result can become a baseline/);
    assert.deepEqual(leftovers(), before, "the stopped server was stopped for good and removed");
  });

  /** Stops the server for 5 s, then lets it go on. */
  const pause = async (pid: number) => {
    process.kill(pid, "SIGSTOP");
    await new Promise((r) => setTimeout(r, 5000));
    process.kill(pid, "SIGCONT");
  };

  test("a stall shorter than the grace: sysbench ends 'successfully'; that run is set aside (raw output kept) and the cell runs again", async () => {
    const before = leftovers();
    const { run, pid, out } = await oneCellRunning();
    await pause(pid);
    const { code } = await run.done;
    assert.equal(code, 0, run.stderr());
    assert.match(
      run.stderr(),
      /cell point_select threads=2 failed: not the measurement asked for: \d+ one-second sample\(s\) with zero throughput \(at \d+s.*: the server stalled \(raw output: \S+point_select-t2-stalled-1\.log\); running the cell again \(1 of 2\)/,
    );
    const runDir = runDirOf(out);
    const stalled = readFileSync(join(runDir, "raw", "point_select-t2-stalled-1.log"), "utf8");
    assert.match(stalled, /tps: 0\.00 qps: 0\.00/, "the raw output that shows the stall is kept");
    assert.match(stalled.split("\n")[0] ?? "", /^\$ sysbench oltp_point_select --db-driver=mysql /);
    const result = JSON.parse(readFileSync(join(runDir, "result.json"), "utf8"));
    assert.equal(result.status, "complete");
    const [cell] = result.cells;
    assert.equal(result.cells.length, 1);
    assert.equal(cell.status, "ok");
    assert.deepEqual(
      cell.stalled_attempts.map((a: { raw_log: string }) => a.raw_log),
      ["raw/point_select-t2-stalled-1.log"],
    );
    // the number is the re-run's: no zero-throughput second in it
    assert.ok(cell.metrics.tps.value > 0);
    assert.doesNotMatch(readFileSync(join(runDir, cell.raw_log), "utf8"), /tps: 0\.00 qps: 0\.00/);
    assert.deepEqual(leftovers(), before);
  });

  test("sysbench itself stopped (it got no CPU): the seconds it never reported make the run a stall, run again", async () => {
    const before = leftovers();
    const { run, out } = await oneCellRunning();
    // the load tool of this run: the sysbench process below this tiperf
    const tool = (await processTree(run.child.pid as number)).find((p) => {
      try {
        return readFileSync(`/proc/${p}/comm`, "utf8").trim() === "sysbench";
      } catch {
        return false;
      }
    });
    assert.ok(tool, "sysbench runs below tiperf");
    await pause(tool as number);
    const { code } = await run.done;
    assert.equal(code, 0, run.stderr());
    assert.match(
      run.stderr(),
      /cell point_select threads=2 failed: not the measurement asked for: sysbench printed (no sample for second|\d+ one-second samples for a 3s cell).*\(raw output: \S+point_select-t2-stalled-1\.log\); running the cell again \(1 of 2\)/,
    );
    const runDir = runDirOf(out);
    const [cell] = JSON.parse(readFileSync(join(runDir, "result.json"), "utf8")).cells;
    assert.equal(cell.status, "ok");
    assert.deepEqual(
      cell.stalled_attempts.map((a: { raw_log: string }) => a.raw_log),
      ["raw/point_select-t2-stalled-1.log"],
    );
    assert.deepEqual(leftovers(), before);
  });

  test("a cell that stalls every time it is run again: failed, not judged, every run's raw output kept", async () => {
    const before = leftovers();
    const { run, pid, out } = await oneCellRunning();
    await pause(pid);
    await run.waitFor(/running the cell again \(1 of 2\)/);
    await new Promise((r) => setTimeout(r, 1000));
    await pause(pid);
    await run.waitFor(/running the cell again \(2 of 2\)/);
    await new Promise((r) => setTimeout(r, 1000));
    await pause(pid);
    const { code } = await run.done;
    assert.equal(code, 3, run.stderr());
    assert.match(
      run.stderr(),
      /error: cell point_select threads=2 failed: not the measurement asked for: \d+ one-second sample\(s\) with zero throughput/,
    );
    const runDir = runDirOf(out);
    const result = JSON.parse(readFileSync(join(runDir, "result.json"), "utf8"));
    assert.equal(result.status, "failed");
    const [cell] = result.cells;
    assert.equal(cell.status, "failed");
    assert.equal(cell.failure, "stalled");
    assert.deepEqual(cell.metrics, {}, "no number for a cell that measured a stall");
    for (const f of ["point_select-t2-stalled-1.log", "point_select-t2-stalled-2.log", "point_select-t2.log"])
      assert.match(readFileSync(join(runDir, "raw", f), "utf8"), /tps: 0\.00 qps: 0\.00/, f);
    assert.deepEqual(leftovers(), before);
  });
});

describe("full disks and unusable --out", () => {
  test("the disk fills up during the run: exit 3, one line naming path and errno, nothing left, result.json failed", async () => {
    const before = leftovers();
    const disk = tmpfs("4m");
    const ledger = join(tempDir(), "ledger");
    const out = join(disk, "results");
    const run = cli(
      ["run", "--spec", writeSpec(tempDir(), { threads: [1, 2], duration: 2, warmup: 0 }), "--out", out],
      { TIPERF_LEDGER: ledger },
    );
    await run.waitFor(/base: sysbench prewarm/);
    fill(disk);
    const { code } = await run.done;
    assert.equal(code, 3, run.stderr());
    const errors = run
      .stderr()
      .split("\n")
      .filter((l) => l.startsWith("error: "));
    assert.equal(errors.length, 1, run.stderr());
    assert.match(errors[0] ?? "", /^error: cannot write \/.*: ENOSPC \(no space left on device\)$/);
    assert.doesNotMatch(run.stderr(), /^\s+at /m, "no stack trace");
    const result = JSON.parse(readFileSync(join(runDirOf(out), "result.json"), "utf8"));
    assert.equal(result.status, "failed");
    assert.match(result.error, /ENOSPC/);
    const files = walk(out);
    assert.deepEqual(
      files.filter((f) => f.endsWith(".tmp") || f.endsWith(".reserve")),
      [],
      files.join(", "),
    );
    assert.deepEqual(leftovers(), before, "server stopped, data directory removed");
    assert.equal(
      existsSync(ledger),
      false,
      "ledger entries forgotten, and the ledger folder the run made with them",
    );
  });

  test("no space at all at start: exit 3, one line, no temporary file, no run directory", async () => {
    const disk = tmpfs("1m");
    fill(disk);
    const out = join(disk, "results");
    const run = cli(["run", "--spec", writeSpec(tempDir()), "--out", out]);
    assert.equal((await run.done).code, 3, run.stderr());
    assert.match(run.stderr(), /^error: cannot write \/.*: ENOSPC \(no space left on device\)$/m);
    assert.doesNotMatch(run.stderr(), /^\s+at /m);
    assert.deepEqual(walk(out), [], "nothing half-written");
  });

  test("--out that cannot be a results directory: exit 2 up front, one line with the real errno", async () => {
    const dir = tempDir();
    const spec = writeSpec(dir);
    const file = join(dir, "a-file");
    writeFileSync(file, "x");
    const ro = tmpfs("1m", "ro");
    const cases: [string, RegExp][] = [
      [file, /--out .*a-file: exists and is not a directory/],
      [join(file, "sub"), /--out .*a-file\/sub: cannot write there: ENOTDIR/],
      [join(ro, "results"), /--out .*results: cannot write there: EROFS \(read-only file system\)/],
      ["/proc/tiperf-results", /--out \/proc\/tiperf-results: \/proc is on the kernel's proc filesystem/],
      ["/sys/fs/x", /--out \/sys\/fs\/x: .* is on the kernel's \w+ filesystem/],
    ];
    for (const [out, message] of cases) {
      const started = Date.now();
      const run = cli(["run", "--spec", spec, "--out", out]);
      const { code } = await run.done;
      assert.equal(code, 2, `${out}: ${run.stderr()}`);
      assert.match(run.stderr(), message);
      assert.equal(run.stderr().trim().split("\n").length, 1, run.stderr());
      assert.ok(Date.now() - started < 15_000, `${out}: refused at once`);
    }
    assert.deepEqual(readdirSync(ro), []);
  });
});

describe("a hostile environment", () => {
  const POLLUTED = {
    MYSQL_PWD: "wrong-password",
    MYSQL_HOST: "192.0.2.1",
    PGPASSWORD: "wrong-password",
    PGHOST: "192.0.2.1",
    PGUSER: "nobody",
    PGDATABASE: "nothing",
    GITHUB_TOKEN: "ghs_mustNotLeak0123456789",
    AWS_SECRET_ACCESS_KEY: "aws-must-not-leak",
  };

  for (const kind of ["mariadb", "postgres"]) {
    test(`${kind}: client defaults do not change what tiperf connects to, credentials do not reach server or sysbench`, async () => {
      const dir = tempDir();
      const out = join(dir, "results");
      const run = cli(
        ["run", "--spec", writeSpec(dir, { kind, threads: [2], duration: 3, warmup: 0 }), "--out", out],
        POLLUTED,
      );
      const serverPid = Number((await run.waitFor(/(?:MariaDB|PostgreSQL) .* \(pid (\d+),/))[1]);
      await run.waitFor(/\[1\/1\] point_select threads=2/);
      await new Promise((r) => setTimeout(r, 1000));
      // only this run's sysbench: another run on the machine may have its own
      const mine = new Set(await processTree(run.child.pid as number));
      const sysbench = pidsOf("sysbench oltp_point_select").filter((pid) => mine.has(pid));
      assert.ok(sysbench.length > 0, "sysbench is running");
      for (const pid of [serverPid, ...sysbench]) {
        const env = environOf(pid);
        for (const key of Object.keys(POLLUTED)) assert.equal(env[key], undefined, `${key} in pid ${pid}`);
      }
      const { code } = await run.done;
      assert.equal(code, 0, run.stderr());
      for (const f of walk(out)) {
        const text = readFileSync(join(out, f), "utf8");
        assert.ok(!text.includes(POLLUTED.GITHUB_TOKEN), `token in ${f}`);
      }
    });
  }

  test("a tool that is not installed is named with its package before anything starts", async () => {
    const before = leftovers();
    const dir = tempDir();
    const out = join(dir, "results");
    const run = cli(["run", "--spec", writeSpec(dir), "--out", out], { PATH: join(dir, "empty-bin") });
    assert.equal((await run.done).code, 3, run.stderr());
    assert.match(run.stderr(), /not installed here, so nothing was started:/);
    assert.match(run.stderr(), /- sysbench \(workload point_select\): install the Debian package sysbench/);
    assert.match(
      run.stderr(),
      /- the mariadb client \(target\.kind mariadb\): install the Debian package mariadb-client/,
    );
    assert.deepEqual(walk(out), [], "no run directory: nothing ran");
    assert.deepEqual(leftovers(), before);
  });

  test("a server that would refuse sysbench's connections (max_connections below the threads) is refused before anything starts", async () => {
    const before = leftovers();
    const dir = tempDir();
    const run = cli([
      "run",
      "--spec",
      writeSpec(dir, { threads: [24], duration: 2, warmup: 0, config: "{max_connections: 10}" }),
      "--out",
      join(dir, "results"),
    ]);
    // once a warning, a 15-second wait and sysbench's "FATAL: error 1040: Too many connections"
    // (quoted from a real output in tests/unit/sysbench-parse.test.ts); now refused up front
    assert.equal((await run.done).code, 2, run.stderr());
    assert.match(
      run.stderr(),
      /error: .*spec\.yaml: target\.config\.max_connections is 10, below the largest thread count 24 \(\+1 for tiperf's own connection\)/,
    );
    assert.ok(
      !existsSync(join(dir, "results")) || readdirSync(join(dir, "results")).length === 0,
      "nothing ran",
    );
    assert.deepEqual(leftovers(), before);
  });
});

test("the bundled CLI (action/dist) renders PNG charts", async () => {
  const dir = tempDir();
  const verdict = join(dir, "verdict.json");
  writeFileSync(verdict, JSON.stringify(syntheticVerdict()));
  mkdirSync(join(dir, "out"));
  const child = spawn(
    process.execPath,
    [
      join(ROOT, "action/dist/cli.js"),
      "report",
      verdict,
      "--format",
      "html",
      "--out",
      join(dir, "out", "report.html"),
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let err = "";
  child.stderr.on("data", (d) => {
    err += d;
  });
  const code = await new Promise((r) => child.once("close", r));
  assert.equal(code, 0, err);
  assert.doesNotMatch(err, /PNG charts skipped/);
  const pngs = readdirSync(join(dir, "out", "charts")).filter((f) => f.endsWith(".png"));
  assert.ok(pngs.length >= 4, pngs.join(", "));
  const png = readFileSync(join(dir, "out", "charts", pngs[0] as string));
  assert.equal(png.subarray(1, 4).toString(), "PNG");
});
