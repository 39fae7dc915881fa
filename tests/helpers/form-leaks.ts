// Test-only: finds where a deployment form's vocabulary is used outside its folder, by reading the
// code with TypeScript's own checker (not a regex of one spelling). A form's folder is
// action/src/targets/tidb/deployments/<form>/; what it declares there (its Deployment's fields,
// its objects' members) is its own. Outside the folders that plan or run with it, the code may not
//  - read or write one of those members (x.configSwitch, const { cluster } = d),
//  - ask whether a value has one ("configSwitch" in d),
//  - compare a deployment's kind or a profile's provider with a form's or provider's name
//    (d.form === "cluster", case "playground", p.provider !== "kubernetes").
// Folders that deploy with another's form (hosts and the clouds with the cluster's) may use its
// members: they import the folder.
import { readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { ROOT } from "./paths.ts";

const SRC = join(ROOT, "action/src");
export const FORMS_DIR = join(SRC, "targets/tidb/deployments");

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** The form folder a file is in (its name), if any. */
function folderOf(file: string): string | undefined {
  const rel = relative(FORMS_DIR, file);
  if (rel.startsWith("..") || !rel.includes(sep)) return undefined;
  return rel.split(sep)[0];
}

/** Form folders each form folder imports (a folder may use what those declare). */
function importsOf(file: ts.SourceFile): Set<string> {
  const out = new Set<string>();
  for (const st of file.statements) {
    if (!ts.isImportDeclaration(st) && !ts.isExportDeclaration(st)) continue;
    const spec = st.moduleSpecifier;
    if (!spec || !ts.isStringLiteral(spec) || !spec.text.startsWith(".")) continue;
    const folder = folderOf(resolve(dirname(file.fileName), spec.text));
    if (folder) out.add(folder);
  }
  return out;
}

export interface Leak {
  file: string;
  line: number;
  what: string;
}

/**
 * Every use of a form's vocabulary outside the folders allowed it, over action/src and any
 * `extra` files (path → text, as if they were in the tree: a planted leak).
 */
export function formLeaks(o: { names: string[]; extra?: Record<string, string> }): Leak[] {
  const config = ts.readConfigFile(join(ROOT, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const extra = o.extra ?? {};
  const roots = [...tsFiles(SRC), ...Object.keys(extra)];
  const host = ts.createCompilerHost(parsed.options);
  const read = host.readFile.bind(host);
  const exists = host.fileExists.bind(host);
  host.readFile = (f) => extra[resolve(f)] ?? read(f);
  host.fileExists = (f) => resolve(f) in extra || exists(f);
  const getSource = host.getSourceFile.bind(host);
  host.getSourceFile = (f, lang, ...rest) => {
    const text = extra[resolve(f)];
    return text !== undefined ? ts.createSourceFile(f, text, lang) : getSource(f, lang, ...rest);
  };
  const program = ts.createProgram({ rootNames: roots, options: { ...parsed.options, noEmit: true }, host });
  const checker = program.getTypeChecker();
  const names = new Set(o.names);
  // members declared in a form folder, by name (for `"x" in d`)
  const formMembers = new Map<string, string>();
  const allowed = new Map<string, Set<string>>();
  for (const sf of program.getSourceFiles()) {
    const folder = folderOf(resolve(sf.fileName));
    if (!folder || sf.isDeclarationFile) continue;
    const mine = allowed.get(folder) ?? new Set([folder]);
    for (const f of importsOf(sf)) mine.add(f);
    allowed.set(folder, mine);
    const visit = (n: ts.Node) => {
      // a form's own members: those its base (the Deployment every form's is) does not have
      if (ts.isInterfaceDeclaration(n) && n.heritageClauses) {
        const bases = checker.getTypeAtLocation(n).getBaseTypes() ?? [];
        for (const m of n.members)
          if (
            m.name &&
            ts.isIdentifier(m.name) &&
            !bases.some((b) => b.getProperty((m.name as ts.Identifier).text))
          )
            formMembers.set(m.name.text, folder);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  const leaks: Leak[] = [];
  for (const sf of program.getSourceFiles()) {
    const file = resolve(sf.fileName);
    if (sf.isDeclarationFile || !(file.startsWith(SRC) || file in extra)) continue;
    const here = folderOf(file);
    const may = (folder: string) => here !== undefined && (allowed.get(here)?.has(folder) ?? false);
    const at = (n: ts.Node, what: string) =>
      leaks.push({
        file: relative(ROOT, file),
        line: sf.getLineAndCharacterOfPosition(n.getStart()).line + 1,
        what,
      });
    const ownerOf = (sym: ts.Symbol | undefined): string | undefined => {
      const decl = sym?.declarations?.[0];
      return decl ? folderOf(resolve(decl.getSourceFile().fileName)) : undefined;
    };
    /** A `.form` of a deployment, a `.name` of a form, or a `.provider` of a profile or deployer. */
    const namesAForm = (e: ts.Expression) => {
      if (!ts.isPropertyAccessExpression(e) || !["form", "name", "provider"].includes(e.name.text))
        return false;
      const decl = checker.getSymbolAtLocation(e.name)?.declarations?.[0];
      const from = decl ? resolve(decl.getSourceFile().fileName) : "";
      return from.startsWith(FORMS_DIR) || from.endsWith(join("tidb", "profile.ts"));
    };
    const literal = (e: ts.Expression) =>
      ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e) ? e.text : undefined;
    const visit = (n: ts.Node) => {
      if (ts.isPropertyAccessExpression(n) || ts.isBindingElement(n) || ts.isPropertyAssignment(n)) {
        const name = ts.isPropertyAccessExpression(n)
          ? n.name
          : ts.isBindingElement(n)
            ? (n.propertyName ?? n.name)
            : n.name;
        let sym = checker.getSymbolAtLocation(name);
        if (ts.isBindingElement(n) && ts.isIdentifier(name)) {
          const parentType = checker.getTypeAtLocation(n.parent);
          sym = checker.getPropertyOfType(parentType, name.text) ?? sym;
        }
        const owner = ownerOf(sym);
        if (owner && !may(owner)) at(n, `${name.getText()} of deployments/${owner}/`);
      }
      if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.InKeyword) {
        const key = literal(n.left);
        const owner = key === undefined ? undefined : formMembers.get(key);
        if (owner && !may(owner)) at(n, `"${key}" in …: a member of deployments/${owner}/`);
      }
      const compared = (a: ts.Expression, b: ts.Expression) => {
        const word = literal(b);
        if (word !== undefined && names.has(word) && namesAForm(a) && here === undefined)
          at(b, `${a.getText()} compared with the form name "${word}"`);
      };
      if (
        ts.isBinaryExpression(n) &&
        [
          ts.SyntaxKind.EqualsEqualsEqualsToken,
          ts.SyntaxKind.ExclamationEqualsEqualsToken,
          ts.SyntaxKind.EqualsEqualsToken,
          ts.SyntaxKind.ExclamationEqualsToken,
        ].includes(n.operatorToken.kind)
      ) {
        compared(n.left, n.right);
        compared(n.right, n.left);
      }
      if (ts.isCaseClause(n) && ts.isSwitchStatement(n.parent.parent))
        compared(n.parent.parent.expression, n.expression);
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return leaks;
}
