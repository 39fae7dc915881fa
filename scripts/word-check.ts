// One word per idea: `kind` means a target kind (mariadb, postgres, tidb, and the TiDB targets a
// run records: tidb-server, tidb-playground, tidb-cluster, tidb-operator). Every property named
// `kind` in action/src whose values are words (string literals, a union of them, a zod enum or
// literal) may hold only those. Two uses are not tiperf's to rename: a Kubernetes object's `kind`
// (the API's own word, beside its `apiVersion`), and the fields of stored files listed in
// STORED, which change name only with their file's next format version.
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

/**
 * Fields of stored formats named `kind` in another sense, by file and their words: verdict.json's
 * profiles, hints and readings, bisect.json's steps. Each goes with its format's next version.
 */
export const STORED: Record<string, string[]> = {
  "action/src/compare/verdict.ts": ["cpu", "alloc", "stmts"],
  "action/src/observe/profile-diff.ts": ["cpu", "alloc", "stmts"],
  "action/src/commands/compare/profiles.ts": ["cpu", "alloc", "stmts"],
  "action/src/observe/hints.ts": ["load", "server", "machine", "none"],
  "action/src/compare/reading.ts": ["costlier", "same-work", "hidden", "cheaper", "none", "undecided"],
  "action/src/compare/bisection.ts": ["bad", "good", "unknown", "skip"],
  "action/src/commands/bisect/index.ts": ["bad", "good", "unknown", "skip"],
};

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
        const allowed = new Set([...TARGET_WORDS, ...(STORED[rel] ?? [])]);
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
