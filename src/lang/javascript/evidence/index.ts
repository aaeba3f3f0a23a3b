/**
 * Evidence from a JavaScript/TypeScript test's failure output: pure parsing of the text (and
 * the structured fields, when the reporter gives them) that the runtime hands over. Values are
 * read back as data (values.ts), never evaluated.
 */
import type { FailureEvidence } from "../../types.js";
import { comparedValues } from "./assertions.js";
import { namedByError, withExpression } from "./exceptions.js";
import type { JsFailureEvidence } from "./types.js";
import { readValue, relate } from "./values.js";

export type * from "./types.js";
export { NO_JS_EVIDENCE } from "./types.js";

export interface FailureOutput {
  /** The error's type when the reporter gives it apart (`AssertionError`, `TypeError`). */
  type?: string;
  /** The error's message. */
  message?: string;
  /** The whole failure text (Jest/Vitest `failureMessages`, Mocha's `err.stack`, node:test's details). */
  text?: string;
  /** Structured values when the reporter gives them (Mocha JSON `err.expected`/`err.actual`, node:test). */
  expected?: string;
  actual?: string;
  operator?: string;
  /** Where the failure was thrown, with that file's source when known (to name the expression). */
  at?: { file: string; line: number; source?: string };
}

const MAX_TEXT = 200_000;
// eslint-disable-next-line no-control-regex -- ANSI colour codes are control characters by definition
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** The error's class chain as far as its name says (`TypeError` → TypeError, Error). */
function classesOf(type: string): string[] {
  return type === "Error" || type === "" ? ["Error"] : [type, "Error"];
}

/** `TypeError: message`, `AssertionError [ERR_ASSERTION]: message`, from the first such line. */
function typeAndMessage(text: string): { type: string; message: string } | undefined {
  const m = /^\s*(?:Uncaught\s+)?([A-Z][\w$]*(?:Error|Exception)|Error)(?: \[[A-Z_]+\])?: ?(.*)$/m.exec(text);
  return m ? { type: m[1]!, message: m[2]!.trim() } : undefined;
}

/** Structured evidence from one failure. Never throws; what the text does not show stays null. */
export function evidenceFrom(output: FailureOutput): JsFailureEvidence {
  const text = (output.text ?? "").slice(0, MAX_TEXT).replace(ANSI, "");
  const message = (output.message ?? "").slice(0, MAX_TEXT).replace(ANSI, "");
  const parsed = typeAndMessage(message) ?? typeAndMessage(text);
  const type = output.type ?? parsed?.type ?? "";
  const firstLine = (parsed?.message ?? message.split("\n")[0] ?? "").trim();
  const named = namedByError(type, firstLine);
  const compared = comparedValues(
    [message, text].filter(Boolean).join("\n"),
    output.expected !== undefined && output.actual !== undefined
      ? {
          expected: output.expected,
          actual: output.actual,
          ...(output.operator ? { operator: output.operator } : {}),
        }
      : {},
  );
  let comparison: JsFailureEvidence["comparison"] = null;
  if (compared) {
    const expected = readValue(compared.expected);
    const received = readValue(compared.received);
    comparison = {
      matcher: compared.matcher,
      expected: compared.expected,
      received: compared.received,
      expectedType: expected.type,
      receivedType: received.type,
      relation: relate(expected, received),
    };
  }
  return {
    exception:
      type || firstLine ? { type: type || "Error", message: firstLine, classes: classesOf(type) } : null,
    comparison,
    ...named,
    access: named.access ? withExpression(named.access, output.at) : null,
    ...(output.at ? { at: { file: output.at.file, line: output.at.line } } : {}),
  };
}

/**
 * The same evidence in the Python side's FailureEvidence shape, for the debug layer's ranking
 * (debug/evidence.ts scores candidates against it): the comparison's values and how they differ,
 * the exception, and a property read on nothing as the attribute it lacked.
 */
export function toFailureEvidence(ev: JsFailureEvidence): FailureEvidence {
  const c = ev.comparison;
  return {
    comparison: c
      ? {
          op: "==",
          left: c.received,
          right: c.expected,
          leftType: c.receivedType,
          rightType: c.expectedType,
          relation: {
            ...(c.relation.delta !== undefined ? { delta: c.relation.delta } : {}),
            ...(c.relation.ratio !== undefined ? { ratio: c.relation.ratio } : {}),
            ...(c.relation.sign ? { sign: true } : {}),
            ...(c.relation.lengthDelta !== undefined ? { lengthDelta: c.relation.lengthDelta } : {}),
            ...(c.relation.caseOnly ? { caseOnly: true } : {}),
            ...(c.relation.spaceOnly ? { spaceOnly: true } : {}),
            ...(c.relation.sameItems ? { sameItems: true } : {}),
            ...(c.relation.missing ? { missing: c.relation.missing } : {}),
            ...(c.relation.extra ? { extra: c.relation.extra } : {}),
            ...(c.relation.changed ? { changed: c.relation.changed } : {}),
          },
        }
      : null,
    exception: ev.exception,
    key: null,
    // `x.y is not a function` is an attribute the object lacks; a property read on `undefined` is not
    // (its object is the thing missing), so it stays in `exception` only.
    attribute:
      ev.notCallable?.what === "function" && ev.notCallable.expression.includes(".")
        ? {
            name: ev.notCallable.expression.split(".").at(-1)!,
            type: null,
            owner: ev.notCallable.expression.split(".").slice(0, -1).join("."),
            attributes: [],
            close: [],
          }
        : null,
    handlers: [],
    cause: null,
    signatures: [],
    carried: [],
    probes: [],
  };
}
