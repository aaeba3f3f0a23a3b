import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPythonRuntime } from "../../src/lang/python/index.js";
import type { Runtime } from "../../src/lang/types.js";
import { createSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { reproduce } from "../../src/pipeline/reproduce.js";
import { testOptions } from "../sandbox/limits.js";

// One warm Docker sandbox over the py-calc fixture for every instrument.
const fixture = fileURLToPath(new URL("../fixtures/py-calc", import.meta.url));
let sandbox: Sandbox;
let runtime: Runtime;
const quick = { timeoutMs: 20_000 };

beforeAll(async () => {
  sandbox = await createSandbox("docker", testOptions(fixture));
  runtime = createPythonRuntime(sandbox, quick);
});
afterAll(async () => {
  await sandbox?.dispose();
});

describe("runTests", () => {
  it("reports each test's outcome, exception and repository frames from a JUnit run", async () => {
    const run = await runtime.runTests([
      "tests/test_stats.py",
      "tests/test_grade.py",
      "tests/test_wait.py::test_skipped",
    ]);
    const byId = new Map(run.tests.map((t) => [t.id, t]));
    expect(run.timedOut).toBe(false);
    expect(run.errors).toEqual([]);
    expect(byId.get("tests/test_stats.py::test_average")?.outcome).toBe("passed");
    expect(byId.get("tests/test_grade.py::test_grade[50-pass]")?.outcome).toBe("passed");
    expect(byId.get("tests/test_wait.py::test_skipped")?.outcome).toBe("skipped");

    const zero = byId.get("tests/test_stats.py::test_average_empty")?.failure;
    expect(zero).toMatchObject({ type: "ZeroDivisionError", message: "division by zero" });
    expect(zero?.frames).toEqual([
      {
        file: "tests/test_stats.py",
        line: 9,
        function: "test_average_empty",
        code: "assert average([]) == 0.0",
      },
      { file: "calc/stats.py", line: 9, function: "average", code: "return sum(xs) / len(xs)" },
    ]);
    expect(byId.get("tests/test_stats.py::test_total")?.failure?.message).toMatch(/^assert 15 == 21/);

    const recursion = byId.get("tests/test_grade.py::test_depth")?.failure;
    expect(recursion?.type).toBe("RecursionError");
    expect(recursion?.frames).toHaveLength(2);
    expect(recursion?.frames[1]).toMatchObject({ file: "calc/grade.py", function: "depth" });
    expect(recursion?.frames[1]?.repeated).toBeGreaterThan(100);
  });

  it("reports an unknown test id as an error, and megabytes of output as a plain failure", async () => {
    const missing = await runtime.runTests(["tests/test_stats.py::test_nope"]);
    expect(missing.tests).toEqual([]);
    expect(missing.errors.join("\n")).toContain("not found: tests/test_stats.py::test_nope");

    const noisy = await runtime.runTests(["tests/test_wait.py::test_noisy"]);
    expect(noisy.tests[0]?.failure?.type).toBe("AssertionError");
    expect(noisy.tests[0]?.failure?.text.length).toBeLessThan(5000);
  });

  it("stops a hanging test at the timeout, says where it hung, and stays usable", async () => {
    const started = Date.now();
    const run = await runtime.runTests(["tests/test_wait.py::test_hangs"], { timeoutMs: 2_000 });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(run.timedOut).toBe(true);
    const hung = run.tests[0]?.failure;
    expect(hung?.type).toBe("TestTimeout");
    // The alarm lands in the loop or in the lambda it calls.
    expect(hung?.frames).toContainEqual(
      expect.objectContaining({ file: "calc/wait.py", function: "wait_until" }),
    );

    const after = await runtime.runTests(["tests/test_stats.py::test_average"]);
    expect(after.tests[0]?.outcome).toBe("passed");
  });

  it("stops a hanging test among others at half the run's time, and runs the tests after it", async () => {
    const run = await runtime.runTests(
      ["tests/test_wait.py::test_hangs", "tests/test_stats.py::test_average"],
      { timeoutMs: 6_000 },
    );
    expect(run.timedOut).toBe(false);
    expect(run.tests.map((t) => [t.id, t.outcome])).toEqual([
      ["tests/test_wait.py::test_hangs", "failed"],
      ["tests/test_stats.py::test_average", "passed"],
    ]);
    expect(run.tests[0]?.failure).toMatchObject({
      type: "TestTimeout",
      message: "the test did not finish within 3s and was stopped",
    });
  });

  it("reproduces failing tests and says which do not fail here", async () => {
    const result = await reproduce(
      runtime,
      ["tests/test_stats.py::test_total", "tests/test_stats.py::test_average"],
      2,
    );
    expect(result.reproduced).toEqual(["tests/test_stats.py::test_total"]);
    expect(result.passing).toEqual(["tests/test_stats.py::test_average"]);
    expect(result).toMatchObject({ flaky: [], totalRuns: 2 });
  });
});

describe("coverage and functions", () => {
  it("gives each test's lines in source files, with outcomes and qualified functions", async () => {
    const report = await runtime.coverage([
      "tests/test_stats.py",
      "tests/test_grade.py::test_grade_boundary",
    ]);
    expect(report.perTest["tests/test_stats.py::test_total"]).toEqual({ "calc/stats.py": [2, 3, 4, 5] });
    expect(report.perTest["tests/test_stats.py::test_largest"]).toEqual({ "calc/stats.py": [13, 15] });
    expect(report.perTest["tests/test_grade.py::test_grade_boundary"]).toEqual({
      "calc/grade.py": [3, 6, 8, 11, 14, 15],
    });
    expect(report.outcomes["tests/test_stats.py::test_average"]).toBe("passed");
    expect(report.outcomes["tests/test_stats.py::test_total"]).toBe("failed");
    const traced = await createPythonRuntime(sandbox, { ...quick, coverageMethod: "coverage" }).coverage([
      "tests/test_stats.py",
      "tests/test_grade.py::test_grade_boundary",
    ]);
    expect(traced.perTest).toEqual(report.perTest);
    expect(report.functions).toContainEqual({
      file: "calc/grade.py",
      qualname: "Grader.grade",
      startLine: 5,
      endLine: 11,
    });
  });

  it("lists repository functions statically, tests only when asked", async () => {
    const fns = await runtime.functions();
    expect(fns.map((f) => `${f.file}:${f.qualname}`)).toContain("calc/wait.py:wait_until");
    expect(fns.some((f) => f.file.startsWith("tests/"))).toBe(false);
    const withTests = await runtime.functions({ includeTests: true });
    expect(withTests.map((f) => f.qualname)).toContain("test_grade_boundary");
  });
});

describe("debugger experiments", () => {
  const total = "tests/test_stats.py::test_total";

  it("reports every loop value in AutoSD's format, and every print", async () => {
    const obs = await runtime.observe(total, "b calc/stats.py:4 ;; c ;; p s");
    expect(obs).toMatchObject({ kind: "debugger" });
    expect(obs.observation).toBe("At each loop execution, the expression was: [0, 1, 3, 6, 10]");

    const two = await runtime.observe(total, "b calc/stats.py:4 ;; c ;; p i ;; p missing");
    expect(two.observation).toBe(
      "i: At each loop execution, the expression was: [0, 1, 2, 3, 4]\n" +
        "missing: NameError: name 'missing' is not defined (at each of the 5 executions)",
    );
  });

  it("states a single value, and an unreached line with the nearest lines reached", async () => {
    const once = await runtime.observe(
      "tests/test_grade.py::test_grade_boundary",
      "b grade.py:14 ;; c ;; p score",
    );
    expect(once.observation).toBe("40");
    // a breakpoint on a `def` line stops at the start of each call, as in pdb
    const entry = await runtime.observe(
      "tests/test_grade.py::test_grade_boundary",
      "b calc/grade.py:5 ;; c ;; p score",
    );
    expect(entry.observation).toBe("40");

    const never = await runtime.observe(total, "b calc/stats.py:15 ;; c ;; p xs");
    expect(never.observation).toMatch(
      /^The breakpoint at calc\/stats.py:15 was never reached by the test. Lines of calc\/stats.py the test did execute nearest to it: 2, 3, 4, 5\./,
    );
  });

  it("turns bad breakpoints and expressions into observations", async () => {
    expect((await runtime.observe(total, "b calc/nope.py:3 ;; c ;; p x")).observation).toBe(
      "File calc/nope.py does not exist in the repository.",
    );
    expect((await runtime.observe(total, "b calc/stats.py:7 ;; c ;; p x")).observation).toMatch(
      /^Line 7 is not an executable statement in calc\/stats.py .* Nearest executable lines: 3, 4, 5, 8, 9\.$/,
    );
    expect((await runtime.observe(total, "b calc/stats.py:4 ;; c ;; p s +")).observation).toMatch(
      /^SyntaxError/,
    );
    const invalid = await runtime.observe(total, "b calc/stats.py:4 ;; c ;; p 's");
    expect(invalid.kind).toBe("invalid");
    expect(invalid.observation).toMatch(/^Unbalanced quotes/);
  });
});

describe("edit-and-run experiments", () => {
  const observed = async (
    test: string,
    experiment: string,
    options?: { timeoutMs?: number; file?: string },
  ) => (await runtime.observe(test, experiment, options)).observation;

  it("runs the failing test on the edited file and restores it", async () => {
    const before = await sandbox.readFile("calc/stats.py");
    const fixed = await runtime.observe(
      "tests/test_stats.py::test_total",
      'REPLACE(3, "len(xs) - 1", "len(xs)") AND RUN',
    );
    expect(fixed).toMatchObject({ kind: "edit", observation: "[No exception triggered]" });
    expect(
      await observed(
        "tests/test_stats.py::test_average_empty",
        'ADD(9, "if not xs:\\n    return 0.0") AND RUN',
      ),
    ).toBe("[No exception triggered]");
    expect(
      await observed("tests/test_stats.py::test_average", 'REPLACE(9, "len(xs)", "len(xs))") AND RUN', {
        file: "calc/stats.py",
      }),
    ).toMatch(/^SyntaxError: .*\(calc\/stats.py, line 9\)$/);
    expect(await sandbox.readFile("calc/stats.py")).toBe(before);
    expect((await runtime.runTests(["tests/test_stats.py::test_total"])).tests[0]?.outcome).toBe("failed");
  });

  it("says when REPLACE's old text is not on the line, and reports exceptions and hangs", async () => {
    const boundary = "tests/test_grade.py::test_grade_boundary";
    expect(await observed("tests/test_stats.py::test_total", 'REPLACE(4, "xs[j]", "xs[i]") AND RUN')).toBe(
      'REPLACE(4, "xs[j]", "xs[i]") was not applied: line 4 does not contain "xs[j]". Line 4 is: "s += xs[i]"\n' +
        "The test was not run.",
    );
    expect(
      await observed(boundary, 'REPLACE(calc/grade.py:14, "self.grade(score)", "self.grade(None)") AND RUN'),
    ).toBe("TypeError: '>' not supported between instances of 'NoneType' and 'int'");
    expect(
      await observed(boundary, 'ADD(calc/grade.py:6, "while True: pass") AND RUN', { timeoutMs: 2_000 }),
    ).toBe("TestTimeout: the test did not finish within 2s and was stopped");
    expect(await observed(boundary, 'DEL(../../etc/x.py:1, "a") AND RUN')).toBe(
      "File ../../etc/x.py is outside the repository; give a path relative to its root.",
    );
    expect((await runtime.runTests([boundary])).tests[0]?.failure?.type).toBe("AssertionError");
  });
});

describe("block trace", () => {
  it("records basic blocks with variables at entry and exit, first 5 and last 5", async () => {
    const trace = await runtime.trace("tests/test_stats.py::test_total", "calc/stats.py", "total");
    expect(trace.totalBlocks).toBe(13);
    expect(trace.blocks.map((b) => b.index)).toEqual([1, 2, 3, 4, 5, 9, 10, 11, 12, 13]);
    expect(trace.blocks[0]).toMatchObject({ startLine: 2, before: { xs: "[1, 2, 3, 4, 5, 6]" } });
    expect(trace.blocks[0]?.after).toMatchObject({ s: "0" });
    expect(trace.blocks.at(-1)?.after).toMatchObject({ s: "15", __return__: "15" });
    expect(trace.rendered).toContain("[... 3 blocks omitted ...]");

    const observed = await runtime.observe(
      "tests/test_grade.py::test_grade_boundary",
      "trace calc/grade.py:Grader.grade",
    );
    expect(observed.kind).toBe("trace");
    expect(observed.observation).toContain('[Block 3] line 11\n    return "fail"');
    const missing = await runtime.trace("tests/test_stats.py::test_total", "calc/stats.py", "nothing");
    expect(missing.rendered).toBe(
      "No function nothing in calc/stats.py. Functions there: total, average, largest.",
    );
  });
});
