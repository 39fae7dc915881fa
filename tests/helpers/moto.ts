// moto's server: a real EC2 API on 127.0.0.1 (scripts/setup.sh --test installs moto from PyPI),
// started and stopped by the tests, in memory only.
import { type ChildProcess, spawn } from "node:child_process";
import { freePort } from "../../action/src/proc/port.ts";

export interface Moto {
  endpoint: string;
  stop: () => Promise<void>;
}

export async function startMoto(): Promise<Moto> {
  const port = await freePort();
  const child: ChildProcess = spawn("python3", ["-m", "moto.server", "-H", "127.0.0.1", "-p", String(port)], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  child.stderr?.on("data", (d) => {
    err += d;
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`moto server exited: ${err}`);
    try {
      const r = await fetch(`${endpoint}/moto-api/`);
      if (r.ok || r.status < 500) break;
    } catch {}
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`moto server did not answer on ${endpoint} within 60s: ${err}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    endpoint,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
