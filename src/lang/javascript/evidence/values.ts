/**
 * Values as test runners print them (Jest's pretty-format, Node's util.inspect, chai's loupe),
 * read back as data by parsing the text as an expression with the TypeScript parser (nothing is
 * evaluated), and how two of them differ.
 */
import ts from "typescript";
import { parseSource, syntaxErrors } from "../parse.js";
import type { Relation, ValueType } from "./types.js";

export interface PrintedValue {
  text: string;
  type: ValueType;
  /** The value, for numbers, strings, booleans, null, undefined, arrays and plain objects. */
  value?: unknown;
  known: boolean;
}

const MAX_VALUE_CHARS = 20_000;

/** `Object {`, `Array [`, `Foo {` (pretty-format's constructor names) and `Map(2) {` prefixes dropped. */
function stripConstructors(text: string): string {
  return text.replace(/(^|[\s,:[(])(?:[A-Z][\w$]*)(?:\(\d+\))? (?=[{[])/g, "$1");
}

/** Reads one printed value. Anything unreadable keeps its text and a type guessed from its first character. */
export function readValue(raw: string): PrintedValue {
  const text = raw.trim();
  if (/^Promise\s*(\{|{…}|\[)/.test(text) || text === "[Promise]")
    return { text, type: "promise", known: false };
  if (/^\[(Function|AsyncFunction|class)\b/.test(text) || /^\[Function/.test(text))
    return { text, type: "function", known: false };
  if (text.length === 0 || text.length > MAX_VALUE_CHARS) return { text, type: "unknown", known: false };
  const source = `(${stripConstructors(text).replace(/,(\s*[\]}])/g, "$1")})`;
  const parsed = parseSource("value.ts", source);
  if (!parsed.ok) return { text, type: guess(text), known: false };
  const { file } = parsed.source;
  const stmt = file.statements[0];
  if (
    file.statements.length !== 1 ||
    !stmt ||
    !ts.isExpressionStatement(stmt) ||
    syntaxErrors(parsed.source).length > 0
  )
    return { text, type: guess(text), known: false };
  const out = toValue(stmt.expression);
  return out.ok
    ? { text, type: typeOf(out.value), value: out.value, known: true }
    : { text, type: guess(text), known: false };
}

type Read = { ok: true; value: unknown } | { ok: false };

function toValue(node: ts.Expression): Read {
  const fail: Read = { ok: false };
  if (ts.isParenthesizedExpression(node)) return toValue(node.expression);
  if (ts.isNumericLiteral(node)) return { ok: true, value: Number(node.text) };
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
    return { ok: true, value: node.text };
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken) {
    const inner = toValue(node.operand);
    return inner.ok && typeof inner.value === "number" ? { ok: true, value: -inner.value } : fail;
  }
  if (node.kind === ts.SyntaxKind.TrueKeyword) return { ok: true, value: true };
  if (node.kind === ts.SyntaxKind.FalseKeyword) return { ok: true, value: false };
  if (node.kind === ts.SyntaxKind.NullKeyword) return { ok: true, value: null };
  if (ts.isIdentifier(node)) {
    if (node.text === "undefined") return { ok: true, value: undefined };
    if (node.text === "NaN") return { ok: true, value: NaN };
    if (node.text === "Infinity") return { ok: true, value: Infinity };
    return fail;
  }
  if (ts.isArrayLiteralExpression(node)) {
    const items: unknown[] = [];
    for (const e of node.elements) {
      const v = toValue(e);
      if (!v.ok) return fail;
      items.push(v.value);
    }
    return { ok: true, value: items };
  }
  if (ts.isObjectLiteralExpression(node)) {
    const obj: Record<string, unknown> = {};
    for (const p of node.properties) {
      if (!ts.isPropertyAssignment(p)) return fail;
      const key =
        ts.isIdentifier(p.name) || ts.isStringLiteral(p.name) || ts.isNumericLiteral(p.name)
          ? p.name.text
          : undefined;
      const v = toValue(p.initializer);
      if (key === undefined || !v.ok) return fail;
      obj[key] = v.value;
    }
    return { ok: true, value: obj };
  }
  return fail;
}

function typeOf(v: unknown): ValueType {
  if (v === null) return "null";
  if (v === undefined) return "undefined";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return "number";
  if (typeof v === "string") return "string";
  if (typeof v === "boolean") return "boolean";
  return "object";
}

function guess(text: string): ValueType {
  if (/^["'`]/.test(text)) return "string";
  if (/^-?\d/.test(text)) return "number";
  if (/^\[/.test(text) || /^Array\b/.test(text)) return "array";
  if (/^[{]/.test(text) || /^[A-Z]\w*(\(\d+\))? \{/.test(text)) return "object";
  return "unknown";
}

/** A stable text of a value, to compare items. */
const key = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x === undefined ? "__undefined__" : Number.isNaN(x) ? "__NaN__" : x,
  ) ?? "undefined";

function multiset(items: unknown[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const i of items) m.set(key(i), (m.get(key(i)) ?? 0) + 1);
  return m;
}

function minus(a: Map<string, number>, b: Map<string, number>): string[] {
  const out: string[] = [];
  for (const [k, n] of a) for (let i = b.get(k) ?? 0; i < n; i++) out.push(k);
  return out;
}

/** How the received value differs from the expected one. */
export function relate(expected: PrintedValue, received: PrintedValue): Relation {
  const e = expected.value;
  const r = received.value;
  const rel: Relation = {};
  if (typeof e === "number" && typeof r === "number") {
    rel.delta = r - e;
    if (e !== 0 && r !== 0) rel.ratio = r / e;
    if (r === -e && e !== 0) rel.sign = true;
  }
  if (typeof e === "string" && typeof r === "string") {
    rel.lengthDelta = r.length - e.length;
    if (e !== r && e.toLowerCase() === r.toLowerCase()) rel.caseOnly = true;
    if (e !== r && e.replace(/\s+/g, "") === r.replace(/\s+/g, "")) rel.spaceOnly = true;
  }
  if (typeof e === "number" && typeof r === "string" && /^-?\d+(\.\d+)?$/.test(r)) {
    if (Number(r) === e) rel.numberVsString = true;
    else rel.concatenated = true;
  }
  if (typeof e === "string" && typeof r === "number" && Number(e) === r) rel.numberVsString = true;
  if (Array.isArray(e) && Array.isArray(r)) {
    rel.lengthDelta = r.length - e.length;
    const [me, mr] = [multiset(e), multiset(r)];
    const missing = minus(me, mr);
    const extra = minus(mr, me);
    if (missing.length === 0 && extra.length === 0) {
      rel.sameItems = true;
      if (key([...e].reverse()) === key(r) && key(e) !== key(r)) rel.reversed = true;
      const numbers = e.every((x) => typeof x === "number");
      if (numbers && key(r) === key([...e].sort()) && key(e) !== key(r)) rel.lexicalOrder = true;
    } else {
      rel.missing = missing.slice(0, 20);
      rel.extra = extra.slice(0, 20);
    }
  }
  if (isPlain(e) && isPlain(r)) {
    const ek = Object.keys(e);
    const rk = Object.keys(r);
    rel.missing = ek.filter((k) => !(k in r));
    rel.extra = rk.filter((k) => !(k in e));
    rel.changed = ek.filter((k) => k in r && key(e[k]) !== key(r[k]));
  }
  return rel;
}

const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
