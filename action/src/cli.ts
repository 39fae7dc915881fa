import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { parseSysbench, SysbenchParseError } from "./driver/sysbench-parse.ts";
import { EXIT, InputError, TiperfError } from "./errors.ts";
import { runSpec } from "./pipeline/run.ts";
import { loadSpec } from "./spec/load.ts";
import { Interrupted, installSignalTeardown, teardownAll } from "./teardown.ts";

const USAGE = `tiperf — performance regression checks for TiDB

Usage:
  tiperf run --spec FILE [--out DIR]       run a spec's matrix on its target; results in DIR/<run-id>/
  tiperf parse sysbench FILE               print one sysbench output, parsed, as JSON
  tiperf help                              this text

Exit status: 0 done, 1 regression, 2 bad input, 3 a run failed, 130/143 interrupted.`;

const log = (line: string) => process.stderr.write(`${line}\n`);

type Flags = Record<string, { type: "string" | "boolean"; short?: string }>;

function flags<T extends Flags>(command: string, args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    const allowed = Object.keys(options)
      .map((k) => `--${k}`)
      .join(", ");
    throw new InputError(
      `tiperf ${command}: ${(e as Error).message.split("\n")[0]} (allowed: ${allowed || "none"})`,
    );
  }
}

function required(command: string, name: string, value: string | boolean | undefined): string {
  if (typeof value !== "string" || value === "")
    throw new InputError(`tiperf ${command}: --${name} is required`);
  return value;
}

async function cmdRun(args: string[], signal: AbortSignal): Promise<number> {
  const { values, positionals } = flags("run", args, { spec: { type: "string" }, out: { type: "string" } });
  if (positionals.length > 0)
    throw new InputError(`tiperf run: unexpected argument ${positionals[0]}; use --spec FILE`);
  const loaded = await loadSpec(required("run", "spec", values.spec));
  const outcome = await runSpec(loaded, {
    outDir: (values.out as string | undefined) ?? "results",
    log,
    signal,
  });
  log(`report: ${outcome.runDir.reportPath}`);
  process.stdout.write(`${outcome.runDir.reportPath}\n`);
  return outcome.exitCode;
}

async function cmdParse(args: string[]): Promise<number> {
  const { positionals } = flags("parse", args, {});
  const [tool, file, extra] = positionals;
  if (tool !== "sysbench")
    throw new InputError(`tiperf parse: the tool must be sysbench (got ${tool ?? "nothing"})`);
  if (!file || extra) throw new InputError("tiperf parse sysbench: give exactly one FILE");
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new InputError(
      `tiperf parse sysbench: ${file}: cannot read the file (${(e as NodeJS.ErrnoException).code})`,
    );
  }
  try {
    process.stdout.write(`${JSON.stringify(parseSysbench(text), null, 2)}\n`);
  } catch (e) {
    if (e instanceof SysbenchParseError) throw new InputError(`${file}: ${e.message}`);
    throw e;
  }
  return EXIT.ok;
}

export async function main(argv: string[]): Promise<number> {
  const abort = new AbortController();
  installSignalTeardown(abort, log);
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "run":
        return await cmdRun(rest, abort.signal);
      case "parse":
        return await cmdParse(rest);
      case undefined:
      case "help":
      case "--help":
      case "-h":
        process.stdout.write(`${USAGE}\n`);
        return command === undefined ? EXIT.badInput : EXIT.ok;
      default:
        throw new InputError(`tiperf: unknown command ${command}; commands: run, parse, help`);
    }
  } catch (e) {
    if (abort.signal.reason instanceof Interrupted) {
      log(`error: ${(e as Error).message}`);
      return abort.signal.reason.exitCode;
    }
    log(e instanceof TiperfError ? `error: ${e.message}` : `error: ${(e as Error).stack ?? e}`);
    return e instanceof TiperfError ? e.exitCode : EXIT.runFailed;
  } finally {
    await teardownAll(log);
  }
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
