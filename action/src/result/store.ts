import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { z } from "zod";
import { InputError } from "../errors.ts";
import { formatIssues } from "../spec/load.ts";
import { RESULT_FORMAT, RESULT_VERSION, type Result, ResultSchema } from "./model.ts";

export function newRunId(specName: string, now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `${stamp}-${specName}-${randomBytes(2).toString("hex")}`;
}

/** Write-then-rename, so a reader (or a crash) never sees half a file. */
export async function writeAtomic(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(3).toString("hex")}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}

/** results/<run-id>/: result.json, report.md, raw/ (every tool's output), server/ (server logs). */
export class RunDir {
  constructor(readonly dir: string) {}

  static async create(outDir: string, runId: string): Promise<RunDir> {
    const run = new RunDir(join(outDir, runId));
    await mkdir(join(run.dir, "raw"), { recursive: true });
    return run;
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
}

export async function writeResult(file: string, result: Result): Promise<void> {
  const checked = ResultSchema.parse(result);
  await writeAtomic(file, `${JSON.stringify(checked, null, 2)}\n`);
}

/** Reads a versioned tiperf JSON file (result, verdict); a corrupt or foreign file is an error naming it. */
export async function readModel<T>(
  file: string,
  kind: string,
  format: string,
  version: number,
  schema: z.ZodType<T>,
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
  const head = raw as { format?: unknown; version?: unknown } | null;
  if (head?.format !== format)
    throw new InputError(`${file}: not a tiperf ${kind} (format must be "${format}")`);
  if (head.version !== version) {
    throw new InputError(
      `${file}: ${kind} version ${String(head.version)} is not supported (this tiperf reads version ${version})`,
    );
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new InputError(formatIssues(file, parsed.error.issues));
  return parsed.data;
}

/** Reads and validates a result file; a corrupt or foreign file is an error naming it. */
export function readResult(file: string): Promise<Result> {
  return readModel(file, "result", RESULT_FORMAT, RESULT_VERSION, ResultSchema);
}
