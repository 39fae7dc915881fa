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
});
