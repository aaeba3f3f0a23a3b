import type { JsRunner, RunnerCommand } from "./detect.js";

/*
 * The argv of one run of a project's test runner, from its command (detect.ts): the suite or
 * some tests by file and title path, with the runner's structured report written to `out`
 * (Jest's and Vitest's JSON, our Mocha and node:test reporters from the helper bundle), and
 * for a coverage run Jest's own V8 coverage (the others are read from NODE_V8_COVERAGE), or
 * our runner that cuts the preload's coverage at every test.
 */

export interface Selection {
  /** Files or folders to run (repository paths made relative to the run's folder). */
  paths: string[];
  /** Title paths of the tests to run in those files; none: every test of the paths. */
  titlePaths: string[][];
}

/** How the tests of one run are limited and ordered (RunOptions, as the runner takes them). */
export interface RunLimits {
  /** Each test's limit, as the runner's own per-test timeout (its failure is read as a timeout); not node:test's. */
  testTimeoutMs?: number;
  /** The tests must run one file after another in the order selected, in one process where the runner can. */
  inOrder?: boolean;
}

export interface RunPlan {
  argv: string[];
  env: Record<string, string>;
}

export const MOCHA_REPORTER = "mocha-reporter.cjs";
export const NODE_TEST_REPORTER = "node-test-reporter.mjs";
/** Jest's runner that cuts the preload's coverage per test (helpers/jest-coverage-runner.cjs). */
export const JEST_COVERAGE_RUNNER = "jest-coverage-runner.cjs";

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** A word of the runner's arguments that is a file or folder, not an option or its value. */
function isPath(args: string[], i: number): boolean {
  const a = args[i]!;
  if (a.startsWith("-")) return false;
  if (i > 0 && args[i - 1]!.startsWith("-") && !args[i - 1]!.includes("="))
    return /\*|\/$|\.[cm]?[jt]sx?$/.test(a);
  return true;
}

/** The names pattern of the runners that match a test's full name (its titles joined by spaces). */
const fullNames = (titlePaths: string[][]) =>
  `^(?:${titlePaths.map((t) => escapeRegex(t.join(" "))).join("|")})$`;

/** The argv and variables of one run writing `runner`'s report to `out`. */
export function planRun(
  command: RunnerCommand,
  selection: Selection,
  options: {
    out: string;
    helpersDir: string;
    coverageDir?: string;
    /** Jest: run with the runner that cuts coverage per test (the preload collects it). */
    perTestCoverage?: boolean;
  } & RunLimits,
): RunPlan {
  const selecting = selection.paths.length > 0;
  // The script's own files and folders give way to the selection.
  const args = selecting
    ? command.args.filter((_, i) => !isPath(command.args, i) || (command.runner === "vitest" && i === 0))
    : command.args;
  const titled = selection.titlePaths.filter((t) => t.length > 0);
  const env = { ...command.env };
  const runner: JsRunner = command.runner;
  let own: string[];
  const limit =
    options.testTimeoutMs !== undefined ? Math.max(1, Math.round(options.testTimeoutMs)) : undefined;
  switch (runner) {
    case "jest":
      own = ["--ci", "--json", `--outputFile=${options.out}`, "--testLocationInResults"];
      if (limit !== undefined) own.push(`--testTimeout=${limit}`);
      if (options.inOrder) own.push("--runInBand");
      if (options.coverageDir)
        own.push(
          "--coverage",
          "--coverageProvider=v8",
          "--coverageReporters=json",
          `--coverageDirectory=${options.coverageDir}`,
        );
      if (options.perTestCoverage) own.push(`--testRunner=${options.helpersDir}/${JEST_COVERAGE_RUNNER}`);
      if (selecting) own.push("--runTestsByPath", ...selection.paths);
      if (titled.length > 0) own.push("-t", fullNames(titled));
      return { argv: [command.program, ...command.prefix, ...args, ...own], env };
    case "vitest":
      own = ["--reporter=json", `--outputFile=${options.out}`];
      if (limit !== undefined) own.push(`--testTimeout=${limit}`);
      if (options.inOrder) own.push("--no-file-parallelism");
      own.push(...selection.paths);
      if (titled.length > 0) own.push("-t", fullNames(titled));
      return { argv: [command.program, ...command.prefix, ...args, ...own], env };
    case "mocha":
      // --full-trace: Mocha otherwise cuts stacks and writes their paths relative to its folder.
      own = [
        "--reporter",
        `${options.helpersDir}/${MOCHA_REPORTER}`,
        "--reporter-option",
        `output=${options.out}`,
        "--full-trace",
      ];
      // Mocha runs every file in one process, in the order given: the selection's.
      if (limit !== undefined) own.push("--timeout", String(limit));
      if (titled.length > 0) own.push("--grep", fullNames(titled));
      return { argv: [command.program, ...command.prefix, ...args, ...own, ...selection.paths], env };
    case "node-test": {
      const reporter = [
        `--test-reporter=${options.helpersDir}/${NODE_TEST_REPORTER}`,
        `--test-reporter-destination=${options.out}`,
      ];
      // node:test's `--test-timeout` limits each file's own test too (the whole file): a hang
      // there meets the run's limit instead.
      // node:test matches a test's own name (later Node versions its ancestors' too).
      if (titled.length > 0)
        reporter.push(
          `--test-name-pattern=(?:^|\\s)(?:${titled.map((t) => escapeRegex(t.at(-1)!)).join("|")})$`,
        );
      return { argv: [command.program, ...reporter, ...args, ...selection.paths], env };
    }
  }
}
