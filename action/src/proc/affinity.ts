import { cpus } from "node:os";
import { RunError } from "../errors.ts";
import { runCommand } from "./process.ts";

/** The CPU indexes in a taskset-style list ("0-2,5"). */
export function cpuIndexes(list: string): number[] {
  return list.split(",").flatMap((part) => {
    const [a, b] = part.split("-").map(Number) as [number, number | undefined];
    return b === undefined ? [a] : Array.from({ length: b - a + 1 }, (_, i) => a + i);
  });
}

/** Refuses a CPU list naming CPUs this machine does not have, saying which it has. */
export function checkCpus(key: string, list: string): void {
  const n = cpus().length;
  const bad = cpuIndexes(list).filter((c) => c >= n);
  if (bad.length > 0)
    throw new RunError(
      `${key}: CPU ${bad.join(", ")} does not exist here (this machine has CPUs 0-${n - 1})`,
    );
}

/** Pins every thread of each process to `list` (taskset -a -p; children forked later inherit it). */
export async function pinProcesses(pids: number[], list: string, key: string): Promise<void> {
  checkCpus(key, list);
  for (const pid of pids) {
    const r = await runCommand("taskset", ["-a", "-p", "-c", list, String(pid)]);
    if (r.code !== 0)
      throw new RunError(`${key}: taskset could not pin pid ${pid} to CPUs ${list}: ${r.stderr.trim()}`);
  }
}
