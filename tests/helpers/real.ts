import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./paths.ts";

export const tempDir = (prefix = "tiperf-test-") => mkdtempSync(join(tmpdir(), prefix));

/** A small spec file for real runs: one workload, short cells. */
export function writeSpec(
  dir: string,
  opts: {
    kind?: string;
    threads?: number[];
    duration?: number;
    warmup?: number;
    extra?: string;
    config?: string;
  } = {},
): string {
  const file = join(dir, "spec.yaml");
  writeFileSync(
    file,
    `name: itest
target:
  kind: ${opts.kind ?? "mariadb"}
  config: ${opts.config ?? "{}"}
data: {tables: 2, table_size: 2000}
workloads:
  - name: point_select
    sysbench: oltp_point_select
    threads: [${(opts.threads ?? [1, 2]).join(", ")}]
    duration: ${opts.duration ?? 2}s
    warmup: ${opts.warmup ?? 1}s
    options: {rand-type: uniform}
${opts.extra ?? ""}`,
  );
  return file;
}

/**
 * Private server data directories and processes tiperf may have left behind, in this test run's own
 * temp dir (scripts/run-tests.mjs gives every test run one as TMPDIR): another tiperf run on the
 * machine has its servers elsewhere.
 */
export function leftovers(): { dirs: string[]; processes: string[] } {
  const dirs = readdirSync(tmpdir()).filter((d) => /^tiperf-(mariadb|postgres|tidb)-/.test(d));
  let processes: string[] = [];
  try {
    const mine = `${tmpdir().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/tiperf-(mariadb|postgres|tidb)-`;
    processes = execFileSync("pgrep", ["-af", mine], { encoding: "utf8" })
      .trim()
      .split("\n")
      .filter((l) => l && !l.includes("pgrep"));
  } catch {
    processes = [];
  }
  return { dirs, processes };
}

/** The cgroups of this test run's servers (run-tests.mjs names them with TIPERF_CGROUP_PREFIX). */
export function ownCgroups(): string[] {
  const prefix = process.env.TIPERF_CGROUP_PREFIX || "tiperf-";
  const found: string[] = [];
  for (const dir of ["/sys/fs/cgroup/cpu", "/sys/fs/cgroup"])
    try {
      found.push(...readdirSync(dir).filter((d) => d.startsWith(prefix)));
    } catch {}
  return found;
}

export interface CliRun {
  child: ChildProcess;
  stderr: () => string;
  stdout: () => string;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  waitFor: (re: RegExp, timeoutMs?: number) => Promise<RegExpExecArray>;
}

/** Runs the CLI as a user would, in its own process. */
export function cli(args: string[], env: NodeJS.ProcessEnv = {}, cwd = ROOT, entry?: string): CliRun {
  // scripts/run-tests.mjs bundles the sources once (TIPERF_TEST_CLI); a file run by hand loads them
  // through tsx, as does a test's own entry (tests/helpers/forms/cli.ts: the CLI with a test-only form)
  const bundled = entry ? undefined : process.env.TIPERF_TEST_CLI;
  // tsx as this checkout has it (the run's cwd may be another repository)
  const door = bundled
    ? [bundled]
    : ["--import", import.meta.resolve("tsx"), entry ?? join(ROOT, "action/src/cli.ts")];
  const child = spawn(process.execPath, [...door, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    err += d;
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("close", (code, signal) => resolve({ code, signal })),
  );
  const waitFor = async (re: RegExp, timeoutMs = 120_000) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const m = re.exec(err);
      if (m) return m;
      if (child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${re} in tiperf's stderr:\n${err}`);
  };
  return { child, stderr: () => err, stdout: () => out, done, waitFor };
}
