import { linkSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { basename, join } from "node:path";
import { inherited } from "../environment.ts";

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

/** Where a port a tiperf process holds for its servers is claimed: one file per port, its owner's pid. */
export const PORT_CLAIMS = (env: NodeJS.ProcessEnv = inherited()) =>
  env.TIPERF_PORT_CLAIMS || "/tmp/tiperf-ports";

/** The kernel's ephemeral range (what binding port 0 and connecting out take ports from). */
export function ephemeralRange(file = "/proc/sys/net/ipv4/ip_local_port_range"): [number, number] {
  try {
    const [lo, hi] = readFileSync(file, "utf8").trim().split(/\s+/).map(Number);
    if (Number.isInteger(lo) && Number.isInteger(hi) && (lo as number) <= (hi as number))
      return [lo as number, hi as number];
  } catch {}
  return [32768, 60999]; // Linux's default
}

/**
 * Where private servers' ports come from: outside the ephemeral range, so nothing that binds port
 * 0 or connects out is handed one; below it from 20000 (above the registered services most
 * hosts run), else above it. At least 1000 ports, or none (then freePort, said by the caller).
 */
export function privateRange(ephemeral = ephemeralRange()): [number, number] | undefined {
  const [lo, hi] = ephemeral;
  if (lo - 1 - 20000 >= 1000) return [20000, lo - 1];
  if (65535 - (hi + 1) >= 1000) return [hi + 1, 65535];
  return undefined;
}

/**
 * tiup's default component ports (PD 2379/2380, TiDB 4000/10080, TiKV 20160/20180, TiFlash 3930,
 * 20170, 20292, 8234, Prometheus 9090, Grafana 3000, ng-monitoring 12020, TiCDC 8300, Pump 8250,
 * Drainer 8249), by their last three digits: a playground moves them by --port-offset (10000s), a
 * cluster's instances by 1000s. A private server is never handed one, so a playground or cluster
 * of this run or another on the machine finds its ports free.
 */
const TIDB_PORT_TAILS = new Set([379, 380, 0, 80, 160, 180, 930, 170, 292, 234, 90, 20, 300, 250, 249]);

/** Whether a TiDB deployment's components may listen on this port (TIDB_PORT_TAILS). */
export const tidbPort = (port: number): boolean => TIDB_PORT_TAILS.has(port % 1000);

/** This process's claims: port → its claim file. */
const claimed = new Map<number, string>();
let releaseAtExit = false;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};

/**
 * Claims `port` for this process: its claim file (the owner's pid) linked into place, so a claim
 * is never seen half written; one whose owner is gone is taken over.
 */
function claim(dir: string, port: number): boolean {
  const file = join(dir, String(port));
  const mine = join(dir, `.${port}.${process.pid}`);
  writeFileSync(mine, `${process.pid}\n`);
  try {
    for (let tries = 0; tries < 2; tries++) {
      try {
        linkSync(mine, file);
        return true;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST" || !takeOverStale(dir, file)) return false;
      }
    }
    return false;
  } finally {
    unlinkSync(mine);
  }
}

/**
 * A claim whose owner is gone, moved aside (rename is atomic) and removed; true when the port may
 * be claimed again. Moved aside by another claimant meanwhile, or renewed by one (another file
 * than the one read), it is left to them.
 */
function takeOverStale(dir: string, file: string): boolean {
  let seen: number;
  let owner: number;
  try {
    seen = statSync(file).ino;
    owner = Number(readFileSync(file, "utf8").trim());
  } catch {
    return true; // gone meanwhile
  }
  if (owner === process.pid || (Number.isInteger(owner) && owner > 0 && alive(owner))) return false;
  const aside = join(dir, `.stale.${process.pid}.${basename(file)}`);
  try {
    renameSync(file, aside);
  } catch {
    return false;
  }
  const same = statSync(aside).ino === seen;
  if (!same)
    try {
      linkSync(aside, file); // another's fresh claim: put back
    } catch {}
  unlinkSync(aside);
  return same;
}

const bindable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });

/**
 * A port for a private server: outside the kernel's ephemeral range (privateRange), claimed for
 * this process in PORT_CLAIMS so another tiperf run on the machine is never handed it, and free
 * on 127.0.0.1 right now. Claims go when the process ends (or with a dead owner, to the next
 * claimant). Without such a range, a kernel-chosen port (freePort).
 */
export async function privatePort(
  o: {
    claims?: string;
    range?: [number, number];
    /** Whether the port is free on 127.0.0.1 now (default: bind it and let go). */
    free?: (port: number) => Promise<boolean>;
  } = {},
): Promise<number> {
  const picked = TEST_PICKS.shift();
  if (picked !== undefined) return picked;
  const range = o.range ?? privateRange();
  if (!range) return freePort();
  const dir = o.claims ?? PORT_CLAIMS();
  mkdirSync(dir, { recursive: true, mode: 0o1777 });
  if (!releaseAtExit) {
    releaseAtExit = true;
    process.once("exit", () => {
      for (const file of claimed.values())
        try {
          unlinkSync(file);
        } catch {}
    });
  }
  const [lo, hi] = range;
  const size = hi - lo + 1;
  const start = Math.floor(Math.random() * size);
  for (let i = 0; i < size; i++) {
    const port = lo + ((start + i) % size);
    if (tidbPort(port) || claimed.has(port) || !claim(dir, port)) continue;
    claimed.set(port, join(dir, String(port)));
    if (await (o.free ?? bindable)(port)) return port;
  }
  throw new Error(`no free port in ${lo}–${hi} (every one claimed in ${dir} or in use)`);
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
