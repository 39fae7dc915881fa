/** Exit codes shared by every door onto the pipeline (CLI and GitHub Action). */
export const EXIT = {
  ok: 0,
  regression: 1,
  badInput: 2,
  runFailed: 3,
  sigint: 130,
  sigterm: 143,
} as const;

/** An error a user can act on: says where (file, key, flag) and what is allowed. */
export class TiperfError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.badInput,
  ) {
    super(message);
    this.name = "TiperfError";
  }
}

/** Bad input (spec, flag, file): nothing ran. */
export class InputError extends TiperfError {
  constructor(message: string) {
    super(message, EXIT.badInput);
    this.name = "InputError";
  }
}

/** Something failed while running (server, sysbench, a cell). */
export class RunError extends TiperfError {
  constructor(message: string) {
    super(message, EXIT.runFailed);
    this.name = "RunError";
  }
}

const ERRNO_TEXT: Record<string, string> = {
  ENOSPC: "no space left on device",
  EDQUOT: "disk quota exceeded",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "read-only file system",
  ENOTDIR: "a part of the path is not a directory",
  EEXIST: "exists and is not a directory",
  EISDIR: "is a directory",
  ENOENT: "no such file or directory",
  EIO: "input/output error",
  ENAMETOOLONG: "file name too long",
  EMFILE: "too many open files",
};

/** `ENOSPC (no space left on device)`: the errno and what it means, for one-line messages. */
export function errnoText(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (!code) return (e as Error | undefined)?.message ?? String(e);
  return `${code} (${ERRNO_TEXT[code] ?? (e as Error).message.replace(/^\w+: /, "").split(",")[0]})`;
}

/** A file tiperf had to write could not be written: the run cannot keep its promise to keep it. */
export class WriteError extends RunError {
  constructor(
    readonly path: string,
    override readonly cause: unknown,
  ) {
    super(`cannot write ${path}: ${errnoText(cause)}`);
    this.name = "WriteError";
  }
}
