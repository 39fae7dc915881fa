// tiperf's help: each command's synopsis and what it does, from the command table (commands.ts),
// for `tiperf help [COMMAND]`, `COMMAND --help` and docs/cli.md's CLI block.
import { COMMANDS, type CommandSpec } from "./commands.ts";

/** The synopsis's words: `tiperf`, the command, its arguments, then each flag (optional ones in brackets). */
function synopsisWords(c: CommandSpec): string[] {
  const flags = Object.entries(c.flags).map(([k, f]) => {
    const text = `--${k}${f.value ? ` ${f.value}` : ""}`;
    return f.required ? text : `[${text}]`;
  });
  return ["tiperf", c.name, ...(c.args ? [c.args] : []), ...flags];
}

export function synopsis(c: CommandSpec): string {
  return synopsisWords(c).join(" ");
}

/** The widest a help line gets: a synopsis wraps between flags, never inside one. */
const HELP_WIDTH = 100;

/**
 * Units (words, or a flag with its value) filled into lines of at most HELP_WIDTH, after `first`
 * (the start of the first line, or none) and then each line starting with `indent`; a unit too
 * long for any line stands alone on its own.
 */
function filled(units: string[], indent: string, first?: string): string[] {
  const lines = first === undefined ? [] : [first];
  for (const unit of units) {
    const last = lines[lines.length - 1];
    if (last !== undefined && (`${last} ${unit}`.length <= HELP_WIDTH || last === first))
      lines[lines.length - 1] = `${last} ${unit}`;
    else lines.push(`${indent}${unit}`);
  }
  return lines;
}

/**
 * The synopsis on lines of at most HELP_WIDTH (a flag longer than that alone on its line), each
 * after the first indented under the command's first argument or flag.
 */
export function synopsisLines(c: CommandSpec, indent = ""): string[] {
  const [tiperf, name, ...rest] = synopsisWords(c);
  const first = `${indent}${tiperf} ${name}`;
  return filled(rest, " ".repeat(`${first} `.length), first);
}

/** The flags of any command that take a value (`--cloud aws`, a value in lower case). */
const TAKES_VALUE = new Set(
  COMMANDS.flatMap((c) =>
    Object.entries(c.flags)
      .filter(([, f]) => f.type === "string")
      .map(([k]) => k),
  ),
);

/** A flag's value as help writes it (FILE, K/N, VERDICT_JSON, OWNER/REPO, RESULT]): capitals only. */
const VALUE = /^\(?[A-Z][A-Z0-9_/=,…-]*[\])]?[,;:.)]*$/;

/**
 * What a command does, as one paragraph on lines of at most `width`: broken between words, never
 * between a flag and its value (`--shard K/N`) or `tiperf` and its command (`tiperf merge`).
 */
export function aboutLines(c: CommandSpec, indent: string): string[] {
  const words: string[] = [];
  for (const w of c.about.join(" ").split(/\s+/).filter(Boolean)) {
    const prev = words[words.length - 1];
    const flag =
      prev === undefined || prev.includes(" ") ? undefined : /^[[(]?--([a-z][a-z-]*)$/.exec(prev)?.[1];
    const glued =
      prev !== undefined &&
      ((flag !== undefined && (VALUE.test(w) || TAKES_VALUE.has(flag))) ||
        (prev === "tiperf" && /^[a-z]/.test(w)));
    if (glued) words[words.length - 1] = `${prev} ${w}`;
    else words.push(w);
  }
  return filled(words, indent);
}

/** `tiperf COMMAND --help`: its synopsis and what it does. */
export function commandUsage(c: CommandSpec): string {
  return [...synopsisLines(c), ...aboutLines(c, "    ")].join("\n");
}

/** `tiperf help`, and the CLI block of docs/cli.md. */
export function usageText(): string {
  const lines = ["tiperf — performance regression checks for TiDB", "", "Usage:"];
  for (const c of COMMANDS) lines.push(...synopsisLines(c, "  "), ...aboutLines(c, "      "));
  lines.push(
    "  tiperf --version",
    "",
    "Exit status: 0 done (no regression), 1 regression (or inconclusive with compare.inconclusive:",
    "fail), 2 bad input, 3 a run failed, 130/143 interrupted.",
  );
  return lines.join("\n");
}
