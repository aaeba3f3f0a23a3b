import { describe, expect, it } from "vitest";
import type { CoverageReport } from "../../src/lang/types.js";
import { localizationEntrySchema } from "../../src/result.js";
import { sbfl, suspiciousness } from "../../src/localize/sbfl.js";

/**
 * Hand-computed spectrum. Failing: t1, t6 (F = 2). Passing: t2, t3 (P = 2).
 * t4 was skipped and t5 fails for another reason: neither counts.
 *
 * line            ef ep  Ochiai              DStar (*=2)
 * a.py:2   f      1  2   1/sqrt(2*3)=0.408   1/(2+1)=0.333
 * a.py:3   f      1  0   1/sqrt(2*1)=0.707   1/(0+1)=1
 * a.py:7   g      2  1   2/sqrt(2*3)=0.816   4/(1+0)=4
 * b.py:13  C.m    2  0   2/sqrt(2*2)=1       4/0 -> 4/0.5=8
 * b.py:14  C.m    2  1   0.816               4
 * __init__.py:1   2  2   2/sqrt(2*4)=0.707   4/2=2   (module level: no function)
 * a.py:8   g      0  1   not suspicious
 */
const coverage: CoverageReport = {
  perTest: {
    t1: { "a.py": [2, 3, 7], "b.py": [13, 14], "__init__.py": [1] },
    t6: { "a.py": [7], "b.py": [13, 14], "__init__.py": [1] },
    t2: { "a.py": [2, 7, 8], "b.py": [14], "__init__.py": [1] },
    t3: { "a.py": [2, 2], "__init__.py": [1] },
    t4: { "a.py": [3] },
    t5: { "a.py": [3] },
  },
  outcomes: { t1: "failed", t6: "failed", t2: "passed", t3: "passed", t4: "skipped", t5: "failed" },
  functions: [
    { file: "a.py", qualname: "f", startLine: 1, endLine: 5 },
    { file: "a.py", qualname: "g", startLine: 6, endLine: 10 },
    { file: "b.py", qualname: "C", startLine: 11, endLine: 16 },
    { file: "b.py", qualname: "C.m", startLine: 12, endLine: 15 },
  ],
};

describe("sbfl", () => {
  it("ranks lines by Ochiai with ties on fewer passing executions, then file, then line", () => {
    const result = sbfl({ coverage, failingTests: ["t1", "t6"] });
    expect(result.totalFailed).toBe(2);
    expect(result.totalPassed).toBe(2);
    expect(result.lines.map((l) => [`${l.file}:${l.line}`, l.function, l.failed, l.passed])).toEqual([
      ["b.py:13", "C.m", 2, 0],
      ["a.py:7", "g", 2, 1],
      ["b.py:14", "C.m", 2, 1],
      ["a.py:3", "f", 1, 0],
      ["__init__.py:1", undefined, 2, 2],
      ["a.py:2", "f", 1, 2],
    ]);
    expect(result.lines.map((l) => l.score)).toEqual([
      1,
      2 / Math.sqrt(6),
      2 / Math.sqrt(6),
      1 / Math.sqrt(2),
      2 / Math.sqrt(8),
      1 / Math.sqrt(6),
    ]);
  });

  it("ranks functions by their most suspicious line and says why", () => {
    const { functions } = sbfl({ coverage, failingTests: ["t1", "t6"] });
    expect(functions.map((e) => [e.rank, e.file, e.function, e.line])).toEqual([
      [1, "b.py", "C.m", 13],
      [2, "a.py", "g", 7],
      [3, "a.py", "f", 3],
    ]);
    expect(functions[0]?.reason).toBe("line 13 executed by 2/2 failing and 0/2 passing tests; Ochiai 1.00");
    for (const e of functions) localizationEntrySchema.parse(e);
  });

  it("ranks by DStar, keeping an element run by every failing and no passing test finite and first", () => {
    const result = sbfl({ coverage, failingTests: ["t1", "t6"], formula: "dstar" });
    expect(result.lines.map((l) => [`${l.file}:${l.line}`, l.score])).toEqual([
      ["b.py:13", 8],
      ["a.py:7", 4],
      ["b.py:14", 4],
      ["__init__.py:1", 2],
      ["a.py:3", 1],
      ["a.py:2", 1 / 3],
    ]);
    expect(result.functions.map((e) => e.function)).toEqual(["C.m", "g", "f"]);
    expect(result.functions[0]?.reason).toContain("DStar 8.00");
    expect(JSON.parse(JSON.stringify(result.functions))).toEqual(result.functions);
  });

  it("gives an element no failing test ran a zero score", () => {
    expect(suspiciousness("ochiai", 0, 3, 2)).toBe(0);
    expect(suspiciousness("dstar", 0, 0, 2)).toBe(0);
  });

  it("is deterministic whatever the input order", () => {
    const reversed: CoverageReport = {
      ...coverage,
      perTest: Object.fromEntries(Object.entries(coverage.perTest).reverse()),
      functions: [...coverage.functions].reverse(),
    };
    expect(sbfl({ coverage: reversed, failingTests: ["t6", "t1"] })).toEqual(
      sbfl({ coverage, failingTests: ["t1", "t6"] }),
    );
  });
});
