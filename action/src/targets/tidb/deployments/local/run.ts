// A private tidb-server carried out: started from its planned command line (tiup installs the
// release first if it must), restarted in place between blocks, stopped by PID.
import { join } from "node:path";
import { RunError } from "../../../../errors.ts";
import { findTool } from "../../../../proc/env.ts";
import { startOnFreePort } from "../../../../proc/port.ts";
import { processState } from "../../../../proc/process.ts";
import { dataDirFacts } from "../../../local/server.ts";
import { CodeCounters } from "../../counting.ts";
import { stepKey } from "../../steps.ts";
import { tiupHome } from "../../tiup.ts";
import type { FormRuntime, Restart, Running } from "../types.ts";
import { countersSocket, serverProgram, serverStatus } from "./args.ts";
import { type RunningServer, startTidbServer } from "./server.ts";
import type { ServerDeployment } from "./types.ts";

/** Each running deployment's private server (the form's own record of what it started). */
const servers = new WeakMap<Running, RunningServer>();

function serverOf(r: Running): RunningServer {
  const local = servers.get(r);
  if (!local) throw new Error(`no private tidb-server started for ${r.deployment.name}`);
  return local;
}

export const serverRuntime: FormRuntime<ServerDeployment> = {
  targetKind: "tidb-server",
  build: (d) => d.binpath,
  async start(ctx, d, setup, signal) {
    const program = serverProgram(d, tiupHome());
    if (!d.binpath && findTool(program) === undefined && findTool("tiup"))
      await ctx.tiupRun(ctx.argv(stepKey.install(d)), `install tidb ${d.version}`, signal, 900);
    const start = ctx.filled(stepKey.start(d));
    const local = await startOnFreePort(
      () =>
        startTidbServer({
          d,
          command: (start.run as { command: string[] }).command,
          env: (start.run as { env?: Record<string, string> }).env ?? {},
          program,
          logDir: ctx.logDirOf(setup.name) ?? join(ctx.rawDir, d.name),
          ...(setup.resources ? { resources: setup.resources } : {}),
        }),
      (line) => ctx.log(`tidb-server ${d.name}: ${line}`),
    );
    ctx.addFill(local.fill);
    ctx.planned(stepKey.copy(d));
    ctx.planned(stepKey.start(d));
    ctx.log(
      `tidb-server ${d.name} (pid ${local.life.server.pid}) on 127.0.0.1:${local.port}, status ${local.statusPort}, data in ${local.workDir}`,
    );
    const sql = { host: "127.0.0.1", port: local.port };
    const running: Running = {
      deployment: d,
      endpoints: [sql],
      sql,
      status: serverStatus(d),
      pids: () => [local.life.server.pid],
      // a restart makes a new process: the death that counts is the current one's
      get died() {
        return local.life.died;
      },
      facts: () => ({ data_dir: dataDirFacts(local.workDir) }),
      stop: async () => {
        ctx.planned(stepKey.stop(d));
        await local.life.stop();
      },
      up: true,
      loaded: new Set(),
      users: 0,
      restarts: 0,
      // the socket is in its work directory: a restart serves the same one
      counting: d.counting ? [new CodeCounters(local.fill(countersSocket(d)))] : [],
    };
    // a counting build that serves no counters is said now, not found as cells without a cost
    for (const c of running.counting)
      await c.read().catch(async (e: Error) => {
        await local.life.stop();
        throw new RunError(
          `tidb-server ${d.name} is to be a counting build (target.counting) but its counters cannot be read: ${e.message}`,
        );
      });
    servers.set(running, local);
    return running;
  },
  state: (_d, r) => {
    const pid = serverOf(r).life.server.pid;
    return `tidb-server (pid ${pid}) is ${processState(pid)}`;
  },
  // its death is the run's `died`; nothing else to watch around a cell
  watch: async () => async () => undefined,
};

/** A new process on the same data directory (compare.blocks). */
export const serverRestarts: Restart<ServerDeployment> = {
  seconds: 8,
  async restart(ctx, d, setup, r) {
    const local = serverOf(r);
    const before = local.life.server.pid;
    ctx.planned(stepKey.restart(d));
    await local.restart();
    await ctx.checkConfig(setup, r);
    return `tidb-server ${d.name} pid ${before} → ${local.life.server.pid}`;
  },
};
