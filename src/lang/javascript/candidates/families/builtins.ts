/**
 * Built-ins JavaScript code misuses: `Object.keys`/`values`/`entries` and `for...in` vs
 * `for...of`; a sort comparator returning a boolean (or none, sorting numbers as strings);
 * `parseInt` without a radix, or where `Number` is meant; `+` concatenating a string where
 * numbers were meant to add; `reduce` without an initial value.
 */
import ts from "typescript";
import { code, isAtom, namesIn, type Context } from "../context.js";
import type { FamilyModule } from "../family.js";

const K = ts.SyntaxKind;

const OBJECT_ITERATION: Record<string, [string, number][]> = {
  keys: [
    ["values", 1.4],
    ["entries", 1.8],
  ],
  values: [
    ["keys", 1.5],
    ["entries", 1.8],
  ],
  entries: [
    ["keys", 1.8],
    ["values", 1.8],
  ],
};

function objectIteration(node: ts.Node, ctx: Context): void {
  if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
    const callee = node.expression;
    if (!ts.isIdentifier(callee.expression) || callee.expression.text !== "Object") return;
    const options = Object.hasOwn(OBJECT_ITERATION, callee.name.text)
      ? OBJECT_ITERATION[callee.name.text]!
      : [];
    for (const [alt, prior] of options) {
      ctx.replaceRange(
        "object-iteration",
        prior,
        node,
        callee.name.getStart(ctx.file),
        callee.name.getEnd(),
        alt,
        `Line ${ctx.lineOf(node)} iterates the object's ${callee.name.text} where its ${alt} are meant: ${code(`Object.${callee.name.text}(...)`)} should be ${code(`Object.${alt}(...)`)}.`,
        { before: callee.name.text, after: alt },
      );
    }
  }
  if (
    (ts.isForInStatement(node) || ts.isForOfStatement(node)) &&
    !(ts.isForOfStatement(node) && node.awaitModifier)
  ) {
    const of = ctx.scopes.kindOfExpression(node.expression);
    const toOf = ts.isForInStatement(node);
    if (
      toOf
        ? of === "object" || of === "map"
        : of === "array" || of === "string" || of === "map" || of === "set"
    )
      return;
    const start = node.initializer.getEnd();
    const at = ctx.text.indexOf(toOf ? "in" : "of", start);
    if (at < 0 || at >= node.expression.getStart(ctx.file)) return;
    const alt = toOf ? "of" : "in";
    const prior = toOf ? (of === "array" ? 0.9 : 1.3) : of === "object" ? 1.2 : 2.0;
    ctx.replaceRange(
      "object-iteration",
      prior,
      node,
      at,
      at + 2,
      alt,
      toOf
        ? `The loop at line ${ctx.lineOf(node)} iterates the indices (as strings) of ${code(ctx.seg(node.expression))}, not its items: ${code("for...in")} should be ${code("for...of")}.`
        : `The loop at line ${ctx.lineOf(node)} iterates ${code(ctx.seg(node.expression))} as a list where its keys are meant: ${code("for...of")} should be ${code("for...in")}.`,
      { before: toOf ? "in" : "of", after: alt },
    );
  }
}

const BOOLEAN_RESULT = new Set([
  K.GreaterThanToken,
  K.LessThanToken,
  K.GreaterThanEqualsToken,
  K.LessThanEqualsToken,
]);

function sortComparator(node: ts.CallExpression, ctx: Context): void {
  if (!ts.isPropertyAccessExpression(node.expression) || !/^(sort|toSorted)$/.test(node.expression.name.text))
    return;
  const line = ctx.lineOf(node.expression.name);
  const cb = node.arguments[0];
  if (!cb) {
    const of = ctx.scopes.kindOfExpression(node.expression.expression);
    if (of !== "array" && of !== "unknown") return;
    const close = node.getEnd() - 1;
    ctx.replaceRange(
      "sort-comparator",
      of === "array" ? 1.5 : 1.9,
      node,
      close,
      close,
      "(a, b) => a - b",
      `The ${code(".sort()")} at line ${line} has no comparator, so it sorts numbers as strings (${code("[10, 9].sort()")} is ${code("[10, 9]")}): it should be ${code(".sort((a, b) => a - b)")}.`,
      { after: "(a, b) => a - b", facts: { order: true } },
    );
    return;
  }
  if (!(ts.isArrowFunction(cb) || ts.isFunctionExpression(cb)) || cb.parameters.length !== 2) return;
  let result: ts.Expression | undefined = ts.isBlock(cb.body) ? undefined : cb.body;
  if (ts.isBlock(cb.body) && cb.body.statements.length === 1) {
    const only = cb.body.statements[0]!;
    if (ts.isReturnStatement(only)) result = only.expression;
  }
  if (!result || !ts.isBinaryExpression(result) || !BOOLEAN_RESULT.has(result.operatorToken.kind)) return;
  const [left, right] = [ctx.seg(result.left), ctx.seg(result.right)];
  const ascending =
    result.operatorToken.kind === K.GreaterThanToken ||
    result.operatorToken.kind === K.GreaterThanEqualsToken;
  const [first, second] = ascending ? [left, right] : [right, left];
  const stringy = ctx.scopes.kindOfExpression(result.left) === "string";
  const numeric = `${first} - ${second}`;
  const textual = `${isAtom(result.left) ? first : `(${first})`}.localeCompare(${second})`;
  for (const [text, prior] of [
    [numeric, stringy ? 1.6 : 0.9],
    [textual, stringy ? 0.9 : 1.4],
  ] as const) {
    ctx.replace(
      "sort-comparator",
      prior,
      result,
      ctx.fit(result, text),
      `The comparator at line ${ctx.lineOf(result)} returns a boolean, which ${code(".sort")} reads as 0 or 1 (never "before"): ${code(ctx.seg(result))} should be ${code(text)}.`,
      { names: namesIn(result), facts: { order: true } },
    );
  }
}

function numberParsing(node: ts.CallExpression, ctx: Context): void {
  const callee = ctx.seg(node.expression).replace(/\s+/g, "");
  const args = node.arguments;
  if (args.length === 0 || args.some(ts.isSpreadElement)) return;
  const value = ctx.seg(args[0]!);
  const calleeStart = ctx.start(node.expression);
  const options: [string, number, string][] = [];
  if (/^(Number\.)?parseInt$/.test(callee) && args.length === 1) {
    options.push(
      [
        `${callee}(${value}, 10)`,
        1.6,
        `${code(`${callee}(${value})`)} guesses the base from the text (a leading ${code("0x")} is hex)`,
      ],
      [`Number(${value})`, 1.7, `${code("parseInt")} drops the decimals and any trailing text`],
      [`parseFloat(${value})`, 1.8, `${code("parseInt")} drops the decimals`],
    );
  } else if (/^(Number\.)?parseInt$/.test(callee)) {
    options.push([`parseFloat(${value})`, 1.8, `${code("parseInt")} drops the decimals`]);
  } else if (callee === "Number" && args.length === 1) {
    options.push([
      `parseInt(${value}, 10)`,
      1.9,
      `${code("Number")} turns text with trailing units (${code("'12px'")}) into ${code("NaN")}`,
    ]);
  } else if (/^(Number\.)?parseFloat$/.test(callee)) {
    options.push([`Number(${value})`, 2.0, `${code("parseFloat")} accepts trailing text`]);
  }
  for (const [text, prior, why] of options) {
    ctx.replaceRange(
      "number-parsing",
      prior,
      node,
      calleeStart,
      node.getEnd(),
      text,
      `At line ${ctx.lineOf(node)} ${why}: ${code(ctx.seg(node))} should be ${code(text)}.`,
      {
        names: namesIn(node),
        before: ctx.seg(node),
        after: text,
      },
    );
  }
}

const isTextual = (e: ts.Expression) => ts.isStringLiteralLike(e) || ts.isTemplateExpression(e);

function concatenation(node: ts.BinaryExpression, ctx: Context): void {
  const op = node.operatorToken.kind;
  if (op !== K.PlusToken && op !== K.PlusEqualsToken) return;
  const kind = (e: ts.Expression) => ctx.scopes.kindOfExpression(e);
  // `"Total: " + a + b` concatenates `b` where `a + b` was meant.
  if (
    op === K.PlusToken &&
    ts.isBinaryExpression(node.left) &&
    node.left.operatorToken.kind === K.PlusToken
  ) {
    const inner = node.left;
    if (
      isTextual(inner.left) &&
      !isTextual(inner.right) &&
      !isTextual(node.right) &&
      kind(inner.right) !== "string" &&
      kind(node.right) !== "string"
    ) {
      const text = `${ctx.seg(inner.left)} + (${ctx.seg(inner.right)} + ${ctx.seg(node.right)})`;
      ctx.replace(
        "string-concatenation",
        1.4,
        node,
        ctx.fit(node, text),
        `At line ${ctx.lineOf(node)} the numbers are joined as text after the string: ${code(ctx.seg(node))} should be ${code(text)}.`,
        {
          names: namesIn(node),
          facts: { numeric: true },
        },
      );
    }
  }
  if (isTextual(node.left) || isTextual(node.right)) return;
  const wrap = (e: ts.Expression) => `Number(${ctx.seg(e)})`;
  // A side is suspect when it is not known to be a number and may hold text.
  const suspect = (e: ts.Expression, other: ts.Expression): number | undefined => {
    const k = kind(e);
    if (k !== "string" && k !== "unknown") return undefined;
    const text = k === "string" || mayBeText(e, ctx);
    if (kind(other) === "number") return text ? 1.6 : 2.4;
    return text ? 2.2 : undefined;
  };
  const options: [ts.Expression, number][] = [];
  for (const [operand, other] of [
    [node.left, node.right],
    [node.right, node.left],
  ] as const) {
    if (op === K.PlusEqualsToken && operand === node.left) continue;
    const prior = suspect(operand, other);
    if (prior !== undefined) options.push([operand, prior]);
  }
  for (const [operand, prior] of options) {
    ctx.replace(
      "string-concatenation",
      prior,
      operand,
      wrap(operand),
      `At line ${ctx.lineOf(node)} ${code(ctx.seg(operand))} may be a string, so ${code("+")} joins text instead of adding: it should be ${code(wrap(operand))}.`,
      {
        names: namesIn(operand),
        facts: { numeric: true },
      },
    );
  }
  if (
    op === K.PlusToken &&
    kind(node.left) !== "number" &&
    kind(node.right) !== "number" &&
    mayBeText(node.left, ctx) &&
    mayBeText(node.right, ctx)
  ) {
    const text = `${wrap(node.left)} + ${wrap(node.right)}`;
    ctx.replace(
      "string-concatenation",
      2.0,
      node,
      ctx.fit(node, text),
      `At line ${ctx.lineOf(node)} both operands of ${code("+")} may be strings: ${code(ctx.seg(node))} should be ${code(text)}.`,
      {
        names: namesIn(node),
        facts: { numeric: true },
      },
    );
  }
}

/** Values that often arrive as text: form fields, query parameters, environment variables, split parts, JSON input. */
function mayBeText(e: ts.Expression, ctx: Context): boolean {
  return /\b(value|query|params|body|env|input|text|argv|dataset|split|match|getAttribute|textContent|innerText)\b/.test(
    ctx.seg(e),
  );
}

/** What a reducer builds: from what its body does to the accumulator. */
function initialFor(cb: ts.ArrowFunction | ts.FunctionExpression, ctx: Context): [string, number][] {
  const acc =
    cb.parameters[0] && ts.isIdentifier(cb.parameters[0].name) ? cb.parameters[0].name.text : undefined;
  if (!acc) return [];
  const body = ctx.seg(cb.body);
  const has = (re: string) => new RegExp(re.replace(/ACC/g, acc.replace(/\$/g, "\\$"))).test(body);
  if (has("\\bACC\\.(push|concat)\\(") || has("\\[\\s*\\.\\.\\.ACC\\b")) return [["[]", 1.0]];
  if (has("\\bACC\\[[^\\]]+\\]\\s*=[^=]") || has("\\{\\s*\\.\\.\\.ACC\\b") || has("\\bACC\\.\\w+\\s*=[^=]"))
    return [["{}", 1.0]];
  if (has("\\bACC\\s*\\+") || has("\\+\\s*ACC\\b")) {
    return /[`'"]/.test(body)
      ? [
          ["''", 1.2],
          ["0", 1.4],
        ]
      : [["0", 1.0]];
  }
  return [
    ["0", 1.6],
    ["[]", 2.0],
    ["{}", 2.2],
  ];
}

function reduceInitial(node: ts.CallExpression, ctx: Context): void {
  if (
    !ts.isPropertyAccessExpression(node.expression) ||
    !/^(reduce|reduceRight)$/.test(node.expression.name.text)
  )
    return;
  const cb = node.arguments[0];
  if (node.arguments.length !== 1 || !cb || !(ts.isArrowFunction(cb) || ts.isFunctionExpression(cb))) return;
  const end = cb.getEnd();
  for (const [value, prior] of initialFor(cb, ctx)) {
    ctx.replaceRange(
      "reduce-initial",
      prior,
      node,
      end,
      end,
      `, ${value}`,
      `The ${code(".reduce")} at line ${ctx.lineOf(node.expression.name)} has no initial value, so it starts from the first item (and throws on an empty array): it should start from ${code(value)}.`,
      { after: value, literals: [value] },
    );
  }
}

export const builtins: FamilyModule = {
  families: [
    "object-iteration",
    "sort-comparator",
    "number-parsing",
    "string-concatenation",
    "reduce-initial",
  ],
  node(node, ctx) {
    objectIteration(node, ctx);
    if (ts.isCallExpression(node)) {
      sortComparator(node, ctx);
      numberParsing(node, ctx);
      reduceInitial(node, ctx);
    }
    if (ts.isBinaryExpression(node)) concatenation(node, ctx);
  },
  statement(unit, ctx) {
    if (ts.isForInStatement(unit) || ts.isForOfStatement(unit)) objectIteration(unit, ctx);
  },
};
