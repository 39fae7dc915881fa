import { createServer } from "node:net";

/**
 * Ports `freePort` hands out before it asks the system (tests only: a port the test already holds,
 * to reproduce one taken between tiperf's choice and a server's bind). Empty in a run.
 */
export const TEST_PICKS: number[] = [];

/** A port on 127.0.0.1 that nothing listens on right now (it may be taken before it is bound). */
export function freePort(): Promise<number> {
  const picked = TEST_PICKS.shift();
  if (picked !== undefined) return Promise.resolve(picked);
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** How often a private server starts again when its port was taken between choice and bind. */
export const PORT_TRIES = 3;

/** A start's failure that says its port was taken (the server's own words): worth a start on another port. */
export const portTaken = (e: Error): boolean => /address already in use/i.test(e.message);

/**
 * A private server's start, again on another port when the one picked was taken by something else
 * between tiperf's choice and the server's bind (a CI runner's other jobs): each failed start
 * cleans up after itself; the last failure stands. `start` gets the try (0, 1, …) and picks its
 * port itself — a free one (freePort), or the next after a fixed one (HAProxy's `haproxy_port`).
 * `how.again` words the log line of a retry (default: "starting again on another port");
 * `how.retryable` says which failures mean "taken" (default: the server said the address is in use).
 */
export async function startOnFreePort<T>(
  start: (attempt: number) => Promise<T>,
  log: (line: string) => void,
  how: { again?: (attempt: number, e: Error) => string; retryable?: (e: Error) => boolean } = {},
): Promise<T> {
  const again =
    how.again ?? (() => "its port was taken before the server could bind it; starting again on another port");
  const retryable = how.retryable ?? portTaken;
  for (let attempt = 0; ; attempt++) {
    try {
      return await start(attempt);
    } catch (e) {
      if (attempt + 1 >= PORT_TRIES || !retryable(e as Error)) throw e;
      log(`${again(attempt, e as Error)} (try ${attempt + 2} of ${PORT_TRIES})`);
    }
  }
}
