// `tiperf plan`: everything a run would do, written out for review before an hour of cluster time.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { driverOf } from "../drivers/registry.ts";
import { shellCommand } from "../proc/quote.ts";
import { writeAtomic } from "../result/store.ts";
import type { LoadedSpec } from "../specfile/load.ts";
import type { Spec } from "../specfile/schema.ts";
import { planFor } from "../targets/tidb/index.ts";
import { PLAYGROUND_PORT_OFFSET, planText, type TidbPlan, tidbEndpoints } from "../targets/tidb/plan.ts";
import type { Connection } from "../targets/types.ts";

export interface RunPlan {
  text: string;
  /** File name → contents (topologies, TOML configs, haproxy.cfg, plan.txt). */
  files: Record<string, string>;
  tidb?: TidbPlan;
}

/** Where the load tools connect in a TiDB plan: HAProxy on the load host, or the TiDB servers. */
export function planConnection(plan: TidbPlan): Connection {
  const d = plan.deployments[0];
  const endpoints =
    d?.kind === "cluster"
      ? plan.haproxy
        ? [{ host: "127.0.0.1", port: plan.profile.haproxy_port }]
        : tidbEndpoints(d)
      : [{ host: "127.0.0.1", port: 4000 + (d?.index ?? 0) * PLAYGROUND_PORT_OFFSET }];
  return { protocol: "mysql", endpoints, user: "root", password: "" };
}

/** The load tools' command lines for every workload: data steps once, a run per thread count. */
function loadCommands(spec: Spec, connection: Connection, where: string): string[] {
  const lines: string[] = [];
  const dataSets = new Set<string>();
  for (const w of spec.workloads) {
    const driver = driverOf(w.driver);
    const tool = driver.findTool(w.script) ?? { command: w.driver, prefix: [] };
    const ctx = (threads: number) => ({
      workload: w,
      threads,
      connection,
      ...(spec.data ? { data: spec.data } : {}),
    });
    const line = (phase: string, args: string[]) =>
      lines.push(
        `  [${phase}]${where} ${shellCommand([tool.command, ...tool.prefix, ...args])}    # workload ${w.name}`,
      );
    // a data set is loaded once for the workloads that share it (as the bench does)
    const key = `${w.driver}:${driver.dataKey(w, spec.data)}`;
    const first = !dataSets.has(key);
    dataSets.add(key);
    if (first) for (const s of driver.setup(ctx(Math.max(...w.threads)))) line(s.phase, s.args);
    for (const t of w.threads) line("cell", driver.run(ctx(t)).args);
  }
  for (const w of spec.workloads) {
    const driver = driverOf(w.driver);
    const key = `${w.driver}:${driver.dataKey(w, spec.data)}`;
    if (!dataSets.delete(key)) continue;
    const tool = driver.findTool(w.script) ?? { command: w.driver, prefix: [] };
    const ctx = { workload: w, threads: 1, connection, ...(spec.data ? { data: spec.data } : {}) };
    for (const s of driver.cleanup(ctx))
      lines.push(
        `  [${s.phase}]${where} ${shellCommand([tool.command, ...tool.prefix, ...s.args])}    # data of ${w.name}`,
      );
  }
  return lines;
}

export async function planRun(loaded: LoadedSpec, o: { profile?: string }): Promise<RunPlan> {
  const spec = loaded.spec;
  if (spec.target.kind !== "tidb") {
    const connection: Connection = {
      protocol: spec.target.kind === "postgres" ? "postgres" : "mysql",
      endpoints: [{ host: "127.0.0.1", port: 0 }],
      user: spec.target.kind === "postgres" ? "postgres" : "root",
      password: "",
    };
    const text = `target: a private ${spec.target.kind} server on 127.0.0.1 (port chosen at start; shown as 0)\n\ncommands:\n${loadCommands(spec, connection, "").join("\n")}\n`;
    return { text, files: { "plan.txt": text } };
  }
  const tidb = await planFor(loaded, {
    ...(o.profile ? { profile: o.profile } : {}),
    prefix: `tiperf-${spec.name}`,
  });
  const where = tidb.load.user ? " (load host)" : "";
  const text = `${planText(tidb)}${loadCommands(spec, planConnection(tidb), where).join("\n")}\n`;
  return { text, files: { ...tidb.files, "plan.txt": text }, tidb };
}

export async function writePlan(plan: RunPlan, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const [name, text] of Object.entries(plan.files)) {
    await writeAtomic(join(dir, name), text);
    written.push(join(dir, name));
  }
  return written;
}
