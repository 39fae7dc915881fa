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
 * The synopsis on lines of at most HELP_WIDTH (a flag longer than that alone on its line), each
 * after the first indented under the command's first argument or flag.
 */
export function synopsisLines(c: CommandSpec, indent = ""): string[] {
  const [tiperf, name, ...rest] = synopsisWords(c);
  const under = " ".repeat(`${indent}${tiperf} ${name} `.length);
  const lines = [`${indent}${tiperf} ${name}`];
  for (const word of rest) {
    const last = lines.length - 1;
    const line = lines[last] as string;
    if (`${line} ${word}`.length <= HELP_WIDTH || line.trim() === `${tiperf} ${name}`)
      lines[last] = `${line} ${word}`;
    else lines.push(`${under}${word}`);
  }
  return lines;
}

/** `tiperf COMMAND --help`: its synopsis and what it does. */
export function commandUsage(c: CommandSpec): string {
  return [...synopsisLines(c), ...c.about.map((a) => `    ${a}`)].join("\n");
}

/** `tiperf help`, and the CLI block of docs/cli.md. */
export function usageText(): string {
  const lines = ["tiperf — performance regression checks for TiDB", "", "Usage:"];
  for (const c of COMMANDS) {
    lines.push(...synopsisLines(c, "  "));
    for (const a of c.about) lines.push(`      ${a}`);
  }
  lines.push(
    "  tiperf --version",
    "",
    "Exit status: 0 done (no regression), 1 regression (or inconclusive with compare.inconclusive:",
    "fail), 2 bad input, 3 a run failed, 130/143 interrupted.",
  );
  return lines.join("\n");
}
