import { existsSync } from "node:fs";
import { mkdir, readFile, rmdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { inherited } from "../../environment.ts";
import { RunError } from "../../errors.ts";
import { record } from "../../lifecycle/ledger.ts";
import { parents, treeOf } from "../../proc/process.ts";

const ROOT = "/sys/fs/cgroup";
const PERIOD_US = 10_000;

/**
 * What the names of tiperf's cgroups start with: "tiperf-", or TIPERF_CGROUP_PREFIX (letters,
 * digits, - and _), so that a test run can tell its own cgroups from another run's.
 */
export function cgroupPrefix(env: NodeJS.ProcessEnv = inherited()): string {
  const p = env.TIPERF_CGROUP_PREFIX;
  if (!p) return "tiperf-";
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(p))
    throw new RunError(
      `TIPERF_CGROUP_PREFIX must be letters, digits, - or _ (1 to 40), got ${JSON.stringify(p)}`,
    );
  return p;
}

type Flavor = { version: 2; dir: string } | { version: 1; dir: string };

async function detect(): Promise<Flavor | undefined> {
  const controllers = join(ROOT, "cgroup.controllers");
  if (existsSync(controllers) && (await readFile(controllers, "utf8")).split(/\s+/).includes("cpu")) {
    return { version: 2, dir: ROOT };
  }
  for (const d of ["cpu", "cpu,cpuacct"]) {
    if (existsSync(join(ROOT, d, "cpu.cfs_quota_us"))) return { version: 1, dir: join(ROOT, d) };
  }
  return undefined;
}

/** The server and every process it has forked (PostgreSQL is one process per backend). */
export async function processTree(root: number): Promise<number[]> {
  return treeOf([root], parents());
}

async function cpuFlavor(): Promise<Flavor> {
  const flavor = await detect();
  if (!flavor) {
    throw new RunError(
      "target.resources.cpu_quota: this machine offers neither cgroup v2 cpu.max nor cgroup v1 cpu.cfs_quota_us under /sys/fs/cgroup; remove cpu_quota or run where the cpu controller is available",
    );
  }
  return flavor;
}

/** The kernel's smallest quota (cgroup v2 cpu.max, v1 cpu.cfs_quota_us) and longest period, µs. */
const MIN_QUOTA_US = 1000;
const MAX_PERIOD_US = 1_000_000;

/**
 * `quota` CPUs as the kernel takes them: `quotaUs` of CPU time in every `periodUs`. The period is
 * PERIOD_US, longer where the quota would fall under the kernel's 1 ms minimum (below 10% of a
 * CPU: 5% is 1 ms every 20 ms, not the 10% a clamped 1 ms every 10 ms would be). The plan prints
 * this and the run writes it.
 */
export function cpuMax(quota: number): { quotaUs: number; periodUs: number } {
  const periodUs = Math.min(MAX_PERIOD_US, Math.max(PERIOD_US, Math.ceil(MIN_QUOTA_US / quota)));
  return { quotaUs: Math.max(MIN_QUOTA_US, Math.round(quota * periodUs)), periodUs };
}

/** cgroup v2's cpu.max line for `quota` CPUs: "<quota µs> <period µs>". */
export function cpuMaxText(quota: number): string {
  const { quotaUs, periodUs } = cpuMax(quota);
  return `${quotaUs} ${periodUs}`;
}

/** Sets the quota of cgroup `dir`: `quota` CPUs (cpuMax). */
async function writeQuota(flavor: Flavor, dir: string, quota: number): Promise<void> {
  if (flavor.version === 2) {
    await writeFile(join(dir, "cpu.max"), cpuMaxText(quota));
  } else {
    const { quotaUs, periodUs } = cpuMax(quota);
    await writeFile(join(dir, "cpu.cfs_period_us"), String(periodUs));
    await writeFile(join(dir, "cpu.cfs_quota_us"), String(quotaUs));
  }
}

/** The cgroup of the cpu controller in a /proc/<pid>/cgroup text (v2: the unified one). */
function cpuCgroupOf(flavor: Flavor, text: string): string | undefined {
  return text
    .split("\n")
    .map((line) => line.split(":"))
    .find(([, controllers]) =>
      flavor.version === 2 ? controllers === "" : controllers?.split(",").includes("cpu"),
    )?.[2];
}

/**
 * Changes the CPU quota of a running server that applyResources limited, in the cgroup it is in
 * (as /proc/<pid>/cgroup names it).
 */
export async function setCpuQuota(pid: number, quota: number): Promise<void> {
  const flavor = await cpuFlavor();
  const own = cpuCgroupOf(flavor, await readFile(`/proc/${pid}/cgroup`, "utf8"));
  if (!own || own === "/")
    throw new RunError(`pid ${pid} has no cpu cgroup of its own: start it with target.resources.cpu_quota`);
  await writeQuota(flavor, join(flavor.dir, own), quota);
}

/**
 * Limits a server's CPU to `quota` (1.0 = one full CPU) with a cgroup of its own:
 * cgroup v2 cpu.max, or v1 cpu.cfs_quota_us where that is what the kernel offers.
 * Children forked later inherit the cgroup.
 */
export async function applyResources(
  pid: number,
  quota: number,
  name: string,
): Promise<{ dir: string; remove: () => Promise<void> }> {
  const flavor = await cpuFlavor();
  const dir = join(flavor.dir, `${cgroupPrefix()}${name}-${pid}`);
  const forget = await record({ resource: "cgroup", what: `cgroup of ${name} ${pid}`, path: dir });
  try {
    await mkdir(dir, { recursive: true });
    await writeQuota(flavor, dir, quota);
    for (const p of await processTree(pid)) {
      await writeFile(join(dir, "cgroup.procs"), String(p)).catch(() => {});
    }
  } catch (e) {
    throw new RunError(
      `target.resources.cpu_quota: cannot set up cgroup ${dir} (${(e as Error).message}); tiperf needs write access to the cgroup cpu controller (run as root)`,
    );
  }
  // Called once the server is stopped: a cgroup can be removed once it is empty.
  const remove = async () => {
    for (let i = 0; i < 20; i++) {
      try {
        await rmdir(dir);
        await forget();
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  return { dir, remove };
}

/** A quota cgroup's counters (cgroup cpu.stat), summed over the cgroups a set of processes is in. */
export interface CpuThrottle {
  periods: number;
  throttled_periods: number;
  throttled_s: number;
  /** CPU time used (cgroup v2 usage_usec; v1 cpuacct.usage where mounted). */
  usage_s?: number;
}

/** `key value` lines (cpu.stat) as numbers. */
export function parseCpuStat(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.split("\n")) {
    const [k, v] = line.trim().split(/\s+/);
    if (k && v !== undefined && /^\d+$/.test(v)) out[k] = Number(v);
  }
  return out;
}

/**
 * The quota cgroups tiperf made (by their name's prefix) that any of `pids` is in, their cpu.stat
 * counters summed; undefined when none is (no quota, or not a process of this machine).
 */
export async function cpuThrottle(pids: readonly number[]): Promise<CpuThrottle | undefined> {
  const flavor = await detect();
  if (!flavor) return undefined;
  const dirs = new Set<string>();
  for (const pid of pids) {
    const own = cpuCgroupOf(flavor, await readFile(`/proc/${pid}/cgroup`, "utf8").catch(() => ""));
    if (own?.split("/").pop()?.startsWith(cgroupPrefix())) dirs.add(join(flavor.dir, own));
  }
  if (dirs.size === 0) return undefined;
  const total: CpuThrottle = { periods: 0, throttled_periods: 0, throttled_s: 0 };
  for (const dir of dirs) {
    const stat = parseCpuStat(await readFile(join(dir, "cpu.stat"), "utf8").catch(() => ""));
    total.periods += stat.nr_periods ?? 0;
    total.throttled_periods += stat.nr_throttled ?? 0;
    // v2 throttled_usec; v1 throttled_time in ns
    total.throttled_s += (stat.throttled_usec ?? 0) / 1e6 + (stat.throttled_time ?? 0) / 1e9;
    if (stat.usage_usec !== undefined) total.usage_s = (total.usage_s ?? 0) + stat.usage_usec / 1e6;
  }
  return total;
}

/** What the counters rose by between two readings (undefined when either is missing). */
export function throttleBetween(
  a: CpuThrottle | undefined,
  b: CpuThrottle | undefined,
): CpuThrottle | undefined {
  if (!a || !b) return undefined;
  const r = (x: number) => Math.round(x * 1e6) / 1e6;
  return {
    periods: Math.max(0, b.periods - a.periods),
    throttled_periods: Math.max(0, b.throttled_periods - a.throttled_periods),
    throttled_s: r(Math.max(0, b.throttled_s - a.throttled_s)),
    ...(a.usage_s !== undefined && b.usage_s !== undefined
      ? { usage_s: r(Math.max(0, b.usage_s - a.usage_s)) }
      : {}),
  };
}
