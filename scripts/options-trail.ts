// Where a command's options go: from the parameter that receives them, every call that passes
// one of them on (the object whole, a field, an object literal or spread of them, a closure that
// passes them) is followed into its callee, call by call; the log, the cancel signal and the spec
// itself are not counted. Prints each call once (×N when the trail passes it N times), the files
// it reaches, and every climb: a call from a lower layer of action/src back into a higher one
// (layers: the doors, then commands/, then the bench, then the rooms it uses, then proc/ and yaml/).
//
//   node --import tsx scripts/options-trail.ts [FILE FUNCTION PARAM]
//   (default: action/src/commands/compare/index.ts execCompare request)
import { relative } from "node:path";
import ts from "typescript";

const LAYERS: [RegExp, number][] = [
  [/^action\/src\/(cli\.ts|cli\/|action\/)/, 0],
  [/^action\/src\/commands\//, 1],
  [/^action\/src\/bench\//, 2],
  [/^action\/src\/(proc|yaml)\/|^action\/src\/(errors|environment|version)\.ts$/, 4],
  [/^action\/src\//, 3],
];
/**
 * Not the command's options: the plumbing every step gets (the log, the cancel signal), and the
 * spec the options run (what is measured, not how; its words only for the Action's provenance).
 */
const PLUMBING = new Set(["log", "signal", "spec", "words"]);

export const layerOf = (file: string) => LAYERS.find(([re]) => re.test(file))?.[1] ?? 5;

export interface Trail {
  stops: { from: string; to: string; callee: string }[];
  files: string[];
  climbs: { from: string; to: string; callee: string }[];
}

/**
 * What a tracked name holds: the whole value is an option (`"all"`: a seed, a shard, a closure
 * that passes options on), or an object of which only these fields are the command's options.
 */
type Holds = "all" | Set<string>;

/**
 * Follows the options parameter `param` of `fn` in `file`: the command's own options (its type's
 * fields but the plumbing every step gets, `log` and `signal`), call by call, into every callee
 * that receives one of them, whole, as a field, in an object literal, a spread or a closure.
 */
export function optionsTrail(file: string, fn: string, param = "opts", program?: ts.Program): Trail {
  const p =
    program ??
    ts.createProgram([file], {
      strict: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowImportingTsExtensions: true,
      noEmit: true,
    });
  const checker = p.getTypeChecker();
  const rel = (f: string) => relative(process.cwd(), f);
  const stops: Trail["stops"] = [];
  const seen = new Map<ts.Symbol, string>();
  const files = new Set<string>();
  const tracked = new Map<ts.Symbol, Holds>();

  const symbolOf = (e: ts.Node) => checker.getSymbolAtLocation(ts.isPropertyAccessExpression(e) ? e.name : e);

  /** Whether an expression reads an option: a name holding one, or an option field of a tracked object. */
  const reads = (e: ts.Node, inClosure = false): boolean => {
    // a call's result is not the options; inside a closure, a call that is given them passes them on
    if (ts.isCallExpression(e) || ts.isNewExpression(e))
      return inClosure && (e.arguments ?? []).some((a) => reads(a, true));
    if (ts.isArrowFunction(e) || ts.isFunctionExpression(e) || ts.isMethodDeclaration(e))
      return ts.forEachChild(e.body ?? e, (c) => (reads(c, true) ? true : undefined)) ?? false;
    if (ts.isPropertyAccessExpression(e)) {
      const held = tracked.get(symbolOf(e.expression) as ts.Symbol);
      if (held instanceof Set) return held.has(e.name.text);
      if (held === "all") return true;
    }
    if (ts.isIdentifier(e) || ts.isPropertyAccessExpression(e)) {
      const held = tracked.get(symbolOf(e) as ts.Symbol);
      if (held === "all") return true;
      // an object holding options passed whole carries them; read only for a field, it does not
      if (held instanceof Set && held.size) {
        const up = e.parent;
        return !(ts.isPropertyAccessExpression(up) && up.expression === e);
      }
    }
    return ts.forEachChild(e, (c) => (reads(c, inClosure) ? true : undefined)) ?? false;
  };

  /** `{ seed }`: the variable it names holds an option. */
  const shorthandReads = (pr: ts.ShorthandPropertyAssignment) => {
    const held = tracked.get(checker.getShorthandAssignmentValueSymbol(pr) as ts.Symbol);
    return held === "all" || (held instanceof Set && held.size > 0);
  };

  /** What an argument carries into the callee's parameter, if any option. */
  const carried = (arg: ts.Expression): Holds | undefined => {
    const inner = ts.isParenthesizedExpression(arg) ? arg.expression : arg;
    const held =
      ts.isIdentifier(inner) || ts.isPropertyAccessExpression(inner)
        ? tracked.get(symbolOf(inner) as ts.Symbol)
        : undefined;
    if (held === "all" || held?.size) return held;
    if (ts.isObjectLiteralExpression(inner)) {
      const fields = new Set<string>();
      const gather = (o: ts.Node): undefined => {
        if (!ts.isObjectLiteralExpression(o)) return ts.forEachChild(o, gather);
        for (const pr of o.properties) {
          if (ts.isSpreadAssignment(pr)) {
            // a spread of a tracked name gives its fields; of a condition, the objects inside it
            const named = ts.isIdentifier(pr.expression) || ts.isPropertyAccessExpression(pr.expression);
            const h = named ? carried(pr.expression) : undefined;
            if (h === "all") fields.add("*");
            else if (h) for (const f of h) fields.add(f);
            else gather(pr.expression);
          } else if (
            (ts.isPropertyAssignment(pr) && reads(pr.initializer)) ||
            (ts.isShorthandPropertyAssignment(pr) && shorthandReads(pr))
          )
            fields.add(pr.name.getText());
          else if (ts.isMethodDeclaration(pr) && reads(pr)) fields.add(pr.name.getText());
        }
      };
      gather(inner);
      if (fields.has("*")) return "all";
      return fields.size ? fields : undefined;
    }
    return reads(inner) ? "all" : undefined;
  };

  const bind = (name: ts.BindingName, holds: Holds | undefined) => {
    if (!holds) return;
    if (ts.isIdentifier(name)) {
      const sym = checker.getSymbolAtLocation(name);
      if (sym) tracked.set(sym, holds);
      return;
    }
    if (!ts.isObjectBindingPattern(name)) return;
    const named = name.elements
      .filter((e) => !e.dotDotDotToken)
      .map((e) => (e.propertyName ?? e.name).getText());
    for (const e of name.elements) {
      const field = (e.propertyName ?? e.name).getText();
      if (e.dotDotDotToken)
        bind(e.name, holds === "all" ? "all" : new Set([...holds].filter((f) => !named.includes(f))));
      else if (holds === "all" || holds.has(field)) bind(e.name, "all");
    }
  };

  const follow = (decl: ts.SignatureDeclaration | ts.ClassDeclaration, index: number, holds: Holds) => {
    const params = ts.isClassDeclaration(decl)
      ? (decl.members.find(ts.isConstructorDeclaration)?.parameters ?? ts.factory.createNodeArray())
      : decl.parameters;
    const param = params[Math.min(index, params.length - 1)];
    if (!param) return;
    const sym = checker.getSymbolAtLocation(param.name);
    const key = holds === "all" ? "all" : [...holds].sort().join(",");
    if (!sym || seen.get(sym) === key) return;
    seen.set(sym, key);
    tracked.set(sym, holds);
    // a constructor's parameter property (readonly opts) is the class's field too
    if (ts.isParameterPropertyDeclaration(param, param.parent)) {
      const [, prop] = checker.getSymbolsOfParameterPropertyDeclaration(param, param.name.getText());
      if (prop) tracked.set(prop, holds);
    }
    const file = rel(decl.getSourceFile().fileName);
    files.add(file);
    const visit = (node: ts.Node) => {
      // a name bound to options (const look = opts.look; const { spec, ...rest } = request) holds them
      if (ts.isVariableDeclaration(node) && node.initializer) bind(node.name, carried(node.initializer));
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
        (node.arguments ?? []).forEach((arg, i) => {
          // a text made from an option (a message, a name) is words, not the options
          if (ts.isTemplateExpression(arg) || ts.isBinaryExpression(arg)) return;
          const h = carried(arg);
          if (!h) return;
          const signature = checker.getResolvedSignature(node);
          let target = signature?.declaration as ts.SignatureDeclaration | ts.ClassDeclaration | undefined;
          if (target && ts.isConstructorDeclaration(target)) target = target.parent as ts.ClassDeclaration;
          if (!target || target.getSourceFile().isDeclarationFile) return;
          // an error is words about the options, not a step they reach
          if (rel(target.getSourceFile().fileName) === "action/src/errors.ts") return;
          const to = rel(target.getSourceFile().fileName);
          const callee = ts.isClassDeclaration(target)
            ? `new ${target.name?.getText()}`
            : (target.name?.getText() ?? "(arrow)");
          stops.push({ from: file, to, callee });
          follow(target, i, h);
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(decl);
  };

  const src = p.getSourceFile(file);
  if (!src) throw new Error(`${file}: not found`);
  let start: ts.FunctionDeclaration | undefined;
  src.forEachChild((n) => {
    if (ts.isFunctionDeclaration(n) && n.name?.getText() === fn) start = n;
  });
  if (!start) throw new Error(`${file}: no function ${fn}`);
  const first = start as ts.FunctionDeclaration;
  const index = first.parameters.findIndex((x) => x.name.getText() === param);
  if (index < 0)
    throw new Error(
      `${file}: ${fn} has no parameter ${param} (its parameters: ${first.parameters.map((x) => x.name.getText()).join(", ")})`,
    );
  const type = checker.getTypeAtLocation(first.parameters[index] as ts.ParameterDeclaration);
  const own = new Set(
    type
      .getProperties()
      .map((x) => x.name)
      .filter((n) => !PLUMBING.has(n)),
  );
  follow(first, index, own);
  const climbs = stops.filter((s) => layerOf(s.to) < layerOf(s.from));
  return { stops, files: [...files], climbs };
}

if (process.argv[1]?.endsWith("options-trail.ts")) {
  const [file = "action/src/commands/compare/index.ts", fn = "execCompare", param = "request"] =
    process.argv.slice(2);
  const t = optionsTrail(file, fn, param);
  // each call once, with how often the trail passes it
  const seenCalls = new Map<string, number>();
  for (const s of t.stops) {
    const line = `${s.from} → ${s.callee} (${s.to})`;
    seenCalls.set(line, (seenCalls.get(line) ?? 0) + 1);
  }
  for (const [line, n] of seenCalls) console.log(n > 1 ? `${line} ×${n}` : line);
  console.log(
    `${fn}'s ${param}: ${t.stops.length} stops in ${t.files.length} files, ${t.climbs.length} climbs`,
  );
  for (const f of t.files) console.log(`  ${f} (layer ${layerOf(f)})`);
  for (const c of t.climbs) console.log(`  climb: ${c.from} → ${c.callee} (${c.to})`);
}
