// Where a command's options come from: the command line's flags or the Action's inputs. A door
// gives each option's words and names the option in its own terms (`--seed`, `'seed' input`), so
// one options function per command checks both alike; Refusals says every refused option at once.
import { InputError } from "../errors.ts";

export interface Door {
  /** Who asks, for messages: `tiperf compare`, `mode compare`. */
  who: string;
  /** The words given for an option (its flag's or input's name), or undefined when not given. */
  get(name: string): string | undefined;
  /** The option as this door names it: `--seed`, `'seed' input`. */
  say(name: string): string;
  /** Several options as one name: `--base-ref/--head-ref`, `'base-ref'/'head-ref' inputs`. */
  sayAll(names: readonly string[], joiner: string): string;
  /** An option that must be given, said missing: `tiperf run: --spec is required`, `'spec' input is required in mode run`. */
  missing(name: string): string;
  /** What starts a message about how options go together: `tiperf compare: `, or nothing. */
  prefix: string;
  /** Where relative paths start: the current directory, the workspace. */
  relativeTo: string;
}

/**
 * What a door asked of a command: the request the command runs, and what the door keeps for
 * itself (the command line's `--json` copy of the verdict, written by the door).
 */
export interface Asked<R> {
  request: R;
  json?: string;
}

/** The command line's flags of `tiperf <command>` as parsed. */
export function flagDoor(command: string, values: Record<string, string | boolean | undefined>): Door {
  return {
    who: `tiperf ${command}`,
    get: (name) => {
      const v = values[name];
      return typeof v === "string" && v !== "" ? v : undefined;
    },
    say: (name) => `--${name}`,
    sayAll: (names, joiner) => names.map((n) => `--${n}`).join(joiner),
    missing: (name) => `tiperf ${command}: --${name} is required`,
    prefix: `tiperf ${command}: `,
    relativeTo: "the current directory",
  };
}

/** The Action's inputs in one mode (an input left empty is not given). */
export function inputDoor(mode: string, get: (name: string) => string): Door {
  return {
    who: `mode ${mode}`,
    get: (name) => get(name) || undefined,
    say: (name) => `'${name}' input`,
    sayAll: (names, joiner) =>
      `${names.map((n) => `'${n}'`).join(joiner)} input${names.length > 1 ? "s" : ""}`,
    missing: (name) => `'${name}' input is required in mode ${mode}`,
    prefix: "",
    relativeTo: "the workspace",
  };
}

/** Every refused option of a command, said at once: one line each, each said as an error of its own. */
export class Refused extends InputError {
  constructor(readonly lines: string[]) {
    super(lines.join("\n"));
  }
}

/**
 * Every refused option of one command, collected and then said at once, each line starting with
 * the door's prefix (`tiperf compare: ` on the command line; nothing for the Action's inputs).
 */
export class Refusals {
  readonly lines: string[] = [];

  constructor(private readonly prefix = "") {}

  /** The checked value, or undefined with the refusal kept when the check refuses it. */
  check<T>(f: () => T): T | undefined {
    try {
      return f();
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      this.lines.push(...e.message.split("\n"));
      return undefined;
    }
  }

  /** The same for a check that reads files. */
  async checkAsync<T>(f: () => Promise<T>): Promise<T | undefined> {
    try {
      return await f();
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      this.lines.push(...e.message.split("\n"));
      return undefined;
    }
  }

  refuse(line: string): void {
    this.lines.push(line);
  }

  /** Throws every refusal kept, one per line, each with the door's prefix; nothing when there is none. */
  done(): void {
    const p = this.prefix;
    if (this.lines.length) throw new Refused(this.lines.map((l) => (l.startsWith(p) ? l : `${p}${l}`)));
  }
}
