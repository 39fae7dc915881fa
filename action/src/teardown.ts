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

export function pendingTeardowns(): string[] {
  return stack.map((c) => c.name);
}

let installed = false;
/**
 * On SIGINT/SIGTERM: abort running work, tear everything down, exit 130/143.
 * A second signal while tearing down is ignored: half-finished teardown leaves servers behind.
 */
export function installSignalTeardown(abort: AbortController, log: (line: string) => void): void {
  if (installed) return;
  installed = true;
  let stopping = false;
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      log(`tiperf: ${signal} received: stopping and tearing down`);
      abort.abort(new Error(`interrupted by ${signal}`));
      void teardownAll(log).finally(() => process.exit(code));
    });
  }
}
