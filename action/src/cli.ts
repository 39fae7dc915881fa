// tiperf's command line, one of the two doors to the pipeline (the Action is the other): this file
// reads the command and hands its arguments to that command's runner in cli/<command>.ts; the
// command table (flags, synopses, help) is cli/commands.ts.

import { log } from "./cli/args.ts";
import { COMMANDS } from "./cli/commands.ts";
import { commandUsage, usageText } from "./cli/help.ts";
import { cmdAlarm } from "./commands/alarm/cli.ts";
import { cmdBaseline } from "./commands/baseline/cli.ts";
import { cmdBisect } from "./commands/bisect/cli.ts";
import { cmdCalibrate } from "./commands/calibrate/cli.ts";
import { cmdComment } from "./commands/comment/cli.ts";
import { cmdCompare } from "./commands/compare/cli.ts";
import { cmdDiff } from "./commands/diff/cli.ts";
import { Refused } from "./commands/door.ts";
import { cmdExport } from "./commands/export/cli.ts";
import { cmdHistory } from "./commands/history/cli.ts";
import { cmdInit } from "./commands/init/cli.ts";
import { cmdMerge } from "./commands/merge/cli.ts";
import { cmdParse } from "./commands/parse/cli.ts";
import { cmdPlan } from "./commands/plan/cli.ts";
import { cmdPullRequest } from "./commands/pull-request/cli.ts";
import { cmdReap } from "./commands/reap/cli.ts";
import { cmdReport } from "./commands/report/cli.ts";
import { cmdRun } from "./commands/run/cli.ts";
import { EXIT, errnoText, InputError, TiperfError } from "./errors.ts";
import {
  Interrupted,
  installCrashTeardown,
  installSignalTeardown,
  teardownAll,
} from "./lifecycle/teardown.ts";
import { TIPERF_VERSION } from "./version.ts";

/** One line for an error: a file-system error by its path and errno, a bug with its stack. */
function describeError(e: unknown): string {
  if (e instanceof TiperfError) return e.message;
  const fsError = e as NodeJS.ErrnoException;
  if (fsError?.code && fsError.path) return `${fsError.syscall ?? "access"} ${fsError.path}: ${errnoText(e)}`;
  return (e as Error)?.stack ?? String(e);
}

/** Each command's runner: its arguments after the command's name (cli/<command>.ts). */
const RUNNERS: Record<string, (args: string[], signal: AbortSignal) => Promise<number>> = {
  run: cmdRun,
  compare: cmdCompare,
  calibrate: cmdCalibrate,
  merge: cmdMerge,
  bisect: cmdBisect,
  diff: cmdDiff,
  baseline: cmdBaseline,
  report: cmdReport,
  comment: cmdComment,
  export: cmdExport,
  history: cmdHistory,
  alarm: cmdAlarm,
  "pull-request": cmdPullRequest,
  plan: cmdPlan,
  reap: cmdReap,
  parse: cmdParse,
  init: cmdInit,
};

const commandList = () => COMMANDS.map((c) => c.name).join(", ");

/** What the command line asks when it is not a command's run: help, a command's synopsis, the version. */
function answered(command: string | undefined, rest: string[]): number | undefined {
  const asked = COMMANDS.find((c) => c.name === (command === "help" ? rest[0] : command));
  // tiperf help COMMAND, tiperf COMMAND --help: that command's synopsis, whatever else was given
  if (asked && (command === "help" || rest.includes("--help") || rest.includes("-h"))) {
    process.stdout.write(`${commandUsage(asked)}\n`);
    return EXIT.ok;
  }
  if (command === "--version" || command === "version") {
    process.stdout.write(`tiperf ${TIPERF_VERSION}\n`);
    return EXIT.ok;
  }
  if (command === undefined || ["help", "--help", "-h"].includes(command)) {
    if (command === "help" && rest[0])
      throw new InputError(`tiperf help: no command ${rest[0]}; commands: ${commandList()}`);
    process.stdout.write(`${usageText()}\n`);
    return command === undefined ? EXIT.badInput : EXIT.ok;
  }
  return undefined;
}

export async function main(argv: string[]): Promise<number> {
  const abort = new AbortController();
  installSignalTeardown(abort, log);
  installCrashTeardown(log, describeError);
  const [command, ...rest] = argv;
  try {
    const done = answered(command, rest);
    if (done !== undefined) return done;
    const runner = RUNNERS[command as string];
    if (!runner) throw new InputError(`tiperf: unknown command ${command}; commands: ${commandList()}`);
    return await runner(rest, abort.signal);
  } catch (e) {
    if (abort.signal.reason instanceof Interrupted) {
      log(`error: ${(e as Error).message}`);
      return abort.signal.reason.exitCode;
    }
    // every refused option is an error line of its own, each saying whose it is
    for (const line of e instanceof Refused ? e.lines : [describeError(e)]) log(`error: ${line}`);
    return e instanceof TiperfError ? e.exitCode : EXIT.runFailed;
  } finally {
    await teardownAll(log);
  }
}

// Exit as soon as the command is done: a retry timer of a request given up on (the GitHub
// deadline) must not keep the process alive. Output to pipes and files is synchronous on Linux.
main(process.argv.slice(2)).then((code) => process.exit(code));
