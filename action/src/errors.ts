import { getSystemErrorMap } from "node:util";

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

/** A commit whose server did not build (its build command failed or left no binary): bisect skips it. */
export class BuildFailed extends RunError {
  constructor(
    message: string,
    readonly commit: string,
  ) {
    super(message);
    this.name = "BuildFailed";
  }
}

/** `ENOSPC (no space left on device)`: the errno and what it means (libuv's words), for one-line messages. */
export function errnoText(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (!code) return (e as Error | undefined)?.message ?? String(e);
  const known = [...getSystemErrorMap().values()].find(([name]) => name === code)?.[1];
  return `${code} (${known ?? (e as Error).message.replace(/^\w+: /, "").split(",")[0]})`;
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
