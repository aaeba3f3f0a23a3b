import type { z } from "zod";
import type { evidenceSchema } from "./python/protocol.js";

/** What the Python instruments report. Pure data: every consumer (localization,
 * debugging, audit, report) depends on these shapes, not on how they are measured. */

export type TestOutcome = "passed" | "failed" | "error" | "skipped";

/** One stack frame of the repository's own code (library frames are dropped). */
export interface Frame {
  /** Path relative to the repository root. */
  file: string;
  line: number;
  /** Function name as Python reports it (`co_name`). */
  function: string;
  /** The source line, stripped, when known. */
  code?: string;
  /**
   * Set on the last frame of a collapsed run: the `period` frames ending here
   * (1 when absent) repeated this many more times (AutoFL's minimisation).
   */
  repeated?: number;
  period?: number;
}

export interface TestFailure {
  /** Exception type, e.g. `AssertionError`, `ZeroDivisionError`. */
  type: string;
  message: string;
  /** Minimised trace: repository frames only, repeated runs longer than 5 collapsed. */
  frames: Frame[];
  /** pytest's own failure text, capped, for humans. */
  text: string;
  /**
   * The exceptions this one was raised from (`raise ... from e`) or while handling (the
   * implicit `__context__`), nearest first; absent or empty when it started where it was raised.
   */
  causes?: ExceptionCause[];
}

/** One exception of a failure's chain: where it was raised, up to where it was caught. */
export interface ExceptionCause {
  type: string;
  message: string;
  /** Repository frames of its traceback, minimised like `TestFailure.frames`. */
  frames: Frame[];
  /** `raise ... from` named it (`__cause__`); false: the next exception was raised while handling it. */
  explicit: boolean;
}

export interface TestResult {
  /** pytest node id, e.g. `tests/test_x.py::test_y[1-2]`. */
  id: string;
  outcome: TestOutcome;
  durationMs: number;
  failure?: TestFailure;
}

export interface TestRun {
  tests: TestResult[];
  /** True when pytest was killed at its timeout; the tests not reported are missing from `tests`. */
  timedOut: boolean;
  /** Collection errors, a missing test id, a syntax error: pytest's own words. */
  errors: string[];
  durationMs: number;
  /** Files pytest collected test functions from: test code even when their names do not say so. */
  testFiles?: string[];
}

/** A function or method defined in the repository. */
export interface FunctionInfo {
  file: string;
  /** Qualified name within the module: `Class.method`, `outer.<locals>.inner` is `outer.inner`. */
  qualname: string;
  startLine: number;
  endLine: number;
}

/** Lines one test executed, by file (repository-relative path). */
export type LineCoverage = Record<string, number[]>;

export interface CoverageReport {
  /** Per test id: lines it executed in repository (non-test) files. */
  perTest: Record<string, LineCoverage>;
  /** Outcome of each test during the coverage run. */
  outcomes: Record<string, TestOutcome>;
  /** Every function defined in the covered source files, for mapping lines to functions. */
  functions: FunctionInfo[];
  /** Failures of the tests that failed during the coverage run, by test id (with their exception chains). */
  failures?: Record<string, TestFailure>;
}

/** LDB's block trace of one test through one function. */
export interface BlockTrace {
  function: string;
  file: string;
  /** Total blocks executed; `blocks` keeps the first 5 and last 5 when longer. */
  totalBlocks: number;
  blocks: TraceBlock[];
  /** Text exactly as shown to the model. */
  rendered: string;
  /** The test's outcome during the trace run. */
  outcome?: TestOutcome;
}

export interface TraceBlock {
  index: number;
  startLine: number;
  endLine: number;
  /** Variable values (repr, size-capped) at block entry and exit. */
  before: Record<string, string>;
  after: Record<string, string>;
  /** The source lines the block executed. */
  code?: string;
}

/**
 * What a failing test's live objects say about its bug (hypofix_evidence.py): the values a
 * failed comparison saw and how they differ, the keys a mapping held at a KeyError, the
 * attributes an object had at an AttributeError, the `except` clauses the exception passed,
 * where a re-raised exception started, the signatures of the functions called on the failing
 * line and on the lines asked for, and state carried from one call to the next.
 */
export type FailureEvidence = z.infer<typeof evidenceSchema>;

/** An experiment and what running it showed, exactly as the model sees it. */
export interface Observation {
  kind: "debugger" | "edit" | "trace" | "invalid";
  experiment: string;
  observation: string;
  durationMs: number;
  /** Edit-and-run: how the test failed with the edit, when it did (the text above is its first line). */
  failure?: TestFailure;
}
