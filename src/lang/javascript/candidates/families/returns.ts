/**
 * Results that never come out: a function that computes its value and does not return it, an
 * arrow function with braces and no `return` (`x => { x * 2 }`), an object literal read as a
 * block (`() => { total: 0 }`).
 */
import ts from "typescript";
import { code, namesIn, type Context } from "../context.js";
import type { FamilyModule } from "../family.js";

/** Statements of a function body that return a value (nested functions excluded), or yield. */
function returnsValue(body: ts.Block): boolean {
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found || (ts.isFunctionLike(n) && n !== body.parent)) return;
    if ((ts.isReturnStatement(n) && n.expression) || ts.isYieldExpression(n)) found = true;
    else ts.forEachChild(n, visit);
  };
  ts.forEachChild(body, visit);
  return found;
}

const MUTATORS =
  /\.(push|pop|shift|unshift|splice|set|add|delete|clear|forEach|sort|reverse|emit|log|warn|error|info|debug|write|send|end|assign)$/;

/** An expression statement worth returning: not an assignment, a mutation, a log, an `await` for effect. */
function returnable(e: ts.Expression, ctx: Context): boolean {
  if (
    ts.isBinaryExpression(e) &&
    e.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
    e.operatorToken.kind <= ts.SyntaxKind.LastAssignment
  )
    return false;
  if (ts.isPrefixUnaryExpression(e) || ts.isPostfixUnaryExpression(e) || ts.isDeleteExpression(e))
    return false;
  if (ts.isCallExpression(e) && MUTATORS.test(ctx.seg(e.expression).replace(/\s+/g, ""))) return false;
  if (ts.isCallExpression(e) && e.expression.kind === ts.SyntaxKind.SuperKeyword) return false;
  if (ts.isStringLiteral(e)) return false; // a directive
  return true;
}

const nameOf = (fn: ts.SignatureDeclaration, ctx: Context): string =>
  fn.name && !ts.isComputedPropertyName(fn.name)
    ? ctx.seg(fn.name)
    : ts.isArrowFunction(fn)
      ? "the arrow function"
      : "the function";

function arrowBody(fn: ts.ArrowFunction, ctx: Context): void {
  if (!ts.isBlock(fn.body) || fn.body.statements.length !== 1) return;
  const only = fn.body.statements[0]!;
  const callback = ts.isCallOrNewExpression(fn.parent);
  // `() => { total: 0 }` is a block with a label, not an object.
  if (ts.isLabeledStatement(only) && ts.isExpressionStatement(only.statement)) {
    const object = `({ ${ctx.seg(only.label)}: ${ctx.seg(only.statement.expression)} })`;
    ctx.replace(
      "arrow-body",
      0.9,
      fn.body,
      object,
      `The arrow function at line ${ctx.lineOf(fn)} returns nothing: its braces are read as a block with a label, not an object; ${code(ctx.seg(fn.body))} should be ${code(object)}.`,
      { facts: { returns: true } },
    );
    return;
  }
  if (!ts.isExpressionStatement(only) || !returnable(only.expression, ctx)) return;
  const expr = ctx.seg(only.expression);
  const concise = ts.isObjectLiteralExpression(only.expression) ? `(${expr})` : expr;
  ctx.replace(
    "arrow-body",
    callback ? 1.0 : 1.3,
    fn.body,
    concise,
    `The arrow function at line ${ctx.lineOf(fn)} has braces but no ${code("return")}, so it returns ${code("undefined")}: ${code(ctx.seg(fn.body))} should be ${code(concise)}.`,
    { names: namesIn(only), facts: { returns: true } },
  );
  const start = ctx.start(only.expression);
  ctx.replaceRange(
    "arrow-body",
    callback ? 1.1 : 1.4,
    only,
    start,
    start,
    "return ",
    `The arrow function at line ${ctx.lineOf(fn)} computes ${code(expr)} but does not return it: ${code(`return ${expr}`)} is meant.`,
    { names: namesIn(only), before: expr, after: `return ${expr}`, facts: { returns: true } },
  );
}

/** Locals a function builds (declared at the top of its body), latest first, accumulators (`[]`, `{}`, `0`) first. */
function builtLocals(body: ts.Block): string[] {
  const fresh: string[] = [];
  const others: string[] = [];
  for (const s of body.statements) {
    if (!ts.isVariableStatement(s)) continue;
    for (const d of s.declarationList.declarations) {
      if (!ts.isIdentifier(d.name)) continue;
      const init = d.initializer;
      const isFresh =
        !!init &&
        (ts.isArrayLiteralExpression(init) ||
          ts.isObjectLiteralExpression(init) ||
          ts.isNumericLiteral(init) ||
          ts.isStringLiteralLike(init) ||
          ts.isNewExpression(init));
      (isFresh ? fresh : others).push(d.name.text);
    }
  }
  return [...new Set([...fresh, ...others.reverse()])];
}

function missingReturn(fn: ts.SignatureDeclaration, ctx: Context): void {
  const body = "body" in fn ? fn.body : undefined;
  if (!body || !ts.isBlock(body) || body.statements.length === 0) return;
  if (
    ts.isConstructorDeclaration(fn) ||
    ts.isSetAccessorDeclaration(fn) ||
    ts.isClassStaticBlockDeclaration(fn)
  )
    return;
  if (("asteriskToken" in fn && fn.asteriskToken) || returnsValue(body)) return;
  const name = nameOf(fn, ctx);
  const last = body.statements.at(-1)!;
  if (
    ts.isExpressionStatement(last) &&
    returnable(last.expression, ctx) &&
    !(ts.isArrowFunction(fn) && body.statements.length === 1)
  ) {
    const text = ctx.seg(last.expression);
    const start = ctx.start(last.expression);
    const call = ts.isCallExpression(last.expression) || ts.isAwaitExpression(last.expression);
    ctx.replaceRange(
      "missing-return",
      call ? 2.3 : 1.7,
      last,
      start,
      start,
      "return ",
      `${code(name)} computes ${code(text)} at line ${ctx.lineOf(last)} but does not return it.`,
      { names: namesIn(last), before: text, after: `return ${text}`, facts: { returns: true } },
    );
  }
  const { lines } = ctx.src;
  const lastLine = lines.lineOf(last.getEnd());
  if (lastLine === lines.lineOf(body.getEnd() - 1)) return; // `}` shares the last statement's line
  const indent = /^\s*/.exec(lines.line(lines.lineOf(ctx.start(last))))![0];
  const semicolon = ctx.seg(last).trimEnd().endsWith(";") ? ";" : "";
  builtLocals(body)
    .slice(0, 3)
    .forEach((local, i) => {
      const stmt = `return ${local}${semicolon}`;
      ctx.propose({
        family: "missing-return",
        prior: 1.8 + 0.3 * i,
        changes: [{ start: last.getEnd(), end: last.getEnd(), text: `\n${indent}${stmt}` }],
        claim: `${code(name)} builds ${code(local)} but never returns it: ${code(stmt)} is missing at its end.`,
        node: fn,
        names: [local],
        after: stmt,
        facts: { returns: true },
      });
    });
}

export const returns: FamilyModule = {
  families: ["missing-return", "arrow-body"],
  node(node, ctx) {
    if (ts.isArrowFunction(node)) arrowBody(node, ctx);
  },
  functions(chain, _unit, ctx) {
    const fn = chain[0]!;
    if (ts.isArrowFunction(fn)) arrowBody(fn, ctx);
    missingReturn(fn, ctx);
  },
};
