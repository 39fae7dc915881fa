// A plan's step: what `tiperf plan` prints and the run carries out, and how it writes what only
// the run can know.
import { RunError } from "../errors.ts";
import { shellCommand, shellQuote } from "../proc/quote.ts";

/**
 * One thing a run does, as `tiperf plan` prints it and the run carries it out: a program with its
 * arguments, a SQL statement, or an HTTP request (GET, POST, PATCH, DELETE). Values picked at run
 * time (a port, a work directory, a password from the environment) stand as <port>, <workdir of
 * VARIANT>, <password> in the plan; the run fills them in.
 */
export interface PlanStep {
  /** How the run looks the step up (a kind's own name for it). */
  key?: string;
  /** start, record, sql, load, split, cell, switch, restart, cleanup, teardown. */
  phase: string;
  /** The variant it serves (absent: the whole deployment). */
  variant?: string;
  where: "runner" | "load host" | "pod";
  run:
    | {
        command: string[];
        /** Variables the program is started with, besides the clean environment every server gets. */
        env?: Record<string, string>;
      }
    | { sql: string }
    | { get: string }
    | { post: string; body: string }
    | { patch: string; body: string }
    | { delete: string };
  about?: string;
  /** A load tool's step: the watchdog stops it as hung after this many seconds. */
  limit_s?: number;
  /** A load tool without a time limit of its own: SIGINT after this many seconds ends it normally. */
  stop_after_s?: number;
}

/** A plan's port for a server whose port is picked at start: no real one, printed as `<port>`. */
export const PORT_AT_START = 65536;

/** How a plan's step writes a port picked at start (PORT_AT_START); the run fills the real one in. */
export const PORT_TEXT = "<port>";

/** A plan's password for a server whose password the run reads from the environment: never in a plan. */
export const PASSWORD_AT_START = "<password>";

/** The plan's step of this key: a run does only what `tiperf plan` shows, so a missing one is an error. */
export function stepOf(steps: readonly PlanStep[], key: string): PlanStep {
  const step = steps.find((x) => x.key === key);
  if (!step) throw new RunError(`the plan has no step ${key}: a run does only what \`tiperf plan\` shows`);
  return step;
}

/** A step's words with what the run learned filled in (every text of its command, SQL or request). */
export function filledStep(step: PlanStep, fill: (text: string) => string): PlanStep {
  const r = step.run;
  const run: PlanStep["run"] =
    "command" in r
      ? {
          command: r.command.map(fill),
          ...(r.env ? { env: Object.fromEntries(Object.entries(r.env).map(([k, v]) => [k, fill(v)])) } : {}),
        }
      : "sql" in r
        ? { sql: fill(r.sql) }
        : "get" in r
          ? { get: fill(r.get) }
          : "delete" in r
            ? { delete: fill(r.delete) }
            : "patch" in r
              ? { patch: fill(r.patch), body: fill(r.body) }
              : { post: fill(r.post), body: fill(r.body) };
  return { ...step, run };
}

/** A step as one line: a pasteable command, a SQL statement or an HTTP request. */
export function stepLine(s: PlanStep): string {
  const where = s.where === "runner" || s.where === undefined ? "" : ` (${s.where})`;
  const run = s.run;
  const text =
    "sql" in run
      ? `SQL: ${run.sql}`
      : "get" in run
        ? `GET ${run.get}`
        : "post" in run
          ? `POST ${run.post} ${run.body}`
          : "patch" in run
            ? `PATCH ${run.patch} ${run.body}`
            : "delete" in run
              ? `DELETE ${run.delete}`
              : // shell lines in sequence (a restart: "kill -TERM <pid>", then the start), not a path with a placeholder
                /^[a-z][\w-]* /.test(run.command[0] ?? "")
                ? run.command.join(" && ")
                : envCommand(run.env, run.command);
  return `  [${s.phase}]${where} ${text}${s.about ? `    # ${s.about}` : ""}`;
}

/** A command line with its variables before it, as a shell takes them: NAME='value' program args. */
export function envCommand(env: Record<string, string> | undefined, argv: readonly string[]): string {
  return [...Object.entries(env ?? {}).map(([k, v]) => `${k}=${shellQuote(v)}`), shellCommand(argv)].join(
    " ",
  );
}

/** A taken step's command line (undefined: no step was taken, the caller's own words run). */
export function commandOf(step: PlanStep | undefined): string[] | undefined {
  if (!step) return undefined;
  if (!("command" in step.run)) throw new RunError(`plan step ${step.key}: not a command line`);
  return step.run.command;
}

/** A taken step's SQL (undefined: no step was taken, the caller's own words run). */
export function sqlText(step: PlanStep | undefined): string | undefined {
  if (!step) return undefined;
  if (!("sql" in step.run)) throw new RunError(`plan step ${step.key}: not a statement`);
  return step.run.sql;
}
