import type { z } from "zod";
import type { Config } from "../config.js";
import type { ImageFamily } from "../sandbox/images.js";
import type { Sandbox, SandboxSupport } from "../sandbox/types.js";
import type { Logger } from "../log.js";
import type { evidenceSchema } from "./evidence.js";
import type { Edit, ParsedExperiment } from "./experiment.js";

/*
 * The Language port: everything Hypofix knows about one programming language and its test
 * runner, behind one interface (`Language`), and the language-neutral instruments a language
 * runs in a sandbox (`Runtime`). Every layer above (pipeline, debug, localize, audit, queue,
 * GitHub) speaks only these types; a language is a folder under lang/ that implements them
 * (lang/python/) and is registered in lang/registry.ts.
 *
 * First the data the instruments report. Pure data: every consumer (localization, debugging,
 * audit, report) depends on these shapes, not on how they are measured.
 */

/** How one test ended: `error` is a failure outside the test's own assertions (setup, collection). */
export type TestOutcome = "passed" | "failed" | "error" | "skipped";

/** One stack frame of the repository's own code (library frames are dropped). */
export interface Frame {
  /** Path relative to the repository root. */
  file: string;
  /** 1-based line of the frame's current statement. */
  line: number;
  /** Function name as the language reports it (Python: `co_name`). */
  function: string;
  /** The source line, stripped, when known. */
  code?: string;
  /**
   * Set on the last frame of a collapsed run: the `period` frames ending here
   * (1 when absent) repeated this many more times (AutoFL's minimisation).
   */
  repeated?: number;
  /** How many frames the repeated run has (1 when absent). */
  period?: number;
}

/** How a test failed: the exception, where, and the runner's words. */
export interface TestFailure {
  /** Exception type, e.g. `AssertionError`, `ZeroDivisionError`. */
  type: string;
  /** The exception's message, as the language prints it. */
  message: string;
  /** Minimised trace: repository frames only, repeated runs longer than 5 collapsed. */
  frames: Frame[];
  /** The test runner's own failure text, capped, for humans. */
  text: string;
  /**
   * The exceptions this one was raised from or while handling (Python: `raise ... from e`, the
   * implicit `__context__`), nearest first; absent or empty when it started where it was raised.
   */
  causes?: ExceptionCause[];
}

/** One exception of a failure's chain: where it was raised, up to where it was caught. */
export interface ExceptionCause {
  /** Exception type. */
  type: string;
  /** Its message. */
  message: string;
  /** Repository frames of its traceback, minimised like `TestFailure.frames`. */
  frames: Frame[];
  /** The code named it as the cause (Python: `raise ... from`); false: the next exception was raised while handling it. */
  explicit: boolean;
}

/** One test of a run. */
export interface TestResult {
  /** The language's test id (Python: the pytest node id, e.g. `tests/test_x.py::test_y[1-2]`). */
  id: string;
  outcome: TestOutcome;
  /** Wall-clock time of the test itself. */
  durationMs: number;
  /** How it failed, for a failed or errored test. */
  failure?: TestFailure;
}

/** One run of tests (the suite or some ids). */
export interface TestRun {
  /** Every test the runner reported, in the order it ran them. */
  tests: TestResult[];
  /** True when the run was killed at its timeout; the tests not reported are missing from `tests`. */
  timedOut: boolean;
  /** Collection errors, a missing test id, a syntax error: the test runner's own words. */
  errors: string[];
  /** Wall-clock time of the whole run. */
  durationMs: number;
  /** Files the runner collected tests from: test code even when their names do not say so. */
  testFiles?: string[];
}

/** A function or method defined in the repository. */
export interface FunctionInfo {
  /** Path relative to the repository root. */
  file: string;
  /** Qualified name within the module: `Class.method`, `outer.<locals>.inner` is `outer.inner`. */
  qualname: string;
  /** The first and last line of its definition, 1-based. */
  startLine: number;
  endLine: number;
}

/** Lines one test executed, by file (repository-relative path). */
export type LineCoverage = Record<string, number[]>;

/** Per-test coverage of a run, with the outcomes and the functions to map lines to. */
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
  /** The traced function's qualified name. */
  function: string;
  /** Its file, relative to the repository root. */
  file: string;
  /** Total blocks executed; `blocks` keeps the first 5 and last 5 when longer. */
  totalBlocks: number;
  /** The blocks kept, in execution order. */
  blocks: TraceBlock[];
  /** Text exactly as shown to the model. */
  rendered: string;
  /** The test's outcome during the trace run. */
  outcome?: TestOutcome;
}

/** One basic block of a trace. */
export interface TraceBlock {
  /** Its position among all the blocks executed (1-based). */
  index: number;
  /** The lines it spans. */
  startLine: number;
  endLine: number;
  /** Variable values (repr, size-capped) at block entry and exit. */
  before: Record<string, string>;
  after: Record<string, string>;
  /** The source lines the block executed. */
  code?: string;
}

/**
 * What a failing test's live objects say about its bug (lang/evidence.ts): the values a
 * failed comparison saw and how they differ, the keys a mapping held at a KeyError, the
 * attributes an object had at an AttributeError, the `except` clauses the exception passed,
 * where a re-raised exception started, the signatures of the functions called on the failing
 * line and on the lines asked for, and state carried from one call to the next.
 */
export type FailureEvidence = z.infer<typeof evidenceSchema>;

/** An experiment and what running it showed, exactly as the model sees it. */
export interface Observation {
  /** Which form of experiment ran; `invalid` when it was malformed and nothing ran. */
  kind: "debugger" | "edit" | "trace" | "invalid";
  /** The experiment as given. */
  experiment: string;
  /** What it showed, as text for the model. */
  observation: string;
  /** Wall-clock time of the experiment. */
  durationMs: number;
  /** Edit-and-run: how the test failed with the edit, when it did (the text above is its first line). */
  failure?: TestFailure;
}

/** A candidate's ranking features: what it edits, in the language's own terms. */
export interface CandidateFeatures {
  /** The syntax node the edit is anchored on (Python: the ast type, `Compare`, `Call`, `FunctionDef`, ...). */
  node: string;
  /** The statement it belongs to (Python: `If`, `Return`, `ExceptHandler`, ...). */
  statement: string;
  /** Qualified name of the enclosing function (`Class.method`), empty at module level. */
  function: string;
  /** Identifiers involved: the old and new names, attributes, called functions. */
  names: string[];
  /** Literal texts involved (old and new), as written in code. */
  literals: string[];
  /** The code fragment replaced and its replacement (short, one line each). */
  before: string;
  after: string;
  /** Whether the edit is inside a loop body. */
  inLoop: boolean;
  /** Number of edits (a multi-line statement or an insertion may take several). */
  edits: number;
}

/** A candidate repair drawn from a source file's syntax; its edits carry the file they apply to. */
export interface RepairCandidate {
  /** The kind of mistake it repairs, one of the language's families (Python: CANDIDATE_FAMILIES). */
  family: string;
  /** Repository-relative path of the file the edits apply to. */
  file: string;
  /** First line the edits change (an ADD's line is the one it is inserted above). */
  line: number;
  /** The suspect line (of the request) this candidate was generated for. */
  suspect: number;
  /** Edits in the edit-and-run language (experiment.ts), each naming `file`. */
  edits: Edit[];
  /** One sentence, code in backticks: what this candidate claims is wrong. */
  claim: string;
  features: CandidateFeatures;
  /** Smaller is likelier: about 1 for single-token slips, 3+ for broad guesses. */
  prior: number;
}

/** What repair candidates are asked for: one source file's suspect lines or a span. */
export interface CandidateRequest {
  /** Repository-relative path of the file to repair (test files get no candidates). */
  file: string;
  /** The file's text, when it differs from the sandbox's copy (e.g. with another hunk applied). */
  source?: string;
  /** Suspect lines, most suspicious first; candidates come grouped in this order. */
  lines?: number[];
  /** Or every statement whose first line is in this range (a function's span). */
  span?: { start: number; end: number };
  /**
   * Evidence from the failure that makes some replacements likelier (lower prior): `keys` a
   * KeyError's key or the keys a dict held at runtime, `attributes` an object's attributes
   * (AttributeError), `names` variables seen in the failing frame, `exceptions` the type
   * raised or the one the test expected (for `except` clauses and `raise`), `types` the runtime
   * types of the names at the lines the failing test ran (edits that do not fit them are dropped),
   * `values` the reprs the failing assertion compared.
   */
  hints?: {
    names?: string[];
    values?: string[];
    keys?: string[];
    attributes?: string[];
    exceptions?: string[];
    /** Type names of the locals (and `self.<attribute>`s) at a line, when the failing test first ran it. */
    types?: { line: number; types: Record<string, string> }[];
  };
  /** Test files (repository-relative) of the failing tests: the keys they use are likelier replacement keys. */
  tests?: string[];
  /** Candidates kept per suspect line, likeliest first (default 80). */
  budget?: number;
}

/** The candidate generator could not run, or its output was not what its schema says. */
export class CandidateHelperError extends Error {
  constructor(
    message: string,
    readonly file: string,
  ) {
    super(`repair candidates for ${file}: ${message}`);
    this.name = "CandidateHelperError";
  }
}

/*
 * The runtime: the language's instruments over one warm sandbox.
 */

/** Options of one run of the instruments. */
export interface RunOptions {
  /** Limit of this run (the test run itself; the process gets a grace period on top). */
  timeoutMs?: number;
  /**
   * Limit of each test in the run (the job's limit scaled from the measured tests,
   * pipeline/limits.ts): a test that hangs fails at it and the run goes on. Default: the
   * runtime's own share of `timeoutMs`.
   */
  testTimeoutMs?: number;
  /**
   * Tests to run first, in this order and in the same process, for the tests asked for (an
   * order-dependent failure's preceding tests, pipeline/order.ts): their results are not
   * reported and instruments (breakpoints, traces, coverage, evidence) do not watch them.
   * Edits of an experiment apply to them too. Empty or absent: none.
   */
  before?: string[];
}

/** Options of one experiment. */
export interface ObserveOptions extends RunOptions {
  /**
   * The file edits and breakpoints refer to when the experiment names none
   * (`REPLACE(4, ...)`, `b 12`): the suspicious function's file. Without it, the
   * innermost non-test repository frame of the test's failure is used.
   */
  file?: string;
}

/** The audit's recording run: the suite on the sandbox's current tree, with the calls to some functions recorded. */
export interface CallRecording {
  /** The functions whose calls are recorded (file and qualname; other fields are passed along). */
  targets: { file: string; qualname: string }[];
  /** Repository-relative path of the record the run writes (JSON lines, below). */
  out: string;
  /** Repository-relative path where the runtime may keep the run's own configuration. */
  configPath: string;
  /** Test files to run besides the suite (the audit's claim tests). */
  extraTests: string[];
  /**
   * The tests to run instead of the whole suite (those that reach the changed code, when a job
   * knows them from its coverage); absent: the suite.
   */
  tests?: string[];
  /** Distinct calls recorded per function. */
  maxCalls: number;
  /** Tests whose calls may take `maxCalls` more per function (the failing tests: what a claim about the fix names). */
  priorityTests?: string[];
  /** Arguments of one call larger than this (serialized) are reported, not recorded. */
  maxArgBytes: number;
  /** One test may run this long before it is failed as hung. */
  testTimeoutMs: number;
  /** The whole run; default: the sandbox's own limit. */
  suiteTimeoutMs?: number;
}

/**
 * How a recording run ended. The record it wrote (`CallRecording.out`) holds one JSON object
 * per line: `{kind: "start", id}` when a test starts; `{kind: "test", id, outcome, message}`
 * when it ends (outcome passed, failed, error, skipped or timeout); `{kind: "collect-error",
 * id, message}`; `{kind: "call", target: "file::qualname", test, call, args?, recorded?}` for
 * a call (args present when it can be replayed; recorded: its outcome then, as below);
 * `{kind: "uncapturable", target, test, call, reason}`; `{kind: "reached", reached: {target:
 * count}}`. A replay writes `{index, kind: "returned" | "raised" | "unresolved" | ..., value?,
 * type?, message?, argsAfter?, stdout?}` per call, in record order.
 */
export interface RecordingRun {
  /** The run was killed at its time limit; the record holds the tests before that. */
  timedOut: boolean;
  /** The runner's exit code; null when it was killed. */
  exitCode: number | null;
  /** Its output, for the audit's message when it did not start. */
  stdout: string;
  stderr: string;
}

/**
 * The language's instruments over one warm sandbox (`Language.createRuntime`). Everything
 * above the port (localize, debug, audit, pipeline) uses only this. No method throws for the
 * code under test's failures: those are results.
 */
export interface Runtime {
  /** Whose instruments these are, in the words of notes and messages ("Python", "pytest"). */
  readonly language: Pick<Language, "id" | "name" | "testRunner" | "prompts">;
  /** The language's file rules (test files, source files, build files), for the layers that judge paths. */
  readonly files: FileRules;
  /** Runs the whole suite, or the given test ids. */
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
   * Runs one failing test under the language's evidence helper and reports what its live
   * objects say (`FailureEvidence`); `lines` are the source lines whose calls' signatures to
   * read. Undefined when the helper could not report.
   */
  evidence(
    testId: string,
    options?: RunOptions & { lines?: { file: string; line: number }[] },
  ): Promise<FailureEvidence | undefined>;
  /** Every function defined in the repository's source files (tests excluded unless asked). */
  functions(options?: { includeTests?: boolean }): Promise<FunctionInfo[]>;
  /**
   * Repair candidates for one source file's suspect lines (or a function's span), drawn from
   * its syntax tree in the sandbox: edits in the edit-and-run language, each with its family,
   * claim, features and prior. A test file gets none; a generator that cannot answer throws
   * CandidateHelperError.
   */
  candidates(request: CandidateRequest, options?: RunOptions): Promise<RepairCandidate[]>;
  /**
   * The repository's test-runner options set aside so far because they break the instruments
   * (Python: pytest's `-n auto`, `--cov`), for the report.
   */
  optionsSetAside(): string[];
  /**
   * The audit's differential run: the suite (and `extraTests`) on the sandbox's current tree,
   * recording the calls made to `targets` into `out` (the record format is at RecordingRun).
   */
  recordCalls(recording: CallRecording): Promise<RecordingRun>;
  /**
   * Replays the `count` replayable calls of the record at `record` against the current tree,
   * each at most `callTimeoutMs`, writing one outcome per call to `out` (RecordingRun).
   */
  replayCalls(request: { record: string; out: string; count: number; callTimeoutMs: number }): Promise<void>;
  /**
   * Hypofix rewrote files behind the runtime's back (the audit switching sides): drop what
   * the language caches from their old text (Python: `__pycache__`).
   */
  forgetCompiled(): Promise<void>;
  /**
   * Why a test file's text (a model's claim test) cannot be run, or undefined when it
   * parses and defines at least one test.
   */
  testProblem(source: string): Promise<string | undefined>;
}

/** What a language's runtime is built with. */
export interface RuntimeOptions {
  /** Default per-run timeout (the test run itself; the process gets a grace period on top). */
  timeoutMs?: number;
  /**
   * Where tests run, relative to the repository root (a monorepo's project); paths in
   * results stay relative to the root. Default: the root.
   */
  workingDirectory?: string;
  /** Where the runtime logs its helper calls (debug level). */
  log?: Logger;
}

/*
 * The Language: plain data and pure functions about one language, and its runtime factory.
 */

/**
 * What the model's prompts say differently per language: the fence of a code block, the
 * experiments' examples, how a test refers to a module, and what a module holds besides one
 * function. Pure: every function reads only the text it is given.
 */
/** How a model's code answer is read: its line comments, and the lines that open a function. */
export interface CodeSyntax {
  /** Starts a comment that runs to the end of the line (Python: `#`). */
  lineComment: string;
  /** Matches a line that opens a function definition (Python: `def` / `async def`). */
  definition: RegExp;
  /** The name a definition line defines, or undefined for another line. */
  nameOf(line: string): string | undefined;
}

export interface PromptWords {
  /** How the code in the model's answers is read. */
  syntax: CodeSyntax;
  /** The info string of a code block holding `file`'s code (`python`, `typescript`). */
  fence(file: string): string;
  /** What opens a function definition, in the fix prompt's words ("its `def` line"). */
  definitionLine: string;
  /** The experiment language's forms on this language's files, as the debugging prompt shows them. */
  examples: {
    /** A debugger experiment: `b calendar_utils.py:14 ;; c ;; p year % 400 != 0`. */
    debugger: string;
    /** An edit-and-run experiment that replaces text on a line. */
    replace: string;
    /** An edit-and-run experiment that inserts a statement. */
    add: string;
  };
  /** What a claim test is, in the audit prompt's words ("pytest test file"). */
  testFile: string;
  /**
   * How a test refers to the module of `file` (`from shiftplan.roster import ...` for
   * `src/shiftplan/roster.py`), read from the imports of `testSource` when they name it,
   * else from the layout (a `src/` folder is not part of the name); `testFile` is where the
   * test lives, for a relative import.
   */
  importOf(file: string, options?: { testFile?: string; testSource?: string }): string;
  /**
   * What a module holds besides its functions' bodies: imports, module-level names (whole
   * statements, capped), classes with their decorators and fields, and each function's
   * decorators and signature.
   */
  moduleSummary(source: string, file: string, functions: FunctionInfo[]): string;
  /** The signatures a caller builds objects with: each class's constructor (or its fields) in `source`. */
  constructors(source: string, file: string, functions: FunctionInfo[]): string[];
}

/** Which files are what, by repository-relative `/`-separated path (pure: no file is read). */
export interface FileRules {
  /** Test code, or a file in a test folder: never a suspect, never patched. */
  isTestFile(path: string): boolean;
  /** A source file of this language: the only kind of file a patch may change. */
  isSourceFile(path: string): boolean;
  /** What `isSourceFile` accepts, for a refusal: "a Python source file (.py)". */
  sourceFiles: string;
  /**
   * The language's build and packaging files (path lowercased, e.g. `pyproject.toml`,
   * `setup.py`): a patch never touches them, beside the CI and build files every language has.
   */
  isBuildFile(lowerPath: string): boolean;
  /**
   * Source files that CI or the language's tools run outside the tests (path lowercased; Python:
   * task runners' `tasks.py`, Sphinx's `docs/conf.py`): patched only when `source_paths` names
   * the file itself. Absent: none.
   */
  isToolFile?(lowerPath: string): boolean;
  /** The file a test id's test is defined in (Python: the node id's part before `::`). */
  testFileOf(testId: string): string;
}

/** What a CI log says about the failing tests. */
export interface CiLogFacts {
  /** Failing tests and test files the log reports, in order, deduplicated. */
  failingTests: string[];
  /** Those of `failingTests` that name one test (a file's collection error does not): what a run may ask for. */
  tests: string[];
  /** The lines around the failure, for the debugging prompt and the report; "" when the log shows none. */
  excerpt: string;
}

/** The repository as detection sees it: names only, never contents (the repository is untrusted). */
export interface RepoProbe {
  /** File and folder names directly in the repository root and, when set, the working directory. */
  names: string[];
}

/** A setup plan: commands that install the repository's dependencies in its environment. */
export interface SetupPlan {
  /** argv of each command, run in order in the working directory. */
  commands: string[][];
  /** Where the commands came from, for the report: e.g. "detected: requirements.txt, pyproject.toml [test]". */
  source: string;
}

/** The toolchain version an environment is built on, and why. */
export interface VersionChoice {
  /** The chosen version, one of the available ones (or the fallback). */
  version: string;
  /** Why this version, in words for the report (Python: "python_version", "requires-python", "CI log", "default"). */
  reason: string;
  /** What was asked, when the available images could not match it exactly. */
  asked?: string;
}

/**
 * How a repository's environment is made (SWE-bench's TestSpec): plain data and pure
 * functions of the repository's dependency files, which the pipeline reads for it.
 */
export interface EnvironmentSpec {
  /** The base images, one per toolchain version (sandbox/images.ts). */
  images: ImageFamily;
  /** The base tag of the image family under this configuration (Python: HYPOFIX_SANDBOX_IMAGE). */
  imageBase(config: Config): string;
  /** The version assumed when neither the base image's label nor a version image says one (Python: 3.11). */
  defaultVersion: string;
  /** Names of the files (directly in the working directory) whose content keys the environment cache. */
  dependencyFile: RegExp;
  /**
   * The folder the setup runs in and whose dependency files key the environment, for a working
   * directory (JavaScript: a workspace's package installs from the workspace root's lockfile);
   * `has` says whether a repository-relative file exists. Absent: the working directory itself.
   */
  installRoot?(workingDirectory: string, has: (repoPath: string) => boolean): string;
  /** The repository configuration key that names the version (Python: `python_version`), if any. */
  versionKey?: string;
  /**
   * Picks the environment's toolchain version among those with an image: `configured` (the
   * `versionKey` setting) first, then what the dependency files or the CI log ask for.
   */
  chooseVersion(input: {
    available: string[];
    fallback: string;
    configured?: string;
    dependencyFiles: ReadonlyMap<string, string>;
    ciLog?: string;
  }): VersionChoice;
  /** The setup when the configuration names none, from the dependency files; undefined: none. */
  detectSetup(dependencyFiles: ReadonlyMap<string, string>): SetupPlan | undefined;
  /** Variables the setup commands get (credential-free: mirrors and their credentials reach the setup only through the egress proxy). */
  setupEnv(config: Config): Record<string, string>;
}

/**
 * One programming language and its test runner: what Hypofix needs to reproduce, localize,
 * debug, patch and audit a failure in a repository written in it. Registered in
 * lang/registry.ts; chosen by `language:` in .github/hypofix.yml, else by `detect`.
 */
export interface Language {
  /** Stable id: the `language:` key's value, and result.json's `environment.language`. */
  readonly id: string;
  /** The language's name for people: "Python". */
  readonly name: string;
  /** Its test runner's name for people ("pytest"): the report says whose options were set aside. */
  readonly testRunner: string;
  /** The words and examples the model's prompts use for this language (prompts/*.txt placeholders). */
  readonly prompts: PromptWords;
  /**
   * How strongly a repository's names say it is written in this language: 0 not at all, 1
   * certainly. The registry takes the highest score; the default language wins at 0.
   */
  detect(repo: RepoProbe): number;
  /** How its environments are made. */
  readonly environment: EnvironmentSpec;
  /**
   * Keys this language adds to .github/hypofix.yml, validated with their schema (Python:
   * `python_version`); a key no registered language declares is an error.
   */
  readonly configKeys: Record<string, z.ZodType>;
  /**
   * The test selection a configured `test_command` (argv) makes, as the arguments the
   * runtime's `runTests` takes to run the suite; throws a UserError saying what is supported
   * when it is not a command of this language's test runner.
   */
  testSelection(command: string[]): string[];
  /** What a CI job's log says about the failing tests. */
  parseCiLog(log: string): CiLogFacts;
  /** Which files are tests, sources and build files; what a patch may touch. */
  readonly files: FileRules;
  /**
   * Parses one experiment of the AutoSD language for this language's files (experiment.ts),
   * so a command can refuse a malformed one before a sandbox starts.
   */
  parseExperiment(text: string): ParsedExperiment;
  /** The helper bundle, init, command runner and variables its sandboxes need. */
  readonly sandbox: SandboxSupport;
  /** The language's instruments over a sandbox made with `sandbox` (above). */
  createRuntime(sandbox: Sandbox, options?: RuntimeOptions): Runtime;
}
