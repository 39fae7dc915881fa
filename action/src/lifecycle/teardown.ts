/**
 * One place that knows what the pipeline started, so it can always be undone:
 * on success, on failure, on Ctrl-C and on SIGTERM. Cleanups run newest first, each once.
 */
type Cleanup = { name: string; run: () => Promise<void> | void };

const stack: Cleanup[] = [];

export function onTeardown(name: string, run: Cleanup["run"]): () => void {
  const entry = { name, run };
  stack.push(entry);
  return () => {
    const i = stack.indexOf(entry);
    if (i >= 0) stack.splice(i, 1);
  };
}

export async function teardownAll(log: (line: string) => void = () => {}): Promise<void> {
  while (stack.length > 0) {
    const entry = stack.pop() as Cleanup;
    try {
      await entry.run();
    } catch (e) {
      log(`teardown: ${entry.name} failed: ${(e as Error).message}`);
    }
  }
}

export class Interrupted extends Error {
  constructor(
    readonly signal: NodeJS.Signals,
    readonly exitCode: number,
  ) {
    super(`interrupted by ${signal}`);
    this.name = "Interrupted";
  }
}

/** Longer graces asked for by what is under way (a cloud stack's create finishing in-flight machines). */
const graces: { ms: number }[] = [];

/**
 * Asks the signal handler to wait at least `ms` for the pipeline to unwind before tearing down
 * directly; returns the function that withdraws the request.
 */
export function holdGrace(ms: number): () => void {
  const token = { ms };
  graces.push(token);
  return () => {
    const i = graces.indexOf(token);
    if (i >= 0) graces.splice(i, 1);
  };
}

let installed = false;
/**
 * On SIGINT/SIGTERM/SIGHUP: abort the running work so the pipeline unwinds in order (the running
 * cell stops, finished cells stay written, servers stop). Should unwinding hang, tear down
 * directly after `graceMs` and exit. A second signal is ignored: half-finished teardown leaves
 * servers behind.
 */
export function installSignalTeardown(
  abort: AbortController,
  log: (line: string) => void,
  graceMs = 60_000,
): void {
  if (installed) return;
  installed = true;
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const) {
    process.on(signal, () => {
      if (abort.signal.aborted) return;
      log(`tiperf: ${signal} received: stopping and tearing down`);
      abort.abort(new Interrupted(signal, code));
      const grace = Math.max(graceMs, ...graces.map((g) => g.ms));
      setTimeout(() => {
        log(`tiperf: still unwinding after ${grace / 1000}s: tearing down directly`);
        void teardownAll(log).finally(() => process.exit(code));
      }, grace).unref();
    });
  }
}

/**
 * The last line of defence: an error nothing caught (an 'error' event without a listener, a
 * rejected promise nobody awaited) still tears down what was started and ends with exit 3, with
 * one line saying what happened, never the regression exit code.
 */
export function installCrashTeardown(log: (line: string) => void, describe: (e: unknown) => string): void {
  let crashed = false;
  const crash = (e: unknown) => {
    if (crashed) return;
    crashed = true;
    log(`error: ${describe(e)}`);
    void teardownAll(log).finally(() => process.exit(3));
  };
  process.on("uncaughtException", crash);
  process.on("unhandledRejection", crash);
}
