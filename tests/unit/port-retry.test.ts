// A private server whose port was taken between tiperf's choice and the server's bind starts again
// on another port (proc/port.ts startOnFreePort), bounded, each try logged; any other
// failure, or the last try's, stands.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import {
  ephemeralRange,
  PORT_TRIES,
  privatePort,
  privateRange,
  startOnFreePort,
} from "../../action/src/proc/port.ts";
import { ROOT } from "../helpers/paths.ts";
import { tempDir } from "../helpers/real.ts";

// MariaDB's words when the port was taken (seen in CI beside another test file's servers)
const TAKEN = `MariaDB exited during startup (code 1, signal null); the server said:
  [ERROR] Can't start server: Bind on TCP/IP port. Got error: 98: Address already in use`;

describe("a port taken between choice and bind", () => {
  test("the server starts again, and the try is logged", async () => {
    const lines: string[] = [];
    let calls = 0;
    const started = await startOnFreePort(
      async () => {
        calls++;
        if (calls === 1) throw new Error(TAKEN);
        return "started";
      },
      (l) => lines.push(l),
    );
    assert.equal(started, "started");
    assert.equal(calls, 2);
    assert.deepEqual(lines, [
      `its port was taken before the server could bind it; starting again on another port (try 2 of ${PORT_TRIES})`,
    ]);
  });

  test("bounded: the last try's failure stands; another failure is not retried", async () => {
    let calls = 0;
    await assert.rejects(
      startOnFreePort(
        async () => {
          calls++;
          throw new Error(TAKEN);
        },
        () => {},
      ),
      /Address already in use/,
    );
    assert.equal(calls, PORT_TRIES);
    calls = 0;
    await assert.rejects(
      startOnFreePort(
        async () => {
          calls++;
          throw new Error("target.config: MariaDB refused no_such_setting=1");
        },
        () => {},
      ),
      /refused/,
    );
    assert.equal(calls, 1);
  });

  test("a start says itself which failures mean taken (retryable); its own log line (again)", async () => {
    class Listening extends Error {}
    const lines: string[] = [];
    const ports: number[] = [];
    const started = await startOnFreePort(
      async (k) => {
        ports.push(4000 + k);
        if (k < 2) throw new Listening(`port ${4000 + k} already accepts connections`);
        return 4000 + k;
      },
      (l) => lines.push(l),
      {
        retryable: (e) => e instanceof Listening,
        again: (k) => `port ${4000 + k} listens; trying ${4001 + k}`,
      },
    );
    assert.equal(started, 4002);
    assert.deepEqual(ports, [4000, 4001, 4002]);
    assert.deepEqual(lines, [
      `port 4000 listens; trying 4001 (try 2 of ${PORT_TRIES})`,
      `port 4001 listens; trying 4002 (try 3 of ${PORT_TRIES})`,
    ]);
    // the same words from a failure the predicate does not accept: not retried
    let calls = 0;
    await assert.rejects(
      startOnFreePort(
        async () => {
          calls++;
          throw new Error("port 4000 already accepts connections");
        },
        () => {},
        { retryable: (e) => e instanceof Listening },
      ),
      /already accepts/,
    );
    assert.equal(calls, 1);
  });
});

describe("private ports: outside the kernel's ephemeral range, claimed per process", () => {
  test("the range: below the ephemeral range from 20000, else above it, else none; never a TiDB port", async () => {
    assert.deepEqual(privateRange([32768, 60999]), [20000, 32767]);
    // a playground's or cluster's components (tiup's default ports moved by 1000s or 10000s) are
    // never handed to a private server: 30180 is a second playground's TiKV status port
    const claims = tempDir();
    const picked = new Set<number>();
    for (let i = 0; i < 19; i++)
      picked.add(await privatePort({ claims, range: [30170, 30190], free: async () => true }));
    assert.deepEqual(
      [...picked].sort((a, b) => a - b),
      Array.from({ length: 21 }, (_, i) => 30170 + i).filter((p) => p !== 30170 && p !== 30180),
    );
    assert.deepEqual(privateRange([1024, 40000]), [40001, 65535]);
    assert.equal(privateRange([1024, 65000]), undefined);
    const file = join(tempDir(), "range");
    writeFileSync(file, "40000\t50000\n");
    assert.deepEqual(ephemeralRange(file), [40000, 50000]);
    assert.deepEqual(ephemeralRange(join(tempDir(), "none")), [32768, 60999]);
  });

  test("a live owner's claim is skipped, a dead owner's taken over, none handed out twice", async () => {
    const claims = tempDir();
    // the claims alone (every port counted free: what else binds here does not decide this test)
    const free = async () => true;
    const port = 21000;
    const range: [number, number] = [port, port + 2];
    // p: claimed by a live process (pid 1); p+1: by one that is gone
    writeFileSync(join(claims, String(port)), "1\n");
    writeFileSync(join(claims, String(port + 1)), "4194303\n");
    const got = [await privatePort({ claims, range, free }), await privatePort({ claims, range, free })];
    assert.deepEqual(
      got.sort((a, b) => a - b),
      [port + 1, port + 2],
    );
    for (const p of got) assert.equal(readFileSync(join(claims, String(p)), "utf8"), `${process.pid}\n`);
    await assert.rejects(
      privatePort({ claims, range, free }),
      /no free port in \d+–\d+ \(every one claimed in /,
    );
  });

  test("two processes claiming at once are never handed the same port", async () => {
    const claims = tempDir();
    const port = 21000;
    // each claims 40 ports of 100 and holds them (stays alive) until the test has both lists
    const code = `import { privatePort } from ${JSON.stringify(join(ROOT, "action/src/proc/port.ts"))};
      const got = [];
      for (let i = 0; i < 40; i++) got.push(await privatePort({ claims: ${JSON.stringify(claims)}, range: [${port}, ${port + 99}], free: async () => true }));
      console.log(JSON.stringify(got));
      process.stdin.resume();
      process.stdin.on("end", () => process.exit(0));`;
    const children: ChildProcess[] = [];
    const run = () =>
      new Promise<number[]>((resolve, reject) => {
        const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
          cwd: ROOT,
          stdio: ["pipe", "pipe", "inherit"],
        });
        children.push(child);
        let out = "";
        child.stdout?.on("data", (d) => {
          out += d;
          if (out.includes("\n")) resolve(JSON.parse(out));
        });
        child.once("exit", (c) => reject(new Error(`exited ${c} before claiming`)));
      });
    const [a, b] = await Promise.all([run(), run()]);
    assert.equal(a.length + b.length, 80);
    assert.equal(new Set([...a, ...b]).size, 80, "no port in both");
    // each process's claims go with it
    await Promise.all(
      children.map((c) => {
        const exited = new Promise((r) => c.once("exit", r));
        c.stdin?.end();
        return exited;
      }),
    );
    assert.deepEqual(readdirSync(claims), []);
  });
});
