/**
 * The kind of value an expression or a type annotation denotes, read from syntax: what makes
 * two names interchangeable for a candidate, and what tells a string from a number.
 */
import ts from "typescript";
import { unwrap } from "../functions.js";

/** A lookup table: a Map, so names like `constructor` or `toString` find nothing. */
function table(entries: Record<string, Kind>, more: [string, Kind][] = []): Map<string, Kind> {
  return new Map([...Object.entries(entries), ...more]);
}

export type Kind =
  | "number"
  | "string"
  | "boolean"
  | "array"
  | "object"
  | "function"
  | "promise"
  | "regex"
  | "map"
  | "set"
  | "date"
  | "unknown";

/** What a method or property of a receiver says about the receiver. */
export const USAGE_KIND = table({
  push: "array",
  pop: "array",
  shift: "array",
  unshift: "array",
  splice: "array",
  forEach: "array",
  map: "array",
  filter: "array",
  reduce: "array",
  find: "array",
  findIndex: "array",
  some: "array",
  every: "array",
  flatMap: "array",
  toUpperCase: "string",
  toLowerCase: "string",
  trim: "string",
  trimStart: "string",
  trimEnd: "string",
  split: "string",
  charAt: "string",
  charCodeAt: "string",
  padStart: "string",
  padEnd: "string",
  startsWith: "string",
  endsWith: "string",
  replace: "string",
  replaceAll: "string",
  toFixed: "number",
  then: "promise",
  getTime: "date",
  getFullYear: "date",
});

/** What a method call returns, whatever its receiver (when the name says it). */
const RETURNS = table(
  {
    toFixed: "string",
    join: "string",
    toUpperCase: "string",
    toLowerCase: "string",
    trim: "string",
    padStart: "string",
    padEnd: "string",
    repeat: "string",
    charAt: "string",
    substring: "string",
    substr: "string",
    toISOString: "string",
    indexOf: "number",
    lastIndexOf: "number",
    findIndex: "number",
    charCodeAt: "number",
    getTime: "number",
    includes: "boolean",
    startsWith: "boolean",
    endsWith: "boolean",
    some: "boolean",
    every: "boolean",
    has: "boolean",
    test: "boolean",
    map: "array",
    filter: "array",
    split: "array",
    concat: "array",
    flat: "array",
    flatMap: "array",
    keys: "array",
    values: "array",
    entries: "array",
    then: "promise",
    catch: "promise",
    finally: "promise",
    json: "promise",
  },
  // `toString` as a key of an object literal would be read as Object's own method.
  [["toString", "string"]],
);

const GLOBAL_CALLS = table({
  Number: "number",
  parseInt: "number",
  parseFloat: "number",
  String: "string",
  Boolean: "boolean",
  fetch: "promise",
  isNaN: "boolean",
});

const STATIC_CALLS = table({
  "Object.keys": "array",
  "Object.values": "array",
  "Object.entries": "array",
  "Array.from": "array",
  "Array.of": "array",
  "Array.isArray": "boolean",
  "JSON.stringify": "string",
  "Promise.all": "promise",
  "Promise.resolve": "promise",
  "Promise.reject": "promise",
  "Promise.allSettled": "promise",
  "Promise.race": "promise",
  "Math.max": "number",
  "Math.min": "number",
  "Math.round": "number",
  "Math.floor": "number",
  "Math.ceil": "number",
  "Math.abs": "number",
  "Date.now": "number",
});

const CONSTRUCTED = table({
  Map: "map",
  WeakMap: "map",
  Set: "set",
  WeakSet: "set",
  Date: "date",
  RegExp: "regex",
  Promise: "promise",
  Array: "array",
  Error: "object",
});

const COMPARISON = new Set([
  ts.SyntaxKind.LessThanToken,
  ts.SyntaxKind.LessThanEqualsToken,
  ts.SyntaxKind.GreaterThanToken,
  ts.SyntaxKind.GreaterThanEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.InstanceOfKeyword,
  ts.SyntaxKind.InKeyword,
]);
const NUMERIC = new Set([
  ts.SyntaxKind.MinusToken,
  ts.SyntaxKind.AsteriskToken,
  ts.SyntaxKind.AsteriskAsteriskToken,
  ts.SyntaxKind.SlashToken,
  ts.SyntaxKind.PercentToken,
]);

/** The kind of a literal-like expression; `inner` gives the kind of sub-expressions (names resolved by the caller). */
export function kindOfValue(expr: ts.Expression, inner: (e: ts.Expression) => Kind): Kind {
  const e = unwrap(expr);
  if (ts.isNumericLiteral(e) || ts.isBigIntLiteral(e)) return "number";
  if (ts.isStringLiteralLike(e) || ts.isTemplateExpression(e)) return "string";
  if (e.kind === ts.SyntaxKind.TrueKeyword || e.kind === ts.SyntaxKind.FalseKeyword) return "boolean";
  if (ts.isArrayLiteralExpression(e)) return "array";
  if (ts.isObjectLiteralExpression(e)) return "object";
  if (ts.isRegularExpressionLiteral(e)) return "regex";
  if (ts.isArrowFunction(e) || ts.isFunctionExpression(e)) return "function";
  if (ts.isAwaitExpression(e)) return "unknown";
  if (ts.isPrefixUnaryExpression(e)) {
    if (e.operator === ts.SyntaxKind.ExclamationToken) return "boolean";
    return "number";
  }
  if (ts.isPostfixUnaryExpression(e)) return "number";
  if (ts.isTypeOfExpression(e)) return "string";
  if (ts.isNewExpression(e))
    return ts.isIdentifier(e.expression) ? (CONSTRUCTED.get(e.expression.text) ?? "object") : "object";
  if (ts.isPropertyAccessExpression(e) && e.name.text === "length") return "number";
  if (ts.isConditionalExpression(e)) {
    const a = inner(e.whenTrue);
    return a === inner(e.whenFalse) ? a : "unknown";
  }
  if (ts.isBinaryExpression(e)) {
    const op = e.operatorToken.kind;
    if (COMPARISON.has(op)) return "boolean";
    if (NUMERIC.has(op)) return "number";
    if (op === ts.SyntaxKind.PlusToken) {
      const [l, r] = [inner(e.left), inner(e.right)];
      if (l === "string" || r === "string") return "string";
      if (l === "number" && r === "number") return "number";
      return "unknown";
    }
    if (op === ts.SyntaxKind.EqualsToken) return inner(e.right);
    return "unknown";
  }
  if (ts.isCallExpression(e)) {
    const callee = unwrap(e.expression);
    if (ts.isIdentifier(callee) && GLOBAL_CALLS.has(callee.text)) return GLOBAL_CALLS.get(callee.text)!;
    if (ts.isPropertyAccessExpression(callee)) {
      const dotted = ts.isIdentifier(callee.expression)
        ? `${callee.expression.text}.${callee.name.text}`
        : "";
      if (STATIC_CALLS.has(dotted)) return STATIC_CALLS.get(dotted)!;
      const method = callee.name.text;
      if (method === "slice" || method === "concat") {
        const of = inner(callee.expression);
        return of === "string" || of === "array" ? of : "unknown";
      }
      return RETURNS.get(method) ?? "unknown";
    }
  }
  return "unknown";
}

/** The kind a TypeScript annotation names (`number`, `string[]`, `Promise<T>`, `Map<K, V>`, `{...}`). */
export function kindOfType(type: ts.TypeNode): Kind {
  switch (type.kind) {
    case ts.SyntaxKind.NumberKeyword:
    case ts.SyntaxKind.BigIntKeyword:
      return "number";
    case ts.SyntaxKind.StringKeyword:
      return "string";
    case ts.SyntaxKind.BooleanKeyword:
      return "boolean";
    case ts.SyntaxKind.ArrayType:
    case ts.SyntaxKind.TupleType:
      return "array";
    case ts.SyntaxKind.TypeLiteral:
      return "object";
    case ts.SyntaxKind.FunctionType:
      return "function";
  }
  if (ts.isLiteralTypeNode(type)) {
    if (ts.isStringLiteral(type.literal)) return "string";
    if (ts.isNumericLiteral(type.literal)) return "number";
  }
  if (ts.isParenthesizedTypeNode(type)) return kindOfType(type.type);
  if (ts.isUnionTypeNode(type)) {
    const kinds = new Set(
      type.types
        .filter((t) => !(ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword))
        .filter((t) => t.kind !== ts.SyntaxKind.UndefinedKeyword)
        .map(kindOfType),
    );
    return kinds.size === 1 ? [...kinds][0]! : "unknown";
  }
  if (ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName)) {
    const name = type.typeName.text;
    if (name === "Array" || name === "ReadonlyArray") return "array";
    if (name === "Promise") return "promise";
    if (name === "Map" || name === "ReadonlyMap" || name === "Record")
      return name === "Record" ? "object" : "map";
    if (name === "Set" || name === "ReadonlySet") return "set";
    if (name === "Date") return "date";
    if (name === "RegExp") return "regex";
  }
  return "unknown";
}
