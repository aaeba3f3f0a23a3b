import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { isTestFile, PYTHON_HELPERS_DIR } from "../../src/lang/python/test-files.js";

const PYTHON = process.env.HYPOFIX_PYTHON ?? "/usr/bin/python3";

const CASES: [string, boolean][] = [
  ["test_x.py", true],
  ["x_test.py", true],
  ["conftest.py", true],
  ["pkg/conftest.py", true],
  ["tests/helpers.py", true],
  ["test/data/input.txt", true],
  ["testing/fixtures.py", true],
  ["src/pkg/testing/util.py", true],
  ["contest.py", false],
  ["pkg/latest.py", false],
  ["pkg/testsuite.py", false],
  ["attestation/check.py", false],
];

describe("test-file classification", () => {
  it("recognises pytest's naming, conftest.py and test folders", () => {
    expect(CASES.map(([path]) => [path, isTestFile(path)])).toEqual(CASES);
  });

  it("is the same rule inside the sandbox: the Python helper reads the same list", () => {
    const script = [
      "import json, sys",
      `sys.path.insert(0, ${JSON.stringify(PYTHON_HELPERS_DIR)})`,
      "import hypofix_repo as h",
      "print(json.dumps([h.is_test_file(p) for p in json.loads(sys.stdin.read())]))",
    ].join("\n");
    const out = execFileSync(PYTHON, ["-c", script], { input: JSON.stringify(CASES.map(([p]) => p)) });
    expect(JSON.parse(out.toString())).toEqual(CASES.map(([, expected]) => expected));
  });
});
