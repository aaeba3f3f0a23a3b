/**
 * `undefined` and `null`, which JavaScript code confuses: `=== null` where `== null` (or
 * `=== undefined`) is meant, a truthiness test that drops `0` and `""`, optional chaining
 * missing (`a.b.c` reading a property of `undefined`) or hiding an error, `||` where `??` keeps
 * a valid `0`, and the reverse.
 */
import ts from "typescript";
import { code, namesIn, type Context } from "../context.js";
import type { FamilyModule } from "../family.js";
import { isNullish } from "./operators.js";

const K = ts.SyntaxKind;

/** Globals whose members are always there: no optional chaining on `Math.max`. */
const ALWAYS_THERE = new Set([
  "Math",
  "JSON",
  "Object",
  "Array",
  "Number",
  "String",
  "Boolean",
  "console",
  "process",
  "Promise",
  "Date",
  "Reflect",
  "Symbol",
  "module",
  "exports",
  "require",
  "window",
  "document",
  "globalThis",
]);

function nullCheck(node: ts.BinaryExpression, ctx: Context): void {
  const op = node.operatorToken.kind;
  if (op !== K.EqualsEqualsEqualsToken && op !== K.ExclamationEqualsEqualsToken) return;
  const line = ctx.lineOf(node);
  const eq = op === K.EqualsEqualsEqualsToken;
  // `typeof x === "undefined"` lets `null` through.
  const typeOf = [node.left, node.right].find(ts.isTypeOfExpression);
  const other = typeOf === node.left ? node.right : node.left;
  if (typeOf && ts.isStringLiteralLike(other) && other.text === "undefined") {
    const loose = `${ctx.seg(typeOf.expression)} ${eq ? "==" : "!="} null`;
    ctx.replace(
      "nullish-check",
      1.6,
      node,
      ctx.fit(node, loose),
      `The check at line ${line} lets ${code("null")} through: ${code(ctx.seg(node))} should be ${code(loose)}.`,
      { facts: { guarded: ctx.seg(typeOf.expression) } },
    );
    return;
  }
  const [value, nullish] = isNullish(node.right) ? [node.left, node.right] : [node.right, node.left];
  if (!isNullish(nullish) || isNullish(value)) return;
  const subject = ctx.seg(value);
  const loose = `${subject} ${eq ? "==" : "!="} null`;
  const which = nullish.kind === K.NullKeyword ? "null" : "undefined";
  const otherValue = which === "null" ? "undefined" : "null";
  ctx.replace(
    "nullish-check",
    1.3,
    node,
    loose,
    `The check at line ${line} tests only for ${code(which)}, but ${code(subject)} can be ${code(otherValue)} too: ${code(ctx.seg(node))} should be ${code(loose)}.`,
    { facts: { guarded: subject } },
  );
  const swapped = `${subject} ${eq ? "===" : "!=="} ${otherValue}`;
  ctx.replace(
    "nullish-check",
    1.6,
    node,
    swapped,
    `The check at line ${line} tests for ${code(which)} where ${code(subject)} is ${code(otherValue)}: ${code(ctx.seg(node))} should be ${code(swapped)}.`,
    { facts: { guarded: subject } },
  );
}

/** `if (count)` drops a valid `0` or `""`: `count != null` keeps them. */
function truthiness(node: ts.Node, ctx: Context): void {
  const p = node.parent;
  const isTest =
    ((ts.isIfStatement(p) || ts.isWhileStatement(p)) && p.expression === node) ||
    (ts.isConditionalExpression(p) && p.condition === node);
  if (!isTest || !ts.isExpression(node)) return;
  let subject: ts.Expression = node;
  let negated = false;
  if (ts.isPrefixUnaryExpression(node) && node.operator === K.ExclamationToken) {
    subject = node.operand;
    negated = true;
  }
  if (!ts.isIdentifier(subject) && !ts.isPropertyAccessExpression(subject)) return;
  const kind = ctx.scopes.kindOfExpression(subject);
  if (kind !== "number" && kind !== "string" && kind !== "unknown") return;
  const text = `${ctx.seg(subject)} ${negated ? "==" : "!="} null`;
  ctx.replace(
    "nullish-check",
    kind === "unknown" ? 2.4 : 1.8,
    node,
    text,
    `The test at line ${ctx.lineOf(node)} treats ${code("0")} and ${code('""')} as missing: ${code(ctx.seg(node))} should be ${code(text)}.`,
    { facts: { guarded: ctx.seg(subject) } },
  );
}

/** Whether `?.` may go on this access (not an assignment target, `new` callee, tag or `++` operand). */
function chainable(
  node: ts.PropertyAccessExpression | ts.ElementAccessExpression | ts.CallExpression,
): boolean {
  let top: ts.Node = node;
  while (ts.isParenthesizedExpression(top.parent)) top = top.parent;
  const p = top.parent;
  if (
    ts.isBinaryExpression(p) &&
    p.left === top &&
    p.operatorToken.kind >= K.FirstAssignment &&
    p.operatorToken.kind <= K.LastAssignment
  )
    return false;
  if (
    (ts.isPrefixUnaryExpression(p) || ts.isPostfixUnaryExpression(p)) &&
    (p.operator === K.PlusPlusToken || p.operator === K.MinusMinusToken)
  )
    return false;
  if (ts.isNewExpression(p) && p.expression === top) return false;
  if (ts.isTaggedTemplateExpression(p)) return false;
  if (ts.isForInStatement(p) || ts.isForOfStatement(p)) return p.initializer !== top;
  if (
    ts.isArrayLiteralExpression(p) ||
    ts.isObjectLiteralExpression(p) ||
    ts.isPropertyAssignment(p) ||
    ts.isShorthandPropertyAssignment(p)
  ) {
    // A destructuring target (`[a.b] = ...`) cannot be optional.
    for (let n: ts.Node = p; n; n = n.parent) {
      if (ts.isBinaryExpression(n.parent) && n.parent.left === n) return false;
      if (
        !ts.isArrayLiteralExpression(n.parent) &&
        !ts.isObjectLiteralExpression(n.parent) &&
        !ts.isPropertyAssignment(n.parent)
      )
        break;
    }
  }
  const root = rootOf(node.expression);
  return (
    !(ts.isIdentifier(root) && ALWAYS_THERE.has(root.text) && root === node.expression) &&
    root.kind !== K.ThisKeyword &&
    root.kind !== K.SuperKeyword
  );
}

function rootOf(e: ts.Expression): ts.Expression {
  let n = e;
  while (
    ts.isPropertyAccessExpression(n) ||
    ts.isElementAccessExpression(n) ||
    ts.isCallExpression(n) ||
    ts.isNonNullExpression(n)
  )
    n = n.expression;
  return n;
}

/** `.find(...)`, `.get(...)`, `.match(...)`, `querySelector(...)`: results that are often `undefined` or `null`. */
const MAYBE_MISSING = /\.(find|findLast|get|match|exec|querySelector|getElementById|pop|shift|at)\s*\(/;

function optionalChaining(node: ts.Node, ctx: Context): void {
  if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
    const object = ctx.seg(node.expression);
    if (node.questionDotToken) {
      const at = node.questionDotToken.getStart(ctx.file);
      const plain = ts.isPropertyAccessExpression(node) ? "." : "";
      ctx.replaceRange(
        "optional-chaining",
        2.6,
        node,
        at,
        node.questionDotToken.getEnd(),
        plain,
        `The optional chain at line ${ctx.lineOf(node)} hides a missing ${code(object)}: ${code(ctx.seg(node))} should not use ${code("?.")}.`,
        { before: "?.", after: plain },
      );
      return;
    }
    if (!chainable(node)) return;
    const likely = MAYBE_MISSING.test(`${object}(`) || MAYBE_MISSING.test(object);
    const dot = ts.isPropertyAccessExpression(node)
      ? ctx.tokenStart(node, K.DotToken)
      : ctx.tokenStart(node, K.OpenBracketToken);
    if (dot === undefined) return;
    const insert = ts.isPropertyAccessExpression(node) ? "?" : "?.";
    const after = `${object}?.${ts.isPropertyAccessExpression(node) ? node.name.text : `[${ctx.seg(node.argumentExpression)}]`}`;
    ctx.replaceRange(
      "optional-chaining",
      likely ? 1.2 : ts.isElementAccessExpression(node) ? 1.9 : 1.7,
      node,
      dot,
      dot,
      insert,
      `At line ${ctx.lineOf(node)} ${code(object)} can be ${code("undefined")}: ${code(ctx.seg(node))} should be ${code(after)}.`,
      { names: namesIn(node), before: ctx.seg(node), after, facts: { guarded: object } },
    );
  } else if (
    ts.isCallExpression(node) &&
    !node.questionDotToken &&
    ts.isPropertyAccessExpression(node.expression)
  ) {
    if (!chainable(node) || !chainable(node.expression)) return;
    const open = ctx.tokenStart(node, K.OpenParenToken);
    if (open === undefined || node.typeArguments) return;
    const callee = ctx.seg(node.expression);
    ctx.replaceRange(
      "optional-chaining",
      2.4,
      node,
      open,
      open,
      "?.",
      `At line ${ctx.lineOf(node)} ${code(callee)} may be missing: ${code(`${callee}(...)`)} should be ${code(`${callee}?.(...)`)}.`,
      { names: namesIn(node.expression), facts: { guarded: callee } },
    );
  }
}

const isLogical = (n: ts.Node) =>
  ts.isBinaryExpression(n) &&
  (n.operatorToken.kind === K.BarBarToken || n.operatorToken.kind === K.AmpersandAmpersandToken);

function coalescing(node: ts.BinaryExpression, ctx: Context): void {
  const op = node.operatorToken.kind;
  const swap: Partial<Record<ts.SyntaxKind, string>> = {
    [K.BarBarToken]: "??",
    [K.QuestionQuestionToken]: "||",
    [K.BarBarEqualsToken]: "??=",
    [K.QuestionQuestionEqualsToken]: "||=",
  };
  const alt = swap[op];
  if (!alt) return;
  const old = node.operatorToken.getText(ctx.file);
  const toNullish = alt.startsWith("??");
  const kind = ctx.scopes.kindOfExpression(node.left);
  const prior = toNullish
    ? kind === "number" || kind === "string" || kind === "boolean"
      ? 1.2
      : kind === "unknown"
        ? 1.5
        : 2.2
    : 1.8;
  // `??` cannot be mixed with `||` or `&&` without parentheses.
  const side = (e: ts.Expression) => (toNullish && isLogical(e) ? `(${ctx.seg(e)})` : ctx.seg(e));
  let text = `${side(node.left)} ${alt} ${side(node.right)}`;
  if (toNullish && isLogical(node.parent)) text = `(${text})`;
  const left = ctx.seg(node.left);
  const claim = toNullish
    ? `At line ${ctx.lineOf(node)} ${code(old)} replaces a valid ${code("0")}, ${code('""')} or ${code("false")} in ${code(left)} by the default: ${code(ctx.seg(node))} should use ${code(alt)}.`
    : `At line ${ctx.lineOf(node)} ${code(old)} keeps an empty ${code(left)} (${code("0")}, ${code('""')}, ${code("NaN")}) that should get the default: ${code(ctx.seg(node))} should use ${code(alt)}.`;
  ctx.replace("nullish-coalescing", prior, node, text, claim, {
    names: namesIn(node),
    before: old,
    after: alt,
    facts: { guarded: left },
  });
}

export const nullish: FamilyModule = {
  families: ["nullish-check", "optional-chaining", "nullish-coalescing"],
  node(node, ctx) {
    if (ts.isBinaryExpression(node)) {
      nullCheck(node, ctx);
      coalescing(node, ctx);
    }
    truthiness(node, ctx);
    optionalChaining(node, ctx);
  },
};
