// Writes the action's input and output tables into README.md from action/action.yml, between
// the <!-- action-inputs --> markers. `--check` fails when the README is out of date.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { parse } from "yaml";

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
const a = readme.indexOf(START);
const b = readme.indexOf(END);
if (a < 0 || b < a) {
  console.error(`README.md needs the markers ${START} and ${END}`);
  process.exit(1);
}
// biome formats markdown too (padded tables): compare and write what it would leave
const formatted = spawnSync("node_modules/.bin/biome", ["format", "--stdin-file-path=README.md"], {
  input: `${readme.slice(0, a + START.length)}\n${table}\n${readme.slice(b)}`,
  encoding: "utf8",
});
if (formatted.status !== 0) {
  console.error(`biome format failed: ${formatted.stderr}`);
  process.exit(1);
}
const next = formatted.stdout;
if (process.argv.includes("--check")) {
  if (next !== readme) {
    console.error("README.md's action input table is out of date: run npm run readme");
    process.exit(1);
  }
  console.log("README.md action inputs are up to date");
} else writeFileSync("README.md", next);
