import { randomUUID } from "node:crypto";
import path from "node:path";
import { quote } from "shell-quote";
import type { Sandbox } from "../../sandbox/types.js";
import { applyEdits, insideRepository, NO_EXCEPTION, type Edit } from "../experiment.js";
import {
  CandidateHelperError,
  type BlockTrace,
  type CallRecording,
  type CandidateRequest,
  type CoverageReport,
  type FailureEvidence,
  type FunctionInfo,
  type ObserveOptions,
  type Observation,
  type RecordingRun,
  type RepairCandidate,
  type RunOptions,
  type Runtime,
  type RuntimeOptions,
  type TestRun,
} from "../types.js";
import { candidatesFor } from "./candidates/index.js";
import { linesCovered, linesCoveredPerTest } from "./coverage.js";
import { evidenceFrom, toFailureEvidence } from "./evidence/index.js";
import { parseJsExperiment } from "./experiment.js";
import { observeJs, runTrace, type TestCommand } from "./observe.js";
import { jsFiles } from "./files.js";
import { functionsOf } from "./outline.js";
import { JS_NAMES } from "./names.js";
import { JS_PROMPTS } from "./prompt-words.js";
import { isJavaScriptSource, parseSource, syntaxErrors } from "./parse.js";
import { planRun, type RunLimits, type Selection } from "./runner/command.js";
import { detectRunner, type RunnerCommand } from "./runner/detect.js";
import { splitTestId } from "./runner/ids.js";
import { parseReport, type ReportedTest } from "./runner/report.js";
import { restoreCommand } from "./setup.js";

/*
 * The JavaScript/TypeScript instruments over one warm sandbox: the project's own test runner
 * (detected from package.json, runner/detect.ts) started with its structured reporter, per-test
 * V8 coverage mapped to the lines a person reads (coverage.ts), functions, candidates and
 * evidence from the host-side syntax tree and failure output, and edit-and-run experiments.
 * The debugger and the block trace run the test under the inspector helper (observe.ts).
 */

const DEFAULT_TIMEOUT_MS = 60_000;
/** Node's start, the runner's collection and the report on top of the tests' own deadline. */
const GRACE_MS = 15_000;
const REPORT_BYTES = 64 * 1024 * 1024;
const COVERAGE_PRELOAD = "coverage-preload.cjs";
/** Runners whose hook cuts the coverage per test in one run (coverage-preload.cjs's per-test mode). */
const PER_TEST_RUNNERS = new Set<RunnerCommand["runner"]>(["jest", "mocha"]);
/** Where reports and coverage go: outside the work tree, one folder per runtime. */
const SCRATCH_ROOT = "/tmp/hypofix-js";

/** Recording calls for the audit needs its own in-sandbox helper for JavaScript; until then, this answer. */
const NO_RECORDING = "recording calls for the audit is not available for JavaScript yet";

/**
 * The run as the line a shell runs, as npm runs a script: the script's globs expanded by the
 * shell, every other word quoted. A glob word holds only path characters (shell-quote's globs).
 */
function shellLine(argv: string[], globs: string[]): string {
  const expand = new Set(globs.filter((g) => /^[\w./*?[\]{}@+-]+$/.test(g)));
  return `exec ${argv.map((word) => (expand.has(word) ? word : quote([word]))).join(" ")}`;
}

/** Reads every named file of the sandbox as one JSON object (path → text), in one command. */
const READ_FILES = [
  "const fs = require('fs');",
  "const out = {};",
  "for (const f of JSON.parse(fs.readFileSync(0, 'utf8'))) { try { out[f] = fs.readFileSync(f, 'utf8'); } catch {} }",
  "process.stdout.write(JSON.stringify(out));",
].join("\n");
/** Lists the repository's files (node_modules and dot-folders pruned), repository-relative. */
const LIST_FILES = [
  "find",
  ".",
  "(",
  "-name",
  "node_modules",
  "-o",
  "-name",
  ".*",
  "!",
  "-name",
  ".",
  ")",
  "-prune",
  "-o",
  "-type",
  "f",
  "-print",
];

export function createJsRuntime(sandbox: Sandbox, options: RuntimeOptions = {}): Runtime {
  return new JsRuntime(sandbox, options);
}

class JsRuntime implements Runtime {
  readonly language = { ...JS_NAMES, prompts: JS_PROMPTS };
  readonly files = jsFiles;
  private command: Promise<RunnerCommand> | undefined;
  private runs = 0;
  private readonly wd: string;
  private readonly scratch = `${SCRATCH_ROOT}-${randomUUID().slice(0, 8)}`;
  /** The script's options set aside, known once the command was read. */
  private setAside: string[] = [];

  constructor(
    private readonly sandbox: Sandbox,
    private readonly options: RuntimeOptions,
  ) {
    this.wd = path.posix.normalize(options.workingDirectory ?? ".");
  }

  private timeout(options?: RunOptions): number {
    return options?.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** The project's test command, read once from its package.json and folder names. */
  private runner(): Promise<RunnerCommand> {
    this.command ??= (async () => {
      // The environment image keeps the installed trees apart (setup.ts): put them back first.
      await this.sandbox.exec(restoreCommand(this.sandbox.workdir), { timeoutMs: 120_000 });
      const packageJson = await this.sandbox
        .readFile(path.posix.join(this.wd, "package.json"))
        .catch(() => undefined);
      const listed = await this.sandbox.exec(["ls", "-A"], { cwd: this.wd, timeoutMs: 15_000 });
      const names = listed.stdout.split("\n").filter(Boolean);
      const command = detectRunner({ ...(packageJson !== undefined ? { packageJson } : {}), names });
      this.setAside = command.setAside;
      return command;
    })();
    return this.command;
  }

  /** The variables of a run: the project's own binaries first on PATH, no colours, no network. */
  private env(extra: Record<string, string>): Record<string, string> {
    const bins = [...new Set([this.wd, "."])].map((d) =>
      path.posix.join(this.sandbox.workdir, d, "node_modules/.bin"),
    );
    return {
      PATH: [...bins, "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"].join(":"),
      CI: "true",
      NO_COLOR: "1",
      FORCE_COLOR: "0",
      npm_config_offline: "true",
      ...extra,
    };
  }

  /** One run of the runner over `selection`; the report read back, or why there is none. */
  private async run(
    selection: Selection,
    options: RunOptions | undefined,
    coverage?: { dir: string; perTest?: boolean },
    inOrder = false,
  ): Promise<{
    tests: ReportedTest[];
    errors: string[];
    testFiles: string[];
    timedOut: boolean;
    durationMs: number;
  }> {
    const command = await this.runner();
    const out = `${this.scratch}/report-${++this.runs}.json`;
    const jestCoverage = coverage && !coverage.perTest && command.runner === "jest";
    if (coverage) await this.sandbox.exec(["mkdir", "-p", coverage.dir], { timeoutMs: 15_000 });
    const plan = planRun(command, selection, {
      out,
      helpersDir: this.sandbox.helpersDir,
      ...(jestCoverage ? { coverageDir: coverage.dir } : {}),
      ...(coverage?.perTest ? { perTestCoverage: true } : {}),
      ...this.limits(options, inOrder),
    });
    await this.sandbox.exec(["mkdir", "-p", this.scratch], { timeoutMs: 15_000 });
    const timeoutMs = this.timeout(options);
    const res = await this.sandbox.exec(["sh", "-c", shellLine(plan.argv, command.globs)], {
      cwd: this.wd,
      env: this.env({
        ...plan.env,
        ...(coverage && !jestCoverage ? this.coverageEnv(command, plan.env, coverage) : {}),
      }),
      timeoutMs: timeoutMs + GRACE_MS,
    });
    this.options.log?.debug(
      { argv: plan.argv, ms: Math.round(res.durationMs), exit: res.exitCode },
      "js test run",
    );
    // Read by a command: a local sandbox's file API stays inside the work tree.
    const read = await this.sandbox.exec(["sh", "-c", 'cat -- "$1" && rm -f -- "$1"', "sh", out], {
      timeoutMs: 30_000,
      maxOutputBytes: REPORT_BYTES,
    });
    const text = read.exitCode === 0 ? read.stdout : undefined;
    if (text === undefined || text.trim() === "") {
      const tail = `${res.stderr}\n${res.stdout}`.trim().split("\n").slice(-8).join("\n");
      const why = res.timedOut
        ? `the run was killed at its timeout (${Math.round((timeoutMs + GRACE_MS) / 1000)}s)`
        : `${command.runner} ended (exit ${res.exitCode}) without a report`;
      return {
        tests: [],
        errors: [tail ? `${why}: ${tail}` : why],
        testFiles: [],
        timedOut: res.timedOut,
        durationMs: res.durationMs,
      };
    }
    try {
      const report = parseReport(command.runner, text, this.sandbox.workdir);
      const errors = [...report.errors];
      if (res.timedOut)
        errors.push(`the run was killed at its timeout (${Math.round((timeoutMs + GRACE_MS) / 1000)}s)`);
      return { ...report, errors, timedOut: res.timedOut, durationMs: res.durationMs };
    } catch (err) {
      return {
        tests: [],
        errors: [`${command.runner}'s report was unreadable: ${(err as Error).message.slice(0, 300)}`],
        testFiles: [],
        timedOut: res.timedOut,
        durationMs: res.durationMs,
      };
    }
  }

  /**
   * How a run collects V8 coverage into `dir`: Node's own NODE_V8_COVERAGE, which keeps the
   * source maps of the modules Node loads (tsx, ts-node); for Vitest, whose modules Node never
   * loads itself, our preload (helpers/coverage-preload.cjs) keeps their inline maps instead;
   * per test in one run, the preload cut at every test by the runner's hook.
   */
  private coverageEnv(
    command: RunnerCommand,
    env: Record<string, string>,
    coverage: { dir: string; perTest?: boolean },
  ): Record<string, string> {
    if (command.runner !== "vitest" && !coverage.perTest) return { NODE_V8_COVERAGE: coverage.dir };
    const preload = `--require=${this.sandbox.helpersDir}/${COVERAGE_PRELOAD}`;
    return {
      NODE_OPTIONS: [env.NODE_OPTIONS, preload].filter(Boolean).join(" "),
      HYPOFIX_COVERAGE_DIR: coverage.dir,
      HYPOFIX_COVERAGE_ROOT: this.sandbox.workdir,
      ...(coverage.perTest ? { HYPOFIX_COVERAGE_PER_TEST: "1" } : {}),
    };
  }

  /** The runner's per-test limit and ordering of a run (RunOptions.testTimeoutMs, `before`). */
  private limits(options: RunOptions | undefined, inOrder: boolean): RunLimits {
    return {
      ...(options?.testTimeoutMs !== undefined ? { testTimeoutMs: options.testTimeoutMs } : {}),
      ...(inOrder ? { inOrder } : {}),
    };
  }

  /**
   * The selection of some ids: files and folders alone, or tests by file and title path, in
   * the order given (files keep the order of their first test). A file alone among them runs whole.
   */
  private selection(ids: string[]): Selection {
    const paths = new Set<string>();
    const titlePaths: string[][] = [];
    let whole = false;
    for (const id of ids) {
      const { file, titlePath } = splitTestId(id);
      paths.add(path.posix.relative(this.wd, file) || ".");
      if (titlePath.length > 0) titlePaths.push(titlePath);
      else whole = true;
    }
    return { paths: [...paths], titlePaths: whole ? [] : titlePaths };
  }

  runTests(ids: string[] = [], options?: RunOptions): Promise<TestRun> {
    return this.testsOf(ids, options);
  }

  /** The tests of `ids` from one run, collecting coverage cut per test into `coverage.dir` when asked. */
  private async testsOf(
    ids: string[],
    options: RunOptions | undefined,
    coverage?: { dir: string; perTest: true },
  ): Promise<TestRun> {
    const before = precedingTests(ids, options);
    const raw = await this.run(this.selection([...before, ...ids]), options, coverage, before.length > 0);
    const named = ids.filter((id) => id.includes("::"));
    // The tests run first are not reported (RunOptions.before).
    const first = new Set(before);
    let tests = raw.tests.filter((t) => !first.has(t.id));
    const errors = [...raw.errors];
    if (named.length > 0 && named.length === ids.length) {
      // A name pattern may select more than asked: only the tests asked for.
      const wanted = new Set(named);
      tests = tests.filter((t) => wanted.has(t.id));
      for (const id of named)
        if (!tests.some((t) => t.id === id) && raw.errors.length === 0 && !raw.timedOut)
          errors.push(`test ${id} was not found (the runner ran no test by that file and name)`);
    }
    return {
      tests: tests.map(({ id, outcome, durationMs, failure }) => ({
        id,
        outcome,
        durationMs,
        ...(failure ? { failure } : {}),
      })),
      timedOut: raw.timedOut,
      errors,
      durationMs: raw.durationMs,
      ...(raw.testFiles.length > 0 ? { testFiles: raw.testFiles } : {}),
    };
  }

  async coverage(ids: string[] = [], options?: RunOptions): Promise<CoverageReport> {
    const perTest: CoverageReport["perTest"] = {};
    const outcomes: CoverageReport["outcomes"] = {};
    const failures: NonNullable<CoverageReport["failures"]> = {};
    const sources = new Map<string, string>();
    const before = precedingTests(ids, options);
    // Jest and Mocha cut the coverage at each test in one run; a test with no cut (another
    // test runner configured, a worker that died) and the other runners' tests run alone.
    const oneRun = PER_TEST_RUNNERS.has((await this.runner()).runner);
    const listed = oneRun
      ? await this.coverageInOneRun(ids, options, perTest, sources)
      : await this.runTests(ids, options);
    for (const test of listed.tests) {
      outcomes[test.id] = test.outcome;
      if (test.failure) failures[test.id] = test.failure;
      if (test.outcome === "skipped" || perTest[test.id]) continue;
      // The tests run first share the process's coverage: their lines count as the test's.
      const first = before.filter((id) => id !== test.id);
      const alone = await this.coverageAlone(test.id, first, options, sources);
      if (alone.outcome) outcomes[test.id] = alone.outcome;
      if (alone.lines) perTest[test.id] = alone.lines;
    }
    const covered = [...new Set(Object.values(perTest).flatMap((c) => Object.keys(c)))];
    const functions = (await this.readFiles(covered)).flatMap(([file, text]) => this.functionsIn(file, text));
    return { perTest, outcomes, functions, failures };
  }

  /** The runner's own config files (vitest.config.ts) run too, but are not the code under test. */
  private readonly counts = (file: string) =>
    jsFiles.isSourceFile(file) && !jsFiles.isTestFile(file) && !jsFiles.isBuildFile(file.toLowerCase());

  /** The coverage files a run left in `dir` (read, then removed). */
  private async coverageFiles(
    dir: string,
  ): Promise<{ v8?: string[]; istanbul?: string; perTest?: string[] }> {
    const dumped = await this.sandbox.exec(["node", "-e", DUMP_COVERAGE, dir, this.sandbox.workdir], {
      timeoutMs: 60_000,
      maxOutputBytes: REPORT_BYTES,
    });
    await this.sandbox.exec(["rm", "-rf", dir], { timeoutMs: 15_000 });
    try {
      return JSON.parse(dumped.stdout) as { v8?: string[]; istanbul?: string; perTest?: string[] };
    } catch {
      return {};
    }
  }

  /** The tests of `ids` run once, their coverage cut per test into `perTest`. */
  private async coverageInOneRun(
    ids: string[],
    options: RunOptions | undefined,
    perTest: CoverageReport["perTest"],
    sources: Map<string, string>,
  ): Promise<TestRun> {
    const dir = `${this.scratch}/coverage-${++this.runs}`;
    const run = await this.testsOf(ids, options, { dir, perTest: true });
    const files = await this.coverageFiles(dir);
    const texts = files.perTest ?? [];
    for (const [file, text] of Object.entries(await this.missingSources({ v8: texts }, sources)))
      sources.set(file, text);
    const cut = linesCoveredPerTest(texts, {
      root: this.sandbox.workdir,
      counts: this.counts,
      source: (file) => sources.get(file),
    });
    for (const test of run.tests) if (cut[test.id]) perTest[test.id] = cut[test.id]!;
    return run;
  }

  /** One test run alone with coverage: its outcome and lines, when it reported them. */
  private async coverageAlone(
    id: string,
    first: string[],
    options: RunOptions | undefined,
    sources: Map<string, string>,
  ): Promise<{ outcome?: TestRun["tests"][number]["outcome"]; lines?: CoverageReport["perTest"][string] }> {
    const dir = `${this.scratch}/coverage-${++this.runs}`;
    const run = await this.run(this.selection([...first, id]), options, { dir }, first.length > 0);
    const ran = run.tests.find((t) => t.id === id);
    const files = await this.coverageFiles(dir);
    if (!files.v8 && !files.istanbul) return ran ? { outcome: ran.outcome } : {};
    for (const [file, text] of Object.entries(await this.missingSources(files, sources)))
      sources.set(file, text);
    const lines = linesCovered(files, {
      root: this.sandbox.workdir,
      counts: this.counts,
      source: (file) => sources.get(file),
    });
    return { ...(ran ? { outcome: ran.outcome } : {}), lines };
  }

  /** The texts of the repository's plain scripts a coverage file names and we have not read yet. */
  private async missingSources(
    files: { v8?: string[] },
    have: Map<string, string>,
  ): Promise<Record<string, string>> {
    const counts = this.counts;
    const urls = new Set<string>();
    for (const text of files.v8 ?? [])
      for (const m of text.matchAll(/"url":"file:\/\/([^"]+)"/g)) urls.add(m[1]!);
    const wanted = [...urls]
      .map((abs) => path.posix.relative(this.sandbox.workdir, decodeURIComponent(abs)))
      .filter((f) => !f.startsWith("..") && counts(f) && !have.has(f));
    return Object.fromEntries(await this.readFiles(wanted));
  }

  /** Reads repository files in one command: [path, text] of those that exist. */
  private async readFiles(files: string[]): Promise<[string, string][]> {
    if (files.length === 0) return [];
    const res = await this.sandbox.exec(["node", "-e", READ_FILES], {
      stdin: JSON.stringify(files),
      timeoutMs: 60_000,
      maxOutputBytes: REPORT_BYTES,
    });
    try {
      return Object.entries(JSON.parse(res.stdout) as Record<string, string>);
    } catch {
      return [];
    }
  }

  private functionsIn(file: string, text: string): FunctionInfo[] {
    return functionsOf(file, text).map((f) => ({
      file,
      qualname: f.qualname,
      startLine: f.startLine,
      endLine: f.endLine,
    }));
  }

  async functions(options?: { includeTests?: boolean }): Promise<FunctionInfo[]> {
    const listed = await this.sandbox.exec(LIST_FILES, { timeoutMs: 60_000, maxOutputBytes: REPORT_BYTES });
    const files = listed.stdout
      .split("\n")
      .map((f) => f.replace(/^\.\//, ""))
      .filter((f) => f && jsFiles.isSourceFile(f) && (options?.includeTests || !jsFiles.isTestFile(f)));
    return (await this.readFiles(files)).flatMap(([file, text]) => this.functionsIn(file, text));
  }

  async candidates(request: CandidateRequest, options?: RunOptions): Promise<RepairCandidate[]> {
    void options; // parsed on the host: nothing runs in the sandbox
    if (jsFiles.isTestFile(request.file) || !isJavaScriptSource(request.file)) return [];
    let source = request.source;
    if (source === undefined) {
      try {
        source = await this.sandbox.readFile(request.file);
      } catch (err) {
        throw new CandidateHelperError(`cannot read it: ${(err as Error).message}`, request.file);
      }
    }
    const result = candidatesFor({
      path: request.file,
      source,
      ...(request.lines ? { lines: request.lines } : {}),
      ...(request.span ? { span: request.span } : {}),
      ...(request.budget !== undefined ? { budget: request.budget } : {}),
    });
    if (result.problem)
      this.options.log?.debug({ file: request.file, problem: result.problem }, "js candidates");
    return result.candidates;
  }

  async evidence(
    testId: string,
    options?: RunOptions & { lines?: { file: string; line: number }[] },
  ): Promise<FailureEvidence | undefined> {
    const before = precedingTests([testId], options);
    const raw = await this.run(this.selection([...before, testId]), options, undefined, before.length > 0);
    const test = raw.tests.find((t) => t.id === testId);
    if (!test?.error) return undefined;
    const frame =
      [...(test.failure?.frames ?? [])].reverse().find((f) => !jsFiles.isTestFile(f.file)) ??
      test.failure?.frames.at(-1);
    const source = frame ? (await this.readFiles([frame.file]))[0]?.[1] : undefined;
    return toFailureEvidence(
      evidenceFrom({
        type: test.error.name,
        message: test.error.message,
        text: test.error.stack || test.error.message,
        ...(test.error.expected !== undefined && test.error.actual !== undefined
          ? { expected: test.error.expected, actual: test.error.actual }
          : {}),
        ...(test.error.operator ? { operator: test.error.operator } : {}),
        ...(frame
          ? { at: { file: frame.file, line: frame.line, ...(source !== undefined ? { source } : {}) } }
          : {}),
      }),
    );
  }

  async observe(testId: string, experiment: string, options?: ObserveOptions): Promise<Observation> {
    const started = performance.now();
    const done = (
      kind: Observation["kind"],
      observation: string,
      extra: Partial<Observation> = {},
    ): Observation => ({
      kind,
      experiment,
      observation,
      durationMs: performance.now() - started,
      ...extra,
    });
    const parsed = parseJsExperiment(experiment);
    if (!parsed.ok) return done("invalid", parsed.error);
    const exp = parsed.experiment;
    if (exp.kind === "edit") return this.editAndRun(testId, exp.edits, options, done);
    const command = await this.testCommand(testId, options);
    return observeJs(
      { sandbox: this.sandbox, command: () => command, timeoutMs: this.timeout(options) },
      testId,
      experiment,
      options,
    );
  }

  /** Edits scratch copies of the named files, runs the test, and puts the files back whatever happens. */
  private async editAndRun(
    testId: string,
    edits: Edit[],
    options: ObserveOptions | undefined,
    done: (kind: Observation["kind"], text: string, extra?: Partial<Observation>) => Observation,
  ): Promise<Observation> {
    const fallback = options?.file;
    const byFile = new Map<string, Edit[]>();
    for (const edit of edits) {
      const file = edit.file ?? fallback;
      if (!file)
        return done("edit", `Say which file to edit: REPLACE(path/to/file.ts:${edit.line}, "old", "new").`);
      if (!insideRepository(file))
        return done("edit", `File ${file} is outside the repository; give a path relative to its root.`);
      byFile.set(file, [...(byFile.get(file) ?? []), edit]);
    }
    const written: { file: string; original: string }[] = [];
    try {
      for (const [file, fileEdits] of byFile) {
        let original: string;
        try {
          original = await this.sandbox.readFile(file);
        } catch {
          return done("edit", `File ${file} does not exist in the repository.`);
        }
        const edited = applyEdits(original, fileEdits);
        if (edited.problems.length > 0)
          return done("edit", `${edited.problems.join("\n")}\nThe test was not run.`);
        written.push({ file, original });
        await this.sandbox.writeFile(file, edited.source);
      }
      const run = await this.runTests([testId], options);
      const test = run.tests[0];
      if (test?.failure)
        return done("edit", `${test.failure.type}: ${test.failure.message}`.trimEnd(), {
          failure: test.failure,
        });
      if (test?.outcome === "skipped") return done("edit", `${NO_EXCEPTION} (the test was skipped)`);
      if (test) return done("edit", NO_EXCEPTION);
      return done("edit", run.errors.join("\n") || "The test did not run (the runner reported no result).");
    } finally {
      for (const { file, original } of written.reverse()) await this.sandbox.writeFile(file, original);
    }
  }

  async trace(testId: string, file: string, qualname: string, options?: RunOptions): Promise<BlockTrace> {
    const command = await this.testCommand(testId, options);
    return runTrace(this.sandbox, command, { file, qualname, testId }, { timeoutMs: this.timeout(options) });
  }

  /**
   * The runner's command for one test (after the tests to run first), as `run` starts it, for
   * the inspector helper to join: the helper watches the whole process, those tests included.
   */
  private async testCommand(testId: string, options: RunOptions | undefined): Promise<TestCommand> {
    const command = await this.runner();
    const before = precedingTests([testId], options);
    const plan = planRun(command, this.selection([...before, testId]), {
      out: `${this.scratch}/observe-${randomUUID()}.json`,
      helpersDir: this.sandbox.helpersDir,
      ...this.limits(options, before.length > 0),
    });
    await this.sandbox.exec(["mkdir", "-p", this.scratch], { timeoutMs: 15_000 });
    return { argv: ["sh", "-c", shellLine(plan.argv, command.globs)], env: this.env(plan.env), cwd: this.wd };
  }

  optionsSetAside(): string[] {
    return this.setAside;
  }

  async recordCalls(recording: CallRecording): Promise<RecordingRun> {
    void recording;
    return {
      timedOut: false,
      exitCode: null,
      stdout: "",
      stderr: NO_RECORDING,
    };
  }

  async replayCalls(): Promise<void> {
    // Nothing was recorded (recordCalls): nothing to replay.
  }

  async forgetCompiled(): Promise<void> {
    // Jest, Vitest, tsx and ts-node key their transform caches by the file's content.
  }

  async testProblem(source: string): Promise<string | undefined> {
    const parsed = parseSource("claim.test.ts", source);
    if (!parsed.ok) return parsed.problem;
    const errors = syntaxErrors(parsed.source);
    if (errors.length > 0) return `it does not parse as TypeScript: ${errors[0]!.message}`;
    return /\b(test|it)\s*\(/.test(source) ? undefined : "it defines no test (no test(...) or it(...) call)";
  }
}

/**
 * Prints the coverage files of a run's folder as JSON: Jest's coverage-final.json, or V8's
 * files with only the repository's own scripts (and their source maps) kept.
 */
const DUMP_COVERAGE = [
  "const fs = require('fs'); const [dir, root] = process.argv.slice(1); const out = { v8: [] };",
  "const own = (url) => url.startsWith('file://' + root + '/') && !url.includes('/node_modules/');",
  "let names = []; try { names = fs.readdirSync(dir); } catch {}",
  "for (const n of names) {",
  "  const text = fs.readFileSync(dir + '/' + n, 'utf8');",
  "  if (n === 'coverage-final.json') { out.istanbul = text; continue; }",
  "  if (n.endsWith('.jsonl')) { (out.perTest ||= []).push(text); continue; }",
  "  if (!n.endsWith('.json')) continue;",
  "  const cov = JSON.parse(text); const maps = cov['source-map-cache'] || {};",
  "  const kept = { result: cov.result.filter((s) => own(s.url)), 'source-map-cache': {} };",
  "  for (const s of kept.result) if (maps[s.url]) kept['source-map-cache'][s.url] = maps[s.url];",
  "  out.v8.push(JSON.stringify(kept));",
  "}",
  "process.stdout.write(JSON.stringify(out));",
].join("\n");

/** The tests to run first for `ids` (RunOptions.before), less those asked for themselves. */
function precedingTests(ids: string[], options: RunOptions | undefined): string[] {
  const asked = new Set(ids);
  return (options?.before ?? []).filter((id) => !asked.has(id));
}
