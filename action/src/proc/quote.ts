/**
 * Quotes one argument for a POSIX shell (sh, bash, the remote shell of ssh): anything outside a
 * small safe set goes in single quotes, and a single quote becomes '\''. The one quoting function
 * in tiperf: raw logs print commands with it, so a copied line runs exactly what tiperf ran.
 */
export function shellQuote(arg: string): string {
  if (arg === "") return "''";
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** A command line, each argument quoted: safe to paste into a shell. */
export function shellCommand(argv: readonly string[]): string {
  return argv.map(shellQuote).join(" ");
}
