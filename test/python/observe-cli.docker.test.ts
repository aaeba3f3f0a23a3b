import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPythonRuntime } from "../../src/lang/python/index.js";
import type { Runtime } from "../../src/lang/types.js";
import { createSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { testOptions } from "../sandbox/limits.js";

const bin = fileURLToPath(new URL("../../bin/hypofix.js", import.meta.url));
const calc = fileURLToPath(new URL("../fixtures/py-calc", import.meta.url));
const broken = fileURLToPath(new URL("../fixtures/py-syntax", import.meta.url));

function observe(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, "observe", ...args], (err, stdout, stderr) => {
      resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
    });
  });
}

describe("hypofix observe", () => {
  it("prints every loop value in the paper's format", async () => {
    const run = await observe([
      calc,
      "--sandbox",
      "docker",
      "--test",
      "tests/test_stats.py::test_total",
      "--experiment",
      "b calc/stats.py:4 ;; c ;; p s",
    ]);
    expect(run).toMatchObject({
      code: 0,
      stdout: "At each loop execution, the expression was: [0, 1, 3, 6, 10]\n",
    });
  });

  it("names covered lines near an uncovered breakpoint, and rejects a malformed experiment with exit 2", async () => {
    const test = ["--sandbox", "docker", "--test", "tests/test_grade.py::test_grade_boundary"];
    const never = await observe([calc, ...test, "--experiment", "b calc/grade.py:7 ;; c ;; p score"]);
    expect(never.stdout).toMatch(
      /^The breakpoint at calc\/grade.py:7 was never reached by the test. Lines of calc\/grade.py the test did execute nearest to it: 3, 6, 8, 11, 14\./,
    );
    const bad = await observe([calc, ...test, "--experiment", 'REPLACE(6, "score > 90, ">= 90") AND RUN']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toMatch(/^Expected "," and a quoted argument of REPLACE at column 26/);
  });
});

describe("a repository with a syntax error", () => {
  let sandbox: Sandbox;
  let runtime: Runtime;
  beforeAll(async () => {
    sandbox = await createSandbox("docker", testOptions(broken));
    runtime = createPythonRuntime(sandbox, { timeoutMs: 20_000 });
  });
  afterAll(async () => {
    await sandbox?.dispose();
  });

  it("reports the syntax error and still runs the tests that import", async () => {
    const run = await runtime.runTests();
    expect(run.errors).toEqual(["tests/test_broken.py: SyntaxError: invalid syntax (pkg/broken.py, line 2)"]);
    expect(run.tests).toEqual([
      { id: "tests/test_fine.py::test_double", outcome: "passed", durationMs: expect.any(Number) },
    ]);
    const obs = await runtime.observe("tests/test_broken.py::test_half", "b pkg/broken.py:2 ;; c ;; p x");
    expect(obs.observation).toBe(
      "The breakpoint at pkg/broken.py:2 was never reached: the test did not execute any line of pkg/broken.py. " +
        "The test ended with SyntaxError: invalid syntax (pkg/broken.py, line 2)",
    );
    expect((await runtime.functions()).map((f) => f.qualname)).toEqual(["double"]);
  });
});
