// One word per idea: `kind` means a target kind (mariadb, postgres, tidb, and the TiDB targets a
// run records: tidb-server, tidb-playground, tidb-cluster, tidb-operator). Every property named
// `kind` in action/src whose values are words (string literals, a union of them, a zod enum or
// literal) may hold only those. One use is not tiperf's to rename: a Kubernetes object's `kind`
// (the API's own word, beside its `apiVersion`). (Stored files that named other ideas `kind`, a
// verdict's hints, profiles and readings and a bisect report's steps, renamed them in verdict.json
// version 2 and bisect.json version 3; older files are migrated on read.)
//
//   node --import tsx scripts/word-check.ts
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

export const TARGET_WORDS = [
  "mariadb",
  "postgres",
  "tidb",
  "tidb-server",
  "tidb-playground",
  "tidb-cluster",
  "tidb-operator",
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** The string words a node's type can hold (none: not words, e.g. `string`). */
function words(checker: ts.TypeChecker, node: ts.Node): string[] {
  const t = checker.getTypeAtLocation(node);
  const parts = t.isUnion() ? t.types : [t];
  const out: string[] = [];
  for (const p of parts) {
    if (p.isStringLiteral()) out.push(p.value);
    // a zod schema's words: its output type's
    const output = p.getProperty("_output");
    if (output) {
      const o = checker.getTypeOfSymbolAtLocation(output, node);
      for (const q of o.isUnion() ? o.types : [o]) if (q.isStringLiteral()) out.push(q.value);
    }
  }
  return out;
}

/** Every `kind` of action/src (or the given files) holding a word that is no target kind: "file:line: words". */
export function kindMisuses(root = "action/src", only?: string[]): string[] {
  const names = only ?? files(root);
  const program = ts.createProgram(names, { strict: true, target: ts.ScriptTarget.ES2022, noEmit: true });
  const checker = program.getTypeChecker();
  const out: string[] = [];
  for (const file of names) {
    const src = program.getSourceFile(file);
    if (!src) continue;
    const rel = relative(process.cwd(), file);
    const visit = (node: ts.Node) => {
      const named =
        (ts.isPropertySignature(node) || ts.isPropertyAssignment(node) || ts.isPropertyDeclaration(node)) &&
        node.name.getText(src) === "kind";
      const shorthand = ts.isShorthandPropertyAssignment(node) && node.name.getText(src) === "kind";
      if (named || shorthand) {
        const parent = node.parent;
        const kubernetes =
          ts.isObjectLiteralExpression(parent) &&
          parent.properties.some((p) => p.name?.getText(src) === "apiVersion");
        const held = words(checker, node);
        const allowed = new Set(TARGET_WORDS);
        const wrong = held.filter((w) => !allowed.has(w));
        if (!kubernetes && wrong.length) {
          const line = src.getLineAndCharacterOfPosition(node.getStart(src)).line + 1;
          out.push(`${rel}:${line}: kind holds ${wrong.map((w) => JSON.stringify(w)).join(", ")}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(src);
  }
  return out;
}

if (process.argv[1]?.endsWith("word-check.ts")) {
  const bad = kindMisuses();
  for (const b of bad) console.log(b);
  console.log(
    `action/src: ${bad.length} uses of kind that are no target kind (a target kind is one of ${TARGET_WORDS.join(", ")}; name another idea by its own word)`,
  );
  process.exit(bad.length ? 1 : 0);
}
