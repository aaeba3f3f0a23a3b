/**
 * The wrong name: a variable where another in scope of the same kind is meant, a property
 * where another of the object's known properties is meant, a call's arguments in the wrong order.
 */
import ts from "typescript";
import { code, similarity, type Context } from "../context.js";
import type { FamilyModule } from "../family.js";
import { isReference, isWritten, type Binding } from "../scope.js";

const SKIP_ROLES = new Set(["function", "class", "import", "enum"]);
const MAX_NAMES = 6;
const MAX_PROPERTIES = 5;

/** Bindings declared and never read afterwards: a value computed and not used is likely the one meant. */
function unread(ctx: Context, b: Binding): boolean {
  return !ctx.scopes.references(b).some((r) => !isWritten(r));
}

function changedIdentifier(node: ts.Identifier, ctx: Context): void {
  if (!isReference(node) || node.text === "undefined" || node.text === "arguments") return;
  const p = node.parent;
  if (ts.isCallExpression(p) && p.expression === node) return;
  if (ts.isShorthandPropertyAssignment(p)) return;
  const mine = ctx.scopes.resolve(node);
  const missing = ctx.evidence?.undefinedName === node.text;
  if (!mine && !missing) return;
  if (mine && SKIP_ROLES.has(mine.role)) return;
  const written = isWritten(node);
  const fn = ctx.enclosingFunction(node);
  const kind = mine ? ctx.scopes.kindOf(mine) : "unknown";
  const options: [number, string][] = [];
  for (const [name, b] of ctx.scopes.visibleAt(node)) {
    if (name === node.text || SKIP_ROLES.has(b.role)) continue;
    if (written && (b.role === "const" || b.role === "param")) continue;
    if (b.decl.pos <= node.pos && node.end <= b.decl.end) continue; // its own initializer
    const other = ctx.scopes.kindOf(b);
    const local = fn !== undefined && b.scope.pos >= fn.pos && b.scope.end <= fn.end;
    let prior = local ? 2.4 : ts.isSourceFile(b.scope) ? 3.2 : 2.8;
    if (kind !== "unknown" && other !== "unknown") prior += kind === other ? -0.2 : 1.2;
    prior -= 0.6 * similarity(node.text, name);
    if (!written && local && b.role !== "param" && unread(ctx, b)) prior -= 1.0;
    options.push([prior, name]);
  }
  options.sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]));
  const where = written ? "assigns to" : "uses";
  for (const [prior, name] of options.slice(0, MAX_NAMES)) {
    ctx.replace(
      "changed-identifier",
      prior,
      node,
      name,
      `Line ${ctx.lineOf(node)} ${where} ${code(node.text)} where ${code(name)} is meant.`,
      { names: [node.text, name], facts: { identifier: { old: node.text, new: name } } },
    );
  }
}

/** Names of a class's members: fields, methods, accessors, parameter properties, `this.x = ...`. */
function classMembers(cls: ts.ClassLikeDeclaration): Set<string> {
  const out = new Set<string>();
  for (const m of cls.members) {
    if (m.name && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name) || ts.isPrivateIdentifier(m.name)))
      out.add(m.name.text);
    if (ts.isConstructorDeclaration(m)) {
      for (const param of m.parameters)
        if (ts.isIdentifier(param.name) && ts.getModifiers(param)?.length) out.add(param.name.text);
    }
  }
  const visit = (n: ts.Node): void => {
    if (
      ts.isBinaryExpression(n) &&
      n.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(n.left) &&
      n.left.expression.kind === ts.SyntaxKind.ThisKeyword
    )
      out.add(n.left.name.text);
    ts.forEachChild(n, visit);
  };
  cls.members.forEach(visit);
  return out;
}

/** Members of a local interface, type literal alias or class named by a type reference. */
function declaredMembers(typeName: string, file: ts.SourceFile): Set<string> | undefined {
  for (const decl of file.statements) {
    if ((ts.isInterfaceDeclaration(decl) || ts.isClassDeclaration(decl)) && decl.name?.text === typeName) {
      const members = ts.isClassDeclaration(decl) ? classMembers(decl) : new Set<string>();
      if (ts.isInterfaceDeclaration(decl))
        for (const m of decl.members) if (m.name && ts.isIdentifier(m.name)) members.add(m.name.text);
      return members;
    }
    if (ts.isTypeAliasDeclaration(decl) && decl.name.text === typeName && ts.isTypeLiteralNode(decl.type)) {
      return new Set(
        decl.type.members.flatMap((m) => (m.name && ts.isIdentifier(m.name) ? [m.name.text] : [])),
      );
    }
  }
  return undefined;
}

/** Properties read on each object text anywhere in the file (`order.customer` → name, email). */
function accessIndex(ctx: Context): Map<string, Set<string>> {
  const cache = accessCache.get(ctx);
  if (cache) return cache;
  const index = new Map<string, Set<string>>();
  const visit = (n: ts.Node): void => {
    if (ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.name)) {
      const key = ctx.seg(n.expression).replace(/\?\./g, ".").replace(/\s+/g, "");
      index.set(key, (index.get(key) ?? new Set()).add(n.name.text));
    }
    ts.forEachChild(n, visit);
  };
  visit(ctx.file);
  accessCache.set(ctx, index);
  return index;
}
const accessCache = new WeakMap<Context, Map<string, Set<string>>>();

/** What the object of `o.p` is known to have, and how surely (declared members count more than other reads). */
function knownProperties(
  node: ts.PropertyAccessExpression,
  ctx: Context,
): { names: Set<string>; declared: boolean } {
  const object = node.expression;
  if (object.kind === ts.SyntaxKind.ThisKeyword) {
    for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
      if (ts.isClassLike(n)) return { names: classMembers(n), declared: true };
      if (ts.isFunctionDeclaration(n) || ts.isFunctionExpression(n)) break;
    }
  }
  if (ts.isIdentifier(object)) {
    const b = ctx.scopes.resolve(object);
    const d = b?.decl;
    if (d && (ts.isVariableDeclaration(d) || ts.isParameter(d))) {
      if (d.type && ts.isTypeReferenceNode(d.type) && ts.isIdentifier(d.type.typeName)) {
        const members = declaredMembers(d.type.typeName.text, ctx.file);
        if (members) return { names: members, declared: true };
      }
      const init = d.initializer;
      if (init && ts.isObjectLiteralExpression(init)) {
        const keys = init.properties.flatMap((p) =>
          p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? [p.name.text] : [],
        );
        return { names: new Set(keys), declared: true };
      }
      if (init && ts.isNewExpression(init) && ts.isIdentifier(init.expression)) {
        const members = declaredMembers(init.expression.text, ctx.file);
        if (members) return { names: members, declared: true };
      }
    }
  }
  const key = ctx.seg(object).replace(/\?\./g, ".").replace(/\s+/g, "");
  return { names: new Set(accessIndex(ctx).get(key) ?? []), declared: false };
}

function changedAttribute(node: ts.PropertyAccessExpression, ctx: Context): void {
  if (!ts.isIdentifier(node.name) || isWritten(node)) return;
  const { names, declared } = knownProperties(node, ctx);
  const old = node.name.text;
  const options = [...names]
    .filter((n) => n !== old && !n.startsWith("#"))
    .map((n): [number, string] => [(declared ? 2.0 : 2.6) - 0.8 * similarity(old, n), n])
    .sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]));
  const object = ctx.seg(node.expression);
  for (const [prior, name] of options.slice(0, MAX_PROPERTIES)) {
    ctx.replaceRange(
      "changed-attribute",
      prior,
      node,
      node.name.getStart(ctx.file),
      node.name.getEnd(),
      name,
      `Line ${ctx.lineOf(node.name)} reads ${code(`${object}.${old}`)} where ${code(`${object}.${name}`)} is meant.`,
      { names: [old, name], before: old, after: name, facts: { property: { object, old, new: name } } },
    );
  }
}

/** The parameter names of a function the call's callee names in this file. */
function parametersOf(call: ts.CallExpression, ctx: Context): string[] | undefined {
  if (!ts.isIdentifier(call.expression)) return undefined;
  const d = ctx.scopes.resolve(call.expression)?.decl;
  const fn = d && ts.isVariableDeclaration(d) && d.initializer ? d.initializer : d;
  if (!fn || !(ts.isFunctionDeclaration(fn) || ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)))
    return undefined;
  return fn.parameters.map((p) => (ts.isIdentifier(p.name) ? p.name.text : ""));
}

function swappedArguments(node: ts.CallExpression, ctx: Context): void {
  const args = node.arguments;
  if (args.length < 2 || args.some(ts.isSpreadElement)) return;
  const params = parametersOf(node, ctx);
  for (let i = 0; i + 1 < args.length; i++) {
    const a = args[i]!;
    const b = args[i + 1]!;
    const [ta, tb] = [ctx.seg(a), ctx.seg(b)];
    if (ta === tb) continue;
    // `f(b, a)` calling `function f(a, b)`: the names say they are swapped.
    const named = params !== undefined && params[i] === tb && params[i + 1] === ta;
    ctx.propose({
      family: "swapped-arguments",
      prior: named ? 0.9 : 2.0 + 0.2 * i,
      changes: [
        { start: ctx.start(a), end: a.getEnd(), text: tb },
        { start: ctx.start(b), end: b.getEnd(), text: ta },
      ],
      claim: `The call at line ${ctx.lineOf(node)} passes ${code(ta)} and ${code(tb)} in the wrong order: ${code(ctx.seg(node.expression))} should get ${code(`${tb}, ${ta}`)}.`,
      node,
      names: [ta, tb],
      before: `${ta}, ${tb}`,
      after: `${tb}, ${ta}`,
      facts: { order: true },
    });
  }
}

export const names: FamilyModule = {
  families: ["changed-identifier", "changed-attribute", "swapped-arguments"],
  node(node, ctx) {
    if (ts.isIdentifier(node)) changedIdentifier(node, ctx);
    else if (ts.isPropertyAccessExpression(node)) changedAttribute(node, ctx);
    else if (ts.isCallExpression(node)) swappedArguments(node, ctx);
  },
};
