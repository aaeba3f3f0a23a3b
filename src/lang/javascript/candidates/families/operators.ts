/**
 * Operator slips: a comparison testing the wrong relation or bound, `==` vs `===`, an
 * arithmetic or boolean operator swapped, `=` where `+=` accumulates, operands in the wrong order.
 */
import ts from "typescript";
import { code, namesIn, type Context } from "../context.js";
import type { FamilyModule } from "../family.js";

const K = ts.SyntaxKind;

const COMPARISONS: Partial<Record<ts.SyntaxKind, string[]>> = {
  [K.LessThanToken]: ["<=", ">", ">="],
  [K.LessThanEqualsToken]: ["<", ">=", ">"],
  [K.GreaterThanToken]: [">=", "<", "<="],
  [K.GreaterThanEqualsToken]: [">", "<=", "<"],
  [K.EqualsEqualsEqualsToken]: ["!=="],
  [K.ExclamationEqualsEqualsToken]: ["==="],
  [K.EqualsEqualsToken]: ["!="],
  [K.ExclamationEqualsToken]: ["=="],
};
const STRICTNESS: Partial<Record<ts.SyntaxKind, string>> = {
  [K.EqualsEqualsToken]: "===",
  [K.ExclamationEqualsToken]: "!==",
  [K.EqualsEqualsEqualsToken]: "==",
  [K.ExclamationEqualsEqualsToken]: "!=",
};
const ARITHMETIC: Partial<Record<ts.SyntaxKind, string[]>> = {
  [K.PlusToken]: ["-", "*"],
  [K.MinusToken]: ["+"],
  [K.AsteriskToken]: ["/", "+", "**"],
  [K.SlashToken]: ["*"],
  [K.PercentToken]: ["/"],
  [K.AsteriskAsteriskToken]: ["*"],
  [K.PlusEqualsToken]: ["-=", "="],
  [K.MinusEqualsToken]: ["+=", "="],
  [K.AsteriskEqualsToken]: ["/=", "+="],
  [K.SlashEqualsToken]: ["*="],
};
const BOOLEAN: Partial<Record<ts.SyntaxKind, string[]>> = {
  [K.AmpersandAmpersandToken]: ["||"],
  [K.BarBarToken]: ["&&"],
  [K.AmpersandToken]: ["&&"],
  [K.BarToken]: ["||"],
};
const NON_COMMUTATIVE = new Set([K.MinusToken, K.SlashToken, K.PercentToken, K.AsteriskAsteriskToken]);

/** `null`, `undefined` or `void 0`: comparisons with these belong to nullish-check. */
export function isNullish(e: ts.Expression): boolean {
  return e.kind === K.NullKeyword || (ts.isIdentifier(e) && e.text === "undefined") || ts.isVoidExpression(e);
}

const isStringy = (e: ts.Expression) => ts.isStringLiteralLike(e) || ts.isTemplateExpression(e);

function comparison(node: ts.BinaryExpression, ctx: Context): void {
  const kind = node.operatorToken.kind;
  const old = node.operatorToken.getText(ctx.file);
  const start = node.operatorToken.getStart(ctx.file);
  const end = node.operatorToken.getEnd();
  const left = ctx.seg(node.left);
  const right = ctx.seg(node.right);
  const line = ctx.lineOf(node.operatorToken);
  (COMPARISONS[kind] ?? []).forEach((alt, k) => {
    const bound = [old, alt].sort().join(" ") === "< <=" || [old, alt].sort().join(" ") === "> >=";
    const sign = (old.includes("<") && alt.includes(">")) || (old.includes(">") && alt.includes("<"));
    const prior = bound
      ? 1.0
      : /=/.test(old) && /=/.test(alt) && !/[<>]/.test(old + alt)
        ? 1.3
        : 1.4 + 0.3 * k;
    const why = bound ? "the bound is off by one" : "the comparison tests the wrong relation";
    ctx.replaceRange(
      "changed-operator",
      prior,
      node,
      start,
      end,
      alt,
      `The comparison at line ${line} uses ${code(old)} where ${code(alt)} is meant (${why}): ${code(`${left} ${old} ${right}`)} should be ${code(`${left} ${alt} ${right}`)}.`,
      { names: namesIn(node), before: old, after: alt, facts: { byOne: bound, sign } },
    );
  });
  const strict = STRICTNESS[kind];
  if (strict && !isNullish(node.left) && !isNullish(node.right)) {
    const loosen = strict.length < old.length;
    const claim = loosen
      ? `The comparison at line ${line} is strict, but its two sides hold the same value in different types (a string and a number): ${code(`${left} ${old} ${right}`)} should be ${code(`${left} ${strict} ${right}`)}.`
      : `The comparison at line ${line} is loose and converts types (${code("'' == 0")} is true): ${code(`${left} ${old} ${right}`)} should be ${code(`${left} ${strict} ${right}`)}.`;
    ctx.replaceRange("strict-equality", loosen ? 1.6 : 1.4, node, start, end, strict, claim, {
      names: namesIn(node),
      before: old,
      after: strict,
    });
  }
}

function arithmetic(node: ts.BinaryExpression, ctx: Context): void {
  const kind = node.operatorToken.kind;
  const old = node.operatorToken.getText(ctx.file);
  const start = node.operatorToken.getStart(ctx.file);
  const textual = isStringy(node.left) || isStringy(node.right);
  (ARITHMETIC[kind] ?? []).forEach((alt, k) => {
    if (alt === "=" && !ts.isIdentifier(node.left) && !ts.isPropertyAccessExpression(node.left)) return;
    const prior = (k === 0 ? 1.3 : 2.4 + 0.2 * k) + (textual ? 1.5 : 0);
    const facts = {
      sign: (old + alt).includes("+") && (old + alt).includes("-"),
      factor: /[*/]/.test(old) && /[*/]/.test(alt),
    };
    ctx.replaceRange(
      "changed-operator",
      prior,
      node,
      start,
      node.operatorToken.getEnd(),
      alt,
      `The arithmetic at line ${ctx.lineOf(node.operatorToken)} uses ${code(old)} where ${code(alt)} is meant: ${code(ctx.seg(node))} should use ${code(alt)}.`,
      { names: namesIn(node), before: old, after: alt, facts },
    );
  });
  if (NON_COMMUTATIVE.has(kind) && ctx.seg(node.left) !== ctx.seg(node.right)) {
    const swapped = `${ctx.seg(node.right)} ${old} ${ctx.seg(node.left)}`;
    ctx.replace(
      "swapped-operands",
      1.8,
      node,
      swapped,
      `The operands at line ${ctx.lineOf(node)} are the wrong way round: ${code(ctx.seg(node))} should be ${code(swapped)}.`,
      { facts: { sign: kind === K.MinusToken, order: true } },
    );
  }
}

function booleanOperator(node: ts.BinaryExpression, ctx: Context): void {
  const kind = node.operatorToken.kind;
  const old = node.operatorToken.getText(ctx.file);
  for (const alt of BOOLEAN[kind] ?? []) {
    const bitwise = kind === K.AmpersandToken || kind === K.BarToken;
    ctx.replaceRange(
      "changed-operator",
      bitwise ? 2.0 : 1.2,
      node,
      node.operatorToken.getStart(ctx.file),
      node.operatorToken.getEnd(),
      alt,
      `The condition at line ${ctx.lineOf(node.operatorToken)} joins its parts with ${code(old)} where ${code(alt)} is meant: ${code(ctx.seg(node))} should use ${code(alt)}.`,
      { names: namesIn(node), before: old, after: alt },
    );
  }
}

/** `total = x` in a loop, where `total` is declared outside it: the loop overwrites what it should add up. */
function accumulate(node: ts.BinaryExpression, ctx: Context): void {
  if (node.operatorToken.kind !== K.EqualsToken || !ts.isIdentifier(node.left) || !ctx.inLoop(node)) return;
  if (!ts.isExpressionStatement(node.parent)) return;
  const b = ctx.scopes.resolve(node.left);
  if (!b || b.role === "const") return;
  let loop: ts.Node | undefined = node.parent;
  while (loop && !ts.isIterationStatement(loop, false)) loop = loop.parent;
  if (!loop || (b.decl.pos >= loop.pos && b.decl.end <= loop.end)) return;
  const kind = ctx.scopes.kindOf(b);
  if (kind !== "number" && kind !== "string" && kind !== "unknown") return;
  const name = node.left.text;
  ctx.replaceRange(
    "changed-operator",
    2.0,
    node,
    node.operatorToken.getStart(ctx.file),
    node.operatorToken.getEnd(),
    "+=",
    `The loop at line ${ctx.lineOf(node)} overwrites ${code(name)} on every pass where it should add to it: ${code(ctx.seg(node))} should use ${code("+=")}.`,
    { names: [name], before: "=", after: "+=" },
  );
}

export const operators: FamilyModule = {
  families: ["changed-operator", "strict-equality", "swapped-operands"],
  node(node, ctx) {
    if (!ts.isBinaryExpression(node)) return;
    comparison(node, ctx);
    arithmetic(node, ctx);
    booleanOperator(node, ctx);
    accumulate(node, ctx);
  },
};
