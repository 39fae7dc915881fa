// Writes the action's input and output tables into docs/action.md from action/action.yml, between
// the <!-- action-inputs --> markers, and the CLI block of docs/cli.md from the command table.
// `--check` fails when either is out of date.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { parse } from "yaml";
import { usageText } from "../action/src/cli/help.ts";

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

/** Replaces what lies between two markers of `text`. */
function between(text: string, start: string, end: string, body: string): string {
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) {
    console.error(`the doc needs the markers ${start} and ${end}`);
    process.exit(1);
  }
  return `${text.slice(0, a + start.length)}\n${body}\n${text.slice(b)}`;
}

// The CLI block: the same command table `tiperf help` prints (action/src/cli/commands.ts).
const CLI_START = "<!-- cli-usage: generated from action/src/cli/commands.ts by scripts/action-readme.ts -->";
const CLI_END = "<!-- /cli-usage -->";

/** A doc with one generated part replaced, as biome formats markdown (padded tables). */
function regenerate(
  file: string,
  start: string,
  end: string,
  body: string,
): { file: string; now: string; next: string } {
  const now = readFileSync(file, "utf8");
  const formatted = spawnSync("node_modules/.bin/biome", ["format", `--stdin-file-path=${file}`], {
    input: between(now, start, end, body),
    encoding: "utf8",
  });
  if (formatted.status !== 0) {
    console.error(`biome format failed: ${formatted.stderr}`);
    process.exit(1);
  }
  return { file, now, next: formatted.stdout };
}

const docs = [
  regenerate("docs/action.md", START, END, table),
  regenerate("docs/cli.md", CLI_START, CLI_END, `\`\`\`\n${usageText()}\n\`\`\``),
];
if (process.argv.includes("--check")) {
  const stale = docs.filter((d) => d.next !== d.now).map((d) => d.file);
  if (stale.length) {
    console.error(`${stale.join(", ")}: the generated part is out of date: run npm run readme`);
    process.exit(1);
  }
  console.log("docs/action.md's inputs and docs/cli.md's CLI block are up to date");
} else for (const d of docs) writeFileSync(d.file, d.next);
