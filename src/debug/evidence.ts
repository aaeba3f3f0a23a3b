/**
 * How strongly the failure's evidence (hypofix_evidence.py, `FailureEvidence`) points at one
 * candidate edit, and the observation that says so, in plain text for its hypothesis. Pure.
 *
 * A score of STRONG or more means the evidence names this very change (a KeyError's key and
 * the key the mapping held); smaller scores say the change has the right shape (a result off
 * by one and a `+ 1`).
 */
import type { FailureEvidence } from "../lang/types.js";
import { clip, codeSpan as code } from "../text.js";
import type { EditShape } from "./shape.js";

export const STRONG = 60;

export interface Scored {
  score: number;
  /** The observation behind the score, one or two sentences, code in backticks. */
  because?: string;
}

export interface CandidateFacts {
  file: string;
  line: number;
  /** The enclosing function's name (last part of its qualname) and its first line. */
  function?: { name: string; startLine: number; endLine: number };
  family: string;
  shape: EditShape;
}

/** A string's repr without its quotes (`'mail'` → `mail`); any other repr as it is. */
export const unquote = (repr: string) => /^(['"])(.*)\1$/s.exec(repr)?.[2] ?? repr;

/** Whole-number factors a unit mistake produces (×2, ×10, ×60, ×100, ×1000...). */
function wholeFactor(ratio: number | undefined): boolean {
  if (ratio === undefined || ratio === 0) return false;
  const r = Math.max(Math.abs(ratio), 1 / Math.abs(ratio));
  return r >= 2 && Math.abs(r - Math.round(r)) < 1e-9;
}

/** Scores one candidate against the evidence; the largest single reason wins, weaker ones add a little. */
export function scoreCandidate(c: CandidateFacts, ev: FailureEvidence | undefined): Scored {
  if (!ev) return { score: 0 };
  const found: Scored[] = [];
  const add = (score: number, because: string) => found.push({ score, because });
  const { shape } = c;
  const exc = ev.exception;
  const failure = exc ? code(clip(`${exc.type}: ${exc.message}`, 120)) : undefined;

  if (ev.key && shape.literal && shape.literal.old === unquote(ev.key.key)) {
    const held = ev.key.keys.map(unquote);
    const where = ev.key.container ? `the mapping ${code(ev.key.container)}` : "the mapping";
    const keys = ev.key.keys
      .slice(0, 8)
      .map((k) => code(k))
      .join(", ");
    if (held.includes(shape.literal.new)) {
      const close = ev.key.close.map(unquote).includes(shape.literal.new) ? 10 : 0;
      add(100 + close, `The failing test raised ${failure}; at that moment ${where} held the keys ${keys}.`);
    } else add(10, `The failing test raised ${failure}, a key the mapping did not hold.`);
  }
  // The other end of the same slip: where the value was stored under the name that was not looked up.
  if (
    ev.key &&
    shape.literal &&
    shape.literal.new === unquote(ev.key.key) &&
    ev.key.keys.map(unquote).includes(shape.literal.old)
  ) {
    add(
      90,
      `The failing test raised ${failure}; the mapping held ${code(shape.literal.old)}, stored here, instead.`,
    );
  }
  if (
    ev.attribute &&
    shape.attribute &&
    shape.attribute.new === ev.attribute.name &&
    ev.attribute.attributes.includes(shape.attribute.old)
  ) {
    add(
      90,
      `The failing test raised ${failure}; the object has ${code(shape.attribute.old)}, set here, instead.`,
    );
  }
  if (ev.attribute && shape.attribute && shape.attribute.old === ev.attribute.name) {
    const of = ev.attribute.type ? `the ${code(ev.attribute.type)} object` : "the object";
    if (ev.attribute.attributes.includes(shape.attribute.new)) {
      const close = ev.attribute.close.includes(shape.attribute.new) ? 10 : 0;
      const shown = (ev.attribute.close.length > 0 ? ev.attribute.close : ev.attribute.attributes)
        .slice(0, 8)
        .map((a) => code(a))
        .join(", ");
      add(100 + close, `The failing test raised ${failure}; ${of} has ${shown}.`);
    } else add(10, `The failing test raised ${failure}.`);
  }
  // An exception that went through `except` clauses that did not catch it.
  if (exc) {
    for (const h of ev.handlers) {
      if (h.file !== c.file || h.line !== c.line) continue;
      const names = h.types
        .replace(/[()\s]/g, "")
        .split(",")
        .filter(Boolean);
      const caught = names.some((n) => exc.classes.includes(n.split(".").at(-1)!));
      if (caught) continue;
      const mentions = exc.classes.slice(0, -2).some((cls) => new RegExp(`\\b${cls}\\b`).test(shape.after));
      add(
        mentions ? 90 : 25,
        `The failing test raised ${failure}, which went through ${code(`except ${h.types}`)} at line ${h.line} uncaught.`,
      );
    }
  }
  // The raise that started it: raising the type an `except` clause it went through catches.
  if (exc && c.family === "wrong-exception") {
    for (const h of ev.handlers) {
      if (h.file === c.file && h.line === c.line) continue;
      const names = h.types
        .replace(/[()\s]/g, "")
        .split(",")
        .filter(Boolean)
        .map((n) => n.split(".").at(-1)!);
      if (names.some((n) => new RegExp(`\\braise\\s+${escape(n)}\\b`).test(shape.after))) {
        add(
          70,
          `The failing test raised ${failure}, which went through ${code(`except ${h.types}`)} at line ${h.line} uncaught.`,
        );
      }
    }
  }
  if (ev.cause && ev.cause.file === c.file) {
    const cause = code(clip(`${ev.cause.type}: ${ev.cause.message}`, 100));
    if (ev.cause.line === c.line)
      add(30, `The failure started as ${cause} at line ${ev.cause.line}, which was caught and re-raised.`);
    else if (c.function?.name === ev.cause.function)
      add(
        15,
        `The failure started as ${cause} in ${code(ev.cause.function)}, which was caught and re-raised.`,
      );
  }
  for (const carried of ev.carried) {
    if (carried.file !== c.file) continue;
    const inFunction = c.function !== undefined && c.function.startLine === carried.line;
    const said =
      carried.kind === "default"
        ? `The default ${code(carried.name)} of ${code(carried.function)} kept ${code(clip(carried.value, 60))} from an earlier call.`
        : `${code(carried.name)} carried over from one call of ${code(carried.function)} to the next (${carried.value}).`;
    if (carried.kind === "default" && (c.line === carried.line || shape.defLine) && inFunction) add(80, said);
    else if (inFunction && shape.inserted && new RegExp(`\\b${escape(carried.name)}\\b`).test(shape.inserted))
      add(carried.kind === "default" ? 70 : 50, said);
  }
  const unbound =
    exc && /^(NameError|UnboundLocalError)$/.test(exc.type) ? /'(\w+)'/.exec(exc.message)?.[1] : undefined;
  if (unbound && shape.inserted && new RegExp(`^${unbound}\\s*=`).test(shape.inserted))
    add(100, `The failing test raised ${failure}.`);
  if (ev.comparison) scoreComparison(ev.comparison, shape, add);
  // A division by zero (int, float or Decimal): a guard skipping the zero case is a likely fix.
  const zeroDivision = /\b(ZeroDivisionError|InvalidOperation|DivisionByZero|DivisionUndefined)\b/;
  if (
    exc &&
    c.family === "missing-guard" &&
    [exc.type, ...exc.classes].some((k) => zeroDivision.test(k)) &&
    shape.inserted !== undefined &&
    /^if not /.test(shape.inserted)
  )
    add(50, `The failing test raised ${failure}: a division by zero that a guard would skip.`);
  if (exc && /TypeError/.test(exc.type) && /argument|positional|keyword/.test(exc.message) && shape.arguments)
    add(40, `The failing test raised ${failure}: a call's arguments do not fit.`);
  if (exc && /unpack/.test(exc.message) && shape.arguments)
    add(40, `The failing test raised ${failure}: a call returned the wrong number of values.`);
  for (const sig of ev.signatures) {
    if (sig.file !== c.file || sig.line !== c.line || !shape.arguments) continue;
    const names = sig.params.map((p) => p.split("=")[0]!.replace(/^\*+/, ""));
    const used = shape.arguments.keywords.filter((k) => names.includes(k));
    if (used.length > 0) add(20, `${code(sig.callee)} takes ${sig.params.map((p) => code(p)).join(", ")}.`);
    else if (sig.given < names.length && shape.arguments.callee === sig.callee)
      add(
        10,
        `${code(sig.callee)} takes ${sig.params.map((p) => code(p)).join(", ")}; the call gives ${sig.given}.`,
      );
  }
  if (found.length === 0) return { score: 0 };
  found.sort((a, b) => b.score - a.score);
  const best = found[0]!;
  return { score: best.score + found.slice(1).reduce((s, f) => s + f.score / 10, 0), because: best.because };
}

function scoreComparison(
  cmp: NonNullable<FailureEvidence["comparison"]>,
  shape: EditShape,
  add: (score: number, because: string) => void,
): void {
  const r = cmp.relation;
  const values = `${code(clip(cmp.left, 60))} ${cmp.op} ${code(clip(cmp.right, 60))}`;
  const failed = `The failing assertion compared ${values}`;
  const byOne = [r.delta, r.days, r.lengthDelta].some((d) => d !== undefined && Math.abs(d) === 1);
  if (byOne && (shape.plusMinusOne || shape.boundary)) {
    const what =
      r.days !== undefined
        ? "one day"
        : r.lengthDelta !== undefined && r.delta === undefined
          ? "one item"
          : "one";
    add(45, `${failed}: they differ by ${what}.`);
  }
  if (r.days !== undefined && Math.abs(r.days) >= 1 && /timedelta|days/.test(shape.after))
    add(r.days === 1 || r.days === -1 ? 50 : 30, `${failed}: they are ${Math.abs(r.days)} day(s) apart.`);
  if (r.sign && shape.sign) add(45, `${failed}: the same size with the opposite sign.`);
  if (wholeFactor(r.ratio) && shape.factor) add(40, `${failed}: one is a whole multiple of the other.`);
  if (r.sameItems && r.lengthDelta === 0) {
    const order = /\b(sorted|sort|reverse|reversed|key)\b/.test(shape.after) || shape.arguments !== undefined;
    if (order) add(40, `${failed}: the same items in another order.`);
  }
  if ((r.missing?.length ?? 0) + (r.extra?.length ?? 0) > 0 && !r.sameItems) {
    if (shape.condition || shape.boundary) add(20, `${failed}: items are missing or extra.`);
    if (shape.inserted && /\.(append|add|extend|insert)\(/.test(shape.inserted))
      add(20, `${failed}: items are missing.`);
  }
  if (r.caseOnly && /\.(lower|upper|casefold|title|capitalize)\(/.test(shape.after))
    add(45, `${failed}: they differ only in letter case.`);
  if (r.spaceOnly && (/\.(strip|rstrip|lstrip)\(/.test(shape.after) || shape.literal))
    add(45, `${failed}: they differ only in spaces.`);
}

/** Evidence of nothing. */
export const NO_EVIDENCE: FailureEvidence = {
  comparison: null,
  exception: null,
  key: null,
  attribute: null,
  handlers: [],
  cause: null,
  signatures: [],
  carried: [],
  probes: [],
};

/** What the failure alone says, when the evidence run could not report. */
export function failureOnly(
  failure: { type: string; message: string } | undefined,
): FailureEvidence | undefined {
  if (!failure) return undefined;
  return {
    ...NO_EVIDENCE,
    exception: { type: failure.type, message: failure.message, classes: [failure.type] },
  };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
