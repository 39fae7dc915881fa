// A playground carried out: `tiup playground` started from its planned command line, ready when
// it says so, its TiDB port read from its output; stopped with SIGINT and its data removed.
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { RunError } from "../../../../errors.ts";
import { record } from "../../../../lifecycle/ledger.ts";
import { writeAtomic } from "../../../../proc/files.ts";
import { processState, type ServerProcess, startServerProcess } from "../../../../proc/process.ts";
import { shellCommand } from "../../../../proc/quote.ts";
import type { Endpoint } from "../../../types.ts";
import { stepKey } from "../../steps.ts";
import { tiupHome, tiupProgram } from "../../tiup.ts";
import { readPlayground } from "../../tiup-output.ts";
import type { FormRuntime, Running } from "../types.ts";
import { playgroundStatus, playgroundTidbPort } from "./ports.ts";
import type { PlaygroundDeployment } from "./types.ts";

/** Each running playground's `tiup playground` process (the form's own record of what it started). */
const playgrounds = new WeakMap<Running, ServerProcess>();

export const playgroundRuntime: FormRuntime<PlaygroundDeployment> = {
  targetKind: "tidb-playground",
  build: (d) => d.binpaths.tidb,
  async start(ctx, d, _setup, signal) {
    const argv = ctx.argv(stepKey.start(d));
    const logFile = join(ctx.rawDir, `tiup-playground-${d.name}.log`);
    await writeAtomic(logFile, `$ ${shellCommand(argv)}\n`);
    const dataDir = join(tiupHome(), "data", d.name);
    const server = startServerProcess(tiupProgram(), argv.slice(1), { logFile });
    const forget = await record({
      resource: "playground",
      what: `tiup playground --tag ${d.name}`,
      pid: server.pid,
      path: dataDir,
      signal: "SIGINT",
    }).catch(() => async () => {});
    let stopping = false;
    const stop = async () => {
      stopping = true;
      ctx.planned(stepKey.stop(d));
      await server.stop("SIGINT", 60_000);
      await rm(dataDir, { recursive: true, force: true });
      await forget();
    };
    const died = server.exited.then((how) =>
      stopping
        ? new Promise<string>(() => {})
        : `tiup playground ${d.name} exited (code ${how.code}, signal ${how.signal})`,
    );
    const deadline = Date.now() + 15 * 60_000;
    let state = readPlayground("");
    while (Date.now() < deadline && !signal.aborted) {
      state = readPlayground(await readFile(logFile, "utf8").catch(() => ""));
      if (state.ready && state.endpoints.length) break;
      if (!server.isAlive() || state.failure) {
        await stop();
        throw new RunError(
          `tiup playground ${d.name} did not start: ${state.failure ?? `it exited`}\n(raw output: ${logFile})`,
        );
      }
      await new Promise((res) => setTimeout(res, 250));
    }
    if (!state.ready) {
      await stop();
      throw new RunError(
        `tiup playground ${d.name} did not report ready ("TiDB Playground Cluster is started") within 15 min${signal.aborted ? " (stopped)" : ""} (raw output: ${logFile})`,
      );
    }
    const sql = state.endpoints[0] as Endpoint;
    const expected = playgroundTidbPort(d);
    if (sql.port !== expected)
      ctx.log(
        `tiup playground ${d.name}: port ${expected} was busy; TiDB listens on ${sql.port} (read from its output)`,
      );
    const running: Running = {
      deployment: d,
      endpoints: state.endpoints,
      sql,
      status: playgroundStatus(d),
      pids: () => [server.pid],
      died,
      stop,
      up: true,
      loaded: new Set(),
      users: 0,
      restarts: 0,
      counting: [],
    };
    playgrounds.set(running, server);
    return running;
  },

  state: (_d, r) => {
    const server = playgrounds.get(r);
    return server ? `tiup playground (pid ${server.pid}) is ${processState(server.pid)}` : "not started";
  },
  watch: async (_ctx, _setup, d, r) => async () =>
    playgrounds.get(r)?.isAlive() === false ? `tiup playground ${d.name} is gone` : undefined,
};
