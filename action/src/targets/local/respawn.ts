// A private server's next process on the same data (a restart): spawned, settled, and on its own
// port again, tried again when something holds that port for a moment.
import { PORT_TRIES, portTaken } from "../../proc/port.ts";
import type { ServerProcess } from "../../proc/process.ts";

/**
 * A restart binds the port the server had: something else may hold it for a moment (a socket of
 * the old process lingering, a program that took it meanwhile), so a bind that fails is tried
 * again, after a second, then two, before the failure stands.
 */
export async function respawnOnItsPort(respawn: () => Promise<ServerProcess>): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await respawn();
    } catch (e) {
      if (attempt >= PORT_TRIES || !portTaken(e as Error)) throw e;
      await new Promise((r) => setTimeout(r, attempt * 1000));
    }
  }
}

/**
 * How a local target restarts: spawn the next process on the same data and wait until it is
 * settled; one that does not come up is stopped, so a failed restart leaves no process behind.
 */
export function respawner(
  spawn: () => ServerProcess,
  settle: (s: ServerProcess) => Promise<unknown>,
  stopSignal: NodeJS.Signals,
): () => Promise<ServerProcess> {
  return async () => {
    const next = spawn();
    try {
      await settle(next);
    } catch (e) {
      await next.stop(stopSignal, 30_000).catch(() => {});
      throw e;
    }
    return next;
  };
}
