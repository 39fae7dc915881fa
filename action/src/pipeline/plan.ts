// `tiperf plan`: everything a run would do, written out for review before an hour of cluster time.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { cloudPlanText, estimateCost } from "../cloud/aws/resources.ts";
import { runHours } from "../cloud/estimate.ts";
import { driverOf } from "../drivers/registry.ts";
import { shellCommand } from "../proc/quote.ts";
import { writeAtomic } from "../result/store.ts";
import type { LoadedSpec } from "../specfile/load.ts";
import type { Spec } from "../specfile/schema.ts";
import { planFor } from "../targets/tidb/index.ts";
import { type Deployment, loadEndpoints, planText, type TidbPlan } from "../targets/tidb/plan.ts";
import type { Connection } from "../targets/types.ts";

export interface RunPlan {
  text: string;
  /** File name → contents (topologies, TOML configs, haproxy.cfg, plan.txt). */
  files: Record<string, string>;
  tidb?: TidbPlan;
}

/** Where the load tools connect in a TiDB plan (the first deployment's variant is measured first). */
export function planConnection(plan: TidbPlan): Connection {
  const d = plan.deployments[0] as Deployment;
  return { protocol: "mysql", endpoints: loadEndpoints(plan, d), user: "root", password: "" };
}

/** The load tools' command lines for every workload: data steps once per data set, a run per thread count. */
function loadCommands(spec: Spec, connection: Connection, where: string): string[] {
  const lines: string[] = [];
  // a data set is loaded once for the workloads that share it (as the bench does), cleaned up last
  const cleanups = new Map<string, () => void>();
  for (const w of spec.workloads) {
    const driver = driverOf(w.driver);
    const tool = driver.findTool(w.script) ?? { command: w.driver, prefix: [] };
    const ctx = (threads: number) => ({
      workload: w,
      threads,
      connection,
      ...(spec.data ? { data: spec.data } : {}),
    });
    const line = (phase: string, args: string[], about = `workload ${w.name}`) =>
      lines.push(
        `  [${phase}]${where} ${shellCommand([tool.command, ...tool.prefix, ...args])}    # ${about}`,
      );
    const key = `${w.driver}:${driver.dataKey(w, spec.data)}`;
    if (!cleanups.has(key)) {
      for (const s of driver.setup(ctx(Math.max(...w.threads)))) line(s.phase, s.args);
      cleanups.set(key, () => {
        for (const s of driver.cleanup(ctx(1))) line(s.phase, s.args, `data of ${w.name}`);
      });
    }
    for (const t of w.threads) line("cell", driver.run(ctx(t)).args);
  }
  for (const cleanup of cleanups.values()) cleanup();
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
  const cloud =
    tidb.profile.provider === "aws"
      ? cloudPlanText(tidb.profile, estimateCost(tidb.profile, runHours(loaded)), {
          runId: "<run id>",
          expiresAt: `<start + ${tidb.profile.aws?.ttl}>`,
          repository: "<owner/repo>",
          pr: "<pr or none>",
        })
      : "";
  const text = `${cloud}${planText(tidb)}${loadCommands(spec, planConnection(tidb), where).join("\n")}\n`;
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
