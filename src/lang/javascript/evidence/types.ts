/**
 * What a failing JavaScript/TypeScript test's output says about its bug, read from the text the
 * runner reports (evidence/index.ts). The subset of the Python side's FailureEvidence that a
 * runner's words can give, plus what JavaScript's own errors name.
 */

/** The kind of a printed value, as far as its text shows. */
export type ValueType =
  | "number"
  | "string"
  | "boolean"
  | "null"
  | "undefined"
  | "array"
  | "object"
  | "promise"
  | "function"
  | "unknown";

/** How two compared values differ (the fields that apply are set). */
export interface Relation {
  /** received - expected, for two numbers. */
  delta?: number;
  /** received / expected, for two non-zero numbers. */
  ratio?: number;
  /** Same size, opposite sign. */
  sign?: boolean;
  /** Items or characters received minus expected. */
  lengthDelta?: number;
  caseOnly?: boolean;
  spaceOnly?: boolean;
  /** Arrays holding the same items (as a multiset), maybe in another order. */
  sameItems?: boolean;
  /** The same items in the reverse order. */
  reversed?: boolean;
  /** Numbers sorted as strings (`[1, 10, 2]` for `[1, 2, 10]`): `sort()` without a comparator. */
  lexicalOrder?: boolean;
  /** Items or keys expected but not received, and received but not expected (printed). */
  missing?: string[];
  extra?: string[];
  /** Object keys present in both with other values. */
  changed?: string[];
  /** A string of digits received where a number was expected (`"12"` for `3`: `+` concatenated). */
  concatenated?: boolean;
  /** A number received where its string was expected, or the reverse, with the same digits. */
  numberVsString?: boolean;
}

export interface JsComparison {
  /** The assertion or matcher: `toBe`, `toEqual`, `strictEqual`, `deepEqual`, `equal`, ... or `compare`. */
  matcher: string;
  /** The values as the runner printed them. */
  expected: string;
  received: string;
  expectedType: ValueType;
  receivedType: ValueType;
  relation: Relation;
}

/** `Cannot read properties of undefined (reading 'x')` and its kin. */
export interface PropertyAccessError {
  kind: "read" | "set" | "destructure";
  property: string;
  /** What the object was. */
  of: "undefined" | "null";
  /** The expression on the failing line whose value it was (`order.customer` in `order.customer.name`). */
  expression?: string;
}

export interface JsFailureEvidence {
  exception: { type: string; message: string; classes: string[] } | null;
  comparison: JsComparison | null;
  access: PropertyAccessError | null;
  /** `x is not a function` / `... is not a constructor` / `... is not iterable`: what the code called or iterated. */
  notCallable: { expression: string; what: "function" | "constructor" | "iterable" } | null;
  /** `x is not defined` (a ReferenceError): a name used but never declared. */
  undefinedName: string | null;
  /** `Cannot access 'x' before initialization`: a `let`/`const`/class used before its declaration ran. */
  uninitialized: string | null;
  /** `Assignment to constant variable.`: a `const` assigned to. */
  constantAssigned: boolean;
  /** Where the failure was thrown (the innermost repository frame), when the caller said. */
  at?: { file: string; line: number };
}

export const NO_JS_EVIDENCE: JsFailureEvidence = {
  exception: null,
  comparison: null,
  access: null,
  notCallable: null,
  undefinedName: null,
  uninitialized: null,
  constantAssigned: false,
};
