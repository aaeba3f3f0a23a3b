/**
 * Bounds off by one: an index (`a[a.length]`), a `+ 1`/`- 1` too many, `slice`/`substring`/
 * `substr` bounds and which of them is meant, `slice` vs `splice`, `indexOf(...) > 0` for
 * "found" (index 0 is found too).
 */
import ts from "typescript";
import { code, isAtom, namesIn, type Context } from "../context.js";
import type { FamilyModule } from "../family.js";
import type { JsCandidateFamily } from "../types.js";

const K = ts.SyntaxKind;

function numberOf(e: ts.Expression): number | undefined {
  if (ts.isNumericLiteral(e)) return Number(e.text);
  if (ts.isPrefixUnaryExpression(e) && e.operator === K.MinusToken && ts.isNumericLiteral(e.operand))
    return -Number(e.operand.text);
  return undefined;
}

const isPlusMinusOne = (e: ts.Expression): e is ts.BinaryExpression =>
  ts.isBinaryExpression(e) &&
  (e.operatorToken.kind === K.PlusToken || e.operatorToken.kind === K.MinusToken) &&
  numberOf(e.right) === 1;

/** `e` → `e + 1` / `e - 1` (a number: n ± 1); nothing for an expression that already ends in `± 1`. */
export function shift(
  ctx: Context,
  node: ts.Expression,
  why: string,
  prior: number,
  family: JsCandidateFamily = "off-by-one",
  downFirst = false,
): void {
  const n = numberOf(node);
  const text = ctx.seg(node);
  let alts: string[];
  if (n !== undefined && Number.isInteger(n)) alts = n === 0 ? ["1"] : [String(n + 1), String(n - 1)];
  else if (n !== undefined || isPlusMinusOne(node)) return;
  else {
    const inner = isAtom(node) || ts.isBinaryExpression(node) ? text : `(${text})`;
    alts = downFirst ? [`${inner} - 1`, `${inner} + 1`] : [`${inner} + 1`, `${inner} - 1`];
  }
  alts.forEach((alt, i) => {
    const fitted = alt.includes(" ") ? ctx.fit(node, alt) : alt;
    ctx.replace(
      family,
      prior + 0.2 * i,
      node,
      fitted,
      `At line ${ctx.lineOf(node)} ${why}: ${code(text)} should be ${code(fitted)}.`,
      { names: namesIn(node), literals: [text, fitted], facts: { byOne: true } },
    );
  });
}

/** `a[i]` with a number (or unknown) index into an array or string: i ± 1; `a[a.length]` → `a[a.length - 1]`. */
function index(node: ts.ElementAccessExpression, ctx: Context): void {
  const arg = node.argumentExpression;
  if (ts.isStringLiteralLike(arg)) return;
  const of = ctx.scopes.kindOfExpression(node.expression);
  if (of !== "array" && of !== "string" && of !== "unknown") return;
  const argKind = ctx.scopes.kindOfExpression(arg);
  if (argKind !== "number" && argKind !== "unknown") return;
  const length = ts.isPropertyAccessExpression(arg) && arg.name.text === "length";
  shift(
    ctx,
    arg,
    length ? "the index is one past the last item" : "the index is off by one",
    length ? 1.1 : 1.5,
    "off-by-one",
    length,
  );
}

/** A `+ 1` or `- 1` that should not be there (`x.length - 1` where `x.length` is meant). */
function drop(node: ts.BinaryExpression, ctx: Context): void {
  if (!isPlusMinusOne(node)) return;
  const left = ctx.seg(node.left);
  const sign = node.operatorToken.kind === K.PlusToken ? "+ 1" : "- 1";
  ctx.replace(
    "off-by-one",
    1.4,
    node,
    ctx.fit(node, left),
    `The ${code(sign)} at line ${ctx.lineOf(node)} is an off-by-one: ${code(ctx.seg(node))} should be ${code(left)}.`,
    { names: namesIn(node), facts: { byOne: true } },
  );
}

const INDEX_OF = new Set(["indexOf", "lastIndexOf", "findIndex", "search"]);
const isIndexCall = (e: ts.Expression): e is ts.CallExpression =>
  ts.isCallExpression(e) &&
  ts.isPropertyAccessExpression(e.expression) &&
  INDEX_OF.has(e.expression.name.text);

/** `xs.indexOf(x) > 0` misses index 0; `if (s.indexOf(x))` is true for "not found" (-1). */
function indexCheck(node: ts.Node, ctx: Context): void {
  if (ts.isBinaryExpression(node) && isIndexCall(node.left)) {
    const value = numberOf(node.right);
    const op = node.operatorToken.kind;
    const call = ctx.seg(node.left);
    const fixes: [string, number][] = [];
    if (op === K.GreaterThanToken && value === 0) fixes.push([`${call} >= 0`, 0.9], [`${call} > -1`, 1.6]);
    if (op === K.GreaterThanEqualsToken && value === 1) fixes.push([`${call} >= 0`, 1.0]);
    if ((op === K.ExclamationEqualsEqualsToken || op === K.ExclamationEqualsToken) && value === 0)
      fixes.push([`${call} !== -1`, 1.2]);
    if ((op === K.EqualsEqualsEqualsToken || op === K.EqualsEqualsToken) && value === 0)
      fixes.push([`${call} === -1`, 1.8]);
    if (op === K.LessThanEqualsToken && value === 0) fixes.push([`${call} < 0`, 1.0]);
    const callee = node.left.expression as ts.PropertyAccessExpression;
    if (
      callee.name.text === "indexOf" &&
      op === K.GreaterThanToken &&
      value === 0 &&
      node.left.arguments.length === 1
    )
      fixes.push([`${ctx.seg(callee.expression)}.includes(${ctx.seg(node.left.arguments[0]!)})`, 1.3]);
    for (const [text, prior] of fixes) {
      ctx.replace(
        "index-check",
        prior,
        node,
        text,
        `At line ${ctx.lineOf(node)} ${code(ctx.seg(node))} does not test "found" (index 0 is found, -1 is not): it should be ${code(text)}.`,
        { names: namesIn(node), facts: { byOne: true } },
      );
    }
    return;
  }
  if (!ts.isExpression(node) || !isIndexCall(node)) return;
  const p = node.parent;
  const isTest =
    ((ts.isIfStatement(p) || ts.isWhileStatement(p)) && p.expression === node) ||
    (ts.isConditionalExpression(p) && p.condition === node) ||
    (ts.isBinaryExpression(p) &&
      (p.operatorToken.kind === K.AmpersandAmpersandToken || p.operatorToken.kind === K.BarBarToken));
  const negation = ts.isPrefixUnaryExpression(p) && p.operator === K.ExclamationToken ? p : undefined;
  if (!isTest && !negation) return;
  const target = negation ?? node;
  const text = `${ctx.seg(node)} ${negation ? "===" : "!=="} -1`;
  ctx.replace(
    "index-check",
    1.0,
    target,
    ctx.fit(target, text),
    `At line ${ctx.lineOf(node)} ${code(ctx.seg(target))} tests an index as true or false (-1, "not found", is true; 0 is false): it should be ${code(text)}.`,
    { names: namesIn(node) },
  );
}

/** `slice`/`substring`/`substr` bounds, which of them is meant, and `slice` vs `splice`. */
function slicing(node: ts.CallExpression, ctx: Context): void {
  if (!ts.isPropertyAccessExpression(node.expression)) return;
  const method = node.expression.name.text;
  const of = ctx.scopes.kindOfExpression(node.expression.expression);
  const name = node.expression.name;
  const line = ctx.lineOf(name);
  const rename = (family: JsCandidateFamily, prior: number, to: string, why: string) =>
    ctx.replaceRange(
      family,
      prior,
      node,
      name.getStart(ctx.file),
      name.getEnd(),
      to,
      `At line ${line} ${why}: ${code(`.${method}(`)} should be ${code(`.${to}(`)}.`,
      {
        names: [method, to],
        before: method,
        after: to,
      },
    );
  if (method === "slice" || method === "substring" || method === "substr") {
    if (of === "object" || of === "map" || of === "set" || of === "number") return;
    node.arguments.slice(0, 2).forEach((arg, i) => {
      const which = i === 0 ? "start" : method === "substr" ? "length" : "end";
      shift(ctx, arg, `the ${which} of ${code(`.${method}()`)} is off by one`, 1.5 + 0.1 * i, "slice-bounds");
    });
    if (method === "substr") {
      rename("wrong-method", 1.6, "substring", `${code("substr")} takes a length, not an end index`);
      rename("wrong-method", 1.9, "slice", `${code("substr")} takes a length, not an end index`);
    }
    if (method === "substring" && node.arguments.length === 2)
      rename("wrong-method", 2.4, "substr", `the second argument is a length, which ${code("substr")} takes`);
    if (method === "substring" && node.arguments.some((a) => numberOf(a) !== undefined && numberOf(a)! < 0))
      rename(
        "wrong-method",
        1.2,
        "slice",
        `${code("substring")} treats a negative index as 0, ${code("slice")} counts from the end`,
      );
  }
  if ((method === "slice" || method === "splice") && of !== "string") {
    const discarded = ts.isExpressionStatement(node.parent);
    const to = method === "slice" ? "splice" : "slice";
    const why =
      method === "slice"
        ? `${code("slice")} copies and leaves the array as it is; ${code("splice")} removes the items`
        : `${code("splice")} removes items from the array; ${code("slice")} only copies them`;
    rename("wrong-method", method === "slice" && discarded ? 1.1 : 1.7, to, why);
  }
}

export const bounds: FamilyModule = {
  families: ["off-by-one", "index-check", "slice-bounds", "wrong-method"],
  node(node, ctx) {
    if (ts.isElementAccessExpression(node)) index(node, ctx);
    if (ts.isBinaryExpression(node)) drop(node, ctx);
    indexCheck(node, ctx);
    if (ts.isCallExpression(node)) slicing(node, ctx);
  },
};
