// test-lane: parallel (nothing asserted here rests on measured speed: scripts/run-tests.mjs)
// A port taken between tiperf's choice and a private server's bind: the test holds a port and hands
// it to freePort first (TEST_PICKS), so the server's own bind fails with its own words; tiperf
// must start the server again on another port, say so, and leave nothing of the failed try.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { ephemeralRange, PORT_TRIES, TEST_PICKS } from "../../action/src/proc/port.ts";
import { startTarget } from "../../action/src/targets/registry.ts";
import { able } from "../../action/src/targets/types.ts";
import { ROOT } from "../helpers/paths.ts";
import { tempDir } from "../helpers/real.ts";
import { startSshd } from "../helpers/sshd.ts";

/** A port the test listens on (127.0.0.1), as another job on the runner would. */
function holdPort(): Promise<{ port: number; server: Server }> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const a = server.address();
      resolve({ port: typeof a === "object" && a ? a.port : 0, server });
    });
  });
}

const held: Server[] = [];
after(() => {
  TEST_PICKS.length = 0;
  for (const s of held) s.close();
});

async function startWithTakenPort(spec: Record<string, unknown>, picks = 1) {
  const taken: number[] = [];
  for (let i = 0; i < picks; i++) {
    const h = await holdPort();
    held.push(h.server);
    taken.push(h.port);
  }
  TEST_PICKS.push(...taken);
  const lines: string[] = [];
  const dir = tempDir();
  try {
    const t = await startTarget(spec as never, {
      maxConnections: 10,
      logDir: join(dir, "logs"),
      log: (l) => lines.push(l),
    });
    return { t, taken, lines };
  } finally {
    TEST_PICKS.length = 0;
  }
}

describe("a port taken between choice and bind", () => {
  for (const kind of ["mariadb", "postgres"])
    test(`${kind}: started again on another port, the try logged`, async () => {
      const { t, taken, lines } = await startWithTakenPort({ kind, config: {} });
      try {
        const port = t.connection.endpoints[0]?.port;
        assert.ok(port !== undefined && !taken.includes(port), `on ${port}, not the taken ${taken}`);
        assert.match(
          lines.join("\n"),
          new RegExp(
            `its port was taken before the server could bind it; starting again on another port \\(try 2 of ${PORT_TRIES}\\)`,
          ),
        );
        assert.ok(t.pids.length > 0);
      } finally {
        await t.stop();
      }
    });

  test("tidb-server (the test-only stand-in, TiDB's FATAL words): started again on another port", async () => {
    const { t, taken, lines } = await startWithTakenPort({
      kind: "tidb",
      version: "v8.5.0",
      binpath: join(ROOT, "tests/helpers/stand-ins/tidb-server"),
    });
    try {
      const port = t.connection.endpoints[0]?.port;
      assert.ok(port !== undefined && !taken.includes(port), `on ${port}, not the taken ${taken}`);
      assert.match(
        lines.join("\n"),
        /tidb-server .*: its port was taken before the server could bind it; starting again/,
      );
    } finally {
      await t.stop();
    }
  });

  test("a port taken at every try: the last failure stands, naming it", async () => {
    await assert.rejects(
      startWithTakenPort({ kind: "mariadb", config: {} }, PORT_TRIES),
      /Address already in use/i,
    );
  });

  test("sshd (the load-host tests' server): started again on another port", async () => {
    const h = await holdPort();
    held.push(h.server);
    TEST_PICKS.push(h.port);
    const lines: string[] = [];
    const sshd = await startSshd((l) => lines.push(l));
    try {
      assert.notEqual(sshd.host.port, h.port);
      assert.match(lines.join("\n"), /starting again on another port \(try 2/);
    } finally {
      TEST_PICKS.length = 0;
      await sshd.stop();
    }
  });
});

/**
 * A program that keeps binding port 0 on 127.0.0.1 — 2000 sockets at a time, each held for two
 * seconds — as other jobs on a CI runner do; at most `seconds` long.
 */
function portZeroHog(seconds: number): ChildProcess {
  const code = `const net = require("node:net");
    const until = Date.now() + ${seconds * 1000};
    const round = () => {
      if (Date.now() > until) process.exit(0);
      const held = [];
      let up = 0;
      for (let i = 0; i < 2000; i++) {
        const s = net.createServer();
        s.on("error", () => {});
        s.listen(0, "127.0.0.1", () => { if (++up === 1000) console.log("holding"); });
        held.push(s);
      }
      setTimeout(() => { for (const s of held) s.close(); round(); }, 2000);
    };
    round();`;
  return spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "inherit"] });
}

describe("ports nobody else is handed", () => {
  test("six MariaDB servers beside a program that keeps taking thousands of port-0 sockets: six of six start, first try, outside the ephemeral range", async () => {
    const [lo, hi] = ephemeralRange();
    const hog = portZeroHog(120);
    try {
      await new Promise<void>((resolve, reject) => {
        hog.stdout?.once("data", () => resolve());
        hog.once("exit", () => reject(new Error("the hog stopped before it held its sockets")));
      });
      for (let i = 0; i < 6; i++) {
        const lines: string[] = [];
        const t = await startTarget({ kind: "mariadb", config: {} } as never, {
          maxConnections: 10,
          logDir: join(tempDir(), "logs"),
          log: (l) => lines.push(l),
        });
        try {
          const port = t.connection.endpoints[0]?.port as number;
          assert.ok(port < lo || port > hi, `server ${i + 1} on ${port}, outside ${lo}–${hi}`);
          assert.doesNotMatch(lines.join("\n"), /port was taken/, `server ${i + 1} started on its first try`);
          // a restart binds the same port again
          const restart = able(t.restart);
          assert.ok(restart, "a private MariaDB can restart");
          await restart(new AbortController().signal);
          assert.equal(t.connection.endpoints[0]?.port, port);
        } finally {
          await t.stop();
        }
      }
    } finally {
      hog.kill();
    }
  });
});
