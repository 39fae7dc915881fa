import { randomBytes } from "node:crypto";
import { accessSync, constants, existsSync, realpathSync, statfsSync, statSync } from "node:fs";
import { mkdir, open, readFile, rm, rmdir, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { z } from "zod";
import { errnoText, InputError, WriteError } from "../errors.ts";
import { writeAtomic } from "../proc/files.ts";
import { isObj } from "../yaml/merge.ts";
import { formatIssues } from "../yaml/read.ts";
import { RESULT_MIGRATIONS } from "./migrate.ts";
import { RESULT_FORMAT, RESULT_VERSION, type Result, ResultSchema } from "./model.ts";

export function newRunId(specName: string, now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `${stamp}-${specName}-${randomBytes(2).toString("hex")}`;
}

/** Filesystems that hold kernel state, not files: a results directory there cannot work. */
const PSEUDO_FS: Record<number, string> = {
  40864: "proc",
  1650812274: "sysfs",
  7377: "devpts",
  2613483: "cgroup",
  1667723888: "cgroup2",
  1684170528: "debugfs",
  1953653091: "tracefs",
  1935894131: "securityfs",
  1650812272: "configfs",
  3405662737: "bpf",
};

function nearestExisting(path: string): string {
  let p = resolve(path);
  while (!existsSync(p) && dirname(p) !== p) p = dirname(p);
  return p;
}

/**
 * A directory tiperf will write results into: created if missing, and refused up front, naming the
 * flag and the errno, when it cannot be (a regular file, no permission, a read-only or kernel
 * filesystem). A full disk is not bad input: it fails the run (exit 3).
 */
export async function checkOutDir(dir: string, flag = "--out"): Promise<void> {
  const existing = nearestExisting(dir);
  let real = existing;
  try {
    real = realpathSync(existing);
  } catch {}
  let fsName: string | undefined;
  try {
    fsName = PSEUDO_FS[Number(statfsSync(real).type)];
  } catch {}
  if (fsName || /^\/(proc|sys|dev)(\/|$)/.test(real)) {
    throw new InputError(
      `${flag} ${dir}: ${real} is on the kernel's ${fsName ?? real.split("/")[1]} filesystem, not a place for results; choose a directory on a disk`,
    );
  }
  if (existsSync(dir) && !statSync(dir).isDirectory())
    throw new InputError(`${flag} ${dir}: exists and is not a directory`);
  try {
    // level by level: a recursive mkdir reports ENOENT where the cause is EROFS or EACCES
    const missing: string[] = [];
    for (let p = resolve(dir); p !== existing; p = dirname(p)) missing.unshift(p);
    if (!statSync(existing).isDirectory()) throw Object.assign(new Error(existing), { code: "ENOTDIR" });
    accessSync(existing, constants.W_OK | constants.X_OK);
    for (const p of missing)
      await mkdir(p).catch((e) => (e.code === "EEXIST" ? undefined : Promise.reject(e)));
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOSPC" || code === "EDQUOT") throw new WriteError(dir, e);
    throw new InputError(`${flag} ${dir}: cannot write there: ${errnoText(e)}`);
  }
}

/** A file tiperf will write at the end (--json): its directory must take it. */
export async function checkOutFile(file: string, flag: string): Promise<void> {
  if (existsSync(file) && statSync(file).isDirectory())
    throw new InputError(`${flag} ${file}: is a directory; give a file name`);
  await checkOutDir(dirname(resolve(file)), flag);
}

/** Overwrites a file in place: the last resort when a full disk has no room for a second copy. */
async function writeInPlace(file: string, text: string): Promise<void> {
  try {
    const fh = await open(file, "r+");
    try {
      const data = Buffer.from(text);
      await fh.write(data, 0, data.length, 0);
      await fh.truncate(data.length);
    } finally {
      await fh.close();
    }
  } catch (e) {
    throw new WriteError(file, e);
  }
}

/**
 * Space set aside in every run directory when it is created and given back when the run ends, so
 * that a disk filled during the run (by its raw logs or by anything else) still has room for the
 * final result.json that says the run failed.
 */
const RESERVE_BYTES = 1 << 20;

const isNoSpace = (e: unknown) =>
  e instanceof WriteError && ["ENOSPC", "EDQUOT"].includes((e.cause as NodeJS.ErrnoException)?.code ?? "");

/** results/<run-id>/: result.json, report.md, raw/ (every tool's output), server/ (server logs). */
export class RunDir {
  /** Forgets the run's ledger entry once its result is final (set by the pipeline). */
  forget: () => Promise<void> = async () => {};

  constructor(readonly dir: string) {}

  static async create(outDir: string, runId: string): Promise<RunDir> {
    await checkOutDir(outDir);
    const run = new RunDir(join(outDir, runId));
    try {
      await mkdir(join(run.dir, "raw"), { recursive: true });
    } catch (e) {
      throw new WriteError(join(run.dir, "raw"), e);
    }
    try {
      await writeFile(run.reservePath, Buffer.alloc(RESERVE_BYTES));
    } catch (e) {
      // nothing of this run is worth keeping: leave no empty directories and no partial file
      await rm(run.reservePath, { force: true }).catch(() => {});
      await rmdir(join(run.dir, "raw")).catch(() => {});
      await rmdir(run.dir).catch(() => {});
      throw new WriteError(run.reservePath, e);
    }
    return run;
  }

  get reservePath(): string {
    return join(this.dir, ".reserve");
  }

  /** Gives the reserved space back (at the end of a run, or when a write found the disk full). */
  async release(): Promise<void> {
    await rm(this.reservePath, { force: true }).catch(() => {});
  }

  get resultPath(): string {
    return join(this.dir, "result.json");
  }
  get reportPath(): string {
    return join(this.dir, "report.md");
  }
  get serverLogDir(): string {
    return join(this.dir, "server");
  }
  raw(name: string): string {
    return join(this.dir, "raw", name);
  }

  async writeResult(result: Result): Promise<void> {
    await writeResult(this.resultPath, result);
  }

  /**
   * The last write of a run's result: the reserve is given back first, and should the disk still
   * be too full for a second copy, the file is overwritten in place. Whatever the run ended with,
   * result.json says so.
   */
  async writeFinalResult(result: Result): Promise<void> {
    await this.release();
    const text = resultText(result);
    try {
      await writeAtomic(this.resultPath, text);
    } catch (e) {
      if (!isNoSpace(e)) throw e;
      await writeInPlace(this.resultPath, text);
    }
  }
}

/** A result as written: schema-checked, pretty JSON. */
const resultText = (result: Result) => `${JSON.stringify(ResultSchema.parse(result), null, 2)}\n`;

export async function writeResult(file: string, result: Result): Promise<void> {
  await writeAtomic(file, resultText(result));
}

/** Each older version of a file to the next: version → migration. */
export type Migrations = Record<number, (raw: Record<string, unknown>) => Record<string, unknown>>;

/** A parsed file of an older version taken to `version`, one version at a time, as far as `migrations` go. */
export function migrated(raw: unknown, version: number, migrations: Migrations): unknown {
  let doc = raw;
  for (
    let step = 0;
    step < 10 && isObj(doc) && typeof doc.version === "number" && doc.version !== version;
    step++
  ) {
    const migrate = migrations[doc.version];
    if (!migrate) break;
    doc = migrate(doc);
  }
  return doc;
}

/** Reads a versioned tiperf JSON file (result, verdict); a corrupt or foreign file is an error naming it. */
export async function readModel<T>(
  file: string,
  kind: string,
  format: string,
  version: number,
  schema: z.ZodType<T>,
  migrations: Migrations = {},
): Promise<T> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, "utf8"));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(
      `${file}: ${code ? `cannot read the file (${code})` : `not valid JSON (${(e as Error).message})`}`,
    );
  }
  const found = (raw as { format?: unknown } | null)?.format;
  if (found !== format) throw new InputError(notThe(file, kind, format, found));
  raw = migrated(raw, version, migrations);
  const head = raw as { version?: unknown };
  if (head.version !== version) {
    const read = [...Object.keys(migrations).map(Number), version].sort((a, b) => a - b);
    throw new InputError(
      `${file}: ${kind} version ${String(head.version)} is not supported (this tiperf reads version${read.length > 1 ? "s" : ""} ${read.join(", ")})`,
    );
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new InputError(formatIssues(file, parsed.error.issues));
  return parsed.data;
}

/**
 * Why a file is not the tiperf model asked for. Another of tiperf's files (a verdict given where a
 * result belongs) is named as what it is, with the run's file of the kind asked for when one lies
 * beside it (a compare run's directory holds result.json and verdict.json).
 */
function notThe(file: string, kind: string, format: string, found: unknown): string {
  const other = typeof found === "string" && found.startsWith("tiperf.") ? found.slice("tiperf.".length) : "";
  if (!other) return `${file}: not a tiperf ${kind} (format must be "${format}")`;
  const beside = join(dirname(file), `${kind}.json`);
  const hint =
    existsSync(beside) && resolve(beside) !== resolve(file) ? `: give ${beside}, the run's ${kind}` : "";
  return `${file}: a tiperf ${other}, not a tiperf ${kind} (format "${found}", must be "${format}")${hint}`;
}

/** The result.json a command is given: the file, or the one in the run directory named. */
export function resultFileOf(given: string): string {
  return existsSync(given) && statSync(given).isDirectory() ? join(given, "result.json") : given;
}

/**
 * Reads and validates a result: its result.json, or the run directory holding it; a corrupt or
 * foreign file is an error naming it.
 */
export async function readResult(given: string): Promise<Result> {
  const file = resultFileOf(given);
  if (file !== given && !existsSync(file))
    throw new InputError(
      `${given}: a directory without result.json: give a run's directory or its result.json`,
    );
  return readModel(file, "result", RESULT_FORMAT, RESULT_VERSION, ResultSchema, RESULT_MIGRATIONS);
}

/**
 * A JSON report of a given `format` in a file (a reap report, a change-point report), or undefined
 * when the file holds something else (a verdict); `check` names what a report of that format lacks.
 */
export async function readReport<T>(
  file: string,
  format: string,
  check: (doc: Partial<T>) => string | undefined,
): Promise<T | undefined> {
  let doc: unknown;
  try {
    doc = JSON.parse(await readFile(file, "utf8"));
  } catch {
    return undefined;
  }
  const r = doc as (Partial<T> & { format?: unknown }) | null;
  if (r?.format !== format) return undefined;
  const missing = check(r);
  if (missing) throw new InputError(`${file}: a ${format} report needs ${missing}`);
  return r as T;
}
