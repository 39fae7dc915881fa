import { readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { RunError } from "../../errors.ts";
import type { ServerProcess } from "../../proc/process.ts";
import type { LocalTargetSpec } from "./schema.ts";

/** A server's log line without its timestamp prefix: what the server said. */
export function words(line: string): string {
  return line.replace(/^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+)?( \w+)? ?(\[\d+\] ?)?(\d+ )?/, "").trim();
}

/** The error lines of a server's logs ([ERROR] for MariaDB, FATAL/ERROR for PostgreSQL). */
export async function serverErrors(files: string[], max = 6): Promise<string[]> {
  const out: string[] = [];
  for (const file of files) {
    let text = "";
    try {
      text = await readFile(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n")) {
      // PostgreSQL says why its sockets failed at LOG level ("could not bind … Address already in use")
      if (!/\[ERROR\]|\bFATAL:|\bERROR:|\bPANIC:/.test(line) && !/Address already in use/i.test(line))
        continue;
      const said = words(line);
      if (said && !out.includes(said)) out.push(said);
    }
  }
  return out.slice(0, max);
}

/** Polls `probe` until it succeeds, the server exits, or `timeoutMs` passes (a bounded loop). */
export async function waitReady(
  what: string,
  server: ServerProcess,
  probe: () => Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const exitedError = async () => {
    const how = await server.exited;
    return new StartupError(`${what} exited during startup (code ${how.code}, signal ${how.signal})`);
  };
  while (Date.now() < deadline) {
    if (!server.isAlive()) throw await exitedError();
    // a probe that hangs (its port answered by another process) does not outlast the server's exit
    const answered = await Promise.race([probe(), server.exited.then(() => "exited" as const)]);
    if (answered === "exited") throw await exitedError();
    if (answered) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new StartupError(`${what} did not accept connections within ${timeoutMs / 1000}s`);
}

/** The server did not come up; the message is completed from its logs once they are kept. */
export class StartupError extends RunError {}

/**
 * Why a server did not start, in its own words, pointing at the copies of its logs kept in the
 * run directory (its work directory is gone by then). A refused `target.config` setting is named.
 */
export async function startupFailure(
  e: unknown,
  o: { what: string; logs: string[]; logDir: string; config: LocalTargetSpec["config"] },
): Promise<unknown> {
  if (!(e instanceof StartupError)) return e;
  const kept = o.logs.map((l) => join(o.logDir, basename(l)));
  const said = await serverErrors(kept);
  const norm = (s: string) => s.toLowerCase().replace(/-/g, "_");
  const refused = Object.keys(o.config).filter((k) => said.some((l) => norm(l).includes(norm(k))));
  const head = refused.length
    ? `target.config: ${o.what} refused ${refused.map((k) => `${k}=${JSON.stringify(o.config[k])}`).join(", ")}`
    : e.message;
  const quoted = said.length ? said.map((l) => `\n  ${l}`).join("") : " (its logs say nothing of why)";
  return new RunError(
    `${head}${refused.length ? ` (${e.message})` : ""}; the server said:${quoted}\nserver logs kept in ${o.logDir}`,
  );
}
