// A private server whose port was taken between tiperf's choice and the server's bind starts again
// on another port (proc/port.ts startOnFreePort), bounded, each try logged; any other
// failure, or the last try's, stands.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { PORT_TRIES, startOnFreePort } from "../../action/src/proc/port.ts";

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
