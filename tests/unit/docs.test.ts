// Docs that run: the README stays a five-minute read, every link and path it and docs/ name
// resolves, every spec snippet validates, and every tiperf command they show that needs no server
// (plan, parse, --help) runs and exits 0.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, test } from "node:test";
import { parse } from "yaml";
import { COMMANDS } from "../../action/src/cli/commands.ts";
import { VARIABLES } from "../../action/src/environment.ts";
import { profileJsonSchema, specJsonSchema } from "../../action/src/specfile/json-schema.ts";
import { schemaValidator } from "../helpers/json-schema.ts";
import { ROOT } from "../helpers/paths.ts";
import { cli } from "../helpers/real.ts";

const DOCS = [
  "README.md",
  "CHANGELOG.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const text = (f: string) => readFileSync(join(ROOT, f), "utf8");

/** Fenced blocks of a markdown text with their language. */
function blocks(md: string): { lang: string; body: string }[] {
  const out: { lang: string; body: string }[] = [];
  const re = /^```(\w*)\n([\s\S]*?)^```$/gm;
  for (let m = re.exec(md); m; m = re.exec(md)) out.push({ lang: m[1] ?? "", body: m[2] ?? "" });
  return out;
}

describe("docs that run", () => {
  test("the README is a five-minute read: at most 150 lines, the two set-up commands, a uses: snippet", () => {
    const readme = text("README.md");
    const lines = readme.split("\n").length;
    assert.ok(lines <= 150, `README.md has ${lines} lines`);
    assert.match(readme, /scripts\/smoke\.sh/);
    assert.match(readme, /scripts\/test\.sh/);
    assert.match(readme, /uses: tiperf\/tiperf\/action@v1/);
  });

  test("every relative link and every repository path in backquotes resolves", () => {
    const missing: string[] = [];
    for (const f of DOCS) {
      const md = text(f);
      for (const m of md.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
        const target = m[1] as string;
        if (/^[a-z]+:/.test(target)) continue;
        if (!existsSync(join(ROOT, dirname(f), target))) missing.push(`${f}: (${target})`);
      }
      for (const m of md.matchAll(
        /`((?:docs|bench|action|workloads|infra|scripts|tests|baselines|\.github)\/[\w./-]+)`/g,
      )) {
        const path = (m[1] as string).replace(/[.,]$/, "");
        if (path.includes("*") || path.includes("<") || path.includes("node_modules")) continue;
        if (!existsSync(join(ROOT, path))) missing.push(`${f}: \`${path}\``);
      }
    }
    assert.deepEqual(missing, []);
  });

  test("the README's spec snippets are valid specs", () => {
    const ajv = schemaValidator();
    const valid = ajv.compile(specJsonSchema());
    const specs = blocks(text("README.md")).filter((b) => b.lang === "yaml" && /^workloads:/m.test(b.body));
    assert.ok(specs.length >= 1);
    for (const s of specs) assert.ok(valid(parse(s.body)), `${s.body}\n${JSON.stringify(valid.errors)}`);
  });

  test("every YAML block in README and docs/ parses; specs and profiles validate against their schemas", () => {
    const ajv = schemaValidator();
    const spec = ajv.compile(specJsonSchema());
    const profile = ajv.compile(profileJsonSchema());
    const wrong: string[] = [];
    let specs = 0;
    for (const f of DOCS)
      for (const b of blocks(text(f)).filter((x) => x.lang === "yaml" || x.lang === "yml")) {
        let doc: unknown;
        try {
          doc = parse(b.body);
        } catch (e) {
          wrong.push(
            `${f}: a YAML block does not parse (${(e as Error).message.split("\n")[0]}):\n${b.body}`,
          );
          continue;
        }
        const top = doc && typeof doc === "object" && !Array.isArray(doc) ? Object.keys(doc) : [];
        // a whole spec (name, target, workloads) or a whole profile; fragments only parse
        const check =
          top.includes("workloads") && top.includes("target")
            ? spec
            : top.includes("roles") && top.includes("provider")
              ? profile
              : undefined;
        if (!check) continue;
        if (check === spec) specs++;
        if (!check(doc)) wrong.push(`${f}: ${JSON.stringify(check.errors?.slice(0, 3))}\n${b.body}`);
      }
    assert.ok(specs >= 2, `${specs} whole specs in the docs`);
    assert.deepEqual(wrong, []);
  });

  test("every tiperf command shown in README and docs/: the command and its flags exist, the repository files it names exist", () => {
    const wrong: string[] = [];
    let seen = 0;
    for (const f of DOCS)
      for (const b of blocks(text(f)).filter((x) => x.lang === "sh" || x.lang === "bash"))
        for (const raw of b.body.split("\n")) {
          const m =
            /^(?:.*&& )?(?:node (?:\S*\/)?action\/dist\/cli\.js|tiperf|npx tsx action\/src\/cli\.ts) (.*?)(?:\s+#.*)?$/.exec(
              raw.trim(),
            );
          if (!m) continue;
          seen++;
          const [name, ...args] = (m[1] as string).split(/\s+/);
          if (name === "help" || name === "--version" || name === "--help") continue;
          const command = COMMANDS.find((c) => c.name === name);
          if (!command) {
            wrong.push(`${f}: tiperf ${name}: no such command`);
            continue;
          }
          for (const a of args) {
            const flag = /^--([\w-]+)/.exec(a)?.[1];
            if (flag && flag !== "help" && !(flag in command.flags))
              wrong.push(`${f}: tiperf ${name} has no --${flag}`);
            if (
              /^(workloads|infra|action|docs|bench|tests|scripts)\/[\w./-]+$/.test(a) &&
              !existsSync(join(ROOT, a))
            )
              wrong.push(`${f}: tiperf ${name} … ${a}: no such file`);
          }
        }
    assert.ok(seen >= 5, `${seen} commands`);
    assert.deepEqual(wrong, []);
  });

  test("every plan, parse and --help command shown in README and docs/ runs and exits 0", async () => {
    const commands: string[] = [];
    for (const f of DOCS)
      for (const b of blocks(text(f)).filter((x) => x.lang === "sh"))
        for (const line of b.body.split("\n")) {
          const m = /^(?:node action\/dist\/cli\.js|tiperf) (.*?)(?:\s+#.*)?$/.exec(line.trim());
          if (m && /^(plan|parse|help)\b|--help\b/.test(m[1] as string)) commands.push(m[1] as string);
        }
    assert.ok(commands.length >= 3, commands.join("\n"));
    for (const c of commands) {
      const run = cli(c.split(/\s+/));
      assert.equal((await run.done).code, 0, `tiperf ${c}\n${run.stderr()}`);
    }
  });
});

describe("the environment tiperf reads is one documented list", () => {
  test("docs/cli.md names every variable of action/src/environment.ts, and no other TIPERF_ one", () => {
    const doc = text("docs/cli.md");
    const table = [...doc.matchAll(/^\| `(\w+)`\s*\|/gm)].map((m) => m[1]);
    for (const name of Object.keys(VARIABLES))
      assert.ok(table.includes(name), `docs/cli.md: ${name} is not in the table`);
    for (const name of table.filter((n) => n?.startsWith("TIPERF_")))
      assert.ok(name && name in VARIABLES, `docs/cli.md lists ${name}, which tiperf does not read`);
  });

  test("only action/src/environment.ts reads process.env", () => {
    const readers: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
        const rel = `${dir}/${e.name}`;
        if (e.isDirectory()) walk(rel);
        else if (rel.endsWith(".ts") && text(rel).includes("process.env")) readers.push(rel);
      }
    };
    walk("action/src");
    assert.deepEqual(readers, ["action/src/environment.ts"]);
  });
});
