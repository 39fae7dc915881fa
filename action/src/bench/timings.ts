// How long a target's restarts took where tiperf ran them before: a plan's estimate of a
// comparison with blocks uses the median of the last ones measured on this machine for the same
// kind and profile, not a guess. Kept in $TIPERF_TIMINGS (default: timings.json under tiperf's
// cache directory); TIPERF_TIMINGS=off neither reads nor writes.
import { existsSync, readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { median } from "../compare/stats.ts";
import { inherited } from "../environment.ts";
import { writeAtomic } from "../proc/files.ts";

/** How many of the latest measurements an entry keeps. */
export const KEPT = 20;

type Timings = Record<string, { restart_s?: number[] }>;

/** The timings file, or undefined when timings are off. */
export function timingsFile(env: NodeJS.ProcessEnv = inherited()): string | undefined {
  if (env.TIPERF_TIMINGS === "off") return undefined;
  if (env.TIPERF_TIMINGS) return env.TIPERF_TIMINGS;
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "tiperf", "timings.json");
}

function read(file: string | undefined): Timings {
  if (!file || !existsSync(file)) return {};
  try {
    const doc = JSON.parse(readFileSync(file, "utf8")) as unknown;
    return doc !== null && typeof doc === "object" ? (doc as Timings) : {};
  } catch {
    return {};
  }
}

/** The key of a target's timings: its kind and the profile its machines come from. */
export const timingKey = (t: { kind: string; profile: string }) => `${t.kind}/${t.profile}`;

/** The median of the restarts measured for `key`, and how many; undefined when none is. */
export function measuredRestart(
  key: string,
  file = timingsFile(),
): { seconds: number; n: number } | undefined {
  const xs = read(file)[key]?.restart_s ?? [];
  if (xs.length === 0) return undefined;
  return { seconds: Math.round(median(xs) * 10) / 10, n: xs.length };
}

/** Adds restarts measured for `key` (the latest KEPT kept). A file that cannot be written is skipped. */
export async function recordRestarts(key: string, seconds: number[], file = timingsFile()): Promise<void> {
  if (!file || seconds.length === 0) return;
  const all = read(file);
  const mine = [...(all[key]?.restart_s ?? []), ...seconds.map((s) => Math.round(s * 10) / 10)].slice(-KEPT);
  all[key] = { ...all[key], restart_s: mine };
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeAtomic(file, `${JSON.stringify(all, null, 1)}\n`);
  } catch {
    // an estimate's input, never a reason to fail a run
  }
}
