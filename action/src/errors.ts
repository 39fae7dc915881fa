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
