// Code in short, named steps and files of one job: no function in action/src longer than LIMIT
// lines, and no file longer than FILE_LIMIT lines unless scripts/size-check.allow.json lists it
// with its length when it was listed; a listed file may only shrink (the list is rewritten with
// --update when one does: a shrunk length, a file under the limit off the list), a new one over
// the limit fails. Functions have no list: none may be over.
//
//   node --import tsx scripts/size-check.ts [--update]
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

export const LIMIT = 80;
export const FILE_LIMIT = 400;
const ROOTS = ["action/src"];
const ALLOW = "scripts/size-check.allow.json";

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** Every named function, method and arrow of a file with its length in lines. */
export function functionSizes(file: string): { name: string; lines: number }[] {
  const src = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const out: { name: string; lines: number }[] = [];
  const line = (pos: number) => src.getLineAndCharacterOfPosition(pos).line;
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
      out.push({ name: full, lines: line(node.getEnd()) - line(node.getStart(src)) + 1 });
      ts.forEachChild(node, (c) => visit(c, full));
      return;
    }
    const cls = ts.isClassDeclaration(node) ? node.name?.getText(src) : undefined;
    ts.forEachChild(node, (c) => visit(c, cls ?? owner));
  };
  visit(src, "");
  return out;
}

/** `file:function` → lines, for every function over the limit; `file` → lines, for every file over its limit. */
export function overLimit(root = "."): Record<string, number> {
  const out: Record<string, number> = {};
  for (const dir of ROOTS)
    for (const f of files(join(root, dir))) {
      const lines = readFileSync(f, "utf8").split("\n").length;
      if (lines > FILE_LIMIT) out[relative(root, f)] = lines;
      for (const fn of functionSizes(f))
        if (fn.lines > LIMIT)
          out[`${relative(root, f)}:${fn.name}`] = Math.max(
            out[`${relative(root, f)}:${fn.name}`] ?? 0,
            fn.lines,
          );
    }
  return out;
}

/** What breaks the rule: a function over the limit, a file over it unlisted, a listed file grown. */
export function violations(now: Record<string, number>, allowed: Record<string, number>): string[] {
  return Object.entries(now)
    .filter(([k, n]) => allowed[k] === undefined || n > (allowed[k] as number))
    .map(([k, n]) => {
      const fn = k.includes(":");
      if (allowed[k] !== undefined)
        return `${k}: ${n} lines, listed at ${allowed[k]}: a listed ${fn ? "function" : "file"} may only shrink`;
      return fn
        ? `${k}: ${n} lines (over ${LIMIT}): split it into named steps`
        : `${k}: ${n} lines (over ${FILE_LIMIT}): cut it along its jobs into files of their own`;
    });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const now = overLimit();
  const allowed = JSON.parse(readFileSync(ALLOW, "utf8")) as Record<string, number>;
  if (process.argv.includes("--update")) {
    // only shrinking: the list keeps what is still over, at its current length
    const next = Object.fromEntries(
      Object.entries(now).filter(([k, n]) => allowed[k] !== undefined && n <= (allowed[k] as number)),
    );
    writeFileSync(ALLOW, `${JSON.stringify(next, null, 2)}\n`);
  }
  const bad = violations(now, allowed);
  for (const b of bad) console.error(b);
  const listed = Object.keys(allowed).length;
  const fns = Object.keys(now).filter((k) => k.includes(":")).length;
  console.log(
    `${ROOTS.join(", ")}: ${fns} functions over ${LIMIT} lines; ${Object.keys(now).length - fns} files over ${FILE_LIMIT} lines (${listed} listed to shrink)`,
  );
  process.exit(bad.length ? 1 : 0);
}
