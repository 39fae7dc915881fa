// test-lane: parallel (nothing asserted here rests on measured speed: scripts/run-tests.mjs)
import assert from "node:assert/strict";
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { functionCosts } from "../../action/src/observe/profile-diff.ts";
import {
  codeProfile,
  statementsProfile,
  windowStatements,
} from "../../action/src/targets/tidb/code-profile.ts";
import {
  COUNTERS_SOCKET_ENV,
  CodeCounters,
  GO_STATEMENTS,
  metaHash,
} from "../../action/src/targets/tidb/counting.ts";
import { buildAt, buildKey, type SourceSpec } from "../../action/src/targets/tidb/source.ts";
import { tempDir } from "../helpers/real.ts";

/**
 * target.source.count: a counting build of a Go tree, made by tiperf's build code (its file in the
 * main package, Go's coverage flags), run, and its statements read over the socket. The tree is a
 * small Go module made here whose work per request is known statement by statement: `/op?n=K`
 * runs work.Loop(K) — 3 statements to the loop (the for among them), 1 per turn, 1 return — so the statements
 * counted per request are exact, whatever the machine's speed.
 */
const MAIN = `package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"

	"example.com/counted/work"
)

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	fmt.Println(ln.Addr().String())
	os.Stdout.Sync()
	http.HandleFunc("/op", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		fmt.Fprint(w, work.Loop(n))
	})
	_ = http.Serve(ln, nil)
}
`;

const WORK = `package work

func Loop(n int) int {
	s := 0
	i := 0
	for ; i < n; i++ {
		s += i
	}
	return s
}
`;

function goTree(): string {
  const dir = tempDir("tiperf-counted-tree-");
  mkdirSync(join(dir, "cmd/server"), { recursive: true });
  mkdirSync(join(dir, "work"), { recursive: true });
  writeFileSync(join(dir, "go.mod"), "module example.com/counted\n\ngo 1.21\n");
  writeFileSync(join(dir, "cmd/server/main.go"), MAIN);
  writeFileSync(join(dir, "work/work.go"), WORK);
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.invalid", ...args], {
      encoding: "utf8",
    }).trim();
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "a counted server");
  return dir;
}

const fetchOp = (addr: string, n: number) =>
  new Promise<void>((resolve, reject) =>
    get(`http://${addr}/op?n=${n}`, (res) => {
      res.resume();
      res.on("end", resolve);
    }).on("error", reject),
  );

const total = (c: Record<string, number>, file?: string) =>
  Object.entries(c)
    .filter(([k]) => k.startsWith(`tidb:${GO_STATEMENTS}{`) && (!file || k.includes(file)))
    .reduce((n, [, v]) => n + v, 0);

describe("a counting build: Go statements executed, read over its socket", () => {
  const servers: ChildProcess[] = [];
  after(() => {
    for (const s of servers) s.kill("SIGKILL");
  });

  test("built by tiperf, it counts each request's statements exactly, at any request count", async () => {
    const tree = goTree();
    const builds = tempDir();
    process.env.TIPERF_BUILDS = builds;
    const src: SourceSpec = {
      path: tree,
      build: ["go", "build", "-o", "bin/server", "./cmd/server"],
      binary: "bin/server",
      timeout: "5m",
      keep: "1G",
      count: { main: "cmd/server" },
    };
    try {
      const commit = execFileSync("git", ["-C", tree, "rev-parse", "HEAD"], { encoding: "utf8" }).trim();
      const lines: string[] = [];
      const build = await buildAt(src, commit, { log: (l) => lines.push(l) });
      assert.match(
        lines.join("\n"),
        /counting: GOFLAGS=-cover -covermode=atomic -coverpkg=example\.com\/counted\/\.\.\./,
      );
      // a counting build is another binary than the plain one of the commit
      const { count: _c, ...plain } = src;
      assert.notEqual(buildKey(commit, src), buildKey(commit, plain as SourceSpec));
      // tiperf's file left the checkout with the build
      const checkout = join(build.binary, "../../checkout");
      assert.equal(existsSync(join(checkout, "cmd/server/tiperf_counting.go")), false);
      assert.doesNotMatch(
        execFileSync("git", ["-C", checkout, "status", "--porcelain"], { encoding: "utf8" }),
        /counting/,
      );

      const socket = join(tempDir("tiperf-counted-run-"), "counters.sock");
      const server = spawn(build.binary, [], {
        env: { PATH: process.env.PATH, [COUNTERS_SOCKET_ENV]: socket },
        stdio: ["ignore", "pipe", "inherit"],
      });
      servers.push(server);
      const addr = await new Promise<string>((resolve) =>
        server.stdout?.once("data", (d: Buffer) => resolve(d.toString().trim())),
      );
      const counters = new CodeCounters(socket);
      const perRequest: number[] = [];
      for (const [requests, n] of [
        [5, 10],
        [40, 10],
        [20, 100],
      ] as const) {
        const before = await counters.read();
        for (let i = 0; i < requests; i++) await fetchOp(addr, n);
        const after = await counters.read();
        const loop = total(after, "work/work.go") - total(before, "work/work.go");
        // Loop(n): 3 statements to the loop, n turns of 1, 1 return
        assert.equal(loop, requests * (4 + n), `work.go over ${requests} requests of n=${n}`);
        perRequest.push((total(after) - total(before)) / requests);
      }
      // the handler's own statements per request do not change with the request count
      assert.equal(perRequest[0], perRequest[1]);
      assert.equal((perRequest[2] as number) - (perRequest[1] as number), 90);
      // every counter is a source file of the counted module, tiperf's own file left out
      const keys = Object.keys(await counters.read());
      assert.ok(
        keys.every((k) => /file="example\.com\/counted\/(cmd\/server\/main|work\/work)\.go"/.test(k)),
        keys.join(),
      );

      // per function, as a regressed cell's code profile takes them (code-profile.ts)
      const before = await counters.functions();
      for (let i = 0; i < 30; i++) await fetchOp(addr, 10);
      const after = await counters.functions();
      const costs = functionCosts(statementsProfile(windowStatements(before, after, 1000)));
      assert.equal(costs.measures, "stmts");
      // 30 × Loop(10): 14 statements each; the handler (a literal, counted in main) 2 a request
      assert.equal(costs.flat.get("example.com/counted/work.Loop"), 30 * 14);
      assert.equal(costs.flat.get("example.com/counted/cmd/server.main"), 30 * 2);
      assert.equal(costs.total, 30 * 16);
    } finally {
      delete process.env.TIPERF_BUILDS;
    }
  });

  test("a binary that is not a counting build is said so, not read as zero", async () => {
    const tree = goTree();
    const bin = join(tempDir(), "plain");
    execFileSync("go", ["build", "-o", bin, "./cmd/server"], { cwd: tree, stdio: "ignore" });
    // a plain build has no counting file: it serves no socket at all
    const socket = join(tempDir(), "counters.sock");
    const server = spawn(bin, [], {
      env: { PATH: process.env.PATH, [COUNTERS_SOCKET_ENV]: socket },
      stdio: "ignore",
    });
    servers.push(server);
    await assert.rejects(new CodeCounters(socket).read(), /ENOENT/);
    // a code profile that cannot be read says why in the profile, it does not throw
    const file = join(tempDir(), "stmts.pprof");
    const profile = await codeProfile(new CodeCounters(socket), { seconds: 1, file, address: "a" });
    assert.match(profile.error ?? "", /counters of a counting build: .*ENOENT/);
    assert.equal(existsSync(file), false);
    assert.throws(
      () => metaHash(Buffer.from("not coverage meta-data at all, forty bytes or more")),
      /not a Go coverage meta-data file/,
    );
  });
});
