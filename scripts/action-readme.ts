// Writes the action's input and output tables into README.md from action/action.yml, between
// the <!-- action-inputs --> markers, and the CLI block from the command table. `--check` fails when the README is out of date.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { parse } from "yaml";
import { usageText } from "../action/src/commands.ts";

interface Field {
  description?: string;
  default?: string;
  required?: boolean;
}
const action = parse(readFileSync("action/action.yml", "utf8")) as {
  inputs: Record<string, Field>;
  outputs: Record<string, Field>;
};
const cell = (s: string | undefined) => (s ?? "").replace(/\s+/g, " ").trim().replace(/\|/g, "\\|");
const table = [
  "| input | default | description |",
  "|---|---|---|",
  ...Object.entries(action.inputs).map(
    ([k, f]) => `| \`${k}\` | ${f.default ? `\`${cell(f.default)}\`` : ""} | ${cell(f.description)} |`,
  ),
  "",
  "| output | description |",
  "|---|---|",
  ...Object.entries(action.outputs).map(([k, f]) => `| \`${k}\` | ${cell(f.description)} |`),
].join("\n");

const START = "<!-- action-inputs: generated from action/action.yml by scripts/action-readme.ts -->";
const END = "<!-- /action-inputs -->";
const readme = readFileSync("README.md", "utf8");

/** Replaces what lies between two markers of `text`. */
function between(text: string, start: string, end: string, body: string): string {
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) {
    console.error(`README.md needs the markers ${start} and ${end}`);
    process.exit(1);
  }
  return `${text.slice(0, a + start.length)}\n${body}\n${text.slice(b)}`;
}

// The CLI block: the same command table `tiperf help` prints (action/src/commands.ts).
const CLI_START = "<!-- cli-usage: generated from action/src/commands.ts by scripts/action-readme.ts -->";
const CLI_END = "<!-- /cli-usage -->";
const withCli = between(readme, CLI_START, CLI_END, `\`\`\`\n${usageText()}\n\`\`\``);
// biome formats markdown too (padded tables): compare and write what it would leave
const formatted = spawnSync("node_modules/.bin/biome", ["format", "--stdin-file-path=README.md"], {
  input: between(withCli, START, END, table),
  encoding: "utf8",
});
if (formatted.status !== 0) {
  console.error(`biome format failed: ${formatted.stderr}`);
  process.exit(1);
}
const next = formatted.stdout;
if (process.argv.includes("--check")) {
  if (next !== readme) {
    console.error("README.md's action input table or CLI block is out of date: run npm run readme");
    process.exit(1);
  }
  console.log("README.md action inputs are up to date");
} else writeFileSync("README.md", next);
