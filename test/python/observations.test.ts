import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPythonRuntime } from "../../src/lang/python/index.js";
import type { Runtime } from "../../src/lang/types.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import { localTree } from "../helpers/tree.js";

// A breakpoint on a line holding a lambda stops in the function and inside the lambda (real pytest,
// local sandbox): the observation says which frame each value came from, and says nothing of
// frames when the line runs in one.
const files: Record<string, string> = {
  "pytest.ini": "[pytest]\npythonpath = .\ntestpaths = tests\n",
  "pick.py":
    "def pick(items, limit):\n    keep = sorted(items, key=lambda item: item[1])\n    return keep[:limit]\n",
  "tests/test_pick.py":
    "from pick import pick\n\n\ndef test_pick():\n    assert pick([('a', 2), ('b', 1)], 1) == [('a', 2)]\n",
  "tests/test_values.py": [
    "def test_mid():",
    "    assert list(range(300)) == list(range(299)) + [7]",
    "",
    "",
    "def test_huge():",
    "    assert list(range(3000)) == []",
    "",
  ].join("\n"),
};
const test = "tests/test_pick.py::test_pick";

describe("observations: the frame of each value, assertion values whole up to a size", () => {
  let repo: string;
  let sandbox: Sandbox;
  let runtime: Runtime;
  beforeAll(async () => {
    ({ repo, sandbox } = await localTree("hypofix-debug-frames-", files));
    runtime = createPythonRuntime(sandbox, { timeoutMs: 20_000 });
  });
  afterAll(async () => {
    await sandbox?.dispose();
    if (repo) await rm(repo, { recursive: true, force: true });
  });

  it("splits the values of a line with a lambda by frame", async () => {
    const { observation } = await runtime.observe(test, "b pick.py:2 ;; c ;; p limit");
    expect(observation).toContain("The line runs in 2 frames");
    expect(observation).toContain("In `pick` (1 of the 3 stops shown): 1");
    expect(observation).toContain(
      "In `<lambda>` (2 of the 3 stops shown): NameError: name 'limit' is not defined (at each of the 2 executions)",
    );
  });

  it("shows the values alone on a line that runs in one frame", async () => {
    const { observation } = await runtime.observe(test, "b pick.py:3 ;; c ;; p keep");
    expect(observation).toBe("[('b', 1), ('a', 2)]");
  });

  it("keeps a failed assert's values whole up to 2400 characters, and cuts a larger one", async () => {
    const run = await runtime.runTests(["tests/test_values.py::test_mid", "tests/test_values.py::test_huge"]);
    const message = (id: string) => run.tests.find((t) => t.id === id)!.failure!.message;
    // The 300 numbers reach the message whole (pytest 8+ on the assert's line, older ones in its full
    // diff); a plain `-q` run shows `[0, 1, 2, 3, 4, 5, ...]` and no more.
    expect(message("tests/test_values.py::test_mid")).toMatch(/\b298,/);
    const huge = message("tests/test_values.py::test_huge");
    expect(huge).toMatch(/\b100,/);
    expect(huge).not.toMatch(/\b2999\b/);
  });
});
