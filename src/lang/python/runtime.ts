import { createHash } from "node:crypto";
import type { Sandbox } from "../../sandbox/types.js";
import { applyEdits, insideRepository, MAX_VALUES, type Edit, type Experiment } from "../experiment.js";
import type {
  BlockTrace,
  CallRecording,
  CandidateRequest,
  CoverageReport,
  FailureEvidence,
  FunctionInfo,
  ObserveOptions,
  Observation,
  RecordingRun,
  RepairCandidate,
  RunOptions,
  Runtime,
  RuntimeOptions,
  TestFailure,
  TestRun,
} from "../types.js";
import { generateCandidates } from "./candidates.js";
import { parsePythonExperiment, PYTHON_NAMES, pythonFiles } from "./files.js";
import { PYTHON_PROMPTS } from "./prompt-words.js";
import { minimizeFrames } from "../frames.js";
import {
  HELPER_FILE,
  RESULT_MARK,
  helperSchemas,
  type HelperMode,
  type HelperResult,
  type RawRun,
} from "./protocol.js";
import { renderDebugger, renderTrace, runOutcome } from "./render.js";

export interface PythonRuntimeOptions extends RuntimeOptions {
  /**
   * Per-test coverage collector. `settrace` (the default) traces only repository
   * source frames; `coverage` is coverage.py with one dynamic context per test.
   * Both give the same lines; bench/python.bench.ts measured settrace faster
   * (overhead 0.7-1.05x vs 1.25-1.36x on the fixture suite).
   */
  coverageMethod?: "coverage" | "settrace";
}

const DEFAULT_TIMEOUT_MS = 60_000;
/** Interpreter start, collection and JSON on top of the tests' own deadline. */
const GRACE_MS = 15_000;
/** The helper's JSON (coverage of a large suite) may be big; test output never reaches stdout. */
const RESULT_BYTES = 64 * 1024 * 1024;

/** Raised when the helper itself could not report (killed hard, crashed before printing). */
class HelperFailure extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
  ) {
    super(message);
  }
}

/**
 * The interpreter a sandbox runs Python with: the image's python3 in docker; on the host
 * (local), HYPOFIX_PYTHON when set.
 */
export function pythonOf(sandbox: Sandbox): string {
  return sandbox.kind === "local" ? (process.env.HYPOFIX_PYTHON ?? "python3") : "python3";
}

/** The Python instruments over one warm sandbox (pytest, coverage, the debugger, the call recorder). */
export function createPythonRuntime(sandbox: Sandbox, options: PythonRuntimeOptions = {}): Runtime {
  return new SandboxPythonRuntime(sandbox, options);
}

class SandboxPythonRuntime implements Runtime {
  readonly language = { ...PYTHON_NAMES, prompts: PYTHON_PROMPTS };
  readonly files = pythonFiles;
  private readonly python: string;
  /** Each edited file as last read (checked by hash before use). */
  private readonly sources = new Map<string, string>();
  /** The file experiments of a test refer to when they name none. */
  private readonly failureFiles = new Map<string, { file?: string; candidates: string[] }>();
  private readonly setAside = new Set<string>();

  constructor(
    private readonly sandbox: Sandbox,
    private readonly options: PythonRuntimeOptions,
  ) {
    this.python = pythonOf(sandbox);
  }

  private timeout(options?: RunOptions): number {
    return options?.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** What every test-running request carries of its options: the tests to run first, each test's limit. */
  private runFields(options?: RunOptions): Record<string, unknown> {
    return {
      ...(options?.before && options.before.length > 0 ? { before: options.before } : {}),
      ...(options?.testTimeoutMs !== undefined ? { testTimeout: options.testTimeoutMs / 1000 } : {}),
    };
  }

  private async call<M extends HelperMode>(
    mode: M,
    request: Record<string, unknown>,
    timeoutMs: number,
  ): Promise<HelperResult<M>> {
    const res = await this.sandbox.exec([this.python, `${this.sandbox.helpersDir}/${HELPER_FILE}`], {
      stdin: JSON.stringify({ mode, timeout: timeoutMs / 1000, root: this.sandbox.workdir, ...request }),
      ...(this.options.workingDirectory ? { cwd: this.options.workingDirectory } : {}),
      timeoutMs: timeoutMs + GRACE_MS,
      maxOutputBytes: RESULT_BYTES,
      env: { PYTHONHASHSEED: "0" },
    });
    const at = res.stdout.lastIndexOf(RESULT_MARK);
    if (at < 0) {
      const why = res.timedOut
        ? `the run was killed at the sandbox timeout (${Math.round((timeoutMs + GRACE_MS) / 1000)}s)`
        : `the Python process ended (exit ${res.exitCode}) without a result`;
      const tail = res.stderr.trim().split("\n").slice(-5).join("\n");
      throw new HelperFailure(tail ? `${why}: ${tail}` : why, res.timedOut);
    }
    let json: unknown;
    try {
      json = JSON.parse(res.stdout.slice(at + RESULT_MARK.length));
    } catch {
      throw new HelperFailure(`the result was unreadable (cut at ${RESULT_BYTES} bytes?)`, false);
    }
    this.options.log?.debug({ mode, ms: Math.round(res.durationMs) }, "python helper");
    const result = helperSchemas[mode].parse(json) as HelperResult<M>;
    if ("run" in result) for (const option of result.run.setAside) this.setAside.add(option);
    return result;
  }

  candidates(request: CandidateRequest, options?: RunOptions): Promise<RepairCandidate[]> {
    return generateCandidates(this.sandbox, this.python, request, {
      ...(options?.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      ...(this.options.log ? { log: this.options.log } : {}),
    });
  }

  optionsSetAside(): string[] {
    return [...this.setAside];
  }

  /** What the audit's pytest runs get: the helpers importable (record_calls), stable hashes, no bytecode. */
  private auditEnv(extra: Record<string, string> = {}): Record<string, string> {
    return {
      PYTHONPATH: this.sandbox.helpersDir,
      PYTHONHASHSEED: "0",
      PYTHONDONTWRITEBYTECODE: "1",
      ...extra,
    };
  }

  async recordCalls(recording: CallRecording): Promise<RecordingRun> {
    const { workdir } = this.sandbox;
    const config = {
      root: workdir,
      targets: recording.targets,
      out: `${workdir}/${recording.out}`,
      maxCalls: recording.maxCalls,
      priorityTests: recording.priorityTests ?? [],
      maxArgBytes: recording.maxArgBytes,
      testTimeout: recording.testTimeoutMs / 1000,
    };
    await this.sandbox.writeFile(recording.configPath, JSON.stringify(config));
    // Naming the extra tests would make pytest run only them: name the root too (its own dot-folders stay uncollected).
    const paths = recording.tests
      ? [...recording.tests, ...recording.extraTests]
      : recording.extraTests.length > 0
        ? [".", ...recording.extraTests]
        : [];
    const argv = [
      this.python,
      "-m",
      "pytest",
      "-q",
      "-p",
      "record_calls",
      "-p",
      "no:cacheprovider",
      ...paths,
    ];
    const res = await this.sandbox.exec(argv, {
      env: this.auditEnv({ HYPOFIX_RECORD_CONFIG: `${workdir}/${recording.configPath}` }),
      ...(recording.suiteTimeoutMs ? { timeoutMs: recording.suiteTimeoutMs } : {}),
    });
    return { timedOut: res.timedOut, exitCode: res.exitCode, stdout: res.stdout, stderr: res.stderr };
  }

  async replayCalls(request: { record: string; out: string; count: number; callTimeoutMs: number }) {
    const helper = `${this.sandbox.helpersDir}/record_calls.py`;
    const perCall = String(request.callTimeoutMs / 1000);
    await this.sandbox.exec([this.python, helper, "replay", request.record, request.out, perCall], {
      env: this.auditEnv(),
      timeoutMs: request.count * request.callTimeoutMs + 30_000,
    });
  }

  /** Drops stale bytecode: a same-size edit within one second would reuse it. */
  async forgetCompiled(): Promise<void> {
    const argv = [
      "find",
      ".",
      "-name",
      "__pycache__",
      "-type",
      "d",
      "-prune",
      "-exec",
      "rm",
      "-rf",
      "{}",
      "+",
    ];
    await this.sandbox.exec(argv, { timeoutMs: 30_000 });
  }

  async testProblem(source: string): Promise<string | undefined> {
    const check = await this.sandbox.exec([this.python, "-c", CHECK_TEST], {
      stdin: source,
      timeoutMs: 15_000,
    });
    if (check.exitCode === 0) return undefined;
    return check.exitCode === 3
      ? "it defines no test function"
      : `it does not parse as Python: ${check.stderr.trim().split("\n").pop() ?? ""}`;
  }

  private toTestRun(raw: RawRun): TestRun {
    return {
      tests: raw.tests.map((t) => ({
        id: t.id,
        outcome: t.outcome,
        durationMs: t.durationMs,
        ...(t.failure
          ? {
              failure: {
                type: t.failure.type,
                message: t.failure.message,
                frames: minimizeFrames(t.failure.frames),
                text: t.failure.text ?? "",
                ...(t.failure.causes && t.failure.causes.length > 0
                  ? {
                      causes: t.failure.causes.map((c) => ({
                        type: c.type,
                        message: c.message,
                        frames: minimizeFrames(c.frames),
                        explicit: c.explicit,
                      })),
                    }
                  : {}),
              },
            }
          : {}),
      })),
      timedOut: raw.timedOut,
      errors: raw.errors,
      durationMs: raw.durationMs,
      ...(raw.testFiles.length > 0 ? { testFiles: raw.testFiles } : {}),
    };
  }

  async runTests(ids: string[] = [], options?: RunOptions): Promise<TestRun> {
    const started = performance.now();
    try {
      const res = await this.call("run", { ids, ...this.runFields(options) }, this.timeout(options));
      return this.toTestRun(res.run);
    } catch (err) {
      if (!(err instanceof HelperFailure)) throw err;
      return {
        tests: [],
        timedOut: err.timedOut,
        errors: [err.message],
        durationMs: performance.now() - started,
      };
    }
  }

  async coverage(ids: string[] = [], options?: RunOptions): Promise<CoverageReport> {
    const method = this.options.coverageMethod ?? "settrace";
    const res = await this.call(
      "coverage",
      { ids, method, ...this.runFields(options) },
      this.timeout(options),
    );
    const outcomes: CoverageReport["outcomes"] = {};
    const failures: NonNullable<CoverageReport["failures"]> = {};
    for (const t of this.toTestRun(res.run).tests) {
      outcomes[t.id] = t.outcome;
      if (t.failure) failures[t.id] = t.failure;
    }
    return { perTest: res.perTest, outcomes, functions: res.functions, failures };
  }

  async functions(options?: { includeTests?: boolean }): Promise<FunctionInfo[]> {
    const res = await this.call(
      "functions",
      { includeTests: options?.includeTests ?? false },
      DEFAULT_TIMEOUT_MS,
    );
    return res.functions;
  }

  async evidence(
    testId: string,
    options?: RunOptions & { lines?: { file: string; line: number }[] },
  ): Promise<FailureEvidence | undefined> {
    const lines = (options?.lines ?? []).map((l) => [l.file, l.line]);
    try {
      const res = await this.call(
        "evidence",
        { test: testId, lines, ...this.runFields(options) },
        this.timeout(options),
      );
      return res.evidence;
    } catch (err) {
      if (err instanceof HelperFailure) return undefined;
      throw err;
    }
  }

  async observe(testId: string, experiment: string, options?: ObserveOptions): Promise<Observation> {
    const started = performance.now();
    const done = (kind: Observation["kind"], observation: string): Observation => ({
      kind,
      experiment,
      observation,
      durationMs: performance.now() - started,
    });
    const parsed = parsePythonExperiment(experiment);
    if (!parsed.ok) return done("invalid", parsed.error);
    const exp = parsed.experiment;
    try {
      if (exp.kind === "trace") {
        const t = await this.trace(testId, exp.file, exp.qualname, options);
        return done("trace", t.rendered);
      }
      if (exp.kind === "debugger") return done("debugger", await this.debug(testId, exp, options));
      const edited = await this.editAndRun(testId, exp.edits, options);
      if (typeof edited === "string") return done("edit", edited);
      return { ...done("edit", edited.text), ...(edited.failure ? { failure: edited.failure } : {}) };
    } catch (err) {
      if (err instanceof HelperFailure)
        return done(exp.kind === "edit" ? "edit" : exp.kind, `The run failed: ${err.message}`);
      throw err;
    }
  }

  /**
   * The file an experiment without one refers to: the innermost non-test
   * repository frame of the failure, else the only source file the test executes.
   */
  private async targetFile(
    testId: string,
    named: string | undefined,
    options?: ObserveOptions,
  ): Promise<{ file?: string; candidates: string[] }> {
    const file = named ?? options?.file;
    if (file) return { file, candidates: [] };
    if (!this.failureFiles.has(testId)) {
      const run = await this.runTests([testId], options);
      const frames = run.tests[0]?.failure?.frames ?? [];
      let found = [...frames].reverse().find((f) => !pythonFiles.isTestFile(f.file))?.file;
      let candidates: string[] = [];
      if (!found) {
        const cov = await this.coverage([testId], options);
        candidates = Object.keys(cov.perTest[testId] ?? {}).sort();
        if (candidates.length === 1) found = candidates[0];
      }
      this.failureFiles.set(testId, { file: found, candidates });
    }
    return this.failureFiles.get(testId) ?? { candidates: [] };
  }

  private async debug(
    testId: string,
    exp: Extract<Experiment, { kind: "debugger" }>,
    options?: ObserveOptions,
  ): Promise<string> {
    const { file, candidates } = await this.targetFile(testId, exp.file, options);
    if (!file)
      return `Say which file the breakpoint is in: b path/to/file.py:${exp.line}${among(candidates)}.`;
    const res = await this.call(
      "debug",
      { test: testId, file, line: exp.line, exprs: exp.exprs, limit: MAX_VALUES, ...this.runFields(options) },
      this.timeout(options),
    );
    if ("problem" in res) return res.problem;
    return renderDebugger(res, exp.line, exp.exprs);
  }

  /** The observation's text, or for a run, the text and the test's failure (frames minimised). */
  private async editAndRun(
    testId: string,
    edits: Edit[],
    options?: ObserveOptions,
  ): Promise<string | { text: string; failure?: TestFailure }> {
    const files = [...new Set(edits.map((e) => e.file))];
    const named = files.find((f) => f !== undefined);
    if (files.filter((f) => f !== undefined).length > 1) return this.editAcross(testId, edits, options);
    const { file, candidates } = await this.targetFile(testId, named, options);
    if (!file) {
      const line = edits[0]?.line ?? 1;
      return `Say which file to edit: REPLACE(path/to/file.py:${line}, "old", "new")${among(candidates)}.`;
    }
    if (!insideRepository(file)) {
      return `File ${file} is outside the repository; give a path relative to its root.`;
    }
    // The file as last read: the helper checks its hash, so the usual experiment costs one exec.
    for (const fresh of [false, true]) {
      let original = fresh ? undefined : this.sources.get(file);
      const readNow = original === undefined;
      if (original === undefined) {
        try {
          original = await this.sandbox.readFile(file);
        } catch {
          return `File ${file} does not exist in the repository.`;
        }
        this.sources.set(file, original);
      }
      const edited = applyEdits(original, edits);
      if (edited.problems.length > 0) {
        if (!readNow) continue; // judged against a copy that may be out of date
        return `${edited.problems.join("\n")}\nThe test was not run.`;
      }
      // A file just read needs no check (and a non-UTF-8 one would never match).
      const check = fresh ? {} : { originalSha256: sha256(original) };
      const request = { test: testId, file, content: edited.source, ...check, ...this.runFields(options) };
      try {
        const res = await this.call("edit", request, this.timeout(options));
        if ("problem" in res) return res.problem;
        if ("run" in res) {
          const failure = this.toTestRun(res.run).tests[0]?.failure;
          return { text: runOutcome(res.run), ...(failure ? { failure } : {}) };
        }
      } catch (err) {
        // The helper restores the file itself unless it was killed hard.
        await this.sandbox.writeFile(file, original);
        throw err;
      }
    }
    return `File ${file} changed while the experiment ran; try again.`;
  }

  /**
   * An edit experiment over several files (one slip copied into two modules): the other files are
   * written edited, the last file's edits run as a single-file experiment, then the others are
   * restored whatever happens.
   */
  private async editAcross(
    testId: string,
    edits: Edit[],
    options?: ObserveOptions,
  ): Promise<string | { text: string; failure?: TestFailure }> {
    if (edits.some((e) => e.file === undefined)) {
      return "An edit experiment over several files must name the file of every edit.";
    }
    const files = [...new Set(edits.map((e) => e.file!))];
    for (const file of files) {
      if (!insideRepository(file)) {
        return `File ${file} is outside the repository; give a path relative to its root.`;
      }
    }
    const main = files.at(-1)!;
    const written: { file: string; original: string }[] = [];
    try {
      for (const file of files.slice(0, -1)) {
        let original: string;
        try {
          original = await this.sandbox.readFile(file);
        } catch {
          return `File ${file} does not exist in the repository.`;
        }
        const edited = applyEdits(
          original,
          edits.filter((e) => e.file === file),
        );
        if (edited.problems.length > 0) return `${edited.problems.join("\n")}\nThe test was not run.`;
        written.push({ file, original });
        await this.sandbox.writeFile(file, edited.source);
      }
      return await this.editAndRun(
        testId,
        edits.filter((e) => e.file === main),
        options,
      );
    } finally {
      for (const { file, original } of written.reverse()) await this.sandbox.writeFile(file, original);
    }
  }

  async trace(testId: string, file: string, qualname: string, options?: RunOptions): Promise<BlockTrace> {
    const res = await this.call(
      "trace",
      { test: testId, file, qualname, ...this.runFields(options) },
      this.timeout(options),
    );
    if ("problem" in res) {
      return { function: qualname, file, totalBlocks: 0, blocks: [], rendered: res.problem };
    }
    const outcome = runOutcome(res.run);
    const { rendered, blocks } = renderTrace(res, qualname, testId, outcome);
    const test = res.run.tests[0];
    return {
      function: qualname,
      file: res.file,
      totalBlocks: res.total,
      blocks,
      rendered,
      ...(test ? { outcome: test.outcome } : {}),
    };
  }
}

/** Exit 0 when stdin parses as Python and defines a `test*` function, 3 when it defines none. */
const CHECK_TEST = [
  "import ast, sys",
  "tree = ast.parse(sys.stdin.read())",
  "tests = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name.startswith('test')]",
  "sys.exit(0 if tests else 3)",
].join("\n");

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

const among = (files: string[]) =>
  files.length ? `, with a file the test executes: ${files.join(", ")}` : "";
