/**
 * What one candidate edit changes, in the terms evidence speaks: a number moved by one or
 * scaled, a sign, a bound made strict or loose, a string literal or an attribute name
 * replaced, a call's arguments, a statement inserted. Pure; read from the line's text before
 * and after the edit, so it holds for any candidate generator.
 */

export interface EditShape {
  /** A number changed by exactly one, or `+ 1` / `- 1` added or removed. */
  plusMinusOne: boolean;
  /** `<` ↔ `<=` or `>` ↔ `>=`: one more or one fewer value passes. */
  boundary: boolean;
  /** `+` ↔ `-`, `<` ↔ `>`, or a unary minus added or removed. */
  sign: boolean;
  /** `*` ↔ `/`, `//`, or a number scaled by a whole factor. */
  factor: boolean;
  /** One string literal's content replaced: old → new, without quotes. */
  literal?: { old: string; new: string };
  /** One attribute name (after `.`) replaced. */
  attribute?: { old: string; new: string };
  /** The text between a call's parentheses changed; `keywords` are keyword arguments it adds. */
  arguments?: { keywords: string[]; callee?: string };
  /** A statement inserted (an ADD). */
  inserted?: string;
  /** The line is an `except` clause. */
  exceptClause: boolean;
  /** The line is a `def` header. */
  defLine: boolean;
  /** The line is an `if` / `elif` / `while` header. */
  condition: boolean;
  /** The text the edit leaves (for ADD: the statement). */
  after: string;
}

const STRING = /([rRbBuUfF]{0,2})(['"])((?:\\.|(?!\2).)*)\2/g;
const ATTRIBUTE = /\.\s*([A-Za-z_]\w*)/g;
const NUMBER = /^-?\d+(?:\.\d+)?$/;

/** The parts of `before` and `after` between their common prefix and suffix. */
function middle(before: string, after: string): { old: string; new: string; prefix: string } {
  let p = 0;
  while (p < before.length && p < after.length && before[p] === after[p]) p++;
  let s = 0;
  while (
    s < before.length - p &&
    s < after.length - p &&
    before[before.length - 1 - s] === after[after.length - 1 - s]
  )
    s++;
  // Widen to whole words and numbers, so `10` → `11` is seen as numbers, not as `0` → `1`.
  const word = /[\w.]/;
  while (p > 0 && word.test(before[p - 1]!) && word.test(after[p - 1]!)) p--;
  while (s > 0 && word.test(before[before.length - s]!) && word.test(after[after.length - s]!)) s--;
  // And to whole operators, so `<` → `<=` is seen as operators, not as `` → `=`.
  const op = /[<>=!+\-*/%]/;
  while (p > 0 && op.test(before[p - 1]!) && op.test(after[p - 1]!)) p--;
  while (s > 0 && op.test(before[before.length - s]!) && op.test(after[after.length - s]!)) s--;
  return {
    old: before.slice(p, before.length - s),
    new: after.slice(p, after.length - s),
    prefix: before.slice(0, p),
  };
}

function literals(text: string): string[] {
  return [...text.matchAll(STRING)].map((m) => m[3]!);
}

/** The single item that differs between two equally long lists, if exactly one does. */
function oneChanged(a: string[], b: string[]): { old: string; new: string } | undefined {
  if (a.length !== b.length) return undefined;
  const diffs = a.map((x, i) => [x, b[i]!] as const).filter(([x, y]) => x !== y);
  return diffs.length === 1 ? { old: diffs[0]![0], new: diffs[0]![1] } : undefined;
}

/** The callee whose parentheses are still open at the end of `prefix`, if any. */
function openCall(prefix: string): string | undefined {
  let depth = 0;
  for (let i = prefix.length - 1; i >= 0; i--) {
    const ch = prefix[i]!;
    if (ch === ")" || ch === "]" || ch === "}") depth++;
    else if (ch === "[" || ch === "{") depth = Math.max(0, depth - 1);
    else if (ch === "(") {
      if (depth > 0) {
        depth--;
        continue;
      }
      const m = /([A-Za-z_][\w.]*)\s*$/.exec(prefix.slice(0, i));
      return m?.[1];
    }
  }
  return undefined;
}

const keywordsOf = (text: string) => [...text.matchAll(/\b([A-Za-z_]\w*)\s*=(?!=)/g)].map((m) => m[1]!);

/** The shape of an edit of `before` into `after`; `added` for an inserted statement. */
export function editShape(before: string, after: string | undefined, added?: string): EditShape {
  const head = before.trim();
  const base: EditShape = {
    plusMinusOne: false,
    boundary: false,
    sign: false,
    factor: false,
    exceptClause: /^except\b/.test(head),
    defLine: /^(async\s+)?def\s/.test(head),
    condition: /^(if|elif|while)\b/.test(head),
    after: added ?? after ?? "",
  };
  if (added !== undefined) return { ...base, inserted: added.trim() };
  if (after === undefined) return base;
  const mid = middle(before, after);
  const o = mid.old.trim();
  const n = mid.new.trim();
  const shape = { ...base };
  if (NUMBER.test(o) && NUMBER.test(n)) {
    const a = Number(o);
    const b = Number(n);
    shape.plusMinusOne = Math.abs(a - b) === 1;
    shape.sign = a === -b && a !== 0;
    const ratio = a !== 0 && b !== 0 ? Math.max(a / b, b / a) : 0;
    shape.factor = ratio >= 2 && Number.isInteger(ratio);
  }
  if (
    /^[+-]\s*1$/.test(o) !== /^[+-]\s*1$/.test(n) &&
    (o === "" || n === "" || NUMBER.test(o) || NUMBER.test(n))
  )
    shape.plusMinusOne = true;
  if (/[+-]\s*1$/.test(o) !== /[+-]\s*1$/.test(n) && (o.startsWith(n) || n.startsWith(o)))
    shape.plusMinusOne = true;
  const ops = new Set([o, n]);
  if ((ops.has("<") && ops.has("<=")) || (ops.has(">") && ops.has(">="))) shape.boundary = true;
  if ((ops.has("+") && ops.has("-")) || (ops.has("+=") && ops.has("-=")) || (ops.has("<") && ops.has(">")))
    shape.sign = true;
  if ((o === "" && n === "-") || (o === "-" && n === "")) shape.sign = true;
  if (["*", "/", "//", "*=", "/=", "//="].includes(o) && ["*", "/", "//", "*=", "/=", "//="].includes(n))
    shape.factor = true;
  const literal = oneChanged(literals(before), literals(after));
  if (literal) shape.literal = literal;
  const attribute = oneChanged(
    [...before.matchAll(ATTRIBUTE)].map((m) => m[1]!),
    [...after.matchAll(ATTRIBUTE)].map((m) => m[1]!),
  );
  if (attribute && !literal) shape.attribute = attribute;
  const callee = openCall(mid.prefix);
  if (callee !== undefined && !literal) {
    const had = new Set(keywordsOf(before));
    shape.arguments = { keywords: keywordsOf(after).filter((k) => !had.has(k)), callee };
  }
  return shape;
}
