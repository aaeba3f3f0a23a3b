/**
 * What the failure's evidence (evidence/index.ts) says about each proposal: a proposal it points
 * at gets its prior multiplied down (smaller is likelier) and a sentence saying why. A property
 * read on `undefined` at a line ranks `?.` on that very expression first; a `Promise` received
 * where a value was expected ranks the missing `await`; a string of digits where a number was
 * expected ranks `Number(...)` around `+`'s operands; numbers sorted as strings rank a comparator.
 */
import { codeSpan as code, clip } from "../../../text.js";
import type { JsFailureEvidence } from "../evidence/types.js";
import type { Context, Proposal } from "./context.js";

const FLOOR = 0.15;
const norm = (text: string) => text.replace(/\?\./g, ".").replace(/\s+/g, "");

interface Reason {
  factor: number;
  because: string;
}

/** Lowers the prior of the proposals the failure's evidence points at. */
export function rankByEvidence(found: Proposal[], ctx: Context): void {
  const ev = ctx.evidence;
  if (!ev) return;
  const here = !ev.at || ev.at.file === ctx.src.path;
  for (const p of found) {
    const reasons = reasonsFor(p, ev, here ? ev.at?.line : -1, ctx);
    if (reasons.length === 0) continue;
    reasons.sort((a, b) => a.factor - b.factor);
    const factor = Math.max(
      FLOOR,
      reasons.reduce((f, r) => f * r.factor, 1),
    );
    p.prior *= factor;
    p.because = reasons[0]!.because;
  }
}

function reasonsFor(p: Proposal, ev: JsFailureEvidence, atLine: number | undefined, ctx: Context): Reason[] {
  const out: Reason[] = [];
  const add = (factor: number, because: string) => out.push({ factor, because });
  const line = ctx.src.lines.lineOf(Math.min(...p.changes.map((c) => c.start)));
  // The line the error was thrown at, when known: only edits there can guard that very read.
  const atThrow = atLine === undefined || line === atLine;
  const raised = ev.exception
    ? code(clip(`${ev.exception.type}: ${ev.exception.message}`, 120))
    : "the failure";
  const f = p.facts ?? {};
  if (atLine !== undefined && atLine > 0 && line === atLine)
    add(0.85, `The failing test raised ${raised} at line ${atLine}.`);

  if (ev.access && atThrow) {
    const e = ev.access.expression ? norm(ev.access.expression) : undefined;
    const what = e ? code(ev.access.expression!) : "the object";
    const said = `The failing test raised ${raised}: ${what} was ${code(ev.access.of)} there.`;
    if (e && f.guarded && norm(f.guarded) === e) {
      if (p.family === "optional-chaining") add(0.25, said);
      else add(0.5, said);
    }
    if (e && f.property && e === norm(`${f.property.object}.${f.property.old}`))
      add(0.4, `${said} The object may hold it under another name.`);
    if (e && f.identifier && e === f.identifier.old) add(0.5, said);
    if (!e && p.family === "optional-chaining") add(0.7, said);
  }
  if (ev.notCallable) {
    const e = norm(ev.notCallable.expression);
    const said = `The failing test raised ${raised}.`;
    if (ev.notCallable.what === "iterable") {
      if (p.family === "object-iteration") add(0.4, said);
      if (p.family === "missing-await") add(0.6, said);
    } else {
      if (f.property && e === norm(`${f.property.object}.${f.property.old}`)) add(0.4, said);
      if (f.identifier && e === f.identifier.old) add(0.4, said);
      if (f.guarded && norm(f.guarded) === e && p.family === "optional-chaining") add(0.6, said);
    }
  }
  if (ev.undefinedName && f.identifier?.old === ev.undefinedName)
    add(0.3, `The failing test raised ${raised}.`);
  if (ev.uninitialized && f.identifier?.old === ev.uninitialized)
    add(0.6, `The failing test raised ${raised}.`);
  if (ev.constantAssigned && f.declaration?.old === "const") add(0.2, `The failing test raised ${raised}.`);
  if (
    ev.exception &&
    /Reduce of empty array with no initial value/.test(ev.exception.message) &&
    p.family === "reduce-initial"
  )
    add(0.2, `The failing test raised ${raised}.`);
  if (ev.comparison) comparisonReasons(p, ev.comparison, add);
  return out;
}

function comparisonReasons(
  p: Proposal,
  c: NonNullable<JsFailureEvidence["comparison"]>,
  add: (f: number, why: string) => void,
): void {
  const r = c.relation;
  const f = p.facts ?? {};
  const compared = `The failing assertion expected ${code(clip(c.expected, 60))} and received ${code(clip(c.received, 60))}`;
  const byOne = [r.delta, r.lengthDelta].some((d) => d !== undefined && Math.abs(d) === 1);
  if (byOne && f.byOne) add(0.6, `${compared}: they differ by one.`);
  if (r.sign && f.sign) add(0.6, `${compared}: the same size with the opposite sign.`);
  if (
    r.ratio !== undefined &&
    Number.isInteger(Math.max(Math.abs(r.ratio), 1 / Math.abs(r.ratio))) &&
    Math.abs(r.ratio) !== 1 &&
    f.factor
  )
    add(0.6, `${compared}: one is a whole multiple of the other.`);
  if (r.concatenated) {
    if (p.family === "string-concatenation")
      add(0.3, `${compared}: digits joined as text where numbers were to be added.`);
    if (p.family === "number-parsing") add(0.6, `${compared}: a string where a number was expected.`);
  }
  if (r.numberVsString) {
    if (p.family === "number-parsing") add(0.5, `${compared}: the same digits as a string and as a number.`);
    if (p.family === "strict-equality" || p.family === "string-concatenation")
      add(0.7, `${compared}: the same digits as a string and as a number.`);
  }
  if (r.lexicalOrder && p.family === "sort-comparator")
    add(0.2, `${compared}: the numbers sorted as strings.`);
  else if (r.sameItems && r.lengthDelta === 0 && f.order)
    add(p.family === "sort-comparator" ? 0.4 : 0.6, `${compared}: the same items in another order.`);
  if (c.receivedType === "promise" && (p.family === "missing-await" || p.family === "async-foreach"))
    add(0.25, `${compared}: a promise where its value was expected.`);
  if (c.receivedType === "undefined" && c.expectedType !== "undefined") {
    if (f.returns) add(0.5, `${compared}: nothing came out.`);
    else if (p.family === "changed-attribute") add(0.8, `${compared}: nothing came out.`);
  }
  if (c.expectedType === "number" && /^NaN$/.test(c.received.trim())) {
    if (p.family === "number-parsing" || p.family === "reduce-initial" || p.family === "string-concatenation")
      add(0.5, `${compared}: not a number.`);
  }
  if ((r.missing?.length ?? 0) + (r.extra?.length ?? 0) > 0 && !r.sameItems) {
    if (f.byOne || p.family === "negated-condition" || p.family === "index-check")
      add(0.8, `${compared}: items are missing or extra.`);
  }
}
