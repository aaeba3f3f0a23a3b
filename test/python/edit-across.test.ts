import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPythonRuntime } from "../../src/lang/python/index.js";
import type { Runtime } from "../../src/lang/types.js";
import { NO_EXCEPTION } from "../../src/lang/experiment.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import { localTree } from "../helpers/tree.js";

// An edit-and-run experiment over two files (one slip copied into two modules), real pytest in a
// local sandbox: both edits take effect for the run, and both files are back as they were after.

const files: Record<string, string> = {
  "pytest.ini": "[pytest]\npythonpath = .\ntestpaths = tests\n",
  "pkg/__init__.py": "",
  "pkg/a.py": "from pkg.b import base\n\n\ndef total():\n    return base() + 1\n",
  "pkg/b.py": "def base():\n    return 1\n",
  "tests/test_a.py": "from pkg.a import total\n\n\ndef test_total():\n    assert total() == 12\n",
};
const test = "tests/test_a.py::test_total";

describe("edit experiments over several files (local sandbox, real pytest)", () => {
  let repo: string;
  let sandbox: Sandbox;
  let runtime: Runtime;
  beforeAll(async () => {
    ({ repo, sandbox } = await localTree("hypofix-edit-across-", files));
    runtime = createPythonRuntime(sandbox, { timeoutMs: 20_000 });
  });
  afterAll(async () => {
    await sandbox?.dispose();
    if (repo) await rm(repo, { recursive: true, force: true });
  });

  it("runs the test with the edits of both files, then restores both", async () => {
    const one = await runtime.observe(test, 'REPLACE(pkg/b.py:2, "1", "10") AND RUN');
    expect(one.observation).not.toContain(NO_EXCEPTION);
    const both = await runtime.observe(
      test,
      'REPLACE(pkg/b.py:2, "1", "10") AND REPLACE(pkg/a.py:5, "+ 1", "+ 2") AND RUN',
    );
    expect(both.kind).toBe("edit");
    expect(both.observation).toContain(NO_EXCEPTION);
    expect(await sandbox.readFile("pkg/a.py")).toBe(files["pkg/a.py"]);
    expect(await sandbox.readFile("pkg/b.py")).toBe(files["pkg/b.py"]);
    expect(await readFile(path.join(repo, "pkg/b.py"), "utf8")).toBe(files["pkg/b.py"]);
  });

  it("refuses an edit that does not apply, runs nothing and leaves every file as it was", async () => {
    const bad = await runtime.observe(
      test,
      'REPLACE(pkg/b.py:2, "7", "10") AND REPLACE(pkg/a.py:5, "+ 1", "+ 2") AND RUN',
    );
    expect(bad.observation).toMatch(/not run/);
    expect(await sandbox.readFile("pkg/a.py")).toBe(files["pkg/a.py"]);
    expect(await sandbox.readFile("pkg/b.py")).toBe(files["pkg/b.py"]);
  });
});
