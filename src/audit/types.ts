import type { TestOutcome } from "../lang/types.js";

/** One file of a change; `null` is "absent on that side" (added or deleted file). */
export interface FileChange {
  path: string;
  before: string | null;
  after: string | null;
}

/** A function or method whose lines the change touches. */
export interface ChangedFunction {
  file: string;
  qualname: string;
  inBase: boolean;
  inHead: boolean;
}

/** A test's outcome in one run; `timeout` = failed at the per-test limit, `missing` = not in the run. */
export type Outcome = TestOutcome | "timeout" | "missing";

export interface TestDiff {
  id: string;
  before: Outcome;
  after: Outcome;
  beforeMessage?: string;
  afterMessage?: string;
}

/** What one replayed call did. */
export interface CallOutcome {
  kind: "return" | "raise" | "timeout" | "unresolved" | "missing";
  value?: string;
  type?: string;
  message?: string;
  /** The call as written with the arguments' state after it (shows in-place mutation). */
  argsAfter?: string;
  stdout?: string;
}

export interface CallDiff {
  /** `file::qualname` of the function called. */
  target: string;
  /** The call as recorded, e.g. `discount(20.49, None)`. */
  call: string;
  /** The test during which the call was recorded. */
  test: string;
  recorded?: CallOutcome;
  before: CallOutcome;
  after: CallOutcome;
  changed: boolean;
  /** Replaying on base did not reproduce what was recorded: the call depends on state outside its arguments. */
  contextDependent: boolean;
}

export interface Uncapturable {
  target: string;
  call: string;
  test: string;
  reason: string;
}

/** Everything the differential execution observed; the input of every verdict. */
export interface DifferentialReport {
  changedFunctions: ChangedFunction[];
  tests: TestDiff[];
  calls: CallDiff[];
  uncapturable: Uncapturable[];
  /** target → tests (ids) during which the function ran, on base or head. */
  testsReaching: Record<string, string[]>;
  /** Plain-language findings about the run itself (no Python change, import errors, hangs). */
  notes: string[];
  /** Whether the suites ran at all (false: nothing below is evidence). */
  ran: boolean;
  /** ms per phase: switch (writing a side's files), functions, suite base, suite head, replay. */
  timings: Record<string, number>;
}

/** A claim as the offline engine reads it from text. */
export interface ParsedClaim {
  text: string;
  kind: "fix" | "preserve" | "behaviour" | "other";
  /** Test names mentioned (function part of node ids, or full ids). */
  tests: string[];
  /** Changed functions mentioned, as `file::qualname`. */
  functions: string[];
  /** "no other behaviour changes": the fix's own tests are excluded. */
  others: boolean;
}

export const targetKey = (f: { file: string; qualname: string }): string => `${f.file}::${f.qualname}`;
