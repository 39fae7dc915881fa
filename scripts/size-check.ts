// Code in short, named steps and files of one job: no function in action/src longer than LIMIT
// lines, no class longer than CLASS_LIMIT (a class over it holds more than one job: cut it along
// them) and no file longer than FILE_LIMIT. There is no list of exceptions: what is over fails.
//
//   node --import tsx scripts/size-check.ts
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

export const LIMIT = 80;
export const CLASS_LIMIT = 250;
export const FILE_LIMIT = 400;
const ROOTS = ["action/src"];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** Every named function, method, arrow and class of a file with its length in lines. */
export function functionSizes(file: string): { name: string; lines: number; kind: "function" | "class" }[] {
  const src = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const out: { name: string; lines: number; kind: "function" | "class" }[] = [];
  const line = (pos: number) => src.getLineAndCharacterOfPosition(pos).line;
  const length = (node: ts.Node) => line(node.getEnd()) - line(node.getStart(src)) + 1;
  const visit = (node: ts.Node, owner: string) => {
    let name: string | undefined;
    if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) name = node.name?.getText(src);
    else if (
      (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) &&
      (ts.isVariableDeclaration(node.parent) || ts.isPropertyAssignment(node.parent))
    )
      name = node.parent.name.getText(src);
    if (name && (node as ts.FunctionLikeDeclaration).body) {
      const full = owner ? `${owner}.${name}` : name;
      out.push({ name: full, lines: length(node), kind: "function" });
      ts.forEachChild(node, (c) => visit(c, full));
      return;
    }
    const cls =
      ts.isClassDeclaration(node) || ts.isClassExpression(node) ? node.name?.getText(src) : undefined;
    if (cls) out.push({ name: `class ${cls}`, lines: length(node), kind: "class" });
    ts.forEachChild(node, (c) => visit(c, cls ?? owner));
  };
  visit(src, "");
  return out;
}

/** `file:function` and `file:class Name` → lines over their limits; `file` → lines, for every file over its limit. */
export function overLimit(root = "."): Record<string, number> {
  const out: Record<string, number> = {};
  for (const dir of ROOTS)
    for (const f of files(join(root, dir))) {
      const lines = readFileSync(f, "utf8").split("\n").length;
      if (lines > FILE_LIMIT) out[relative(root, f)] = lines;
      for (const fn of functionSizes(f))
        if (fn.lines > (fn.kind === "class" ? CLASS_LIMIT : LIMIT)) {
          const key = `${relative(root, f)}:${fn.name}`;
          out[key] = Math.max(out[key] ?? 0, fn.lines);
        }
    }
  return out;
}

/** What breaks the rule, each with what to do: every entry of overLimit. */
export function violations(now: Record<string, number>): string[] {
  return Object.entries(now).map(([k, n]) => {
    if (k.includes(":class ")) return `${k}: ${n} lines (over ${CLASS_LIMIT}): cut the class along its jobs`;
    return k.includes(":")
      ? `${k}: ${n} lines (over ${LIMIT}): split it into named steps`
      : `${k}: ${n} lines (over ${FILE_LIMIT}): cut it along its jobs into files of their own`;
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const now = overLimit();
  const bad = violations(now);
  for (const b of bad) console.error(b);
  const count = (f: (k: string) => boolean) => Object.keys(now).filter(f).length;
  console.log(
    `${ROOTS.join(", ")}: ${count((k) => k.includes(":") && !k.includes(":class "))} functions over ${LIMIT} lines, ${count((k) => k.includes(":class "))} classes over ${CLASS_LIMIT}, ${count((k) => !k.includes(":"))} files over ${FILE_LIMIT}`,
  );
  process.exit(bad.length ? 1 : 0);
}
