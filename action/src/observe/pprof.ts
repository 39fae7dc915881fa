// What a CPU profile says at a glance: its busiest functions, as `go tool pprof -top` lists them
// (Go's own pprof reads Go's and TiKV's profiles alike; the names are in the profile). Where Go is
// not installed the profile is kept and the summary left out.
import { findTool } from "../proc/env.ts";
import { runCommand } from "../proc/process.ts";

export interface TopFunction {
  /** Share of the samples in the function itself / in it and what it calls. */
  flat_pct: number;
  cum_pct: number;
  name: string;
}

/** The rows of `go tool pprof -top` output: "flat flat% sum% cum cum% name". */
export function parseTop(text: string): TopFunction[] {
  const out: TopFunction[] = [];
  for (const line of text.split("\n")) {
    const m = /^\s*[\d.]+\w*\s+([\d.]+)%\s+[\d.]+%\s+[\d.]+\w*\s+([\d.]+)%\s+(.+?)\s*$/.exec(line);
    if (m) out.push({ flat_pct: Number(m[1]), cum_pct: Number(m[2]), name: m[3] as string });
  }
  return out;
}

/** The `n` busiest functions of a profile file, or undefined when Go's pprof is not here or fails. */
export async function topFunctions(file: string, n = 8): Promise<TopFunction[] | undefined> {
  const go = findTool("go");
  if (!go) return undefined;
  const r = await runCommand(go, ["tool", "pprof", "-top", `-nodecount=${n}`, file], { timeoutMs: 120_000 });
  if (r.code !== 0) return undefined;
  const rows = parseTop(r.stdout);
  return rows.length ? rows : undefined;
}
