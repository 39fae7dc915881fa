import { cpus } from "node:os";
import { driverOf } from "../drivers/registry.ts";
import { RunError } from "../errors.ts";
import { anyTool } from "../proc/env.ts";
import type { LoadedSpec } from "../specfile/load.ts";
import type { Spec, Workload } from "../specfile/schema.ts";
import { kindOf } from "../targets/registry.ts";
import type { Need } from "../targets/types.ts";

/** Any one of these programs will do. */

/** The load tools: each workload's driver looks for its own program (on PATH, or `tiup bench`). */
function driverNeeds(spec: Spec): Need[] {
  const byDriver = new Map<string, Workload[]>();
  for (const w of spec.workloads) byDriver.set(w.driver, [...(byDriver.get(w.driver) ?? []), w]);
  return [...byDriver].map(([name, ws]) => {
    const driver = driverOf(name);
    return {
      found: ws.every((w) => driver.findTool(w.script) !== undefined),
      what: `${name} (workload${ws.length > 1 ? "s" : ""} ${ws.map((w) => w.name).join(", ")})`,
      install: driver.install,
    };
  });
}

function needsOf(spec: Spec, remoteLoad: boolean, borrowed: boolean, remoteDeploy: boolean): Need[] {
  // load tools on a profile's load host are looked for there, not here
  const needs: Need[] = remoteLoad ? [] : driverNeeds(spec);
  needs.push(...kindOf(spec.target.kind).needs(spec.target, { remoteLoad, borrowed, remoteDeploy }));
  if (spec.driver?.cpus !== undefined && !remoteLoad)
    needs.push({
      found: anyTool(["taskset"]),
      what: "taskset (driver.cpus)",
      install: "the Debian package util-linux",
    });
  return needs;
}

/**
 * Every program the specs' targets and workloads need, checked before anything starts: a
 * missing one is found now, not as "exited with code 127" after a server was set up.
 */
export function checkTools(
  specs: Spec[],
  o: { remoteLoad?: boolean; borrowed?: boolean; remoteDeploy?: boolean } = {},
): void {
  const missing = new Map<string, Need>();
  for (const spec of specs)
    for (const need of needsOf(spec, o.remoteLoad ?? false, o.borrowed ?? false, o.remoteDeploy ?? false))
      if (!need.found) missing.set(need.what, need);
  if (missing.size === 0) return;
  const list = [...missing.values()].map((n) => `- ${n.what}: install ${n.install}`).join("\n");
  const debian = [...missing.values()].some((n) => n.install.startsWith("the Debian package"));
  const tools = [...missing.values()].some((n) => !n.install.startsWith("the Debian package"));
  const hint = [
    debian ? "scripts/setup.sh installs the Debian packages" : "",
    tools ? "go-tpc and go-ycsb are in no Debian package: put them (or tiup) on PATH" : "",
  ].filter(Boolean);
  throw new RunError(`not installed here, so nothing was started:\n${list}\n(${hint.join("; ")})`);
}

/** Where the spec cannot measure what it says; warned about, never refused. */
export function specWarnings(
  loaded: LoadedSpec,
  command: "run" | "compare",
  cores = cpus().length,
  /** The load tools run on a load host: this machine's CPUs say nothing of them. */
  remoteLoad = false,
  /** The servers run elsewhere (a cluster): these CPUs are the load tool's alone. */
  remoteServers = false,
): string[] {
  const out: string[] = [];
  const { spec, variants } = loaded;
  // a duet gives each pair (server and load tool) its own share of the CPUs
  const pairs = variants?.compare.order === "duet" ? variants.all.length : 1;
  const per = Math.max(1, Math.floor(cores / pairs));
  spec.workloads.forEach((w, i) => {
    const heavy = remoteLoad ? [] : w.threads.filter((t) => t > 32 * per);
    if (heavy.length > 0) {
      out.push(
        remoteServers
          ? `workloads[${i}] (${w.name}): threads ${heavy.join(", ")} from this machine's ${per} CPU(s), where the load tool runs: such a cell may measure the load tool more than the servers (a load host with more CPUs, or fewer threads)`
          : `workloads[${i}] (${w.name}): threads ${heavy.join(", ")} on ${per} CPU(s)${pairs > 1 ? " (a duet pair's set)" : ""} shared by the server and the load tool: such a cell measures scheduling more than the server`,
      );
    }
  });
  if (spec.variants) {
    const names = Object.keys(spec.variants);
    if (command === "run") {
      out.push(
        `variants (${names.join(", ")}): tiperf run measures the spec as written, without any variant's overlay; tiperf compare runs them`,
      );
    } else if (variants) {
      const unused = names.filter((n) => !variants.all.some((v) => v.name === n));
      if (unused.length > 0) {
        out.push(
          `variants.${unused.join(", variants.")}: not run: tiperf compare runs compare.base (${variants.base.name}) against compare.head (${variants.head.name})`,
        );
      }
    }
  }
  return out;
}
