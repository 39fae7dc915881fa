// test-lane: parallel (nothing asserted here rests on measured speed: scripts/run-tests.mjs)
// scripts/release.sh in a clone; scripts/setup.sh --cloud in a copy of a release (the action, its setup script, its pinned cloud
// packages), with a test-only `npm` on PATH recording what it is asked: it installs from
// action/package-lock.json only when the pinned @pulumi/pulumi is not resolvable from action/dist.
// Runs where the system packages are installed (as for every integration test), so it installs
// none of those.
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, test } from "node:test";
import { ROOT } from "../helpers/paths.ts";
import { tempDir } from "../helpers/real.ts";

function release(pulumiVersion?: string): { dir: string; calls: string } {
  const dir = tempDir("tiperf-release-");
  for (const p of ["action/dist", "action/package.json", "action/package-lock.json", "scripts/setup.sh"])
    cpSync(join(ROOT, p), join(dir, p), { recursive: true });
  if (pulumiVersion) {
    const pkg = join(dir, "action/node_modules/@pulumi/pulumi");
    mkdirSync(pkg, { recursive: true });
    writeFileSync(
      join(pkg, "package.json"),
      JSON.stringify({ name: "@pulumi/pulumi", version: pulumiVersion }),
    );
  }
  const bin = join(dir, "test-bin");
  mkdirSync(bin);
  const calls = join(dir, "npm-calls");
  // test-only stand-in for npm: records its arguments, installs nothing
  writeFileSync(join(bin, "npm"), `#!/bin/sh\necho "$*" >> "${calls}"\n`);
  chmodSync(join(bin, "npm"), 0o755);
  return { dir, calls };
}

function setup(dir: string): { stderr: string } {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${join(dir, "test-bin")}:${dirname(process.execPath)}:/usr/sbin:/usr/bin:/sbin:/bin`,
  };
  delete env.TIPERF_PULUMI;
  const out = execFileSync("bash", ["-c", "bash scripts/setup.sh --cloud 2>&1 >/dev/null"], {
    cwd: dir,
    env,
    encoding: "utf8",
  });
  return { stderr: out };
}

describe("scripts/setup.sh --cloud", () => {
  test("nothing resolvable from action/dist: npm ci --prefix action from its lock file, and the Pulumi CLI named", () => {
    const { dir, calls } = release();
    const { stderr } = setup(dir);
    assert.equal(
      readFileSync(calls, "utf8").trim(),
      "ci --prefix action --omit=dev --no-audit --no-fund --loglevel=error",
    );
    assert.match(stderr, /setup: npm ci --prefix action \(@pulumi\/pulumi 3\.248\.0 for cloud runs\)/);
    assert.match(stderr, /put pulumi on PATH \(or name it in TIPERF_PULUMI\)/);
  });

  test("another version installed: reinstalled; the pinned one: left alone (idempotent)", () => {
    const old = release("3.100.0");
    setup(old.dir);
    assert.match(readFileSync(old.calls, "utf8"), /^ci --prefix action/);
    const pinned = release(
      JSON.parse(readFileSync(join(ROOT, "action/package.json"), "utf8")).dependencies["@pulumi/pulumi"],
    );
    const { stderr } = setup(pinned.dir);
    assert.equal(existsSync(pinned.calls), false, "npm not run");
    assert.doesNotMatch(stderr, /npm ci/);
  });
});

describe("scripts/release.sh", () => {
  /** A clone of this repository's last commit, with the checkout's packages (esbuild for the dist check). */
  function clone(): string {
    const dir = join(tempDir("tiperf-release-repo-"), "tiperf");
    execFileSync("git", ["clone", "-q", ROOT, dir]);
    for (const [k, v] of [
      ["user.name", "tiperf tests"],
      ["user.email", "tests@tiperf.invalid"],
    ] as const)
      execFileSync("git", ["config", k, v], { cwd: dir });
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
    // the releases this repository has made are not the clone's to repeat
    for (const tag of execFileSync("git", ["tag", "-l"], { cwd: dir, encoding: "utf8" })
      .split("\n")
      .filter(Boolean))
      execFileSync("git", ["tag", "-d", tag], { cwd: dir });
    return dir;
  }
  const release = (dir: string, tag: string) =>
    spawnSync("bash", ["scripts/release.sh", tag], { cwd: dir, encoding: "utf8" });
  const at = (dir: string, ref: string) =>
    execFileSync("git", ["rev-parse", `${ref}^{commit}`], { cwd: dir, encoding: "utf8" }).trim();

  test("tags vX.Y.Z and moves vX; refuses a bad or foreign version, a dirty tree, a stale dist, a tag that exists", () => {
    const dir = clone();
    const version = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version as string;
    const major = `v${version.split(".")[0]}`;
    const bad = release(dir, "1.0");
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /give the version as vMAJOR\.MINOR\.PATCH, e\.g\. v1\.0\.0 \(got '1\.0'\)/);
    const foreign = release(dir, "v9.9.9");
    assert.equal(foreign.status, 2);
    assert.match(foreign.stderr, new RegExp(`v9\\.9\\.9 is not package\\.json's version \\(${version}\\)`));
    writeFileSync(join(dir, "README.md"), "changed\n", { flag: "a" });
    const dirty = release(dir, `v${version}`);
    assert.equal(dirty.status, 2);
    assert.match(dirty.stderr, /the working tree has changes/);
    execFileSync("git", ["checkout", "README.md"], { cwd: dir });

    const ok = release(dir, `v${version}`);
    assert.equal(ok.status, 0, ok.stderr);
    assert.equal(at(dir, `v${version}`), at(dir, "HEAD"));
    assert.equal(at(dir, major), at(dir, "HEAD"));
    assert.match(ok.stdout, new RegExp(`git push origin v${version} && git push -f origin ${major}`));
    // the tag carries CHANGELOG.md's section of the version as its release notes
    const notes = execFileSync("git", ["tag", "-l", "--format=%(contents)", `v${version}`], {
      cwd: dir,
      encoding: "utf8",
    });
    const changelog = readFileSync(join(dir, "CHANGELOG.md"), "utf8");
    const section = changelog.split(`## v${version}\n`)[1]?.split("\n## ")[0]?.trim() ?? "";
    assert.ok(section.length > 0, "CHANGELOG.md has the version's section");
    assert.ok(notes.includes(section.split("\n")[0] as string), notes);
    const again = release(dir, `v${version}`);
    assert.equal(again.status, 2);
    assert.match(again.stderr, /exists .*a release is never moved/);

    // a source change without its dist: refused
    const next = version.replace(/\d+$/, (p) => String(Number(p) + 1));
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    writeFileSync(join(dir, "package.json"), `${JSON.stringify({ ...pkg, version: next }, null, 2)}\n`);
    const run = join(dir, "action/src/version.ts");
    writeFileSync(run, readFileSync(run, "utf8").replace(`"${version}"`, `"${next}"`));
    execFileSync("git", ["commit", "-qam", "next version, dist not rebuilt"], { cwd: dir });
    const stale = release(dir, `v${next}`);
    assert.equal(stale.status, 2);
    assert.match(stale.stderr, /action\/dist differs from the sources/);
    // its dist rebuilt, still no release notes: refused
    execFileSync("node", ["scripts/build.mjs"], { cwd: dir });
    execFileSync("git", ["add", "-A"], { cwd: dir });
    execFileSync("git", ["commit", "-qm", "dist"], { cwd: dir });
    const noNotes = release(dir, `v${next}`);
    assert.equal(noNotes.status, 2, noNotes.stderr);
    assert.match(
      noNotes.stderr,
      new RegExp(`CHANGELOG\\.md has no section '## v${next.replace(/\./g, "\\.")}'`),
    );
    assert.equal(at(dir, major), at(dir, `v${version}`), "the major tag stays at the last release");
  });
});

describe("scripts/run-tests.mjs", () => {
  test("the tests' tiperf is the sources bundled once for the run, at the depth of action/dist, and gone after it", async () => {
    const dir = tempDir("tiperf-run-tests-");
    const seen = join(dir, "seen");
    const file = join(dir, "door.test.ts");
    // a test file that says which tiperf its cli() would run, and runs it
    writeFileSync(
      file,
      `import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { test } from "node:test";
test("runs the bundle", () => {
  const cli = process.env.TIPERF_TEST_CLI ?? "";
  writeFileSync(${JSON.stringify(seen)}, JSON.stringify({ cli, out: execFileSync(process.execPath, [cli, "--version"], { encoding: "utf8" }) }));
});
`,
    );
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const r = spawnSync(process.execPath, [join(ROOT, "scripts/run-tests.mjs"), file], {
      cwd: ROOT,
      env,
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const { cli, out } = JSON.parse(readFileSync(seen, "utf8")) as { cli: string; out: string };
    assert.match(cli, /\/action\/\.test-cli-\w+\/cli\.js$/);
    assert.ok(cli.startsWith(ROOT), `${cli} is not in this checkout`);
    const version = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string })
      .version;
    assert.equal(out.trim(), `tiperf ${version}`);
    assert.ok(!existsSync(dirname(cli)), `${dirname(cli)} left behind`);
  });

  test("a cancelled run stops what a file's tests left running under its temp dir (a cancelled file runs no after hooks), SIGKILL for what ignores SIGTERM", async () => {
    const dir = tempDir("tiperf-run-tests-");
    const pidFile = join(dir, "pid");
    const file = join(dir, "holds.test.ts");
    // a test file that starts a server of its own under its temp dir (detached: not in its process
    // group; deaf to SIGTERM — it writes its pid once it is) and never ends (a timer holds it: a
    // test awaiting a promise nothing can settle ends as soon as its event loop is empty)
    const server = `process.on('SIGTERM', () => {}); require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`;
    writeFileSync(
      file,
      `import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
test("holds a server", async () => {
  spawn(process.execPath, ["-e", ${JSON.stringify(server)}, join(tmpdir(), "data")], { detached: true, stdio: "ignore" }).unref();
  await new Promise(() => setInterval(() => {}, 1000));
});
`,
    );
    // a run of its own, not a subtest of this file's (node's test runner marks its children by NODE_TEST_CONTEXT)
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const run = spawn(process.execPath, [join(ROOT, "scripts/run-tests.mjs"), file], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    run.stdout?.on("data", (d) => {
      out += d;
    });
    run.stderr?.on("data", (d) => {
      out += d;
    });
    const closed = new Promise<number | null>((r) => run.once("close", r));
    // running: a process that is not a zombie (one killed after its parent died waits for init to reap it)
    const alive = (pid: number) => {
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
      } catch {
        return false;
      }
    };
    // the file exists a moment before its number is in it: wait for the number
    const written = () => (existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8")) : 0);
    for (let i = 0; i < 300 && !written(); i++) await new Promise((r) => setTimeout(r, 100));
    const pid = written();
    assert.ok(pid > 0, `the test file never started its server:\n${out}`);
    try {
      assert.ok(alive(pid));
      run.kill("SIGTERM");
      const code = await closed;
      assert.equal(code, 1, out);
      assert.ok(!alive(pid), `pid ${pid} still runs:\n${out}`);
      assert.match(
        out,
        // (its command line as much as the line shows of it)
        new RegExp(
          `── left running under \\S+/tiperf-tests-\\w+: pid ${pid} \\(\\S*node -e process\\.on\\('SIGTERM'.*\\): stopped`,
        ),
      );
      // its temp dir is gone with it
      const under = /── left running under (\S+):/.exec(out)?.[1] as string;
      assert.ok(!existsSync(under), under);
    } finally {
      if (alive(pid)) process.kill(pid, "SIGKILL");
    }
  });
});
