import { describe, expect, it } from "vitest";
import type { FunctionInfo } from "../../src/lang/types.js";
import { matchFunction, predictionCandidates } from "../../src/localize/names.js";
import {
  cutTestSnippet,
  displaySignature,
  docAndComments,
  moduleName,
  numberedSource,
} from "../../src/localize/python-source.js";

const testSource = `import pytest
from calc.ops import Calculator


class TestCalc:
    @pytest.mark.slow
    def test_divide(self):
        calc = Calculator()
        assert calc.add(1, 2) == 3
        self.assertEqual(calc.add(0, 0), 0)
        values = [
            calc.divide(6, 3),
            calc.divide(1, 0),
        ]
        for v in values:
            assert v > 0
        assert values == [2, 0]
`.split("\n");

const testFn: FunctionInfo = {
  file: "tests/test_calc.py",
  qualname: "TestCalc.test_divide",
  startLine: 6,
  endLine: 17,
};

describe("cutTestSnippet", () => {
  it("cuts at the outermost statement holding the failing line, marks it, drops earlier asserts", () => {
    expect(cutTestSnippet(testSource, testFn, 13)).toBe(
      [
        "    @pytest.mark.slow",
        "    def test_divide(self):",
        "        calc = Calculator()",
        "        values = [",
        "            calc.divide(6, 3),",
        "            calc.divide(1, 0),  # error occurred here",
        "        ]",
      ].join("\n"),
    );
  });

  it("keeps the failing assertion and nested blocks whole", () => {
    const snippet = cutTestSnippet(testSource, testFn, 16);
    expect(snippet).toContain("        for v in values:\n            assert v > 0  # error occurred here");
    expect(snippet).not.toContain("assert calc.add");
    expect(snippet).not.toContain("values == [2, 0]");
  });

  it("shows the whole test when the failure is outside it", () => {
    const snippet = cutTestSnippet(testSource, testFn, 2);
    expect(snippet).toContain("assert calc.add(1, 2) == 3");
    expect(snippet).toContain("assert values == [2, 0]");
    expect(snippet).not.toContain("error occurred here");
  });
});

const opsSource = `"""Arithmetic."""


# Adds two numbers.
def add(a, b):
    """Return a + b."""
    return a + b  # plain


class Calculator:
    def divide(
        self,
        a: int,
        b: int,
    ) -> float:
        # integer division on purpose
        return a // b
`.split("\n");

const add: FunctionInfo = { file: "calc/ops.py", qualname: "add", startLine: 5, endLine: 7 };
const divide: FunctionInfo = {
  file: "calc/ops.py",
  qualname: "Calculator.divide",
  startLine: 11,
  endLine: 17,
};
const initAdd: FunctionInfo = { file: "calc/__init__.py", qualname: "add", startLine: 1, endLine: 2 };
const other: FunctionInfo = { file: "other/util.py", qualname: "Helper.add", startLine: 1, endLine: 2 };

describe("python source helpers", () => {
  it("names modules and signatures as models see them", () => {
    expect(moduleName("calc/__init__.py")).toBe("calc");
    expect(moduleName("src/calc/ops.py")).toBe("src.calc.ops");
    expect(displaySignature(opsSource, add)).toBe("calc.ops.add(a, b)");
    expect(displaySignature(opsSource, divide)).toBe("calc.ops.Calculator.divide(self, a: int, b: int)");
  });

  it("gives docstrings and comments, and numbered source", () => {
    expect(docAndComments(opsSource, add)).toBe('# Adds two numbers.\n"""Return a + b."""\n7: # plain');
    expect(docAndComments(opsSource, divide)).toBe("16: # integer division on purpose");
    expect(numberedSource(opsSource, add).split("\n")[0]).toBe("   5 def add(a, b):");
    expect(numberedSource(opsSource, divide, 2)).toContain("(5 more lines)");
  });
});

describe("matchFunction", () => {
  const all = [add, divide, initAdd, other];
  const match = (text: string, prefer?: Set<string>) => {
    const m = matchFunction(text, all, prefer);
    return m.kind === "match" ? `${m.function.file}::${m.function.qualname}` : m.kind;
  };

  it("accepts the forms models write", () => {
    expect(match("calc.ops.Calculator.divide")).toBe("calc/ops.py::Calculator.divide");
    expect(match("`Calculator.divide(self, a, b)`")).toBe("calc/ops.py::Calculator.divide");
    expect(match("divide")).toBe("calc/ops.py::Calculator.divide");
    expect(match("calc/ops.py::Calculator.divide")).toBe("calc/ops.py::Calculator.divide");
    expect(match("calc/ops.py:add")).toBe("calc/ops.py::add");
    expect(match("1. def calc.ops.add(a, b)")).toBe("calc/ops.py::add");
    expect(match("CALC.OPS.ADD")).toBe("calc/ops.py::add");
    expect(match("calc.add")).toBe("calc/__init__.py::add");
  });

  it("reports an ambiguous bare name unless one candidate is preferred", () => {
    expect(match("add")).toBe("ambiguous");
    expect(match("add", new Set(["other/util.py::Helper.add"]))).toBe("other/util.py::Helper.add");
    expect(match("nonexistent.fn")).toBe("none");
    expect(match("")).toBe("none");
  });
});

describe("predictionCandidates", () => {
  it("reads code blocks, backticked names in prose, and bare lines", () => {
    expect(predictionCandidates("```\ncalc.ops.add(a, b)\nCalculator.divide\n```")).toEqual([
      "calc.ops.add(a, b)",
      "Calculator.divide",
    ]);
    expect(predictionCandidates("The culprit is `Calculator.divide` and maybe `add`.")).toEqual([
      "Calculator.divide",
      "add",
    ]);
    expect(predictionCandidates("I am not sure what went wrong here at all")).toEqual([]);
  });
});
