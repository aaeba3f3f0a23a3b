import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPythonRuntime } from "../../src/lang/python/index.js";
import type { Runtime } from "../../src/lang/types.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import { localTree } from "../helpers/tree.js";

// Folders named build, dist or env are usually artifacts or virtualenvs, but sometimes the
// code under test: what the tests import decides, not the name. (Local sandbox: host pytest.)
const FILES: Record<string, string> = {
  "build/__init__.py": "",
  "build/steps.py": "def run(n):\n    return n + 1\n",
  "dist/tool.py": "def pack(xs):\n    return list(xs)\n",
  "env/pyvenv.cfg": "home = /usr/bin\n",
  "env/lib/helper.py": "def noise():\n    return 0\n",
  "tests/test_all.py": [
    "import sys",
    "sys.path.insert(0, 'env/lib')",
    "from build.steps import run",
    "from dist.tool import pack",
    "from helper import noise",
    "",
    "",
    "def test_all():",
    "    assert run(1) == 2 and pack((1,)) == [1] and noise() == 0",
    "",
  ].join("\n"),
};

let sandbox: Sandbox;
let runtime: Runtime;
beforeAll(async () => {
  ({ sandbox } = await localTree("hypofix-dirs-", FILES));
  runtime = createPythonRuntime(sandbox);
});
afterAll(() => sandbox?.dispose());

describe("source folders named like build output", () => {
  it("covers a build/ package and a dist/ namespace package the tests import, never a virtualenv", async () => {
    const cov = await runtime.coverage(["tests/test_all.py::test_all"]);
    expect(cov.outcomes["tests/test_all.py::test_all"]).toBe("passed");
    expect(Object.keys(cov.perTest["tests/test_all.py::test_all"] ?? {}).sort()).toEqual([
      "build/steps.py",
      "dist/tool.py",
    ]);
  });

  it("lists a build/ package's functions, not a virtualenv's", async () => {
    const files = new Set((await runtime.functions()).map((f) => f.file));
    expect(files.has("build/steps.py")).toBe(true);
    expect(files.has("env/lib/helper.py")).toBe(false);
  });
});
