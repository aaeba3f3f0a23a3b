import type { SuspiciousLine } from "../localize/sbfl.js";
import type { FunctionInfo, Observation, Runtime, TestFailure } from "../lang/types.js";
import type { EngineKind, Step } from "../result.js";
import type { Budget } from "./budget.js";

/** One step of the log: the result.json step plus what the report and patches need. */
export interface StepRecord extends Step {
  /** Why the conclusion was reached, in words, for the report. */
  note: string;
  kind: Observation["kind"] | "none";
  durationMs: number;
  /** The file an edit-and-run experiment changed. */
  file?: string;
  /** What the step claims about the code, without its observations: the audit checks it. */
  claim?: string;
}

/** What the engines know about the bug. */
export interface BugContext {
  failingTests: string[];
  /** The test experiments run against (the first failing test). */
  primaryTest: string;
  failure?: TestFailure;
  /** SBFL-ranked lines, most suspicious first, already limited to editable files. */
  suspicious: SuspiciousLine[];
  /**
   * The localizer's ranked functions (AutoFL's, most likely first) when a localizer ran; the
   * llm engine debugs the first of them, covered or not (code a test runs while it is
   * collected may not count as covered), before SBFL's lines.
   */
  ranked?: { file: string; function: string }[];
  functions: FunctionInfo[];
  /**
   * Whether a test executed a line in the coverage run before any edit; undefined when the run
   * did not record that test. A line the judging test never runs cannot be where it fails.
   */
  reaches?(test: string, file: string, line: number): boolean | undefined;
  /** Source of a repository file as it is before any patch. */
  readSource(file: string): Promise<string>;
  /** Wall-clock limit of one experiment, scaled from the test runs seen so far
   * (`experimentTimeoutMs` in budget.ts), so a candidate that makes the code loop forever
   * costs seconds, not the job's budget. */
  experimentTimeoutMs: number;
  /** CI log excerpt or PR text, when the job came from GitHub. */
  bugReport?: string;
  /** The maintainer's constraint on the fix (`/fix <text>`), for an engine that can follow one. */
  constraint?: string;
  /**
   * Runs `work` with `edits` applied to the sandbox's tree, restoring it afterwards
   * (LDB traces the function it regenerated, not the original).
   */
  withEdits?<T>(edits: FileEdit[], work: () => Promise<T>): Promise<T>;
}

/** A full-file replacement proposed by an engine. */
export interface FileEdit {
  file: string;
  before: string;
  after: string;
}

export interface Candidate {
  edits: FileEdit[];
  /** Index of the step the candidate came from. */
  fromStep?: number;
  /** Where the change is, for the report's summary. */
  at?: { file: string; line: number; function?: string };
}

export interface Validation {
  plausible: boolean;
  testsRun: number;
  testsFailed: number;
  /** Tests that passed before the patch and fail after it. */
  brokenTests: string[];
  /** How the first few broken tests failed (the runner's text, capped), for the model's next round. */
  brokenFailures?: { id: string; text: string }[];
  /** Failing tests still failing. */
  stillFailing: string[];
  /** How the first few of them fail with the patch (capped like `brokenFailures`), for the model's next round. */
  stillFailures?: { id: string; text: string }[];
  /** Tests that failed before the patch, were not targeted, and still fail with it. */
  otherFailures?: string[];
  rejectedBecause?: string;
  diff: string;
  /** Only the tests reaching the change ran (the rest keep their baseline outcome); else the whole suite. */
  scoped?: boolean;
}

export type Validate = (candidate: Candidate) => Promise<Validation>;

export interface EngineRun {
  steps: StepRecord[];
  /** Validated candidates in the order they were found. */
  candidates: { candidate: Candidate; validation: Validation }[];
  done: boolean;
  /** Why the loop ended. */
  stop: "done" | "budget" | "exhausted" | "steps";
}

export interface DebugEngine {
  readonly name: EngineKind;
  run(bug: BugContext, runtime: Runtime, budget: Budget, validate: Validate): Promise<EngineRun>;
}
