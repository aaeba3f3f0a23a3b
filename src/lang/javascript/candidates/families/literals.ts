/**
 * Constants and conditions: a number, boolean or string literal that should be another; a
 * condition negated the wrong way; `typeof x === "object"` where an array (or non-null) is meant.
 */
import ts from "typescript";
import { code, isAtom, namesIn, similarity, type Context } from "../context.js";
import type { FamilyModule } from "../family.js";

const K = ts.SyntaxKind;
const TYPEOF_NAMES = ["string", "number", "boolean", "object", "undefined", "function", "bigint", "symbol"];

/** String literals written in the file, once each, for string replacements. */
const stringsCache = new WeakMap<Context, string[]>();
function fileStrings(ctx: Context): string[] {
  let found = stringsCache.get(ctx);
  if (!found) {
    const out = new Set<string>();
    const visit = (n: ts.Node): void => {
      if (ts.isStringLiteral(n) && !ts.isImportDeclaration(n.parent) && n.text.length <= 80) out.add(n.text);
      ts.forEachChild(n, visit);
    };
    visit(ctx.file);
    found = [...out];
    stringsCache.set(ctx, found);
  }
  return found;
}

const isRequire = (n: ts.Node) =>
  ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === "require";

function quote(value: string, like: string): string {
  const q = like.startsWith("'") ? "'" : '"';
  const body = JSON.stringify(value).slice(1, -1);
  return q === '"' ? `"${body}"` : `'${body.replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

function numberLiteral(node: ts.NumericLiteral, ctx: Context): void {
  const p = node.parent;
  if (ts.isElementAccessExpression(p) && p.argumentExpression === node) return; // off-by-one's
  if (ts.isPrefixUnaryExpression(p)) return;
  if (
    ts.isCallExpression(p) &&
    ts.isPropertyAccessExpression(p.expression) &&
    /^(slice|substring|substr)$/.test(p.expression.name.text)
  )
    return; // slice-bounds'
  if (
    ts.isBinaryExpression(p) &&
    (p.operatorToken.kind === K.PlusToken || p.operatorToken.kind === K.MinusToken) &&
    p.right === node &&
    node.text === "1"
  )
    return; // off-by-one drops `± 1`
  const value = Number(node.text);
  if (!Number.isInteger(value) || node.text.length > 15) return;
  const bound = ts.isBinaryExpression(p) && /[<>]/.test(p.operatorToken.getText(ctx.file));
  const loopStart =
    ts.isVariableDeclaration(p) &&
    ts.isVariableDeclarationList(p.parent) &&
    ts.isForStatement(p.parent.parent);
  const alts = value === 0 ? ["1"] : value === 1 ? ["0", "2"] : [String(value + 1), String(value - 1)];
  alts.forEach((alt, i) => {
    const family = bound || loopStart ? "off-by-one" : "changed-literal";
    ctx.replace(
      family,
      (bound || loopStart ? 1.5 : 2.0) + 0.2 * i,
      node,
      alt,
      `The constant at line ${ctx.lineOf(node)} is wrong: ${code(node.text)} should be ${code(alt)}${loopStart ? " (where the loop starts)" : ""}.`,
      { literals: [node.text, alt], facts: { byOne: Math.abs(Number(alt) - value) === 1 } },
    );
  });
}

function stringLiteral(node: ts.StringLiteral, ctx: Context): void {
  const p = node.parent;
  if (ts.isImportDeclaration(p) || ts.isExportDeclaration(p) || isRequire(p) || ts.isExpressionStatement(p))
    return;
  if (ts.isPropertyAssignment(p) && p.name === node) return;
  if (ts.isLiteralTypeNode(p)) return;
  const typeOf =
    ts.isBinaryExpression(p) && (ts.isTypeOfExpression(p.left) || ts.isTypeOfExpression(p.right));
  const options: [number, string][] = typeOf
    ? TYPEOF_NAMES.filter((t) => t !== node.text).map((t, i) => [1.6 + 0.1 * i, t])
    : fileStrings(ctx)
        .filter((s) => s !== node.text)
        .map((s): [number, string] => [2.2 - 0.8 * similarity(node.text, s), s])
        .filter(([prior]) => prior < 2.0)
        .sort((a, b) => a[0] - b[0]);
  for (const [prior, value] of options.slice(0, 4)) {
    const text = quote(value, ctx.seg(node));
    ctx.replace(
      "changed-literal",
      prior,
      node,
      text,
      `The string at line ${ctx.lineOf(node)} is wrong: ${code(ctx.seg(node))} should be ${code(text)}.`,
      { literals: [node.text, value] },
    );
  }
}

function otherLiteral(node: ts.Node, ctx: Context): void {
  const swaps: Partial<Record<ts.SyntaxKind, [string, number]>> = {
    [K.TrueKeyword]: ["false", 1.5],
    [K.FalseKeyword]: ["true", 1.5],
    [K.NullKeyword]: ["undefined", 2.4],
  };
  const swap =
    swaps[node.kind] ??
    (ts.isIdentifier(node) && node.text === "undefined" && !ts.isBinaryExpression(node.parent)
      ? ["null", 2.4]
      : undefined);
  if (!swap || (ts.isBinaryExpression(node.parent) && node.kind === K.NullKeyword)) return;
  const [alt, prior] = swap;
  ctx.replace(
    "changed-literal",
    prior,
    node,
    alt,
    `The constant at line ${ctx.lineOf(node)} is wrong: ${code(ctx.seg(node))} should be ${code(alt)}.`,
    {
      literals: [ctx.seg(node), alt],
    },
  );
}

/** The condition of an `if`, a loop or a `?:`, when `node` is one. */
function isCondition(node: ts.Node): boolean {
  const p = node.parent;
  return (
    ((ts.isIfStatement(p) || ts.isWhileStatement(p) || ts.isDoStatement(p)) && p.expression === node) ||
    (ts.isForStatement(p) && p.condition === node) ||
    (ts.isConditionalExpression(p) && p.condition === node)
  );
}

const isComparison = (n: ts.Node) =>
  ts.isBinaryExpression(n) && /^[<>=!]=?=?$/.test(n.operatorToken.getText());

function negate(node: ts.Expression, ctx: Context, prior: number, what: string): void {
  let text: string;
  if (ts.isPrefixUnaryExpression(node) && node.operator === K.ExclamationToken) {
    const inner = node.operand;
    text = ts.isParenthesizedExpression(inner) ? ctx.seg(inner.expression) : ctx.seg(inner);
    text = ctx.fit(node, text);
  } else if (isComparison(node) || node.kind === K.TrueKeyword) return;
  else text = `!${isAtom(node) ? ctx.seg(node) : `(${ctx.seg(node)})`}`;
  ctx.replace(
    "negated-condition",
    prior,
    node,
    text,
    `${what} at line ${ctx.lineOf(node)} is the wrong way round: ${code(ctx.seg(node))} should be ${code(text)}.`,
    { names: namesIn(node) },
  );
}

function negatedCondition(node: ts.Node, ctx: Context): void {
  if (!ts.isExpression(node) || !isCondition(node)) return;
  negate(node, ctx, ts.isPrefixUnaryExpression(node) ? 1.0 : 1.2, "The condition");
  if (
    ts.isBinaryExpression(node) &&
    (node.operatorToken.kind === K.AmpersandAmpersandToken || node.operatorToken.kind === K.BarBarToken)
  ) {
    const parts: ts.Expression[] = [];
    const flatten = (e: ts.Expression) => {
      if (ts.isBinaryExpression(e) && e.operatorToken.kind === node.operatorToken.kind) {
        flatten(e.left);
        flatten(e.right);
      } else parts.push(e);
    };
    flatten(node);
    for (const part of parts) negate(part, ctx, 1.5, "Part of the condition");
  }
}

function instanceOfArray(node: ts.BinaryExpression, ctx: Context): void {
  if (
    node.operatorToken.kind !== K.InstanceOfKeyword ||
    !ts.isIdentifier(node.right) ||
    node.right.text !== "Array"
  )
    return;
  const text = `Array.isArray(${ctx.seg(node.left)})`;
  ctx.replace(
    "type-check",
    2.0,
    node,
    text,
    `The check at line ${ctx.lineOf(node)} fails for arrays from another realm: ${code(ctx.seg(node))} should be ${code(text)}.`,
  );
}

function typeCheck(node: ts.Node, ctx: Context): void {
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    const eq = op === K.EqualsEqualsEqualsToken || op === K.EqualsEqualsToken;
    if (!eq && op !== K.ExclamationEqualsEqualsToken && op !== K.ExclamationEqualsToken)
      return instanceOfArray(node, ctx);
    const typeOf = [node.left, node.right].find(ts.isTypeOfExpression);
    const other = typeOf === node.left ? node.right : node.left;
    if (!typeOf || !ts.isStringLiteralLike(other) || other.text !== "object") return;
    const x = ctx.seg(typeOf.expression);
    const fixes: [string, number, string][] = eq
      ? [
          [
            `Array.isArray(${x})`,
            1.4,
            `${code(`typeof ${x}`)} is ${code("'object'")} for any object, not only arrays`,
          ],
          [`${x} !== null && ${ctx.seg(node)}`, 1.5, `${code("typeof null")} is ${code("'object'")} too`],
        ]
      : [
          [`!Array.isArray(${x})`, 1.4, `${code(`typeof ${x}`)} is ${code("'object'")} for arrays too`],
          [`${x} === null || ${ctx.seg(node)}`, 1.5, `${code("typeof null")} is ${code("'object'")} too`],
        ];
    for (const [text, prior, why] of fixes) {
      const fitted = text.includes(" ") ? ctx.fit(node, text) : text;
      ctx.replace(
        "type-check",
        prior,
        node,
        fitted,
        `The check at line ${ctx.lineOf(node)} is wrong (${why}): ${code(ctx.seg(node))} should be ${code(fitted)}.`,
      );
    }
  }
  if (
    ts.isCallExpression(node) &&
    ctx.seg(node.expression) === "Array.isArray" &&
    node.arguments.length === 1
  ) {
    const x = ctx.seg(node.arguments[0]!);
    const text = ctx.fit(node, `${x} !== null && typeof ${x} === 'object'`);
    ctx.replace(
      "type-check",
      2.2,
      node,
      text,
      `The check at line ${ctx.lineOf(node)} accepts only arrays where any object is meant: ${code(ctx.seg(node))} should be ${code(text)}.`,
    );
  }
}

export const literals: FamilyModule = {
  families: ["changed-literal", "off-by-one", "negated-condition", "type-check"],
  node(node, ctx) {
    if (ts.isNumericLiteral(node)) numberLiteral(node, ctx);
    else if (ts.isStringLiteral(node)) stringLiteral(node, ctx);
    else otherLiteral(node, ctx);
    negatedCondition(node, ctx);
    typeCheck(node, ctx);
  },
};
