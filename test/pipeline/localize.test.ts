import { describe, expect, it } from "vitest";
import { coverageReaches } from "../../src/pipeline/localize.js";

describe("coverageReaches", () => {
  const reaches = coverageReaches({
    perTest: { "tests/test_a.py::test_one": { "pkg/a.py": [3, 4], "pkg/b.py": [10] } },
    outcomes: { "tests/test_a.py::test_one": "failed" },
    functions: [],
  });

  it("says whether a recorded test ran a line, per file", () => {
    expect(reaches("tests/test_a.py::test_one", "pkg/a.py", 4)).toBe(true);
    expect(reaches("tests/test_a.py::test_one", "pkg/a.py", 10)).toBe(false);
    expect(reaches("tests/test_a.py::test_one", "pkg/b.py", 10)).toBe(true);
  });

  it("does not know about a test the coverage run did not record", () => {
    expect(reaches("tests/test_a.py::test_two", "pkg/a.py", 3)).toBeUndefined();
  });
});
