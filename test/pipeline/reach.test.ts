import { describe, expect, it } from "vitest";
import type { CoverageReport } from "../../src/lang/types.js";
import { testsReaching } from "../../src/pipeline/reach.js";

const before = [
  "def is_adult(age):",
  "    return age > 18",
  "",
  "",
  "LIMIT = 3",
  "",
  "def scale(x):",
  "    return x * 2",
  "",
].join("\n");

const coverage: CoverageReport = {
  perTest: {
    "t.py::test_adult": { "m.py": [2] },
    "t.py::test_scale": { "m.py": [8] },
    "t.py::test_nothing": {},
  },
  outcomes: {},
  functions: [
    { file: "m.py", qualname: "is_adult", startLine: 1, endLine: 2 },
    { file: "m.py", qualname: "scale", startLine: 7, endLine: 8 },
  ],
};

describe("testsReaching", () => {
  it("names the tests that ran a line of the changed function, and no other", () => {
    const after = before.replace("age > 18", "age >= 18");
    expect(testsReaching(coverage, [{ file: "m.py", before, after }])).toEqual(["t.py::test_adult"]);
  });

  it("takes the function a new line goes into", () => {
    const after = before.replace("    return x * 2", "    x = abs(x)\n    return x * 2");
    expect(testsReaching(coverage, [{ file: "m.py", before, after }])).toEqual(["t.py::test_scale"]);
  });

  it("knows no selection for a change outside every function (module-level code runs for every importer)", () => {
    const after = before.replace("LIMIT = 3", "LIMIT = 4");
    expect(testsReaching(coverage, [{ file: "m.py", before, after }])).toBeUndefined();
  });
});
