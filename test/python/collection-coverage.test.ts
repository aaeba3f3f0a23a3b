import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPythonRuntime } from "../../src/lang/python/index.js";
import type { Runtime } from "../../src/lang/types.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import { localTree } from "../helpers/tree.js";

// Code a test module runs while pytest collects it (a parametrize argument built by a source
// function) counts toward the coverage of that module's tests, and of no other module's (real
// pytest, local sandbox, the default settrace coverage).
const files: Record<string, string> = {
  "pytest.ini": "[pytest]\npythonpath = .\ntestpaths = tests\n",
  "shapes.py": [
    "SIDES = {'square': 4}",
    "",
    "",
    "def make(kind):",
    "    sides = SIDES.get(kind, 3)",
    "    return {'kind': kind, 'sides': sides}",
    "",
    "",
    "def describe(shape):",
    "    return f\"{shape['kind']} with {shape['sides']} sides\"",
    "",
  ].join("\n"),
  "tests/test_built.py": [
    "import pytest",
    "from shapes import describe, make",
    "",
    "",
    "@pytest.mark.parametrize('shape', [make('square'), make('hexagon')])",
    "def test_describe(shape):",
    "    assert 'sides' in describe(shape)",
    "",
  ].join("\n"),
  "tests/test_other.py": [
    "from shapes import describe",
    "",
    "",
    "def test_plain():",
    "    assert describe({'kind': 'x', 'sides': 1}) == 'x with 1 sides'",
    "",
  ].join("\n"),
};

describe("per-test coverage of code run at collection time", () => {
  let repo: string;
  let sandbox: Sandbox;
  let runtime: Runtime;
  beforeAll(async () => {
    ({ repo, sandbox } = await localTree("hypofix-collect-cov-", files));
    runtime = createPythonRuntime(sandbox, { timeoutMs: 20_000 });
  });
  afterAll(async () => {
    await sandbox?.dispose();
    if (repo) await rm(repo, { recursive: true, force: true });
  });

  it("gives `make`'s lines to the parametrized tests, not to the other module's test", async () => {
    const { perTest } = await runtime.coverage();
    for (const id of [
      "tests/test_built.py::test_describe[shape0]",
      "tests/test_built.py::test_describe[shape1]",
    ]) {
      expect(perTest[id]?.["shapes.py"]).toEqual([5, 6, 10]);
    }
    // Not the module-level line either: importing shapes.py says nothing about these tests.
    expect(perTest["tests/test_other.py::test_plain"]?.["shapes.py"]).toEqual([10]);
  });
});
