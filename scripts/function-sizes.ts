// Orchestration in short, named steps: no function in action/src/pipeline/ or action/src/targets/
// longer than LIMIT lines. The functions over it when this lint came in are listed in
// scripts/function-sizes.allow.json with their length then; each may only shrink (the list is
// rewritten with --update when one does), and a new one over the limit fails.
//
//   node --import tsx scripts/function-sizes.ts [--update]
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

export const LIMIT = 80;
const ROOTS = ["action/src/pipeline", "action/src/targets"];
const ALLOW = "scripts/function-sizes.allow.json";

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

/** `file:function` → lines, for every function over the limit. */
export function overLimit(root = "."): Record<string, number> {
  const out: Record<string, number> = {};
  for (const dir of ROOTS)
    for (const f of files(join(root, dir)))
      for (const fn of functionSizes(f))
        if (fn.lines > LIMIT)
          out[`${relative(root, f)}:${fn.name}`] = Math.max(
            out[`${relative(root, f)}:${fn.name}`] ?? 0,
            fn.lines,
          );
  return out;
}

/** What breaks the rule: a new function over the limit, or a listed one grown. */
export function violations(now: Record<string, number>, allowed: Record<string, number>): string[] {
  return Object.entries(now)
    .filter(([k, n]) => allowed[k] === undefined || n > (allowed[k] as number))
    .map(([k, n]) =>
      allowed[k] === undefined
        ? `${k}: ${n} lines (over ${LIMIT}): split it into named steps`
        : `${k}: ${n} lines, listed at ${allowed[k]}: a listed function may only shrink`,
    );
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
  console.log(
    `functions over ${LIMIT} lines in ${ROOTS.join(", ")}: ${Object.keys(now).length} (${listed} listed to shrink)`,
  );
  process.exit(bad.length ? 1 : 0);
}
