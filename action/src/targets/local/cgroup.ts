import { existsSync } from "node:fs";
import { mkdir, readFile, rmdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { RunError } from "../../errors.ts";
import { record } from "../../lifecycle/ledger.ts";
import { parents, treeOf } from "../../proc/process.ts";

const ROOT = "/sys/fs/cgroup";
const PERIOD_US = 10_000;

/**
 * What the names of tiperf's cgroups start with: "tiperf-", or TIPERF_CGROUP_PREFIX (letters,
 * digits, - and _), so that a test run can tell its own cgroups from another run's.
 */
export function cgroupPrefix(env: NodeJS.ProcessEnv = process.env): string {
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

/** Sets the quota of cgroup `dir`: `quota` CPUs in every period of PERIOD_US. */
async function writeQuota(flavor: Flavor, dir: string, quota: number): Promise<void> {
  const quotaUs = Math.max(1000, Math.round(quota * PERIOD_US));
  if (flavor.version === 2) {
    await writeFile(join(dir, "cpu.max"), `${quotaUs} ${PERIOD_US}`);
  } else {
    await writeFile(join(dir, "cpu.cfs_period_us"), String(PERIOD_US));
    await writeFile(join(dir, "cpu.cfs_quota_us"), String(quotaUs));
  }
}

/**
 * Changes the CPU quota of a running server that applyResources limited, in the cgroup it is in
 * (as /proc/<pid>/cgroup names it).
 */
export async function setCpuQuota(pid: number, quota: number): Promise<void> {
  const flavor = await cpuFlavor();
  const own = (await readFile(`/proc/${pid}/cgroup`, "utf8"))
    .split("\n")
    .map((line) => line.split(":"))
    .find(([, controllers]) =>
      flavor.version === 2 ? controllers === "" : controllers?.split(",").includes("cpu"),
    )?.[2];
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
  const forget = await record({ kind: "cgroup", what: `cgroup of ${name} ${pid}`, path: dir });
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
