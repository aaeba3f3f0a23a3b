/**
 * Scope slips: a `var` in a loop that closures capture (they all see its last value; `let`
 * gives each pass its own), a `const` that is assigned to, and a `function () {}` callback whose
 * `this` is not the caller's (an arrow function keeps the method's `this`).
 */
import ts from "typescript";
import { code, type Context } from "../context.js";
import type { FamilyModule } from "../family.js";
import { functionScopeOf, isWritten } from "../scope.js";
import { hasModifier } from "../../parse.js";

const K = ts.SyntaxKind;

function keywordOf(
  list: ts.VariableDeclarationList,
  ctx: Context,
): { start: number; end: number; text: string } {
  const start = ctx.start(list);
  const text = list.flags & ts.NodeFlags.Const ? "const" : list.flags & ts.NodeFlags.Let ? "let" : "var";
  return { start, end: start + text.length, text };
}

/** Whether a function created inside `loop` reads `name` declared by it. */
function captured(loop: ts.Node, ids: readonly ts.Identifier[], ctx: Context): boolean {
  return ids.some((id) => {
    const b = ctx.scopes.resolve(id);
    return (
      !!b &&
      ctx.scopes.references(b).some((r) => {
        for (let n: ts.Node = r.parent; n && n !== loop; n = n.parent) if (ts.isFunctionLike(n)) return true;
        return false;
      })
    );
  });
}

/** `for (var i = ...)` (or a `var` in a loop body) captured by a closure, used only inside the loop: `let`. */
function loopVar(loop: ts.IterationStatement, ctx: Context): void {
  const lists: ts.VariableDeclarationList[] = [];
  if (
    (ts.isForStatement(loop) || ts.isForOfStatement(loop) || ts.isForInStatement(loop)) &&
    loop.initializer &&
    ts.isVariableDeclarationList(loop.initializer)
  )
    lists.push(loop.initializer);
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionLike(n)) return;
    if (ts.isVariableStatement(n)) lists.push(n.declarationList);
    ts.forEachChild(n, visit);
  };
  visit(loop.statement);
  for (const list of lists) {
    if (list.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const)) continue;
    const ids = list.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name] : []));
    if (ids.length !== list.declarations.length || !captured(loop, ids, ctx)) continue;
    const outside = ids.some((id) => {
      const b = ctx.scopes.resolve(id);
      return !b || ctx.scopes.references(b).some((r) => r.pos < loop.pos || r.end > loop.end);
    });
    const twice = ids.some(
      (id) =>
        ctx.scopes.all().filter((b) => b.name === id.text && b.scope === functionScopeOf(list)).length > 1,
    );
    if (outside || twice) continue;
    const kw = keywordOf(list, ctx);
    const names = ids.map((i) => i.text);
    ctx.replaceRange(
      "block-scope",
      1.0,
      list,
      kw.start,
      kw.end,
      "let",
      `${code(`var ${names.join(", ")}`)} at line ${ctx.lineOf(list)} is shared by every pass of the loop, so the functions created in it all see its last value: it should be ${code(`let ${names.join(", ")}`)}.`,
      {
        names,
        before: "var",
        after: "let",
        facts: { declaration: { name: names[0]!, old: "var", new: "let" } },
      },
    );
  }
}

/** `x = ...` (or `x++`) where `x` is a `const`: its declaration should be `let`. */
function assignedConst(node: ts.Identifier, ctx: Context): void {
  if (!isWritten(node)) return;
  const b = ctx.scopes.resolve(node);
  if (
    !b ||
    b.role !== "const" ||
    !ts.isVariableDeclaration(b.decl) ||
    !ts.isVariableDeclarationList(b.decl.parent)
  )
    return;
  const list = b.decl.parent;
  if (ts.isForOfStatement(list.parent) || ts.isForInStatement(list.parent)) return;
  const kw = keywordOf(list, ctx);
  ctx.replaceRange(
    "block-scope",
    0.8,
    node,
    kw.start,
    kw.end,
    "let",
    `Line ${ctx.lineOf(node)} assigns to ${code(node.text)}, which is declared ${code("const")} at line ${ctx.lineOf(list)}: the declaration should be ${code("let")}.`,
    {
      names: [node.text],
      before: "const",
      after: "let",
      facts: { declaration: { name: node.text, old: "const", new: "let" } },
    },
  );
}

/** Whether a method's (or constructor's, or class field's) `this` is around the node. */
function inMethod(node: ts.Node): boolean {
  for (let n = node.parent; n; n = n.parent) {
    if (ts.isArrowFunction(n)) continue;
    if (
      ts.isMethodDeclaration(n) ||
      ts.isConstructorDeclaration(n) ||
      ts.isAccessor(n) ||
      ts.isPropertyDeclaration(n)
    )
      return true;
    if (ts.isFunctionLike(n) || ts.isSourceFile(n)) return false;
  }
  return false;
}

/** `items.forEach(function (x) { this.total += x })`: the callback gets its own `this`. */
function callbackThis(fn: ts.Node, ctx: Context): void {
  if (!ts.isFunctionExpression(fn) || fn.asteriskToken || !ts.isCallOrNewExpression(fn.parent)) return;
  if (!(fn.parent.arguments ?? []).some((a) => a === fn)) return;
  if (!usesThis(fn.body) || hasArguments(fn.body)) return;
  if (fn.name) {
    const b = ctx.scopes.resolve(fn.name);
    if (b && ctx.scopes.references(b).length > 0) return;
  }
  const closeParen = ctx.tokenStart(fn, K.CloseParenToken);
  if (closeParen === undefined) return;
  const headerEnd = fn.type ? fn.type.getEnd() : closeParen + 1;
  const params = ctx.text.slice(ctx.tokenStart(fn, K.OpenParenToken)!, headerEnd);
  const asyncWord = hasModifier(fn, K.AsyncKeyword) ? "async " : "";
  const header = `${asyncWord}${params} =>`;
  const method = inMethod(fn);
  ctx.replaceRange(
    "callback-this",
    method ? 1.0 : 1.6,
    fn,
    ctx.start(fn),
    headerEnd,
    header,
    `The callback at line ${ctx.lineOf(fn)} is a ${code("function")} with its own ${code("this")}, not the ${method ? "method's" : "caller's"}: ${code(ctx.text.slice(ctx.start(fn), headerEnd))} should be the arrow function ${code(header)}.`,
    { before: ctx.text.slice(ctx.start(fn), headerEnd), after: header },
  );
  const end = fn.getEnd();
  ctx.replaceRange(
    "callback-this",
    method ? 1.5 : 2.0,
    fn,
    end,
    end,
    ".bind(this)",
    `The callback at line ${ctx.lineOf(fn)} runs with its own ${code("this")}: it should be bound with ${code(".bind(this)")}.`,
    { after: ".bind(this)" },
  );
}

function usesThis(body: ts.Node): boolean {
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found || ts.isFunctionDeclaration(n) || ts.isFunctionExpression(n) || ts.isClassLike(n)) return;
    if (n.kind === K.ThisKeyword) found = true;
    else ts.forEachChild(n, visit);
  };
  ts.forEachChild(body, visit);
  return found;
}

function hasArguments(body: ts.Node): boolean {
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found || ts.isFunctionDeclaration(n) || ts.isFunctionExpression(n)) return;
    if ((ts.isIdentifier(n) && n.text === "arguments") || ts.isMetaProperty(n)) found = true;
    else ts.forEachChild(n, visit);
  };
  ts.forEachChild(body, visit);
  return found;
}

export const scoping: FamilyModule = {
  families: ["block-scope", "callback-this"],
  node(node, ctx) {
    if (ts.isIdentifier(node)) assignedConst(node, ctx);
    if (ts.isFunctionExpression(node)) callbackThis(node, ctx);
  },
  statement(unit, ctx) {
    if (ts.isIterationStatement(unit, false)) loopVar(unit, ctx);
  },
  functions(chain, _unit, ctx) {
    callbackThis(chain[0]!, ctx);
    // The loops of the outermost function around the suspect: the `var` may be lines away from it.
    const outer = chain.at(-1)!;
    const visit = (n: ts.Node): void => {
      if (ts.isIterationStatement(n, false)) loopVar(n, ctx);
      ts.forEachChild(n, visit);
    };
    visit(outer);
  },
};
