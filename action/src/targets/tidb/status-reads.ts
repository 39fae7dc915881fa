// What a running TiDB deployment's servers say of themselves at run time, over their status ports:
// CPU and allocation profiles, and a counting build's code profile (a regressed cell's evidence), and every counter of their /metrics
// (a cell's cost per operation).
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { COUNTERS_TIMEOUT_MS, goServerCounters } from "../../observe/cost.ts";
import { promCounters } from "../../observe/server-counters.ts";
import type { RemoteHost } from "../../proc/ssh.ts";
import type { CpuProfile } from "../types.ts";
import { codeProfile } from "./code-profile.ts";
import type { Running } from "./deployments/types.ts";

/** How the run reaches the servers' status ports: the plan's addresses filled in, a GET, the bastion's load host if any. */
export interface ServerReach {
  fill(text: string): string;
  getBytes(url: string, limitS: number): Promise<Buffer>;
  via(): RemoteHost | undefined;
}

/**
 * CPU profiles of every TiDB and TiKV server of a running deployment, taken at once over the
 * next `seconds`: Go's /debug/pprof/profile on tidb-server's status port, TiKV's own on its
 * status port (both gzipped pprof protobuf); fetched from here or, behind a bastion, with curl
 * on the load host. A server that does not answer is reported, not fatal.
 */
export async function cpuProfiles(
  at: ServerReach,
  r: Running,
  seconds: number,
  dir: string,
  prefix: string,
): Promise<CpuProfile[]> {
  await mkdir(dir, { recursive: true });
  const take = async (role: "tidb" | "tikv", planned: string, kind: "cpu" | "alloc"): Promise<CpuProfile> => {
    const component = `${role}-server`;
    // a private server's status port, picked at start, stands as <status port of …> in the plan
    const address = at.fill(planned);
    // Go's allocs profile with seconds: the allocations of those seconds alone (a delta)
    const url = `http://${address}/debug/pprof/${kind === "cpu" ? "profile" : "allocs"}?seconds=${seconds}`;
    const file = join(
      dir,
      `${prefix}-${component}-${address.replace(/[^\w.-]+/g, "_")}${kind === "cpu" ? "" : "-alloc"}.pprof`,
    );
    try {
      const data = await at.getBytes(url, seconds + 30);
      if (data.length === 0) throw new Error("an empty answer");
      await writeFile(file, data);
      return { component, address, file, ...(kind === "alloc" ? { measures: kind } : {}) };
    } catch (e) {
      const via = at.via();
      return {
        component,
        address,
        ...(kind === "alloc" ? { measures: kind } : {}),
        error: `GET ${url}${via ? ` (from ${via.host})` : ""}: ${(e as Error).message}`,
      };
    }
  };
  const roles = ["tidb", "tikv"] as const;
  // a counting build's statements per function over the same seconds, by the status address of its server
  const code = r.counting.map((c, i) => {
    const address = at.fill(r.status.tidb?.[i] ?? `tidb-server ${i + 1}`);
    const file = join(dir, `${prefix}-tidb-server-${address.replace(/[^\w.-]+/g, "_")}-stmts.pprof`);
    return codeProfile(c, { seconds, file, address });
  });
  // TiKV is not Go: its CPU profile only
  return Promise.all([
    ...roles.flatMap((role) =>
      (r.status[role] ?? []).flatMap((a) => [
        take(role, a, "cpu"),
        ...(role === "tidb" ? [take(role, a, "alloc")] : []),
      ]),
    ),
    ...code,
  ]);
}

/**
 * The counters of every TiDB, TiKV and PD server (their status ports' /metrics): CPU seconds per
 * component (cpu_s.tikv …) and in all (cpu_s), tidb-server's Go heap allocations, mallocs and
 * GC cycles, and every counter each server exports as `<role>:<series>` (observe/server-counters.ts;
 * summed over the servers of one role). A server that does not answer is left out of this
 * reading (its counters then give no cost for the cell: a counter must be in both readings).
 */
export async function costCounters(at: ServerReach, r: Running): Promise<Record<string, number>> {
  const roles = ["tidb", "tikv", "pd"] as const;
  const read = async (role: (typeof roles)[number], planned: string) => {
    const url = `http://${at.fill(planned)}/metrics`;
    const text = await at.getBytes(url, COUNTERS_TIMEOUT_MS / 1000).then(
      (b) => b.toString("utf8"),
      () => undefined,
    );
    return {
      role,
      counters: text === undefined ? undefined : goServerCounters(text),
      all: text === undefined ? {} : promCounters(text, role),
    };
  };
  const [answers, code] = await Promise.all([
    Promise.all(roles.flatMap((role) => (r.status[role] ?? []).map((a) => read(role, a)))),
    // a counting build's Go statements per source file (undefined: one did not answer)
    Promise.all(r.counting.map((c) => c.read().catch(() => undefined))),
  ]);
  if (answers.some((a) => a.counters === undefined) || code.some((c) => c === undefined)) return {};
  const out: Record<string, number> = {};
  const add = (k: string, v: number | undefined) => {
    if (v !== undefined) out[k] = (out[k] ?? 0) + v;
  };
  for (const counted of code) for (const [k, v] of Object.entries(counted ?? {})) add(k, v);
  const components = new Set(answers.map((a) => a.role));
  for (const { role, counters: c = {}, all } of answers) {
    for (const [k, v] of Object.entries(all)) add(k, v);
    add("cpu_s", c.cpu_s);
    if (components.size > 1) add(`cpu_s.${role}`, c.cpu_s);
    if (role !== "tidb") continue;
    add("alloc_bytes", c.alloc_bytes);
    add("mallocs", c.mallocs);
    add("gc_cycles", c.gc_cycles);
  }
  return out;
}
