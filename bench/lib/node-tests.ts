/** Runs a JavaScript/TypeScript project's test suite on the host for the JS corpus tools and
 * benchmarks (the corpus is our own code, so no sandbox) and reads each test's result from the
 * runner's structured output: Jest's and Vitest's `--json` files, and for Mocha and `node:test`
 * small reporters of our own (js-reporters/) that write each test's file and title path. The
 * suite runs through the project's own `npm test`, so its flags (`--experimental-vm-modules`,
 * tsx, shell globs) are the ones a user's CI would use. */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const JS_RUNNERS = ["jest", "vitest", "mocha", "node-test"] as const;
export type JsRunner = (typeof JS_RUNNERS)[number];

/** Joins a test's suites and name in its id: `test/cart.test.js::Cart > adds up quantities`. */
export const TITLE_SEPARATOR = " > ";
export const FILE_SEPARATOR = "::";

export type JsTestStatus = "passed" | "failed" | "skipped";

export interface JsTestResult {
  /** `<file>::<title path joined by " > ">`, the file relative to the directory the suite ran in. */
  id: string;
  file: string;
  titlePath: string[];
  status: JsTestStatus;
  /** The failure's message, when the runner gives one. */
  message?: string;
}

export interface JsTestOutcome {
  tests: JsTestResult[];
  /** Ids of failed tests, sorted. */
  failing: string[];
  /** Files that did not load, failed hooks, results missing or at odds with the exit code. */
  errors: string[];
  timedOut: boolean;
  exitCode: number | null;
  durationMs: number;
  output: string;
}

const REPORTERS = join(dirname(fileURLToPath(import.meta.url)), "js-reporters");

export function testId(file: string, titlePath: readonly string[]): string {
  return `${file}${FILE_SEPARATOR}${titlePath.join(TITLE_SEPARATOR)}`;
}

/** The file of a test id (the part before `::`). */
export function testIdFile(id: string): string {
  const at = id.indexOf(FILE_SEPARATOR);
  return at < 0 ? id : id.slice(0, at);
}

/** The arguments after `npm test --` and the extra environment that make `runner` write its
 * results to `out`. */
function reporterArgs(runner: JsRunner, out: string): { args: string[]; env: Record<string, string> } {
  switch (runner) {
    case "jest":
      return { args: ["--ci", "--json", `--outputFile=${out}`], env: {} };
    case "vitest":
      return { args: ["--reporter=json", `--outputFile=${out}`], env: {} };
    case "mocha":
      return {
        args: ["--reporter", join(REPORTERS, "mocha.cjs"), "--reporter-option", `output=${out}`],
        env: {},
      };
    case "node-test":
      // Options after the file list would be taken for files, so the reporter goes in
      // NODE_OPTIONS, where `node --test` (also under tsx) reads it.
      return {
        args: [],
        env: {
          NODE_OPTIONS: `--test-reporter=${join(REPORTERS, "node-test.mjs")} --test-reporter-destination=${out}`,
        },
      };
  }
}

/** The environment of a run: ours without anything an outer npm, Jest or Vitest set (this code
 * may itself run under `npm run` or Vitest), without colours. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|VITEST|JEST_|NODE_OPTIONS$|NODE_ENV$|TS_NODE_|TSX_|INIT_CWD$)/i.test(key)) continue;
    env[key] = value;
  }
  return { ...env, CI: "true", NO_COLOR: "1", FORCE_COLOR: "0", ...extra };
}

interface RawResult {
  file: string;
  titlePath: string[];
  status: string;
  message?: string;
}

interface JestLikeReport {
  testResults?: {
    name: string;
    status?: string;
    message?: string;
    assertionResults?: {
      ancestorTitles?: string[];
      title: string;
      status: string;
      failureMessages?: string[];
    }[];
  }[];
}

/** The first two non-empty lines of a runner's message, on one line. */
function firstLines(message: string): string {
  return message
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(0, 2)
    .join(": ");
}

/** Jest's and Vitest's `--json` report (Vitest writes Jest's shape). */
function readJestLike(report: JestLikeReport): { raw: RawResult[]; errors: Array<[string, string]> } {
  const raw: RawResult[] = [];
  const errors: Array<[string, string]> = [];
  for (const suite of report.testResults ?? []) {
    const assertions = suite.assertionResults ?? [];
    if (suite.status === "failed" && !assertions.some((a) => a.status === "failed"))
      errors.push([suite.name, firstLines(suite.message ?? "")]);
    for (const a of assertions) {
      const message = a.failureMessages?.join("\n");
      raw.push({
        file: suite.name,
        titlePath: [...(a.ancestorTitles ?? []), a.title],
        status: a.status,
        ...(message ? { message } : {}),
      });
    }
  }
  return { raw, errors };
}

function statusOf(status: string): JsTestStatus {
  if (status === "passed") return "passed";
  if (status === "failed") return "failed";
  return "skipped";
}

function readRows(runner: JsRunner, text: string): { raw: RawResult[]; errors: Array<[string, string]> } {
  if (runner === "jest" || runner === "vitest") return readJestLike(JSON.parse(text) as JestLikeReport);
  if (runner === "mocha") {
    const rows = JSON.parse(text) as (RawResult & { kind?: string })[];
    return {
      raw: rows.filter((r) => r.kind !== "hook"),
      errors: rows
        .filter((r) => r.kind === "hook")
        .map((r) => [r.file, `${r.titlePath.join(TITLE_SEPARATOR)}: ${r.message ?? ""}`]),
    };
  }
  const rows = text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as RawResult);
  // A file that does not load is reported as a failed test named by the file itself.
  const isLoadFailure = (r: RawResult) => r.titlePath.length === 1 && r.titlePath[0] === r.file;
  return {
    raw: rows.filter((r) => !isLoadFailure(r)),
    errors: rows.filter(isLoadFailure).map((r) => [r.file, r.message ?? "did not load"]),
  };
}

/** Reads `runner`'s report (the text its reporter wrote) of a run in `root`: every test with its
 * id relative to `root`, and the files that did not run and hooks that failed. Throws on a
 * report that is not the runner's JSON. */
export function parseReport(
  runner: JsRunner,
  text: string,
  root: string,
): { tests: JsTestResult[]; errors: string[] } {
  const rel = (file: string) => {
    const path = file.startsWith("file://") ? fileURLToPath(file) : file;
    return relative(root, path).split(sep).join("/");
  };
  const { raw, errors } = readRows(runner, text);
  const tests = raw.map((r) => {
    const file = rel(r.file);
    return {
      id: testId(file, r.titlePath),
      file,
      titlePath: r.titlePath,
      status: statusOf(r.status),
      ...(r.message ? { message: r.message } : {}),
    };
  });
  return { tests, errors: errors.map(([file, message]) => `${rel(file)} did not run: ${message}`) };
}

/** Runs `npm test` in `dir` (the project's working directory) with `runner`'s structured
 * output and returns every test's result. Never throws for a failing suite; a missing report,
 * a file that did not load, a failed hook or an exit code at odds with the results is an error. */
export async function runNodeTests(
  dir: string,
  runner: JsRunner,
  options: { timeoutMs?: number } = {},
): Promise<JsTestOutcome> {
  const started = performance.now();
  const scratch = await mkdtemp(join(tmpdir(), "node-tests-"));
  const out = join(scratch, runner === "node-test" ? "results.jsonl" : "results.json");
  const { args, env } = reporterArgs(runner, out);
  try {
    const run = await spawnGroup("npm", ["test", ...(args.length > 0 ? ["--", ...args] : [])], {
      cwd: dir,
      env: cleanEnv(env),
      timeoutMs: options.timeoutMs ?? 120_000,
    });
    const errors: string[] = [];
    let tests: JsTestResult[] = [];
    try {
      const report = parseReport(runner, await readFile(out, "utf8"), await realpath(dir));
      tests = report.tests;
      errors.push(...report.errors);
    } catch (error) {
      if (!run.timedOut) errors.push(`no ${runner} results: ${(error as Error).message}`);
    }
    const failing = [...new Set(tests.filter((t) => t.status === "failed").map((t) => t.id))].sort();
    if (run.timedOut) errors.push(`${runner} timed out`);
    else if (run.exitCode === 0 && failing.length > 0)
      errors.push(`${runner} exited 0 with ${failing.length} failing tests`);
    else if (run.exitCode !== 0 && failing.length === 0 && errors.length === 0)
      errors.push(`${runner} exited ${run.exitCode} with no failing test`);
    return {
      tests,
      failing,
      errors,
      timedOut: run.timedOut,
      exitCode: run.exitCode,
      durationMs: performance.now() - started,
      output: run.output,
    };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

interface GroupRun {
  exitCode: number | null;
  timedOut: boolean;
  output: string;
}

const OUTPUT_LIMIT = 4 * 1024 * 1024;

/** Runs a command in a process group of its own, so that on timeout npm, the shell and the
 * runner's workers are all killed, not only npm. */
export function spawnGroup(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<GroupRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const collect = (chunk: Buffer) => {
      if (output.length < OUTPUT_LIMIT) output += chunk.toString("utf8");
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    }, options.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(" ")} in ${options.cwd}: ${error.message}`));
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code, timedOut, output });
    });
  });
}
