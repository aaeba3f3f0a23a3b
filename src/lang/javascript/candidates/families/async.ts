/**
 * Promises not waited for: a call to an async function (or another promise-returning call)
 * without `await`, and `forEach` with an async callback, which runs the callbacks without
 * waiting for any (`for...of` with `await` waits for each; `Promise.all` for all).
 */
import ts from "typescript";
import { code, type Context } from "../context.js";
import type { FamilyModule } from "../family.js";
import { isAsyncBinding } from "../scope.js";
import type { TextChange } from "../../edits.js";
import { hasModifier } from "../../parse.js";

const PROMISE_CALLS = /^(fetch|Promise\.(all|allSettled|race|any)|fs\.promises\.\w+|fsp\.\w+|.*\.json)$/;

/** Whether a call returns a promise: an async function of this file, a method of this class that is async, `fetch`, ... */
function returnsPromise(call: ts.CallExpression, ctx: Context): boolean {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) {
    const b = ctx.scopes.resolve(callee);
    if (b && isAsyncBinding(b)) return true;
    if (
      b &&
      (ts.isFunctionDeclaration(b.decl) || ts.isVariableDeclaration(b.decl)) &&
      returnsThenable(b.decl)
    )
      return true;
  }
  if (ts.isPropertyAccessExpression(callee) && callee.expression.kind === ts.SyntaxKind.ThisKeyword) {
    for (let n: ts.Node | undefined = call.parent; n; n = n.parent) {
      if (!ts.isClassLike(n)) continue;
      const m = n.members.find((x) => x.name && ts.isIdentifier(x.name) && x.name.text === callee.name.text);
      return (
        !!m &&
        (hasModifier(m, ts.SyntaxKind.AsyncKeyword) ||
          (ts.isPropertyDeclaration(m) &&
            !!m.initializer &&
            hasModifier(m.initializer, ts.SyntaxKind.AsyncKeyword)))
      );
    }
  }
  return (
    PROMISE_CALLS.test(ctx.seg(callee).replace(/\s+/g, "")) ||
    ctx.scopes.kindOfExpression(call) === "promise" ||
    (ts.isPropertyAccessExpression(callee) && methodNames(ctx.file).get(callee.name.text) === true)
  );
}

const methodNamesOf = new WeakMap<ts.SourceFile, Map<string, boolean>>();

/**
 * The method names of the file's classes and object literals, each true when every method of
 * that name is async: `other.run(...)` on an object of unknown type most likely calls this
 * file's async `run` when no method of that name here is synchronous (a class handing work to
 * another instance of itself, a router to its mounted router).
 */
function methodNames(file: ts.SourceFile): Map<string, boolean> {
  let names = methodNamesOf.get(file);
  if (names) return names;
  const found = new Map<string, boolean>();
  const visit = (n: ts.Node): void => {
    if ((ts.isMethodDeclaration(n) || ts.isPropertyDeclaration(n)) && n.name && ts.isIdentifier(n.name)) {
      const fn = ts.isPropertyDeclaration(n) ? n.initializer : n;
      if (!ts.isPropertyDeclaration(n) || (fn && ts.isFunctionLike(fn))) {
        const async =
          !!fn && hasModifier(fn, ts.SyntaxKind.AsyncKeyword) && !(fn as ts.MethodDeclaration).asteriskToken;
        found.set(n.name.text, (found.get(n.name.text) ?? true) && async);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(file);
  methodNamesOf.set(file, (names = found));
  return names;
}

/** A function whose body returns `new Promise(...)` or `x.then(...)`: a thenable. */
function returnsThenable(decl: ts.Node): boolean {
  const fn = ts.isVariableDeclaration(decl) ? decl.initializer : decl;
  if (
    !fn ||
    !(ts.isFunctionDeclaration(fn) || ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) ||
    !fn.body
  )
    return false;
  const isThenable = (e: ts.Expression) =>
    (ts.isNewExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === "Promise") ||
    (ts.isCallExpression(e) &&
      ts.isPropertyAccessExpression(e.expression) &&
      /^(then|catch|finally)$/.test(e.expression.name.text));
  if (!ts.isBlock(fn.body)) return isThenable(fn.body);
  return fn.body.statements.some(
    (s) => ts.isReturnStatement(s) && !!s.expression && isThenable(s.expression),
  );
}

/** Where `async` goes to make a function async, or undefined when it cannot be (a getter, a constructor). */
function asyncInsertion(fn: ts.SignatureDeclaration, ctx: Context): number | undefined {
  if (ts.isConstructorDeclaration(fn) || ts.isAccessor(fn) || hasModifier(fn, ts.SyntaxKind.AsyncKeyword))
    return undefined;
  if (ts.isArrowFunction(fn)) return ctx.start(fn);
  if (ts.isFunctionDeclaration(fn) || ts.isFunctionExpression(fn))
    return ctx.tokenStart(fn, ts.SyntaxKind.FunctionKeyword);
  if (ts.isMethodDeclaration(fn))
    return fn.asteriskToken ? fn.asteriskToken.getStart(ctx.file) : ctx.start(fn.name);
  return undefined;
}

/** Whether `await` may be written at this node: inside an async function, or at the top level of an ES module. */
function awaitContext(node: ts.Node, ctx: Context): { ok: boolean; fn?: ts.SignatureDeclaration } {
  const fn = ctx.enclosingFunction(node);
  if (!fn) return { ok: ctx.src.module };
  return { ok: hasModifier(fn, ts.SyntaxKind.AsyncKeyword), fn };
}

function missingAwait(call: ts.CallExpression, ctx: Context): void {
  let top: ts.Node = call;
  while (ts.isParenthesizedExpression(top.parent)) top = top.parent;
  const p = top.parent;
  if (ts.isAwaitExpression(p) || ts.isReturnStatement(p) || (ts.isArrowFunction(p) && p.body === top)) return;
  if (ts.isPropertyAccessExpression(p) && /^(then|catch|finally)$/.test(p.name.text)) return;
  if (ts.isCallExpression(p) && p.expression !== top) return; // handed on (`Promise.all(...)`, `expect(...)`)
  if (!returnsPromise(call, ctx)) return;
  const member =
    ts.isPropertyAccessExpression(p) ||
    ts.isElementAccessExpression(p) ||
    (ts.isCallExpression(p) && p.expression === top);
  const text = ctx.seg(call);
  const awaited = member ? `(await ${text})` : `await ${text}`;
  const used = !ts.isExpressionStatement(p);
  const where = awaitContext(call, ctx);
  const changes: TextChange[] = [{ start: ctx.start(call), end: call.getEnd(), text: awaited }];
  let prior = used ? 1.1 : 1.6;
  let claim = `At line ${ctx.lineOf(call)} ${code(text)} returns a promise that is not awaited, so the code goes on with the promise instead of its result: it should be ${code(awaited)}.`;
  if (!where.ok) {
    const at = where.fn && asyncInsertion(where.fn, ctx);
    if (at === undefined) return;
    changes.push({ start: at, end: at, text: "async " });
    prior += 1.0;
    claim = `At line ${ctx.lineOf(call)} ${code(text)} returns a promise that is not awaited: it should be ${code(awaited)}, in a function made ${code("async")}.`;
  }
  ctx.propose({
    family: "missing-await",
    prior,
    changes,
    claim,
    node: call,
    names: [ctx.seg(call.expression)],
    before: text,
    after: awaited,
    facts: { awaited: ctx.seg(call.expression), returns: used },
  });
}

/** `xs.forEach(async (x) => {...})` as a statement: the callback, the array and the callback's own returns. */
function asyncForEach(call: ts.CallExpression, ctx: Context): void {
  if (!ts.isPropertyAccessExpression(call.expression) || call.expression.name.text !== "forEach") return;
  const statement = call.parent;
  if (!ts.isExpressionStatement(statement) || call.arguments.length !== 1) return;
  const cb = call.arguments[0]!;
  if (
    !(ts.isArrowFunction(cb) || ts.isFunctionExpression(cb)) ||
    !hasModifier(cb, ts.SyntaxKind.AsyncKeyword)
  )
    return;
  if (
    cb.parameters.length === 0 ||
    cb.parameters.length > 2 ||
    cb.parameters.some((x) => x.dotDotDotToken || x.initializer)
  )
    return;
  if (ts.isFunctionExpression(cb) && usesThisOrArguments(cb.body)) return;
  const array = ctx.seg(call.expression.expression);
  const item = ctx.seg(cb.parameters[0]!.name);
  const head =
    cb.parameters.length === 2
      ? `for (const [${ctx.seg(cb.parameters[1]!.name)}, ${item}] of ${array}.entries())`
      : `for (const ${item} of ${array})`;
  const where = awaitContext(statement, ctx);
  const extra: TextChange[] = [];
  if (!where.ok) {
    const at = where.fn && asyncInsertion(where.fn, ctx);
    if (at === undefined) return;
    extra.push({ start: at, end: at, text: "async " });
  }
  const changes: TextChange[] = [...extra];
  if (ts.isBlock(cb.body)) {
    const returns = ownReturns(cb.body);
    if (returns.some((r) => r.expression)) return;
    changes.push({ start: ctx.start(statement), end: ctx.start(cb.body), text: `${head} ` });
    changes.push({ start: cb.body.getEnd(), end: statement.getEnd(), text: "" });
    for (const r of returns) changes.push({ start: ctx.start(r), end: r.getEnd(), text: "continue;" });
  } else {
    const body = ts.isAwaitExpression(cb.body) ? ctx.seg(cb.body) : `await ${ctx.seg(cb.body)}`;
    changes.push({ start: ctx.start(statement), end: statement.getEnd(), text: `${head} ${body};` });
  }
  const prior = where.ok ? 1.0 : 2.0;
  ctx.propose({
    family: "async-foreach",
    prior,
    changes,
    claim: `The ${code("forEach")} at line ${ctx.lineOf(call)} starts an async callback per item and waits for none of them: ${code(`${array}.forEach(async ...)`)} should be ${code(`${head} { await ... }`)}.`,
    node: call,
    names: [array, item],
    before: `${array}.forEach(async ...)`,
    after: head,
    facts: { awaited: `${array}.forEach`, order: true },
  });
  // All at once, as `Promise.all` waits for them.
  const open = ctx.start(call);
  const name = call.expression.name;
  const all: TextChange[] = [
    ...extra,
    { start: open, end: open, text: "await Promise.all(" },
    { start: name.getStart(ctx.file), end: name.getEnd(), text: "map" },
    { start: call.getEnd(), end: call.getEnd(), text: ")" },
  ];
  ctx.propose({
    family: "async-foreach",
    prior: prior + 0.6,
    changes: all,
    claim: `The ${code("forEach")} at line ${ctx.lineOf(call)} waits for none of its async callbacks: it should be ${code(`await Promise.all(${array}.map(async ...))`)}.`,
    node: call,
    names: [array],
    facts: { awaited: `${array}.forEach` },
  });
}

function ownReturns(body: ts.Block): ts.ReturnStatement[] {
  const out: ts.ReturnStatement[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionLike(n)) return;
    if (ts.isReturnStatement(n)) out.push(n);
    ts.forEachChild(n, visit);
  };
  ts.forEachChild(body, visit);
  return out;
}

export function usesThisOrArguments(body: ts.Node): boolean {
  let found = false;
  const visit = (n: ts.Node): void => {
    if (
      found ||
      ((ts.isFunctionDeclaration(n) || ts.isFunctionExpression(n) || ts.isMethodDeclaration(n)) && n !== body)
    )
      return;
    if (
      n.kind === ts.SyntaxKind.ThisKeyword ||
      (ts.isIdentifier(n) && n.text === "arguments") ||
      ts.isMetaProperty(n)
    )
      found = true;
    else ts.forEachChild(n, visit);
  };
  ts.forEachChild(body, visit);
  return found;
}

export const asyncFamilies: FamilyModule = {
  families: ["missing-await", "async-foreach"],
  node(node, ctx) {
    if (!ts.isCallExpression(node)) return;
    missingAwait(node, ctx);
    asyncForEach(node, ctx);
  },
  functions(chain, _unit, ctx) {
    const fn = chain[0]!;
    if (ts.isCallExpression(fn.parent)) asyncForEach(fn.parent, ctx);
  },
};
