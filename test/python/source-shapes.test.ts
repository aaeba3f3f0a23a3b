import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPythonRuntime } from "../../src/lang/python/index.js";
import type { Runtime } from "../../src/lang/types.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import { localTree } from "../helpers/tree.js";

// Source files as real repositories have them: a byte order mark, a latin-1 coding
// declaration, tests named by the repository's own python_files. (Local sandbox: host pytest.)
const FILES: Record<string, string | Buffer> = {
  "setup.cfg": "[tool:pytest]\ntestpaths = checks\npython_files = check_*.py\npython_functions = check_*\n",
  "geo/__init__.py": "",
  "geo/bom.py": "\ufeffdef first(xs):\n    return xs[0]\n",
  "geo/latin.py": Buffer.from(
    "# -*- coding: latin-1 -*-\n# Auteur: Fran\xe7ois\n\n\ndef last(xs):\n    return xs[-1]\n",
    "latin1",
  ),
  "geo/spin.py": "def spin(n):\n    while n > 0:\n        pass\n    return n\n",
  "checks/check_spin.py": [
    "from geo.spin import spin",
    "from geo.bom import first",
    "",
    "",
    "def check_hangs():",
    "    assert spin(1) == 0",
    "",
    "",
    "def check_after():",
    "    assert first([3]) == 3",
    "",
  ].join("\n"),
  "checks/check_geo.py": [
    "from geo.bom import first",
    "from geo.latin import last",
    "",
    "",
    "def check_ends():",
    "    assert first([1, 2]) == 1 and last([1, 2]) == 2",
    "",
  ].join("\n"),
};

let sandbox: Sandbox;
let runtime: Runtime;
beforeAll(async () => {
  ({ sandbox } = await localTree("hypofix-shapes-", FILES));
  runtime = createPythonRuntime(sandbox);
});
afterAll(() => sandbox?.dispose());

describe("source files as Python reads them", () => {
  it("names the functions of a file with a byte order mark and of a latin-1 file", async () => {
    const coverage = await runtime.coverage(["checks/check_geo.py::check_ends"]);
    expect(coverage.outcomes["checks/check_geo.py::check_ends"]).toBe("passed");
    expect(coverage.functions.map((f) => `${f.file}:${f.qualname}:${f.startLine}`).sort()).toEqual([
      "geo/bom.py:first:1",
      "geo/latin.py:last:5",
    ]);
  });

  it("counts a file pytest collected tests from as test code, whatever its name", async () => {
    const coverage = await runtime.coverage(["checks/check_geo.py"]);
    expect(Object.keys(coverage.perTest["checks/check_geo.py::check_ends"] ?? {}).sort()).toEqual([
      "geo/bom.py",
      "geo/latin.py",
    ]);
    const run = await runtime.runTests(["checks/check_geo.py"]);
    expect(run.testFiles).toEqual(["checks/check_geo.py"]);
  });

  it("traces the tests after one that hung, though the timeout landed in the tracer and CPython dropped it", async () => {
    const coverage = await runtime.coverage(["checks/check_spin.py"], { timeoutMs: 4_000 });
    expect(coverage.outcomes).toEqual({
      "checks/check_spin.py::check_hangs": "failed",
      "checks/check_spin.py::check_after": "passed",
    });
    expect(coverage.perTest["checks/check_spin.py::check_after"]).toEqual({ "geo/bom.py": [2] });
  });
});
