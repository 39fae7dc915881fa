// tidb-server built from a source tree at a commit (target.source): one checkout per tree, kept
// beside it and moved from commit to commit, so Go's build cache — which keys a package by its
// directory unless the build uses -trimpath — makes the next commit's build incremental; each
// commit's binary kept, so no commit is built twice.
import { createHash } from "node:crypto";
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { basename, isAbsolute, join, resolve } from "node:path";
import { inherited } from "../../environment.ts";
import { BuildFailed, InputError, RunError } from "../../errors.ts";
import { commitAt, git } from "../../proc/git.ts";
import { runTool } from "../../proc/tool.ts";
import { parseDuration } from "../../yaml/keys.ts";
import { isObj } from "../../yaml/merge.ts";
import type { SourceBuilder } from "../source-build.ts";
import { COUNTING_FILE, COUNTING_GO, type CountSpec, countingBuild, coverFlags } from "./counting.ts";
import { deployerOf } from "./deployments/registry.ts";
import { loadProfile } from "./load-profile.ts";
import type { TidbTargetSpec } from "./schema.ts";
import { unseenOnUnistore } from "./unseen.ts";

export type SourceSpec = NonNullable<TidbTargetSpec["source"]>;

/** One commit's build: what it is, where its binary is, and what it cost. */
export interface Build {
  commit: string;
  subject: string;
  binary: string;
  /** Seconds the build took (when it was built, not when it was found kept). */
  seconds: number;
  /** Found kept from an earlier build: nothing ran. */
  kept: boolean;
  log: string;
}

/** Where builds are kept: $TIPERF_BUILDS, else tiperf/builds under the user's cache directory. */
export function buildsRoot(env: NodeJS.ProcessEnv = inherited()): string {
  if (env.TIPERF_BUILDS) return resolve(env.TIPERF_BUILDS);
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "tiperf", "builds");
}

/** A tree's own directory under the root: its name and a hash of its real path. */
export function treeDir(path: string, root = buildsRoot()): string {
  const real = realpathSync(path);
  return join(root, `${basename(real)}-${createHash("sha256").update(real).digest("hex").slice(0, 10)}`);
}

/** Builds differ by commit and by how they are made (command, binary, environment). */
export function buildKey(commit: string, src: SourceSpec): string {
  const how = createHash("sha256")
    .update(
      JSON.stringify([
        src.build,
        src.binary,
        Object.entries(src.env ?? {}).sort(),
        // a counting build is another binary of the same commit
        ...(src.count ? [countOf(src)] : []),
      ]),
    )
    .digest("hex")
    .slice(0, 8);
  return `${commit}-${how}`;
}

/** target.source.count with its defaults filled in. */
function countOf(src: SourceSpec): CountSpec {
  return typeof src.count === "object" ? src.count : { main: "cmd/tidb-server" };
}

/** How a commit is built, as the plan says it: the spec's environment and command, a counting build's flags and file. */
export function howBuilt(src: SourceSpec): string {
  const env = Object.entries(src.env ?? {}).map(([k, v]) => `${k}=${v} `);
  const count = src.count ? countOf(src) : undefined;
  const counting = count
    ? ` with GOFLAGS=${coverFlags(count.packages?.length ? count.packages : ["<module>/..."])} and ${COUNTING_FILE} in ${count.main} (a counting build; <module>: the tree's go.mod module)`
    : "";
  return `${env.join("")}${src.build.join(" ")}${counting}`;
}

/** git in the build checkout; a failure names the step. */
async function gitStep(path: string, args: string[], what: string): Promise<void> {
  const r = await git(path, args, 600_000);
  if (r.code !== 0) throw new RunError(`${what}: git ${args.join(" ")} failed: ${r.err}`);
}

/** A ref of the tree as a full commit SHA and its subject; bad refs name the key and the tree. */
export async function resolveCommit(
  path: string,
  ref: string,
  key = "target.source.ref",
): Promise<{ commit: string; subject: string }> {
  if (!existsSync(path)) throw new InputError(`target.source.path: ${path} does not exist`);
  if ((await git(path, ["rev-parse", "--show-toplevel"])).code !== 0)
    throw new InputError(`target.source.path: ${path} is not a git repository`);
  const c = await commitAt(path, ref);
  if ("error" in c) throw new InputError(`${key}: ${ref} is not a commit of ${path} (${c.error})`);
  return c;
}

/** The variables of the caller a build keeps: Go's own (GOPATH, GOCACHE, GOFLAGS, GOTOOLCHAIN …). */
function buildEnv(src: SourceSpec): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(inherited()))
    if (v !== undefined && /^(GO[A-Z0-9_]*|CGO_[A-Z_]+|CC|CXX)$/.test(k)) out[k] = v;
  return { ...out, ...(src.env ?? {}) };
}

/** The kept binary of a commit, if it was built before (no build runs). */
export function keptBuild(path: string, commit: string, src: SourceSpec): string | undefined {
  const file = join(treeDir(path), buildKey(commit, src), "tidb-server");
  return existsSync(file) ? file : undefined;
}

/** Bytes of a size like 10G, 500M (binary units). */
export function sizeBytes(size: string): number {
  const m = /^(\d+(?:\.\d+)?)([MG])$/.exec(size);
  if (!m) throw new InputError(`target.source.keep: must be a size like 10G or 800M (got ${size})`);
  return Number(m[1]) * (m[2] === "G" ? 2 ** 30 : 2 ** 20);
}

/** Binaries this process built or found kept: never pruned under it. */
const inUse = new Set<string>();

/**
 * The tree's kept builds within `cap` bytes: the least recently used go first (a build's use is
 * the time of its build.json, touched whenever it is found kept), never one this process uses.
 * Returns the build directories removed.
 */
export function pruneBuilds(dir: string, cap: number): string[] {
  if (!existsSync(dir)) return [];
  const builds = readdirSync(dir)
    .map((name) => join(dir, name))
    .filter((d) => existsSync(join(d, "build.json")) && existsSync(join(d, "tidb-server")))
    .map((d) => ({
      d,
      used: statSync(join(d, "build.json")).mtimeMs,
      bytes: readdirSync(d).reduce((n, f) => n + statSync(join(d, f)).size, 0),
    }))
    .sort((a, b) => a.used - b.used);
  let total = builds.reduce((n, b) => n + b.bytes, 0);
  const removed: string[] = [];
  for (const b of builds) {
    if (total <= cap) break;
    if (inUse.has(join(b.d, "tidb-server"))) continue;
    rmSync(b.d, { recursive: true, force: true });
    total -= b.bytes;
    removed.push(b.d);
  }
  return removed;
}

/**
 * One builder per tree at a time: the checkout is shared. A lock file with the holder's pid; a
 * holder that is gone (killed) does not block the next.
 */
function lock(dir: string): () => void {
  const file = join(dir, "lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const holder = Number(readFileSync(file, "utf8"));
      let alive = false;
      try {
        process.kill(holder, 0);
        alive = holder > 0;
      } catch {}
      if (alive)
        throw new RunError(
          `${dir}: another tiperf (pid ${holder}) is building in this tree's checkout; wait for it`,
        );
      rmSync(file, { force: true });
    }
  }
  throw new RunError(`${dir}: cannot take the build lock`);
}

/** The spec's build command in the checkout (a counting build: tiperf's file in, GOFLAGS, its file out). */
async function runBuild(
  src: SourceSpec,
  tree: string,
  what: string,
  logFile: string,
  opts: { log: (line: string) => void; signal?: AbortSignal },
) {
  const counting = src.count ? countingBuild(tree, countOf(src), buildEnv(src)) : undefined;
  if (counting) writeFileSync(counting.file, COUNTING_GO);
  const [command, ...args] = src.build as [string, ...string[]];
  opts.log(
    `build ${what}: ${src.build.join(" ")} (in ${tree})${counting ? `, counting: GOFLAGS=${counting.env.GOFLAGS} and ${COUNTING_FILE} in ${countOf(src).main}` : ""}`,
  );
  // a relative command is the tree's own script; a bare name is found on the PATH
  const program = command.includes("/") && !isAbsolute(command) ? join(tree, command) : command;
  try {
    return await runTool(program, args, {
      logFile,
      limitS: (parseDuration(src.timeout) ?? 3600) as number,
      env: counting?.env ?? buildEnv(src),
      ...(opts.signal ? { signal: opts.signal } : {}),
      cwd: tree,
    });
  } finally {
    // tiperf's file leaves the checkout with the build: the next commit checks out clean
    if (counting) rmSync(counting.file, { force: true });
  }
}

/**
 * tidb-server of `commit`: kept, or built in the tree's checkout (a git worktree beside the
 * tree, moved to the commit) with the spec's build command, its log beside the binary.
 */
export async function buildAt(
  src: SourceSpec,
  commit: string,
  opts: { log: (line: string) => void; signal?: AbortSignal },
): Promise<Build> {
  const { subject } = await resolveCommit(src.path, commit);
  const dir = treeDir(src.path);
  const out = join(dir, buildKey(commit, src));
  const binary = join(out, "tidb-server");
  const logFile = join(out, "build.log");
  if (existsSync(binary)) {
    const info = JSON.parse(readFileSync(join(out, "build.json"), "utf8")) as { seconds: number };
    opts.log(`build ${commit.slice(0, 10)}: kept from an earlier build (${binary})`);
    inUse.add(binary);
    const now = new Date();
    utimesSync(join(out, "build.json"), now, now);
    return { commit, subject, binary, seconds: info.seconds, kept: true, log: logFile };
  }
  mkdirSync(out, { recursive: true });
  const unlock = lock(dir);
  try {
    const tree = join(dir, "checkout");
    if (!existsSync(join(tree, ".git"))) {
      rmSync(tree, { recursive: true, force: true });
      await gitStep(src.path, ["worktree", "prune"], "the build checkout");
      await gitStep(src.path, ["worktree", "add", "--detach", "--force", tree, commit], "the build checkout");
    } else {
      await gitStep(tree, ["checkout", "--detach", "--force", commit], "the build checkout");
      await gitStep(tree, ["clean", "-ffdq"], "the build checkout");
    }
    const run = await runBuild(src, tree, `${commit.slice(0, 10)} ${subject}`, logFile, opts);
    const tail = run.output.trim().split("\n").slice(-8).join("\n");
    if (run.aborted) throw new RunError(`build of ${commit.slice(0, 10)} stopped: ${run.aborted}`);
    if (run.timedOut)
      throw new RunError(
        `build of ${commit.slice(0, 10)} ran past target.source.timeout (${src.timeout}); its log: ${logFile}`,
      );
    if (run.code !== 0)
      throw new BuildFailed(
        `build of ${commit.slice(0, 10)} (${subject}) failed: ${src.build.join(" ")} exited ${run.code ?? run.signal}; its log: ${logFile}\n${tail}`,
        commit,
      );
    const made = join(tree, src.binary);
    if (!existsSync(made))
      throw new BuildFailed(
        `build of ${commit.slice(0, 10)}: ${src.build.join(" ")} exited 0 but left no ${src.binary} (target.source.binary) in the checkout; its log: ${logFile}`,
        commit,
      );
    copyFileSync(made, `${binary}.part`);
    chmodSync(`${binary}.part`, 0o755);
    const seconds = Math.round(run.elapsed_s * 10) / 10;
    writeFileSync(
      join(out, "build.json"),
      `${JSON.stringify({ commit, subject, seconds, build: src.build }, null, 2)}\n`,
    );
    renameSync(`${binary}.part`, binary);
    inUse.add(binary);
    opts.log(`build ${commit.slice(0, 10)}: ${seconds} s`);
    const removed = pruneBuilds(dir, sizeBytes(src.keep ?? "10G"));
    if (removed.length)
      opts.log(
        `builds: ${removed.length} kept build(s) removed, least recently used first, to stay within target.source.keep (${src.keep ?? "10G"})`,
      );
    return { commit, subject, binary, seconds, kept: false, log: logFile };
  } finally {
    unlock();
  }
}

/** tidb-server from a TiDB tree (target.source): the tidb kind's SourceBuilder. */
export const tidbSource: SourceBuilder = {
  program: "tidb-server",
  treeOf(target) {
    if (!isObj(target) || !isObj(target.source)) return undefined;
    const { path, ref } = target.source;
    return {
      path: typeof path === "string" ? path : "",
      ...(typeof ref === "string" ? { ref } : {}),
    };
  },
  defaults: { binary: "bin/tidb-server", timeout: "60m" },
  conflict(target) {
    if (!isObj(target.source)) return undefined;
    const binpath = target.binpath;
    return typeof binpath === "string" || (isObj(binpath) && binpath.tidb)
      ? "source and binpath both name the tidb-server to run: give one"
      : undefined;
  },
  resolve: (tree, ref, key) => resolveCommit(tree, ref, key),
  plannedBinary(source, commit) {
    const src = source as unknown as SourceSpec;
    return keptBuild(src.path, commit, src) ?? `${treeDir(src.path)}/${buildKey(commit, src)}/tidb-server`;
  },
  howBuilt: (source) => howBuilt(source as unknown as SourceSpec),
  build: (source, commit, o) => buildAt(source as unknown as SourceSpec, commit, o),
  buildKey: (source, commit) => buildKey(commit, source as unknown as SourceSpec),
  withBinary(target, binary) {
    const { source: _source, ...rest } = target;
    void _source;
    const binpath = isObj(rest.binpath) ? { ...rest.binpath, tidb: binary } : binary;
    return { ...rest, binpath, ...(isObj(target.source) && target.source.count ? { counting: true } : {}) };
  },
  async unseen(target, tree, base, head, profile) {
    // only a private tidb-server (unistore) leaves TiKV and PD out; a cluster profile runs them
    const file = profile ?? (typeof target.profile === "string" ? target.profile : undefined);
    if (!file) return [];
    const { provider } = await loadProfile(file, profile ? "--profile" : "target.profile");
    if (deployerOf(provider).servers !== "embedded") return [];
    const changed = await git(tree, ["diff", "--name-only", base, head]);
    if (changed.code !== 0)
      throw new RunError(
        `target.source ${tree}: git diff ${base.slice(0, 10)} ${head.slice(0, 10)}: ${changed.err}`,
      );
    const files = changed.out.split("\n").filter(Boolean);
    const goMod = files.includes("go.mod") ? (await git(tree, ["diff", base, head, "--", "go.mod"])).out : "";
    return unseenOnUnistore(files, goMod);
  },
};
