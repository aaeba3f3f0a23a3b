import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/errors.js";
import { parseJsCiLog } from "../../src/lang/javascript/ci-log.js";
import { linesCovered, linesCoveredPerTest } from "../../src/lang/javascript/coverage.js";
import { jsFiles } from "../../src/lang/javascript/files.js";
import { javascript } from "../../src/lang/javascript/language.js";
import { planRun } from "../../src/lang/javascript/runner/command.js";
import { detectRunner, jsTestSelection } from "../../src/lang/javascript/runner/detect.js";
import { parseReport } from "../../src/lang/javascript/runner/report.js";
import { detectFromNames } from "../../src/lang/registry.js";

const REPORTS = fileURLToPath(new URL("../fixtures/js-reports/", import.meta.url));
const pkg = (scripts: Record<string, string>, devDependencies: Record<string, string> = {}) =>
  JSON.stringify({ scripts, devDependencies });

describe("detectRunner", () => {
  it("reads the runner and its flags from the test script, dropping what breaks the instruments", () => {
    const jest = detectRunner({
      packageJson: pkg({ test: "NODE_OPTIONS=--no-warnings jest --coverage --runInBand" }),
      names: [],
    });
    expect(jest).toMatchObject({
      runner: "jest",
      program: "jest",
      env: { NODE_OPTIONS: "--no-warnings" },
      args: ["--runInBand"],
    });
    expect(jest.setAside).toEqual(["--coverage"]);
    const node = detectRunner({
      packageJson: pkg({ test: "tsc && node --import tsx --test test/*.test.ts" }),
      names: [],
    });
    expect(node).toMatchObject({
      runner: "node-test",
      program: "node",
      args: ["--import", "tsx", "--test", "test/*.test.ts"],
    });
    expect(node.globs).toEqual(["test/*.test.ts"]);
    const esmJest = detectRunner({
      packageJson: pkg({ test: "node --experimental-vm-modules node_modules/jest/bin/jest.js" }),
      names: [],
    });
    expect(esmJest).toMatchObject({
      runner: "jest",
      program: "node",
      prefix: ["--experimental-vm-modules", "node_modules/jest/bin/jest.js"],
    });
  });

  it("makes Vitest run once and takes the runner from dependencies or config files without a script", () => {
    expect(detectRunner({ packageJson: pkg({ test: "vitest --watch" }), names: [] })).toMatchObject({
      runner: "vitest",
      args: ["run"],
      setAside: ["--watch"],
    });
    expect(detectRunner({ packageJson: pkg({}, { mocha: "11" }), names: [] }).runner).toBe("mocha");
    expect(detectRunner({ names: [".mocharc.yml"] }).runner).toBe("mocha");
    expect(detectRunner({ packageJson: pkg({ test: "echo no tests" }), names: [] })).toMatchObject({
      runner: "node-test",
      source: "default (node --test)",
    });
  });

  it("takes a configured test command's files as the suite, and refuses a command that starts no runner", () => {
    expect(jsTestSelection(["mocha", "--require", "ts-node/register", "test/unit/"])).toEqual(["test/unit/"]);
    expect(jsTestSelection(["vitest", "run", "src"])).toEqual(["src"]);
    expect(() => jsTestSelection(["make", "test"])).toThrow(UserError);
  });
});

describe("planRun", () => {
  const base = { out: "/tmp/r.json", helpersDir: "/hypofix/helpers" };
  it("selects tests by file and full name for each runner", () => {
    const sel = { paths: ["test/a.test.js"], titlePaths: [["Cart", "adds (2)"]] };
    const jest = planRun(detectRunner({ packageJson: pkg({ test: "jest test/" }), names: [] }), sel, base);
    expect(jest.argv).toEqual([
      "jest",
      "--ci",
      "--json",
      "--outputFile=/tmp/r.json",
      "--testLocationInResults",
      "--runTestsByPath",
      "test/a.test.js",
      "-t",
      "^(?:Cart adds \\(2\\))$",
    ]);
    const mocha = planRun(detectRunner({ packageJson: pkg({ test: "mocha" }), names: [] }), sel, base);
    expect(mocha.argv).toContain("/hypofix/helpers/mocha-reporter.cjs");
    expect(mocha.argv).toContain("--full-trace");
    expect(mocha.argv.slice(-3)).toEqual(["--grep", "^(?:Cart adds \\(2\\))$", "test/a.test.js"]);
    const node = planRun(
      detectRunner({ packageJson: pkg({ test: "node --test test/" }), names: [] }),
      sel,
      base,
    );
    expect(node.argv).toEqual([
      "node",
      "--test-reporter=/hypofix/helpers/node-test-reporter.mjs",
      "--test-reporter-destination=/tmp/r.json",
      "--test-name-pattern=(?:^|\\s)(?:adds \\(2\\))$",
      "--test",
      "test/a.test.js",
    ]);
  });

  it("runs the script's own files for the suite, and Jest's V8 coverage for a coverage run", () => {
    const command = detectRunner({ packageJson: pkg({ test: "jest test/" }), names: [] });
    const plan = planRun(command, { paths: [], titlePaths: [] }, { ...base, coverageDir: "/tmp/c" });
    expect(plan.argv).toContain("test/");
    expect(plan.argv).toContain("--coverageProvider=v8");
  });

  it("runs Jest through our per-test coverage runner only when asked, without Jest's own coverage", () => {
    const command = detectRunner({ packageJson: pkg({ test: "jest" }), names: [] });
    const runner = "--testRunner=/hypofix/helpers/jest-coverage-runner.cjs";
    const plan = planRun(command, { paths: [], titlePaths: [] }, { ...base, perTestCoverage: true });
    expect(plan.argv).toContain(runner);
    expect(plan.argv).not.toContain("--coverage");
    expect(planRun(command, { paths: [], titlePaths: [] }, base).argv).not.toContain(runner);
  });
});

describe("planRun's limits", () => {
  const base = { out: "/tmp/r.json", helpersDir: "/hypofix/helpers" };
  const sel = { paths: ["test/b.test.js", "test/a.test.js"], titlePaths: [] };
  const plan = (test: string, limits: { testTimeoutMs?: number; inOrder?: boolean }) =>
    planRun(detectRunner({ packageJson: pkg({ test }), names: [] }), sel, { ...base, ...limits }).argv;

  it("gives each test the runner's own timeout, and runs files in one process in order when asked", () => {
    expect(plan("jest", { testTimeoutMs: 1500, inOrder: true })).toEqual(
      expect.arrayContaining(["--testTimeout=1500", "--runInBand"]),
    );
    expect(plan("vitest run", { testTimeoutMs: 1500, inOrder: true })).toEqual(
      expect.arrayContaining(["--testTimeout=1500", "--no-file-parallelism"]),
    );
    const mocha = plan("mocha", { testTimeoutMs: 1500 });
    expect(mocha.slice(mocha.indexOf("--timeout"), mocha.indexOf("--timeout") + 2)).toEqual([
      "--timeout",
      "1500",
    ]);
    // Mocha runs the files in the order given.
    expect(mocha.slice(-2)).toEqual(["test/b.test.js", "test/a.test.js"]);
    // node:test's timeout would limit each file whole: not passed.
    expect(plan("node --test", { testTimeoutMs: 1500 }).join(" ")).not.toMatch(/timeout/);
  });

  it("adds nothing without limits", () => {
    for (const test of ["jest", "vitest run", "mocha", "node --test"])
      expect(plan(test, {}).join(" ")).not.toMatch(/[tT]imeout|runInBand|file-parallelism/);
  });
});

describe("parseReport", () => {
  it("reads each runner's timeout as the port's TestTimeout, and other failures as they are", () => {
    const jest = (message: string) =>
      JSON.stringify({
        testResults: [
          {
            name: "/work/test/a.test.js",
            status: "failed",
            assertionResults: [
              { ancestorTitles: [], title: "t", status: "failed", failureMessages: [message] },
            ],
          },
        ],
      });
    const typeOf = (runner: "jest" | "vitest", message: string) =>
      parseReport(runner, jest(message), "/work").tests[0]?.failure;
    expect(
      typeOf("jest", 'thrown: "Exceeded timeout of 100 ms for a test.\nAdd a timeout value"')?.type,
    ).toBe("TestTimeout");
    expect(typeOf("vitest", "Error: STACK_TRACE_ERROR\n    at /work/test/a.test.js:3:5")).toMatchObject({
      type: "TestTimeout",
      message: "the test did not finish within its time limit",
    });
    expect(
      typeOf("jest", "Error: expect(received).toBe(expected)\n    at /work/test/a.test.js:3:5")?.type,
    ).toBe("Error");
    const mocha = (message: string) =>
      parseReport(
        "mocha",
        JSON.stringify([
          {
            file: "/work/test/a.test.js",
            titlePath: ["t"],
            status: "failed",
            error: { name: "Error", message },
          },
        ]),
        "/work",
      ).tests[0]?.failure?.type;
    expect(mocha("Timeout of 100ms exceeded. For async tests and hooks, ensure done() is called")).toBe(
      "TestTimeout",
    );
    expect(mocha("the value was not 100ms")).toBe("Error");
  });

  it("reads Jest's JSON and our Mocha and node:test reports into tests with ids, failures and load errors", async () => {
    const jest = parseReport(
      "jest",
      (await readFile(`${REPORTS}jest.json`, "utf8")).replaceAll("/ROOT", "/work"),
      "/work",
    );
    expect(jest.tests.length).toBe(30);
    expect(jest.tests.filter((t) => t.outcome === "failed")).toHaveLength(1);
    expect(jest.errors.length).toBe(1);
    const node = parseReport(
      "node-test",
      (await readFile(`${REPORTS}node-test.jsonl`, "utf8")).replaceAll("/ROOT", "/work"),
      "/work",
    );
    expect(node.errors[0]).toMatch(/^test\/broken\.test\.js did not run/);
    expect(node.tests[0]!.id).toBe(
      "test/mount.test.js::mounted routers > get the rest of the path and the parent parameters",
    );
  });

  it("keeps a failure's repository frames, outermost first, and its structured values", () => {
    const row = {
      file: "/work/test/a.test.js",
      titlePath: ["a", "b"],
      status: "failed",
      error: {
        name: "AssertionError",
        message: "Expected values to be strictly equal:\n\n0 !== 0.1\n",
        stack:
          "AssertionError: x\n    at volume (file:///work/src/a.js:5:3)\n    at TestContext.<anonymous> (file:///work/test/a.test.js:10:12)\n    at Test.run (node:internal/test_runner/test:796:25)",
        expected: "0.1",
        actual: "0",
      },
    };
    const [test] = parseReport("node-test", JSON.stringify(row), "/work").tests;
    expect(test!.failure).toMatchObject({
      type: "AssertionError",
      message: "Expected values to be strictly equal: 0 !== 0.1",
      frames: [
        { file: "test/a.test.js", line: 10 },
        { file: "src/a.js", line: 5, function: "volume" },
      ],
    });
    expect(test!.outcome).toBe("failed");
  });
});

describe("linesCovered", () => {
  const source = [
    "export function f(x) {",
    "  if (x) {",
    "    return 1;",
    "  }",
    "  return 2;",
    "}",
    "f(0);",
    "",
  ].join("\n");
  const at = (line: number) =>
    source
      .split("\n")
      .slice(0, line - 1)
      .join("\n").length + 1;
  it("reads V8's block counts at each code line: an untaken branch is not covered", () => {
    const v8 = JSON.stringify({
      result: [
        {
          url: "file:///work/src/f.js",
          functions: [
            { ranges: [{ startOffset: 0, endOffset: source.length, count: 1 }] },
            {
              ranges: [
                { startOffset: 0, endOffset: at(6) + 1, count: 1 },
                { startOffset: at(2) + 9, endOffset: at(4) + 3, count: 0 },
              ],
            },
          ],
        },
        { url: "file:///work/node_modules/x/index.js", functions: [] },
      ],
    });
    const input = { root: "/work", counts: (f: string) => f === "src/f.js", source: () => source };
    expect(linesCovered({ v8: [v8] }, input)).toEqual({ "src/f.js": [1, 2, 5, 7] });
  });

  it("maps Jest's coverage-final.json statements to their lines", () => {
    const istanbul = JSON.stringify({
      "/work/src/cart.ts": {
        statementMap: { "0": { start: { line: 3 } }, "1": { start: { line: 4 } } },
        s: { "0": 2, "1": 0 },
      },
    });
    expect(
      linesCovered({ istanbul }, { root: "/work", counts: () => true, source: () => undefined }),
    ).toEqual({
      "src/cart.ts": [3],
    });
  });
});

describe("the JavaScript language", () => {
  it("is detected from package.json, and Python's markers still win", () => {
    expect(detectFromNames({ names: ["package.json", "src"] }).id).toBe("javascript");
    expect(detectFromNames({ names: ["package.json", "pyproject.toml"] }).id).toBe("python");
    expect(javascript.detect({ names: ["README.md"] })).toBe(0);
  });

  it("tells test, source and build files apart", () => {
    expect(jsFiles.isTestFile("src/cart.test.ts")).toBe(true);
    expect(jsFiles.isTestFile("test/helpers.js")).toBe(true);
    expect(jsFiles.isTestFile("src/cart.ts")).toBe(false);
    expect(jsFiles.isSourceFile("src/cart.ts")).toBe(true);
    expect(jsFiles.isSourceFile("node_modules/x/index.js")).toBe(false);
    expect(jsFiles.isSourceFile("types/index.d.ts")).toBe(false);
    expect(jsFiles.isBuildFile("jest.config.js")).toBe(true);
    expect(jsFiles.isBuildFile("src/config.js")).toBe(false);
    expect(jsFiles.testFileOf("test/a.test.js::A > b")).toBe("test/a.test.js");
  });

  it("reads failing tests from Vitest's and Jest's CI output", () => {
    // One runner per job log (ci-log.test.ts reads whole logs of each runner).
    const vitest = ["2026-01-01T00:00:00.000Z  FAIL  test/cart.test.ts > Cart > adds up 3ms", "ok"];
    expect(parseJsCiLog(vitest.join("\n")).tests).toEqual(["test/cart.test.ts::Cart > adds up"]);
    const jest = [" FAIL test/other.test.js", "  ● Other › keeps order", "ok"];
    expect(parseJsCiLog(jest.join("\n")).tests).toEqual(["test/other.test.js::Other > keeps order"]);
    expect(parseJsCiLog("all good").failingTests).toEqual([]);
  });

  it("chooses the Node image by the project's version pins", () => {
    const choose = (files: Record<string, string>) =>
      javascript.environment.chooseVersion({
        available: ["18", "20", "22", "20.20.2"],
        fallback: "20.20.2",
        dependencyFiles: new Map(Object.entries(files)),
      });
    expect(choose({ ".nvmrc": "18\n" })).toMatchObject({ version: "18", reason: ".nvmrc" });
    expect(choose({ "package.json": JSON.stringify({ engines: { node: ">=22" } }) })).toMatchObject({
      version: "22",
    });
    expect(choose({})).toMatchObject({ version: "20", reason: "default" });
  });
});

describe("linesCoveredPerTest", () => {
  // Two functions of src/f.js, each a line: `a` on line 1, `b` on line 2, module code on line 3.
  const source = [
    "function a() { return 1; }",
    "function b() { return 2; }",
    "module.exports = { a, b };",
    "",
  ].join("\n");
  const offsetOf = (line: number) =>
    source
      .split("\n")
      .slice(0, line - 1)
      .join("\n").length + (line > 1 ? 1 : 0);
  const whole = { startOffset: 0, endOffset: source.length, count: 1 };
  /** A cut in which `ran` of the two functions ran and the module's top level ran `top` times. */
  const cut = (file: string, test: string[] | null, ran: ("a" | "b")[], top = 0, prefix = 0) =>
    JSON.stringify({
      file,
      test,
      result: [
        {
          url: "file:///work/src/f.js",
          functions: [
            { ranges: [{ ...whole, startOffset: prefix, endOffset: prefix + source.length, count: top }] },
            ...(["a", "b"] as const).map((fn, i) => ({
              ranges: [
                {
                  startOffset: prefix + offsetOf(i + 1),
                  endOffset: prefix + offsetOf(i + 2) - 1,
                  count: ran.includes(fn) ? 1 : 0,
                },
              ],
            })),
          ],
        },
      ],
      ...(prefix ? { "source-map-cache": { "file:///work/src/f.js": { lineLengths: [], prefix } } } : {}),
    });
  const input = { root: "/work", counts: (f: string) => f === "src/f.js", source: () => source };

  it("gives each test its own cut plus what its file and the run ran outside any test", () => {
    const texts = [
      [
        cut("*", null, [], 0),
        cut("/work/test/a.test.js", null, [], 1),
        cut("/work/test/a.test.js", ["A", "calls a"], ["a"]),
        cut("/work/test/a.test.js", null, []),
        cut("/work/test/a.test.js", ["A", "calls nothing"], []),
      ].join("\n"),
      // another worker: b's file, and a line cut short when the worker was killed
      [cut("/work/test/b.test.js", ["calls b"], ["b"]), '{"file": "/work/te'].join("\n"),
    ];
    expect(linesCoveredPerTest(texts, input)).toEqual({
      "test/a.test.js::A > calls a": { "src/f.js": [1, 3] },
      "test/a.test.js::A > calls nothing": { "src/f.js": [3] },
      "test/b.test.js::calls b": { "src/f.js": [2] },
    });
  });

  it("reads offsets past the module wrapper a runner put before the first line", () => {
    const texts = [cut("/work/test/a.test.js", ["calls b"], ["b"], 0, 40)];
    expect(linesCoveredPerTest(texts, input)).toEqual({ "test/a.test.js::calls b": { "src/f.js": [2] } });
    // read without the wrapper's length, the same offsets would name the wrong line
    const unshifted = texts[0]!.replace(/,"source-map-cache":\{[^}]*\}\}/, "");
    expect(linesCoveredPerTest([unshifted], input)).not.toEqual({
      "test/a.test.js::calls b": { "src/f.js": [2] },
    });
  });
});
