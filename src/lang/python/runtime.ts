import type { CandidateRequest, RepairCandidate } from "./candidates.js";
import type {
  BlockTrace,
  CoverageReport,
  FailureEvidence,
  FunctionInfo,
  Observation,
  TestRun,
} from "../types.js";

/**
 * The Python instruments over one warm sandbox. Implemented in this folder
 * (`createPythonRuntime`); everything above (localize, debug, audit) uses only this.
 */
export interface PythonRuntime {
  /** Runs the whole suite, or the given pytest node ids. Results come from JUnit XML. */
  runTests(ids?: string[], options?: RunOptions): Promise<TestRun>;
  /** Per-test line coverage of repository source files (test files excluded). */
  coverage(ids?: string[], options?: RunOptions): Promise<CoverageReport>;
  /**
   * Runs one AutoSD experiment (debugger `b f:l ;; c ;; p e`, edit-and-run
   * `REPLACE(...) AND ... AND RUN`, or `trace <file>:<function>`) against a test,
   * and returns the observation exactly as the model sees it. Never throws for
   * a bad experiment: a malformed one is an `invalid` observation saying why.
   */
  observe(testId: string, experiment: string, options?: ObserveOptions): Promise<Observation>;
  /** LDB block trace of `testId` through one function. */
  trace(testId: string, file: string, qualname: string, options?: RunOptions): Promise<BlockTrace>;
  /**
   * Runs one failing test under hypofix_evidence.py and reports what its live objects say
   * (`FailureEvidence`); `lines` are the source lines whose calls' signatures to read.
   * Undefined when the helper could not report.
   */
  evidence(
    testId: string,
    options?: RunOptions & { lines?: { file: string; line: number }[] },
  ): Promise<FailureEvidence | undefined>;
  /** Every function defined in the repository's Python source files (tests excluded unless asked). */
  functions(options?: { includeTests?: boolean }): Promise<FunctionInfo[]>;
  /**
   * Repair candidates for one source file's suspect lines (or a function's span), drawn from
   * its syntax tree in the sandbox: edits in the edit-and-run DSL, each with its family, claim,
   * features and prior (candidates.ts). A test file gets none.
   */
  candidates(request: CandidateRequest, options?: RunOptions): Promise<RepairCandidate[]>;
  /** The repository's pytest options set aside so far because they break the instruments (`-n auto`, `--cov`). */
  pytestSetAside(): string[];
}

export interface RunOptions {
  timeoutMs?: number;
}

export interface ObserveOptions extends RunOptions {
  /**
   * The file edits and breakpoints refer to when the experiment names none
   * (`REPLACE(4, ...)`, `b 12`): the suspicious function's file. Without it, the
   * innermost non-test repository frame of the test's failure is used.
   */
  file?: string;
}
