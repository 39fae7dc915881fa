// The command line's shared parts: flags parsed strictly (an unknown one named with the allowed ones),
// required flags, the spec a run composes, numbers and tokens read from flags.
import { parseArgs } from "node:util";
import { setting } from "../environment.ts";
import { InputError } from "../errors.ts";
import { writeAtomic } from "../proc/files.ts";
import { maskSecrets } from "../proc/secrets.ts";
import { DEFAULT_DEADLINES, type Deadlines } from "../publish/github.ts";
import { parseAge } from "../yaml/keys.ts";
import { closest } from "../yaml/read.ts";

export const log = (line: string) => process.stderr.write(`${maskSecrets(line)}\n`);

export type Flags = Record<string, { type: "string" | "boolean"; short?: string }>;

export function flags<T extends Flags>(command: string, args: string[], options: T) {
  // a value that starts with "-" (--shard -1/2, --seed -5) is the flag's value, judged by the
  // flag's own check in tiperf's words, not taken for another flag by the parser
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const name = a.startsWith("--") ? a.slice(2) : "";
    const next = args[i + 1];
    if (options[name]?.type === "string" && next?.startsWith("-") && !next.startsWith("--")) {
      joined.push(`${a}=${next}`);
      i++;
    } else joined.push(a);
  }
  try {
    return parseArgs({ args: joined, options, allowPositionals: true, strict: true });
  } catch (e) {
    const allowed = Object.keys(options)
      .map((k) => `--${k}`)
      .join(", ");
    throw new InputError(
      `tiperf ${command}: ${parseError(e as Error, options)} (allowed: ${allowed || "none"})`,
    );
  }
}

/** What the argument parser refused, in tiperf's words: the flag named, and what it takes. */
function parseError(e: Error & { code?: string }, options: Flags): string {
  const first = e.message.split("\n")[0] ?? "";
  const given = /'(-[^' =]+)/.exec(first)?.[1];
  if (!given) return first;
  const known =
    options[given.replace(/^-+/, "")] ?? Object.values(options).find((o) => `-${o.short}` === given);
  if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" || !known) {
    const near = given.startsWith("--") ? closest(given.slice(2), Object.keys(options)) : undefined;
    return `unknown flag ${given}${near ? ` (did you mean --${near}?)` : ""}`;
  }
  if (e.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE")
    return known.type === "string" ? `${given} needs a value` : `${given} takes no value (it is a switch)`;
  return first;
}

export function required(command: string, name: string, value: string | boolean | undefined): string {
  if (typeof value !== "string" || value === "")
    throw new InputError(`tiperf ${command}: --${name} is required`);
  return value;
}

export async function writeJson(file: string | undefined, value: unknown): Promise<void> {
  if (file) await writeAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}

export function confidenceFlag(command: string, value: unknown): number {
  if (value === undefined) return 0.95;
  const c = Number(value);
  if (!(c > 0.5 && c < 1))
    throw new InputError(
      `tiperf ${command}: --confidence must be a number in (0.5, 1), like 0.95 (got ${value})`,
    );
  return c;
}

export function onePositional(command: string, positionals: string[], what: string): string {
  const [file, extra] = positionals;
  if (!file || extra) throw new InputError(`tiperf ${command}: give exactly one ${what}`);
  return file;
}

export function seconds(command: string, flag: string, value: unknown, fallbackMs: number): number {
  if (value === undefined) return fallbackMs;
  const m = /^(\d+)(ms|s|m)$/.exec(String(value));
  const ms = m ? Number(m[1]) * { ms: 1, s: 1000, m: 60_000 }[m[2] as "ms" | "s" | "m"] : Number.NaN;
  if (!(ms > 0))
    throw new InputError(
      `tiperf ${command}: --${flag} must be a duration like 500ms, 30s or 3m (got ${value})`,
    );
  return ms;
}

/** --timeout (per request) and --deadline (all requests, retries included) of a GitHub command. */
export function deadlines(command: string, values: Record<string, unknown>): Deadlines {
  return {
    requestMs: seconds(command, "timeout", values.timeout, DEFAULT_DEADLINES.requestMs),
    overallMs: seconds(command, "deadline", values.deadline, DEFAULT_DEADLINES.overallMs),
  };
}

export function githubToken(command: string): string {
  const token = setting("GITHUB_TOKEN");
  if (!token)
    throw new InputError(
      `tiperf ${command}: GITHUB_TOKEN is not set (a token that may write to the repository)`,
    );
  return token;
}

export function maxAge(value: string): number {
  const ms = parseAge(value);
  if (ms === undefined)
    throw new InputError(`tiperf reap: --max-age must be like 90m, 3h or 2d (got ${value})`);
  return ms;
}
